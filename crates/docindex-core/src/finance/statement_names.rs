//! Which primary statement a title or a caption line names ("CONSOLIDATED STATEMENTS OF
//! CASH FLOWS", "Balance Sheets (in millions)"), in the names filers use.

use super::concepts::Statement;
use super::rows::normalise_label;
use crate::structure::patterns::is_statement_title;

/// The statements' names as titles print them, after "condensed"/"consolidated".
const STATEMENT_NAMES: &[(&str, Statement)] = &[
    ("statements of cash flows", Statement::CashFlows),
    ("statement of cash flows", Statement::CashFlows),
    ("cash flows statements", Statement::CashFlows),
    ("cash flow statements", Statement::CashFlows),
    ("balance sheets", Statement::Balance),
    ("balance sheet", Statement::Balance),
    ("statements of financial position", Statement::Balance),
    ("statements of financial condition", Statement::Balance),
    ("statement of financial position", Statement::Balance),
    ("statements of operations", Statement::Income),
    ("statement of operations", Statement::Income),
    ("statements of income", Statement::Income),
    ("statement of income", Statement::Income),
    ("statements of earnings", Statement::Income),
    ("income statements", Statement::Income),
    ("statements of comprehensive income", Statement::Income),
    ("comprehensive income statements", Statement::Income),
    ("statements of stockholders' equity", Statement::Equity),
    ("statements of shareholders' equity", Statement::Equity),
    (
        "statements of changes in stockholders' equity",
        Statement::Equity,
    ),
    (
        "statements of changes in shareholders' equity",
        Statement::Equity,
    ),
    ("statements of changes in equity", Statement::Equity),
    ("statements of equity", Statement::Equity),
    ("stockholders' equity statements", Statement::Equity),
    ("shareholders' equity statements", Statement::Equity),
];

/// The statement a title names: "Consolidated Balance Sheets", "CASH FLOWS STATEMENTS",
/// "Consolidated Statements of Operations for the Three and Six Months Ended …".
pub fn statement_of_title(title: &str) -> Option<Statement> {
    if title.chars().count() > 160 || title.contains('|') {
        return None;
    }
    let mut t = normalise_label(title);
    for prefix in ["condensed ", "consolidated ", "combined ", "condensed "] {
        if let Some(rest) = t.strip_prefix(prefix) {
            t = rest.to_string();
        }
    }
    // "Statement of Earnings (Loss)": one statement's name is its plural's.
    if let Some(rest) = t.strip_prefix("statement of ") {
        t = format!("statements of {rest}");
    }
    // "Statements of Redeemable Noncontrolling Interests and Equity" and the like.
    if (t.starts_with("statements of ") || t.starts_with("statement of "))
        && t.contains("equity")
        && !t.contains("cash flow")
        && t.split_whitespace().count() <= 10
    {
        return Some(Statement::Equity);
    }
    let (name, statement) = STATEMENT_NAMES
        .iter()
        .find(|(name, _)| t.starts_with(name))?;
    let rest = &t[name.len()..];
    let qualified = rest.is_empty()
        || [
            " at ", " for ", " as of ", " (", ",", " –", " —", " -", " and ",
        ]
        .iter()
        .any(|q| rest.starts_with(q));
    (qualified || is_statement_title(title)).then_some(*statement)
}

/// A statement's title line in the body, possibly after the filer's name ("ACME INC. AND
/// SUBSIDIARIES CONSOLIDATED BALANCE SHEETS (In thousands)"), not a sentence about one.
pub(super) fn statement_of_line(line: &str) -> Option<Statement> {
    if let Some(found) = statement_of_title(line) {
        return Some(found);
    }
    if line.chars().count() > 160 || line.contains('|') || line.trim_end().ends_with('.') {
        return None;
    }
    let t = normalise_label(line);
    let at = t.find("consolidated ")?;
    statement_of_title(&t[at..])
        .filter(|_| line.chars().filter(|c| c.is_lowercase()).count() * 4 < line.chars().count())
}
