//! Section trees from canonical blocks: the filing's linked table of contents first, then
//! domain patterns (Parts, Items, statements, notes, transcript turns), markup and styled
//! headings, and finally size-bounded splits, so that every node is under a token limit.

pub mod headings;
pub mod patterns;
pub mod toc;

use crate::ingest::{BlockKind, Canonical};
use crate::model::{DocType, NodeOrigin};
use std::ops::Range;

/// A section boundary found by one of the strategies, before nesting.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub block: usize,
    pub title: String,
    /// 0 for the outermost kind of section (Part), 1 inside it (Item), and so on.
    pub level: u8,
    pub origin: NodeOrigin,
}

/// A section of the tree as a range of blocks.
#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub title: String,
    pub blocks: Range<usize>,
    pub origin: NodeOrigin,
    pub children: Vec<Section>,
}

/// Knobs of tree building.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TreeSettings {
    /// A node with more tokens than this is split into children.
    pub max_node_tokens: usize,
}

impl Default for TreeSettings {
    fn default() -> Self {
        TreeSettings {
            max_node_tokens: 3000,
        }
    }
}

/// Build the section tree of a document. `tokens[i]` is the token count of block `i`.
pub fn build(
    c: &Canonical,
    tokens: &[usize],
    doc_type: DocType,
    settings: TreeSettings,
) -> Vec<Section> {
    let n = c.blocks.len();
    if n == 0 {
        return Vec::new();
    }
    let mut toc_range: Option<Range<usize>> = None;
    let mut entries = Vec::new();
    let outline = outline_entries(c);
    let outline_nested = outline.iter().any(|e| e.level > 0);
    if outline_nested && outline.len() >= 5 {
        entries = outline.clone();
        add_missing_items(c, &mut entries, None);
    } else if let Some(linked) = toc::from_links(c) {
        toc_range = Some(linked.blocks);
        entries = linked.entries;
        add_missing_items(c, &mut entries, toc_range.clone());
    }
    if entries.is_empty() {
        let (found, toc) = item_entries(c);
        if found.len() >= 2 {
            entries = found;
            toc_range = toc;
        }
    }
    if entries.is_empty() && outline.len() >= 3 {
        entries = outline;
    }
    if entries.is_empty() && doc_type == DocType::EarningsCall {
        entries = transcript_entries(c, 0..n);
    }
    if entries.is_empty() {
        entries = markup_heading_entries(c);
    }
    if entries.is_empty() {
        entries = headings::split_entries(c, 0..n, tokens)
            .into_iter()
            .filter(|e| e.block > 0)
            .collect();
    }
    let first = entries.first().map(|e| e.block).unwrap_or(n);
    let mut top = front_matter(c, 0..first, toc_range.filter(|t| t.end <= first));
    top.extend(nest(&entries, first..n));
    let mut refined = Vec::with_capacity(top.len());
    for section in top {
        refined.push(refine(c, tokens, section, settings, doc_type, 0));
    }
    refined
}

/// Re-split `section` at `entries` found by another strategy (the language model): its
/// children become the nested entries inside it, each refined like the parsers' own
/// sections so that none stays over the token limit.
pub fn resplit(
    c: &Canonical,
    tokens: &[usize],
    mut section: Section,
    entries: &[Entry],
    settings: TreeSettings,
    doc_type: DocType,
) -> Section {
    let inside = (section.blocks.start + 1).min(section.blocks.end)..section.blocks.end;
    let children = nest(entries, inside);
    if children.is_empty() {
        return section;
    }
    section.children = children;
    refine(c, tokens, section, settings, doc_type, 0)
}

/// The whole document's top level from `entries` found by another strategy, with the text
/// before the first entry kept as front matter.
pub fn top_level_from(
    c: &Canonical,
    tokens: &[usize],
    entries: &[Entry],
    settings: TreeSettings,
    doc_type: DocType,
) -> Vec<Section> {
    let n = c.blocks.len();
    let first = entries.iter().map(|e| e.block).min().unwrap_or(n);
    let mut top = front_matter(c, 0..first, None);
    top.extend(nest(entries, first..n));
    top.into_iter()
        .map(|s| refine(c, tokens, s, settings, doc_type, 0))
        .collect()
}

