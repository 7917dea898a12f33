//! HTML (EDGAR .htm, old and new) to canonical text, through html5ever's tokenizer.
//!
//! Block elements become blocks, table rows become one line with cells joined by ` | `
//! (`$`, `)` and `%` cells glued to their number so `(1,234)` stays whole), hidden content
//! (`ix:header`, `display:none`, scripts) is left out of the text but its XBRL facts and
//! contexts are kept, and anchors, links and page breaks are mapped to positions.

use super::{assemble, BlockKind, BlockStyle, Canonical, RawBlock, XbrlContext, XbrlFact};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use std::cell::RefCell;

/// Convert an HTML document to canonical text.
pub fn to_canonical(html: &str) -> Canonical {
    let whole_doc_preformatted = is_text_in_html_wrapper(html);
    let sink = Sink {
        state: RefCell::new(State {
            preformatted_doc: whole_doc_preformatted,
            ..State::default()
        }),
    };
    let tokenizer = Tokenizer::new(sink, TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from_slice(html));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
    let state = tokenizer.sink.state.into_inner();
    state.finish()
}

/// Old EDGAR filings are often plain text wrapped in `<html><body>` with SGML table tags
/// (`<TABLE>`, `<S>`, `<C>`): their layout lives in spaces and newlines, not in tags.
fn is_text_in_html_wrapper(html: &str) -> bool {
    let lines = html.bytes().filter(|&b| b == b'\n').count();
    if lines < 100 {
        return false;
    }
    let lower = html.to_ascii_lowercase();
    let block_tags: usize = [
        "<p", "<br", "<div", "<tr", "<td", "<li", "<h1", "<h2", "<h3",
    ]
    .iter()
    .map(|t| lower.matches(t).count())
    .sum();
    block_tags * 50 < lines
}

struct Sink {
    state: RefCell<State>,
}

impl TokenSink for Sink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        let mut state = self.state.borrow_mut();
        match token {
            Token::TagToken(tag) => {
                let raw_text = matches!(&*tag.name, "script" | "style")
                    && tag.kind == TagKind::StartTag
                    && !tag.self_closing;
                state.tag(tag);
                if raw_text {
                    return TokenSinkResult::RawData(
                        html5ever::tokenizer::states::RawKind::ScriptData,
                    );
                }
            }
            Token::CharacterTokens(text) => state.text(&text),
            Token::CommentToken(comment) => {
                let c = comment.trim().to_ascii_uppercase();
                if c.starts_with("PAGEBREAK") || c.starts_with("PAGE BREAK") {
                    state.page_break();
                }
            }
            _ => {}
        }
        TokenSinkResult::Continue
    }
}

#[derive(Default, Clone, Copy)]
struct StyleDelta {
    bold: Option<bool>,
    italic: Option<bool>,
    underline: Option<bool>,
    size: Option<f32>,
}

#[derive(Default)]
struct CharStyleCounts {
    total: usize,
    bold: usize,
    italic: usize,
    underline: usize,
    sizes: Vec<(f32, usize)>,
}

struct OpenFact {
    index: usize,
    block: usize,
    start: usize,
    visible: bool,
}

#[derive(Default)]
struct State {
    preformatted_doc: bool,
    raw: Vec<RawBlock>,
    cur: RawBlock,
    counts: CharStyleCounts,
    pending_space: bool,
    next_page_break: bool,
    next_blank_before: bool,
    centered_depth: Vec<String>,
    heading: Option<u8>,
    style_stack: Vec<(String, StyleDelta)>,
    /// The element that started hiding content, and how many same-named elements are open.
    hidden: Option<(String, usize)>,
    pre_depth: usize,
    table_depth: usize,
    table_counter: u32,
    cell_open: bool,
    cell_needs_separator: bool,
    last_cell_text: String,
    cell_start: usize,
    open_links: Vec<(String, usize)>,
    facts: Vec<XbrlFact>,
    open_facts: Vec<OpenFact>,
    contexts: Vec<XbrlContext>,
    context: Option<XbrlContext>,
    context_field: Option<&'static str>,
    title: Option<String>,
    in_title: bool,
}

const VOID: [&str; 12] = [
    "br", "hr", "img", "meta", "link", "input", "col", "area", "base", "wbr", "param", "source",
];
const BLOCK: [&str; 31] = [
    "p",
    "div",
    "table",
    "tr",
    "li",
    "ul",
    "ol",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "center",
    "blockquote",
    "dl",
    "dt",
    "dd",
    "pre",
    "section",
    "article",
    "header",
    "footer",
    "body",
    "html",
    "caption",
    "hr",
    "br",
    "address",
    "form",
    "page",
];

