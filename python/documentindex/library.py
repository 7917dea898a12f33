"""A library of indexed filings in a folder (the same folder the CLI and the desktop app
use): index files, list them, search across them, ask with company and year scope, scan
for evidence. Every engine call runs with the GIL released; the async methods run it on a
worker thread, so the event loop is never blocked, and a cancelled task cancels the work."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import (
    Any,
    AsyncIterator,
    Callable,
    Dict,
    List,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
)

from . import _engine
from .models import DocumentIndex, NodeMatch, ProvenanceResult, QAResult, _node_of

T = TypeVar("T")
PathLike = Union[str, "os.PathLike[str]"]

#: Events a stream yields: (kind, payload). Indexing: "started", "progress", "message",
#: "finished" with a dict; answers: "step" and "token" with text; evidence: "progress"
#: with a dict and "hit" with an :class:`~documentindex.models.Evidence`.
Event = Tuple[str, Any]


def default_library_dir() -> Path:
    """Where the CLI and the desktop keep the library when none is named."""
    return Path(_engine.default_library_dir())


@dataclass
class DocumentSummary:
    """A document of the library, as ``docindex list`` shows it."""

    doc_id: str
    doc_name: str
    doc_type: str
    company_name: Optional[str]
    ticker: Optional[str]
    fiscal_year: Optional[int]
    period_end_date: Optional[str]
    node_count: int
    page_count: int
    char_count: int
    description: Optional[str]

    @classmethod
    def _from_engine(cls, d: Dict[str, Any]) -> "DocumentSummary":
        return cls(
            doc_id=d["doc_id"],
            doc_name=d["doc_name"],
            doc_type=d["doc_type"],
            company_name=d.get("company_name"),
            ticker=d.get("ticker"),
            fiscal_year=d.get("fiscal_year"),
            period_end_date=d.get("period_end_date"),
            node_count=d.get("node_count", 0),
            page_count=d.get("page_count", 0),
            char_count=d.get("char_count", 0),
            description=d.get("description"),
        )


@dataclass
class IndexReport:
    """What indexing one file did: stored, unchanged, or failed (with whose fault)."""

    path: str
    ok: bool
    status: str
    doc_id: Optional[str] = None
    doc_name: Optional[str] = None
    error: Optional[str] = None
    fault: Optional[str] = None

    @classmethod
    def _from_engine(cls, r: Dict[str, Any]) -> "IndexReport":
        if not r["ok"]:
            return cls(path=r["path"], ok=False, status="failed", error=r["error"], fault=r["fault"])
        outcome = r["outcome"]
        status = outcome.get("status", "indexed")
        doc = outcome.get("document", {})
        return cls(
            path=r["path"],
            ok=True,
            status=status,
            doc_id=doc.get("doc_id"),
            doc_name=doc.get("doc_name"),
        )


class Library:
    """The library in ``path`` (the CLI's and the desktop's default folder when None).

    ``model`` is a LiteLLM-style string ("openai/gpt-4o-mini", "ollama/llama3.1"); without
    it everything runs offline. Keys come from the environment, as for the CLI, and are
    never part of a repr, a message or a traceback.
    """

    def __init__(self, path: Optional[PathLike] = None, model: Optional[str] = None) -> None:
        folder = Path(path) if path is not None else default_library_dir()
        self._engine = _engine.Engine(str(folder), model)
        self.path = folder
        self.model = model
        self._temporary: Optional[weakref.finalize] = None

    @classmethod
    def temporary(cls, model: Optional[str] = None) -> "Library":
        """A library in a fresh temporary folder, removed when the object is collected (or
        at exit)."""
        folder = tempfile.mkdtemp(prefix="documentindex-")
        library = cls(folder, model)
        library._temporary = weakref.finalize(library, shutil.rmtree, folder, True)
        return library

    def __repr__(self) -> str:
        model = f", model={self.model!r}" if self.model else ""
        return f"Library({str(self.path)!r}{model})"

    # Quick reads (SQLite) --------------------------------------------------------------

    def list(self) -> List[DocumentSummary]:
        """The documents, as ``docindex list`` shows them."""
        return [DocumentSummary._from_engine(d) for d in json.loads(self._engine.list())]

    def document(self, doc: str) -> DocumentIndex:
        """A document's index by id, name, stem or id prefix; bound to this library."""
        return DocumentIndex._from_engine(json.loads(self._engine.document(doc)), self)

    def remove(self, doc: str) -> bool:
        """Remove a document; whether it was there."""
        return bool(self._engine.remove(doc))

    def cancel(self) -> None:
        """Stop the call in progress at its next step (from any thread)."""
        self._engine.cancel()

    # Engine work: synchronous ----------------------------------------------------------

    def index_sync(
        self,
        paths: Union[PathLike, Sequence[PathLike]],
        on_event: Optional[Callable[[str, Any], None]] = None,
        embed: bool = True,
    ) -> List[IndexReport]:
        """Index files (HTML, text, Markdown, PDF, PageIndex JSON); a bad file fails alone,
        with its error, and the others are indexed. ``on_event(kind, dict)`` sees progress."""
        items = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
        callback = _json_events(on_event)
        rows = self._engine.index([str(p) for p in items], callback, embed)
        return [IndexReport._from_engine(r) for r in json.loads(rows)]

    def search_sync(
        self,
        query: str,
        *,
        doc: Optional[str] = None,
        company: Optional[str] = None,
        fiscal_year: Optional[int] = None,
        limit: int = 10,
        use_model: bool = False,
    ) -> List[NodeMatch]:
        """Sections that match ``query`` across the library (or the scope), best first."""
        data = json.loads(
            self._engine.search(query, doc, company, fiscal_year, limit, use_model)
        )
        return _matches(data, self, None)[: max(limit, 1)]

    def ask_sync(
        self,
        question: str,
        *,
        doc: Optional[str] = None,
        company: Optional[str] = None,
        fiscal_year: Optional[int] = None,
        max_iterations: Optional[int] = None,
        on_event: Optional[Callable[[str, str], None]] = None,
    ) -> QAResult:
        """An answer with verified citations. ``max_iterations`` bounds the model's plan
        steps (the offline engine does not iterate)."""
        data = json.loads(
            self._engine.ask(question, doc, company, fiscal_year, max_iterations, on_event)
        )
        return QAResult._from_engine(data)

    def provenance_sync(
        self,
        topic: str,
        *,
        doc: Optional[str] = None,
        company: Optional[str] = None,
        fiscal_year: Optional[int] = None,
        relevance_threshold: Optional[float] = None,
        use_model: bool = True,
        on_event: Optional[Callable[[str, Any], None]] = None,
        document: Optional[DocumentIndex] = None,
    ) -> ProvenanceResult:
        """Every piece of evidence on ``topic`` in the scope, each excerpt with its span."""
        callback = _provenance_events(on_event, document)
        data = json.loads(
            self._engine.provenance(
                topic, doc, company, fiscal_year, relevance_threshold, use_model, callback
            )
        )
        return ProvenanceResult._from_engine(data, document, relevance_threshold or 0.0)

    # Engine work: async ----------------------------------------------------------------

    async def index(
        self, paths: Union[PathLike, Sequence[PathLike]], embed: bool = True
    ) -> List[IndexReport]:
        """:meth:`index_sync` on a worker thread."""
        return await self._run(lambda: self.index_sync(paths, embed=embed))

    async def search(self, query: str, **scope: Any) -> List[NodeMatch]:
        """:meth:`search_sync` on a worker thread."""
        return await self._run(lambda: self.search_sync(query, **scope))

    async def ask(self, question: str, **scope: Any) -> QAResult:
        """:meth:`ask_sync` on a worker thread."""
        return await self._run(lambda: self.ask_sync(question, **scope))

    async def provenance(self, topic: str, **scope: Any) -> ProvenanceResult:
        """:meth:`provenance_sync` on a worker thread."""
        return await self._run(lambda: self.provenance_sync(topic, **scope))

    def index_stream(
        self, paths: Union[PathLike, Sequence[PathLike]], embed: bool = True
    ) -> AsyncIterator[Event]:
        """Indexing progress as it happens, then ``("done", [IndexReport, …])``."""
        return self._stream(lambda emit: self.index_sync(paths, on_event=emit, embed=embed))

    def ask_stream(self, question: str, **scope: Any) -> AsyncIterator[Event]:
        """The answer's steps and tokens as they come, then ``("done", QAResult)``."""
        return self._stream(lambda emit: self.ask_sync(question, on_event=emit, **scope))

    def provenance_stream(self, topic: str, **scope: Any) -> AsyncIterator[Event]:
        """Scan progress and each section with evidence as it is found, then
        ``("done", ProvenanceResult)``."""
        return self._stream(lambda emit: self.provenance_sync(topic, on_event=emit, **scope))

    def _ticketed(self, work: Callable[[], T]) -> Tuple[int, Callable[[], T]]:
        """``work`` as one call with a ticket of its own, for the worker thread."""
        ticket = self._engine.ticket()

        def job() -> T:
            self._engine.set_ticket(ticket)
            try:
                return work()
            finally:
                self._engine.set_ticket(None)

        return ticket, job

    async def _run(self, work: Callable[[], T]) -> T:
        """``work`` on a worker thread; when the awaiting task is cancelled, that call (and
        no other) is told to stop, and the cancellation goes on once it has."""
        loop = asyncio.get_running_loop()
        ticket, job = self._ticketed(work)
        future = loop.run_in_executor(None, job)
        try:
            return await asyncio.shield(future)
        except asyncio.CancelledError:
            # A call still queued will not start; a running one stops at its next step.
            self._engine.cancel(ticket)
            try:
                await future
            except Exception:  # its Cancelled: the task's cancellation stands
                pass
            raise

    async def _stream(
        self, work: Callable[[Callable[[str, Any], None]], Any]
    ) -> AsyncIterator[Event]:
        """Events of ``work`` (which calls ``emit`` from the worker thread) as an async
        iterator; its result last, as ``("done", result)``; its error raised. Leaving early
        stops the work (at once inside ``contextlib.aclosing``, else when the iterator is
        finalised)."""
        loop = asyncio.get_running_loop()
        queue: "asyncio.Queue[Tuple[str, Any]]" = asyncio.Queue()
        finished = threading.Event()

        def emit(kind: str, payload: Any) -> None:
            if not finished.is_set():
                loop.call_soon_threadsafe(queue.put_nowait, (kind, payload))

        def run() -> Any:
            try:
                return work(emit)
            finally:
                finished.set()

        ticket, job = self._ticketed(run)
        future = loop.run_in_executor(None, job)
        future.add_done_callback(lambda _: queue.put_nowait(("__end__", None)))
        try:
            while True:
                kind, payload = await queue.get()
                if kind == "__end__":
                    break
                yield kind, payload
            yield "done", future.result()
        finally:
            if not future.done():
                # The consumer stopped early or was cancelled: stop this call too.
                self._engine.cancel(ticket)
                try:
                    await future
                except Exception:
                    pass


