//! Indexing one document: decode → canonical text → tokens → tree → nodes with spans,
//! summaries and token counts → chunks → type, metadata, cross-references, dictionary.

use crate::charmap::CharMap;
use crate::enhance::{Enhancer, LlmOptions, Parsed};
use crate::error::{IngestError, Result};
use crate::ingest::pdf::inflation::{inflated_within, InflationBudget};
use crate::ingest::pdf::{CharBoxes, PdfAssembler, PdfLimits, PdfReader};
use crate::ingest::{self, Canonical};
use crate::llm::Llm;
use crate::model::*;
use crate::progress::{ProgressSink, Stage};
use crate::structure::{self, Section, TreeSettings};
use crate::tokens::TokenCounter;
use crate::{chunk, dictionary, doctype, metadata, summary, xref};
use sha2::{Digest, Sha256};

/// Settings that shape an index. Two runs with equal settings give equal node ids.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct IndexSettings {
    pub tree: TreeSettings,
    /// Target tokens per chunk.
    pub chunk_tokens: usize,
    /// Files larger than this are refused.
    pub max_bytes: u64,
    /// PDFs with more pages than this are refused (memory grows with pages kept).
    pub max_pdf_pages: u32,
    /// PDFs whose compressed streams (every zlib stream, at its innermost layer) inflate to more than this many times
    /// their size, and past 16 MB, are refused before they are read: decompression bombs.
    pub max_pdf_inflation: u64,
    /// Reading one PDF may take at most this long (checked between pages).
    pub max_pdf_seconds: u64,
}

impl Default for IndexSettings {
    fn default() -> Self {
        IndexSettings {
            tree: TreeSettings::default(),
            chunk_tokens: 200,
            max_bytes: 100 * 1024 * 1024,
            max_pdf_pages: 5000,
            max_pdf_inflation: 50,
            max_pdf_seconds: 300,
        }
    }
}

/// The version of how bytes become text and tree, part of every settings key.
pub const INDEX_VERSION: u32 = 2;

impl IndexSettings {
    /// A fingerprint of everything that changes ids or spans. The version moves whenever a
    /// new release reads the same bytes into other text (v2: a currency sign after a figure
    /// opens a PDF table's next cell), so indexing a stored file again lays it out anew.
    pub fn key(&self) -> String {
        format!(
            "v{INDEX_VERSION};max_node_tokens={};chunk_tokens={}",
            self.tree.max_node_tokens, self.chunk_tokens
        )
    }
}

/// What indexing may use besides the bytes: a PDF reader (pdfium in the app) and a
/// language model for LLM-enhanced indexing. The default uses neither.
#[derive(Clone, Copy, Default)]
pub struct IndexTools<'a> {
    pub pdf_reader: Option<&'a dyn PdfReader>,
    pub llm: Option<&'a dyn Llm>,
    pub llm_options: LlmOptions,
}

impl IndexTools<'_> {
    /// The settings fingerprint of an index built with these tools: the model and its
    /// options change the tree and the summaries, so they are part of it.
    pub fn settings_key(&self, settings: &IndexSettings) -> String {
        match self.llm {
            Some(llm) => format!(
                "{};llm={};{}",
                settings.key(),
                llm.model(),
                self.llm_options.key()
            ),
            None => settings.key(),
        }
    }
}

/// Lowercase hex SHA-256 of the bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The document id derived from the content: the same bytes always get the same id.
pub fn doc_id_for(sha256: &str) -> String {
    sha256.chars().take(12).collect()
}

fn check_cancel(progress: &mut dyn ProgressSink) -> Result<()> {
    if progress.cancelled() {
        Err(IngestError::Cancelled)
    } else {
        Ok(())
    }
}

/// Index one document from its bytes. `name` is the file name shown to users. PDFs need a
/// reader: see [`index_document_with`].
pub fn index_document(
    name: &str,
    bytes: &[u8],
    settings: &IndexSettings,
    progress: &mut dyn ProgressSink,
) -> Result<DocumentIndex> {
    index_document_with(name, bytes, settings, progress, IndexTools::default())
}

/// Refuse an empty file and one over the configured size.
fn check_size(bytes: &[u8], settings: &IndexSettings) -> Result<()> {
    if bytes.len() as u64 > settings.max_bytes {
        return Err(IngestError::TooLarge {
            size: bytes.len() as u64,
            limit: settings.max_bytes,
        });
    }
    if bytes.is_empty() {
        return Err(IngestError::Empty);
    }
    Ok(())
}

