//! Cross-references ("see Note 15", "Part II, Item 7", "Exhibit 10.1", internal links):
//! found with their span, attributed to the node that contains them, and resolved to the
//! node they name when it exists.

use crate::charmap::CharMap;
use crate::ingest::Canonical;
use crate::model::{CrossRef, CrossRefKind, Node, NodeOrigin};
use crate::structure::patterns::{item_label, note_number, part_number};
use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

static REFERENCE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(?:(?P<part>Part[ \u{a0}]+(?:IV|III|II|I))\b(?:,[ \u{a0}]*|[ \u{a0}]+)(?P<pitem>Items?[ \u{a0}]+\d{1,2}[A-D]?)\b|(?P<item>Items?[ \u{a0}]+\d{1,2}(?:\.\d{2})?[A-D]?)\b|(?P<lonepart>Part[ \u{a0}]+(?:IV|III|II|I))\b|(?P<note>Notes?[ \u{a0}]+\d{1,2})\b|(?P<exhibit>Exhibits?[ \u{a0}]+\d{1,3}(?:\.\d{1,3}){0,2})|(?P<appendix>Appendix[ \u{a0}]+(?:[A-Z]|\d{1,2}))\b|(?P<table>Table[ \u{a0}]+\d{1,2}(?:\.\d{1,2})?)\b|(?P<schedule>Schedule[ \u{a0}]+(?:I{1,3}|IV|V)\b))")
        .unwrap_or_else(|_| unreachable!())
});

/// The deepest node whose span contains `ch`.
pub fn node_at(nodes: &[Node], ch: usize) -> Option<&Node> {
    nodes
        .iter()
        .filter(|n| n.span.start_char <= ch && ch < n.span.end_char)
        .max_by_key(|n| n.level)
}

/// [`node_at`] for many positions of one document: a lookup in the logarithm of its nodes
/// and their depth, not a pass over every node (a file of 40,000 headings, each naming an
/// Item, made reference finding quadratic).
pub struct NodeLocator<'a> {
    nodes: &'a [Node],
    /// Node indexes in the order of their spans' starts (a parent before its children).
    by_start: Vec<usize>,
    parent: Vec<Option<usize>>,
}

impl<'a> NodeLocator<'a> {
    pub fn new(nodes: &'a [Node]) -> Self {
        let mut by_start: Vec<usize> = (0..nodes.len()).collect();
        // Stable: at one start, pre-order puts the parent first.
        by_start.sort_by_key(|&i| nodes[i].span.start_char);
        let index: std::collections::HashMap<&str, usize> = nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.node_id.as_str(), i))
            .collect();
        let parent = nodes
            .iter()
            .map(|n| n.parent_id.as_deref().and_then(|p| index.get(p).copied()))
            .collect();
        NodeLocator {
            nodes,
            by_start,
            parent,
        }
    }

    /// The deepest node whose span contains `ch`: among the nodes that start at or before
    /// it, the last to start, or the nearest of its ancestors that still holds `ch` (spans
    /// nest, so any node holding `ch` is one of them).
    pub fn at(&self, ch: usize) -> Option<&'a Node> {
        let after = self
            .by_start
            .partition_point(|&i| self.nodes[i].span.start_char <= ch);
        let mut current = self.by_start[..after].last().copied();
        while let Some(i) = current {
            let node = &self.nodes[i];
            if ch < node.span.end_char {
                return Some(node);
            }
            current = self.parent[i];
        }
        None
    }
}

