//! The verbs that ask the library something: search and ask.

use crate::args::{AskArgs, FusionArg, SearchArgs};
use crate::print::{
    one_line, page_range, print_comparison, print_documents, print_files, print_search,
};
use crate::Session;
use anyhow::Result;
use docindex_app::ask::AskEvent;
use docindex_app::saved::{saved_unless_read_only, Saved};
use docindex_core::search::Fusion;
use std::io::Write;

/// The sections related to a query, fused from every leg, with their passages.
pub fn search(session: &Session, args: SearchArgs) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let mut request = args.scope.request(&args.query)?;
    request.limit = args.limit;
    request.use_model = session.library.model().is_some();
    request.fusion = match args.fusion {
        FusionArg::Rrf => Fusion::Rrf,
        FusionArg::Minmax => Fusion::MinMax,
    };
    if args.files {
        let files = session.library.vote_files(&request, args.top_files)?;
        if session.json {
            writeln!(out, "{}", serde_json::to_string_pretty(&files)?)?;
        } else {
            print_files(&mut out, &files)?;
        }
        return Ok(0);
    }
    let results = session.library.search(&request)?;
    if session.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&results)?)?;
    } else {
        print_search(&mut out, &results)?;
    }
    Ok(0)
}

/// An answer with cited, verified excerpts, streamed; it is saved in the library.
pub fn ask(session: &Session, args: AskArgs) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let scope = args.scope.request(&args.question)?;
    let quiet = session.json;
    let answer = session.library.ask(&args.question, &scope, &|event| {
        if quiet {
            return;
        }
        match event {
            AskEvent::Step(step) => eprintln!("  · {step}"),
            AskEvent::Token(token) => {
                // A closed pipe ends the stream quietly; the answer is still saved.
                let mut stdout = std::io::stdout();
                let _ = write!(stdout, "{token}").and_then(|()| stdout.flush());
            }
        }
    })?;
    let saved = saved_unless_read_only(session.library.save_answer(&answer))?;
    if session.json && saved == Saved::ReadOnly {
        eprintln!("{}", saved.note());
    }
    if session.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
    } else {
        writeln!(out)?;
        eprintln!("  · {}", saved.note());
        writeln!(
            out,
            "confidence: {:?} ({:.2}); {} source section(s)",
            answer.confidence.label, answer.confidence.score, answer.confidence.source_nodes
        )?;
        if let Some(table) = &answer.comparison {
            print_comparison(&mut out, table)?;
        }
        print_documents(&mut out, &answer.documents)?;
        for c in &answer.citations {
            let pages = page_range((c.start_page, c.end_page));
            writeln!(
                out,
                "[{}] {} {} {}{} [{}..{}]",
                c.marker,
                one_line(&c.doc_name),
                c.node_id,
                c.title,
                pages,
                c.start_char,
                c.end_char
            )?;
        }
        if !answer.unsupported_numbers.is_empty() {
            writeln!(
                out,
                "warning: figures not found in any cited excerpt: {}",
                answer.unsupported_numbers.join(", ")
            )?;
        }
    }
    Ok(0)
}