/// Whether the file is a PDF, by its name or its header.
pub fn is_pdf(name: &str, bytes: &[u8]) -> bool {
    let by_name = name
        .rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("pdf"));
    let header = &bytes[..bytes.len().min(1024)];
    by_name || header.windows(5).any(|w| w == b"%PDF-")
}

/// Index one document, reading PDFs through `tools.pdf_reader` and, when `tools.llm` is
/// set, refining structure, summaries, description, metadata and cross-references with it.
pub fn index_document_with(
    name: &str,
    bytes: &[u8],
    settings: &IndexSettings,
    progress: &mut dyn ProgressSink,
    tools: IndexTools<'_>,
) -> Result<DocumentIndex> {
    check_size(bytes, settings)?;
    progress.stage(Stage::Decode, 0, 1);
    let (format, canonical, encoding) = if is_pdf(name, bytes) {
        let reader = tools.pdf_reader.ok_or_else(|| {
            IngestError::PdfiumMissing("this build was started without a PDF reader".into())
        })?;
        let canonical = read_pdf(reader, bytes, settings, progress)?;
        (SourceFormat::Pdf, canonical, "pdf")
    } else {
        let decoded = ingest::decode::decode(bytes)?;
        let format = ingest::detect_format(name, &decoded.text)?;
        check_cancel(progress)?;
        progress.stage(Stage::Canonical, 0, 1);
        let mut canonical = ingest::to_canonical(format, &decoded.text)?;
        // Text that could not be decoded is indexed as U+FFFD: the user is told how much.
        canonical.warnings.extend(decoded.warning());
        (format, canonical, decoded.encoding)
    };
    check_cancel(progress)?;
    let source = Source {
        name,
        bytes,
        format,
        encoding,
    };
    index_canonical(&source, canonical, settings, progress, tools, None)
}

/// Import a PageIndex tree JSON file: its tree is checked and kept as it is (titles,
/// nesting, pages, summaries), its node texts laid out as the canonical text, and the rest
/// of the pipeline (chunks, metadata, dictionary, financial sections) runs as for a filing.
pub fn import_pageindex(
    name: &str,
    bytes: &[u8],
    settings: &IndexSettings,
    progress: &mut dyn ProgressSink,
) -> Result<DocumentIndex> {
    check_size(bytes, settings)?;
    progress.stage(Stage::Decode, 0, 1);
    let tree = crate::import::parse(bytes)?;
    progress.stage(Stage::Canonical, 0, 1);
    let imported = crate::import::lay_out(&tree);
    if imported.canonical.text.trim().is_empty() {
        return Err(IngestError::NoText);
    }
    let source = Source {
        name,
        bytes,
        format: SourceFormat::PageIndex,
        encoding: "utf-8",
    };
    let mut doc = index_canonical(
        &source,
        imported.canonical,
        settings,
        progress,
        IndexTools::default(),
        Some(imported.sections),
    )?;
    // The nodes are the JSON's, in its pre-order.
    for ((node, pages), summary) in doc
        .nodes
        .iter_mut()
        .zip(&imported.pages)
        .zip(&imported.summaries)
    {
        if let Some((first, last)) = pages {
            node.start_page = Some(*first);
            node.end_page = Some(*last);
        }
        if let Some(summary) = summary {
            node.summary = summary.clone();
            node.summary_engine = Engine::Llm;
        }
    }
    if doc.description.is_none() {
        doc.description = imported.description;
    }
    if !imported.has_text {
        doc.warnings.push(
            "the PageIndex JSON has no node text: the library holds its titles and summaries \
             only, so search reads those and answers cite them, not the filing's text"
                .to_string(),
        );
    }
    Ok(doc)
}

/// The file being indexed, as the user named it.
struct Source<'a> {
    name: &'a str,
    bytes: &'a [u8],
    format: SourceFormat,
    encoding: &'a str,
}

