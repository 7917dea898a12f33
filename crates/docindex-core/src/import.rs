//! PageIndex tree JSON brought into the library: the tree is checked (types, page ranges,
//! node ids, depth), its node texts laid out as one canonical text in which every node's
//! span holds exactly the text the JSON gave it (children inside their parent), and the
//! result handed to the pipeline as a given tree, so an imported document is searched and
//! cited like a native one. A tree without node text keeps its titles and summaries and
//! says so.

use crate::ingest::{Block, BlockKind, BlockStyle, Canonical};
use crate::model::NodeOrigin;
use crate::structure::Section;
use serde::Deserialize;

/// Deeper than this is not a document outline.
pub const MAX_DEPTH: usize = 32;

/// Why a PageIndex JSON file could not be imported: always the file's fault, named by the
/// field.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum ImportError {
    #[error("not PageIndex tree JSON: at {field}: {message}")]
    Json { field: String, message: String },
    #[error("the tree has no nodes (`structure` is empty)")]
    NoNodes,
    #[error("{field}: the title is empty")]
    NoTitle { field: String },
    #[error("{field}: start_index {start} is after end_index {end}")]
    InvertedPages { field: String, start: u32, end: u32 },
    #[error(
        "{field}: pages {start}–{end} fall outside its parent's pages {parent_start}–{parent_end}"
    )]
    OutsideParent {
        field: String,
        start: u32,
        end: u32,
        parent_start: u32,
        parent_end: u32,
    },
    #[error("{field}: pages {start}–{end} start before the previous section's pages {previous_start}–{previous_end}")]
    Overlapping {
        field: String,
        start: u32,
        end: u32,
        previous_start: u32,
        previous_end: u32,
    },
    #[error("{field}: node_id {node_id} is used twice (first at {first})")]
    DuplicateNodeId {
        field: String,
        node_id: String,
        first: String,
    },
    #[error("{field}: the tree is deeper than {MAX_DEPTH} levels")]
    TooDeep { field: String },
}

/// A PageIndex tree file: PDF trees (`start_index`/`end_index` pages) and Markdown trees
/// (`line_num`), with or without `summary`, `prefix_summary` and `text`.
#[derive(Debug, Clone, Deserialize)]
pub struct PageIndexTree {
    #[serde(default)]
    pub doc_name: Option<String>,
    #[serde(default)]
    pub doc_description: Option<String>,
    pub structure: Vec<PageIndexNode>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct PageIndexNode {
    pub title: String,
    #[serde(default)]
    pub node_id: Option<String>,
    #[serde(default)]
    pub start_index: Option<u32>,
    #[serde(default)]
    pub end_index: Option<u32>,
    #[serde(default)]
    pub line_num: Option<u32>,
    #[serde(default)]
    pub summary: Option<String>,
    #[serde(default)]
    pub prefix_summary: Option<String>,
    #[serde(default)]
    pub text: Option<String>,
    #[serde(default)]
    pub nodes: Vec<PageIndexNode>,
}

impl PageIndexNode {
    fn summary(&self) -> Option<&str> {
        self.summary
            .as_deref()
            .or(self.prefix_summary.as_deref())
            .filter(|s| !s.trim().is_empty())
    }
}

/// Whether `bytes` look like a PageIndex tree (a JSON object with a `structure` list).
pub fn looks_like_pageindex(bytes: &[u8]) -> bool {
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(4096)]);
    head.trim_start().starts_with('{') && head.contains("\"structure\"")
}

/// Read and check a PageIndex tree.
pub fn parse(bytes: &[u8]) -> Result<PageIndexTree, ImportError> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first != Some(&b'{') {
        return Err(ImportError::Json {
            field: "the top level".to_string(),
            message: "expected a JSON object with a `structure` list".to_string(),
        });
    }
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    let tree: PageIndexTree =
        serde_path_to_error::deserialize(&mut reader).map_err(|e| ImportError::Json {
            field: match e.path().iter().next() {
                None => "the top level".to_string(),
                Some(_) => e.path().to_string(),
            },
            message: e.inner().to_string(),
        })?;
    if tree.structure.is_empty() {
        return Err(ImportError::NoNodes);
    }
    let mut ids: Vec<(String, String)> = Vec::new();
    check_level(&tree.structure, "structure", None, 0, &mut ids)?;
    Ok(tree)
}

