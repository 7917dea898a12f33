//! `docindex`: the command-line shell over the application layer. Each verb parses its
//! arguments, calls one application function and prints the result (JSON on request).

mod bench;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand, ValueEnum};
use docindex_app::ask::AskEvent;
use docindex_app::eval::provenance::ProvenanceCase;
use docindex_app::eval::{AnswerRow, EvalQuestion, EvalRow, Method, METHODS};
use docindex_app::links::LinkStatus;
use docindex_app::provenance::{self, ProvenanceEvent};
use docindex_app::search::{self, SearchRequest, SearchResults};
use docindex_app::{
    default_library_dir, export, AppError, CacheChoice, IndexEvent, IndexOutcome, Library,
    ModelConfig,
};
use docindex_core::model::DocType;
use docindex_core::provenance::ScanOptions;
use docindex_core::qa::ConfidenceLabel;
use docindex_core::search::Fusion;
use docindex_core::structure::TreeSettings;
use docindex_core::{Fault, IndexSettings, LlmEnhancement};
use indicatif::{MultiProgress, ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

#[derive(Parser)]
#[command(
    name = "docindex",
    version,
    about = "Index financial filings into exact-span section trees"
)]
struct Cli {
    /// Library folder (default: $DOCINDEX_LIBRARY, else the OS data directory).
    #[arg(long, global = true)]
    library: Option<PathBuf>,
    /// Print machine-readable JSON.
    #[arg(long, global = true)]
    json: bool,
    /// Split nodes larger than this many tokens.
    #[arg(long, global = true, default_value_t = TreeSettings::default().max_node_tokens)]
    max_node_tokens: usize,
    /// Refuse files larger than this many bytes.
    #[arg(long, global = true, default_value_t = IndexSettings::default().max_bytes)]
    max_bytes: u64,
    /// Language model for LLM-enhanced indexing, LiteLLM style: openai/gpt-4o,
    /// anthropic/claude-sonnet-4-5, azure/<deployment>, bedrock/<model id>, ollama/<model>,
    /// hosted_vllm/<model>. Keys and base URLs come from the usual environment variables
    /// (OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, AZURE_API_KEY, AZURE_API_BASE,
    /// AWS_*, OLLAMA_HOST).
    #[arg(long, global = true, env = "DOCINDEX_MODEL")]
    model: Option<String>,
    /// Ignore --model and DOCINDEX_MODEL: offline engine only.
    #[arg(long, global = true)]
    offline: bool,
    /// Cache of model replies: sqlite (in the library), memory, none, or a redis:// URL.
    #[arg(long, global = true, env = "DOCINDEX_CACHE", default_value = "sqlite")]
    cache: String,
    /// Seconds a cached model reply stays valid.
    #[arg(
        long,
        global = true,
        env = "DOCINDEX_LLM_CACHE_TTL",
        default_value_t = 3600
    )]
    llm_cache_ttl: u64,
    /// Model requests in flight at once (per file and per provider).
    #[arg(
        long,
        global = true,
        env = "DOCINDEX_LLM_CONCURRENCY",
        default_value_t = 4
    )]
    llm_concurrency: usize,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, ValueEnum)]
enum FusionArg {
    Rrf,
    Minmax,
}

#[derive(Clone, Copy, ValueEnum)]
enum ExportFormat {
    Native,
    Pageindex,
}

