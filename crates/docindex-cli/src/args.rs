//! The command line: global options, one argument struct per verb, and the scope flags
//! (`--doc`, `--company`, `--year`, `--type`) defined once for every verb that reads a scope.

use clap::builder::BoolishValueParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use docindex_app::search::{self, Scope, SearchRequest};
use docindex_app::AppError;
use docindex_core::model::DocType;
use docindex_core::provenance::ScanOptions;
use docindex_core::structure::TreeSettings;
use docindex_core::IndexSettings;
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "docindex",
    version,
    about = "Index financial filings into exact-span section trees"
)]
pub struct Cli {
    /// Library folder (default: $DOCINDEX_LIBRARY, else the OS data directory).
    #[arg(long, global = true)]
    pub library: Option<PathBuf>,
    /// Print machine-readable JSON.
    #[arg(long, global = true)]
    pub json: bool,
    /// Split nodes larger than this many tokens.
    #[arg(long, global = true, default_value_t = TreeSettings::default().max_node_tokens,
          value_parser = ranged(64, 1_000_000))]
    pub max_node_tokens: usize,
    /// Refuse files larger than this many bytes.
    #[arg(long, global = true, default_value_t = IndexSettings::default().max_bytes,
          value_parser = clap::value_parser!(u64).range(1..=MAX_FILE_BYTES))]
    pub max_bytes: u64,
    /// Refuse PDFs whose compressed streams (any filter spelling, images too) inflate past this many times the
    /// file's size (and past 16 MB): decompression bombs, refused before they are read.
    #[arg(long, global = true, default_value_t = IndexSettings::default().max_pdf_inflation,
          value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_pdf_inflation: u64,
    /// Stop reading a PDF after this many seconds (checked between pages).
    #[arg(long, global = true, default_value_t = IndexSettings::default().max_pdf_seconds,
          value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub max_pdf_seconds: u64,
    /// Language model for LLM-enhanced indexing, LiteLLM style: openai/gpt-4o,
    /// anthropic/claude-sonnet-4-5, azure/<deployment>, bedrock/<model id>, ollama/<model>,
    /// hosted_vllm/<model>. Keys and base URLs come from the usual environment variables
    /// (OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, AZURE_API_KEY, AZURE_API_BASE,
    /// AWS_*, OLLAMA_HOST).
    #[arg(long, global = true, env = "DOCINDEX_MODEL")]
    pub model: Option<String>,
    /// Ignore --model and DOCINDEX_MODEL: offline engine only.
    #[arg(long, global = true)]
    pub offline: bool,
    /// Cache of model replies: sqlite (in the library), memory, none, or a redis:// URL.
    #[arg(long, global = true, env = "DOCINDEX_CACHE", default_value = "sqlite")]
    pub cache: String,
    /// Seconds a cached model reply stays valid.
    #[arg(
        long,
        global = true,
        env = "DOCINDEX_LLM_CACHE_TTL",
        default_value_t = 3600,
        value_parser = clap::value_parser!(u64).range(0..=31_536_000)
    )]
    pub llm_cache_ttl: u64,
    /// Model requests in flight at once (per file and per provider); default 4, or 1 for a
    /// model served on this machine (it computes one reply at a time).
    #[arg(long, global = true, env = "DOCINDEX_LLM_CONCURRENCY", value_parser = ranged(1, 64))]
    pub llm_concurrency: Option<usize>,
    /// How a section's title/summary match and its text match count when files vote across
    /// the library (seed 002): `summary=1.5,text=1.0`.
    #[arg(
        long,
        global = true,
        env = "DOCINDEX_VOTE_WEIGHTS",
        default_value = "summary=1.5,text=1.0"
    )]
    pub vote_weights: docindex_core::search::voting::VoteWeights,
    /// Where chunk vectors for dense search live: sqlite (in the library) or a Chroma
    /// server a team shares, chroma://HOST:PORT[/PREFIX][?timeout=SECONDS]
    /// (chroma+https:// for TLS).
    #[arg(
        long,
        global = true,
        env = "DOCINDEX_VECTORS",
        default_value = "sqlite"
    )]
    pub vectors: String,
    /// The local model for dense search: distilled (a static table distilled from
    /// all-MiniLM-L6-v2, made once on first use) or minilm (the transformer itself, about
    /// a hundred times slower).
    #[arg(
        long,
        global = true,
        env = "DOCINDEX_EMBEDDER",
        default_value = "distilled"
    )]
    pub embedder: docindex_embed::EmbedderChoice,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Index files (HTML, PDF, text, Markdown; PageIndex tree JSON is imported) into the
    /// library.
    Index(IndexArgs),
    /// Import PageIndex tree JSON files (with or without node text) into the library,
    /// searchable and citable like indexed filings.
    Import(IndexArgs),
    /// Compute the local embeddings of every document that has none yet (dense search).
    Embed,
    /// Retry the LLM stages (summaries, profile, cross-references) a provider failed while
    /// indexing a document; needs --model.
    Enhance { doc: String },
    /// List saved answers and provenance reports, or reopen one by id (its spans are
    /// checked against the library again).
    Saved { id: Option<i64> },
    /// Answer a question with cited, verified excerpts (offline engine), streamed.
    Ask(AskArgs),
    /// Every section that discusses a topic, with verbatim excerpts: all sections are read.
    Provenance(ProvenanceArgs),
    /// Retrieval quality on a question set with known evidence: our search against BM25 and
    /// MiniLM over fixed 1,000-character chunks, each cut to the same token budget. Given a
    /// provenance set (topics with hand-marked sentences), precision and recall per topic.
    Eval(EvalArgs),
    /// List the documents in the library.
    List,
    /// Show a document's tree: ids, titles and spans.
    Tree { doc: String },
    /// Print exactly the text of one node.
    Show { doc: String, node_id: String },
    /// Export a document's index as JSON.
    Export(ExportArgs),
    /// Remove a document from the library.
    Remove { doc: String },
    /// Find the sections related to a query (BM25 + titles + local embeddings, fused).
    Search(SearchArgs),
    /// List a document's links: internal ones with the section they reach, external ones
    /// with the library document they point at, or ABSENT.
    Links { doc: String },
    /// Index files into a scratch library and print throughput figures.
    Bench(BenchArgs),
    /// Serve the library to agent hosts over the Model Context Protocol on stdin/stdout
    /// (tools: list_documents, get_tree, read_node, search, ask, provenance).
    Mcp,
}

