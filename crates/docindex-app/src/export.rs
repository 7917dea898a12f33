//! JSON shapes for export: our native tree (a superset of PageIndex's tree JSON) and
//! PageIndex-compatible JSON.

use docindex_core::charmap::CharMap;
use docindex_core::model::{DocumentIndex, Node};
use serde_json::{json, Map, Value};

fn children_of<'a>(doc: &'a DocumentIndex, parent: Option<&str>) -> Vec<&'a Node> {
    doc.nodes
        .iter()
        .filter(|n| n.parent_id.as_deref() == parent)
        .collect()
}

fn native_node(doc: &DocumentIndex, node: &Node, map: Option<&CharMap>) -> Value {
    let mut obj = Map::new();
    obj.insert("node_id".into(), json!(node.node_id));
    obj.insert("title".into(), json!(node.title));
    obj.insert("level".into(), json!(node.level));
    obj.insert("parent_id".into(), json!(node.parent_id));
    obj.insert("start_char".into(), json!(node.span.start_char));
    obj.insert("end_char".into(), json!(node.span.end_char));
    obj.insert("token_count".into(), json!(node.token_count));
    obj.insert("summary".into(), json!(node.summary));
    obj.insert("summary_engine".into(), json!(node.summary_engine));
    obj.insert("origin".into(), json!(node.origin));
    if let Some(financial) = &node.financial {
        obj.insert("financial".into(), json!(financial));
    }
    if let (Some(first), Some(last)) = (node.start_page, node.end_page) {
        obj.insert("start_page".into(), json!(first));
        obj.insert("end_page".into(), json!(last));
    }
    if let Some(map) = map {
        obj.insert("text".into(), json!(map.slice(node.span)));
    }
    let kids: Vec<Value> = children_of(doc, Some(&node.node_id))
        .into_iter()
        .map(|c| native_node(doc, c, map))
        .collect();
    obj.insert("nodes".into(), Value::Array(kids));
    Value::Object(obj)
}

/// `{doc_id, doc_name, doc_type, metadata, structure: [...]}`; with `with_text`, the
/// canonical text at the top (`text`) and each node's text.
pub fn native(doc: &DocumentIndex, with_text: bool) -> Value {
    let map = with_text.then(|| CharMap::new(&doc.text));
    let structure: Vec<Value> = children_of(doc, None)
        .into_iter()
        .map(|n| native_node(doc, n, map.as_ref()))
        .collect();
    let mut obj = json!({
        "doc_id": doc.doc_id,
        "doc_name": doc.doc_name,
        "doc_type": doc.doc_type,
        "format": doc.format,
        "description": doc.description,
        "source_sha256": doc.source_sha256,
        "encoding": doc.encoding,
        "settings": doc.settings_key,
        "total_chars": doc.text.chars().count(),
        "metadata": doc.metadata,
        "structure": structure,
        "cross_references": doc.cross_refs,
        "dictionary": doc.dictionary,
        "links": doc.links,
    });
    if !doc.pages.is_empty() {
        obj["page_count"] = json!(doc.pages.len());
        obj["pages"] = json!(doc.pages);
        obj["images"] = json!(doc.images);
    }
    if !doc.warnings.is_empty() {
        obj["warnings"] = json!(doc.warnings);
    }
    if with_text {
        obj["text"] = json!(doc.text);
        obj["chunks"] = json!(doc.chunks);
    }
    obj
}

fn pageindex_node(
    doc: &DocumentIndex,
    node: &Node,
    map: &CharMap,
    line_of: &dyn Fn(usize) -> usize,
    with_text: bool,
) -> Value {
    let mut obj = Map::new();
    obj.insert("title".into(), json!(node.title));
    obj.insert("node_id".into(), json!(node.node_id));
    match (node.start_page, node.end_page) {
        (Some(first), Some(last)) => {
            obj.insert("start_index".into(), json!(first));
            obj.insert("end_index".into(), json!(last));
        }
        _ => {
            obj.insert("line_num".into(), json!(line_of(node.span.start_char)));
        }
    }
    obj.insert("start_char".into(), json!(node.span.start_char));
    obj.insert("end_char".into(), json!(node.span.end_char));
    obj.insert("summary".into(), json!(node.summary));
    if with_text {
        obj.insert("text".into(), json!(map.slice(node.span)));
    }
    let kids: Vec<Value> = children_of(doc, Some(&node.node_id))
        .into_iter()
        .map(|c| pageindex_node(doc, c, map, line_of, with_text))
        .collect();
    if !kids.is_empty() {
        obj.insert("nodes".into(), Value::Array(kids));
    }
    Value::Object(obj)
}

/// PageIndex's tree JSON (`doc_name`, `doc_description`, `structure` of `title`, `node_id`,
/// `summary`, `nodes`). PDF nodes carry PageIndex's `start_index`/`end_index` (1-based pages,
/// inclusive); HTML and text have no pages, so their nodes carry PageIndex's Markdown
/// variant's `line_num` (1-based line of the canonical text). Both add our char span.
pub fn pageindex(doc: &DocumentIndex, with_text: bool) -> Value {
    let map = CharMap::new(&doc.text);
    let newlines: Vec<usize> = doc
        .text
        .chars()
        .enumerate()
        .filter(|(_, c)| *c == '\n')
        .map(|(i, _)| i)
        .collect();
    let line_of = |ch: usize| newlines.partition_point(|&n| n < ch) + 1;
    let structure: Vec<Value> = children_of(doc, None)
        .into_iter()
        .map(|n| pageindex_node(doc, n, &map, &line_of, with_text))
        .collect();
    json!({
        "doc_name": doc.doc_name,
        "doc_description": doc.description,
        "structure": structure,
    })
}