#[derive(Subcommand)]
enum Command {
    /// Index files (HTML, text, Markdown) into the library.
    Index {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        /// Files indexed in parallel.
        #[arg(long, default_value_t = default_jobs())]
        jobs: usize,
        /// Leave the embedding stage for later (`docindex embed`); BM25 search works at once.
        #[arg(long, env = "DOCINDEX_SKIP_EMBED")]
        skip_embed: bool,
    },
    /// Compute the local embeddings of every document that has none yet (dense search).
    Embed,
    /// List saved answers and provenance reports, or reopen one by id (its spans are
    /// checked against the library again).
    Saved { id: Option<i64> },
    /// Answer a question with cited, verified excerpts (offline engine), streamed.
    Ask {
        question: String,
        /// Only this document (id, name, stem or id prefix).
        #[arg(long)]
        doc: Option<String>,
        /// Only documents of this company (name substring or ticker).
        #[arg(long)]
        company: Option<String>,
        #[arg(long)]
        year: Option<i32>,
    },
    /// Every section that discusses a topic, with verbatim excerpts: all sections are read.
    Provenance {
        topic: String,
        /// Only this document (id, name, stem or id prefix).
        #[arg(long)]
        doc: Option<String>,
        /// Only documents of this company (name substring or ticker).
        #[arg(long)]
        company: Option<String>,
        #[arg(long)]
        year: Option<i32>,
        /// Sections below this relevance (0..1) are left out.
        #[arg(long, default_value_t = ScanOptions::default().threshold)]
        threshold: f64,
        /// Excerpts printed per section (the JSON and the CSV hold all of them).
        #[arg(long, default_value_t = 3)]
        excerpts: usize,
        /// Write the report as CSV (one row per excerpt) to this file.
        #[arg(long)]
        csv: Option<PathBuf>,
    },
    /// Retrieval quality on a question set with known evidence: our search against BM25 and
    /// MiniLM over fixed 1,000-character chunks, each cut to the same token budget. Given a
    /// provenance set (topics with hand-marked sentences), precision and recall per topic.
    Eval {
        questions: PathBuf,
        #[arg(long, default_value_t = 2000)]
        budget: usize,
        /// Leave out the MiniLM baseline (it embeds every 1,000-character chunk).
        #[arg(long)]
        skip_minilm: bool,
    },
    /// List the documents in the library.
    List,
    /// Show a document's tree: ids, titles and spans.
    Tree { doc: String },
    /// Print exactly the text of one node.
    Show { doc: String, node_id: String },
    /// Export a document's index as JSON.
    Export {
        doc: String,
        #[arg(long, value_enum, default_value = "native")]
        format: ExportFormat,
        /// Include the canonical text and each node's text.
        #[arg(long)]
        with_text: bool,
        /// Write to this file instead of standard output.
        #[arg(long, short)]
        output: Option<PathBuf>,
    },
    /// Remove a document from the library.
    Remove { doc: String },
    /// Find the sections related to a query (BM25 + titles + local embeddings, fused).
    Search {
        query: String,
        /// Only this document (id, name, stem or id prefix).
        #[arg(long)]
        doc: Option<String>,
        /// Only documents of this company (name substring or ticker).
        #[arg(long)]
        company: Option<String>,
        /// Only documents of this fiscal year.
        #[arg(long)]
        year: Option<i32>,
        /// Only documents of this type (10-K, 10-Q, 8-K, …).
        #[arg(long = "type")]
        doc_type: Option<String>,
        #[arg(long, default_value_t = 10)]
        limit: usize,
        /// How the legs are combined.
        #[arg(long, value_enum, default_value = "minmax")]
        fusion: FusionArg,
    },
    /// List a document's links: internal ones with the section they reach, external ones
    /// with the library document they point at, or ABSENT.
    Links { doc: String },
    /// Index files into a scratch library and print throughput figures.
    Bench {
        #[arg(required = true)]
        paths: Vec<PathBuf>,
        #[arg(long, default_value_t = default_jobs())]
        jobs: usize,
        /// Repetitions of the single-threaded per-file measurement.
        #[arg(long, default_value_t = 3)]
        repeat: usize,
    },
}

/// One bar for the batch and one per file in flight, showing its current stage.
struct FileBars {
    multi: MultiProgress,
    overall: ProgressBar,
    files: Mutex<HashMap<PathBuf, ProgressBar>>,
    quiet: bool,
}