fn attr<'a>(tag: &'a Tag, name: &str) -> Option<&'a str> {
    tag.attrs
        .iter()
        .find(|a| &*a.name.local == name)
        .map(|a| &*a.value)
}

fn style_props(style: &str) -> Vec<(String, String)> {
    style
        .split(';')
        .filter_map(|decl| {
            let (k, v) = decl.split_once(':')?;
            Some((
                k.trim().to_ascii_lowercase(),
                v.trim().to_ascii_lowercase().replace(' ', ""),
            ))
        })
        .collect()
}

fn parse_points(value: &str) -> Option<f32> {
    let v = value.trim();
    if let Some(n) = v.strip_suffix("pt") {
        n.parse().ok()
    } else if let Some(n) = v.strip_suffix("px") {
        n.parse::<f32>().ok().map(|px| px * 0.75)
    } else {
        None
    }
}

fn font_tag_size(size: &str) -> Option<f32> {
    let n: i32 = size.trim().trim_start_matches('+').parse().ok()?;
    // `+1`/`-1` are relative to the default size 3.
    let relative = size.trim().starts_with(['+', '-']);
    let n = if relative { 3 + n } else { n };
    Some(match n.clamp(1, 7) {
        1 => 7.5,
        2 => 10.0,
        3 => 12.0,
        4 => 13.5,
        5 => 18.0,
        6 => 24.0,
        _ => 36.0,
    })
}

fn is_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | '\r' | '\u{a0}' | '\u{2009}' | '\u{2002}' | '\u{2003}' | '\u{0c}'
    )
}

impl State {
    fn hidden(&self) -> bool {
        self.hidden.is_some() || self.in_title
    }

    fn preformatted(&self) -> bool {
        self.preformatted_doc || self.pre_depth > 0
    }

    fn current_delta(&self) -> StyleDelta {
        let mut d = StyleDelta::default();
        for (_, s) in &self.style_stack {
            if s.bold.is_some() {
                d.bold = s.bold;
            }
            if s.italic.is_some() {
                d.italic = s.italic;
            }
            if s.underline.is_some() {
                d.underline = s.underline;
            }
            if s.size.is_some() {
                d.size = s.size;
            }
        }
        d
    }

    fn page_break(&mut self) {
        self.flush();
        self.next_page_break = true;
    }

    fn tag(&mut self, tag: Tag) {
        let name: &str = &tag.name;
        let local = name.rsplit(':').next().unwrap_or(name);
        match tag.kind {
            TagKind::StartTag => self.start_tag(&tag, name, local),
            TagKind::EndTag => self.end_tag(name, local),
        }
    }