def _json_events(on_event: Optional[Callable[[str, Any], None]]) -> Optional[Callable[[str, str], None]]:
    if on_event is None:
        return None
    return lambda kind, payload: on_event(kind, json.loads(payload))


def _provenance_events(
    on_event: Optional[Callable[[str, Any], None]], document: Optional[DocumentIndex]
) -> Optional[Callable[[str, str], None]]:
    if on_event is None:
        return None
    from .models import _evidence_of

    def forward(kind: str, payload: str) -> None:
        data = json.loads(payload)
        on_event(kind, _evidence_of(data, document) if kind == "hit" else data)

    return forward


def _matches(
    data: Dict[str, Any], library: Library, document: Optional[DocumentIndex]
) -> List[NodeMatch]:
    hits = data.get("hits", [])
    top = max((h["score"] for h in hits), default=0.0)
    return [
        NodeMatch(
            node=_node_of(h, document),
            # Scores are the fused ranking's; the best hit of a search is 1.0.
            relevance_score=(h["score"] / top) if top > 0 else 0.0,
            match_reason=h.get("reason", ""),
            matched_excerpts=[x["text"] for x in h.get("excerpts", [])],
            doc_id=h["doc_id"],
            doc_name=h["doc_name"],
            path=h.get("path", ""),
            document=document,
        )
        for h in hits
    ]
