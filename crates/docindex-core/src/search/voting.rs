//! File-level voting over a library (seed 002): each matched section votes for its file
//! with its score, the part that came from titles and summaries weighted apart from the
//! part that came from the text; files are ranked by their votes and keep their sections
//! for the drill-down.

use serde::{Deserialize, Serialize};

/// How much a summary (title) match and a text match count in a file's vote.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct VoteWeights {
    pub summary: f64,
    pub text: f64,
}

impl Default for VoteWeights {
    /// Seed 002's defaults: summaries are concise, so their matches count half again.
    fn default() -> Self {
        VoteWeights {
            summary: 1.5,
            text: 1.0,
        }
    }
}

/// Why a vote weight could not be read: the user's input.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum VoteWeightsError {
    #[error("vote weights: expected `summary=1.5,text=1.0`, got `{0}`")]
    Malformed(String),
    #[error("vote weights: `{0}` is not summary or text")]
    UnknownKind(String),
    #[error("vote weights: {0} must be a number from 0 to 100")]
    OutOfRange(String),
}

impl std::str::FromStr for VoteWeights {
    type Err = VoteWeightsError;

    /// `summary=2,text=1`; a kind left out keeps its default.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut weights = VoteWeights::default();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (kind, value) = pair
                .split_once('=')
                .ok_or_else(|| VoteWeightsError::Malformed(text.to_string()))?;
            let value: f64 = value
                .trim()
                .parse()
                .map_err(|_| VoteWeightsError::OutOfRange(kind.trim().to_string()))?;
            if !(0.0..=100.0).contains(&value) {
                return Err(VoteWeightsError::OutOfRange(kind.trim().to_string()));
            }
            match kind.trim() {
                "summary" => weights.summary = value,
                "text" => weights.text = value,
                other => return Err(VoteWeightsError::UnknownKind(other.to_string())),
            }
        }
        Ok(weights)
    }
}

/// A matched section offered to the vote.
#[derive(Debug, Clone, PartialEq)]
pub struct Ballot<'a> {
    pub doc_id: &'a str,
    pub node_id: &'a str,
    /// The section's score (0..1).
    pub score: f64,
    /// The share of `score` that came from its title or summary.
    pub summary_share: f64,
}

/// Which of a section's matches carried its vote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ContentType {
    Summary,
    Text,
}

/// A section's part in its file's vote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NodeVote {
    pub node_id: String,
    pub score: f64,
    pub content_type: ContentType,
}

/// A file's vote: its weighted summary and text votes and the sections that cast them,
/// best first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileVote {
    pub doc_id: String,
    pub summary_votes: f64,
    pub text_votes: f64,
    pub total: f64,
    pub nodes: Vec<NodeVote>,
}

/// The files `ballots` vote for, best first (ties by id, so the order is stable), at most
/// `top_k`.
pub fn vote_files(ballots: &[Ballot], weights: VoteWeights, top_k: usize) -> Vec<FileVote> {
    let mut files: Vec<FileVote> = Vec::new();
    for ballot in ballots {
        let share = ballot.summary_share.clamp(0.0, 1.0);
        let summary = ballot.score * share * weights.summary;
        let text = ballot.score * (1.0 - share) * weights.text;
        let index = match files.iter().position(|f| f.doc_id == ballot.doc_id) {
            Some(i) => i,
            None => {
                files.push(FileVote {
                    doc_id: ballot.doc_id.to_string(),
                    summary_votes: 0.0,
                    text_votes: 0.0,
                    total: 0.0,
                    nodes: Vec::new(),
                });
                files.len() - 1
            }
        };
        let file = &mut files[index];
        file.summary_votes += summary;
        file.text_votes += text;
        file.total = file.summary_votes + file.text_votes;
        file.nodes.push(NodeVote {
            node_id: ballot.node_id.to_string(),
            score: summary + text,
            content_type: if summary > text {
                ContentType::Summary
            } else {
                ContentType::Text
            },
        });
    }
    for file in &mut files {
        file.nodes.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
    files.sort_by(|a, b| b.total.total_cmp(&a.total).then(a.doc_id.cmp(&b.doc_id)));
    files.truncate(top_k);
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ballot<'a>(doc: &'a str, node: &'a str, score: f64, share: f64) -> Ballot<'a> {
        Ballot {
            doc_id: doc,
            node_id: node,
            score,
            summary_share: share,
        }
    }

    #[test]
    fn files_are_ranked_by_weighted_votes_and_keep_their_sections() {
        let ballots = [
            ballot("tesla", "0007", 0.9, 0.0),
            ballot("apple", "0012", 0.6, 1.0),
            ballot("apple", "0013", 0.2, 0.0),
            ballot("nike", "0003", 0.3, 0.5),
        ];
        let files = vote_files(&ballots, VoteWeights::default(), 5);
        // Apple: 0.6 × 1.5 + 0.2 = 1.1 beats Tesla's 0.9 text match.
        assert_eq!(files[0].doc_id, "apple");
        assert!((files[0].total - 1.1).abs() < 1e-9);
        assert!((files[0].summary_votes - 0.9).abs() < 1e-9);
        assert_eq!(files[0].nodes[0].node_id, "0012");
        assert_eq!(files[0].nodes[0].content_type, ContentType::Summary);
        assert_eq!(files[1].doc_id, "tesla");
        // Weighting text above summaries turns the order round.
        let text_first = vote_files(&ballots, "summary=1,text=2".parse().unwrap(), 2);
        assert_eq!(text_first[0].doc_id, "tesla");
        assert_eq!(text_first.len(), 2);
    }

    #[test]
    fn weights_are_read_from_text_and_bad_ones_are_named() {
        let w: VoteWeights = "text=0.5".parse().unwrap();
        assert_eq!(
            w,
            VoteWeights {
                summary: 1.5,
                text: 0.5
            }
        );
        assert_eq!(
            "summary".parse::<VoteWeights>(),
            Err(VoteWeightsError::Malformed("summary".into()))
        );
        assert_eq!(
            "title=2".parse::<VoteWeights>(),
            Err(VoteWeightsError::UnknownKind("title".into()))
        );
        assert_eq!(
            "text=-1".parse::<VoteWeights>(),
            Err(VoteWeightsError::OutOfRange("text".into()))
        );
    }
}
