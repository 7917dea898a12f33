//! `docindex eval`: retrieval and answer quality on a question set, or provenance precision
//! and recall on a hand-marked topic set (the file's shape says which).

use crate::args::EvalArgs;
use crate::Session;
use crate::UserInputError;
use anyhow::{Context, Result};
use docindex_app::eval::provenance::ProvenanceCase;
use docindex_app::eval::{AnswerRow, EvalQuestion, EvalRow, Method, METHODS};
use docindex_app::Library;
use docindex_core::qa::ConfidenceLabel;
use std::io::Write;

pub fn run(session: &Session, args: EvalArgs) -> Result<i32> {
    let library = &session.library;
    let mut out = std::io::stdout().lock();
    let path = &args.questions;
    let text = std::fs::read_to_string(path)
        .map_err(|e| UserInputError(format!("cannot read {}: {e}", path.display())))?;
    if let Ok(cases) = serde_json::from_str::<Vec<ProvenanceCase>>(&text) {
        eval_provenance(library, &cases, session.json, &mut out)?;
        return Ok(0);
    }
    let questions: Vec<EvalQuestion> = serde_json::from_str(&text).map_err(|e| {
        UserInputError(format!(
            "{}: neither a question list nor a provenance set ({e})",
            path.display()
        ))
    })?;
    if let Some(model) = library.model_name() {
        // With a model the answers are what is measured: its searches and the offline
        // baselines are not (they would spend the model on every retrieval leg).
        let answers = library.evaluate_answers(&questions, &|done, total| {
            eprint!("\r  answering {done}/{total} with {model}");
        })?;
        eprintln!();
        if session.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&answers)?)?;
        } else {
            print_answer_eval(&mut out, &answers)?;
        }
        return Ok(0);
    }
    let rows = library.evaluate(
        &questions,
        args.budget,
        !args.skip_minilm,
        &|done, total| {
            eprint!("\r  evaluating {done}/{total}");
        },
    )?;
    eprintln!();
    if session.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
        return Ok(0);
    }
    print_eval(&mut out, &rows, args.budget)?;
    let answers = library.evaluate_answers(&questions, &|done, total| {
        eprint!("\r  answering {done}/{total}");
    })?;
    eprintln!();
    print_answer_eval(&mut out, &answers)?;
    let latency = library.search_latency(&questions, 3)?;
    writeln!(
        out,
        "library-wide search over {} documents: p50 {:.1} ms, p95 {:.1} ms ({} searches)",
        latency.documents, latency.p50_ms, latency.p95_ms, latency.searches
    )?;
    let Some(floors) = &args.floors else {
        return Ok(0);
    };
    let measured = Measured {
        retrieval: rows
            .iter()
            .filter(|r| r.found.get(&Method::Ours).copied().unwrap_or(false))
            .count(),
        answers: answers.iter().filter(|r| r.cites_evidence).count(),
        high_wrong: answers
            .iter()
            .filter(|r| r.confidence == ConfidenceLabel::High && !r.cites_evidence)
            .count(),
    };
    check_floor(&mut out, floors, path, &measured)
}

/// A set's floor: at least `retrieval` questions found and `answers` answers citing the
/// evidence, at most `high_wrong` HIGH answers without it (each checked when given).
#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Floor {
    retrieval: Option<usize>,
    answers: Option<usize>,
    high_wrong: Option<usize>,
    /// The share of right answers `tests/eval/xbrl_eval.py` holds a family set to.
    #[allow(dead_code)]
    right: Option<f64>,
    /// What `tests/eval/narrative_eval.py` holds a narrative set to: answers citing the
    /// evidence, at most so many refusals of answerable questions, judgments' verdicts.
    #[allow(dead_code)]
    cited: Option<usize>,
    #[allow(dead_code)]
    refused: Option<usize>,
    #[allow(dead_code)]
    verdicts: Option<usize>,
}

struct Measured {
    retrieval: usize,
    answers: usize,
    high_wrong: usize,
}

/// Compare a set's figures with its floor in `floors` (by the set's file name): 0 when it
/// holds, 2 when it does not; a set the file has no floor for is an error, so a new set
/// cannot go unchecked.
fn check_floor(
    out: &mut impl Write,
    floors: &std::path::Path,
    set: &std::path::Path,
    measured: &Measured,
) -> Result<i32> {
    let text = std::fs::read_to_string(floors).map_err(|e| {
        UserInputError(format!(
            "cannot read the floors file {}: {e}",
            floors.display()
        ))
    })?;
    let table: std::collections::BTreeMap<String, Floor> = toml::from_str(&text)
        .map_err(|e| UserInputError(format!("{}: not a floors file ({e})", floors.display())))?;
    let name = set
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let floor = table
        .get(&name)
        .with_context(|| format!("{}: no floor for {name}", floors.display()))?;
    let mut below = Vec::new();
    if let Some(least) = floor.retrieval.filter(|least| measured.retrieval < *least) {
        below.push(format!("retrieval {} < {least}", measured.retrieval));
    }
    if let Some(least) = floor.answers.filter(|least| measured.answers < *least) {
        below.push(format!("answers {} < {least}", measured.answers));
    }
    if let Some(most) = floor.high_wrong.filter(|most| measured.high_wrong > *most) {
        below.push(format!(
            "HIGH without the evidence {} > {most}",
            measured.high_wrong
        ));
    }
    if below.is_empty() {
        writeln!(out, "floor of {name}: held")?;
        return Ok(0);
    }
    writeln!(out, "floor of {name}: BELOW ({})", below.join("; "))?;
    Ok(2)
}

