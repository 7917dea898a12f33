//! `docindex`: the command-line shell over the application layer. `main` parses the
//! command line, opens the library and dispatches to one function per verb (`verbs/`);
//! arguments live in `args.rs`, terminal output in `print.rs` and `progress.rs`.

mod args;
mod bench;
mod print;
mod progress;
mod verbs;

use anyhow::Result;
use args::{Cli, Command};
use clap::Parser;
use docindex_app::{default_library_dir, AppError, CacheChoice, Library, ModelConfig};
use docindex_core::structure::TreeSettings;
use docindex_core::{Fault, IndexSettings};
use std::path::PathBuf;

/// What every verb works with: the open library, where it lives, and the output mode.
pub struct Session {
    pub library: Library,
    pub dir: PathBuf,
    pub json: bool,
}

fn model_config(cli: &Cli) -> Result<Option<ModelConfig>> {
    match (&cli.model, cli.offline) {
        (Some(m), false) if !m.trim().is_empty() => {
            let mut config = ModelConfig::new(m);
            config.cache = CacheChoice::parse(&cli.cache)?;
            config.ttls.llm = std::time::Duration::from_secs(cli.llm_cache_ttl);
            if let Some(concurrency) = cli.llm_concurrency {
                config.options.concurrency = concurrency.max(1);
                config.provider.max_in_flight = Some(concurrency.max(1));
            }
            Ok(Some(config))
        }
        _ => Ok(None),
    }
}

fn run(cli: Cli) -> Result<i32> {
    let settings = IndexSettings {
        tree: TreeSettings {
            max_node_tokens: cli.max_node_tokens,
        },
        max_bytes: cli.max_bytes,
        max_pdf_inflation: cli.max_pdf_inflation,
        max_pdf_seconds: cli.max_pdf_seconds,
        ..IndexSettings::default()
    };
    let model = model_config(&cli)?;
    if let Command::Bench(args) = &cli.command {
        if args.search {
            let dir = cli.library.clone().unwrap_or_else(default_library_dir);
            let mut library = Library::open(&dir, settings)?;
            library.set_embedder_choice(cli.embedder);
            // Measured as the app searches: many times in one process.
            library.map_reads()?;
            return bench::search(&library, args.repeat);
        }
        if let Some(topic) = &args.provenance {
            let dir = cli.library.clone().unwrap_or_else(default_library_dir);
            let mut library = Library::open(&dir, settings)?;
            library.set_embedder_choice(cli.embedder);
            library.map_reads()?;
            return bench::provenance(&library, topic);
        }
        if args.embed {
            return bench::embedding(&args.paths, settings);
        }
        if args.scaling {
            return bench::scaling(&args.paths, settings);
        }
        if args.pages {
            return bench::pages(&args.paths, settings);
        }
        return bench::run(
            &args.paths,
            args.headings,
            args.jobs,
            args.repeat,
            settings,
            model.as_ref(),
        );
    }
    let dir = cli.library.clone().unwrap_or_else(default_library_dir);
    // A verb that only reads the library does not make one where none is: a mistyped
    // folder is named, not filled with an empty library.
    if reads_only(&cli.command) && !dir.exists() {
        return Err(UserInputError(format!(
            "no library at {}: index a filing into it first (docindex --library {} index FILE)",
            dir.display(),
            dir.display()
        ))
        .into());
    }
    let mut library = Library::open(&dir, settings)?;
    library.vote_weights = cli.vote_weights;
    library.set_embedder_choice(cli.embedder);
    library.set_vector_store(docindex_app::vectors::open_vector_store(&cli.vectors)?);
    let uses_model = matches!(
        cli.command,
        Command::Index(_)
            | Command::Import(_)
            | Command::Enhance { .. }
            | Command::Ask(_)
            | Command::Search(_)
            | Command::Provenance(_)
            | Command::Eval(_)
            | Command::Mcp
    );
    if let (Some(config), true) = (&model, uses_model) {
        library.set_model(config)?;
    }
    if let Command::Mcp = cli.command {
        // A server answers many searches: read as the app does.
        library.map_reads()?;
        // stdout is the protocol's from here on: nothing else may print to it.
        docindex_mcp::serve_stdio(library)?;
        return Ok(0);
    }
    let mut session = Session {
        library,
        dir,
        json: cli.json,
    };
    let s = &mut session;
    match cli.command {
        Command::Index(args) => verbs::index::index(s, args),
        Command::Import(args) => verbs::index::import(s, args),
        Command::Embed => verbs::index::embed(s),
        Command::Enhance { doc } => verbs::index::enhance(s, &doc),
        Command::List => verbs::documents::list(s),
        Command::Tree { doc } => verbs::documents::tree(s, &doc),
        Command::Show { doc, node_id } => verbs::documents::show(s, &doc, &node_id),
        Command::Export(args) => verbs::documents::export(s, args),
        Command::Remove { doc } => verbs::documents::remove(s, &doc),
        Command::Links { doc } => verbs::documents::links(s, &doc),
        Command::Saved { id } => verbs::documents::saved(s, id),
        Command::Search(args) => verbs::query::search(s, args),
        Command::Ask(args) => verbs::query::ask(s, args),
        Command::Provenance(args) => verbs::provenance::run(s, args),
        Command::Eval(args) => verbs::eval::run(s, args),
        Command::Bench(_) | Command::Mcp => unreachable!("handled before the session"),
    }
}

/// Whether `command` only reads the library (it has nothing to answer from an empty one).
fn reads_only(command: &Command) -> bool {
    matches!(
        command,
        Command::Ask(_)
            | Command::Search(_)
            | Command::Provenance(_)
            | Command::Eval(_)
            | Command::Tree { .. }
            | Command::Show { .. }
            | Command::Export(_)
            | Command::Remove { .. }
            | Command::Links { .. }
            | Command::Saved { .. }
            | Command::Enhance { .. }
    )
}

pub fn exit_code(fault: Fault) -> i32 {
    match fault {
        Fault::User => 1,
        Fault::Runtime => 3,
        Fault::Bug => 4,
    }
}

/// A fault in what the user asked of the CLI itself (an output path that cannot be
/// written), reported with exit code 1 like the library's input errors.
#[derive(Debug)]
pub struct UserInputError(pub String);

impl std::fmt::Display for UserInputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UserInputError {}

/// Whether an error is stdout closed under us (`docindex tree DOC | head`).
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn main() {
    // Warnings (retries, dropped model replies) go to stderr, inside the span of the file
    // they concern; DOCINDEX_LOG=info shows each stage's time, debug and trace more.
    let filter = tracing_subscriber::EnvFilter::try_from_env("DOCINDEX_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colour only for a person at a terminal: piped warnings stay plain text.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .without_time()
        .init();
    // A command line it cannot read is the user's to fix: exit 1, as for bad input
    // (clap's own code is 2); help and the version print and exit 0.
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => {
            let code = match err.use_stderr() {
                true => exit_code(Fault::User),
                false => 0,
            };
            // Printing can only fail on a closed stream, where nothing more can be said.
            let _ = err.print();
            std::process::exit(code);
        }
    };
    match run(cli) {
        Ok(code) => std::process::exit(code),
        // The reader went away: what it wanted is printed, as with ripgrep.
        Err(err) if is_broken_pipe(&err) => std::process::exit(0),
        Err(err) => {
            eprintln!("error: {err:#}");
            let code = match err.downcast_ref::<AppError>() {
                Some(e) => exit_code(e.fault()),
                None if err.downcast_ref::<UserInputError>().is_some() => exit_code(Fault::User),
                None => 3,
            };
            std::process::exit(code);
        }
    }
}