#[derive(Args)]
pub struct IndexArgs {
    #[arg(required = true)]
    pub paths: Vec<PathBuf>,
    /// Files indexed in parallel.
    #[arg(long, default_value_t = default_jobs(), value_parser = ranged(1, MAX_JOBS))]
    pub jobs: usize,
    /// Leave the embedding stage for later (`docindex embed`); BM25 search works at once.
    /// DOCINDEX_SKIP_EMBED accepts 1/0, true/false, yes/no, on/off.
    #[arg(long, env = "DOCINDEX_SKIP_EMBED", value_parser = BoolishValueParser::new())]
    pub skip_embed: bool,
}

/// Which documents a verb reads; every flag narrows the library.
#[derive(Args, Clone, Default)]
pub struct ScopeArgs {
    /// Only this document (id, name, stem or id prefix).
    #[arg(long)]
    pub doc: Option<String>,
    /// Only documents of this company (name substring or ticker).
    #[arg(long)]
    pub company: Option<String>,
    /// Only documents of this fiscal year.
    #[arg(long, value_parser = clap::value_parser!(i32).range(1900..=2100))]
    pub year: Option<i32>,
    /// Only documents of this type (10-K, 10-Q, 8-K, …).
    #[arg(long = "type")]
    pub doc_type: Option<String>,
}

impl ScopeArgs {
    /// The application's scope.
    pub fn scope(&self) -> Result<Scope, AppError> {
        Ok(Scope {
            doc: self.doc.clone(),
            company: self.company.clone(),
            fiscal_year: self.year,
            doc_type: match &self.doc_type {
                Some(t) => Some(DocType::parse(t).ok_or_else(|| search::unknown_doc_type(t))?),
                None => None,
            },
        })
    }

    /// The application's request for `text` over this scope.
    pub fn request(&self, text: &str) -> Result<SearchRequest, AppError> {
        let mut request = SearchRequest::new(text);
        request.scope = self.scope()?;
        Ok(request)
    }
}

#[derive(Args)]
pub struct AskArgs {
    pub question: String,
    #[command(flatten)]
    pub scope: ScopeArgs,
}

