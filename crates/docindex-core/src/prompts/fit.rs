//! Fitting a prompt to a model's context window: a small local model with a 4k or 8k window
//! gets fewer and shorter passages and a shorter operand table, ranked, never a prompt the
//! server would cut or refuse. Counting is conservative: our tokenizer packs up to three
//! digits in a token where many small models spend one per digit, and filings are full of
//! figures.

use super::answer::{Candidate, Source};
use crate::llm::{Llm, LlmRequest};
use crate::tokens::TokenCounter;
use std::ops::Range;

/// The share of the window a prompt and its reply may fill: chat templates and the
/// difference between tokenizers take the rest.
pub const USABLE_SHARE: f64 = 0.85;

/// A passage is not cut below this many characters; past it, passages are dropped instead.
const SHORTEST_PASSAGE: usize = 400;

/// A model's context window and how to count against it.
#[derive(Clone, Copy)]
pub struct Window {
    pub tokens: usize,
    counter: TokenCounter,
}

impl Window {
    pub fn new(tokens: usize, counter: TokenCounter) -> Self {
        Window { tokens, counter }
    }

    /// The window of `llm`, when its server told it.
    pub fn of(llm: &dyn Llm) -> Option<Window> {
        let tokens = llm.context_window()?;
        TokenCounter::new().ok().map(|c| Window::new(tokens, c))
    }

    /// `request` capped for `window`, or as it is when the window is unknown.
    pub fn cap(window: Option<&Window>, request: LlmRequest) -> LlmRequest {
        match window {
            Some(w) => w.cap_reply(request),
            None => request,
        }
    }

    /// Tokens `request` takes at most, with its reply.
    pub fn needs(&self, request: &LlmRequest) -> usize {
        let mut text = request.system.clone().unwrap_or_default();
        for m in &request.messages {
            text.push_str(&m.content);
        }
        let digits = text.chars().filter(char::is_ascii_digit).count();
        // Every message costs a few tokens of template.
        let template = 8 * (request.messages.len() + 1);
        self.counter.count(&text) + digits * 2 / 3 + template + request.max_tokens as usize
    }

    /// `request` with its reply allowance at most a quarter of the window: a few sentences
    /// or a plan need far less, and a small window must keep room for the sources.
    pub fn cap_reply(&self, request: LlmRequest) -> LlmRequest {
        let cap = (self.tokens / 4).max(128) as u32;
        let max_tokens = request.max_tokens.min(cap);
        request.with_max_tokens(max_tokens)
    }

    pub fn holds(&self, request: &LlmRequest) -> bool {
        (self.needs(request) as f64) <= self.tokens as f64 * USABLE_SHARE
    }
}

/// What fitting took out, for the reasoning shown to the user.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Trimmed {
    pub passages_shortened: usize,
    pub passages_dropped: usize,
    pub rows_dropped: usize,
    pub candidates_dropped: usize,
}

impl Trimmed {
    pub fn any(&self) -> bool {
        *self != Trimmed::default()
    }

    /// "2 passages shortened, 1 dropped, 3 statement rows left out".
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if self.passages_shortened > 0 {
            parts.push(format!("{} passage(s) shortened", self.passages_shortened));
        }
        if self.passages_dropped > 0 {
            parts.push(format!("{} passage(s) left out", self.passages_dropped));
        }
        if self.rows_dropped > 0 {
            parts.push(format!("{} statement row(s) left out", self.rows_dropped));
        }
        if self.candidates_dropped > 0 {
            parts.push(format!(
                "{} section(s) not offered",
                self.candidates_dropped
            ));
        }
        parts.join(", ")
    }
}

/// Shrink `sources` until `build(sources)` fits `window`. The first `rows` sources are
/// statement rows (most important first, one line per row); the rest are passages read, in
/// the order read. Passages are halved (longest first, at a line or sentence end), then
/// dropped from the last; then statement rows are dropped from the last. Only the last
/// sources are ever removed, so the labels of those kept (`S1`, `S2`, …) stay true.
pub fn fit_sources(
    window: &Window,
    sources: &mut Vec<Source>,
    rows: usize,
    build: &dyn Fn(&[Source]) -> LlmRequest,
) -> Trimmed {
    let mut trimmed = Trimmed::default();
    let mut shortened = vec![false; sources.len()];
    while !window.holds(&build(sources)) {
        let longest = (rows..sources.len())
            .filter(|&i| sources[i].text.len() > SHORTEST_PASSAGE)
            .max_by_key(|&i| sources[i].text.len());
        if let Some(i) = longest {
            sources[i].text = first_half(&sources[i].text);
            if !shortened[i] {
                shortened[i] = true;
                trimmed.passages_shortened += 1;
            }
            continue;
        }
        if sources.len() > rows {
            sources.pop();
            trimmed.passages_dropped += 1;
            continue;
        }
        // Statement rows: the last row of the last section first; a section left with no
        // row goes.
        let Some(last) = sources.last_mut() else {
            break;
        };
        match last.text.rfind('\n') {
            Some(at) => last.text.truncate(at),
            None => {
                sources.pop();
            }
        }
        trimmed.rows_dropped += 1;
        if sources.is_empty() {
            break;
        }
    }
    trimmed
}

/// `total` items cut into consecutive batches of at most `most`, each as large as fits the
/// window (`build` makes the request of a batch; one item per batch at the least).
pub fn batches(
    window: Option<&Window>,
    total: usize,
    most: usize,
    build: &dyn Fn(Range<usize>) -> LlmRequest,
) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < total {
        let mut size = most.max(1).min(total - start);
        if let Some(w) = window {
            while size > 1 && !w.holds(&w.cap_reply(build(start..start + size))) {
                size -= 1;
            }
        }
        out.push(start..start + size);
        start += size;
    }
    out
}

