//! Domain patterns of financial filings: Parts, Items, statements, notes, transcript
//! sections and speaker turns, matched against whole blocks.

use regex::Regex;
use std::sync::LazyLock;

fn re(pattern: &str) -> Regex {
    Regex::new(pattern).unwrap_or_else(|e| unreachable!("bad built-in pattern {pattern}: {e}"))
}

static PART: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)^PART\s+(IV|III|II|I|V|[1-5])\b\s*(?:[.:\-–—]\s*)?(.*)$"));
static ITEM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^ITEMS?\s+(\d{1,2}(?:\.\d{2})?)\s*([A-D])?(?:\([a-z0-9]{1,3}\))*(?:\s*(?:\.|:|-|–|—|\s)\s*(.*))?$",
    )
});
static TRAILING_PAGE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:\s|\|)(?:[A-Z]-)?\d{1,3}(?:\s*-\s*\d{1,3})?$"));
static STATEMENT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:CONDENSED\s+)?(?:CONSOLIDATED\s+|COMBINED\s+)?(?:STATEMENTS?\s+OF\s+(?:CONSOLIDATED\s+)?(?:OPERATIONS|INCOME|EARNINGS|COMPREHENSIVE\s+(?:INCOME|LOSS|EARNINGS)|CASH\s+FLOWS|(?:CHANGES\s+IN\s+)?(?:SHAREHOLDERS|STOCKHOLDERS|SHARE-?OWNERS)[’']?\s+EQUITY|FINANCIAL\s+(?:POSITION|CONDITION)|(?:COMPREHENSIVE\s+)?(?:LOSS|INCOME)(?:\s+AND\s+COMPREHENSIVE\s+(?:INCOME|LOSS))?)|BALANCE\s+SHEETS?|(?:COMPREHENSIVE\s+)?INCOME\s+STATEMENTS?|CASH\s+FLOWS?\s+STATEMENTS?|(?:STOCKHOLDERS|SHAREHOLDERS)[’']?\s+EQUITY\s+STATEMENTS?)(?:\s*\((?:UNAUDITED|CONTINUED|IN\s+[A-Z ,]+)\))*\s*$",
    )
});
static AUDITOR_REPORT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^REPORTS?\s+OF\s+(?:INDEPENDENT\s+REGISTERED\s+PUBLIC\s+ACCOUNTING\s+FIRM|INDEPENDENT\s+(?:AUDITORS?|ACCOUNTANTS))",
    )
});
static NOTES_HEADING: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)^NOTES\s+TO\s+(?:THE\s+)?(?:CONDENSED\s+)?(?:CONSOLIDATED\s+)?FINANCIAL\s+STATEMENTS")
});
static NOTE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)^NOTE\s+(\d{1,2})\s*(?:[.:\-–—]|\s)\s*\S"));
static NUMBERED_NOTE: LazyLock<Regex> = LazyLock::new(|| re(r"^(\d{1,2})\.\s+[A-Z][A-Za-z]"));
static TRANSCRIPT_SECTION: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:prepared\s+remarks|presentation|management\s+discussion\s+section|questions?\s*(?:and|&)\s*answers?(?:\s+session)?|question-and-answer\s+session|q\s*&\s*a(?:\s+session)?|(?:corporate\s+|conference\s+call\s+|call\s+)?participants|disclaimer)\s*:?$",
    )
});
static SPEAKER: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(Operator|[A-Z][A-Za-z.'’\-]+(?:\s+[A-Z][A-Za-z.'’\-]+){1,3})(?:\s*(?:--|—|–|-|,)\s*([A-Z][^.!?]{1,90}))?\s*:?$",
    )
});

/// The line under a speaker's name in many transcripts: "Apple Inc. — President, CEO &
/// Director", "Morgan Stanley -- Analyst".
static ROLE_LINE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^([A-Z][^\n]{1,60}?)\s+(?:--|—|–)\s+([A-Z][^\n]{1,80}?)\s*$"));