fn check_level(
    nodes: &[PageIndexNode],
    at: &str,
    parent: Option<(u32, u32)>,
    depth: usize,
    ids: &mut Vec<(String, String)>,
) -> Result<(), ImportError> {
    if depth >= MAX_DEPTH {
        return Err(ImportError::TooDeep {
            field: at.to_string(),
        });
    }
    let mut previous: Option<(u32, u32)> = None;
    for (i, node) in nodes.iter().enumerate() {
        let field = format!("{at}[{i}]");
        if node.title.trim().is_empty() {
            return Err(ImportError::NoTitle { field });
        }
        if let Some(id) = &node.node_id {
            if let Some((_, first)) = ids.iter().find(|(known, _)| known == id) {
                return Err(ImportError::DuplicateNodeId {
                    field,
                    node_id: id.clone(),
                    first: first.clone(),
                });
            }
            ids.push((id.clone(), field.clone()));
        }
        let pages = match (node.start_index, node.end_index) {
            (Some(start), Some(end)) if start > end => {
                return Err(ImportError::InvertedPages { field, start, end })
            }
            (Some(start), Some(end)) => Some((start, end)),
            (Some(page), None) | (None, Some(page)) => Some((page, page)),
            (None, None) => None,
        };
        if let (Some((start, end)), Some((parent_start, parent_end))) = (pages, parent) {
            if start < parent_start || end > parent_end {
                return Err(ImportError::OutsideParent {
                    field,
                    start,
                    end,
                    parent_start,
                    parent_end,
                });
            }
        }
        // Sections share a page where one ends and the next begins; one starting before
        // the previous one started is out of order.
        if let (Some((start, end)), Some((previous_start, previous_end))) = (pages, previous) {
            if start < previous_start {
                return Err(ImportError::Overlapping {
                    field,
                    start,
                    end,
                    previous_start,
                    previous_end,
                });
            }
        }
        previous = pages.or(previous);
        check_level(
            &node.nodes,
            &format!("{field}.nodes"),
            pages.or(parent),
            depth + 1,
            ids,
        )?;
    }
    Ok(())
}

/// A checked tree laid out for the pipeline: the canonical text (paragraph blocks), the
/// sections over it, and in pre-order each node's pages and summary from the JSON.
pub struct Imported {
    pub canonical: Canonical,
    pub sections: Vec<Section>,
    pub pages: Vec<Option<(u32, u32)>>,
    pub summaries: Vec<Option<String>>,
    /// Whether the JSON gave node text (otherwise titles and summaries stand in for it).
    pub has_text: bool,
    pub description: Option<String>,
}

/// Lay `tree` out as one text: each node's own text, then its children, each child at the
/// place its text stands in its parent's (the text between children stays the parent's),
/// so that every node's span holds exactly its JSON text.
pub fn lay_out(tree: &PageIndexTree) -> Imported {
    let has_text = any_text(&tree.structure);
    let mut out = Imported {
        canonical: Canonical {
            title: tree.doc_name.clone(),
            ..Canonical::default()
        },
        sections: Vec::new(),
        pages: Vec::new(),
        summaries: Vec::new(),
        has_text,
        description: tree.doc_description.clone(),
    };
    let mut sections = Vec::new();
    for node in &tree.structure {
        separate(&mut out.canonical);
        sections.push(place(node, has_text, &mut out));
    }
    out.sections = sections;
    out
}

fn any_text(nodes: &[PageIndexNode]) -> bool {
    nodes
        .iter()
        .any(|n| n.text.as_deref().is_some_and(|t| !t.trim().is_empty()) || any_text(&n.nodes))
}

