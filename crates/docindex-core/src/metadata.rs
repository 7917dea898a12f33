//! Metadata: company, CIK, ticker, periods, filing date and key numbers. Inline-XBRL `dei:`
//! facts are trusted first, then the EDGAR header, then cover-page and signature text.

use crate::charmap::CharMap;
use crate::ingest::{Canonical, XbrlContext, XbrlFact};
use crate::model::{DocType, KeyNumber, Metadata};
use regex::Regex;
use std::sync::LazyLock;

/// Month names, January first.
pub const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

fn re(p: &str) -> Regex {
    Regex::new(p).unwrap_or_else(|e| unreachable!("bad built-in pattern {p}: {e}"))
}

static MONTH_DATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\b(January|February|March|April|May|June|July|August|September|October|November|December)\s+(\d{1,2}),?\s+(\d{4})\b",
    )
});
static PERIOD_ENDED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)(?:fiscal\s+year|quarterly\s+period|period|year)\s+ended\s*:?\s*((?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},?\s+\d{4})",
    )
});
static REGISTRANT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?m)^(.{2,80})\n\n?(?:[-\s]{10,}\n\n?)?\(Exact name of (?:registrant|Registrant)")
});
static TICKER_PAREN: LazyLock<Regex> = LazyLock::new(|| {
    re(r"\((?:NYSE|NASDAQ|Nasdaq|NYSE American|OTC)\s*:\s*([A-Z]{1,5}(?:\.[A-Z])?)\)")
});
/// Where a 10-K's Item 5 names the market for its stock: "traded on the NASDAQ Global Select
/// Market under the symbol “ADBE.”", "listed on the New York Stock Exchange under the trading
/// symbol "KO"". Analysts name a company by it ("ADBE's operating margin").
static TICKER_SYMBOL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"under the (?:trading |ticker )?symbols? [“"‘']?([A-Z]{1,5}(?:\.[A-Z])?)(?:[.,]?[”"’']|[.,;]?\s)"#,
    )
});
/// How far into a filing its market for common equity is looked for (Item 5 of a 10-K
/// stands about a third of the way in; a larger filing's exhibits come after it).
const TICKER_SYMBOL_WITHIN: usize = 400_000;
/// The first line of a call transcript: "Acme Robotics, Inc. (NASDAQ: ACMR) Q3 2024 Earnings
/// Call Transcript", "Apple Inc. (AAPL) Q4 2024 Earnings Call", "Apple Inc. Q4 2024 Earnings
/// Conference Call".
static TRANSCRIPT_TITLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^\s*(.{2,80}?)\s*(?:\((?:(?:NYSE|NASDAQ|Nasdaq|NYSE American|OTC)\s*:\s*)?([A-Z]{1,5}(?:\.[A-Z])?)\))?\s*(?:Q[1-4]|(?:first|second|third|fourth)\s+quarter|FY|fiscal)?\s*(?:\d{4})?\s*(?:results\s+)?(?:earnings|conference)\s+(?:conference\s+)?call\b",
    )
});
static SIGNATURE_DATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)\bDated?:?\s*((?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d{1,2},?\s+\d{4})",
    )
});

/// Turn `September 28, 2024` into `2024-09-28`.
pub fn iso_date(text: &str) -> Option<String> {
    let c = MONTH_DATE.captures(text)?;
    let month = MONTHS.iter().position(|m| c[1].eq_ignore_ascii_case(m))? + 1;
    let day: u32 = c[2].parse().ok()?;
    Some(format!("{}-{:02}-{:02}", &c[3], month, day))
}

fn fact<'a>(facts: &'a [XbrlFact], concept: &str) -> Option<&'a XbrlFact> {
    facts
        .iter()
        .find(|f| f.concept == concept && !f.value.trim().is_empty())
}

fn set(meta: &mut Metadata, field: &str, source: &str) {
    meta.sources.insert(field.to_string(), source.to_string());
}