/// A Part heading: its roman or arabic number as 1..=5.
pub fn part_number(block: &str) -> Option<u8> {
    if block.chars().count() > 120 {
        return None;
    }
    let caps = PART.captures(block)?;
    let n = match caps[1].to_ascii_uppercase().as_str() {
        "I" | "1" => 1,
        "II" | "2" => 2,
        "III" | "3" => 3,
        "IV" | "4" => 4,
        _ => 5,
    };
    Some(n)
}

/// An Item heading (`Item 1A.`, `ITEM 7:`, `Item 2.02`): the label, like `1A` or `2.02`.
pub fn item_label(block: &str) -> Option<String> {
    if block.chars().count() > 250 {
        return None;
    }
    let caps = ITEM.captures(block)?;
    let rest = caps.get(3).map(|m| m.as_str()).unwrap_or("");
    if rest.starts_with(|c: char| c.is_ascii_digit())
        || rest.starts_with("of ")
        || rest.starts_with("in ")
    {
        return None;
    }
    let mut label = caps[1].to_string();
    if let Some(letter) = caps.get(2) {
        label.push_str(&letter.as_str().to_ascii_uppercase());
    }
    Some(label)
}

/// Sort key of an item label: `1` < `1A` < `1B` < `2` < `2.02`.
pub fn item_rank(label: &str) -> (u32, u32, u8) {
    let (num, letter) = match label.char_indices().find(|(_, c)| c.is_ascii_alphabetic()) {
        Some((i, c)) => (&label[..i], c as u8),
        None => (label, 0),
    };
    let (major, minor) = match num.split_once('.') {
        Some((a, b)) => (a.parse().unwrap_or(0), b.parse().unwrap_or(0)),
        None => (num.parse().unwrap_or(0), 0),
    };
    (major, minor, letter)
}

/// A table-of-contents line: an item or part followed by a page number.
pub fn is_toc_line(block: &str) -> bool {
    (item_label(block).is_some() || part_number(block).is_some())
        && TRAILING_PAGE.is_match(block.trim_end())
}

pub fn is_statement_title(block: &str) -> bool {
    block.chars().count() <= 140
        && (STATEMENT.is_match(block.trim()) || EQUITY_STATEMENT.is_match(block.trim()))
}

/// Equity statements that name more than equity: "Consolidated Statements of Redeemable
/// Noncontrolling Interests and Equity", "… of Changes in Partners' Capital and Equity".
static EQUITY_STATEMENT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)^(?:CONDENSED\s+)?(?:CONSOLIDATED\s+)?STATEMENTS?\s+OF\s+(?:CHANGES\s+IN\s+)?(?:REDEEMABLE\s+)?[A-Z'’ ,-]{0,60}\bAND\s+(?:STOCKHOLDERS[’']?\s+|SHAREHOLDERS[’']?\s+)?EQUITY(?:\s*\((?:UNAUDITED|CONTINUED|IN\s+[A-Z ,]+)\))*\s*$",
    )
});

pub fn is_auditor_report(block: &str) -> bool {
    block.chars().count() <= 140 && AUDITOR_REPORT.is_match(block.trim())
}

pub fn is_notes_heading(block: &str) -> bool {
    block.chars().count() <= 140 && NOTES_HEADING.is_match(block.trim())
}

/// Management's discussion of results: MD&A (Item 7 of a 10-K, Item 2 of a 10-Q, a
/// prospectus's section of that name) or a 20-F's Item 5, "Operating and Financial Review
/// and Prospects". A bare "Item 7." counts; a 20-F's "Item 7. Major Shareholders" does not.
pub fn is_results_discussion_title(title: &str) -> bool {
    let t = title.to_lowercase().replace('’', "'");
    let bare_item_7 = item_label(title).as_deref() == Some("7")
        && !t.chars().any(|c| c.is_alphabetic() && !"item".contains(c));
    t.contains("discussion and analysis")
        || t.contains("discussion & analysis")
        || t.contains("md&a")
        || t.contains("operating and financial review")
        || bare_item_7
}

/// The risk factors: Item 1A, or a section of that name (a 20-F's Item 3.D).
pub fn is_risk_factors_title(title: &str) -> bool {
    item_label(title).as_deref() == Some("1A") || title.to_lowercase().contains("risk factors")
}

