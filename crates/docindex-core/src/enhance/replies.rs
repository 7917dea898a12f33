//! The shapes of the model's replies, parsed before anything is checked.

use serde::Deserialize;

#[derive(Deserialize)]
pub(super) struct HeadingsReply {
    pub(super) headings: Vec<HeadingReply>,
}

#[derive(Deserialize)]
pub(super) struct HeadingReply {
    pub(super) block: usize,
    pub(super) title: String,
    #[serde(default = "level_one")]
    pub(super) level: u8,
}

pub(super) fn level_one() -> u8 {
    1
}

#[derive(Deserialize)]
pub(super) struct SummariesReply {
    pub(super) summaries: Vec<SummaryReply>,
}

#[derive(Deserialize)]
pub(super) struct SummaryReply {
    pub(super) node_id: String,
    pub(super) summary: String,
}

#[derive(Deserialize, Default)]
pub(super) struct ProfileReply {
    pub(super) description: Option<String>,
    pub(super) company_name: Option<String>,
    pub(super) ticker: Option<String>,
    pub(super) filing_date: Option<String>,
    pub(super) period_end_date: Option<String>,
    pub(super) fiscal_year: Option<i32>,
    pub(super) fiscal_quarter: Option<u8>,
    pub(super) key_people: Option<Vec<String>>,
}

#[derive(Deserialize)]
pub(super) struct MatchesReply {
    pub(super) matches: Vec<MatchReply>,
}

#[derive(Deserialize)]
pub(super) struct MatchReply {
    pub(super) r#ref: usize,
    pub(super) node_id: Option<String>,
}