/// Sections before the first entry: cover page, the table of contents as one node, and
/// whatever sits between the TOC and the first section.
fn front_matter(c: &Canonical, range: Range<usize>, toc: Option<Range<usize>>) -> Vec<Section> {
    let mut out = Vec::new();
    let mut push = |blocks: Range<usize>, title: String, origin| {
        if !blocks.is_empty() {
            out.push(Section {
                title,
                blocks,
                origin,
                children: Vec::new(),
            });
        }
    };
    match toc {
        Some(toc) if toc.start >= range.start => {
            push(
                range.start..toc.start,
                "Cover Page".into(),
                NodeOrigin::FrontMatter,
            );
            push(
                toc.clone(),
                "Table of Contents".into(),
                NodeOrigin::TableOfContents,
            );
            let rest = toc.end..range.end;
            let title =
                first_heading(c, rest.clone()).unwrap_or_else(|| "Introductory Text".into());
            push(rest, title, NodeOrigin::FrontMatter);
        }
        _ => {
            let title = if range.start == 0 && c.blocks.len() > range.end && range.end > 0 {
                "Cover Page".to_string()
            } else {
                first_heading(c, range.clone()).unwrap_or_else(|| "Front Matter".into())
            };
            push(range, title, NodeOrigin::FrontMatter);
        }
    }
    out
}

fn first_heading(c: &Canonical, range: Range<usize>) -> Option<String> {
    range.take(3).find_map(|b| {
        let t = c.block_text(b).trim();
        let st = c.blocks[b].style;
        (t.chars().count() <= 100 && (st.bold || matches!(c.blocks[b].kind, BlockKind::Heading(_))))
            .then(|| t.to_string())
    })
}

/// Nest a flat, ordered list of entries into sections covering `range` exactly.
pub fn nest(entries: &[Entry], range: Range<usize>) -> Vec<Section> {
    fn build_level(entries: &[Entry], range: Range<usize>) -> Vec<Section> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < entries.len() {
            let e = &entries[i];
            // Children: following entries with a deeper level until one at this level or above.
            let mut j = i + 1;
            while j < entries.len() && entries[j].level > e.level {
                j += 1;
            }
            let end = entries
                .get(j)
                .map(|x| x.block)
                .unwrap_or(range.end)
                .max(e.block);
            let children = build_level(&entries[i + 1..j], e.block..end);
            out.push(Section {
                title: e.title.clone(),
                blocks: e.block..end,
                origin: e.origin,
                children,
            });
            i = j;
        }
        out
    }
    let mut sorted: Vec<Entry> = entries
        .iter()
        .filter(|e| range.contains(&e.block))
        .cloned()
        .collect();
    sorted.sort_by_key(|e| e.block);
    // Entries on the same block: the outer one wins the start, the inner nests at it.
    sorted.dedup_by(|b, a| a.block == b.block && a.level == b.level);
    let mut sections = build_level(&sorted, range);
    sections.retain(|s| !s.blocks.is_empty());
    sections
}

/// The PDF outline as entries: each bookmark at the block its destination lands on, moved
/// to the nearby block that starts with its title when there is one.
fn outline_entries(c: &Canonical) -> Vec<Entry> {
    let Some(min_level) = c.outline.iter().map(|o| o.level).min() else {
        return Vec::new();
    };
    let mut entries: Vec<Entry> = c
        .outline
        .iter()
        .filter_map(|o| {
            let landed = c.block_at(o.offset);
            let block = toc::best_target(c, &o.title, &[landed])?;
            let lower = o.title.to_lowercase();
            let origin = if lower.contains("table of contents") || lower == "contents" {
                NodeOrigin::TableOfContents
            } else {
                NodeOrigin::Outline
            };
            Some(Entry {
                block,
                title: o.title.clone(),
                level: u8::try_from(o.level - min_level).unwrap_or(u8::MAX),
                origin,
            })
        })
        .collect();
    entries.sort_by_key(|e| e.block);
    entries
}

