//! What a `chroma://` address says: where the server is, which collections are ours, and how
//! long to wait for it.

use docindex_core::vectors::VectorStoreError;
use reqwest::Url;
use std::time::Duration;

/// A Chroma server and our place on it, from
/// `chroma://HOST:PORT[/PREFIX][?timeout=SECONDS&tenant=T&database=D]` (plain HTTP) or
/// `chroma+https://…` (TLS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChromaAddress {
    /// As the user wrote it.
    pub given: String,
    /// `http://HOST:PORT` or `https://HOST:PORT`.
    pub base: String,
    /// Our collections are named `PREFIX-MODEL` (default prefix `docindex`).
    pub prefix: String,
    pub tenant: String,
    pub database: String,
    /// For each request (default 10 s).
    pub timeout: Duration,
}

const DEFAULT_PREFIX: &str = "docindex";
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

impl ChromaAddress {
    pub fn parse(given: &str) -> Result<Self, VectorStoreError> {
        let bad = |reason: &str| VectorStoreError::Address {
            given: given.to_string(),
            reason: reason.to_string(),
        };
        let url = Url::parse(given.trim()).map_err(|e| bad(&e.to_string()))?;
        let scheme = match url.scheme() {
            "chroma" => "http",
            "chroma+https" => "https",
            other => {
                return Err(bad(&format!(
                    "the scheme is {other:?}; use chroma://HOST:PORT or chroma+https://HOST:PORT"
                )))
            }
        };
        let host = url
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| bad("it names no host"))?;
        let port = url
            .port()
            .ok_or_else(|| bad("it names no port (Chroma's `chroma run` listens on 8000)"))?;
        let prefix = match url.path().trim_matches('/') {
            "" => DEFAULT_PREFIX.to_string(),
            p if p.contains('/') => return Err(bad("the collection prefix has a '/'")),
            p => p.to_string(),
        };
        if !prefix
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
        {
            return Err(bad(
                "the collection prefix may hold only letters, digits, '.', '_' and '-'",
            ));
        }
        let mut address = ChromaAddress {
            given: given.trim().to_string(),
            base: format!("{scheme}://{host}:{port}"),
            prefix,
            tenant: "default_tenant".into(),
            database: "default_database".into(),
            timeout: DEFAULT_TIMEOUT,
        };
        for (key, value) in url.query_pairs() {
            match key.as_ref() {
                "timeout" => {
                    let seconds: f64 = value
                        .parse()
                        .ok()
                        .filter(|s: &f64| s.is_finite() && *s > 0.0 && *s <= 3600.0)
                        .ok_or_else(|| bad("timeout must be a number of seconds (0 < s ≤ 3600)"))?;
                    address.timeout = Duration::from_secs_f64(seconds);
                }
                "tenant" => address.tenant = value.into_owned(),
                "database" => address.database = value.into_owned(),
                other => {
                    return Err(bad(&format!(
                        "unknown option {other:?} (known: timeout, tenant, database)"
                    )))
                }
            }
        }
        Ok(address)
    }

    /// The collection holding one embedding model's vectors: Chroma names are 3–512
    /// characters of `[a-zA-Z0-9._-]`, starting and ending with a letter or digit.
    pub fn collection_for(&self, model: &str) -> String {
        let model: String = model
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || matches!(c, '_' | '-') {
                    c
                } else {
                    '-'
                }
            })
            .collect();
        let name = format!("{}-{model}", self.prefix);
        let name = name.trim_matches(|c: char| !c.is_ascii_alphanumeric());
        let mut name: String = name.chars().take(512).collect();
        while name.len() < 3 {
            name.push('0');
        }
        name
    }

    /// The path of the v2 API's collections for our tenant and database.
    pub fn collections_url(&self) -> String {
        format!(
            "{}/api/v2/tenants/{}/databases/{}/collections",
            self.base, self.tenant, self.database
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_name_host_port_prefix_and_options() {
        let a = ChromaAddress::parse("chroma://127.0.0.1:8000").unwrap();
        assert_eq!(a.base, "http://127.0.0.1:8000");
        assert_eq!(a.prefix, "docindex");
        assert_eq!(a.timeout, Duration::from_secs(10));
        assert_eq!(
            a.collections_url(),
            "http://127.0.0.1:8000/api/v2/tenants/default_tenant/databases/default_database/collections"
        );
        let b = ChromaAddress::parse(
            "chroma+https://vectors.example.com:443/team-a?timeout=2.5&tenant=t1",
        )
        .unwrap();
        assert_eq!(b.base, "https://vectors.example.com:443");
        assert_eq!(b.prefix, "team-a");
        assert_eq!(b.tenant, "t1");
        assert_eq!(b.timeout, Duration::from_millis(2500));
    }

    #[test]
    fn bad_addresses_say_what_is_wrong() {
        for (given, says) in [
            ("http://localhost:8000", "scheme"),
            ("chroma://localhost", "no port"),
            ("chroma://localhost:8000/a/b", "'/'"),
            ("chroma://localhost:8000/a b", "prefix"),
            ("chroma://localhost:8000?timeout=0", "timeout"),
            ("chroma://localhost:8000?colour=red", "unknown option"),
            ("not an address", "relative URL"),
        ] {
            let err = ChromaAddress::parse(given).unwrap_err();
            assert!(err.to_string().contains(says), "{given}: {err}");
            assert!(err.to_string().contains(given.split('?').next().unwrap()));
            assert_eq!(err.fault(), docindex_core::Fault::User);
        }
    }

    #[test]
    fn collection_names_follow_chroma_rules() {
        let a = ChromaAddress::parse("chroma://h:1").unwrap();
        assert_eq!(
            a.collection_for("sentence-transformers/all-MiniLM-L6-v2"),
            "docindex-sentence-transformers-all-MiniLM-L6-v2"
        );
        assert_eq!(a.collection_for("m:v1.5"), "docindex-m-v1-5");
        let short = ChromaAddress::parse("chroma://h:1/x").unwrap();
        assert_eq!(short.collection_for("_"), "x00");
    }
}
