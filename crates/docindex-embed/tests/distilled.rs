//! The distilled table read row by row (a search's query) gives the vectors the whole
//! table gives (indexing).

use docindex_core::embed::Embedder;
use docindex_embed::Distilled;

#[test]
fn a_query_read_row_by_row_embeds_as_with_the_whole_table() {
    let dir = docindex_embed::model_dir().expect("scripts/setup.sh installs the model");
    let vocab: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("tokenizer.json")).unwrap())
            .unwrap();
    // Enough distinct whole words to make one call read the whole table.
    let many_words: Vec<&str> = vocab["model"]["vocab"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|w| w.len() > 3 && w.chars().all(|c| c.is_ascii_lowercase()))
        .take(3_000)
        .map(String::as_str)
        .collect();
    assert_eq!(many_words.len(), 3_000);
    let long_text = many_words.join(" ");
    let query = "what drove the gross margin in fiscal 2024?";

    let row_by_row = Distilled::load_or_distill(&dir).unwrap();
    let alone = row_by_row.embed(&[query]).unwrap();
    let whole = Distilled::load_or_distill(&dir).unwrap();
    let with_many = whole.embed(&[query, long_text.as_str()]).unwrap();
    assert_eq!(alone[0], with_many[0]);
    let norm: f32 = alone[0].iter().map(|x| x * x).sum::<f32>().sqrt();
    assert!((norm - 1.0).abs() < 1e-4);
    // Once the whole table is read, a query comes from it and still agrees.
    assert_eq!(whole.embed(&[query]).unwrap()[0], alone[0]);
}

#[test]
fn figures_do_not_move_a_text_of_words_but_embed_a_text_of_figures_alone() {
    let dir = docindex_embed::model_dir().expect("scripts/setup.sh installs the model");
    let model = Distilled::load_or_distill(&dir).unwrap();
    let vectors = model
        .embed(&[
            "Total net sales",
            "Total net sales $ 391,035 $ 383,285 (2)%",
            "Total net sales in 2024",
            "2024",
            "(1,234.5)",
        ])
        .unwrap();
    // A statement row is about its label, whatever its figures.
    assert_eq!(vectors[0], vectors[1]);
    // A word among the figures still counts.
    assert_ne!(vectors[0], vectors[2]);
    // Figures alone are still a direction, of length one, and differ from each other.
    for figures in &vectors[3..] {
        let norm: f32 = figures.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "{norm}");
    }
    assert_ne!(vectors[3], vectors[4]);
}