/// Items and Parts found by pattern, skipping table-of-contents lines and keeping the items
/// in increasing order. Also returns the TOC's block range if TOC lines were seen.
fn item_entries(c: &Canonical) -> (Vec<Entry>, Option<Range<usize>>) {
    let mut entries = Vec::new();
    let mut toc_lines = Vec::new();
    let mut part = 0u8;
    let mut last_key: Option<(u8, (u32, u32, u8))> = None;
    for block in 0..c.blocks.len() {
        let text = c.block_text(block).trim();
        if patterns::is_toc_line(text) {
            toc_lines.push(block);
            continue;
        }
        if let Some(p) = patterns::part_number(text) {
            if p > part {
                part = p;
                entries.push(Entry {
                    block,
                    title: headings::heading_title(c, block),
                    level: 0,
                    origin: NodeOrigin::Pattern,
                });
            }
            continue;
        }
        if let Some(label) = patterns::item_label(text) {
            let key = (part, patterns::item_rank(&label));
            if last_key.is_none_or(|last| key > last) {
                last_key = Some(key);
                entries.push(Entry {
                    block,
                    title: headings::heading_title(c, block),
                    level: 1,
                    origin: NodeOrigin::Pattern,
                });
            }
        }
    }
    let items = entries.iter().filter(|e| e.level == 1).count();
    if items < 2 {
        entries.clear();
    }
    if !entries.iter().any(|e| e.level == 0) {
        entries.iter_mut().for_each(|e| e.level = 0);
    }
    let toc = (toc_lines.len() >= 3).then(|| {
        let first = toc_lines[0];
        let last = toc_lines[toc_lines.len() - 1];
        toc::toc_heading_before(c, first)..last + 1
    });
    // TOC lines after the first section are an index inside the body, not a front TOC.
    let toc = toc.filter(|t| entries.first().is_none_or(|e| t.end <= e.block));
    (entries, toc)
}

/// Items the linked TOC did not list (e.g. an `Item 1C.` row without a link) found by
/// pattern between the linked entries.
fn add_missing_items(c: &Canonical, entries: &mut Vec<Entry>, toc: Option<Range<usize>>) {
    let after_toc = toc.map(|t| t.end).unwrap_or(0);
    let known: Vec<String> = entries
        .iter()
        .filter_map(|e| patterns::item_label(&e.title))
        .collect();
    if known.is_empty() {
        return;
    }
    let mut found = Vec::new();
    for block in after_toc..c.blocks.len() {
        let text = c.block_text(block).trim();
        if c.blocks[block].kind == BlockKind::TableRow || patterns::is_toc_line(text) {
            continue;
        }
        let Some(label) = patterns::item_label(text) else {
            continue;
        };
        if known.contains(&label) || found.iter().any(|(l, _): &(String, usize)| *l == label) {
            continue;
        }
        // Only between its neighbours in item order, so a cross-reference cannot sneak in.
        let rank = patterns::item_rank(&label);
        let before = entries
            .iter()
            .filter_map(|e| {
                patterns::item_label(&e.title).map(|l| (patterns::item_rank(&l), e.block))
            })
            .filter(|(r, _)| *r < rank)
            .max_by_key(|(r, _)| *r);
        let after = entries
            .iter()
            .filter_map(|e| {
                patterns::item_label(&e.title).map(|l| (patterns::item_rank(&l), e.block))
            })
            .filter(|(r, _)| *r > rank)
            .min_by_key(|(r, _)| *r);
        let fits = before.is_none_or(|(_, b)| b < block) && after.is_none_or(|(_, b)| block < b);
        if fits && before.is_some() {
            found.push((label, block));
        }
    }
    for (_, block) in found {
        entries.push(Entry {
            block,
            title: headings::heading_title(c, block),
            level: if entries.iter().any(|e| e.level == 0) {
                1
            } else {
                0
            },
            origin: NodeOrigin::Pattern,
        });
    }
    entries.sort_by_key(|e| (e.block, e.level));
}