fn read_pdf(
    reader: &dyn PdfReader,
    bytes: &[u8],
    settings: &IndexSettings,
    progress: &mut dyn ProgressSink,
) -> Result<Canonical> {
    let budget = InflationBudget {
        ratio: settings.max_pdf_inflation,
        floor: 16 * 1024 * 1024,
    }
    .for_file(bytes.len());
    if let Err(limit) = inflated_within(bytes, budget) {
        return Err(IngestError::PdfInflates {
            limit_mb: limit / (1024 * 1024),
            ratio: settings.max_pdf_inflation,
        });
    }
    let mut assembler = PdfAssembler::new();
    let limits = PdfLimits {
        max_pages: settings.max_pdf_pages,
    };
    let started = std::time::Instant::now();
    let seconds = settings.max_pdf_seconds;
    let info = reader.read(bytes, limits, &mut |page, total| {
        progress.stage(Stage::Canonical, u64::from(page.number), u64::from(total));
        check_cancel(progress)?;
        if started.elapsed().as_secs() >= seconds {
            return Err(IngestError::PdfTooSlow {
                seconds,
                pages: page.number,
            });
        }
        assembler.add_page(page);
        Ok(())
    })?;
    assembler.finish(&info)
}

/// Where every character of a stored PDF's text is printed: the PDF read again with the
/// same layout, tracking glyphs. `stored_text` is the text indexing produced; if this
/// reading differs from it (another layout version indexed the file), the boxes would mark
/// other characters, so that is an error rather than a guess.
pub fn pdf_char_boxes(
    reader: &dyn PdfReader,
    bytes: &[u8],
    stored_text: &str,
) -> Result<CharBoxes> {
    let mut assembler = PdfAssembler::tracking_glyphs();
    let limits = PdfLimits {
        max_pages: u32::MAX,
    };
    let info = reader.read(bytes, limits, &mut |page, _| {
        assembler.add_page(page);
        Ok(())
    })?;
    let canonical = assembler.finish(&info)?;
    if canonical.text != stored_text {
        let at = canonical
            .text
            .chars()
            .zip(stored_text.chars())
            .take_while(|(a, b)| a == b)
            .count();
        return Err(IngestError::LayoutChanged { at });
    }
    Ok(CharBoxes::of(&canonical))
}