/// Extract metadata. `map` converts the canonical text's byte offsets to public spans.
pub fn extract(c: &Canonical, map: &CharMap, doc_type: DocType) -> Metadata {
    let mut m = Metadata::default();
    let facts = &c.facts;
    if let Some(f) = fact(facts, "dei:EntityRegistrantName") {
        m.company_name = Some(f.value.trim().to_string());
        set(&mut m, "company_name", "xbrl");
    }
    if let Some(f) = fact(facts, "dei:EntityCentralIndexKey") {
        m.cik = Some(f.value.trim().to_string());
        set(&mut m, "cik", "xbrl");
    }
    if let Some(f) = fact(facts, "dei:TradingSymbol") {
        m.ticker = Some(f.value.trim().to_ascii_uppercase());
        set(&mut m, "ticker", "xbrl");
    }
    if let Some(f) = fact(facts, "dei:DocumentPeriodEndDate") {
        m.period_end_date = iso_date(&f.value).or_else(|| Some(f.value.trim().to_string()));
        set(&mut m, "period_end_date", "xbrl");
    }
    if let Some(y) =
        fact(facts, "dei:DocumentFiscalYearFocus").and_then(|f| f.value.trim().parse().ok())
    {
        m.fiscal_year = Some(y);
        set(&mut m, "fiscal_year", "xbrl");
    }
    if let Some(f) = fact(facts, "dei:DocumentFiscalPeriodFocus") {
        m.fiscal_quarter = match f.value.trim() {
            "Q1" => Some(1),
            "Q2" => Some(2),
            "Q3" => Some(3),
            "Q4" => Some(4),
            _ => None,
        };
        if m.fiscal_quarter.is_some() {
            set(&mut m, "fiscal_quarter", "xbrl");
        }
    }
    for (k, v) in &c.sgml_header {
        match k.as_str() {
            "COMPANY CONFORMED NAME" | "CONFORMED COMPANY NAME" if m.company_name.is_none() => {
                m.company_name = Some(v.clone());
                set(&mut m, "company_name", "sgml_header");
            }
            "CENTRAL INDEX KEY" if m.cik.is_none() => {
                m.cik = Some(v.clone());
                set(&mut m, "cik", "sgml_header");
            }
            "FILED AS OF DATE" if v.len() == 8 => {
                m.filing_date = Some(format!("{}-{}-{}", &v[..4], &v[4..6], &v[6..8]));
                set(&mut m, "filing_date", "sgml_header");
            }
            "CONFORMED PERIOD OF REPORT" if v.len() == 8 && m.period_end_date.is_none() => {
                m.period_end_date = Some(format!("{}-{}-{}", &v[..4], &v[4..6], &v[6..8]));
                set(&mut m, "period_end_date", "sgml_header");
            }
            _ => {}
        }
    }
    let head_end = map.byte_at(20_000);
    let head = &c.text[..head_end];
    if m.company_name.is_none() {
        if let Some(cap) = REGISTRANT.captures(head) {
            let name = cap[1].trim().trim_matches('-').trim();
            if !name.is_empty() {
                m.company_name = Some(name.to_string());
                set(&mut m, "company_name", "cover_page");
            }
        }
    }
    if m.company_name.is_none() && doc_type == DocType::EarningsCall {
        let first_line = head.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
        if let Some(cap) = TRANSCRIPT_TITLE.captures(first_line) {
            let name = cap[1].trim().trim_end_matches([',', '-', '–', '—']).trim();
            if !name.is_empty() && name.chars().next().is_some_and(char::is_uppercase) {
                m.company_name = Some(name.to_string());
                set(&mut m, "company_name", "transcript_title");
            }
            if let (None, Some(t)) = (&m.ticker, cap.get(2)) {
                m.ticker = Some(t.as_str().to_string());
                set(&mut m, "ticker", "transcript_title");
            }
        }
    }
    if m.company_name.is_none() {
        if let Some(name) = cover_company_name(c) {
            m.company_name = Some(name);
            set(&mut m, "company_name", "cover_page");
        }
    }
    if m.company_name.is_none() {
        let opening = &c.text[..map.byte_at(150_000)];
        if let Some(name) = issuer_named_in_text(opening) {
            m.company_name = Some(name);
            set(&mut m, "company_name", "text");
        }
    }
    if m.ticker.is_none() {
        if let Some(cap) = TICKER_PAREN.captures(head) {
            m.ticker = Some(cap[1].to_string());
            set(&mut m, "ticker", "text");
        }
    }
    if m.ticker.is_none() {
        let within = &c.text[..map.byte_at(TICKER_SYMBOL_WITHIN)];
        if let Some(cap) = TICKER_SYMBOL.captures(within) {
            m.ticker = Some(cap[1].to_string());
            set(&mut m, "ticker", "market_for_equity");
        }
    }
    if m.period_end_date.is_none() {
        if let Some(date) = PERIOD_ENDED
            .captures(head)
            .and_then(|cap| iso_date(&cap[1]))
        {
            m.period_end_date = Some(date);
            set(&mut m, "period_end_date", "cover_page");
        }
    }
    if m.fiscal_year.is_none()
        && matches!(
            doc_type,
            DocType::Form10K | DocType::Form20F | DocType::Form10Q
        )
    {
        if let Some(year) = m
            .period_end_date
            .as_deref()
            .and_then(|d| d.get(..4))
            .and_then(|y| y.parse().ok())
        {
            m.fiscal_year = Some(year);
            set(&mut m, "fiscal_year", "period_end_date");
        }
    }
    if m.filing_date.is_none() {
        if let Some(date) = signature_date(&c.text, m.period_end_date.as_deref()) {
            m.filing_date = Some(date);
            set(&mut m, "filing_date", "signature");
        }
    }
    if let Some(p) = &m.period_end_date {
        m.key_dates.push(("period_end".into(), p.clone()));
    }
    if let Some(f) = &m.filing_date {
        m.key_dates.push(("filing".into(), f.clone()));
    }
    m.key_numbers = key_numbers(c, map, m.period_end_date.as_deref());
    m
}

