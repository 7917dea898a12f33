//! The dense index against f32 vectors, its file against the in-memory build, and its
//! faults: a cut file, a stray entry, a folder that refuses it.

use super::bits::hamming_distances_portable;
use super::build::{encode_row, int8_scale};
use super::*;

fn unit(v: &[f32]) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    v.iter().map(|x| x / n).collect()
}

/// Vectors in 70 dimensions (two code words), a pseudo-random walk.
fn rows(count: usize) -> Vec<Vec<f32>> {
    let mut state = 12345u64;
    (0..count)
        .map(|_| {
            let v: Vec<f32> = (0..70)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((state >> 33) as f32 / (1u64 << 31) as f32) - 0.5
                })
                .collect();
            unit(&v)
        })
        .collect()
}

fn parts_of(rows: &[Vec<f32>]) -> Parts {
    let dims = rows[0].len();
    let mut parts = Parts {
        fingerprint: 7,
        removals: 0,
        base: None,
        dims,
        docs: vec!["a".into(), "b".into()],
        nodes: vec!["0000".into(), "0001".into()],
        entries: Vec::new(),
        centre: vec![0.0; dims],
        codes: Vec::new(),
        vectors: Vec::new(),
    };
    for v in rows {
        for (c, x) in parts.centre.iter_mut().zip(v) {
            *c += x / rows.len() as f32;
        }
    }
    let mut row = Vec::new();
    for (i, v) in rows.iter().enumerate() {
        let scale = int8_scale(v);
        let code = encode_row(v, scale, &parts.centre, &mut row);
        parts.vectors.extend_from_slice(&row);
        parts.codes.extend(code);
        parts.entries.push(Entry {
            doc: (i % 2) as u32,
            chunk: i as u32,
            node: (i % 2) as u32,
            scale,
        });
    }
    parts
}

fn write_file(parts: &Parts, path: &Path) {
    parts
        .write_to(&mut std::io::BufWriter::new(File::create(path).unwrap()))
        .unwrap();
}

fn exact(
    rows: &[Vec<f32>],
    query: &[f32],
    keep: impl Fn(usize) -> bool,
    limit: usize,
) -> Vec<usize> {
    let mut all: Vec<(f32, usize)> = rows
        .iter()
        .enumerate()
        .filter(|(i, _)| keep(*i))
        .map(|(i, r)| (r.iter().zip(query).map(|(a, b)| a * b).sum(), i))
        .collect();
    all.sort_by(|a, b| b.0.total_cmp(&a.0));
    all.into_iter().take(limit).map(|(_, i)| i).collect()
}

