//! The public data model: documents, tree nodes, chunks, cross-references and dictionary
//! entries. Every span is in Unicode code points of the canonical text, end exclusive.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A range of the canonical text in code points, end exclusive (like Python slicing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Span {
    pub start_char: usize,
    pub end_char: usize,
}

impl Span {
    pub fn new(start_char: usize, end_char: usize) -> Self {
        Span {
            start_char,
            end_char,
        }
    }
    pub fn len(&self) -> usize {
        self.end_char.saturating_sub(self.start_char)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn contains(&self, other: Span) -> bool {
        self.start_char <= other.start_char && other.end_char <= self.end_char
    }
}

/// A rectangle in PDF user space: points, origin bottom-left, y grows upwards.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Rect {
    pub left: f32,
    pub bottom: f32,
    pub right: f32,
    pub top: f32,
}

impl Rect {
    pub fn new(left: f32, bottom: f32, right: f32, top: f32) -> Self {
        Rect {
            left,
            bottom,
            right,
            top,
        }
    }
    pub fn height(&self) -> f32 {
        self.top - self.bottom
    }
    pub fn union(&self, other: &Rect) -> Rect {
        Rect {
            left: self.left.min(other.left),
            bottom: self.bottom.min(other.bottom),
            right: self.right.max(other.right),
            top: self.top.max(other.top),
        }
    }
    pub fn vertical_overlap(&self, other: &Rect) -> f32 {
        (self.top.min(other.top) - self.bottom.max(other.bottom)).max(0.0)
    }
}

/// The 13 document types of seed 000.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Hash)]
pub enum DocType {
    #[serde(rename = "10-K")]
    Form10K,
    #[serde(rename = "10-Q")]
    Form10Q,
    #[serde(rename = "8-K")]
    Form8K,
    #[serde(rename = "DEF 14A")]
    Def14A,
    #[serde(rename = "S-1")]
    S1,
    #[serde(rename = "20-F")]
    Form20F,
    #[serde(rename = "6-K")]
    Form6K,
    #[serde(rename = "earnings_call")]
    EarningsCall,
    #[serde(rename = "earnings_release")]
    EarningsRelease,
    #[serde(rename = "research_report")]
    ResearchReport,
    #[serde(rename = "financial_news")]
    FinancialNews,
    #[serde(rename = "press_release")]
    PressRelease,
    #[serde(rename = "generic")]
    Generic,
}

impl DocType {
    pub const ALL: [DocType; 13] = [
        DocType::Form10K,
        DocType::Form10Q,
        DocType::Form8K,
        DocType::Def14A,
        DocType::S1,
        DocType::Form20F,
        DocType::Form6K,
        DocType::EarningsCall,
        DocType::EarningsRelease,
        DocType::ResearchReport,
        DocType::FinancialNews,
        DocType::PressRelease,
        DocType::Generic,
    ];

    pub fn as_str(&self) -> &'static str {
        match self {
            DocType::Form10K => "10-K",
            DocType::Form10Q => "10-Q",
            DocType::Form8K => "8-K",
            DocType::Def14A => "DEF 14A",
            DocType::S1 => "S-1",
            DocType::Form20F => "20-F",
            DocType::Form6K => "6-K",
            DocType::EarningsCall => "earnings_call",
            DocType::EarningsRelease => "earnings_release",
            DocType::ResearchReport => "research_report",
            DocType::FinancialNews => "financial_news",
            DocType::PressRelease => "press_release",
            DocType::Generic => "generic",
        }
    }

    pub fn parse(s: &str) -> Option<DocType> {
        DocType::ALL
            .into_iter()
            .find(|t| t.as_str().eq_ignore_ascii_case(s))
    }
}

/// Which engine produced a summary, score or answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Engine {
    /// Sentences taken verbatim from the text (offline engine).
    Extractive,
    /// Written by a language model.
    Llm,
}

/// A figure the document states, with where it says it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KeyNumber {
    /// What the figure is, e.g. `revenue`, `net_income`, `diluted_eps`.
    pub name: String,
    /// The figure as printed, e.g. `391,035`.
    pub value: String,
    /// Scale and unit as stated, e.g. `millions USD`, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// The period the figure covers, e.g. `2023-10-01..2024-09-28`, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<String>,
    /// Where the figure is printed; absent only for facts hidden from the reader.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// Where the figure came from: `xbrl:<concept>` or `text`.
    pub source: String,
}

/// Document-level metadata. Dates are ISO `YYYY-MM-DD`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Metadata {
    pub company_name: Option<String>,
    pub ticker: Option<String>,
    pub cik: Option<String>,
    pub filing_date: Option<String>,
    pub period_end_date: Option<String>,
    pub fiscal_year: Option<i32>,
    pub fiscal_quarter: Option<u8>,
    #[serde(default)]
    pub key_people: Vec<String>,
    #[serde(default)]
    pub key_numbers: Vec<KeyNumber>,
    #[serde(default)]
    pub key_dates: Vec<(String, String)>,
    /// Where each field came from (`xbrl`, `sgml_header`, `cover_page`, `text`).
    #[serde(default)]
    pub sources: BTreeMap<String, String>,
}