    fn start_tag(&mut self, tag: &Tag, name: &str, local: &str) {
        // Facts and contexts are read even inside hidden blocks.
        if name.starts_with("ix:") && matches!(local, "nonfraction" | "nonnumeric") {
            let index = self.facts.len();
            self.facts.push(XbrlFact {
                concept: attr(tag, "name").unwrap_or("").to_string(),
                context_ref: attr(tag, "contextref").unwrap_or("").to_string(),
                scale: attr(tag, "scale").and_then(|s| s.parse().ok()),
                negative: attr(tag, "sign") == Some("-"),
                value: String::new(),
                span: None,
            });
            let visible = !self.hidden();
            self.open_facts.push(OpenFact {
                index,
                block: self.raw.len(),
                start: self.cur.text.len()
                    + usize::from(self.pending_space && !self.cur.text.is_empty()),
                visible,
            });
        }
        if local == "context" {
            if let Some(id) = attr(tag, "id") {
                self.context = Some(XbrlContext {
                    id: id.to_string(),
                    ..XbrlContext::default()
                });
            }
        }
        if self.context.is_some() {
            match local {
                "segment" | "scenario" => {
                    if let Some(c) = self.context.as_mut() {
                        c.has_segment = true;
                    }
                }
                "startdate" => self.context_field = Some("start"),
                "enddate" => self.context_field = Some("end"),
                "instant" => self.context_field = Some("instant"),
                _ => {}
            }
        }

        if let Some((hidden_name, depth)) = self.hidden.as_mut() {
            if hidden_name == name && !tag.self_closing {
                *depth += 1;
            }
            return;
        }
        let style = attr(tag, "style").map(style_props).unwrap_or_default();
        let hides = matches!(name, "ix:header" | "script" | "style" | "template" | "head")
            || style.iter().any(|(k, v)| k == "display" && v == "none");
        if name == "title" && !tag.self_closing {
            self.in_title = true;
            self.title = Some(String::new());
            return;
        }
        if hides && !tag.self_closing && !VOID.contains(&name) {
            self.hidden = Some((name.to_string(), 1));
            return;
        }

        // Inline padding renders as a gap: `•` + padded `15-inch` reads "• 15-inch".
        let indented = style.iter().any(|(k, v)| {
            matches!(k.as_str(), "padding-left" | "margin-left")
                && v.trim_start_matches(['0', '.'])
                    .starts_with(|c: char| c.is_ascii_digit())
        });
        if indented {
            self.pending_space = true;
        }
        let page_break = style.iter().any(|(k, v)| {
            (k == "page-break-before" || k == "page-break-after" || k == "break-before")
                && (v == "always" || v == "page")
        }) || name == "page";
        if page_break {
            self.page_break();
        }

        if let Some(id) = attr(tag, "id").or_else(|| attr(tag, "name").filter(|_| name == "a")) {
            let offset = self.cur.text.len();
            self.cur.anchors.push((id.to_string(), offset));
        }

        if self.preformatted() {
            if name == "pre" {
                self.pre_depth += 1;
            }
            return;
        }

        match name {
            "table" => {
                self.flush();
                self.table_depth += 1;
                if self.table_depth == 1 {
                    self.table_counter += 1;
                }
            }
            "tr" if self.table_depth == 1 => {
                self.flush();
                self.cell_open = false;
                self.last_cell_text.clear();
            }
            "td" | "th" if self.table_depth == 1 => {
                self.cell_open = true;
                self.cell_needs_separator = !self.cur.text.is_empty();
                self.cell_start = self.cur.text.len();
                self.pending_space = false;
            }
            "pre" => {
                self.flush();
                self.pre_depth += 1;
            }
            "a" => {
                if let Some(href) = attr(tag, "href") {
                    let start = self.cur.text.len()
                        + usize::from(self.pending_space && !self.cur.text.is_empty());
                    self.open_links.push((href.trim().to_string(), start));
                }
            }
            _ if BLOCK.contains(&name) => {
                if self.table_depth > 0 {
                    self.pending_space = true;
                } else {
                    self.flush();
                }
                if let Some(level) = name
                    .strip_prefix('h')
                    .and_then(|l| l.parse::<u8>().ok())
                    .filter(|_| self.table_depth == 0)
                {
                    self.heading = Some(level);
                }
            }
            _ => {}
        }

        let centered = attr(tag, "align").is_some_and(|a| a.eq_ignore_ascii_case("center"))
            || name == "center"
            || style
                .iter()
                .any(|(k, v)| k == "text-align" && v == "center");
        if centered && !VOID.contains(&name) && !tag.self_closing {
            self.centered_depth.push(name.to_string());
        }

        let mut delta = StyleDelta::default();
        match name {
            "b" | "strong" => delta.bold = Some(true),
            "i" | "em" => delta.italic = Some(true),
            "u" | "ins" => delta.underline = Some(true),
            "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th" => delta.bold = Some(true),
            "font" => delta.size = attr(tag, "size").and_then(font_tag_size),
            _ => {}
        }
        for (k, v) in &style {
            match k.as_str() {
                "font-weight" => {
                    delta.bold = Some(
                        v == "bold" || v == "bolder" || v.parse::<u32>().is_ok_and(|w| w >= 600),
                    )
                }
                "font-style" => delta.italic = Some(v == "italic" || v == "oblique"),
                "text-decoration" | "text-decoration-line" => {
                    delta.underline = Some(v.contains("underline"))
                }
                "font-size" => delta.size = parse_points(v).or(delta.size),
                "font" => {
                    if v.contains("bold") {
                        delta.bold = Some(true);
                    }
                    if v.contains("italic") {
                        delta.italic = Some(true);
                    }
                }
                _ => {}
            }
        }
        if (delta.bold.is_some()
            || delta.italic.is_some()
            || delta.underline.is_some()
            || delta.size.is_some())
            && !VOID.contains(&name)
            && !tag.self_closing
        {
            self.style_stack.push((name.to_string(), delta));
        }
    }