fn index_canonical(
    source: &Source<'_>,
    canonical: Canonical,
    settings: &IndexSettings,
    progress: &mut dyn ProgressSink,
    tools: IndexTools<'_>,
    given: Option<Vec<structure::Section>>,
) -> Result<DocumentIndex> {
    let mut canonical = canonical;
    // Text with no line or paragraph breaks (a 95 MB line) is one block, and a node cannot be
    // split below a block: such blocks are cut at spaces, so no node outgrows its size
    // limit. A given tree's sections are block ranges, kept as they are.
    if given.is_none() {
        let tokens = settings.tree.max_node_tokens;
        canonical.split_long_blocks(tokens.saturating_mul(4), tokens.saturating_mul(2));
    }
    let name = source.name;
    let mut enhancer = tools.llm.map(|llm| Enhancer::new(llm, tools.llm_options));
    let counter = TokenCounter::new()?;
    let total_blocks = canonical.blocks.len() as u64;
    progress.stage(Stage::Tokens, 0, total_blocks);
    let block_tokens: Vec<usize> = canonical
        .blocks
        .iter()
        .map(|b| counter.count(&canonical.text[b.span.clone()]))
        .collect();
    progress.stage(Stage::Tokens, total_blocks, total_blocks);
    check_cancel(progress)?;
    let doc_type = doctype::detect(&canonical, name);
    progress.stage(Stage::Tree, 0, 1);
    let imported = given.is_some();
    let mut sections = match given {
        Some(sections) => sections,
        None => structure::build(&canonical, &block_tokens, doc_type, settings.tree),
    };
    if let Some(enhancer) = enhancer.as_mut().filter(|_| !imported) {
        progress.stage(Stage::Tree, 1, 1);
        let parsed = Parsed {
            canonical: &canonical,
            block_tokens: &block_tokens,
            doc_type,
            tree: settings.tree,
        };
        let offline = sections.clone();
        let refined = enhancer.refine_structure(&parsed, sections, name, progress);
        sections = enhancer
            .tolerate(LlmStage::Structure, refined)?
            .unwrap_or(offline);
    }
    let map = CharMap::new(&canonical.text);
    let mut flat = Vec::new();
    flatten(
        &canonical,
        &map,
        &block_tokens,
        &sections,
        None,
        0,
        &mut flat,
    );
    let pages: Vec<PageInfo> = canonical
        .pages
        .iter()
        .map(|p| PageInfo {
            page: p.number,
            span: map.span(p.span.start, p.span.end),
            label: p.label.clone(),
            furniture: p.furniture.clone(),
            has_text: p.has_text,
        })
        .collect();
    for f in &mut flat {
        if let Some((first, last)) = pages_of(&pages, f.node.span) {
            f.node.start_page = Some(first);
            f.node.end_page = Some(last);
        }
    }
    let mut nodes: Vec<Node> = flat.iter().map(|f| f.node.clone()).collect();
    progress.stage(Stage::Tree, 1, 1);
    check_cancel(progress)?;
    let doc_title = canonical.title.clone().unwrap_or_else(|| name.to_string());
    let paths = node_paths(&nodes);
    if let Some(enhancer) = enhancer.as_mut() {
        let own_texts: Vec<&str> = flat
            .iter()
            .map(|f| {
                let blocks = &canonical.blocks[f.own_blocks.clone()];
                match (blocks.first(), blocks.last()) {
                    (Some(first), Some(last)) => &canonical.text[first.span.start..last.span.end],
                    _ => "",
                }
            })
            .collect();
        // Summaries the model finished before a failure are kept.
        let summarized = enhancer.summarize(&mut nodes, &own_texts, &paths, &doc_title, progress);
        enhancer.tolerate(LlmStage::Summaries, summarized)?;
        check_cancel(progress)?;
    }

    progress.stage(Stage::Chunks, 0, nodes.len() as u64);
    let mut chunks = Vec::new();
    for (i, (f, node)) in flat.iter().zip(&nodes).enumerate() {
        let blocks: Vec<(std::ops::Range<usize>, usize)> = f
            .own_blocks
            .clone()
            .map(|b| (canonical.blocks[b].span.clone(), block_tokens[b]))
            .collect();
        let path = &paths[i];
        for (span, tokens) in
            chunk::chunk_blocks(&canonical.text, &blocks, settings.chunk_tokens, &counter)
        {
            let summary_hint: String = node.summary.chars().take(200).collect();
            let span = map.span(span.start, span.end);
            let chunk_pages = pages_of(&pages, span);
            chunks.push(Chunk {
                chunk_index: chunks.len(),
                node_id: f.node.node_id.clone(),
                span,
                token_count: tokens,
                context: format!("{doc_title} › {path}\n{summary_hint}"),
                start_page: chunk_pages.map(|p| p.0),
                end_page: chunk_pages.map(|p| p.1),
            });
        }
    }
    progress.stage(Stage::Chunks, nodes.len() as u64, nodes.len() as u64);
    check_cancel(progress)?;

    progress.stage(Stage::Enrich, 0, 3);
    let mut metadata = metadata::extract(&canonical, &map, doc_type);
    let mut cross_refs = xref::find(&canonical, &map, &nodes);
    progress.stage(Stage::Enrich, 2, 3);
    let dictionary = dictionary::find(&canonical.text, &map, &nodes);
    progress.stage(Stage::Enrich, 3, 3);
    let links = canonical
        .links
        .iter()
        .map(|l| Hyperlink {
            href: l.href.clone(),
            span: map.span(l.span.start, l.span.end),
            target_char: l
                .href
                .strip_prefix('#')
                .and_then(|a| canonical.anchors.get(a))
                .map(|&o| map.char_at(o)),
        })
        .collect();
    let locator = xref::NodeLocator::new(&nodes);
    let images = canonical
        .images
        .iter()
        .map(|image| {
            let at_char = map.char_at(image.offset);
            ImageRef {
                page: image.page,
                bbox: image.rect,
                at_char,
                node_id: locator.at(at_char).map(|n| n.node_id.clone()),
                caption: None,
            }
        })
        .collect();
    let mut description = None;
    if let Some(enhancer) = enhancer.as_mut() {
        let profiled = enhancer.profile(
            &canonical.text,
            name,
            doc_type,
            &mut metadata,
            &nodes,
            progress,
        );
        description = enhancer.tolerate(LlmStage::Profile, profiled)?.flatten();
        check_cancel(progress)?;
        let chars: Vec<char> = canonical.text.chars().collect();
        let resolved = enhancer.resolve_cross_references(
            &chars,
            &mut cross_refs,
            &nodes,
            &paths,
            name,
            progress,
        );
        enhancer.tolerate(LlmStage::CrossReferences, resolved)?;
        check_cancel(progress)?;
    }
    let mut warnings = canonical.warnings;
    let facts = canonical
        .facts
        .iter()
        .filter_map(|f| {
            let span = f.span.clone()?;
            let local = f.concept.strip_prefix("us-gaap:")?;
            if let Some(why) = impossible_amount(&f.value, f.scale) {
                warnings.push(format!(
                    "the tagged figure {} ({}) {why}: it is not read as a figure",
                    f.concept,
                    shortened(&f.value)
                ));
                return None;
            }
            Some(TaggedFact {
                concept: local.to_string(),
                span: map.span(span.start, span.end),
                scale: f.scale,
            })
        })
        .collect();
    let enhancement = enhancer.map(Enhancer::finish);
    for failed in enhancement.iter().flat_map(|e| &e.stages_failed) {
        warnings.push(failed.warning(name));
    }
    let sha = sha256_hex(source.bytes);
    let description = description.unwrap_or_else(|| describe(doc_type, &metadata, nodes.len()));
    let mut index = DocumentIndex {
        doc_id: doc_id_for(&sha),
        doc_name: name.to_string(),
        doc_type,
        format: source.format,
        source_sha256: sha,
        encoding: source.encoding.to_string(),
        description: Some(description),
        metadata,
        nodes,
        chunks,
        cross_refs,
        dictionary,
        links,
        pages,
        images,
        warnings,
        facts,
        settings_key: incomplete_key(tools.settings_key(settings), enhancement.as_ref()),
        enhancement,
        text: canonical.text,
    };
    crate::finance::classify_sections(&mut index);
    Ok(index)
}

