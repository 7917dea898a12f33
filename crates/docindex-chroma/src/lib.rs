//! Chroma as DocumentIndex's shared vector store: a thin blocking client for the v2 HTTP
//! API (heartbeat, collections, upsert, get, query) behind the core's `VectorStore`.
//!
//! One collection per embedding model (cosine space). A record is one chunk: its id is
//! `DOC:LAYOUT:CHUNK`, its metadata the document, layout, chunk index and node, so a query
//! can be kept to the layouts the asking library holds.

mod address;

pub use address::ChromaAddress;
use docindex_core::vectors::{ChunkVector, Neighbour, VectorSet, VectorStore, VectorStoreError};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// The most records sent in one upsert: well under Chroma's own batch limit.
const UPSERT_BATCH: usize = 1000;

/// A Chroma server reached over HTTP.
pub struct ChromaStore {
    address: ChromaAddress,
    http: reqwest::blocking::Client,
    /// Collection ids by model, found or made on first use.
    collections: Mutex<HashMap<String, String>>,
}

#[derive(Deserialize)]
struct Collection {
    id: String,
}

#[derive(Deserialize)]
struct GotIds {
    ids: Vec<String>,
}

/// A record's metadata as Chroma returns it.
type Metadata = HashMap<String, Value>;

/// One list per query embedding (we send one).
#[derive(Deserialize)]
struct QueryReply {
    ids: Vec<Vec<String>>,
    distances: Option<Vec<Vec<Option<f32>>>>,
    metadatas: Option<Vec<Vec<Option<Metadata>>>>,
}

impl ChromaStore {
    /// A client for the server at `address` (`chroma://HOST:PORT…`). Nothing is sent yet.
    pub fn new(address: &str) -> Result<Self, VectorStoreError> {
        let address = ChromaAddress::parse(address)?;
        let http = reqwest::blocking::Client::builder()
            .timeout(address.timeout)
            .connect_timeout(address.timeout.min(Duration::from_secs(5)))
            .user_agent(concat!("docindex/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| VectorStoreError::Unreachable {
                store: address.given.clone(),
                reason: format!("cannot set up HTTP: {e}"),
            })?;
        Ok(ChromaStore {
            address,
            http,
            collections: Mutex::new(HashMap::new()),
        })
    }

    /// Whether the server is up and speaks the v2 API.
    pub fn heartbeat(&self) -> Result<(), VectorStoreError> {
        let url = format!("{}/api/v2/heartbeat", self.address.base);
        let reply = self
            .http
            .get(&url)
            .send()
            .map_err(|e| self.transport("the heartbeat", &e))?;
        let status = reply.status().as_u16();
        if status == 404 || status == 410 {
            return Err(VectorStoreError::Refused {
                store: self.address.given.clone(),
                what: "the heartbeat".into(),
                status,
                message:
                    "this server does not speak Chroma's v2 API (Chroma 1.0 or later is needed)"
                        .into(),
            });
        }
        self.read::<Value>(reply, "the heartbeat").map(|_| ())
    }

    /// The records of one model's collection (for reports and tests).
    pub fn count(&self, model: &str) -> Result<usize, VectorStoreError> {
        let id = self.collection(model)?;
        let url = format!("{}/{id}/count", self.address.collections_url());
        let reply = self
            .http
            .get(&url)
            .send()
            .map_err(|e| self.transport("a count", &e))?;
        self.read(reply, "a count")
    }