/// How a node's boundaries were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeOrigin {
    /// The filing's own table-of-contents hyperlinks.
    TocLink,
    /// The PDF's outline (bookmarks).
    Outline,
    /// A domain pattern: Part, Item, Note, statement title, transcript section.
    Pattern,
    /// A heading (markup heading, or a heading-styled block).
    Heading,
    /// The filing's table of contents, kept as one node.
    TableOfContents,
    /// Text before the first section (cover page, front matter).
    FrontMatter,
    /// A size-bounded split at paragraph boundaries.
    SizeSplit,
    /// A heading the language model named and the text confirmed at that block.
    Llm,
    /// A node of an imported tree (PageIndex JSON), kept as the tree gave it.
    Imported,
}

/// A node of the section tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    /// `0000`, `0001`, … in pre-order.
    pub node_id: String,
    pub title: String,
    /// Depth in the tree: top-level nodes are level 0.
    pub level: u32,
    pub parent_id: Option<String>,
    pub span: Span,
    /// Tokens (cl100k_base) of the node's whole text, children included.
    pub token_count: usize,
    pub summary: String,
    pub summary_engine: Engine,
    pub origin: NodeOrigin,
    /// Ids of the children, in document order.
    pub children: Vec<String>,
    /// PDF only: first and last page (1-based, inclusive) the node's text is printed on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_page: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_page: Option<u32>,
    /// What the section is for an analyst (a statement with its periods, a note, MD&A…);
    /// derived from the tree by [`crate::finance::classify_sections`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub financial: Option<crate::finance::FinancialSection>,
}

/// A figure of the text tagged with an inline-XBRL concept: "PaymentsToAcquirePropertyPlant
/// AndEquipment" on the cell "(9,447)".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaggedFact {
    /// The us-gaap element's local name.
    pub concept: String,
    pub span: Span,
    /// The power of ten the displayed figure is scaled by (6: in millions), as the filer
    /// tagged it; `None` when untagged or stored before scales were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<i32>,
}

/// A ~200-token piece of one node's own text, with context for embedding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chunk {
    pub chunk_index: usize,
    pub node_id: String,
    pub span: Span,
    pub token_count: usize,
    /// Section path and summary put in front of the text when embedding.
    pub context: String,
    /// PDF only: first and last page (1-based, inclusive) of the chunk.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_page: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_page: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrossRefKind {
    Note,
    Item,
    Part,
    Exhibit,
    Appendix,
    Table,
    Schedule,
    /// An HTML link to an anchor in the same document.
    Hyperlink,
}

/// A reference from one place of the document to another section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CrossRef {
    pub kind: CrossRefKind,
    /// The node whose text contains the reference.
    pub source_node_id: String,
    /// Where the reference is written.
    pub span: Span,
    /// What it points at, as written: `Note 15`, `Part II, Item 7`, `Exhibit 10.1`.
    pub target: String,
    /// The node it resolves to, when the target exists in this document.
    pub target_node_id: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TermKind {
    /// `Adjusted EBITDA ("AEBITDA")`, `Securities and Exchange Commission (SEC)`.
    Acronym,
    /// `Apple Inc. (the "Company")`.
    DefinedTerm,
}

/// A defined term or acronym and the text that defines it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DictionaryEntry {
    pub term: String,
    pub definition: String,
    pub kind: TermKind,
    /// The defining phrase, e.g. `Apple Inc. (the “Company”)`.
    pub span: Span,
    pub node_id: Option<String>,
}

/// A hyperlink found in the document (C15); internal ones also become cross-references.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hyperlink {
    pub href: String,
    pub span: Span,
    /// For `#anchor` links: the character the anchor points at.
    pub target_char: Option<usize>,
}

impl Hyperlink {
    /// A link to another document or web page rather than a place in this one.
    pub fn is_external(&self) -> bool {
        !self.href.starts_with('#')
    }
}

/// A printed page of a PDF and the part of the canonical text it holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageInfo {
    /// 1-based page number.
    pub page: u32,
    /// From the page's first character to the next page's first character.
    pub span: Span,
    /// The page number printed on the page (`45`, `F-3`), when recognised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Running headers, footers and page numbers, kept out of the text but not lost.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub furniture: Vec<String>,
    /// False for a page without a text layer (scanned) or without any text.
    pub has_text: bool,
}

/// An image embedded in a PDF page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImageRef {
    pub page: u32,
    /// Bounding box in PDF points (origin bottom-left).
    pub bbox: Rect,
    /// The character the image sits at (start of its page's text).
    pub at_char: usize,
    /// The node whose text contains that character.
    pub node_id: Option<String>,
    /// A caption written by a multimodal model; absent offline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caption: Option<String>,
}

/// The source format a document was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceFormat {
    Html,
    Text,
    Markdown,
    Pdf,
    /// A PageIndex tree JSON file brought in by `import`.
    #[serde(rename = "pageindex")]
    PageIndex,
}

