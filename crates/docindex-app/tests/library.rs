//! The application layer with a model: cancelling a batch stores nothing, and an offline
//! run keeps an index a model already enhanced.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_app::search::SearchRequest;
use docindex_app::{IndexEvent, IndexOutcome, Library};
use docindex_core::enhance::LlmOptions;
use docindex_core::llm::LlmRequest;
use docindex_core::progress::Stage;
use docindex_core::search::LegKind;
use docindex_core::testing::ScriptedLlm;
use docindex_core::IndexSettings;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

fn summaries(req: &LlmRequest) -> Result<String, docindex_core::llm::LlmError> {
    let prompt = &req.messages[0].content;
    let ids: Vec<String> = prompt
        .lines()
        .filter_map(|l| l.strip_prefix("=== node "))
        .map(|l| l[..4].to_string())
        .collect();
    let items: Vec<serde_json::Value> = ids
        .iter()
        .map(|id| serde_json::json!({"node_id": id, "summary": "From the model."}))
        .collect();
    Ok(serde_json::json!({"summaries": items, "headings": [], "matches": []}).to_string())
}

#[test]
fn cancelling_a_batch_stores_nothing_of_the_cancelled_files() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    library.set_llm(
        Arc::new(ScriptedLlm::new("test/model", summaries)),
        LlmOptions::default(),
    );
    let cancel = library.cancel_flag();
    let on_event = |event: IndexEvent| {
        if let IndexEvent::Progress {
            stage: Stage::Summaries,
            ..
        } = event
        {
            cancel.store(true, Ordering::SeqCst);
        }
    };
    let paths = vec![fixture("apple_10-K_FY2024_0000320193-24-000123.html")];
    let reports = library.index_paths(&paths, 1, &on_event).unwrap();
    let err = reports[0].result.as_ref().unwrap_err();
    assert!(err.to_string().contains("cancelled"), "{err}");
    assert!(library.list().unwrap().is_empty());

    // The flag is cleared for the next job.
    let reports = library.index_paths(&paths, 1, &|_| {}).unwrap();
    assert!(reports[0].result.is_ok());
}

#[test]
fn an_offline_run_keeps_the_index_a_model_enhanced() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let paths = vec![fixture("buckle_8-K_2024-11-22.html")];
    library.set_llm(
        Arc::new(ScriptedLlm::new("test/model", summaries)),
        LlmOptions::default(),
    );
    let first = library.index_paths(&paths, 1, &|_| {}).unwrap();
    assert!(matches!(first[0].result, Ok(IndexOutcome::Indexed { .. })));
    library.clear_model();
    let again = library.index_paths(&paths, 1, &|_| {}).unwrap();
    assert!(
        matches!(again[0].result, Ok(IndexOutcome::Unchanged { .. })),
        "{:?}",
        again[0].result
    );
    let doc = library.document("buckle_8-K_2024-11-22").unwrap();
    assert!(doc.enhancement.is_some());
}

#[test]
fn indexing_and_removing_leave_the_search_statistics_current() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let paths = [
        fixture("apple_10-Q_Q3FY2023_0000320193-23-000077.html"),
        fixture("buckle_8-K_2024-11-22.html"),
    ];
    for report in library.index_paths(&paths, 2, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    assert!(library.store().term_counts_current().unwrap());
    let found = |library: &Library| {
        library
            .search(&docindex_app::search::SearchRequest::new("net sales"))
            .unwrap()
            .hits
            .len()
    };
    assert!(found(&library) > 0);
    assert!(library.remove("buckle_8-K_2024-11-22.html").unwrap());
    assert!(library.store().term_counts_current().unwrap());
    assert!(found(&library) > 0);
}

#[test]
fn a_library_read_through_a_map_finds_what_it_found_by_copy_and_sees_new_documents() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let paths = [
        fixture("apple_10-Q_Q3FY2023_0000320193-23-000077.html"),
        fixture("medicis_10-K_FY1999_0000950153-99-001234.html"),
    ];
    for report in library.index_paths(&paths, 2, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    let found = |library: &Library, query: &str| -> Vec<(String, String, i64)> {
        library
            .search(&docindex_app::search::SearchRequest::new(query))
            .unwrap()
            .hits
            .into_iter()
            .map(|h| (h.doc_id, h.node_id, (h.score * 1e9).round() as i64))
            .collect()
    };
    let queries = ["net sales", "product liability", "research and development"];
    let by_copy: Vec<_> = queries.iter().map(|q| found(&library, q)).collect();
    library.map_reads().unwrap();
    let mapped: Vec<_> = queries.iter().map(|q| found(&library, q)).collect();
    assert_eq!(mapped, by_copy);

    // Another connection (the app and a CLI at once) adds a filing: the mapped library
    // searches it.
    let mut other = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let added = other
        .index_paths(
            &[fixture("buckle_8-K_2024-11-22_EX-99.1_press_release.html")],
            1,
            &|_| {},
        )
        .unwrap();
    added[0].result.as_ref().unwrap();
    let buckle = found(&library, "Buckle net sales fiscal month");
    let summary = library
        .resolve("buckle_8-K_2024-11-22_EX-99.1_press_release.html")
        .unwrap();
    assert!(buckle.iter().any(|(doc, ..)| *doc == summary.doc_id));
}

