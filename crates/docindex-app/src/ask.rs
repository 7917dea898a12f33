//! Questions over one document or the library with the offline engine: retrieve with node
//! search, compose a cited extractive answer, verify every citation against the stored
//! text, and stream the reasoning steps and the answer as they are produced.

use crate::search::{reading_order, SearchRequest};
use crate::{Library, Result};
use docindex_core::charmap::CharMap;
use docindex_core::qa::{compose_extractive, locate, Answer, Passage};
use docindex_core::search::expand;
use docindex_core::store::DocumentStore;

/// What an answer reports while it is being produced.
pub enum AskEvent<'a> {
    /// A reasoning step (what was searched, what was read).
    Step(&'a str),
    /// The next piece of the answer text.
    Token(&'a str),
}

impl Library {
    /// The company of a library document whose name (its first distinctive word) or ticker
    /// the question mentions.
    pub fn company_named_in(&self, question: &str) -> Result<Option<String>> {
        let words: Vec<String> = docindex_core::search::words(question)
            .into_iter()
            .map(|w| w.trim_end_matches("'s").trim_end_matches('’').to_string())
            .collect();
        for doc in self.list()? {
            let Some(name) = &doc.company_name else {
                continue;
            };
            let first = docindex_core::search::words(name)
                .into_iter()
                .find(|w| w.len() >= 3 && !["the", "inc", "corp"].contains(&w.as_str()));
            let by_name = first.as_ref().is_some_and(|f| words.contains(f));
            let by_ticker = doc.ticker.as_ref().is_some_and(|t| {
                question
                    .split_whitespace()
                    .any(|w| w.trim_matches(|c: char| !c.is_alphanumeric()) == t)
            });
            if by_name || by_ticker {
                return Ok(Some(first.unwrap_or_else(|| name.to_lowercase())));
            }
        }
        Ok(None)
    }

    /// Answer `question` within `scope` (its `query` is ignored).
    pub fn ask(
        &self,
        question: &str,
        scope: &SearchRequest,
        on_event: &dyn Fn(AskEvent),
    ) -> Result<Answer> {
        let mut request = scope.clone();
        request.query = question.to_string();
        request.limit = request.limit.max(8);
        if request.doc.is_none() && request.company.is_none() {
            // A question that names a company is about that company's filings.
            if let Some(company) = self.company_named_in(question)? {
                on_event(AskEvent::Step(&format!("the question names {company}")));
                request.company = Some(company);
            }
        }
        on_event(AskEvent::Step("searching the indexed sections"));
        let results = self.search(&request)?;
        let order = reading_order(&results.hits, 3);
        let chosen: Vec<_> = order.into_iter().take(12).collect();
        on_event(AskEvent::Step(&format!(
            "reading {} passage(s) from {} section(s)",
            chosen.len(),
            results.hits.len().min(chosen.len())
        )));
        let passages: Vec<Passage> = chosen
            .iter()
            .enumerate()
            .map(|(rank, (hit, passage))| Passage {
                doc_id: &hit.doc_id,
                doc_name: &hit.doc_name,
                node_id: &hit.node_id,
                title: &hit.title,
                start_page: hit.start_page,
                end_page: hit.end_page,
                text: &passage.text,
                start_char: passage.start_char,
                rank,
            })
            .collect();
        let dictionary = self.store.dictionary_pairs(None)?;
        let stems_of = |text: &str| expand(text, &dictionary).stems();
        let mut answer = compose_extractive(question, &passages, &stems_of, 3);
        // Verify each citation against the stored document before it is shown.
        let before = answer.citations.len();
        let mut verified = Vec::new();
        for mut c in std::mem::take(&mut answer.citations) {
            let Some(doc) = self.store.get(&c.doc_id)? else {
                continue;
            };
            let Some(node) = doc.node(&c.node_id) else {
                continue;
            };
            if let Some(span) = locate(&doc.text, node.span, &c.excerpt) {
                c.start_char = span.start_char;
                c.end_char = span.end_char;
                c.excerpt = CharMap::new(&doc.text).slice(span).to_string();
                verified.push(c);
            }
        }
        answer.citations_dropped = before - verified.len();
        answer.citations = verified;
        for step in &answer.reasoning {
            on_event(AskEvent::Step(step));
        }
        for piece in answer.answer.split_inclusive(' ') {
            on_event(AskEvent::Token(piece));
        }
        Ok(answer)
    }
}
