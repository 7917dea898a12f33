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
    scope.doc = Some(APPLE.into());
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
        assert!(e.relevance >= ScanOptions::default().threshold);
        let node = doc.node(&e.node_id).unwrap();
        for x in &e.excerpts {
            assert_eq!(map.slice(x.span()), x.text);
            assert!(node.span.contains(x.span()));
            rows += 1;
        }
    }

    let csv = to_csv(&report).unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers = reader.headers().unwrap().clone();
    assert_eq!(&headers[0], "document");
    assert_eq!(&headers[9], "excerpt");
    let records: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(records.len(), rows);
    for r in &records {
        let span = docindex_core::model::Span {
            start_char: r[6].parse().unwrap(),
            end_char: r[7].parse().unwrap(),
        };
        let text = map.slice(span).replace(['\n', '\r'], " ");
        assert!(
            r[9] == text || r[9] == format!("'{text}"),
            "CSV row matches its span"
        );
        assert_eq!(&r[1], "Apple Inc.");
    }
}