    fn collection(&self, model: &str) -> Result<String, VectorStoreError> {
        if let Some(id) = self.lock().get(model) {
            return Ok(id.clone());
        }
        self.heartbeat()?;
        let body = json!({
            "name": self.address.collection_for(model),
            "get_or_create": true,
            "configuration": {"hnsw": {"space": "cosine"}},
            "metadata": {"embedding_model": model, "made_by": "docindex"},
        });
        let collection: Collection = self.post(
            &self.address.collections_url(),
            &body,
            "opening the collection",
        )?;
        self.lock().insert(model.to_string(), collection.id.clone());
        Ok(collection.id)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, String>> {
        self.collections
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn post<T: DeserializeOwned>(
        &self,
        url: &str,
        body: &Value,
        what: &str,
    ) -> Result<T, VectorStoreError> {
        let reply = self
            .http
            .post(url)
            .json(body)
            .send()
            .map_err(|e| self.transport(what, &e))?;
        self.read(reply, what)
    }

    fn read<T: DeserializeOwned>(
        &self,
        reply: reqwest::blocking::Response,
        what: &str,
    ) -> Result<T, VectorStoreError> {
        let status = reply.status();
        let text = reply.text().map_err(|e| self.transport(what, &e))?;
        if !status.is_success() {
            return Err(VectorStoreError::Refused {
                store: self.address.given.clone(),
                what: what.to_string(),
                status: status.as_u16(),
                message: error_message(&text),
            });
        }
        serde_json::from_str(&text).map_err(|e| VectorStoreError::BadReply {
            store: self.address.given.clone(),
            what: what.to_string(),
            reason: e.to_string(),
        })
    }

    fn transport(&self, what: &str, e: &reqwest::Error) -> VectorStoreError {
        let store = self.address.given.clone();
        if e.is_timeout() {
            VectorStoreError::TimedOut {
                store,
                seconds: self.address.timeout.as_secs().max(1),
            }
        } else if e.is_connect() {
            VectorStoreError::Unreachable {
                store,
                reason: format!("{what}: nothing answers at {}", self.address.base),
            }
        } else {
            VectorStoreError::Unreachable {
                store,
                reason: format!("{what}: {}", without_url(e)),
            }
        }
    }
}

/// Chroma's error bodies are `{"error": kind, "message": text}`; anything else is shown cut.
fn error_message(body: &str) -> String {
    match serde_json::from_str::<Value>(body) {
        Ok(v) => match (v.get("error"), v.get("message")) {
            (Some(Value::String(kind)), Some(Value::String(message))) => {
                format!("{kind}: {message}")
            }
            (_, Some(Value::String(message))) => message.clone(),
            (Some(Value::String(kind)), _) => kind.clone(),
            _ => body.chars().take(300).collect(),
        },
        Err(_) => body.chars().take(300).collect(),
    }
}

fn without_url(e: &reqwest::Error) -> String {
    let mut e = e.to_string();
    if let Some(at) = e.find(" for url (") {
        e.truncate(at);
    }
    e
}

fn record_id(set: &VectorSet, chunk_index: usize) -> String {
    format!("{}:{}:{chunk_index}", set.doc_id, set.layout)
}

impl VectorStore for ChromaStore {
    fn address(&self) -> &str {
        &self.address.given
    }

    fn check(&self) -> Result<(), VectorStoreError> {
        self.heartbeat()
    }

    fn holds(&self, model: &str, set: &VectorSet) -> Result<bool, VectorStoreError> {
        let id = self.collection(model)?;
        let url = format!("{}/{id}/get", self.address.collections_url());
        let got: GotIds = self.post(
            &url,
            &json!({"where": {"layout": set.layout}, "limit": 1, "include": []}),
            "a lookup",
        )?;
        Ok(!got.ids.is_empty())
    }

    fn put(
        &self,
        model: &str,
        set: &VectorSet,
        vectors: &[ChunkVector],
    ) -> Result<(), VectorStoreError> {
        let id = self.collection(model)?;
        let url = format!("{}/{id}/upsert", self.address.collections_url());
        for batch in vectors.chunks(UPSERT_BATCH) {
            let ids: Vec<String> = batch
                .iter()
                .map(|v| record_id(set, v.chunk_index))
                .collect();
            let embeddings: Vec<&[f32]> = batch.iter().map(|v| v.vector.as_slice()).collect();
            let metadatas: Vec<Value> = batch
                .iter()
                .map(|v| {
                    json!({
                        "doc_id": set.doc_id,
                        "layout": set.layout,
                        "chunk_index": v.chunk_index,
                        "node_id": v.node_id,
                    })
                })
                .collect();
            let _: Value = self.post(
                &url,
                &json!({"ids": ids, "embeddings": embeddings, "metadatas": metadatas}),
                "storing vectors",
            )?;
        }
        Ok(())
    }

    fn nearest(
        &self,
        model: &str,
        query: &[f32],
        scope: &[VectorSet],
        limit: usize,
    ) -> Result<Vec<Neighbour>, VectorStoreError> {
        if scope.is_empty() || limit == 0 {
            return Ok(Vec::new());
        }
        let id = self.collection(model)?;
        let url = format!("{}/{id}/query", self.address.collections_url());
        let layouts: Vec<&str> = scope.iter().map(|s| s.layout.as_str()).collect();
        let reply: QueryReply = self.post(
            &url,
            &json!({
                "query_embeddings": [query],
                "n_results": limit,
                "where": {"layout": {"$in": layouts}},
                "include": ["distances", "metadatas"],
            }),
            "a query",
        )?;
        let bad = |reason: &str| VectorStoreError::BadReply {
            store: self.address.given.clone(),
            what: "a query".into(),
            reason: reason.to_string(),
        };
        let ids = reply.ids.into_iter().next().unwrap_or_default();
        let distances = reply
            .distances
            .and_then(|d| d.into_iter().next())
            .ok_or_else(|| bad("no distances"))?;
        let metadatas = reply
            .metadatas
            .and_then(|m| m.into_iter().next())
            .ok_or_else(|| bad("no metadata"))?;
        if distances.len() != ids.len() || metadatas.len() != ids.len() {
            return Err(bad("ids, distances and metadata differ in length"));
        }
        let mut out = Vec::with_capacity(ids.len());
        for (distance, metadata) in distances.into_iter().zip(metadatas) {
            let metadata = metadata.ok_or_else(|| bad("a record without metadata"))?;
            let text = |key: &str| {
                metadata
                    .get(key)
                    .and_then(Value::as_str)
                    .map(str::to_string)
                    .ok_or_else(|| bad(&format!("a record without {key}")))
            };
            let chunk_index = metadata
                .get("chunk_index")
                .and_then(Value::as_u64)
                .and_then(|i| usize::try_from(i).ok())
                .ok_or_else(|| bad("a record without chunk_index"))?;
            let distance = distance.ok_or_else(|| bad("a record without a distance"))?;
            out.push(Neighbour {
                doc_id: text("doc_id")?,
                node_id: text("node_id")?,
                chunk_index,
                // Chroma's cosine distance is 1 − cosine similarity.
                similarity: 1.0 - distance,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chroma_error_bodies_become_messages() {
        assert_eq!(
            error_message(r#"{"error":"InvalidArgumentError","message":"bad where"}"#),
            "InvalidArgumentError: bad where"
        );
        assert_eq!(error_message("plain text"), "plain text");
    }

    #[test]
    fn a_store_that_is_not_listening_is_unreachable_and_named() {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let store = ChromaStore::new(&format!("chroma://127.0.0.1:{port}")).unwrap();
        let err = store.heartbeat().unwrap_err();
        assert!(
            matches!(err, VectorStoreError::Unreachable { .. }),
            "{err:?}"
        );
        assert!(err.to_string().contains(&format!("127.0.0.1:{port}")));
    }
}