/// Find and resolve the cross-references of a document.
pub fn find(c: &Canonical, map: &CharMap, nodes: &[Node]) -> Vec<CrossRef> {
    let mut out = Vec::new();
    let locator = NodeLocator::new(nodes);
    let resolver = Resolver::new(nodes);
    let mut resolved: HashMap<(CrossRefKind, String), Option<String>> = HashMap::new();
    for caps in REFERENCE.captures_iter(&c.text) {
        let Some(whole) = caps.get(0) else { continue };
        let span = map.span(whole.start(), whole.end());
        let Some(source) = locator.at(span.start_char) else {
            continue;
        };
        // The heading of a section names itself; that is not a reference.
        if span.start_char < source.span.start_char + source.title.chars().count().min(200)
            && source.title.contains(whole.as_str())
        {
            continue;
        }
        let (kind, target) = if let (Some(p), Some(i)) = (caps.name("part"), caps.name("pitem")) {
            (
                CrossRefKind::Item,
                format!("{}, {}", p.as_str(), i.as_str()),
            )
        } else if let Some(i) = caps.name("item") {
            (CrossRefKind::Item, i.as_str().to_string())
        } else if let Some(p) = caps.name("lonepart") {
            (CrossRefKind::Part, p.as_str().to_string())
        } else if let Some(n) = caps.name("note") {
            (CrossRefKind::Note, n.as_str().to_string())
        } else if let Some(e) = caps.name("exhibit") {
            (CrossRefKind::Exhibit, e.as_str().to_string())
        } else if let Some(a) = caps.name("appendix") {
            (CrossRefKind::Appendix, a.as_str().to_string())
        } else if let Some(t) = caps.name("table") {
            (CrossRefKind::Table, t.as_str().to_string())
        } else if let Some(s) = caps.name("schedule") {
            (CrossRefKind::Schedule, s.as_str().to_string())
        } else {
            continue;
        };
        // The same reference written a thousand times is resolved once.
        let target_node_id = resolved
            .entry((kind, target.clone()))
            .or_insert_with(|| resolver.resolve(kind, &target))
            .clone();
        out.push(CrossRef {
            kind,
            source_node_id: source.node_id.clone(),
            span,
            target,
            target_node_id,
        });
    }
    for link in &c.links {
        let Some(anchor) = link.href.strip_prefix('#') else {
            continue;
        };
        let span = map.span(link.span.start, link.span.end);
        let Some(source) = locator.at(span.start_char) else {
            continue;
        };
        if source.origin == NodeOrigin::TableOfContents {
            continue;
        }
        let target_node_id = c
            .anchors
            .get(anchor)
            .and_then(|&offset| locator.at(map.char_at(offset)))
            .map(|n| n.node_id.clone());
        out.push(CrossRef {
            kind: CrossRefKind::Hyperlink,
            source_node_id: source.node_id.clone(),
            span,
            target: map.slice(span).to_string(),
            target_node_id,
        });
    }
    out.sort_by_key(|r| (r.span.start_char, r.span.end_char));
    out
}

/// Resolves written references to the nodes they name, from indexes of the document's
/// headings made once: each reference costs a lookup, not a pass over every heading.
pub struct Resolver<'a> {
    nodes: &'a [Node],
    locator: NodeLocator<'a>,
    /// Body nodes (the table of contents aside) by their Item label, in document order.
    by_item: HashMap<String, Vec<usize>>,
    by_part: HashMap<u8, usize>,
    by_note: HashMap<u32, usize>,
    /// Body nodes' titles in lower case, for the other kinds ("Exhibit 10.1").
    titles: Vec<(usize, String)>,
}

impl<'a> Resolver<'a> {
    pub fn new(nodes: &'a [Node]) -> Self {
        let mut by_item: HashMap<String, Vec<usize>> = HashMap::new();
        let mut by_part = HashMap::new();
        let mut by_note = HashMap::new();
        let mut titles = Vec::new();
        for (i, node) in nodes.iter().enumerate() {
            if node.origin == NodeOrigin::TableOfContents {
                continue;
            }
            if let Some(label) = item_label(&node.title) {
                by_item.entry(label).or_default().push(i);
            }
            if let Some(p) = part_number(&node.title) {
                by_part.entry(p).or_insert(i);
            }
            if let Some(n) = note_number(&node.title, true) {
                by_note.entry(n).or_insert(i);
            }
            titles.push((i, node.title.to_ascii_lowercase()));
        }
        Resolver {
            nodes,
            locator: NodeLocator::new(nodes),
            by_item,
            by_part,
            by_note,
            titles,
        }
    }

