//! Node search on real filings: lexical and title legs, filters and scope, exact excerpts,
//! and the dense leg with the real local model.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_app::search::SearchRequest;
use docindex_app::Library;
use docindex_core::charmap::CharMap;
use docindex_core::search::LegKind;
use docindex_core::IndexSettings;
use docindex_embed::EmbedderChoice;
use std::path::PathBuf;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(name)
}

const APPLE: &str = "apple_10-K_FY2024_0000320193-24-000123.html";
const BUCKLE: &str = "buckle_8-K_2024-11-22.html";
const BUCKLE_PR: &str = "buckle_8-K_2024-11-22_EX-99.1_press_release.html";

fn library(files: &[&str]) -> (tempfile::TempDir, Library) {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let paths: Vec<PathBuf> = files.iter().map(|f| fixture(f)).collect();
    for report in library.index_paths(&paths, 2, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    (dir, library)
}

/// The dense index file of `model` beside the library, when it is of the stored vectors.
fn current_dense_index(library: &Library, model: &str) -> Option<docindex_store::DenseIndex> {
    docindex_store::DenseIndex::open_current(
        &docindex_store::dense_path(library.store().path(), model),
        library.store().vector_count().unwrap(),
    )
}

fn lexical_only(query: &str) -> SearchRequest {
    let mut r = SearchRequest::new(query);
    r.without = vec![LegKind::Dense];
    r
}

#[test]
fn words_and_titles_find_the_right_sections_with_exact_excerpts() {
    let (_dir, library) = library(&[APPLE, BUCKLE, BUCKLE_PR]);
    let results = library.search(&lexical_only("risk factors")).unwrap();
    assert_eq!(results.legs, vec![LegKind::Lexical, LegKind::Titles]);
    let top = &results.hits[0];
    assert!(top.title.contains("Item 1A"), "{}", top.path);
    assert!((top.score - 1.0).abs() < 1e-9);
    assert!(results.hits.windows(2).all(|w| w[0].score >= w[1].score));

    let results = library
        .search(&lexical_only("net sales by category"))
        .unwrap();
    let doc = library.document(APPLE).unwrap();
    let map = CharMap::new(&doc.text);
    let hit = results.hits.iter().find(|h| h.doc_name == APPLE).unwrap();
    assert!(
        hit.path.contains("Item 7") || hit.path.contains("Item 8"),
        "{}",
        hit.path
    );
    assert!(hit
        .excerpts
        .iter()
        .any(|e| e.text.contains("net sales by category")));
    for hit in results.hits.iter().filter(|h| h.doc_name == APPLE) {
        let node = doc.node(&hit.node_id).unwrap();
        assert_eq!(hit.text, map.slice(node.span));
        for e in &hit.excerpts {
            assert_eq!(map.slice(e.span()), e.text, "excerpts are exact spans");
            assert!(node.span.contains(e.span()), "excerpts lie in their node");
        }
        assert!(!hit.reason.is_empty());
    }
}

#[test]
fn a_why_or_how_it_moved_question_is_answered_from_the_results_discussion_first() {
    let (_dir, library) = library(&[APPLE]);
    // The filing explains the decline in MD&A; the segment note only reports it.
    let why = library
        .search(&lexical_only("Why did sales in Greater China fall?"))
        .unwrap();
    assert!(why.hits[0].path.contains("Item 7."), "{}", why.hits[0].path);
    assert!(why.hits[0]
        .excerpts
        .iter()
        .any(|e| e.text.contains("Greater China net sales decreased")));
    // Asking how they moved is answered there too.
    let how = library
        .search(&lexical_only("How did sales in Greater China do?"))
        .unwrap();
    assert!(how.hits[0].path.contains("Item 7."), "{}", how.hits[0].path);
    // The same words asking for neither a reason nor a movement rank by the words alone.
    let what = library
        .search(&lexical_only("sales in Greater China"))
        .unwrap();
    assert!(
        !what.hits[0].path.contains("Item 7."),
        "{}",
        what.hits[0].path
    );
    // Risk factors say what might happen, not why something did.
    let reason = library
        .search(&lexical_only("Why did competition hurt results?"))
        .unwrap();
    let plain = library
        .search(&lexical_only("competition hurt results"))
        .unwrap();
    let rank_of_mdna = |hits: &[docindex_app::search::SearchHit]| {
        hits.iter().position(|h| h.path.contains("Item 7."))
    };
    assert!(
        plain.hits[0].path.contains("Risk Factors"),
        "{}",
        plain.hits[0].path
    );
    assert!(
        rank_of_mdna(&reason.hits).unwrap() < rank_of_mdna(&plain.hits).unwrap_or(usize::MAX),
        "{:?}",
        reason.hits.iter().map(|h| &h.path).collect::<Vec<_>>()
    );
}

#[test]
fn filters_and_scope_limit_the_documents_searched() {
    let (_dir, library) = library(&[APPLE, BUCKLE, BUCKLE_PR]);
    let mut request = lexical_only("net sales");
    request.scope.company = Some("buckle".into());
    let results = library.search(&request).unwrap();
    assert_eq!(results.documents_searched, 2);
    assert!(!results.hits.is_empty());
    assert!(results
        .hits
        .iter()
        .all(|h| h.doc_name.starts_with("buckle")));

    let mut request = lexical_only("net sales");
    request.scope.doc = Some(BUCKLE_PR.into());
    let results = library.search(&request).unwrap();
    assert!(results.hits.iter().all(|h| h.doc_name == BUCKLE_PR));

    let mut request = lexical_only("net sales");
    request.scope.fiscal_year = Some(1990);
    let results = library.search(&request).unwrap();
    assert!(results.hits.is_empty());
    assert!(results.notes.iter().any(|n| n.contains("no document")));
}

#[test]
fn a_search_of_one_company_leaves_its_name_out_of_the_words_searched() {
    let (_dir, library) = library(&[APPLE, BUCKLE, BUCKLE_PR]);
    let question = "What were Buckle's net sales in the quarter?";
    // Both Buckle filings (spelled "BUCKLE, INC" and "THE BUCKLE, INC."): the name tells
    // neither from the other, and is not searched.
    let mut request = lexical_only(question);
    request.scope.company = Some("buckle".into());
    let scoped = library.search(&request).unwrap();
    assert!(!scoped.expansion.terms.contains(&"buckle".to_string()));
    assert!(scoped.expansion.terms.contains(&"sales".to_string()));
    assert!(!scoped.hits.is_empty());
    // Over the whole library the name is what picks the company's filings.
    let whole = library.search(&lexical_only(question)).unwrap();
    assert!(whole.expansion.terms.contains(&"buckle".to_string()));
    assert!(whole.hits.iter().any(|h| h.doc_name.starts_with("buckle")));
    // A scope of two companies ("inc" is in both names) keeps their names.
    let mut request = lexical_only("Apple and Buckle net sales");
    request.scope.company = Some("inc".into());
    let both = library.search(&request).unwrap();
    assert_eq!(both.documents_searched, 3);
    assert!(both.expansion.terms.contains(&"apple".to_string()));
    assert!(both.expansion.terms.contains(&"buckle".to_string()));
}

#[test]
fn the_dense_leg_uses_the_local_model_and_joins_after_the_embedding_stage() {
    let (_dir, mut library) = library(&[BUCKLE, BUCKLE_PR]);
    // Both local models: unit vectors, equal texts give equal vectors, and related
    // sentences are closer than unrelated ones.
    for choice in [EmbedderChoice::MiniLm, EmbedderChoice::Distilled] {
        library.set_embedder_choice(choice);
        let embedder = library
            .embedder()
            .expect("scripts/setup.sh installs the model");
        assert_eq!(embedder.model_id(), choice.model_id());
        let v = embedder
            .embed(&[
                "Net income per diluted share rose.",
                "Earnings per share increased.",
                "The weather in Nebraska was cold.",
                "Net income per diluted share rose.",
            ])
            .unwrap();
        let norm: f32 = v[0].iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4);
        assert_eq!(v[0], v[3]);
        let close = docindex_core::embed::dot(&v[0], &v[1]);
        let far = docindex_core::embed::dot(&v[0], &v[2]);
        assert!(close > far + 0.2, "{choice:?}: {close} vs {far}");
    }
    // The default is the distilled model.
    library.set_embedder_choice(EmbedderChoice::default());
    assert_eq!(
        library.embedder().unwrap().model_id(),
        docindex_embed::DISTILLED_MODEL_ID
    );

    // Before the stage: BM25 works and the note says why dense did not run.
    let mut dense_only = SearchRequest::new("how much did the retailer earn for each share");
    dense_only.without = vec![LegKind::Lexical, LegKind::Titles];
    let before = library.search(&dense_only).unwrap();
    assert!(before.hits.is_empty());
    assert!(before.notes.iter().any(|n| n.contains("no vectors")));

    assert_eq!(library.awaiting_embeddings().unwrap().len(), 2);
    let report = library.embed_pending(&|_, _, _| {}).unwrap();
    assert_eq!(report.documents, 2);
    assert!(library.awaiting_embeddings().unwrap().is_empty());
    // The stage leaves the dense index's file current, for the next search to open.
    let prepared = current_dense_index(&library, library.embedder().unwrap().model_id())
        .expect("the embedding stage wrote a current dense index");
    assert_eq!(prepared.len(), report.chunks + report.reused);
    let doc = library.document(BUCKLE_PR).unwrap();
    assert!(report.chunks >= doc.chunks.len());
    let after = library.search(&dense_only).unwrap();
    assert_eq!(after.legs, vec![LegKind::Dense]);
    let top = &after.hits[0];
    assert_eq!(top.doc_name, BUCKLE_PR, "{:?}", after.hits);
    assert!(top.text.contains("per share"));
    // Nothing left to embed.
    assert_eq!(library.embed_pending(&|_, _, _| {}).unwrap().documents, 0);

    let all = library
        .search(&SearchRequest::new("net income per share"))
        .unwrap();
    assert_eq!(
        all.legs,
        vec![LegKind::Lexical, LegKind::Titles, LegKind::Dense]
    );
}