/// A blank line before the next piece, unless the text is empty or already ends in one.
fn separate(c: &mut Canonical) {
    if !c.text.is_empty() && !c.text.ends_with("\n\n") {
        c.text
            .push_str(if c.text.ends_with('\n') { "\n" } else { "\n\n" });
    }
}

/// Append `piece` as paragraph blocks (split at blank lines); the blocks' index range.
fn push_blocks(c: &mut Canonical, piece: &str, heading: bool) -> std::ops::Range<usize> {
    let first = c.blocks.len();
    let base = c.text.len();
    c.text.push_str(piece);
    let mut offset = 0;
    for para in piece.split("\n\n") {
        let trimmed_start = para.len() - para.trim_start().len();
        let content = para.trim();
        if !content.is_empty() {
            let start = base + offset + trimmed_start;
            c.blocks.push(Block {
                span: start..start + content.len(),
                kind: if heading && c.blocks.len() == first {
                    BlockKind::Heading(1)
                } else {
                    BlockKind::Paragraph
                },
                style: BlockStyle::default(),
                table_id: None,
                page_break_before: false,
                has_forward_link: false,
                page: None,
            });
        }
        offset += para.len() + 2;
    }
    first..c.blocks.len()
}

fn place(node: &PageIndexNode, has_text: bool, out: &mut Imported) -> Section {
    out.pages.push(match (node.start_index, node.end_index) {
        (Some(start), Some(end)) => Some((start, end)),
        (Some(page), None) | (None, Some(page)) => Some((page, page)),
        (None, None) => None,
    });
    out.summaries.push(node.summary().map(str::to_string));
    let first_block = out.canonical.blocks.len();
    let mut children = Vec::new();
    if has_text {
        let text = node.text.as_deref().unwrap_or("").trim();
        let mut rest = if text.is_empty() {
            node.title.trim()
        } else {
            text
        };
        let mut own_written = false;
        for child in &node.nodes {
            let child_text = child.text.as_deref().unwrap_or("").trim();
            match (!child_text.is_empty())
                .then(|| rest.find(child_text))
                .flatten()
            {
                Some(at) => {
                    let before = &rest[..at];
                    if !before.trim().is_empty() {
                        separate(&mut out.canonical);
                        push_blocks(&mut out.canonical, before.trim_end(), !own_written);
                        own_written = true;
                    }
                    separate(&mut out.canonical);
                    children.push(place(child, has_text, out));
                    rest = &rest[at + child_text.len()..];
                }
                None => {
                    // Not inside the parent's text: its own text follows the parent's.
                    if !own_written && !rest.trim().is_empty() {
                        separate(&mut out.canonical);
                        push_blocks(&mut out.canonical, rest.trim(), true);
                        rest = "";
                        own_written = true;
                    }
                    separate(&mut out.canonical);
                    children.push(place(child, has_text, out));
                }
            }
        }
        if !rest.trim().is_empty() {
            separate(&mut out.canonical);
            push_blocks(&mut out.canonical, rest.trim(), !own_written);
        }
    } else {
        let mut piece = node.title.trim().to_string();
        if let Some(summary) = node.summary() {
            piece.push_str("\n\n");
            piece.push_str(summary.trim());
        }
        separate(&mut out.canonical);
        push_blocks(&mut out.canonical, &piece, true);
        for child in &node.nodes {
            separate(&mut out.canonical);
            children.push(place(child, has_text, out));
        }
    }
    let end = out.canonical.blocks.len();
    Section {
        title: node.title.trim().to_string(),
        blocks: first_block..end.max(first_block),
        origin: NodeOrigin::Imported,
        children,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED_EXAMPLE: &str = r#"{
      "doc_name": "document.pdf",
      "doc_description": "Optional one-sentence description (if enabled)",
      "structure": [
        {"title": "Section 1", "start_index": 1, "end_index": 5, "node_id": "0000",
         "summary": "Optional node summary (if enabled)",
         "text": "Section 1\n\nIntro of section one.\n\nSection 1.1\n\nBody of one point one.",
         "nodes": [
           {"title": "Section 1.1", "start_index": 2, "end_index": 3, "node_id": "0001",
            "summary": "Optional node summary (if enabled)",
            "text": "Section 1.1\n\nBody of one point one."}
         ]}
      ]
    }"#;

    #[test]
    fn the_seed_example_lays_out_with_every_node_holding_its_own_text() {
        let tree = parse(SEED_EXAMPLE.as_bytes()).unwrap();
        let imported = lay_out(&tree);
        assert!(imported.has_text);
        let text = &imported.canonical.text;
        let span = |s: &Section| {
            let b = &imported.canonical.blocks;
            &text[b[s.blocks.start].span.start..b[s.blocks.end - 1].span.end]
        };
        let top = &imported.sections[0];
        assert_eq!(
            span(top),
            "Section 1\n\nIntro of section one.\n\nSection 1.1\n\nBody of one point one."
        );
        assert_eq!(
            span(&top.children[0]),
            "Section 1.1\n\nBody of one point one."
        );
        assert_eq!(imported.pages, vec![Some((1, 5)), Some((2, 3))]);
        assert_eq!(
            imported.summaries[0].as_deref(),
            Some("Optional node summary (if enabled)")
        );
    }

    #[test]
    fn a_tree_without_text_keeps_titles_and_summaries() {
        let tree = parse(
            br#"{"doc_name": "d", "structure": [{"title": "Risk Factors", "line_num": 3,
                "summary": "Risks of the business.", "nodes": [{"title": "Supply", "line_num": 9}]}]}"#,
        )
        .unwrap();
        let imported = lay_out(&tree);
        assert!(!imported.has_text);
        assert_eq!(
            imported.canonical.text,
            "Risk Factors\n\nRisks of the business.\n\nSupply"
        );
        assert_eq!(imported.pages, vec![None, None]);
    }

    #[test]
    fn malformed_trees_are_refused_naming_the_field() {
        let err = |json: &str| parse(json.as_bytes()).unwrap_err().to_string();
        assert_eq!(
            err(r#"{"structure": [{"title": "A", "start_index": "one"}]}"#),
            "not PageIndex tree JSON: at structure[0].start_index: invalid type: string \"one\", expected u32 at line 1 column 50"
        );
        assert!(
            err(r#"{"structure": [{"title": "A", "start_index": 9, "end_index": 4}]}"#)
                .starts_with("structure[0]: start_index 9 is after end_index 4")
        );
        assert!(err(
            r#"{"structure": [{"title": "A", "start_index": 2, "end_index": 4,
                "nodes": [{"title": "B", "start_index": 3, "end_index": 7}]}]}"#
        )
        .starts_with("structure[0].nodes[0]: pages 3–7 fall outside"));
        assert!(err(
            r#"{"structure": [{"title": "A", "start_index": 5, "end_index": 6},
                              {"title": "B", "start_index": 2, "end_index": 3}]}"#
        )
        .starts_with("structure[1]: pages 2–3 start before"));
        assert!(err(r#"{"structure": [{"title": "A", "node_id": "0001",
                "nodes": [{"title": "B", "node_id": "0001"}]}]}"#)
        .contains("node_id 0001 is used twice (first at structure[0])"));
        assert_eq!(
            err(r#"{"structure": []}"#),
            "the tree has no nodes (`structure` is empty)"
        );
        let top = err(r#"[1, 2]"#);
        assert!(
            top.starts_with("not PageIndex tree JSON: at the top level"),
            "{top}"
        );
        let mut deep = String::new();
        for _ in 0..40 {
            deep.push_str(r#"{"title": "x", "nodes": ["#);
        }
        deep.push_str(r#"{"title": "leaf"}"#);
        for _ in 0..40 {
            deep.push_str("]}");
        }
        let deep = format!(r#"{{"structure": [{deep}]}}"#);
        assert!(err(&deep).contains("deeper than 32 levels"));
    }
}