    /// The Part whose heading stands above node `index`, if any.
    fn ancestor_part(&self, index: usize) -> Option<u8> {
        let mut current = self.locator.parent[index];
        while let Some(parent) = current {
            if let Some(p) = part_number(&self.nodes[parent].title) {
                return Some(p);
            }
            current = self.locator.parent[parent];
        }
        None
    }

    /// The node a written reference names, if the document has it.
    pub fn resolve(&self, kind: CrossRefKind, target: &str) -> Option<String> {
        let number_after = |word: &str| -> String {
            target
                .rsplit_once(word)
                .map(|(_, rest)| rest.trim_start_matches('s').trim().to_string())
                .unwrap_or_default()
        };
        let id = |i: usize| self.nodes[i].node_id.clone();
        match kind {
            CrossRefKind::Item => {
                let label = number_after("Item");
                let part = target
                    .split(',')
                    .next()
                    .and_then(part_number)
                    .filter(|_| target.contains(','));
                self.by_item
                    .get(&label)?
                    .iter()
                    .copied()
                    .find(|&i| part.is_none() || self.ancestor_part(i) == part)
                    .map(id)
            }
            CrossRefKind::Part => self.by_part.get(&part_number(target)?).copied().map(id),
            CrossRefKind::Note => {
                let n: u32 = number_after("Note").parse().ok()?;
                self.by_note.get(&n).copied().map(id)
            }
            _ => {
                let want = target.to_ascii_lowercase();
                self.titles
                    .iter()
                    .find(|(_, t)| {
                        t.starts_with(&want)
                            && !t[want.len()..]
                                .starts_with(|c: char| c.is_ascii_digit() || c == '.')
                    })
                    .map(|&(i, _)| id(i))
            }
        }
    }
}

/// The node a written reference names, if the document has it.
pub fn resolve(kind: CrossRefKind, target: &str, nodes: &[Node]) -> Option<String> {
    Resolver::new(nodes).resolve(kind, target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;
    use crate::IndexSettings;

    #[test]
    fn the_locator_finds_the_deepest_node_as_a_pass_over_every_node_does() {
        // Nested Markdown headings with text between them, a table of contents, and
        // references to Items and Notes.
        let mut text = String::from("# Contents\n\nItem 1. Business 3\n\n");
        for i in 0..60 {
            let level = 1 + (i / 3) % 4;
            text.push_str(&format!(
                "{} Item {}. Section\n\nSee Item {} and Note {}.\n\n",
                "#".repeat(level),
                i % 16 + 1,
                (i * 7) % 16 + 1,
                i % 9 + 1
            ));
        }
        let doc = crate::index_document(
            "deep.md",
            text.as_bytes(),
            &IndexSettings::default(),
            &mut NoProgress,
        )
        .unwrap();
        let locator = NodeLocator::new(&doc.nodes);
        let chars = doc.text.chars().count();
        for ch in 0..chars + 2 {
            assert_eq!(
                locator.at(ch).map(|n| &n.node_id),
                node_at(&doc.nodes, ch).map(|n| &n.node_id),
                "at {ch}"
            );
        }
        // References resolve as the per-reference pass resolved them.
        let resolver = Resolver::new(&doc.nodes);
        for reference in &doc.cross_refs {
            let by_pass = doc
                .nodes
                .iter()
                .filter(|n| n.origin != NodeOrigin::TableOfContents)
                .find(|n| match reference.kind {
                    CrossRefKind::Item => {
                        item_label(&n.title).as_deref()
                            == reference.target.rsplit_once("Item").map(|(_, r)| r.trim())
                    }
                    _ => true,
                })
                .map(|n| n.node_id.clone());
            if reference.kind == CrossRefKind::Item {
                assert_eq!(resolver.resolve(reference.kind, &reference.target), by_pass);
            }
        }
        assert!(doc.cross_refs.iter().any(|r| r.target_node_id.is_some()));
    }
}
