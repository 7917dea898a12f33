//! Document type detection: XBRL `dei:DocumentType`, the EDGAR header's `TYPE`, then the
//! cover page and characteristic phrases.

use crate::ingest::Canonical;
use crate::model::DocType;
use regex::Regex;
use std::sync::LazyLock;

static FORM: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\bFORM\s+(10-K|10-Q|8-K|20-F|6-K|S-1|F-1|10-KSB|10-QSB|40-F)\b")
        .unwrap_or_else(|_| unreachable!())
});

/// Map an SEC form name (`10-K405`, `DEF 14A`, `424B4`, …) to a type.
pub fn from_form_name(form: &str) -> Option<DocType> {
    let f = form.trim().to_ascii_uppercase();
    let t = if f.starts_with("10-K") {
        DocType::Form10K
    } else if f.starts_with("10-Q") {
        DocType::Form10Q
    } else if f.starts_with("8-K") {
        DocType::Form8K
    } else if f.starts_with("DEF 14")
        || f.starts_with("DEFA14")
        || f.starts_with("PRE 14A")
        || f == "DEF14A"
    {
        DocType::Def14A
    } else if f.starts_with("S-1") || f.starts_with("F-1") || f.starts_with("424B") {
        DocType::S1
    } else if f.starts_with("20-F") || f.starts_with("40-F") {
        DocType::Form20F
    } else if f.starts_with("6-K") {
        DocType::Form6K
    } else {
        return None;
    };
    Some(t)
}

/// Detect the type of a document from its canonical text and facts.
pub fn detect(c: &Canonical, name: &str) -> DocType {
    if let Some(t) = c
        .facts
        .iter()
        .find(|f| f.concept == "dei:DocumentType")
        .and_then(|f| from_form_name(&f.value))
    {
        return t;
    }
    if let Some(t) = c
        .sgml_header
        .iter()
        .find(|(k, _)| k == "TYPE" || k == "CONFORMED SUBMISSION TYPE")
        .and_then(|(_, v)| from_form_name(v))
    {
        return t;
    }
    let head: String = c.text.chars().take(8000).collect();
    let lower = head.to_lowercase();
    if lower.contains("earnings call")
        || lower.contains("conference call transcript")
        || (lower.contains("operator")
            && (lower.contains("question-and-answer")
                || lower.contains("questions and answers")
                || lower.contains("prepared remarks")))
    {
        return DocType::EarningsCall;
    }
    if lower.contains("schedule 14a")
        && (lower.contains("definitive proxy") || lower.contains("proxy statement"))
    {
        return DocType::Def14A;
    }
    if lower.contains("rule 424(b)")
        || (lower.contains("prospectus") && lower.contains("initial public offering"))
    {
        return DocType::S1;
    }
    if let Some(m) = FORM.captures(&head) {
        if let Some(t) = from_form_name(&m[1]) {
            return t;
        }
    }
    let name_lower = name.to_ascii_lowercase();
    let press = lower.contains("for immediate release")
        || lower.contains("business wire")
        || lower.contains("prnewswire")
        || lower.contains("globe newswire")
        || name_lower.contains("press_release")
        || name_lower.contains("ex-99");
    let results = Regex::new(
        r"(?i)(reports?|announces?)\b[^.\n]{0,80}\b(results|earnings|sales|net\s+income|revenues?)",
    )
    .map(|r| r.is_match(&head))
    .unwrap_or(false);
    if press && results || results && lower.contains("quarter") && lower.contains("net income") {
        return DocType::EarningsRelease;
    }
    if press {
        return DocType::PressRelease;
    }
    if lower.contains("price target")
        || lower.contains("analyst certification")
        || (lower.contains("rating") && lower.contains("overweight"))
    {
        return DocType::ResearchReport;
    }
    if lower.contains("(reuters)")
        || lower.contains("bloomberg news")
        || lower.contains("staff writer")
    {
        return DocType::FinancialNews;
    }
    DocType::Generic
}
