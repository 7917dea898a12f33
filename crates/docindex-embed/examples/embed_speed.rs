//! Embedding throughput for a batch size: `embed_speed N_TEXTS`.
#![allow(clippy::expect_used)]
use docindex_core::embed::Embedder;

fn main() {
    let model = docindex_embed::MiniLm::locate().expect("model");
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(64);
    let text = "Net sales for the 13-week fiscal quarter ended November 2, 2024 decreased 3.2 percent to $293.6 million from net sales of $303.5 million for the prior year 13-week fiscal quarter. ".repeat(5);
    let texts: Vec<&str> = (0..n).map(|_| text.as_str()).collect();
    let start = std::time::Instant::now();
    let v = model.embed(&texts).expect("embed");
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} texts in {:.2} s = {:.1} ms/text, dim {}",
        secs,
        secs * 1000.0 / n as f64,
        v[0].len()
    );
}