#[test]
fn a_chunk_whose_text_was_embedded_before_reuses_its_vector() {
    let (dir, mut library) = library(&[BUCKLE_PR]);
    let first = library.embed_pending(&|_, _, _| {}).unwrap();
    let original = library.document(BUCKLE_PR).unwrap();
    assert_eq!(first.chunks, original.chunks.len());
    assert_eq!(first.reused, 0);

    // The same filing with other bytes is another document with the same chunk texts.
    let copy = dir.path().join("buckle-copy.html");
    let mut bytes = std::fs::read(fixture(BUCKLE_PR)).unwrap();
    bytes.extend_from_slice(b"\n<!-- another copy -->\n");
    std::fs::write(&copy, bytes).unwrap();
    for report in library.index_paths(&[copy], 1, &|_| {}).unwrap() {
        report.result.unwrap();
    }
    let second = library.embed_pending(&|_, _, _| {}).unwrap();
    assert_eq!(second.documents, 1);
    assert_eq!(second.reused, original.chunks.len());
    assert_eq!(second.chunks, 0, "nothing was computed again");

    // Both copies answer a dense query alike (each its own hit, not folded).
    let mut dense_only = SearchRequest::new("how much did the retailer earn for each share");
    dense_only.without = vec![LegKind::Lexical, LegKind::Titles];
    dense_only.fold_copies = false;
    let hits = library.search(&dense_only).unwrap().hits;
    let score_of = |name: &str| {
        hits.iter()
            .find(|h| h.doc_name == name)
            .map(|h| (h.node_id.clone(), h.score))
    };
    assert_eq!(score_of(BUCKLE_PR), score_of("buckle-copy.html"));
    assert!(score_of(BUCKLE_PR).is_some());
}