/// Transcript sections (prepared remarks, Q&A) with speaker turns under them.
fn transcript_entries(c: &Canonical, range: Range<usize>) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut in_section = false;
    let mut role_line = None;
    for block in range.clone() {
        if role_line == Some(block) {
            continue;
        }
        let text = c.block_text(block).trim();
        if patterns::is_transcript_section(text) {
            in_section = true;
            entries.push(Entry {
                block,
                title: text.trim_end_matches(':').to_string(),
                level: 0,
                origin: NodeOrigin::Pattern,
            });
            continue;
        }
        let is_speech = |b: usize| b < range.end && c.block_text(b).chars().count() > 40;
        // A common layout puts the name on one line and "Company — Role" on the next: one
        // turn, titled with both.
        let two_line = patterns::speaker(text)
            .filter(|(_, role)| role.is_none())
            .filter(|_| block + 1 < range.end)
            .and_then(|(name, _)| {
                let next = c.block_text(block + 1).trim();
                let (firm, role) = patterns::role_line(next).filter(|_| is_speech(block + 2))?;
                Some((name, firm, role))
            });
        if let Some((name, firm, role)) = two_line {
            role_line = Some(block + 1);
            entries.push(Entry {
                block,
                title: format!("{name} — {firm} — {role}"),
                level: if in_section { 1 } else { 0 },
                origin: NodeOrigin::Pattern,
            });
            continue;
        }
        if let Some((name, role)) = patterns::speaker(text).filter(|_| is_speech(block + 1)) {
            let title = match role {
                Some(role) => format!("{name} — {role}"),
                None => name,
            };
            entries.push(Entry {
                block,
                title,
                level: if in_section { 1 } else { 0 },
                origin: NodeOrigin::Pattern,
            });
        }
    }
    if entries.len() < 2 {
        entries.clear();
    }
    entries
}

/// `<h1>`…`<h6>` / Markdown headings, levels normalised so the shallowest is 0.
fn markup_heading_entries(c: &Canonical) -> Vec<Entry> {
    let found: Vec<(usize, u8)> = c
        .blocks
        .iter()
        .enumerate()
        .filter_map(|(i, b)| match b.kind {
            BlockKind::Heading(l) => Some((i, l)),
            _ => None,
        })
        .collect();
    let Some(min) = found.iter().map(|(_, l)| *l).min() else {
        return Vec::new();
    };
    if found.len() < 2 && found.first().is_some_and(|(i, _)| *i == 0) {
        return Vec::new();
    }
    found
        .into_iter()
        .map(|(block, level)| Entry {
            block,
            title: c
                .block_text(block)
                .trim_start_matches('#')
                .trim()
                .to_string(),
            level: level - min,
            origin: NodeOrigin::Heading,
        })
        .collect()
}

fn section_tokens(tokens: &[usize], range: &Range<usize>) -> usize {
    tokens[range.clone()].iter().sum()
}

/// Split sections that are too large, first by domain patterns (financial statements and
/// notes), then by heading looks, then at paragraph boundaries.
fn refine(
    c: &Canonical,
    tokens: &[usize],
    mut section: Section,
    settings: TreeSettings,
    doc_type: DocType,
    depth: usize,
) -> Section {
    if depth > 6 {
        return section;
    }
    if section.children.is_empty() {
        let big = section_tokens(tokens, &section.blocks) > settings.max_node_tokens;
        let mut entries = financial_statement_entries(c, section.blocks.clone());
        if entries.is_empty() && big && doc_type == DocType::EarningsCall {
            entries = transcript_entries(c, section.blocks.start + 1..section.blocks.end);
        }
        if entries.is_empty() && big {
            entries = headings::split_entries(c, section.blocks.clone(), tokens);
        }
        if !entries.is_empty() {
            let first = entries
                .iter()
                .map(|e| e.block)
                .min()
                .unwrap_or(section.blocks.end);
            let mut children = Vec::new();
            if first > section.blocks.start + 1
                && section_tokens(tokens, &(section.blocks.start..first)) > settings.max_node_tokens
            {
                // A long lead-in before the first heading is a section of its own.
                children.push(Section {
                    title: format!("{} (introduction)", section.title),
                    blocks: section.blocks.start..first,
                    origin: NodeOrigin::SizeSplit,
                    children: Vec::new(),
                });
            }
            children.extend(nest(&entries, first..section.blocks.end));
            section.children = children;
        } else if big {
            section.children = size_split(tokens, &section, settings.max_node_tokens);
        }
    } else {
        // The parent's own text before its first child, if long, gets split too.
        let first = section.children[0].blocks.start;
        let own = section.blocks.start..first;
        if section_tokens(tokens, &own) > settings.max_node_tokens && own.len() > 1 {
            let lead = Section {
                title: format!("{} (introduction)", section.title),
                blocks: own,
                origin: NodeOrigin::SizeSplit,
                children: Vec::new(),
            };
            section.children.insert(0, lead);
        }
    }
    let children = std::mem::take(&mut section.children);
    section.children = children
        .into_iter()
        .map(|child| {
            if child.blocks == section.blocks && child.children.is_empty() {
                child
            } else {
                refine(c, tokens, child, settings, doc_type, depth + 1)
            }
        })
        .collect();
    section
}

