//! `docindex index`, `import` and `embed`: files (and PageIndex trees) into the library,
//! then the embedding stage.

use crate::args::IndexArgs;
use crate::progress::{embed_stage, FileBars};
use crate::{exit_code, Session};
use anyhow::Result;
use docindex_app::IndexEvent;
use std::io::Write;

pub fn index(session: &mut Session, args: IndexArgs) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let bars = FileBars::new(args.paths.len(), session.json);
    // Ctrl-C cancels: files in progress stop at their next stage and store nothing.
    let cancel = session.library.cancel_flag();
    let _ = ctrlc::set_handler(move || {
        cancel.store(true, std::sync::atomic::Ordering::SeqCst);
    });
    let on_event = |event: IndexEvent| bars.on_event(&event);
    let reports = session
        .library
        .index_paths(&args.paths, args.jobs, &on_event)?;
    bars.finish();
    // The embedding stage: the documents are already readable and searchable by
    // BM25; dense search joins when this is done.
    let embedded = if args.skip_embed {
        0
    } else {
        embed_stage(&mut session.library, session.json)
    };
    let failed = reports.iter().filter(|r| r.result.is_err()).count();
    if session.json {
        let rows: Vec<serde_json::Value> = reports
            .iter()
            .map(|r| match &r.result {
                Ok(outcome) => serde_json::json!({"path": r.path, "ok": true, "outcome": outcome}),
                Err(e) => serde_json::json!({"path": r.path, "ok": false, "error": e.to_string(), "fault": e.fault()}),
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
    }
    if failed > 0 {
        eprintln!("{failed} of {} file(s) failed", reports.len());
        let worst = reports
            .iter()
            .filter_map(|r| r.result.as_ref().err())
            .map(|e| exit_code(e.fault()))
            .max()
            .unwrap_or(1);
        return Ok(worst.max(embedded));
    }
    Ok(embedded)
}

/// `docindex import`: PageIndex tree JSON only; a filing given by mistake is refused by
/// name before anything runs, so the user learns to use `index` for it.
pub fn import(session: &mut Session, args: IndexArgs) -> Result<i32> {
    let not_json: Vec<String> = args
        .paths
        .iter()
        .filter(|p| {
            !p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        })
        .map(|p| p.display().to_string())
        .collect();
    if !not_json.is_empty() {
        eprintln!(
            "error: {}: not a .json file; `docindex import` takes PageIndex tree JSON (index filings with `docindex index`)",
            not_json.join(", ")
        );
        return Ok(1);
    }
    index(session, args)
}

/// The embedding stage for every document that has none yet.
pub fn embed(session: &mut Session) -> Result<i32> {
    Ok(embed_stage(&mut session.library, session.json))
}

/// Retry the LLM stages a provider failed for one document, then embed it again.
pub fn enhance(session: &mut Session, doc: &str) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let outcome = session
        .library
        .enhance(doc, &mut docindex_core::progress::NoProgress)?;
    if session.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&outcome)?)?;
    } else {
        if outcome.retried.is_empty() && outcome.still_failed.is_empty() {
            writeln!(out, "nothing to retry: every LLM stage of {doc} finished")?;
        }
        for stage in &outcome.retried {
            writeln!(out, "{}: done", stage.as_str())?;
        }
        for failed in &outcome.still_failed {
            writeln!(
                out,
                "{}: still failed ({})",
                failed.stage.as_str(),
                failed.reason
            )?;
        }
    }
    let embedded = if outcome.retried.is_empty() {
        0
    } else {
        embed_stage(&mut session.library, session.json)
    };
    Ok(if outcome.still_failed.is_empty() {
        embedded
    } else {
        3
    })
}
