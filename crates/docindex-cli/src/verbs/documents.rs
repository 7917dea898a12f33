//! The verbs that read or change stored documents: list, tree, show, export, remove, links
//! and saved results.

use crate::args::{ExportArgs, ExportFormat};
use crate::print::{one_line, page_range};
use crate::Session;
use anyhow::{Context, Result};
use docindex_app::export;
use docindex_app::links::LinkStatus;
use std::io::Write;

/// The documents in the library, one line each.
pub fn list(session: &Session) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let docs = session.library.list()?;
    if session.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&docs)?)?;
    } else if docs.is_empty() {
        writeln!(
            out,
            "The library at {} is empty; add filings with `docindex index FILE…`.",
            session.dir.display()
        )?;
    } else {
        writeln!(
            out,
            "{:<12}  {:<8}  {:<28}  {:<10}  {:>5}  {:>5}  NAME",
            "ID", "TYPE", "COMPANY", "PERIOD", "NODES", "PAGES"
        )?;
        for d in docs {
            let company: String = d
                .company_name
                .clone()
                .unwrap_or_default()
                .chars()
                .take(28)
                .collect();
            writeln!(
                out,
                "{:<12}  {:<8}  {:<28}  {:<10}  {:>5}  {:>5}  {}{}",
                d.doc_id,
                d.doc_type.as_str(),
                company,
                d.period_end_date.clone().unwrap_or_default(),
                d.node_count,
                if d.page_count > 0 {
                    d.page_count.to_string()
                } else {
                    "-".to_string()
                },
                one_line(&d.doc_name),
                match d.warnings.len() {
                    0 => String::new(),
                    n => format!(
                        "  ({n} warning{}: docindex tree shows them)",
                        if n == 1 { "" } else { "s" }
                    ),
                }
            )?;
        }
    }
    Ok(0)
}

/// A document's tree: ids, titles, spans, pages, tokens and section kinds.
pub fn tree(session: &Session, doc: &str) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let document = session.library.document(doc)?;
    if session.json {
        writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&export::native(&document, false))?
        )?;
    } else {
        writeln!(
            out,
            "{} — {} ({})",
            document.doc_id,
            one_line(&document.doc_name),
            document.doc_type.as_str()
        )?;
        for warning in &document.warnings {
            writeln!(out, "warning: {warning}")?;
        }
        for n in &document.nodes {
            let pages = match page_range((n.start_page, n.end_page)) {
                p if p.is_empty() => p,
                p => format!(" {p}"),
            };
            let kind = match &n.financial {
                Some(f) => match f.note_number {
                    Some(number) => format!("  <{} {number}>", f.kind.as_str()),
                    None => format!("  <{}>", f.kind.as_str()),
                },
                None => String::new(),
            };
            writeln!(
                out,
                "{}{}  {}  [{}..{}]{}  {} tokens{kind}",
                "  ".repeat(n.level as usize),
                n.node_id,
                n.title,
                n.span.start_char,
                n.span.end_char,
                pages,
                n.token_count
            )?;
        }
    }
    Ok(0)
}

/// Exactly the text of one node.
pub fn show(session: &Session, doc: &str, node_id: &str) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let text = session.library.node_text(doc, node_id)?;
    if session.json {
        writeln!(
            out,
            "{}",
            serde_json::json!({"node_id": node_id, "text": text})
        )?;
    } else {
        write!(out, "{text}")?;
        if !text.ends_with('\n') {
            writeln!(out)?;
        }
    }
    Ok(0)
}

/// A document's index as JSON, ours or PageIndex's shape.
pub fn export(session: &Session, args: ExportArgs) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let document = session.library.document(&args.doc)?;
    let value = match args.format {
        ExportFormat::Native => export::native(&document, args.with_text),
        ExportFormat::Pageindex => export::pageindex(&document, args.with_text),
    };
    let json = serde_json::to_string_pretty(&value)?;
    match args.output {
        Some(path) => std::fs::write(&path, json)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => writeln!(out, "{json}")?,
    }
    Ok(0)
}

/// Remove a document (and everything derived from it).
pub fn remove(session: &mut Session, doc: &str) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let existed = session.library.remove(doc)?;
    writeln!(out, "{}", if existed { "removed" } else { "not found" })?;
    Ok(0)
}

/// A document's links and where each one leads.
pub fn links(session: &Session, doc: &str) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    let checks = session.library.check_links(doc)?;
    if session.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&checks)?)?;
    } else {
        for c in &checks {
            let status = match &c.status {
                LinkStatus::Internal { node_id } => {
                    format!("internal → node {}", node_id.as_deref().unwrap_or("?"))
                }
                LinkStatus::InLibrary { doc_id, doc_name } => {
                    format!("in library → {doc_id} ({})", one_line(doc_name))
                }
                LinkStatus::Absent => "ABSENT from the library".to_string(),
            };
            let page = c.page.map(|p| format!(" p.{p}")).unwrap_or_default();
            writeln!(
                out,
                "[{}..{}]{page}  {}  {}  {status}",
                c.span.start_char, c.span.end_char, c.text, c.href
            )?;
        }
        let absent = checks
            .iter()
            .filter(|c| c.status == LinkStatus::Absent)
            .count();
        writeln!(
            out,
            "{} links, {absent} to documents not in the library",
            checks.len()
        )?;
    }
    Ok(0)
}

/// Saved answers and reports, or one of them reopened with its spans checked again.
pub fn saved(session: &Session, id: Option<i64>) -> Result<i32> {
    let mut out = std::io::stdout().lock();
    match id {
        None => {
            let entries = session.library.saved_list()?;
            if session.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&entries)?)?;
            } else {
                for e in entries {
                    writeln!(
                        out,
                        "#{:<5} {}  {:<10}  {}",
                        e.id, e.created_at, e.kind, e.title
                    )?;
                }
            }
        }
        Some(id) => {
            let saved = session.library.reopen(id)?;
            writeln!(out, "{}", serde_json::to_string_pretty(&saved)?)?;
            if !saved.stale.is_empty() {
                eprintln!(
                    "warning: {} span(s) no longer match the library (document removed or replaced)",
                    saved.stale.len()
                );
            }
        }
    }
    Ok(0)
}
