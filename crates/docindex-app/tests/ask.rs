//! Offline question answering on a real 10-K: cited sentences that hold the answer, every
//! citation an exact span, the answer streamed, and a plain "not answered" when the
//! filing does not say.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_app::ask::AskEvent;
use docindex_app::search::SearchRequest;
use docindex_app::Library;
use docindex_core::charmap::CharMap;
use docindex_core::qa::ConfidenceLabel;
use docindex_core::IndexSettings;
use std::path::PathBuf;
use std::sync::Mutex;

const TESLA: &str = "tesla_10-K_FY2023_0001628280-24-002390.html";

fn library() -> (tempfile::TempDir, Library) {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(TESLA);
    library.index_paths(&[path], 1, &|_| {}).unwrap()[0]
        .result
        .as_ref()
        .unwrap();
    (dir, library)
}

#[test]
fn answers_are_cited_verified_and_streamed() {
    let (_dir, library) = library();
    let streamed = Mutex::new(String::new());
    let steps = Mutex::new(Vec::new());
    let answer = library
        .ask(
            "How many consumer vehicles did Tesla deliver in 2023?",
            &SearchRequest::new(""),
            &|event| match event {
                AskEvent::Token(t) => streamed.lock().unwrap().push_str(t),
                AskEvent::Step(s) => steps.lock().unwrap().push(s.to_string()),
            },
        )
        .unwrap();
    assert!(answer.answered);
    assert_eq!(*streamed.lock().unwrap(), answer.answer);
    assert!(steps
        .lock()
        .unwrap()
        .iter()
        .any(|s| s.contains("names Tesla")));
    assert!(
        answer.answer.contains("1,808,581") && answer.answer.contains("[1]"),
        "{}",
        answer.answer
    );
    assert!(answer
        .citations
        .iter()
        .any(|c| c.excerpt.contains("1,808,581")));
    assert_eq!(answer.citations_dropped, 0);
    assert!(answer.unsupported_numbers.is_empty());
    assert_ne!(answer.confidence.label, ConfidenceLabel::Low);
    let doc = library.document(TESLA).unwrap();
    let map = CharMap::new(&doc.text);
    for c in &answer.citations {
        let span = docindex_core::model::Span {
            start_char: c.start_char,
            end_char: c.end_char,
        };
        assert_eq!(map.slice(span), c.excerpt, "a citation is exactly its span");
        assert!(doc.node(&c.node_id).unwrap().span.contains(span));
        assert!(answer.answer.contains(&format!("[{}]", c.marker)));
    }
}

#[test]
fn a_question_the_filing_does_not_answer_says_so() {
    let (_dir, library) = library();
    let answer = library
        .ask(
            "What is the capital of Mongolia?",
            &SearchRequest::new(""),
            &|_| {},
        )
        .unwrap();
    assert!(!answer.answered);
    assert!(answer.citations.is_empty());
    assert_eq!(answer.confidence.label, ConfidenceLabel::Low);
    assert!(answer.answer.contains("do not appear to answer"));
}

#[test]
fn answers_are_saved_and_reopen_with_their_spans_after_a_restart() {
    let (dir, library) = library();
    let answer = library
        .ask(
            "How many consumer vehicles did Tesla deliver in 2023?",
            &SearchRequest::new(""),
            &|_| {},
        )
        .unwrap();
    let id = library.save_answer(&answer).unwrap();
    drop(library);
    let mut reopened_library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let saved = reopened_library.reopen(id).unwrap();
    assert_eq!(saved.kind, "answer");
    assert!(saved.stale.is_empty(), "{:?}", saved.stale);
    assert_eq!(saved.result["answer"], answer.answer);
    assert_eq!(reopened_library.saved_list().unwrap()[0].id, id);
    // Once the document is gone, the reopened answer says its spans are stale.
    reopened_library.remove(TESLA).unwrap();
    let saved = reopened_library.reopen(id).unwrap();
    assert_eq!(saved.stale.len(), answer.citations.len());
}
