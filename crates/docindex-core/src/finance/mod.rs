//! The financial layer: primary statements, notes, segments and MD&A as typed sections;
//! the concept table (analyst terms → line items, phrasings, XBRL names, formulas); the
//! rows of statement tables with their period columns; metrics computed from cited rows.

pub mod answer;
pub mod asked;
pub mod concepts;
pub mod defined;
mod formula_words;
pub mod judgment;
mod lead;
pub mod located;
pub mod metrics;
pub mod named;
pub mod parts;
pub(crate) mod period_formula;
pub mod rows;
pub mod sections;
mod shape;
mod statement_names;
mod stating;
pub mod wording;

pub use answer::{
    best_rows, focus_question, lead_for, locate_rows, with_figures, FiguresLead, LocatedRow,
};
pub use concepts::{concept_table, Concept, ConceptTable, MetricUnit, Statement};
pub use metrics::{compute_metric, MetricResult, Operand};
pub use named::{named_line_item, NAMED_ID};
pub use rows::{
    find_rows, find_tagged_rows, parse_amount, PeriodColumn, RowMatch, StatementRow,
    MAX_AMOUNT_DIGITS,
};
pub use sections::{classify_sections, FinancialSection, SectionKind};

/// Why the financial layer could not do what was asked; every variant is our own bug
/// (the concept table is compiled in and checked by tests).
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum FinanceError {
    #[error("the built-in concept table is invalid: {0}")]
    BadTable(String),
}

impl FinanceError {
    pub fn fault(&self) -> crate::Fault {
        crate::Fault::Bug
    }
}
