//! Links of a document checked against the library (C15): internal links resolve to nodes,
//! links to other filings and exhibits resolve to indexed documents or are flagged absent.

use docindex_core::model::{DocumentIndex, Span};
use docindex_core::store::DocumentSummary;
use serde::Serialize;
use std::path::Path;

/// Where a link leads, as far as the library knows.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum LinkStatus {
    /// A place in the same document; `node_id` is the section it lands in.
    Internal { node_id: Option<String> },
    /// Another document that is in the library.
    InLibrary { doc_id: String, doc_name: String },
    /// Another document the library does not hold.
    Absent,
}

/// One link with its text and status.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LinkCheck {
    pub href: String,
    pub text: String,
    pub span: Span,
    /// 1-based page of the link in a PDF.
    pub page: Option<u32>,
    #[serde(flatten)]
    pub status: LinkStatus,
}

fn alnum_lower(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn stem(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().to_lowercase())
        .unwrap_or_default()
}

/// The file name a URL or relative href points at, without query or fragment.
fn target_file(href: &str) -> Option<String> {
    let path = href.split(['?', '#']).next()?;
    let name = path.rsplit('/').next()?.trim();
    (!name.is_empty() && name.contains('.')).then(|| name.to_lowercase())
}

/// `Exhibit 99.1`, `ex99-1.htm`, `ex991`: the exhibit number, as digits only (`991`).
fn exhibit_number(text: &str) -> Option<String> {
    let lower = text.to_lowercase();
    let at = lower
        .find("exhibit")
        .map(|i| i + 7)
        .or_else(|| lower.find("ex").map(|i| i + 2))?;
    let digits: String = lower[at..]
        .trim_start_matches([' ', '-', '_'])
        .chars()
        .take_while(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '_'))
        .filter(char::is_ascii_digit)
        .collect();
    (!digits.is_empty()).then_some(digits)
}

fn find_in_library<'a>(
    doc: &DocumentIndex,
    href: &str,
    text: &str,
    library: &'a [DocumentSummary],
) -> Option<&'a DocumentSummary> {
    let others = || library.iter().filter(|d| d.doc_id != doc.doc_id);
    if let Some(file) = target_file(href) {
        if let Some(found) =
            others().find(|d| d.doc_name.to_lowercase() == file || stem(&d.doc_name) == stem(&file))
        {
            return Some(found);
        }
    }
    // An exhibit of the same filing, under whatever name it was saved.
    let number = exhibit_number(text).or_else(|| exhibit_number(href))?;
    let own_stem = stem(&doc.doc_name);
    let company = doc.metadata.company_name.as_deref().map(alnum_lower);
    others().find(|d| {
        let name = alnum_lower(&d.doc_name);
        let is_that_exhibit =
            name.contains(&format!("ex{number}")) || name.contains(&format!("exhibit{number}"));
        let same_filer = stem(&d.doc_name).starts_with(&own_stem)
            || company.is_some() && d.company_name.as_deref().map(alnum_lower) == company;
        is_that_exhibit && same_filer
    })
}

/// Every link of `doc` with its status against `library`.
pub fn check(doc: &DocumentIndex, library: &[DocumentSummary]) -> Vec<LinkCheck> {
    let map = docindex_core::charmap::CharMap::new(&doc.text);
    doc.links
        .iter()
        .map(|link| {
            let text = map.slice(link.span).to_string();
            let status = if link.is_external() {
                match find_in_library(doc, &link.href, &text, library) {
                    Some(d) => LinkStatus::InLibrary {
                        doc_id: d.doc_id.clone(),
                        doc_name: d.doc_name.clone(),
                    },
                    None => LinkStatus::Absent,
                }
            } else {
                LinkStatus::Internal {
                    node_id: link
                        .target_char
                        .and_then(|c| docindex_core::xref::node_at(&doc.nodes, c))
                        .map(|n| n.node_id.clone()),
                }
            };
            LinkCheck {
                href: link.href.clone(),
                text,
                span: link.span,
                page: doc.pages_of(link.span).map(|(first, _)| first),
                status,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn exhibit_numbers_are_read_from_text_and_file_names() {
        assert_eq!(exhibit_number("Exhibit 99.1").as_deref(), Some("991"));
        assert_eq!(exhibit_number("bke-ex99-1.htm").as_deref(), Some("991"));
        assert_eq!(exhibit_number("press release"), None);
        assert_eq!(
            target_file("https://www.sec.gov/a/b/ex99.htm?x=1").as_deref(),
            Some("ex99.htm")
        );
        assert_eq!(target_file("https://www.sec.gov/"), None);
    }
}
