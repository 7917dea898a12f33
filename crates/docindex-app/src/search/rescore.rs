//! The LLM leg of a search: a model scores the offline ranking's candidates.

use super::*;

impl Library {
    /// The LLM leg: the offline ranking's candidates are scored by the model in batches of
    /// ten; candidates under the seed's threshold are dropped, and ids the model invents
    /// are ignored and counted.
    pub(super) fn rescore_with_llm(
        &self,
        llm: &dyn docindex_core::llm::Llm,
        query: &str,
        results: &mut SearchResults,
    ) -> Result<()> {
        use docindex_core::prompts::fit::{batches, Window};
        use docindex_core::prompts::search::{
            score_prompt, Candidate, Scores, RELEVANCE_THRESHOLD,
        };
        let meter = docindex_core::llm::UsageMeter::default();
        let ids: Vec<String> = (0..results.hits.len())
            .map(|i| format!("C{}", i + 1))
            .collect();
        let mut scored: HashMap<String, (f64, String)> = HashMap::new();
        let mut dropped = 0;
        let candidates_in = |range: std::ops::Range<usize>| -> Vec<Candidate> {
            ids[range.clone()]
                .iter()
                .zip(&results.hits[range])
                .map(|(id, hit)| Candidate {
                    id: id.clone(),
                    path: hit.path.clone(),
                    summary: String::new(),
                    excerpt: hit
                        .passages
                        .first()
                        .map(|p| p.text.chars().take(600).collect())
                        .unwrap_or_default(),
                })
                .collect()
        };
        // Batches of ten, or as many as the model's window holds.
        let window = Window::of(llm);
        let ranges = batches(window.as_ref(), ids.len(), 10, &|range| {
            score_prompt(query, &candidates_in(range))
        });
        for range in ranges {
            let batch_ids = &ids[range.clone()];
            let request = Window::cap(window.as_ref(), score_prompt(query, &candidates_in(range)));
            let reply = docindex_core::llm::json::complete_json::<Scores>(llm, &request)
                .map_err(AppError::Llm)?;
            for r in &reply.replies {
                meter.record(r);
            }
            for s in reply.value.scores {
                if batch_ids.contains(&s.node_id) {
                    scored.insert(s.node_id, (s.relevance.clamp(0.0, 1.0), s.reason));
                } else {
                    tracing::warn!(
                        "search: the model scored {:?}, which was not a candidate; ignored",
                        s.node_id
                    );
                    dropped += 1;
                }
            }
        }
        let hits = std::mem::take(&mut results.hits);
        let mut kept: Vec<SearchHit> = hits
            .into_iter()
            .zip(ids)
            .filter_map(|(mut hit, id)| {
                let (relevance, reason) = scored.remove(&id)?;
                (relevance >= RELEVANCE_THRESHOLD).then(|| {
                    hit.score = relevance;
                    hit.reason = reason;
                    hit.engine = docindex_core::model::Engine::Llm;
                    hit
                })
            })
            .collect();
        kept.sort_by(|a, b| b.score.total_cmp(&a.score));
        results.hits = kept;
        results.unknown_ids_dropped = dropped;
        results.llm_usage = Some(meter.totals());
        Ok(())
    }
}