/// Marks the settings key of a document whose LLM stages did not all finish, so indexing
/// the same file with the same model again is not "unchanged" but a retry.
pub const INCOMPLETE_SUFFIX: &str = ";llm-incomplete";

fn incomplete_key(key: String, enhancement: Option<&LlmEnhancement>) -> String {
    match enhancement {
        Some(e) if !e.stages_failed.is_empty() => format!("{key}{INCOMPLETE_SUFFIX}"),
        _ => key,
    }
}

fn describe(doc_type: DocType, m: &Metadata, nodes: usize) -> String {
    let who = m.company_name.as_deref().unwrap_or("Unknown issuer");
    let kind = match doc_type {
        DocType::Generic => "document".to_string(),
        t => t.as_str().replace('_', " "),
    };
    let period = m
        .period_end_date
        .as_deref()
        .map(|p| format!(" for the period ended {p}"))
        .unwrap_or_default();
    format!("{who} {kind}{period}; {nodes} sections.")
}

struct FlatNode {
    node: Node,
    own_blocks: std::ops::Range<usize>,
}

/// Each node's titles from the root down ("Part II › Item 7 › Liquidity"), its parents
/// found by id through one map: a tree of 100,000 headings is walked in linear time.
fn node_paths(nodes: &[Node]) -> Vec<String> {
    let by_id: std::collections::HashMap<&str, &Node> =
        nodes.iter().map(|n| (n.node_id.as_str(), n)).collect();
    nodes
        .iter()
        .map(|node| {
            let mut titles = vec![node.title.as_str()];
            let mut current = node.parent_id.as_deref();
            // A parent chain never loops in a tree we built; the bound keeps it so.
            while let Some(parent) = current.and_then(|id| by_id.get(id)) {
                if titles.len() > nodes.len() {
                    break;
                }
                titles.push(parent.title.as_str());
                current = parent.parent_id.as_deref();
            }
            titles.reverse();
            titles.join(" › ")
        })
        .collect()
}

