//! Typed sections of a filing: the primary statements (with their period columns), the
//! notes and each note with its number, segment information, MD&A and its results
//! discussion, and the auditor's report. Derived from titles, nesting and the statements'
//! heading rows, so a stored tree gets its types when it is read.

use super::rows::{months_in, period_columns, statement_of_title, PeriodColumn};
use super::Statement;
use crate::charmap::CharMap;
use crate::model::DocumentIndex;
use crate::structure::patterns::{
    is_auditor_report, is_notes_heading, is_results_discussion_title, item_label, note_number,
};
use serde::{Deserialize, Serialize};

/// What a section of a filing is, for an analyst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SectionKind {
    /// Statement of operations / income / earnings.
    IncomeStatement,
    ComprehensiveIncome,
    /// Balance sheet / statement of financial position.
    BalanceSheet,
    CashFlows,
    /// Statement of shareholders' / stockholders' equity.
    EquityStatement,
    /// Item 8 (10-K) or Item 1 of Part I (10-Q): the statements and notes together.
    FinancialStatements,
    /// "Notes to consolidated financial statements": the parent of the notes.
    Notes,
    /// One note; its number is in [`FinancialSection::note_number`] when printed.
    Note,
    /// Segment information (a note or a section of its own).
    Segments,
    /// Management's discussion and analysis.
    Mdna,
    /// The results-of-operations discussion inside MD&A.
    MdnaResults,
    /// The independent auditor's report.
    AuditorReport,
}

impl SectionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SectionKind::IncomeStatement => "income statement",
            SectionKind::ComprehensiveIncome => "comprehensive income",
            SectionKind::BalanceSheet => "balance sheet",
            SectionKind::CashFlows => "cash flows",
            SectionKind::EquityStatement => "equity statement",
            SectionKind::FinancialStatements => "financial statements",
            SectionKind::Notes => "notes",
            SectionKind::Note => "note",
            SectionKind::Segments => "segments",
            SectionKind::Mdna => "MD&A",
            SectionKind::MdnaResults => "MD&A results",
            SectionKind::AuditorReport => "auditor's report",
        }
    }

    /// The primary statement this section is, if it is one.
    pub fn statement(self) -> Option<Statement> {
        match self {
            SectionKind::IncomeStatement | SectionKind::ComprehensiveIncome => {
                Some(Statement::Income)
            }
            SectionKind::BalanceSheet => Some(Statement::Balance),
            SectionKind::CashFlows => Some(Statement::CashFlows),
            SectionKind::EquityStatement => Some(Statement::Equity),
            _ => None,
        }
    }
}

/// The type of a section and, for a statement, its period columns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FinancialSection {
    pub kind: SectionKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note_number: Option<u32>,
    /// A statement's value columns, left to right, with the period each covers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub periods: Vec<PeriodColumn>,
}

fn kind_of_statement_title(title: &str) -> Option<SectionKind> {
    let statement = statement_of_title(title)?;
    let lowered = title.to_lowercase();
    Some(match statement {
        Statement::Income
            if lowered.contains("comprehensive")
                && !lowered.contains("operations")
                && !lowered.contains("statements of income and")
                && !lowered.contains("earnings and") =>
        {
            SectionKind::ComprehensiveIncome
        }
        Statement::Income => SectionKind::IncomeStatement,
        Statement::Balance => SectionKind::BalanceSheet,
        Statement::CashFlows => SectionKind::CashFlows,
        Statement::Equity => SectionKind::EquityStatement,
    })
}

/// A statement's section with the period columns of its `text`. Columns that are not
/// periods (an equity statement's components of equity, with its periods as rows) are not
/// reported as periods.
fn statement_section(kind: SectionKind, text: &str) -> FinancialSection {
    let mut periods = period_columns(text);
    if periods.iter().any(|p| p.year.is_none()) {
        periods.clear();
    }
    FinancialSection {
        kind,
        note_number: None,
        periods,
    }
}

/// The statement whose title line opens `text` (one of its first two lines), if one does.
fn statement_opening(text: &str) -> Option<SectionKind> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .take(2)
        .find_map(kind_of_statement_title)
}

fn is_segments_title(title: &str) -> bool {
    let t = title.to_lowercase();
    t.contains("segment information")
        || t.contains("segment reporting")
        || t.contains("segment data")
        || t.contains("segment results")
        || t.contains("operating segments")
        || t.contains("business segments")
        || t.trim_end_matches(|c: char| !c.is_alphanumeric())
            .ends_with("segments")
}

fn is_financial_statements_item(title: &str) -> bool {
    let t = title.to_lowercase();
    matches!(item_label(title).as_deref(), Some("8") | Some("1"))
        && t.contains("financial statements")
}

