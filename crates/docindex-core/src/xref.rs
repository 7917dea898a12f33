//! Cross-references ("see Note 15", "Part II, Item 7", "Exhibit 10.1", internal links):
//! found with their span, attributed to the node that contains them, and resolved to the
//! node they name when it exists.

use crate::charmap::CharMap;
use crate::ingest::Canonical;
use crate::model::{CrossRef, CrossRefKind, Node, NodeOrigin};
use crate::structure::patterns::{item_label, note_number, part_number};
use regex::Regex;
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

/// Find and resolve the cross-references of a document.
pub fn find(c: &Canonical, map: &CharMap, nodes: &[Node]) -> Vec<CrossRef> {
    let mut out = Vec::new();
    for caps in REFERENCE.captures_iter(&c.text) {
        let Some(whole) = caps.get(0) else { continue };
        let span = map.span(whole.start(), whole.end());
        let Some(source) = node_at(nodes, span.start_char) else {
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
        let target_node_id = resolve(kind, &target, nodes);
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
        let Some(source) = node_at(nodes, span.start_char) else {
            continue;
        };
        if source.origin == NodeOrigin::TableOfContents {
            continue;
        }
        let target_node_id = c
            .anchors
            .get(anchor)
            .and_then(|&offset| node_at(nodes, map.char_at(offset)))
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

fn body_nodes(nodes: &[Node]) -> impl Iterator<Item = &Node> {
    nodes
        .iter()
        .filter(|n| n.origin != NodeOrigin::TableOfContents)
}

fn ancestor_part(nodes: &[Node], node: &Node) -> Option<u8> {
    let mut current = node.parent_id.as_deref();
    while let Some(id) = current {
        let parent = nodes.iter().find(|n| n.node_id == id)?;
        if let Some(p) = part_number(&parent.title) {
            return Some(p);
        }
        current = parent.parent_id.as_deref();
    }
    None
}

/// The node a written reference names, if the document has it.
pub fn resolve(kind: CrossRefKind, target: &str, nodes: &[Node]) -> Option<String> {
    let number_after = |word: &str| -> String {
        target
            .rsplit_once(word)
            .map(|(_, rest)| rest.trim_start_matches('s').trim().to_string())
            .unwrap_or_default()
    };
    match kind {
        CrossRefKind::Item => {
            let label = number_after("Item");
            let part = target
                .split(',')
                .next()
                .and_then(part_number)
                .filter(|_| target.contains(','));
            body_nodes(nodes)
                .filter(|n| item_label(&n.title).as_deref() == Some(label.as_str()))
                .find(|n| part.is_none() || ancestor_part(nodes, n) == part)
                .map(|n| n.node_id.clone())
        }
        CrossRefKind::Part => {
            let p = part_number(target)?;
            body_nodes(nodes)
                .find(|n| part_number(&n.title) == Some(p))
                .map(|n| n.node_id.clone())
        }
        CrossRefKind::Note => {
            let n: u32 = number_after("Note").parse().ok()?;
            body_nodes(nodes)
                .find(|node| note_number(&node.title, true) == Some(n))
                .map(|node| node.node_id.clone())
        }
        _ => {
            let want = target.to_ascii_lowercase();
            body_nodes(nodes)
                .find(|n| {
                    let t = n.title.to_ascii_lowercase();
                    t.starts_with(&want)
                        && !t[want.len()..].starts_with(|c: char| c.is_ascii_digit() || c == '.')
                })
                .map(|n| n.node_id.clone())
        }
    }
}