    fn end_tag(&mut self, name: &str, local: &str) {
        if name.starts_with("ix:") && matches!(local, "nonfraction" | "nonnumeric") {
            if let Some(open) = self.open_facts.pop() {
                let end = self.cur.text.len();
                if let Some(fact) = self.facts.get_mut(open.index) {
                    fact.value = collapse_spaces(&fact.value);
                    // The fact's start is an offset into the block it opened in: a block
                    // ended since (bad markup) holds other text, where that offset may
                    // fall inside a character, so the span is kept only in its own block.
                    let start = open.start.min(end);
                    if open.visible
                        && open.block == self.raw.len()
                        && self.cur.text.is_char_boundary(start)
                    {
                        // The cell separator is written lazily, after the fact opened.
                        let slice = &self.cur.text[start..end];
                        let start =
                            start + (slice.len() - slice.trim_start_matches([' ', '|']).len());
                        if end > start {
                            self.cur.facts.push((open.index, start..end));
                        }
                    }
                }
            }
        }
        if self.context.is_some() {
            match local {
                "startdate" | "enddate" | "instant" => self.context_field = None,
                "context" => {
                    if let Some(c) = self.context.take() {
                        self.contexts.push(c);
                    }
                }
                _ => {}
            }
        }
        if let Some((hidden_name, depth)) = self.hidden.as_mut() {
            if hidden_name == name {
                *depth -= 1;
                if *depth == 0 {
                    self.hidden = None;
                }
            }
            return;
        }
        if name == "title" && self.in_title {
            self.in_title = false;
            return;
        }
        if let Some(pos) = self.style_stack.iter().rposition(|(n, _)| n == name) {
            self.style_stack.truncate(pos);
        }
        if name == "pre" {
            self.flush();
            self.pre_depth = self.pre_depth.saturating_sub(1);
            return;
        }
        if self.preformatted() {
            return;
        }
        if name == "a" {
            if let Some((href, start)) = self.open_links.pop() {
                let end = self.cur.text.trim_end().len();
                if end > start {
                    self.cur.links.push((href, start..end));
                }
            }
            return;
        }
        match name {
            "table" => {
                self.flush();
                self.table_depth = self.table_depth.saturating_sub(1);
            }
            "tr" if self.table_depth == 1 => self.flush(),
            "td" | "th" if self.table_depth == 1 => {
                self.cell_open = false;
                self.last_cell_text = self
                    .cur
                    .text
                    .get(self.cell_start..)
                    .unwrap_or_default()
                    .trim()
                    .to_string();
                self.cell_needs_separator = false;
            }
            _ if BLOCK.contains(&name) => {
                if self.table_depth > 0 {
                    self.pending_space = true;
                } else {
                    self.flush();
                }
            }
            _ => {}
        }
        if let Some(pos) = self.centered_depth.iter().rposition(|n| n == name) {
            self.centered_depth.truncate(pos);
        }
    }

    fn text(&mut self, text: &str) {
        for open in &self.open_facts {
            if let Some(fact) = self.facts.get_mut(open.index) {
                if fact.value.len() < 400 {
                    fact.value.push_str(text);
                }
            }
        }
        if let (Some(ctx), Some(field)) = (self.context.as_mut(), self.context_field) {
            let value = Some(text.trim().to_string());
            match field {
                "start" => ctx.start = value,
                "end" => ctx.end = value,
                _ => ctx.instant = value,
            }
        }
        if self.in_title {
            if let Some(t) = self.title.as_mut() {
                t.push_str(text);
            }
            return;
        }
        if self.hidden.is_some() {
            return;
        }
        if self.preformatted() {
            self.preformatted_text(text);
            return;
        }
        let delta = self.current_delta();
        for ch in text.chars() {
            if is_space(ch) {
                self.pending_space = true;
                continue;
            }
            if matches!(ch, '\u{200b}' | '\u{feff}' | '\u{ad}') {
                continue;
            }
            self.push_visible(ch, delta);
        }
    }

    fn push_visible(&mut self, ch: char, delta: StyleDelta) {
        if self.cell_needs_separator {
            self.cell_needs_separator = false;
            let glue = matches!(
                self.last_cell_text.as_str(),
                "$" | "€" | "£" | "¥" | "(" | "($"
            ) || matches!(ch, ')' | '%');
            if !glue {
                self.cur.text.push_str(" | ");
            }
            self.cell_start = self.cur.text.len();
            self.pending_space = false;
        } else if self.pending_space && !self.cur.text.is_empty() {
            self.cur.text.push(' ');
        }
        self.pending_space = false;
        self.cur.text.push(ch);
        let counts = &mut self.counts;
        counts.total += 1;
        counts.bold += usize::from(delta.bold == Some(true));
        counts.italic += usize::from(delta.italic == Some(true));
        counts.underline += usize::from(delta.underline == Some(true));
        if let Some(size) = delta.size {
            match counts
                .sizes
                .iter_mut()
                .find(|(s, _)| (*s - size).abs() < 0.01)
            {
                Some((_, n)) => *n += 1,
                None => counts.sizes.push((size, 1)),
            }
        }
    }