fn flatten(
    c: &Canonical,
    map: &CharMap,
    tokens: &[usize],
    sections: &[Section],
    parent: Option<&str>,
    level: u32,
    out: &mut Vec<FlatNode>,
) -> Vec<String> {
    let mut ids = Vec::new();
    for s in sections {
        if s.blocks.is_empty() {
            continue;
        }
        let index = out.len();
        let node_id = format!("{index:04}");
        let start = c.blocks[s.blocks.start].span.start;
        let end = c.blocks[s.blocks.end - 1].span.end;
        let own_end = s
            .children
            .first()
            .map(|ch| ch.blocks.start)
            .unwrap_or(s.blocks.end);
        out.push(FlatNode {
            node: Node {
                node_id: node_id.clone(),
                title: s.title.clone(),
                level,
                parent_id: parent.map(str::to_string),
                span: map.span(start, end),
                token_count: tokens[s.blocks.clone()].iter().sum(),
                summary: String::new(),
                summary_engine: Engine::Extractive,
                origin: s.origin,
                children: Vec::new(),
                start_page: None,
                end_page: None,
                financial: None,
            },
            own_blocks: s.blocks.start..own_end,
        });
        let children = flatten(c, map, tokens, &s.children, Some(&node_id), level + 1, out);
        let child_titles: Vec<&str> = s.children.iter().map(|ch| ch.title.as_str()).collect();
        // The summary reads past the heading block when the node starts with its title.
        let body_start = if c.block_text(s.blocks.start).trim() == s.title.trim()
            || s.origin != NodeOrigin::SizeSplit
        {
            (s.blocks.start + 1).min(s.blocks.end)
        } else {
            s.blocks.start
        };
        let body_end = if own_end > body_start {
            own_end
        } else {
            s.blocks.end
        };
        let body = if body_start < body_end {
            &c.text[c.blocks[body_start].span.start..c.blocks[body_end - 1].span.end]
        } else {
            ""
        };
        let body = if body.trim().is_empty() {
            &c.text[start..end]
        } else {
            body
        };
        let summary = summary::extractive(body, &child_titles, 300);
        let node = &mut out[index].node;
        node.summary = summary;
        node.children = children;
        ids.push(node_id);
    }
    ids
}

/// Why an inline-XBRL figure cannot be an amount a filing holds, if it cannot: more digits
/// than any amount has, or a scale that carries it past a quadrillion dollars.
fn impossible_amount(value: &str, scale: Option<i32>) -> Option<String> {
    let digits = value
        .split('.')
        .next()
        .unwrap_or("")
        .chars()
        .filter(char::is_ascii_digit)
        .collect::<String>();
    let digits = digits.trim_start_matches('0').len();
    if digits > crate::finance::MAX_AMOUNT_DIGITS {
        return Some(format!("has {digits} digits"));
    }
    let magnitude = digits as i64 + i64::from(scale.unwrap_or(0));
    (magnitude > 16).then(|| {
        format!(
            "is scaled past a quadrillion (scale {})",
            scale.unwrap_or(0)
        )
    })
}

/// `text` cut to a few dozen characters for a warning.
fn shortened(text: &str) -> String {
    const SHOWN: usize = 24;
    match text.chars().count() > SHOWN {
        true => format!("{}…", text.chars().take(SHOWN).collect::<String>()),
        false => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::NoProgress;

    #[test]
    fn text_without_breaks_is_split_so_no_node_outgrows_the_limit() {
        // 300 KB on one line, with accented letters and an ideographic space.
        let text = "Net sales of the café increased\u{3000}in fiscal 2024 ".repeat(6_000);
        let settings = IndexSettings::default();
        let doc =
            index_document("one-line.txt", text.as_bytes(), &settings, &mut NoProgress).unwrap();
        assert_eq!(doc.text, text.trim_end());
        let leaves: Vec<&Node> = doc.nodes.iter().filter(|n| n.children.is_empty()).collect();
        assert!(leaves.len() > 10, "{} nodes", doc.nodes.len());
        for leaf in leaves {
            assert!(
                leaf.token_count <= settings.tree.max_node_tokens,
                "{} holds {} tokens",
                leaf.title,
                leaf.token_count
            );
        }
    }

    #[test]
    fn every_node_path_runs_from_the_root_through_its_parents() {
        let mut text = String::new();
        for i in 0..3000 {
            let level = 1 + (i / 3) % 6;
            text.push_str(&format!(
                "{} {}. Part\n\nText {i}.\n\n",
                "#".repeat(level),
                i + 1
            ));
        }
        let doc = index_document(
            "deep.md",
            text.as_bytes(),
            &IndexSettings::default(),
            &mut NoProgress,
        )
        .unwrap();
        let paths = node_paths(&doc.nodes);
        assert_eq!(paths.len(), doc.nodes.len());
        for (node, path) in doc.nodes.iter().zip(&paths) {
            let mut depth = 1;
            let mut parent = node.parent_id.as_deref();
            while let Some(id) = parent {
                depth += 1;
                parent = doc
                    .nodes
                    .iter()
                    .find(|n| n.node_id == id)
                    .and_then(|n| n.parent_id.as_deref());
            }
            assert_eq!(path.split(" › ").count(), depth, "{path}");
            assert!(path.ends_with(&node.title), "{path}");
        }
        // The deepest headings sit six deep.
        assert!(paths.iter().any(|p| p.split(" › ").count() >= 6));
    }
}
