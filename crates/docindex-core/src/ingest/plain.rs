//! Plain text (and EDGAR submission text files) to canonical text: one block per line,
//! blank lines kept as paragraph breaks, form feeds and `<PAGE>` markers as page breaks.

use super::{assemble, BlockKind, Canonical, RawBlock};
use regex::Regex;
use std::sync::LazyLock;

static SGML_TAG_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^</?(?:SEC-DOCUMENT|SEC-HEADER|IMS-HEADER|DOCUMENT|TYPE|SEQUENCE|FILENAME|DESCRIPTION|TEXT|PAGE|PRE|TABLE|CAPTION|S|C|FN|F\d+)>(.*)$")
        .unwrap_or_else(|_| unreachable!())
});
static HEADER_FIELD: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^\s*([A-Z][A-Z \-]{2,40}):\s+(\S.*)$").unwrap_or_else(|_| unreachable!())
});

/// Convert plain text to canonical text.
pub fn to_canonical(text: &str) -> Canonical {
    let mut raw = Vec::new();
    let mut sgml_header = Vec::new();
    let mut in_header = false;
    let mut blank_before = false;
    let mut page_break = false;
    for line in text.split('\n') {
        let line = line.trim_end_matches('\r');
        let mut line = line.replace(['\u{a0}', '\t'], " ");
        if line.contains('\u{0c}') {
            page_break = true;
            line = line.replace('\u{0c}', "");
        }
        let trimmed = line.trim();
        if trimmed.starts_with("<SEC-HEADER>") || trimmed.starts_with("<IMS-HEADER>") {
            in_header = true;
        }
        if in_header {
            if let Some(c) = HEADER_FIELD.captures(trimmed) {
                sgml_header.push((c[1].trim().to_string(), c[2].trim().to_string()));
            }
            if trimmed.starts_with("</SEC-HEADER>") || trimmed.starts_with("</IMS-HEADER>") {
                in_header = false;
            }
            continue;
        }
        if let Some(c) = SGML_TAG_LINE.captures(trimmed) {
            let upper = trimmed.to_ascii_uppercase();
            if upper.starts_with("<PAGE>") {
                page_break = true;
            }
            if let Some(value) = upper.strip_prefix("<TYPE>") {
                sgml_header.push(("TYPE".into(), value.trim().to_string()));
            }
            let rest = c[1].trim();
            if rest.is_empty()
                || upper.starts_with("<TYPE>")
                || upper.starts_with("<SEQUENCE>")
                || upper.starts_with("<FILENAME>")
            {
                continue;
            }
        }
        if trimmed.is_empty() {
            blank_before = true;
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        raw.push(RawBlock {
            text: line[lead..].trim_end().to_string(),
            kind: Some(BlockKind::Line),
            page_break_before: std::mem::take(&mut page_break),
            blank_before: std::mem::take(&mut blank_before),
            ..RawBlock::default()
        });
    }
    let mut canonical = assemble(raw, Vec::new());
    canonical.sgml_header = sgml_header;
    canonical
}