/// Offer fewer sections and shorter summaries until `build(candidates)` fits.
pub fn fit_candidates(
    window: &Window,
    candidates: &mut Vec<Candidate>,
    build: &dyn Fn(&[Candidate]) -> LlmRequest,
) -> Trimmed {
    let mut trimmed = Trimmed::default();
    let mut summaries_cut = false;
    while !window.holds(&build(candidates)) && !candidates.is_empty() {
        if !summaries_cut {
            shorten_summaries(candidates);
            summaries_cut = true;
            continue;
        }
        candidates.pop();
        trimmed.candidates_dropped += 1;
    }
    trimmed
}

/// Summaries cut to their first 80 characters: a section's title and path say most.
pub fn shorten_summaries(candidates: &mut [Candidate]) {
    for c in candidates.iter_mut() {
        c.summary = c.summary.chars().take(80).collect();
    }
}

/// The first half of `text`, ended at the last line or sentence end before the middle.
fn first_half(text: &str) -> String {
    let mut middle = text.len() / 2;
    while !text.is_char_boundary(middle) {
        middle -= 1;
    }
    let head = &text[..middle];
    let end = head
        .rfind('\n')
        .or_else(|| head.rfind(". ").map(|i| i + 1))
        .filter(|&i| i > middle / 2)
        .unwrap_or(middle);
    format!("{}…", head[..end].trim_end())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::prompts::answer;

    fn source(label: &str, text: String) -> Source {
        Source {
            label: label.into(),
            path: "Item 7 > Liquidity".into(),
            text,
        }
    }

    #[test]
    fn passages_shrink_before_statement_rows_and_labels_stay_true() {
        let counter = TokenCounter::new().unwrap();
        let rows = "Cash flows | 2024 | 2023\nPayments for property, plant and equipment | (9,447) | (10,959)\nDepreciation and amortization | 11,445 | 11,519";
        let passage =
            "Capital expenditure rose as the company invested in data centres. ".repeat(60);
        let mut sources = vec![
            source("S1", rows.to_string()),
            source("S2", passage.clone()),
            source("S3", passage),
        ];
        let build = |s: &[Source]| answer::answer("What was capex in 2024?", s, None, None, None);
        let unfitted = Window::new(100_000, counter).needs(&build(&sources));
        let window = Window::new(unfitted * 2 / 3, counter);
        let trimmed = fit_sources(&window, &mut sources, 1, &build);
        assert!(window.holds(&build(&sources)));
        assert_eq!(trimmed.rows_dropped, 0);
        assert_eq!(sources[0].text, rows, "the statement rows are whole");
        assert!(trimmed.passages_shortened >= 1, "{trimmed:?}");
        assert!(sources
            .iter()
            .enumerate()
            .all(|(i, s)| s.label == format!("S{}", i + 1)));

        // Across windows from roomy to tiny: what is sent fits, labels stay true, rows go
        // last and from the end.
        let all = sources.clone();
        let mut dropped_at_smallest = None;
        for tokens in (500..=3_000).rev().step_by(100) {
            let window = Window::new(tokens, counter);
            let build = |s: &[Source]| window.cap_reply(build(s));
            let mut sources = all.clone();
            let trimmed = fit_sources(&window, &mut sources, 1, &build);
            assert!(
                window.holds(&build(&sources)) || sources.is_empty(),
                "{tokens}"
            );
            assert!(sources
                .iter()
                .enumerate()
                .all(|(i, s)| s.label == format!("S{}", i + 1)));
            if trimmed.rows_dropped == 0 {
                assert_eq!(sources[0].text, rows, "{tokens}");
            } else {
                assert_eq!(sources.len(), 1, "rows go only after every passage");
                assert!(rows.starts_with(&sources[0].text));
            }
            dropped_at_smallest = Some(trimmed);
        }
        let smallest = dropped_at_smallest.unwrap();
        assert!(smallest.passages_dropped >= 1, "{smallest:?}");
    }

    #[test]
    fn batches_are_as_large_as_fit() {
        let counter = TokenCounter::new().unwrap();
        let item = "Supply chain disruption in Asia could raise costs materially. ".repeat(10);
        let build =
            |r: Range<usize>| LlmRequest::new("judge", item.repeat(r.len())).with_max_tokens(100);
        assert_eq!(batches(None, 25, 10, &build), vec![0..10, 10..20, 20..25]);
        let window = Window::new(1_000, counter);
        let cut = batches(Some(&window), 25, 10, &build);
        assert_eq!(cut.iter().map(|r| r.len()).sum::<usize>(), 25);
        assert!(cut.iter().all(|r| r.len() < 10 && !r.is_empty()), "{cut:?}");
        assert!(cut
            .iter()
            .all(|r| r.len() == 1 || window.holds(&window.cap_reply(build(r.clone())))));
    }

    #[test]
    fn digits_count_as_a_small_models_tokenizer_spends_them() {
        let counter = TokenCounter::new().unwrap();
        let window = Window::new(8192, counter);
        let words = LlmRequest::new("s", "revenue ".repeat(100)).with_max_tokens(0);
        let figures = LlmRequest::new("s", "123,456 ".repeat(100)).with_max_tokens(0);
        assert!(window.needs(&figures) > counter.count(&"123,456 ".repeat(100)));
        assert!(window.needs(&figures) > window.needs(&words));
    }
}