/// Type every node of `doc` that is a statement, the notes, a note, segment information,
/// MD&A (and its results discussion), Item 8 or the auditor's report.
pub fn classify_sections(doc: &mut DocumentIndex) {
    let map = CharMap::new(&doc.text);
    let mut kinds: Vec<Option<FinancialSection>> = Vec::with_capacity(doc.nodes.len());
    // Parents come before their children (pre-order), so a parent's type is known first.
    let index_of: std::collections::HashMap<&str, usize> = doc
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.node_id.as_str(), i))
        .collect();
    let parent_of = |i: usize| -> Option<usize> {
        let p = doc.nodes[i].parent_id.as_deref()?;
        index_of.get(p).copied().filter(|&at| at < i)
    };
    for (i, node) in doc.nodes.iter().enumerate() {
        let title = node.title.trim();
        let parent_kind = parent_of(i).and_then(|p| kinds[p].as_ref().map(|k| k.kind));
        let under_notes = {
            let mut up = parent_of(i);
            let mut found = false;
            while let Some(at) = up {
                if kinds[at]
                    .as_ref()
                    .is_some_and(|k| k.kind == SectionKind::Notes)
                {
                    found = true;
                    break;
                }
                up = parent_of(at);
            }
            found
        };
        let section = if let Some(kind) = kind_of_statement_title(title) {
            Some(statement_section(kind, map.slice(node.span)))
        } else if is_auditor_report(title) {
            Some(FinancialSection {
                kind: SectionKind::AuditorReport,
                note_number: None,
                periods: Vec::new(),
            })
        } else if is_notes_heading(title) {
            Some(FinancialSection {
                kind: SectionKind::Notes,
                note_number: None,
                periods: Vec::new(),
            })
        } else if let Some(number) = note_number(title, under_notes) {
            let kind = if is_segments_title(title) {
                SectionKind::Segments
            } else {
                SectionKind::Note
            };
            Some(FinancialSection {
                kind,
                note_number: Some(number),
                periods: Vec::new(),
            })
        } else if is_segments_title(title) {
            Some(FinancialSection {
                kind: SectionKind::Segments,
                note_number: None,
                periods: Vec::new(),
            })
        } else if under_notes && parent_kind == Some(SectionKind::Notes) {
            Some(FinancialSection {
                kind: SectionKind::Note,
                note_number: None,
                periods: Vec::new(),
            })
        } else if is_results_discussion_title(title) {
            Some(FinancialSection {
                kind: SectionKind::Mdna,
                note_number: None,
                periods: Vec::new(),
            })
        } else if parent_kind == Some(SectionKind::Mdna)
            && title.to_lowercase().contains("results of operations")
        {
            Some(FinancialSection {
                kind: SectionKind::MdnaResults,
                note_number: None,
                periods: Vec::new(),
            })
        } else if is_financial_statements_item(title) {
            Some(FinancialSection {
                kind: SectionKind::FinancialStatements,
                note_number: None,
                periods: Vec::new(),
            })
        } else {
            // GE's statement of earnings opens a section its cross-reference index titles
            // "Audited Financial Statements and Notes": the statement's own title line says
            // what the section is.
            statement_opening(map.slice(node.span))
                .map(|kind| statement_section(kind, map.slice(node.span)))
        };
        kinds.push(section);
    }
    for (node, kind) in doc.nodes.iter_mut().zip(kinds) {
        node.financial = kind;
    }
}

/// Months of the period a question asks about: 3 for a quarter, 12 for a year.
pub fn months_asked(question: &str) -> Option<u32> {
    static QUARTER: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)\b(?:[1-4]q|q[1-4]|quarter|three months|three-month)\b").ok()
    });
    if QUARTER.as_ref().is_some_and(|re| re.is_match(question)) {
        return Some(3);
    }
    months_in(question).filter(|m| *m != 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_is_known_by_its_title_line_under_a_generic_heading() {
        // GE's cross-reference index titles its statement of earnings "Audited Financial
        // Statements and Notes"; the statement's first line says what it is.
        let text = "STATEMENT OF EARNINGS (LOSS)\nFor the years ended December 31 | 2023 | 2022\nTotal revenues | 67,954 | 58,100\n";
        assert_eq!(statement_opening(text), Some(SectionKind::IncomeStatement));
        assert_eq!(
            kind_of_statement_title("Statement of Financial Position"),
            Some(SectionKind::BalanceSheet)
        );
        // Prose that mentions a statement opens none.
        assert_eq!(
            statement_opening("The statement of earnings shows our results.\nMore text."),
            None
        );
    }
}