    fn preformatted_text(&mut self, text: &str) {
        let delta = self.current_delta();
        for ch in text.chars() {
            match ch {
                '\r' => {}
                '\n' => {
                    if self.cur.text.trim().is_empty() {
                        self.cur.text.clear();
                        self.next_blank_before = true;
                    }
                    self.flush_as(Some(BlockKind::Line));
                }
                '\u{0c}' => {
                    self.flush_as(Some(BlockKind::Line));
                    self.next_page_break = true;
                }
                '\u{a0}' | '\t' => self.push_raw(' ', delta),
                c => self.push_raw(c, delta),
            }
        }
    }

    fn push_raw(&mut self, ch: char, delta: StyleDelta) {
        self.cur.text.push(ch);
        if !ch.is_whitespace() {
            self.counts.total += 1;
            self.counts.bold += usize::from(delta.bold == Some(true));
            self.counts.italic += usize::from(delta.italic == Some(true));
            self.counts.underline += usize::from(delta.underline == Some(true));
        }
    }

    fn flush(&mut self) {
        let kind = if self.preformatted() {
            Some(BlockKind::Line)
        } else if self.table_depth > 0 {
            Some(BlockKind::TableRow)
        } else {
            self.heading.map(BlockKind::Heading)
        };
        self.flush_as(kind);
    }

    fn flush_as(&mut self, kind: Option<BlockKind>) {
        let mut block = std::mem::take(&mut self.cur);
        // Links still open continue in the next block; close them at this boundary.
        for (href, start) in self.open_links.iter_mut() {
            let end = block.text.trim_end().len();
            if end > *start {
                block.links.push((href.clone(), *start..end));
            }
            *start = 0;
        }
        // So does a table cell still open (a row closed around it by bad markup).
        self.cell_start = 0;
        let trimmed = block.text.trim_end().len();
        block.text.truncate(trimmed);
        if kind == Some(BlockKind::Line) {
            // Keep indentation out of the block start so spans start at the first word.
            let lead = block.text.len() - block.text.trim_start().len();
            if lead > 0 {
                block.text.drain(..lead);
                for (_, off) in block.anchors.iter_mut() {
                    *off = off.saturating_sub(lead);
                }
                let shift = |r: &mut std::ops::Range<usize>| {
                    *r = r.start.saturating_sub(lead)..r.end.saturating_sub(lead);
                };
                block.links.iter_mut().for_each(|(_, r)| shift(r));
                block.facts.iter_mut().for_each(|(_, r)| shift(r));
            }
        }
        let clamp = |r: &mut std::ops::Range<usize>, len: usize| {
            r.end = r.end.min(len);
            r.start = r.start.min(r.end);
        };
        let len = block.text.len();
        for (_, r) in block.links.iter_mut() {
            clamp(r, len);
        }
        for (_, r) in block.facts.iter_mut() {
            clamp(r, len);
        }
        let counts = std::mem::take(&mut self.counts);
        if !block.text.is_empty() || !block.anchors.is_empty() {
            let total = counts.total.max(1);
            block.style = BlockStyle {
                bold: counts.bold * 10 >= total * 9,
                italic: counts.italic * 10 >= total * 9,
                underline: counts.underline * 10 >= total * 9,
                font_size: counts
                    .sizes
                    .iter()
                    .max_by_key(|(_, n)| *n)
                    .filter(|(_, n)| n * 2 >= total)
                    .map(|(s, _)| *s),
                centered: !self.centered_depth.is_empty(),
            };
            block.kind = kind;
            block.table_id = (self.table_depth > 0 && kind == Some(BlockKind::TableRow))
                .then_some(self.table_counter);
            if !block.text.is_empty() {
                block.page_break_before = std::mem::take(&mut self.next_page_break);
                block.blank_before = std::mem::take(&mut self.next_blank_before);
                self.heading = None;
            }
            self.raw.push(block);
        }
        self.pending_space = false;
        self.cell_needs_separator = false;
    }

    fn finish(mut self) -> Canonical {
        self.flush();
        let mut canonical = assemble(self.raw, self.facts);
        canonical.contexts = self.contexts;
        canonical.title = self
            .title
            .map(|t| collapse_spaces(&t))
            .filter(|t| !t.is_empty());
        canonical
    }
}

/// Collapse runs of whitespace (including no-break spaces) to one space and trim.
pub fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}