#[test]
fn the_file_round_trips_and_ranks_as_f32_vectors_do() {
    let rows = rows(3_000);
    let parts = parts_of(&rows);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dense-test.bin");
    write_file(&parts, &path);
    let on_disk = DenseIndex::open(&path, 7).unwrap().unwrap();
    assert!(matches!(on_disk.rows, Rows::File { .. }));
    assert!(matches!(on_disk.head.bytes, HeadBytes::Mapped(_)));
    let entries: Vec<Entry> = (0..on_disk.len()).map(|i| on_disk.head.entry(i)).collect();
    assert_eq!(entries, parts.entries);
    let codes: Vec<u8> = parts.codes.iter().flat_map(|c| c.to_le_bytes()).collect();
    assert_eq!(on_disk.head.codes(), codes);
    let in_memory = parts_of(&rows).into_memory_index();
    let mapped = DenseIndex::open(&path, 7).unwrap().unwrap().map_rows();
    assert!(matches!(mapped.rows, Rows::Mapped { .. }));
    let query = rows[17].clone();
    assert_eq!(
        mapped.nearest(&query, &|_| true, 50).unwrap(),
        on_disk.nearest(&query, &|_| true, 50).unwrap()
    );

    for index in [&on_disk, &in_memory, &mapped] {
        // Exhaustive: the order of the f32 vectors, the similarity within int8's error.
        let hits = index.nearest_exhaustive(&query, &|_| true, 20).unwrap();
        let order: Vec<usize> = hits.iter().map(|h| h.chunk_index).collect();
        assert_eq!(order[0], 17);
        let truth = exact(&rows, &query, |_| true, 20);
        assert!(
            order.iter().filter(|i| truth.contains(i)).count() >= 18,
            "{order:?} vs {truth:?}"
        );
        for hit in &hits {
            let f32_similarity: f32 = rows[hit.chunk_index]
                .iter()
                .zip(&query)
                .map(|(a, b)| a * b)
                .sum();
            assert!((f32_similarity - hit.similarity).abs() < 0.02);
        }
        // A scope keeps to its documents.
        let only_b = index.nearest(&query, &|d| d == "b", 5).unwrap();
        assert_eq!(only_b.len(), 5);
        assert!(only_b
            .iter()
            .all(|h| h.doc_id == "b" && h.chunk_index % 2 == 1));
    }

    // The shortlist (1,000 of 3,000 by sign bits) keeps the true nearest.
    let shortlisted = on_disk.nearest(&query, &|_| true, 10).unwrap();
    let exhaustive = on_disk.nearest_exhaustive(&query, &|_| true, 10).unwrap();
    assert_eq!(shortlisted, exhaustive);

    // Another generation, an entry naming a document the file lacks, or a cut file, is
    // not read.
    assert!(DenseIndex::open(&path, 8).unwrap().is_none());
    let whole = std::fs::read(&path).unwrap();
    let mut stray = whole.clone();
    let names_len = u64::from_le_bytes(whole[24..32].try_into().unwrap()) as usize;
    let layout = Sizes::of(names_len, 70, rows.len(), 2).unwrap();
    assert_eq!(layout.total, whole.len());
    let last_entry = layout.entries_at + (rows.len() - 1) * ENTRY_BYTES;
    stray[last_entry..last_entry + 4].copy_from_slice(&2u32.to_le_bytes());
    std::fs::write(&path, stray).unwrap();
    assert!(DenseIndex::open(&path, 7).unwrap().is_none());
    std::fs::write(&path, &whole).unwrap();
    assert!(DenseIndex::open(&path, 7).unwrap().is_some());
    let mut cut = std::fs::read(&path).unwrap();
    cut.pop();
    std::fs::write(&path, cut).unwrap();
    assert!(DenseIndex::open(&path, 7).unwrap().is_none());
}

/// A library of two filings whose chunks have vectors of 70 dimensions (`rows`), of
/// `test-model`; how many.
fn library_with_vectors(dir: &Path) -> (SqliteStore, usize) {
    let mut store = SqliteStore::open(&dir.join("library.sqlite")).unwrap();
    let mut stored = 0;
    for name in [
        "oracle_8-K_2024-11-14_item5.07.html",
        "apple_10-Q_Q3FY2023_0000320193-23-000077.html",
    ] {
        stored += add_with_vectors(&mut store, name, stored).1;
    }
    assert!(stored > 90, "{stored} chunks");
    (store, stored)
}

/// Indexes the fixture `name` into `store` with vectors of `test-model` from `rows`,
/// starting at `first`; its id and how many vectors.
fn add_with_vectors(store: &mut SqliteStore, name: &str, first: usize) -> (String, usize) {
    use docindex_core::progress::NoProgress;
    use docindex_core::store::DocumentStore;
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    let bytes = std::fs::read(fixtures.join(name)).unwrap();
    let doc = docindex_core::index_document(
        name,
        &bytes,
        &docindex_core::IndexSettings::default(),
        &mut NoProgress,
    )
    .unwrap();
    store.replace(&doc).unwrap();
    let vectors: Vec<(Vec<f32>, [u8; 32])> = rows(first + doc.chunks.len())
        .split_off(first)
        .into_iter()
        .enumerate()
        .map(|(i, v)| (v, [i as u8; 32]))
        .collect();
    store
        .put_vectors(&doc.doc_id, "test-model", &vectors)
        .unwrap();
    (doc.doc_id, vectors.len())
}

