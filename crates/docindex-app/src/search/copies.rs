//! Copies among a search's hits: a section whose title and best passage are word for word
//! those of a higher hit in another document is listed under that hit, not beside it. The
//! same Item 1C in five annual reports is one result that names the other four, and the
//! page fills with sections that differ.

use super::SearchHit;
use crate::Result;
use docindex_core::search::RankedNode;
use docindex_store::SqliteStore;
use serde::Serialize;
use std::collections::HashMap;

/// Another document that holds a hit's section word for word.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct HitCopy {
    pub doc_id: String,
    pub doc_name: String,
    pub node_id: String,
}

/// Folding looks at most this many times the hits asked for: a section copied into
/// every filing of a big library ranks all its copies together, and each costs a lookup.
pub(crate) const FOLD_DEPTH: usize = 20;

/// The copies folded under each kept hit, by (document, node).
pub(crate) type Folded = HashMap<(String, String), Vec<HitCopy>>;

/// The first `limit` of `ranked` (best first) that are not copies of a higher one in
/// another document, and the copies folded under each. A node matched by its title alone
/// has no passage to compare and is never folded; nor is a copy in the same document (a
/// repeated passage there is the document's own). Under min-max fusion copies score within
/// a hair of each other (the same words and vectors; only the document's name, which the
/// passages' context holds, differs), so only a node that close to a kept one is looked
/// up; rank fusion, where copies take ranks apart, looks each one up.
pub(crate) fn fold_copies(
    store: &SqliteStore,
    ranked: Vec<RankedNode>,
    limit: usize,
    scores_tie_copies: bool,
) -> Result<(Vec<RankedNode>, Folded)> {
    let mut kept: Vec<RankedNode> = Vec::with_capacity(limit);
    let mut folded = Folded::new();
    // The identity of each kept node, once looked up.
    let mut kept_keys: Vec<Option<Option<[u8; 32]>>> = Vec::with_capacity(limit);
    let identity = |node: &RankedNode| -> Result<Option<(String, [u8; 32])>> {
        let Some(&(chunk, _)) = node.detail.chunks.first() else {
            return Ok(None);
        };
        Ok(store
            .hit_identity(&node.doc_id, &node.node_id, chunk)?
            .map(|i| {
                let key = docindex_core::embed::text_hash(&format!(
                    "{}\n{}",
                    i.title.trim(),
                    i.passage.trim()
                ));
                (i.doc_name, key)
            }))
    };
    for node in ranked {
        let rivals: Vec<usize> = (0..kept.len())
            .filter(|&at| kept[at].doc_id != node.doc_id)
            .filter(|&at| !scores_tie_copies || near(kept[at].score, node.score))
            .collect();
        if !rivals.is_empty() {
            if let Some((doc_name, key)) = identity(&node)? {
                let mut original = None;
                for at in rivals {
                    if kept_keys[at].is_none() {
                        kept_keys[at] = Some(identity(&kept[at])?.map(|(_, k)| k));
                    }
                    if kept_keys[at] == Some(Some(key)) {
                        original = Some(at);
                        break;
                    }
                }
                if let Some(at) = original {
                    folded
                        .entry((kept[at].doc_id.clone(), kept[at].node_id.clone()))
                        .or_default()
                        .push(HitCopy {
                            doc_id: node.doc_id.clone(),
                            doc_name,
                            node_id: node.node_id.clone(),
                        });
                    continue;
                }
            }
        }
        // Past the page, the rest are only looked at as copies of what it holds.
        if kept.len() == limit {
            continue;
        }
        kept_keys.push(None);
        kept.push(node);
    }
    Ok((kept, folded))
}

/// Whether two min-max scores are close enough for their nodes to be copies: the name in
/// the context moves BM25 by a few parts in a thousand (measured 0.3%).
fn near(a: f64, b: f64) -> bool {
    (a - b).abs() <= 0.02 * a.abs().max(b.abs())
}

/// Folds the hits that are copies of a higher one in another document: the same title
/// and text word for word. Ranking folded its nodes already; this catches the sections
/// added after it (statement rows found by their labels). `hits` are best first.
pub(crate) fn fold_copied_hits(hits: &mut Vec<SearchHit>) {
    let mut kept: Vec<SearchHit> = Vec::with_capacity(hits.len());
    for hit in hits.drain(..) {
        // A page of hits: compared directly, the whole texts only when lengths agree.
        let original = kept.iter().position(|k| {
            k.doc_id != hit.doc_id
                && k.text.len() == hit.text.len()
                && k.title.trim() == hit.title.trim()
                && k.text == hit.text
        });
        let Some(at) = original else {
            kept.push(hit);
            continue;
        };
        let copies = std::iter::once(HitCopy {
            doc_id: hit.doc_id,
            doc_name: hit.doc_name,
            node_id: hit.node_id,
        })
        .chain(hit.also_in);
        for copy in copies {
            // Folded when ranked already, and met again through a statement row.
            if !kept[at].also_in.contains(&copy) {
                kept[at].also_in.push(copy);
            }
        }
    }
    *hits = kept;
}
