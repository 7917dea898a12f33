//! `docindex mcp`: the library served to agent hosts (Claude Desktop, IDE agents) over the
//! Model Context Protocol on stdio, with the official Rust SDK (`rmcp`). Six tools read the
//! library: `list_documents`, `get_tree`, `read_node`, `search`, `ask` and `provenance`;
//! their arguments and results, with JSON schemas, live in `contract.rs`. A failure is a
//! tool error carrying the reason, never a protocol error or a crash, so the agent can read
//! it and try again.

pub mod contract;

use contract::{
    AskArgs, AskReply, DocumentList, DocumentRow, Filters, GetTreeArgs, NodeReading,
    ProvenanceArgs, ProvenanceReply, ReadNodeArgs, ScopeArgs, SearchArgs, SearchReply, Tree,
};
use docindex_app::saved::saved_unless_read_only;
use docindex_app::search::{unknown_doc_type, Scope, SearchRequest};
use docindex_app::{AppError, Library};
use docindex_core::model::DocType;
use docindex_core::provenance::ScanOptions;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::{tool, tool_handler, tool_router, Json, ServerHandler, ServiceExt};
use std::sync::{Arc, Mutex};
use thiserror::Error;

/// Why the server could not run; a tool's own failure is a tool error instead.
#[derive(Debug, Error)]
pub enum McpError {
    #[error("cannot start the MCP server's runtime: {0}")]
    Runtime(std::io::Error),
    #[error("the MCP session could not start: {0}")]
    Start(String),
    #[error("the MCP session ended with an error: {0}")]
    Session(String),
}

/// How many sections `search` returns unless asked, and at most.
const DEFAULT_HITS: usize = 10;
const MAX_HITS: usize = 50;
/// How many sections with evidence `provenance` returns unless asked, and at most.
const DEFAULT_SECTIONS: usize = 50;
const MAX_SECTIONS: usize = 500;

/// The library behind the tools. One tool call at a time reads it: SQLite and the loaded
/// indexes are not shared between threads.
#[derive(Clone)]
pub struct DocIndexServer {
    library: Arc<Mutex<Library>>,
    tool_router: ToolRouter<Self>,
}

/// Serve `library` on stdin and stdout until the host closes the pipe.
pub fn serve_stdio(library: Library) -> Result<(), McpError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(McpError::Runtime)?;
    runtime.block_on(async {
        let service = DocIndexServer::new(library)
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| McpError::Start(e.to_string()))?;
        service
            .waiting()
            .await
            .map_err(|e| McpError::Session(e.to_string()))?;
        Ok(())
    })
}

/// What a host reads when a tool fails: the reason, phrased for an agent.
fn tool_error(err: AppError) -> String {
    match err {
        AppError::UnknownDocument(doc) => {
            format!("not found: no document '{doc}' in this library (list_documents shows the ids)")
        }
        AppError::UnknownNode { doc, node } => {
            format!("not found: document {doc} has no node '{node}' (get_tree shows the ids)")
        }
        other => other.to_string(),
    }
}

fn scope_of(args: &ScopeArgs) -> Result<Scope, String> {
    Ok(Scope {
        doc: args.doc.clone().filter(|d| !d.trim().is_empty()),
        company: args
            .filters
            .company
            .clone()
            .filter(|c| !c.trim().is_empty()),
        fiscal_year: args.filters.year,
        doc_type: match args.filters.doc_type.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(t) => Some(DocType::parse(t).ok_or_else(|| unknown_doc_type(t).to_string())?),
        },
    })
}

fn request_for(text: &str, scope: &ScopeArgs, library: &Library) -> Result<SearchRequest, String> {
    if text.trim().is_empty() {
        return Err("the query is empty".to_string());
    }
    let mut request = SearchRequest::new(text);
    request.scope = scope_of(scope)?;
    request.use_model = library.model().is_some();
    if let Some(doc) = &request.scope.doc {
        // A document outside the library is "not found", not an empty answer.
        library.resolve(doc).map_err(tool_error)?;
    }
    Ok(request)
}

impl DocIndexServer {
    pub fn new(library: Library) -> Self {
        DocIndexServer {
            library: Arc::new(Mutex::new(library)),
            tool_router: Self::tool_router(),
        }
    }

    /// The tools as `tools/list` shows them: names, descriptions and both schemas.
    pub fn tools(&self) -> Vec<rmcp::model::Tool> {
        self.tool_router.list_all()
    }

    /// Run `work` on the library on a thread that may block (SQLite, scans), so the
    /// session keeps reading the host's messages.
    async fn with_library<T, F>(&self, work: F) -> Result<Json<T>, String>
    where
        T: Send + 'static,
        F: FnOnce(&Library) -> Result<T, String> + Send + 'static,
    {
        let library = Arc::clone(&self.library);
        let joined = tokio::task::spawn_blocking(move || {
            let library = library
                .lock()
                .map_err(|_| "the library is unusable after an earlier failure".to_string())?;
            work(&library)
        })
        .await;
        match joined {
            Ok(result) => result.map(Json),
            Err(e) => Err(format!("the tool failed unexpectedly (a bug): {e}")),
        }
    }
}