#[test]
fn a_search_of_the_whole_library_sees_documents_added_since_by_it_or_another_process() {
    let (dir, mut library) = library(&[BUCKLE]);
    let query = lexical_only("iPhone net sales");
    let before = library.search(&query).unwrap();
    assert_eq!(before.documents_searched, 1);
    assert!(before.hits.iter().all(|h| !h.doc_name.contains("apple")));

    // Indexed through this library: the next search reads the new document.
    library
        .index_paths(&[fixture(APPLE)], 1, &|_| {})
        .unwrap()
        .remove(0)
        .result
        .unwrap();
    let after = library.search(&query).unwrap();
    assert_eq!(after.documents_searched, 2);
    assert!(after.hits[0].doc_name.contains("apple"));

    // Indexed by another process on the same library (the app while the CLI runs).
    let mut other = Library::open(dir.path(), IndexSettings::default()).unwrap();
    other
        .index_paths(&[fixture(BUCKLE_PR)], 1, &|_| {})
        .unwrap()
        .remove(0)
        .result
        .unwrap();
    let seen = library.search(&lexical_only("Buckle net sales")).unwrap();
    assert_eq!(seen.documents_searched, 3);
    assert!(other.remove(&after.hits[0].doc_id).unwrap());
    assert_eq!(library.search(&query).unwrap().documents_searched, 2);
}