impl FileBars {
    fn new(count: usize, quiet: bool) -> Self {
        let multi = MultiProgress::new();
        let overall = multi.add(ProgressBar::new(count as u64));
        overall.set_style(
            ProgressStyle::with_template("{spinner} files [{bar:30}] {pos}/{len}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        FileBars {
            multi,
            overall,
            files: Mutex::new(HashMap::new()),
            quiet,
        }
    }

    fn file_bar(&self, path: &Path) -> ProgressBar {
        let mut files = self.files.lock().unwrap_or_else(|p| p.into_inner());
        files
            .entry(path.to_path_buf())
            .or_insert_with(|| {
                let bar = self.multi.add(ProgressBar::new(1));
                bar.set_style(
                    ProgressStyle::with_template("  {prefix:<32} {msg:<10} [{bar:20}] {pos}/{len}")
                        .unwrap_or_else(|_| ProgressStyle::default_bar()),
                );
                let name: String = path
                    .file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default()
                    .chars()
                    .take(32)
                    .collect();
                bar.set_prefix(name);
                bar
            })
            .clone()
    }

    fn on_event(&self, event: &IndexEvent) {
        match event {
            IndexEvent::Started { path } => {
                self.file_bar(path);
            }
            IndexEvent::Progress {
                path,
                stage,
                done,
                total,
            } => {
                let bar = self.file_bar(path);
                bar.set_message(format!("{stage:?}").to_lowercase());
                bar.set_length((*total).max(1));
                bar.set_position(*done);
            }
            IndexEvent::Message { path, stage, text } => {
                let bar = self.file_bar(path);
                bar.set_message(format!("{stage:?}").to_lowercase());
                log::info!("{}: {text}", path.display());
            }
            IndexEvent::Finished { report } => {
                if let Some(bar) = self
                    .files
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .remove(&report.path)
                {
                    bar.finish_and_clear();
                    self.multi.remove(&bar);
                }
                self.overall.inc(1);
                if self.quiet {
                    return;
                }
                let line = match &report.result {
                    Ok(IndexOutcome::Indexed {
                        document,
                        chunks,
                        millis,
                        replaced,
                        enhancement,
                        ..
                    }) => format!(
                        "indexed  {}  {}  {} ({}), {} nodes, {} chunks, {} ms{}{}",
                        document.doc_id,
                        document.doc_name,
                        document.doc_type.as_str(),
                        document
                            .company_name
                            .as_deref()
                            .unwrap_or("unknown company"),
                        document.node_count,
                        chunks,
                        millis,
                        replaced
                            .as_ref()
                            .map(|r| format!(", replaced {r}"))
                            .unwrap_or_default(),
                        enhancement.as_ref().map(llm_line).unwrap_or_default()
                    ),
                    Ok(IndexOutcome::Unchanged { document }) => {
                        format!("unchanged {}  {}", document.doc_id, document.doc_name)
                    }
                    Err(e) => format!("failed   {e}"),
                };
                self.multi.suspend(|| eprintln!("{line}"));
            }
        }
    }

    fn finish(&self) {
        self.overall.finish_and_clear();
    }
}

/// Run the embedding stage with a bar; a missing model is a note, not a failure.
fn embed_stage(library: &mut Library, quiet: bool) {
    let bar = ProgressBar::new(1);
    bar.set_style(
        ProgressStyle::with_template("  embedding {msg:<32} [{bar:20}] {pos}/{len}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let result = library.embed_pending(&|done, total, name| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        bar.set_message(name.chars().take(32).collect::<String>());
    });
    bar.finish_and_clear();
    match result {
        Ok(report) if report.documents > 0 && !quiet => eprintln!(
            "embedded {} chunks of {} document(s) in {} ms",
            report.chunks, report.documents, report.millis
        ),
        Ok(_) => {}
        Err(e) => eprintln!("note: dense search unavailable ({e}); BM25 search works"),
    }
}

/// ` p.3` or ` pp.3-5` for a page range, empty without pages.
fn page_range(pages: (Option<u32>, Option<u32>)) -> String {
    match pages {
        (Some(a), Some(b)) if a == b => format!(" p.{a}"),
        (Some(a), Some(b)) => format!(" pp.{a}-{b}"),
        _ => String::new(),
    }
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
    for row in answers.iter().filter(|r| !r.cites_evidence) {
        writeln!(out, "ask (offline) missed: {}", row.question)?;
    }
    let cited = answers.iter().filter(|r| r.cites_evidence).count();
    writeln!(
        out,
        "ask (offline): {cited}/{} answers cite the evidence",
        answers.len()
    )?;
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

fn print_search(out: &mut impl Write, results: &SearchResults) -> Result<()> {
    for note in &results.notes {
        writeln!(out, "note: {note}")?;
    }
    if results.hits.is_empty() {
        writeln!(out, "No section matches '{}'.", results.query)?;
    }
    for (i, hit) in results.hits.iter().enumerate() {
        let pages = page_range((hit.start_page, hit.end_page));
        writeln!(
            out,
            "{:>2}. {:.2}  {} {}  {}{}  [{}..{}]",
            i + 1,
            hit.score,
            hit.doc_name,
            hit.node_id,
            hit.path,
            pages,
            hit.start_char,
            hit.end_char
        )?;
        writeln!(out, "      {}", hit.reason)?;
        for e in &hit.excerpts {
            let text: String = e.text.chars().take(220).collect();
            writeln!(out, "      [{}..{}] {text}", e.start_char, e.end_char)?;
        }
    }
    Ok(())
}

fn llm_line(e: &LlmEnhancement) -> String {
    format!(
        "\n         {}: {} calls ({} cached), {} prompt + {} completion tokens; {} summaries, \
         {} headings added ({} rejected), {} cross-references resolved, {} unknown ids dropped{}",
        e.model,
        e.usage.calls,
        e.usage.cache_hits,
        e.usage.prompt_tokens,
        e.usage.completion_tokens,
        e.summaries_written,
        e.headings_added,
        e.headings_rejected,
        e.xrefs_resolved,
        e.unknown_ids_dropped,
        if e.metadata_filled.is_empty() {
            String::new()
        } else {
            format!("; filled {}", e.metadata_filled.join(", "))
        }
    )
}

fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

fn exit_code(fault: Fault) -> i32 {
    match fault {
        Fault::User => 1,
        Fault::Runtime => 3,
        Fault::Bug => 4,
    }
}

fn main() {
    // Warnings (retries, dropped model replies) go to stderr; DOCINDEX_LOG=debug shows more.
    env_logger::Builder::from_env(env_logger::Env::default().filter_or("DOCINDEX_LOG", "warn"))
        .format_timestamp(None)
        .init();
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => std::process::exit(code),
        Err(err) => {
            eprintln!("error: {err:#}");
            let code = err
                .downcast_ref::<AppError>()
                .map(|e| exit_code(e.fault()))
                .unwrap_or(3);
            std::process::exit(code);
        }
    }
}

fn run(cli: Cli) -> Result<i32> {
    let settings = IndexSettings {
        tree: TreeSettings {
            max_node_tokens: cli.max_node_tokens,
        },
        max_bytes: cli.max_bytes,
        ..IndexSettings::default()
    };
    let model = match (&cli.model, cli.offline) {
        (Some(m), false) if !m.trim().is_empty() => {
            let mut config = ModelConfig::new(m);
            config.cache = CacheChoice::parse(&cli.cache)?;
            config.ttls.llm = std::time::Duration::from_secs(cli.llm_cache_ttl);
            config.options.concurrency = cli.llm_concurrency.max(1);
            config.provider.max_in_flight = Some(cli.llm_concurrency.max(1));
            Some(config)
        }
        _ => None,
    };
    if let Command::Bench {
        paths,
        jobs,
        repeat,
    } = &cli.command
    {
        return bench::run(paths, *jobs, *repeat, settings, model.as_ref());
    }
    let dir = cli.library.clone().unwrap_or_else(default_library_dir);
    let mut library = Library::open(&dir, settings)?;
    if let (
        Some(config),
        Command::Index { .. }
        | Command::Ask { .. }
        | Command::Search { .. }
        | Command::Provenance { .. },
    ) = (&model, &cli.command)
    {
        library.set_model(config)?;
    }
    let mut out = std::io::stdout().lock();
    match cli.command {
        Command::Index {
            paths,
            jobs,
            skip_embed,
        } => {
            let bars = FileBars::new(paths.len(), cli.json);
            // Ctrl-C cancels: files in progress stop at their next stage and store nothing.
            let cancel = library.cancel_flag();
            let _ = ctrlc::set_handler(move || {
                cancel.store(true, std::sync::atomic::Ordering::SeqCst);
            });
            let on_event = |event: IndexEvent| bars.on_event(&event);
            let reports = library.index_paths(&paths, jobs, &on_event)?;
            bars.finish();
            // The embedding stage: the documents are already readable and searchable by
            // BM25; dense search joins when this is done.
            if !skip_embed {
                embed_stage(&mut library, cli.json);
            }
            let failed = reports.iter().filter(|r| r.result.is_err()).count();
            if cli.json {
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
                return Ok(worst);
            }
        }
        Command::List => {
            let docs = library.list()?;
            if cli.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&docs)?)?;
            } else if docs.is_empty() {
                writeln!(
                    out,
                    "The library at {} is empty; add filings with `docindex index FILE…`.",
                    dir.display()
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
                        "{:<12}  {:<8}  {:<28}  {:<10}  {:>5}  {:>5}  {}",
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
                        d.doc_name
                    )?;
                }
            }
        }
        Command::Tree { doc } => {
            let document = library.document(&doc)?;
            if cli.json {
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
                    document.doc_name,
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
        }
        Command::Show { doc, node_id } => {
            let text = library.node_text(&doc, &node_id)?;
            if cli.json {
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
        }
        Command::Export {
            doc,
            format,
            with_text,
            output,
        } => {
            let document = library.document(&doc)?;
            let value = match format {
                ExportFormat::Native => export::native(&document, with_text),
                ExportFormat::Pageindex => export::pageindex(&document, with_text),
            };
            let json = serde_json::to_string_pretty(&value)?;
            match output {
                Some(path) => std::fs::write(&path, json)
                    .with_context(|| format!("cannot write {}", path.display()))?,
                None => writeln!(out, "{json}")?,
            }
        }
        Command::Search {
            query,
            doc,
            company,
            year,
            doc_type,
            limit,
            fusion,
        } => {
            let mut request = SearchRequest::new(&query);
            request.doc = doc;
            request.company = company;
            request.fiscal_year = year;
            request.doc_type = match doc_type {
                Some(t) => Some(DocType::parse(&t).ok_or_else(|| search::unknown_doc_type(&t))?),
                None => None,
            };
            request.limit = limit;
            request.use_model = library.model().is_some();
            request.fusion = match fusion {
                FusionArg::Rrf => Fusion::Rrf,
                FusionArg::Minmax => Fusion::MinMax,
            };
            let results = library.search(&request)?;
            if cli.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&results)?)?;
            } else {
                print_search(&mut out, &results)?;
            }
        }
        Command::Embed => embed_stage(&mut library, cli.json),
        Command::Saved { id: None } => {
            let entries = library.saved_list()?;
            if cli.json {
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
        Command::Saved { id: Some(id) } => {
            let saved = library.reopen(id)?;
            writeln!(out, "{}", serde_json::to_string_pretty(&saved)?)?;
            if !saved.stale.is_empty() {
                eprintln!(
                    "warning: {} span(s) no longer match the library (document removed or replaced)",
                    saved.stale.len()
                );
            }
        }
        Command::Ask {
            question,
            doc,
            company,
            year,
        } => {
            let mut scope = SearchRequest::new(&question);
            scope.doc = doc;
            scope.company = company;
            scope.fiscal_year = year;
            let quiet = cli.json;
            let answer = library.ask(&question, &scope, &|event| {
                if quiet {
                    return;
                }
                match event {
                    AskEvent::Step(step) => eprintln!("  · {step}"),
                    AskEvent::Token(token) => {
                        print!("{token}");
                        let _ = std::io::stdout().flush();
                    }
                }
            })?;
            let saved_id = library.save_answer(&answer)?;
            if cli.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&answer)?)?;
            } else {
                writeln!(out)?;
                eprintln!("  · saved as #{saved_id} (docindex saved {saved_id})");
                writeln!(
                    out,
                    "confidence: {:?} ({:.2}); {} source section(s)",
                    answer.confidence.label,
                    answer.confidence.score,
                    answer.confidence.source_nodes
                )?;
                for c in &answer.citations {
                    let pages = page_range((c.start_page, c.end_page));
                    writeln!(
                        out,
                        "[{}] {} {} {}{} [{}..{}]",
                        c.marker, c.doc_name, c.node_id, c.title, pages, c.start_char, c.end_char
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
        }
        Command::Provenance {
            topic,
            doc,
            company,
            year,
            threshold,
            excerpts,
            csv,
        } => {
            let mut scope = SearchRequest::new(&topic);
            scope.use_model = library.model().is_some();
            scope.doc = doc;
            scope.company = company;
            scope.fiscal_year = year;
            let options = ScanOptions {
                threshold,
                ..ScanOptions::default()
            };
            let bar = ProgressBar::new(1);
            bar.set_style(
                ProgressStyle::with_template("  scanning [{bar:30}] {pos}/{len} sections, {msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            let hits = std::sync::atomic::AtomicUsize::new(0);
            let report = library.provenance(&topic, &scope, options, &|event| match event {
                ProvenanceEvent::Progress { done, total } => {
                    bar.set_length(total as u64);
                    bar.set_position(done as u64);
                }
                ProvenanceEvent::Hit(_) => {
                    let n = hits.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                    bar.set_message(format!("{n} with evidence"));
                }
            })?;
            bar.finish_and_clear();
            let saved_id = library.save_report(&report)?;
            if !cli.json {
                eprintln!("saved as #{saved_id} (docindex saved {saved_id})");
            }
            if let Some(path) = csv {
                std::fs::write(&path, provenance::to_csv(&report)?)
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            if cli.json {
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
                    if c.semantic { ", by words and meaning" } else { ", by words" }
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
                        e.relevance, e.doc_name, e.node_id, e.path, pages, e.reason
                    )?;
                    for x in e.excerpts.iter().take(excerpts) {
                        let text: String = x.text.chars().take(200).collect();
                        writeln!(
                            out,
                            "      {:.2} [{}..{}] {text}  ({})",
                            x.relevance, x.start_char, x.end_char, x.reason
                        )?;
                    }
                    if e.excerpts.len() > excerpts {
                        writeln!(
                            out,
                            "      … {} more (all in --json and --csv)",
                            e.excerpts.len() - excerpts
                        )?;
                    }
                }
            }
        }
        Command::Eval {
            questions,
            budget,
            skip_minilm,
        } => {
            let text = std::fs::read_to_string(&questions)
                .with_context(|| format!("cannot read {}", questions.display()))?;
            if let Ok(cases) = serde_json::from_str::<Vec<ProvenanceCase>>(&text) {
                eval_provenance(&library, &cases, cli.json, &mut out)?;
                return Ok(0);
            }
            let questions: Vec<EvalQuestion> = serde_json::from_str(&text).with_context(|| {
                format!(
                    "{}: neither a question list nor a provenance set",
                    questions.display()
                )
            })?;
            let rows = library.evaluate(&questions, budget, !skip_minilm, &|done, total| {
                eprint!("\r  evaluating {done}/{total}");
            })?;
            eprintln!();
            if cli.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&rows)?)?;
            } else {
                print_eval(&mut out, &rows, budget)?;
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
            }
        }
        Command::Remove { doc } => {
            let existed = library.remove(&doc)?;
            writeln!(out, "{}", if existed { "removed" } else { "not found" })?;
        }
        Command::Links { doc } => {
            let checks = library.check_links(&doc)?;
            if cli.json {
                writeln!(out, "{}", serde_json::to_string_pretty(&checks)?)?;
            } else {
                for c in &checks {
                    let status = match &c.status {
                        LinkStatus::Internal { node_id } => {
                            format!("internal → node {}", node_id.as_deref().unwrap_or("?"))
                        }
                        LinkStatus::InLibrary { doc_id, doc_name } => {
                            format!("in library → {doc_id} ({doc_name})")
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
        }
        Command::Bench { .. } => unreachable!("handled above"),
    }
    Ok(0)
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
