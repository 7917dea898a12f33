//! Provenance on a real 10-K: every section is scanned, evidence lands where the filing
//! discusses the topic, excerpts are exact spans, and the CSV export matches them.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use docindex_app::provenance::{to_csv, ProvenanceEvent};
use docindex_app::search::SearchRequest;
use docindex_app::Library;
use docindex_core::charmap::CharMap;
use docindex_core::provenance::ScanOptions;
use docindex_core::IndexSettings;
use std::path::PathBuf;
use std::sync::Mutex;

const APPLE: &str = "apple_10-K_FY2024_0000320193-24-000123.html";

#[test]
fn every_section_is_scanned_and_evidence_is_exact_and_exported() {
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures")
        .join(APPLE);
    library.index_paths(&[path], 1, &|_| {}).unwrap()[0]
        .result
        .as_ref()
        .unwrap();
    let doc = library.document(APPLE).unwrap();
    let map = CharMap::new(&doc.text);

    let events = Mutex::new((0usize, 0usize, 0usize));
    let mut scope = SearchRequest::new("supply chain");
    scope.scope.doc = Some(APPLE.into());
    let report = library
        .provenance("supply chain", &scope, ScanOptions::default(), &|event| {
            let mut e = events.lock().unwrap();
            match event {
                ProvenanceEvent::Progress { done, total } => {
                    e.0 = done;
                    e.1 = total;
                }
                ProvenanceEvent::Hit(_) => e.2 += 1,
            }
        })
        .unwrap();
    let (done, total, hits) = *events.lock().unwrap();
    assert_eq!(report.coverage.sections_scanned, doc.nodes.len());
    assert_eq!(report.coverage.sections_total, doc.nodes.len());
    assert_eq!(report.coverage.sections_skipped, 0);
    assert_eq!((done, total), (doc.nodes.len(), doc.nodes.len()));
    assert_eq!(hits, report.evidence.len(), "every hit was streamed");

    // The sections known to discuss the supply chain are found.
    let paths: Vec<&str> = report.evidence.iter().map(|e| e.path.as_str()).collect();
    assert!(paths.iter().any(|p| p.contains("Item 1A")), "{paths:?}");
    assert!(
        paths
            .iter()
            .any(|p| p.contains("Item 1. Business") || p.contains("Item 7")),
        "{paths:?}"
    );
    assert!(report
        .evidence
        .windows(2)
        .all(|w| w[0].relevance >= w[1].relevance));
    let mut rows = 0;
    for e in &report.evidence {
        let node = doc.node(&e.node_id).unwrap();
        for x in &e.excerpts {
            assert!(x.relevance >= ScanOptions::default().threshold);
            assert!(x.relevance <= e.relevance);
            assert!(!x.terms.is_empty() && x.reason.starts_with("matched: "));
            assert_eq!(map.slice(x.span()), x.text);
            assert!(node.span.contains(x.span()));
            rows += 1;
        }
        // Excerpts are in document order and never overlap.
        assert!(e
            .excerpts
            .windows(2)
            .all(|w| w[0].end_char < w[1].start_char));
    }

    let csv = to_csv(&report).unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers = reader.headers().unwrap().clone();
    assert_eq!(&headers[0], "document");
    assert_eq!(&headers[9], "excerpt");
    assert_eq!(&headers[8], "relevance");
    let records: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(records.len(), rows);
    // Strongest evidence first: rows sorted by their own relevance.
    let relevances: Vec<f64> = records.iter().map(|r| r[8].parse().unwrap()).collect();
    assert!(
        relevances.windows(2).all(|w| w[0] >= w[1]),
        "{relevances:?}"
    );
    for r in &records {
        let span = docindex_core::model::Span {
            start_char: r[6].parse().unwrap(),
            end_char: r[7].parse().unwrap(),
        };
        let text = map.slice(span);
        assert!(
            &r[9] == text || r[9] == format!("'{text}"),
            "CSV row matches its span"
        );
        assert_eq!(&r[1], "Apple Inc.");
    }
}

/// The hand-marked provenance set (`tests/eval/provenance.json`) on the filings that are
/// fixtures here: the report is precise and complete, topic by topic, and a multi-word
/// topic never matches on a generic word of it alone.
#[test]
fn hand_marked_topics_are_found_whole_and_clean() {
    use docindex_app::eval::provenance::ProvenanceCase;
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cases: Vec<ProvenanceCase> = serde_json::from_str(
        &std::fs::read_to_string(root.join("tests/eval/provenance.json")).unwrap(),
    )
    .unwrap();
    let html: Vec<ProvenanceCase> = cases
        .into_iter()
        .filter(|c| !c.doc.ends_with(".pdf"))
        .collect();
    let mut docs: Vec<&str> = html.iter().map(|c| c.doc.as_str()).collect();
    docs.sort();
    docs.dedup();
    assert!(docs.len() >= 3, "{docs:?}");
    let dir = tempfile::tempdir().unwrap();
    let mut library = Library::open(dir.path(), IndexSettings::default()).unwrap();
    let paths: Vec<PathBuf> = docs
        .iter()
        .map(|d| root.join("tests/fixtures").join(d))
        .collect();
    for outcome in library.index_paths(&paths, 2, &|_| {}).unwrap() {
        outcome.result.as_ref().unwrap();
    }
    let scores = library.evaluate_provenance(&html, &|_, _| {}).unwrap();
    // Measured at 0.62 (supply chain on Tesla, where "supplier" in passing still counts)
    // to 1.00; the floor leaves room for a thesaurus edit, not for a regression.
    for s in &scores {
        assert!(
            s.precision >= 0.6 && s.recall >= 0.9,
            "{} on {}: precision {:.2}, recall {:.2}; off topic {:#?}; missed {:#?}",
            s.topic,
            s.doc,
            s.precision,
            s.recall,
            s.off_topic,
            s.missed
        );
        assert_eq!(s.sections_scanned, s.sections_total);
    }
    let mean_precision = scores.iter().map(|s| s.precision).sum::<f64>() / scores.len() as f64;
    assert!(mean_precision >= 0.8, "mean precision {mean_precision:.2}");

    // "change" alone is not climate change.
    let mut scope = SearchRequest::new("climate change");
    scope.scope.doc = Some(APPLE.into());
    let report = library
        .provenance("climate change", &scope, ScanOptions::default(), &|_| {})
        .unwrap();
    assert_eq!(report.concept.entries, vec!["climate"]);
    for (_, x) in report.rows() {
        let lower = x.text.to_lowercase();
        assert!(
            !x.terms.iter().any(|t| t == "change"),
            "matched on 'change': {}",
            x.text
        );
        assert!(
            [
                "climat",
                "emission",
                "weather",
                "carbon",
                "greenhouse",
                "renewable",
                "energy",
                "flood",
                "drought",
                "hurricane",
                "wildfire",
                "sustainab",
                "water",
                "recycl",
                "environment",
                "fossil",
                "scope",
                "natural disaster",
                "esg",
                "temperature"
            ]
            .iter()
            .any(|w| lower.contains(w)),
            "off topic: {}",
            x.text
        );
    }
}