/// A fully indexed document: canonical text plus everything derived from it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocumentIndex {
    pub doc_id: String,
    pub doc_name: String,
    pub doc_type: DocType,
    pub format: SourceFormat,
    /// Lowercase hex SHA-256 of the original bytes.
    pub source_sha256: String,
    /// The encoding the bytes were decoded from.
    pub encoding: String,
    pub description: Option<String>,
    pub metadata: Metadata,
    pub text: String,
    /// Pre-order list of all nodes; tree shape is in `parent_id` / `children`.
    pub nodes: Vec<Node>,
    pub chunks: Vec<Chunk>,
    pub cross_refs: Vec<CrossRef>,
    pub dictionary: Vec<DictionaryEntry>,
    pub links: Vec<Hyperlink>,
    /// PDF only: every page and its range of the text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pages: Vec<PageInfo>,
    /// PDF only: embedded images.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ImageRef>,
    /// What the reader should know about the conversion (scanned pages, broken outline).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
    /// The settings fingerprint the index was built with (node ids are stable for it).
    /// Visible figures tagged with a us-gaap concept (inline XBRL), by local name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub facts: Vec<TaggedFact>,
    pub settings_key: String,
    /// What the language model added, when one was configured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enhancement: Option<LlmEnhancement>,
}

/// What LLM-enhanced indexing did to one document and what it cost.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LlmEnhancement {
    pub model: String,
    pub usage: crate::llm::UsageTotals,
    /// Sections whose boundaries the parsers were unsure of and the model was asked about.
    pub regions_refined: usize,
    /// Headings the model named that the text confirmed and that became nodes.
    pub headings_added: usize,
    /// Headings the model named that are not in the text at the block it gave.
    pub headings_rejected: usize,
    pub summaries_written: usize,
    /// Sections asked for a summary that no reply gave, even asked again on their own; they
    /// keep their offline summary.
    #[serde(default)]
    pub summaries_missing: usize,
    /// Metadata fields the model filled (each checked against the text).
    pub metadata_filled: Vec<String>,
    /// Metadata values the model gave that the text does not support.
    pub metadata_rejected: usize,
    pub xrefs_resolved: usize,
    /// Node ids or item numbers in replies that do not exist; dropped and logged.
    pub unknown_ids_dropped: usize,
    /// Batches whose reply stayed unusable after one corrective re-ask; their offline
    /// results were kept.
    pub batches_failed: usize,
    /// Stages the provider failed (outage, rate limits, timeouts after every retry): the
    /// offline result of each was kept, and `docindex enhance` retries them.
    #[serde(default)]
    pub stages_failed: Vec<FailedStage>,
}

/// An LLM stage of indexing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LlmStage {
    Structure,
    Summaries,
    Profile,
    CrossReferences,
}

impl LlmStage {
    pub fn as_str(self) -> &'static str {
        match self {
            LlmStage::Structure => "structure",
            LlmStage::Summaries => "summaries",
            LlmStage::Profile => "profile",
            LlmStage::CrossReferences => "cross-references",
        }
    }
}

/// A stage the provider failed, and why (the provider's reason, never a key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FailedStage {
    pub stage: LlmStage,
    pub reason: String,
}

impl FailedStage {
    /// The warning a document carries while the stage stays failed.
    pub fn warning(&self, doc_name: &str) -> String {
        format!(
            "the language model failed during {} ({}); the offline result was kept. Run `docindex enhance {doc_name}` to retry",
            self.stage.as_str(),
            self.reason
        )
    }
}

impl DocumentIndex {
    pub fn node(&self, node_id: &str) -> Option<&Node> {
        self.nodes.iter().find(|n| n.node_id == node_id)
    }

    /// Titles from the top of the tree down to `node_id`, joined with ` › `.
    pub fn path_of(&self, node_id: &str) -> String {
        let mut titles = Vec::new();
        let mut current = self.node(node_id);
        while let Some(node) = current {
            titles.push(node.title.as_str());
            current = node.parent_id.as_deref().and_then(|p| self.node(p));
        }
        titles.reverse();
        titles.join(" › ")
    }

    pub fn top_level(&self) -> impl Iterator<Item = &Node> {
        self.nodes.iter().filter(|n| n.parent_id.is_none())
    }

    /// The first and last page (inclusive) holding the text of `span`; None without pages.
    pub fn pages_of(&self, span: Span) -> Option<(u32, u32)> {
        pages_of(&self.pages, span)
    }
}

/// The first and last page (inclusive) of `pages` holding the text of `span`.
pub fn pages_of(pages: &[PageInfo], span: Span) -> Option<(u32, u32)> {
    if pages.is_empty() {
        return None;
    }
    let page_at = |c: usize| {
        let i = pages.partition_point(|p| p.span.end_char <= c);
        pages.get(i.min(pages.len() - 1)).map(|p| p.page)
    };
    let last_char = span.end_char.max(span.start_char + 1) - 1;
    Some((page_at(span.start_char)?, page_at(last_char)?))
}