#[test]
fn the_embedding_stage_deletes_the_vectors_of_a_retired_model_and_keeps_the_rest() {
    let (_dir, mut library) = library(&[BUCKLE_PR]);
    let doc_id = library.resolve(BUCKLE_PR).unwrap().doc_id;
    let chunks = library.document(BUCKLE_PR).unwrap().chunks.len();
    // A library embedded by the previous version: its vectors and its dense index file.
    let retired = docindex_embed::RETIRED_MODEL_IDS[0];
    let mut older = docindex_store::SqliteStore::open(library.store().path()).unwrap();
    let old_vectors: Vec<(Vec<f32>, [u8; 32])> = (0..chunks)
        .map(|i| (vec![i as f32, 1.0], [i as u8; 32]))
        .collect();
    older.put_vectors(&doc_id, retired, &old_vectors).unwrap();
    drop(older);
    let old_file = docindex_store::dense_path(library.store().path(), retired);
    std::fs::write(&old_file, b"an index of the retired model").unwrap();
    assert!(library
        .store()
        .docs_without_vectors(retired)
        .unwrap()
        .is_empty());

    let report = library.embed_pending(&|_, _, _| {}).unwrap();
    assert_eq!(report.documents, 1);
    assert_eq!(
        library.store().docs_without_vectors(retired).unwrap(),
        vec![doc_id],
        "the retired model's vectors are gone"
    );
    assert!(!old_file.exists());
    // The current model's vectors stay, and its dense index is current after the deletion.
    let model = library.embedder().unwrap().model_id().to_string();
    assert!(library
        .store()
        .docs_without_vectors(&model)
        .unwrap()
        .is_empty());
    let current = current_dense_index(&library, &model).expect("a current dense index");
    assert_eq!(current.len(), chunks);
}

#[test]
fn a_section_found_word_for_word_in_several_documents_is_one_hit_naming_the_others() {
    // The press release twice (other bytes, so another document) beside the 8-K.
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("buckle_press_release_copy.html");
    let mut bytes = std::fs::read(fixture(BUCKLE_PR)).unwrap();
    bytes.extend_from_slice(b"\n<!-- another copy -->\n");
    std::fs::write(&copy, bytes).unwrap();
    let mut library = Library::open(&dir.path().join("lib"), IndexSettings::default()).unwrap();
    for report in library
        .index_paths(&[fixture(BUCKLE_PR), copy, fixture(BUCKLE)], 2, &|_| {})
        .unwrap()
    {
        report.result.unwrap();
    }
    let mut request = lexical_only("comparable store net sales");
    request.limit = 3;

    let folded = library.search(&request).unwrap();
    let top = &folded.hits[0];
    assert_eq!(top.also_in.len(), 1, "{:?}", top.also_in);
    let other = &top.also_in[0];
    assert_ne!(other.doc_id, top.doc_id);
    assert!(
        [BUCKLE_PR, "buckle_press_release_copy.html"].contains(&other.doc_name.as_str()),
        "{}",
        other.doc_name
    );
    assert_eq!(other.node_id, top.node_id);
    // No section of the copy is a hit of its own (the ranked ones and those its
    // statement rows add), and the page holds every section that is not a copy.
    assert!(folded.hits.iter().all(|h| h.doc_id != other.doc_id));
    let mut every = request.clone();
    every.fold_copies = false;
    every.limit = 10;
    let every = library.search(&every).unwrap();
    let distinct = every
        .hits
        .iter()
        .filter(|h| h.doc_id != other.doc_id)
        .count();
    assert!(distinct >= 2, "{distinct}");
    assert!(folded.hits.len() >= distinct.min(request.limit));
    let json = serde_json::to_value(&folded).unwrap();
    assert_eq!(
        json["hits"][0]["also_in"][0]["doc_name"],
        other.doc_name.as_str()
    );

    // Unfolded (a file vote), each copy is its own hit.
    request.fold_copies = false;
    let unfolded = library.search(&request).unwrap();
    assert!(unfolded.hits.iter().all(|h| h.also_in.is_empty()));
    // A hit without copies carries no `also_in` in JSON.
    let json = serde_json::to_value(&unfolded).unwrap();
    assert!(json["hits"][0].get("also_in").is_none());
    assert!(unfolded
        .hits
        .iter()
        .any(|h| h.doc_id == other.doc_id && h.node_id == other.node_id));
}