#[tool_router]
impl DocIndexServer {
    /// The documents in the library, optionally narrowed by company, fiscal year and type.
    #[tool(annotations(read_only_hint = true))]
    async fn list_documents(
        &self,
        Parameters(filters): Parameters<Filters>,
    ) -> Result<Json<DocumentList>, String> {
        self.with_library(move |library| {
            let scope = scope_of(&ScopeArgs { doc: None, filters })?;
            let documents: Vec<DocumentRow> = library
                .scope(&scope)
                .map_err(tool_error)?
                .into_iter()
                .map(DocumentRow::from)
                .collect();
            Ok(DocumentList {
                count: documents.len(),
                documents,
            })
        })
        .await
    }

    /// A document's tree of sections: ids, titles, levels, spans, pages and token counts,
    /// without the text (read_node gives a section's text).
    #[tool(annotations(read_only_hint = true))]
    async fn get_tree(
        &self,
        Parameters(args): Parameters<GetTreeArgs>,
    ) -> Result<Json<Tree>, String> {
        self.with_library(move |library| {
            let document = library.document(&args.doc).map_err(tool_error)?;
            Ok(Tree::of(&document, args.with_summaries))
        })
        .await
    }

    /// Exactly the text of one section, with its span, path and pages.
    #[tool(annotations(read_only_hint = true))]
    async fn read_node(
        &self,
        Parameters(args): Parameters<ReadNodeArgs>,
    ) -> Result<Json<NodeReading>, String> {
        self.with_library(move |library| {
            library
                .read_node(&args.doc, &args.node_id)
                .map(NodeReading::from)
                .map_err(tool_error)
        })
        .await
    }

    /// The sections that answer a query, best first, with their best sentences and
    /// passages as exact spans. Analysts' words work: "capex", "quick ratio".
    #[tool(annotations(read_only_hint = true))]
    async fn search(
        &self,
        Parameters(args): Parameters<SearchArgs>,
    ) -> Result<Json<SearchReply>, String> {
        self.with_library(move |library| {
            let mut request = request_for(&args.query, &args.scope, library)?;
            request.limit = args.limit.unwrap_or(DEFAULT_HITS).clamp(1, MAX_HITS);
            let mut results = library.search(&request).map_err(tool_error)?;
            // Statement rows can add a section past the limit; the best ones stay.
            results.hits.truncate(request.limit);
            Ok(SearchReply::from(results))
        })
        .await
    }

    /// An answer with numbered citations, each an excerpt verified against the filing's
    /// text. The answer is saved in the library.
    #[tool]
    async fn ask(&self, Parameters(args): Parameters<AskArgs>) -> Result<Json<AskReply>, String> {
        self.with_library(move |library| {
            let request = request_for(&args.question, &args.scope, library)?;
            let answer = library
                .ask(&args.question, &request, &|_| {})
                .map_err(tool_error)?;
            let saved = saved_unless_read_only(library.save_answer(&answer)).map_err(tool_error)?;
            Ok(AskReply::of(answer, saved.id()))
        })
        .await
    }

    /// Every excerpt on a topic in the documents in scope, strongest sections first, with
    /// how much was scanned. Every sentence of every section is read. The report is saved
    /// in the library.
    #[tool]
    async fn provenance(
        &self,
        Parameters(args): Parameters<ProvenanceArgs>,
    ) -> Result<Json<ProvenanceReply>, String> {
        self.with_library(move |library| {
            let request = request_for(&args.topic, &args.scope, library)?;
            let report = library
                .provenance(&args.topic, &request, ScanOptions::default(), &|_| {})
                .map_err(tool_error)?;
            let saved = saved_unless_read_only(library.save_report(&report)).map_err(tool_error)?;
            let max = args
                .max_sections
                .unwrap_or(DEFAULT_SECTIONS)
                .clamp(1, MAX_SECTIONS);
            Ok(ProvenanceReply::of(report, max, saved.id()))
        })
        .await
    }
}

// Tool failures, arguments that do not fit the schema among them, reach the host as tool
// errors with the reason (rmcp's router makes them so); an unknown tool is a protocol error.
#[tool_handler(
    router = self.tool_router,
    name = "docindex",
    instructions = "DocumentIndex serves a library of financial filings indexed as trees of sections. Find documents with list_documents, navigate with get_tree, read a section's exact text with read_node, find sections with search, get a cited answer with ask and every piece of evidence on a topic with provenance. Every excerpt and citation carries start_char/end_char: a range of the document's text in Unicode code points, exactly what read_node returns for that range. Quote figures only from excerpts."
)]
impl ServerHandler for DocIndexServer {}