/// The statements, the auditor's report and the numbered notes inside a financial
/// statements section, when at least two of them are there.
fn financial_statement_entries(c: &Canonical, range: Range<usize>) -> Vec<Entry> {
    let mut entries = Vec::new();
    let mut notes_heading = false;
    let mut last_note = 0u32;
    let mut last_statement = String::new();
    // Headings in capitals after a statement's table ("NATURE OF BUSINESS"): the notes of a
    // filing that neither numbers them nor heads them "Notes to …".
    let mut table_since_statement = false;
    let mut capital_headings: Vec<Entry> = Vec::new();
    for block in range.start + 1..range.end {
        let b = &c.blocks[block];
        if b.kind == BlockKind::TableRow {
            table_since_statement = !entries.is_empty();
            continue;
        }
        let text = c.block_text(block).trim();
        if patterns::is_auditor_report(text) || patterns::is_statement_title(text) {
            let key = text.to_ascii_lowercase().replace("(continued)", "");
            if key.trim() != last_statement {
                entries.push(Entry {
                    block,
                    title: text.to_string(),
                    level: 0,
                    origin: NodeOrigin::Pattern,
                });
                last_statement = key.trim().to_string();
            }
            table_since_statement = false;
            capital_headings.clear();
            continue;
        }
        if patterns::is_notes_heading(text) && !notes_heading {
            notes_heading = true;
            entries.push(Entry {
                block,
                title: text.to_string(),
                level: 0,
                origin: NodeOrigin::Pattern,
            });
            continue;
        }
        let heading_like = b.style.bold
            || b.style.italic
            || b.style.underline
            || b.style.centered
            || b.kind == BlockKind::Line;
        if !heading_like {
            continue;
        }
        if table_since_statement && is_capitals_heading(text) {
            capital_headings.push(Entry {
                block,
                title: text.to_string(),
                level: 0,
                origin: NodeOrigin::Pattern,
            });
        }
        if let Some(n) = patterns::note_number(text, notes_heading) {
            if n == last_note + 1 {
                last_note = n;
                entries.push(Entry {
                    block,
                    title: headings::heading_title(c, block),
                    level: if notes_heading { 1 } else { 0 },
                    origin: NodeOrigin::Pattern,
                });
            }
        }
    }
    let statements = entries.iter().filter(|e| e.level == 0).count();
    if statements < 2 && last_note < 2 {
        return Vec::new();
    }
    if !notes_heading && last_note < 2 && statements >= 2 && capital_headings.len() >= 2 {
        // Siblings of the statements, never children of the last one.
        entries.extend(capital_headings);
        entries.sort_by_key(|e| e.block);
    }
    entries
}

/// A short heading written in capitals: "NATURE OF BUSINESS", "CONSOLIDATION".
fn is_capitals_heading(text: &str) -> bool {
    let letters: Vec<char> = text.chars().filter(|c| c.is_alphabetic()).collect();
    letters.len() >= 4
        && text.chars().count() <= 80
        && letters.iter().all(|c| c.is_uppercase())
        && !text.contains('|')
        && !text.trim_end().ends_with('.')
}

/// Children of at most `max` tokens each, cut at block boundaries.
fn size_split(tokens: &[usize], section: &Section, max: usize) -> Vec<Section> {
    let mut parts: Vec<Range<usize>> = Vec::new();
    let mut start = section.blocks.start;
    let mut sum = 0;
    for block in section.blocks.clone() {
        if sum > 0 && sum + tokens[block] > max {
            parts.push(start..block);
            start = block;
            sum = 0;
        }
        sum += tokens[block];
    }
    parts.push(start..section.blocks.end);
    if parts.len() < 2 {
        return Vec::new();
    }
    let count = parts.len();
    parts
        .into_iter()
        .enumerate()
        .map(|(i, blocks)| Section {
            title: format!("{} (part {} of {})", section.title, i + 1, count),
            blocks,
            origin: NodeOrigin::SizeSplit,
            children: Vec::new(),
        })
        .collect()
}