#[test]
fn a_panic_while_indexing_one_file_fails_that_file_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let kept = fixture("oracle_8-K_2024-11-14_item5.07.html");
    library.index_paths(&[kept], 1, &|_| {}).unwrap()[0]
        .result
        .as_ref()
        .unwrap();
    let before = library.list().unwrap();
    // A model client with a bug: it panics on one filing's text and answers the others.
    library.set_llm(
        Arc::new(ScriptedLlm::new("test/model", |req: &LlmRequest| {
            if req.messages.iter().any(|m| m.content.contains("Buckle")) {
                panic!("the reply buffer overflowed");
            }
            summaries(req)
        })),
        LlmOptions::default(),
    );
    let paths = [
        fixture("buckle_8-K_2024-11-22.html"),
        fixture("acme_q3_2024_earnings_call.txt"),
    ];
    let reports = library.index_paths(&paths, 2, &|_| {}).unwrap();

    let err = reports[0].result.as_ref().unwrap_err();
    let message = err.to_string();
    assert!(
        message.starts_with(&paths[0].display().to_string()),
        "{message}"
    );
    assert!(message.contains("the reply buffer overflowed"), "{message}");
    assert!(message.contains("bug"), "{message}");
    assert_eq!(err.fault(), docindex_core::error::Fault::Bug);
    assert!(
        matches!(reports[1].result, Ok(IndexOutcome::Indexed { .. })),
        "{:?}",
        reports[1].result
    );
    let names: Vec<String> = library
        .list()
        .unwrap()
        .into_iter()
        .map(|d| d.doc_name)
        .collect();
    assert!(!names.iter().any(|n| n.starts_with("buckle")), "{names:?}");
    assert!(names.contains(&"acme_q3_2024_earnings_call.txt".to_string()));
    // What was stored before is untouched.
    for doc in before {
        assert!(names.contains(&doc.doc_name), "{names:?}");
    }
}

/// Letter counts as a vector; panics on any text that names Buckle (an embedder with a bug).
struct PanicsOnBuckle;

impl docindex_core::embed::Embedder for PanicsOnBuckle {
    fn model_id(&self) -> &str {
        "test/letters"
    }
    fn dimensions(&self) -> usize {
        26
    }
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, docindex_core::embed::EmbedError> {
        Ok(texts
            .iter()
            .map(|text| {
                assert!(!text.contains("Buckle"), "the tokenizer overflowed");
                let mut v = [0.1f32; 26];
                for c in text.chars().filter(char::is_ascii_lowercase) {
                    v[(c as u8 - b'a') as usize] += 1.0;
                }
                let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
                v.iter().map(|x| x / norm).collect()
            })
            .collect())
    }
}

#[test]
fn a_panic_while_embedding_one_document_leaves_it_named_and_the_others_embedded() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    library.set_embedder(Arc::new(PanicsOnBuckle));
    let paths = [
        fixture("buckle_8-K_2024-11-22.html"),
        fixture("acme_q3_2024_earnings_call.txt"),
    ];
    for report in library.index_paths(&paths, 2, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    let report = library.embed_pending(&|_, _, _| {}).unwrap();
    assert_eq!(report.documents, 1);
    assert_eq!(report.failed.len(), 1, "{:?}", report.failed);
    assert_eq!(report.failed[0].0, "buckle_8-K_2024-11-22.html");
    assert!(report.failed[0].1.contains("the tokenizer overflowed"));
    // The failed document waits for the next embedding stage; the other has its vectors.
    let buckle = library.document("buckle_8-K_2024-11-22.html").unwrap();
    assert_eq!(library.awaiting_embeddings().unwrap(), vec![buckle.doc_id]);
    assert_eq!(library.list().unwrap().len(), 2);
}

#[test]
fn a_panic_in_the_dense_leg_costs_the_search_its_dense_leg_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    library.set_embedder(Arc::new(PanicsOnBuckle));
    let paths = [fixture("acme_q3_2024_earnings_call.txt")];
    for report in library.index_paths(&paths, 1, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    let report = library.embed_pending(&|_, _, _| {}).unwrap();
    assert!(report.failed.is_empty(), "{:?}", report.failed);
    // A query the embedder handles gets its dense leg.
    let plain = library
        .search(&SearchRequest::new("revenue guidance"))
        .unwrap();
    assert!(plain.legs.contains(&LegKind::Dense), "{:?}", plain.notes);
    // The same words with one the embedder panics on: the lexical hits, no dense leg,
    // and a note that names the internal error.
    let results = library
        .search(&SearchRequest::new("Buckle revenue guidance"))
        .unwrap();
    assert!(!results.hits.is_empty());
    assert!(!results.legs.contains(&LegKind::Dense));
    let note = results
        .notes
        .iter()
        .find(|n| n.starts_with("dense search skipped"))
        .unwrap_or_else(|| panic!("{:?}", results.notes));
    assert!(note.contains("the tokenizer overflowed"), "{note}");
    assert!(note.contains("a bug in docindex"), "{note}");
    // The library searches on after it.
    assert!(library
        .search(&SearchRequest::new("revenue guidance"))
        .is_ok());
}
