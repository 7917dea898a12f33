//! Seed 002's file votes at work: the files a library-wide answer reads, and every filing
//! that mentions a topic, each with a cited sentence.

use crate::ask::AskEvent;
use crate::search::{SearchRequest, SearchResults, VotedFile};
use crate::{Library, Result};
use docindex_core::qa::{Answer, Citation, Confidence, ConfidenceLabel, DocumentUse};
use docindex_core::search::{concept_coverage, expand};
use regex::Regex;
use std::sync::LazyLock;

/// A file is kept for an answer across the library when its vote comes within this share
/// of the best file's.
const KEEP_SHARE: f64 = 0.5;

/// Sections searched when listing the filings that mention a topic: enough for every
/// filing of a library of tens to have its best sections among them.
const LISTING_DEPTH: usize = 120;

impl Library {
    /// Across several files (seed 002): the search's sections vote for their files; the
    /// files within [`KEEP_SHARE`] of the best are kept and the others' sections dropped.
    /// The kept files, with their votes.
    pub(crate) fn keep_voted_files(
        &self,
        results: &mut SearchResults,
        on_event: &dyn Fn(AskEvent),
    ) -> Result<Vec<DocumentUse>> {
        let voted = self.tally(&results.hits, usize::MAX)?;
        let Some(best) = voted.first().map(|v| v.vote.total) else {
            return Ok(Vec::new());
        };
        let kept: Vec<&VotedFile> = voted
            .iter()
            .filter(|v| v.vote.total >= best * KEEP_SHARE)
            .collect();
        if voted.len() > 1 {
            results
                .hits
                .retain(|h| kept.iter().any(|k| k.doc_id == h.doc_id));
            results
                .statement_rows
                .retain(|r| kept.iter().any(|k| k.doc_id == r.doc_id));
            on_event(AskEvent::Step(&format!(
                "{} of {} file(s) kept by their votes: {}",
                kept.len(),
                voted.len(),
                kept.iter()
                    .map(|k| format!("{} {:.2}", k.doc_name, k.vote.total))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        Ok(kept
            .iter()
            .enumerate()
            .map(|(rank, file)| DocumentUse {
                doc_id: file.doc_id.clone(),
                doc_name: file.doc_name.clone(),
                company: file.company.clone(),
                why: vote_reason(file, rank, voted.len()),
                votes: Some(file.vote.total),
            })
            .collect())
    }

    /// Every filing of the scope that mentions `topic`: the library's sections vote for
    /// their files, and a file is listed when one of its sections has a sentence naming
    /// the whole topic, which is cited.
    pub(crate) fn list_filings(
        &self,
        question: &str,
        topic: &str,
        request: &SearchRequest,
        on_event: &dyn Fn(AskEvent),
    ) -> Result<Answer> {
        on_event(AskEvent::Step(&format!(
            "listing the filings that mention \"{topic}\""
        )));
        let mut search = request.clone();
        search.query = topic.to_string();
        search.limit = LISTING_DEPTH;
        // Every filing that holds the topic's section is listed, copy or not.
        search.fold_copies = false;
        let results = self.search(&search)?;
        let voted = self.tally(&results.hits, usize::MAX)?;
        let dictionary = self.store.dictionary_pairs(None)?;
        let concepts = expand(topic, &dictionary).concepts();
        let mut lines = Vec::new();
        let mut citations: Vec<Citation> = Vec::new();
        let mut documents = Vec::new();
        for (rank, file) in voted.iter().enumerate() {
            let evidence = file.hits.iter().find_map(|hit| {
                hit.excerpts
                    .iter()
                    .find(|e| concept_coverage(&e.text, &concepts) >= 1.0)
                    .map(|e| (hit, e))
            });
            let Some((hit, excerpt)) = evidence else {
                continue;
            };
            let marker = citations.len() + 1;
            citations.push(Citation {
                marker,
                doc_id: hit.doc_id.clone(),
                doc_name: hit.doc_name.clone(),
                node_id: hit.node_id.clone(),
                title: hit.title.clone(),
                start_page: hit.start_page,
                end_page: hit.end_page,
                excerpt: excerpt.text.clone(),
                start_char: excerpt.start_char,
                end_char: excerpt.end_char,
            });
            let company = file.company.as_deref().unwrap_or("company unknown");
            lines.push(format!(
                "- {} ({company}, {}), in \"{}\": \"{}\" [{marker}]",
                file.doc_name,
                file.doc_type.as_str(),
                hit.title,
                excerpt.text.trim()
            ));
            documents.push(DocumentUse {
                doc_id: file.doc_id.clone(),
                doc_name: file.doc_name.clone(),
                company: file.company.clone(),
                why: vote_reason(file, rank, voted.len()),
                votes: Some(file.vote.total),
            });
        }
        let searched = results.documents_searched;
        let mut answer = Answer::unanswered(question);
        answer.answer = match lines.len() {
            0 => format!("None of the {searched} filing(s) searched mentions {topic}."),
            n => format!(
                "{n} of the {searched} filing(s) searched mention {topic}:\n{}",
                lines.join("\n")
            ),
        };
        answer.answered = !lines.is_empty();
        answer.confidence = Confidence {
            label: match lines.len() {
                0 => ConfidenceLabel::Low,
                _ => ConfidenceLabel::High,
            },
            score: if lines.is_empty() { 0.2 } else { 0.9 },
            answered: usize::from(!lines.is_empty()),
            unanswered: usize::from(lines.is_empty()),
            source_nodes: citations.len(),
        };
        answer.reasoning = vec![format!(
            "{} section(s) voted for {} file(s); {} name the whole topic",
            results.hits.len(),
            voted.len(),
            lines.len()
        )];
        answer.nodes_visited = citations
            .iter()
            .map(|c| format!("{}:{}", c.doc_id, c.node_id))
            .collect();
        answer.citations = citations;
        answer.documents = documents;
        for step in &answer.reasoning {
            on_event(AskEvent::Step(step));
        }
        for piece in answer.answer.split_inclusive(' ') {
            on_event(AskEvent::Token(piece));
        }
        Ok(answer)
    }
}

/// The topic of a question that asks which filings mention something: "supply chain
/// disruptions" for "Which filings discuss supply chain disruptions?".
pub(crate) fn filings_listed_for(question: &str) -> Option<String> {
    static LISTING: LazyLock<Option<Regex>> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^\s*(?:which|what|list|show|find)\s+(?:me\s+)?(?:every|each|all(?:\s+the)?|the)?\s*(?:filings?|documents?|reports?|filers?|companies)\s+(?:that\s+|which\s+)?(?:mentions?|discuss(?:es)?|disclos(?:e|es)|refers?\s+to|talks?\s+about|address(?:es)?|cites?)\s+(.+?)[?.!\s]*$",
        )
        .ok()
    });
    let caps = LISTING.as_ref()?.captures(question)?;
    let topic = caps[1].trim();
    (!topic.is_empty()).then(|| topic.to_string())
}

fn vote_reason(file: &VotedFile, rank: usize, of: usize) -> String {
    format!(
        "votes {:.2} (summary {:.2}, text {:.2}) from {} section(s): {} of {of} file(s)",
        file.vote.total,
        file.vote.summary_votes,
        file.vote.text_votes,
        file.vote.nodes.len(),
        ordinal(rank + 1),
    )
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listing_questions_give_their_topic() {
        assert_eq!(
            filings_listed_for("Which filings discuss supply chain disruptions?").as_deref(),
            Some("supply chain disruptions")
        );
        assert_eq!(
            filings_listed_for("List every filing that mentions cybersecurity").as_deref(),
            Some("cybersecurity")
        );
        assert_eq!(
            filings_listed_for("Which companies disclose material weaknesses?").as_deref(),
            Some("material weaknesses")
        );
        assert_eq!(
            filings_listed_for("Which filing has the highest revenue?"),
            None
        );
        assert_eq!(filings_listed_for("What drove Apple's margin?"), None);
    }
}