/// The date of the signature block (the last "SIGNATURES" heading), which dates the
/// filing; never earlier than the period it reports on.
fn signature_date(text: &str, period_end: Option<&str>) -> Option<String> {
    let heading = text
        .rfind("\nSIGNATURES")
        .or_else(|| text.rfind("\nSIGNATURE"))?;
    let window_end = (heading + 6000).min(text.len());
    let window_end = (window_end..=text.len()).find(|&i| text.is_char_boundary(i))?;
    let window = &text[heading..window_end];
    let date = SIGNATURE_DATE
        .captures(window)
        .and_then(|cap| iso_date(&cap[1]))
        .or_else(|| MONTH_DATE.find(window).and_then(|m| iso_date(m.as_str())))?;
    match period_end {
        Some(end) if date.as_str() < end => None,
        _ => Some(date),
    }
}

const KEY_CONCEPTS: [(&str, &[&str]); 6] = [
    (
        "revenue",
        &[
            "us-gaap:Revenues",
            "us-gaap:RevenueFromContractWithCustomerExcludingAssessedTax",
            "us-gaap:SalesRevenueNet",
            "ifrs-full:Revenue",
        ],
    ),
    (
        "net_income",
        &[
            "us-gaap:NetIncomeLoss",
            "us-gaap:ProfitLoss",
            "ifrs-full:ProfitLoss",
        ],
    ),
    ("operating_income", &["us-gaap:OperatingIncomeLoss"]),
    ("diluted_eps", &["us-gaap:EarningsPerShareDiluted"]),
    ("total_assets", &["us-gaap:Assets", "ifrs-full:Assets"]),
    (
        "cash_from_operations",
        &["us-gaap:NetCashProvidedByUsedInOperatingActivities"],
    ),
];

/// Key figures from visible XBRL facts of the document's own period (no dimensions).
fn key_numbers(c: &Canonical, map: &CharMap, period_end: Option<&str>) -> Vec<KeyNumber> {
    let Some(end) = period_end else {
        return Vec::new();
    };
    let context_ok = |ctx: &XbrlContext| {
        !ctx.has_segment && (ctx.end.as_deref() == Some(end) || ctx.instant.as_deref() == Some(end))
    };
    let mut out = Vec::new();
    for (name, concepts) in KEY_CONCEPTS {
        let found = concepts.iter().find_map(|concept| {
            c.facts.iter().find(|f| {
                f.concept == *concept
                    && f.span.is_some()
                    && c.contexts
                        .iter()
                        .any(|ctx| ctx.id == f.context_ref && context_ok(ctx))
            })
        });
        if let Some(f) = found {
            let ctx = c.contexts.iter().find(|ctx| ctx.id == f.context_ref);
            let period = ctx.map(|ctx| match (&ctx.start, &ctx.end, &ctx.instant) {
                (Some(s), Some(e), _) => format!("{s}..{e}"),
                (_, _, Some(i)) => i.clone(),
                _ => String::new(),
            });
            let unit = match f.scale {
                Some(6) => Some("millions".to_string()),
                Some(3) => Some("thousands".to_string()),
                Some(9) => Some("billions".to_string()),
                _ => None,
            };
            let value = if f.negative {
                format!("-{}", f.value)
            } else {
                f.value.clone()
            };
            out.push(KeyNumber {
                name: name.to_string(),
                value,
                unit,
                period,
                span: f.span.clone().map(|r| map.span(r.start, r.end)),
                source: format!("xbrl:{}", f.concept),
            });
        }
    }
    out
}

static CORPORATE_NAME: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^[A-Z0-9][\w.,&'’ -]{1,70}\b(?:CORPORATION|CORP\.?|INC\.?|INCORPORATED|COMPANY|CO\.|PLC|LTD\.?|LIMITED|N\.V\.|S\.A\.|AG|SE|HOLDINGS?|GROUP|L\.?P\.|LLC|TRUST|BANCORP)$",
    )
});