/// `Note 4 – Income Taxes` or (inside the notes) `4. Income Taxes`: the note number.
pub fn note_number(block: &str, numbered_style_allowed: bool) -> Option<u32> {
    if block.chars().count() > 160 {
        return None;
    }
    let block = block.trim();
    if let Some(c) = NOTE.captures(block) {
        return c[1].parse().ok();
    }
    if numbered_style_allowed && !block.ends_with('.') {
        if let Some(c) = NUMBERED_NOTE.captures(block) {
            return c[1].parse().ok();
        }
    }
    None
}

pub fn is_transcript_section(block: &str) -> bool {
    block.chars().count() <= 60 && TRANSCRIPT_SECTION.is_match(block.trim())
}

/// A speaker line of a transcript: (name, role or firm).
pub fn speaker(block: &str) -> Option<(String, Option<String>)> {
    if block.chars().count() > 110 {
        return None;
    }
    let c = SPEAKER.captures(block.trim())?;
    Some((
        c[1].to_string(),
        c.get(2).map(|m| m.as_str().trim().to_string()),
    ))
}

/// A "Firm — Role" line: (firm, role). Not a sentence: it ends without a full stop.
pub fn role_line(block: &str) -> Option<(String, String)> {
    let block = block.trim();
    if block.chars().count() > 110 || block.ends_with('.') || block.ends_with(':') {
        return None;
    }
    let c = ROLE_LINE.captures(block)?;
    Some((c[1].trim().to_string(), c[2].trim().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_items_and_parts() {
        assert_eq!(item_label("Item 1A. Risk Factors").as_deref(), Some("1A"));
        assert_eq!(item_label("ITEM 7:  MD&A").as_deref(), Some("7"));
        assert_eq!(
            item_label("Item 2.02 Results of Operations").as_deref(),
            Some("2.02")
        );
        assert_eq!(item_label("Item 7A"), Some("7A".into()));
        assert_eq!(
            item_label("ITEM 9.01(d). Exhibits").as_deref(),
            Some("9.01")
        );
        assert_eq!(item_label("Item 7 of Part II describes"), None);
        assert_eq!(
            item_label("Items 1 and 2. Business and Properties").as_deref(),
            Some("1")
        );
        assert_eq!(part_number("PART II — OTHER INFORMATION"), Some(2));
        assert_eq!(part_number("Part I"), Some(1));
        assert!(is_toc_line("Item 1A. | Risk Factors | 5"));
        assert!(!is_toc_line("Item 1A. Risk Factors"));
        assert!(item_rank("1A") > item_rank("1") && item_rank("2") > item_rank("1C"));
        assert!(item_rank("9.01") > item_rank("2.02"));
    }

    #[test]
    fn recognises_statements_notes_and_speakers() {
        assert!(is_statement_title("CONSOLIDATED STATEMENTS OF OPERATIONS"));
        assert!(is_statement_title(
            "CONDENSED CONSOLIDATED BALANCE SHEETS (Unaudited)"
        ));
        assert!(is_statement_title(
            "Consolidated Statements of Shareholders’ Equity"
        ));
        assert!(!is_statement_title("The consolidated statements of operations for the year were audited by us and present fairly."));
        assert!(is_statement_title(
            "Consolidated Statements of Redeemable Noncontrolling Interests and Equity"
        ));
        assert!(!is_statement_title(
            "Statements of income and equity are discussed in the notes that follow below."
        ));
        assert_eq!(note_number("Note 4 – Income Taxes", false), Some(4));
        assert_eq!(note_number("4. Income Taxes", true), Some(4));
        assert_eq!(note_number("4. Income Taxes", false), None);
        assert_eq!(
            speaker("Jane Doe -- Morgan Stanley -- Analyst"),
            Some(("Jane Doe".into(), Some("Morgan Stanley -- Analyst".into())))
        );
        assert_eq!(speaker("Operator"), Some(("Operator".into(), None)));
        assert!(speaker("Thank you for joining us today.").is_none());
    }
}