#[derive(Args)]
pub struct ProvenanceArgs {
    pub topic: String,
    #[command(flatten)]
    pub scope: ScopeArgs,
    /// Excerpts below this relevance (0..1) are left out.
    #[arg(long, default_value_t = ScanOptions::default().threshold, value_parser = unit_interval)]
    pub threshold: f64,
    /// Excerpts printed per section (the JSON and the CSV hold all of them).
    #[arg(long, default_value_t = 3, value_parser = ranged(0, 10_000))]
    pub excerpts: usize,
    /// Write the report as CSV (one row per excerpt) to this file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

#[derive(Args)]
pub struct EvalArgs {
    pub questions: PathBuf,
    #[arg(long, default_value_t = 2000, value_parser = ranged(1, 1_000_000))]
    pub budget: usize,
    /// Leave out the MiniLM baseline (it embeds every 1,000-character chunk).
    #[arg(long)]
    pub skip_minilm: bool,
    /// A TOML file of floors by set file name (`["questions.json"] retrieval = 49,
    /// answers = 36, high_wrong = 2`): a set below its floor exits with status 2.
    #[arg(long)]
    pub floors: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum ExportFormat {
    Native,
    Pageindex,
}

#[derive(Args)]
pub struct ExportArgs {
    pub doc: String,
    #[arg(long, value_enum, default_value = "native")]
    pub format: ExportFormat,
    /// Include the canonical text and each node's text.
    #[arg(long)]
    pub with_text: bool,
    /// Write to this file instead of standard output.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum FusionArg {
    Rrf,
    Minmax,
}

#[derive(Args)]
pub struct SearchArgs {
    pub query: String,
    #[command(flatten)]
    pub scope: ScopeArgs,
    #[arg(long, default_value_t = 10, value_parser = ranged(1, MAX_RESULTS))]
    pub limit: usize,
    /// How the legs are combined.
    #[arg(long, value_enum, default_value = "minmax")]
    pub fusion: FusionArg,
    /// Rank files instead of sections: the best `--limit` sections vote for their files
    /// (seed 002), and the best `--top-files` files are listed with their sections.
    #[arg(long)]
    pub files: bool,
    /// Files listed with `--files`.
    #[arg(long, default_value_t = 5, value_parser = ranged(1, MAX_RESULTS))]
    pub top_files: usize,
}

#[derive(Args)]
pub struct BenchArgs {
    #[arg(required_unless_present_any = ["search", "provenance", "headings", "scaling"])]
    pub paths: Vec<PathBuf>,
    #[arg(long, default_value_t = default_jobs(), value_parser = ranged(1, MAX_JOBS))]
    pub jobs: usize,
    /// Add a row for a written Markdown file of this many numbered headings, nested six
    /// deep (building its tree must grow linearly: 100,000 headings is the row to watch).
    #[arg(long, value_name = "N", value_parser = ranged(1, 10_000_000))]
    pub headings: Option<usize>,
    /// Repetitions of the single-threaded per-file measurement.
    #[arg(long, default_value_t = 3, value_parser = ranged(1, 10_000))]
    pub repeat: usize,
    /// Measure the embedding stage instead: chunks/s, ms per file and peak memory of each
    /// local embedder on these files.
    #[arg(long)]
    pub embed: bool,
    /// Measure library-wide search in this process over the library (`--library`): p50
    /// and p95 over a fixed list of analyst queries, each run `--repeat` times.
    #[arg(long, conflicts_with = "embed")]
    pub search: bool,
    /// Measure provenance over the whole library (`--library`) for this topic: when the
    /// first hit streams, the whole scan, and its coverage.
    #[arg(long, value_name = "TOPIC", conflicts_with_all = ["embed", "search"])]
    pub provenance: Option<String>,
    /// Measure the page view on these PDFs: laying a document out again with its glyph
    /// boxes, and drawing each page (ms per page at 1× and 2× a 1000-pixel pane, PNG size).
    #[arg(long, conflicts_with_all = ["embed", "search", "provenance"])]
    pub pages: bool,
    /// Measure how indexing grows with size: each text, Markdown or HTML file repeated 1,
    /// 4 and 16 times over (and a written file of Part/Item lines, the shape that once grew
    /// with the square of its size), with the time per MB at each size.
    #[arg(long, conflicts_with_all = ["embed", "search", "provenance", "pages"])]
    pub scaling: bool,
}

/// Files a verb works on at once, at most: each holds a file's text and tree in memory.
const MAX_JOBS: u64 = 256;

/// Results a search lists, at most.
const MAX_RESULTS: u64 = 1_000;

/// The largest file `--max-bytes` may allow (16 GiB).
const MAX_FILE_BYTES: u64 = 16 << 30;

/// A count flag's parser: values outside `low..=high` are refused, the range named.
fn ranged(low: u64, high: u64) -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(low..=high)
}

/// A fraction from 0 to 1 (`--threshold`).
fn unit_interval(text: &str) -> Result<f64, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{text:?} is not a number"))?;
    match (0.0..=1.0).contains(&value) {
        true => Ok(value),
        false => Err(format!("{value} is not in 0..=1")),
    }
}

pub fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
        .min(MAX_JOBS as usize)
}
