//! `docindex provenance`: every excerpt on a topic, with coverage, saved, and exported to
//! CSV on request.

use crate::args::ProvenanceArgs;
use crate::print::{instruction_flag, one_line, page_range};
use crate::Session;
use anyhow::{Context, Result};
use docindex_app::provenance::{self, ProvenanceEvent};
use docindex_app::saved::{saved_unless_read_only, Saved};
use docindex_core::provenance::ScanOptions;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::Write;

pub fn run(session: &Session, args: ProvenanceArgs) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let topic = &args.topic;
    let mut scope = args.scope.request(topic)?;
    scope.use_model = session.library.model().is_some();
    let options = ScanOptions {
        threshold: args.threshold,
        ..ScanOptions::default()
    };
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("  scanning [{bar:30}] {pos}/{len} sections, {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // The CSV's path is checked before the scan, so a path that cannot be written costs no
    // scan and saves no report.
    let csv_file = match &args.csv {
        Some(path) => Some(std::fs::File::create(path).map_err(|e| {
            crate::UserInputError(format!("cannot write the CSV to {}: {e}", path.display()))
        })?),
        None => None,
    };
    let hits = std::sync::atomic::AtomicUsize::new(0);
    let scanned = session
        .library
        .provenance(topic, &scope, options, &|event| match event {
            ProvenanceEvent::Progress { done, total } => {
                bar.set_length(total as u64);
                bar.set_position(done as u64);
            }
            ProvenanceEvent::Hit(_) => {
                let n = hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                bar.set_message(format!("{n} with evidence"));
            }
        });
    bar.finish_and_clear();
    let report = match scanned {
        Ok(report) => report,
        Err(e) => {
            // No report: the CSV created for it is not left behind empty.
            if let (Some(path), Some(_)) = (&args.csv, &csv_file) {
                let _ = std::fs::remove_file(path);
            }
            return Err(e.into());
        }
    };
    let saved = saved_unless_read_only(session.library.save_report(&report))?;
    if !session.json || saved == Saved::ReadOnly {
        eprintln!("{}", saved.note());
    }
    if let (Some(path), Some(mut file)) = (&args.csv, csv_file) {
        file.write_all(provenance::to_csv(&report)?.as_bytes())
            .with_context(|| format!("cannot write the CSV to {}", path.display()))?;
    }
    if session.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        let c = &report.coverage;
        writeln!(
            out,
            "'{}': {} excerpt(s) in {} section(s); scanned {} of {} sections in {} document(s){}",
            report.topic,
            report.rows().len(),
            report.evidence.len(),
            c.sections_scanned,
            c.sections_total,
            c.documents,
            if c.semantic {
                ", by words and meaning"
            } else {
                ", by words"
            }
        )?;
        if let Some(summary) = &report.summary {
            writeln!(out, "summary: {summary}")?;
        }
        if c.sections_judged_by_model > 0 || c.sections_skipped > 0 {
            writeln!(
                out,
                "the model judged {} excerpt(s) in {} section(s); {} section(s) had no candidate sentence",
                c.excerpts_judged_by_model, c.sections_judged_by_model, c.sections_skipped
            )?;
        }
        for e in &report.evidence {
            let pages = page_range((e.start_page, e.end_page));
            writeln!(
                out,
                "{:.2}  {} {}  {}{}  ({})",
                e.relevance,
                one_line(&e.doc_name),
                e.node_id,
                e.path,
                pages,
                e.reason
            )?;
            for x in e.excerpts.iter().take(args.excerpts) {
                let text: String = x.text.chars().take(200).collect();
                let flag = instruction_flag(x.addressed_to_a_model);
                writeln!(
                    out,
                    "      {:.2} [{}..{}] {text}  ({}){flag}",
                    x.relevance, x.start_char, x.end_char, x.reason
                )?;
            }
            if e.excerpts.len() > args.excerpts {
                writeln!(
                    out,
                    "      … {} more (all in --json and --csv)",
                    e.excerpts.len() - args.excerpts
                )?;
            }
        }
    }
    Ok(0)
}