#[test]
fn a_library_that_refuses_the_file_beside_it_keeps_it_in_the_cache_folder() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    // Nextest runs each test in its own process: no other test sees it.
    std::env::set_var("XDG_CACHE_HOME", cache.path());
    let (store, stored) = library_with_vectors(dir.path());
    // A folder where the file would go: the rename over it fails, even for root.
    let beside = dense_path(store.path(), "test-model");
    std::fs::create_dir_all(beside.join("in-the-way")).unwrap();

    let index = DenseIndex::for_store(&store, "test-model").unwrap();
    assert!(matches!(index.rows, Rows::File { .. }), "kept in a file");
    assert_eq!(index.len(), stored);
    let paths = dense_paths(store.path(), "test-model");
    assert_eq!(paths.len(), 2);
    assert!(paths[1].starts_with(cache.path()));
    assert!(paths[1].is_file());
    // The next process opens it from there, at this generation only.
    let generation = store.vector_count().unwrap();
    let reopened = DenseIndex::open_current_of(store.path(), "test-model", generation);
    assert_eq!(reopened.map(|i| i.len()), Some(stored));
    assert!(DenseIndex::open_current_of(store.path(), "test-model", generation + 1).is_none());
    // Nothing half-written is left in either place.
    let leftovers = |folder: &Path| {
        std::fs::read_dir(folder)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().contains("partial")
            })
            .count()
    };
    assert_eq!(leftovers(dir.path()), 0);
    assert_eq!(leftovers(paths[1].parent().unwrap()), 0);
}

#[test]
fn the_file_written_as_the_vectors_are_read_is_the_index_held_whole() {
    let dir = tempfile::tempdir().unwrap();
    let (store, stored) = library_with_vectors(dir.path());

    let index = DenseIndex::for_store(&store, "test-model").unwrap();
    assert!(matches!(index.rows, Rows::File { .. }));
    assert_eq!(index.len(), stored);
    let path = dense_path(store.path(), "test-model");
    let whole = Parts::build(&store, "test-model", store.vector_count().unwrap()).unwrap();
    let mut expected = Vec::new();
    whole.write_to(&mut expected).unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), expected);
    let partials = std::fs::read_dir(dir.path())
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains("partial")
        })
        .count();
    assert_eq!(partials, 0);

    // A chunk's own vector is its nearest.
    let query = rows(1).remove(0);
    let nearest = index.nearest(&query, &|_| true, 1).unwrap();
    assert_eq!(nearest[0].chunk_index, 0);
    assert!(nearest[0].similarity > 0.99);
}

#[test]
fn unrolled_hamming_distances_count_as_the_loop_does() {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for words in [5, 6, 12, 16] {
        let codes: Vec<u64> = (0..words * 300).map(|_| next()).collect();
        let query: Vec<u64> = (0..words).map(|_| next()).collect();
        let expected: Vec<u16> = codes
            .chunks_exact(words)
            .map(|code| {
                code.iter()
                    .zip(&query)
                    .map(|(a, b)| (a ^ b).count_ones() as u16)
                    .sum()
            })
            .collect();
        let bytes: Vec<u8> = codes.iter().flat_map(|c| c.to_le_bytes()).collect();
        assert_eq!(hamming_distances(&bytes, words, &query), expected);
        assert_eq!(hamming_distances_portable(&bytes, words, &query), expected);
        // Where a mapped file puts them: not on an 8-byte boundary.
        let mut shifted = vec![0u8; 3];
        shifted.extend(&bytes);
        assert_eq!(hamming_distances(&shifted[3..], words, &query), expected);
    }
}

#[test]
fn rows_are_read_in_few_pieces() {
    let sorted = [1, 2, 3, 40, 41, 100];
    let pieces = runs(&sorted, 384);
    assert_eq!(pieces, vec![&[1, 2, 3][..], &[40, 41][..], &[100][..]]);
    // A long stretch is cut into blocks.
    let long: Vec<usize> = (0..10_000).collect();
    assert!(runs(&long, 384).iter().all(|r| r.len() * 384 <= READ_BLOCK));
}