/// A company's name as a filing writes it: capitalised words ending in a corporate suffix.
const NAMED_COMPANY: &str = r"([A-Z0-9][\w.&'’-]*(?:,? [A-Z0-9&][\w.&'’-]*){0,7},? (?:Corporation|Incorporated|Inc\.|Corp\.|Company|Ltd\.|Limited|plc|PLC|N\.V\.|S\.A\.|AG|SE|Holdings|Group|L\.P\.|LLC|Trust|Bancorp))";

/// A prospectus's cover: "This is an initial public offering of shares of common stock by
/// CAMP4 Therapeutics Corporation."
static OFFERING_BY: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"(?i:public offering of)[^.]{{0,120}}?\b(?i:by|of) {NAMED_COMPANY}"
    ))
});
/// The definition most filings make of "we": 'references to “we,” “us,” “our” … refer to
/// CAMP4 Therapeutics Corporation'.
static WE_REFER_TO: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r#"[“"](?i:we),?[”"][^.]{{0,200}}?\b(?i:refers?|means?) to (?:the )?{NAMED_COMPANY}"#
    ))
});

/// The issuer as the text names it, for a filing whose cover shows the name only as an
/// image (a prospectus): its offering sentence, else its definition of "we".
fn issuer_named_in_text(text: &str) -> Option<String> {
    [&*OFFERING_BY, &*WE_REFER_TO].iter().find_map(|pattern| {
        pattern
            .captures(text)
            .map(|cap| cap[1].trim_end_matches(',').to_string())
    })
}

/// The registrant's name as the cover page sets it when no "Exact name of registrant"
/// caption follows it: the largest bold line of the first blocks that reads like a company.
fn cover_company_name(c: &Canonical) -> Option<String> {
    c.blocks
        .iter()
        .enumerate()
        .take(40)
        .filter(|(_, b)| b.style.bold && b.kind != crate::ingest::BlockKind::TableRow)
        .filter_map(|(i, b)| {
            let text = c.block_text(i).trim();
            let lower = text.to_lowercase();
            let generic = lower.contains("securities and exchange") || lower.contains("commission");
            (CORPORATE_NAME.is_match(text) && !generic)
                .then(|| (b.style.font_size.unwrap_or(0.0), text))
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, text)| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::{issuer_named_in_text, TICKER_SYMBOL};

    #[test]
    fn item_5_names_the_ticker_of_a_filing_whose_cover_does_not() {
        let ticker = |text: &str| TICKER_SYMBOL.captures(text).map(|c| c[1].to_string());
        // Adobe's 2015 10-K, Item 5; Coca-Cola's 2017 10-K.
        assert_eq!(
            ticker("Our common stock is traded on the NASDAQ Global Select Market under the symbol “ADBE.” The following table").as_deref(),
            Some("ADBE")
        );
        assert_eq!(
            ticker("is listed on the New York Stock Exchange under the trading symbol \"KO\".")
                .as_deref(),
            Some("KO")
        );
        // Boeing's 2018 10-K prints it unquoted.
        assert_eq!(
            ticker(
                "is traded principally on the New York Stock Exchange under the symbol BA. As of"
            )
            .as_deref(),
            Some("BA")
        );
        assert_eq!(ticker("under the symbol of a new era"), None);
    }

    #[test]
    fn a_prospectus_names_its_issuer_in_its_offering_sentence_or_its_definition_of_we() {
        let cover = "Prospectus\n\n6,820,000 shares\n\nThis is an initial public offering of \
            shares of common stock by CAMP4 Therapeutics Corporation.\n\nWe are offering";
        assert_eq!(
            issuer_named_in_text(cover).as_deref(),
            Some("CAMP4 Therapeutics Corporation")
        );
        let definition = "As used in this prospectus, unless the context otherwise requires, \
            references to “we,” “us,” “our” and “Acme” refer to Acme Robotics, Inc. and its \
            subsidiaries.";
        assert_eq!(
            issuer_named_in_text(definition).as_deref(),
            Some("Acme Robotics, Inc.")
        );
        let shares_of = "the initial public offering of 5,000,000 American Depositary Shares \
            of Example Holdings Limited, each representing";
        assert_eq!(
            issuer_named_in_text(shares_of).as_deref(),
            Some("Example Holdings Limited")
        );
    }

    #[test]
    fn text_that_names_no_company_gives_none() {
        assert_eq!(
            issuer_named_in_text("We are offering 6,820,000 shares of our common stock."),
            None
        );
        assert_eq!(
            issuer_named_in_text("references to “we” refer to the company and its subsidiaries."),
            None
        );
    }
}