fn print_eval(out: &mut impl Write, rows: &[EvalRow], budget: usize) -> Result<()> {
    let mark = |row: &EvalRow, m: Method| match row.found.get(&m) {
        Some(true) => "yes",
        Some(false) => "-",
        None => "n/a",
    };
    writeln!(
        out,
        "{:<60} {:>5} {:>7} {:>8} {:>5} {:>7}",
        "question", "ours", "rrf", "no-dense", "bm25", "minilm"
    )?;
    for row in rows {
        let q: String = row.question.chars().take(60).collect();
        writeln!(
            out,
            "{:<60} {:>5} {:>7} {:>8} {:>5} {:>7}",
            q,
            mark(row, Method::Ours),
            mark(row, Method::OursRrf),
            mark(row, Method::OursNoDense),
            mark(row, Method::Bm25Chunks),
            mark(row, Method::MiniLmChunks)
        )?;
    }
    let with_pages = rows.iter().filter(|r| !r.page_found.is_empty()).count();
    if with_pages > 0 {
        writeln!(
            out,
            "evidence page among the passages of the first {budget} tokens ({with_pages} questions list pages):"
        )?;
        for m in METHODS {
            let found = rows
                .iter()
                .filter(|r| r.page_found.get(&m) == Some(&true))
                .count();
            writeln!(out, "  {:<14} {found}/{with_pages}", format!("{m:?}"))?;
        }
    }
    writeln!(out, "evidence found within the first {budget} tokens:")?;
    for m in METHODS {
        let found = rows
            .iter()
            .filter(|r| r.found.get(&m) == Some(&true))
            .count();
        writeln!(
            out,
            "  {:<14} {found}/{} ({:.0}%)",
            format!("{m:?}"),
            rows.len(),
            100.0 * found as f64 / rows.len().max(1) as f64
        )?;
    }
    Ok(())
}

fn print_answer_eval(out: &mut impl Write, answers: &[AnswerRow]) -> Result<()> {
    let engine = match answers.first().map(|r| r.engine) {
        Some(docindex_core::model::Engine::Llm) => "model",
        _ => "offline",
    };
    for row in answers.iter().filter(|r| !r.cites_evidence) {
        writeln!(out, "ask ({engine}) missed: {}", row.question)?;
    }
    let cited = answers.iter().filter(|r| r.cites_evidence).count();
    writeln!(
        out,
        "ask ({engine}): {cited}/{} answers cite the evidence",
        answers.len()
    )?;
    if !answers.is_empty() {
        let n = answers.len() as f64;
        writeln!(
            out,
            "  per question: {:.1} s, {:.0} model tokens; {} citation(s) dropped in all",
            answers.iter().map(|r| r.seconds).sum::<f64>() / n,
            answers.iter().map(|r| r.tokens as f64).sum::<f64>() / n,
            answers.iter().map(|r| r.citations_dropped).sum::<usize>()
        )?;
    }
    for label in [
        ConfidenceLabel::High,
        ConfidenceLabel::Medium,
        ConfidenceLabel::Low,
    ] {
        let at: Vec<&AnswerRow> = answers.iter().filter(|r| r.confidence == label).collect();
        let right = at.iter().filter(|r| r.cites_evidence).count();
        writeln!(
            out,
            "  confidence {label:?}: {} answers, {right} cite the evidence",
            at.len()
        )?;
        if label == ConfidenceLabel::High {
            for row in at.iter().filter(|r| !r.cites_evidence) {
                writeln!(out, "    HIGH without the evidence: {}", row.question)?;
            }
        }
    }
    let computed: Vec<&AnswerRow> = answers.iter().filter(|r| r.agrees.is_some()).collect();
    let agreeing = computed.iter().filter(|r| r.agrees == Some(true)).count();
    writeln!(
        out,
        "computed metrics: {} answers computed one, {agreeing} agree with the reference answer",
        computed.len()
    )?;
    for row in computed.iter().filter(|r| r.agrees == Some(false)) {
        if let Some(m) = row.computed.first() {
            writeln!(
                out,
                "  disagrees: {} → {} = {}",
                row.question, m.shown, m.worked
            )?;
        }
    }
    Ok(())
}

/// `docindex eval` on a provenance set: precision and recall per topic and document.
fn eval_provenance(
    library: &Library,
    cases: &[ProvenanceCase],
    json: bool,
    out: &mut impl Write,
) -> Result<()> {
    let scores = library.evaluate_provenance(cases, &|done, total| {
        eprint!("\r  scanning {done}/{total}");
    })?;
    eprintln!();
    if json {
        writeln!(out, "{}", serde_json::to_string_pretty(&scores)?)?;
        return Ok(());
    }
    writeln!(
        out,
        "{:<26} {:<34} {:>5} {:>9} {:>12} {:>9}",
        "topic", "document", "rows", "precision", "recall", "time"
    )?;
    for s in &scores {
        let doc: String = s.doc.chars().take(34).collect();
        let topic: String = s.topic.chars().take(26).collect();
        writeln!(
            out,
            "{topic:<26} {doc:<34} {:>5} {:>9.2} {:>5.2} ({}/{}) {:>6.0} ms",
            s.rows, s.precision, s.recall, s.core_found, s.core_total, s.millis
        )?;
    }
    let n = scores.len().max(1) as f64;
    writeln!(
        out,
        "mean precision {:.2}, mean recall {:.2}; {} of {} cases at precision >= 0.80 and recall >= 0.90; slowest scan {:.0} ms",
        scores.iter().map(|s| s.precision).sum::<f64>() / n,
        scores.iter().map(|s| s.recall).sum::<f64>() / n,
        scores
            .iter()
            .filter(|s| s.precision >= 0.8 && s.recall >= 0.9)
            .count(),
        scores.len(),
        scores.iter().map(|s| s.millis).fold(0.0, f64::max)
    )?;
    Ok(())
}