#[test]
fn a_library_grown_by_a_filing_writes_that_filings_vectors_not_all_of_them() {
    use docindex_core::store::DocumentStore;
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("library.sqlite")).unwrap();
    let mut stored = 0;
    let (mut ids, mut counts) = (Vec::new(), Vec::new());
    for name in [
        "oracle_8-K_2024-11-14_item5.07.html",
        "buckle_8-K_2024-11-22.html",
        "buckle_8-K_2024-11-22_EX-99.1_press_release.html",
        "acme_q3_2024_earnings_call.txt",
    ] {
        let (id, count) = add_with_vectors(&mut store, name, stored);
        ids.push(id);
        counts.push(count);
        stored += count;
    }
    let whole_path = dense_path(store.path(), "test-model");
    let added_path = added::added_path(&whole_path);
    assert_eq!(
        DenseIndex::for_store(&store, "test-model").unwrap().len(),
        stored
    );
    let whole_bytes = std::fs::read(&whole_path).unwrap();
    assert!(!added_path.exists());

    // A filing more: its vectors go to their own file; the whole file is left as it was.
    let (medicis, count) = add_with_vectors(
        &mut store,
        "medicis_10-K_FY1999_0000950153-99-001234.html",
        stored,
    );
    stored += count;
    let grown = DenseIndex::for_store(&store, "test-model").unwrap();
    assert_eq!(grown.len(), stored);
    assert_eq!(std::fs::read(&whole_path).unwrap(), whole_bytes);
    assert!(added_path.is_file());
    assert_eq!(
        grown.added.as_ref().map(|a| a.docs.clone()),
        Some(vec![medicis.clone()])
    );

    // It ranks as the index written whole does, in both files, scoped or not.
    let whole = Parts::build(&store, "test-model", store.vector_count().unwrap())
        .unwrap()
        .into_memory_index();
    let all = rows(stored);
    let key = |hits: Vec<DenseHit>| -> Vec<(String, usize)> {
        hits.into_iter()
            .map(|h| (h.doc_id, h.chunk_index))
            .collect()
    };
    for at in [0, 5, stored - count, stored - 1] {
        let query = &all[at];
        assert_eq!(
            key(grown.nearest_exhaustive(query, &|_| true, 10).unwrap()),
            key(whole.nearest_exhaustive(query, &|_| true, 10).unwrap()),
        );
        let only_others = |doc: &str| doc != medicis;
        assert_eq!(
            key(grown.nearest(query, &only_others, 10).unwrap()),
            key(whole.nearest(query, &only_others, 10).unwrap()),
        );
    }
    // The new filing's chunk is its own nearest, found through the added file.
    let last = grown.nearest(&all[stored - 1], &|_| true, 1).unwrap();
    assert_eq!(
        (last[0].doc_id.as_str(), last[0].chunk_index),
        (medicis.as_str(), count - 1)
    );

    // A new search process opens both at this generation, and neither at another.
    let generation = store.vector_count().unwrap();
    let opened = DenseIndex::open_current(&whole_path, generation).unwrap();
    assert_eq!(opened.len(), stored);
    assert!(DenseIndex::open_current(&whole_path, generation + 1).is_none());
    assert_eq!(
        key(opened.map_rows().nearest(&all[3], &|_| true, 10).unwrap()),
        key(whole.nearest(&all[3], &|_| true, 10).unwrap())
    );

    // A removal: the stored vectors are no longer a superset of the whole file's, so it is
    // written again whole, holding what is stored now, and the added file goes.
    assert!(store.remove(&ids[3]).unwrap());
    let rewritten = DenseIndex::for_store(&store, "test-model").unwrap();
    assert_ne!(std::fs::read(&whole_path).unwrap(), whole_bytes);
    assert!(!added_path.exists());
    assert!(rewritten.added.is_none());
    assert_eq!(rewritten.len(), stored - counts[3]);
    assert!(rewritten.docs.contains(&medicis) && !rewritten.docs.contains(&ids[3]));
}
