"""The design's use cases, in its own names: ``DocumentIndexer`` builds a document's index,
``NodeSearcher`` finds the sections related to a query, ``AgenticQA`` answers with verified
citations, ``ProvenanceExtractor`` extracts every piece of evidence on a topic. Each works on
a :class:`~documentindex.models.DocumentIndex` bound to a library; the async methods are the
design's, each with a ``*_sync`` twin."""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
from pathlib import Path
from typing import Any, AsyncIterator, List, Optional, Union

from .library import Event, Library, _matches
from .models import DocumentIndex, NodeMatch, ProvenanceResult, QAResult
from . import _engine

Source = Union[str, bytes, "os.PathLike[str]"]


def _library_of(doc_index: DocumentIndex) -> Library:
    if doc_index.library is None:
        raise _engine.InputError(
            f"{doc_index.doc_name}: this index is not bound to a library (made by from_dict "
            "without library=); open it with Library.document() or index it again"
        )
    return doc_index.library


class DocumentIndexer:
    """Turns a filing into a :class:`DocumentIndex`: a tree of sections mapped to exact
    text spans. Offline unless ``model`` names one ("anthropic/claude-sonnet-4-20250514").
    Indexes go into ``library`` (a :class:`Library` or a folder), else into a private
    temporary library kept as long as the indexer or any index from it is alive."""

    def __init__(
        self,
        model: Optional[str] = None,
        library: Union[Library, str, "os.PathLike[str]", None] = None,
    ) -> None:
        if isinstance(library, Library):
            self.library = library
        elif library is not None:
            self.library = Library(library, model)
        else:
            self.library = Library.temporary(model)
        self.model = model

    def __repr__(self) -> str:
        model = f"model={self.model!r}, " if self.model else ""
        return f"DocumentIndexer({model}library={self.library!r})"

    def index_sync(self, source: Source, doc_name: Optional[str] = None) -> DocumentIndex:
        """Index ``source``: text (``str``), the bytes of a file, or a path
        (``pathlib.Path`` or any ``os.PathLike``). ``doc_name`` names it (a file keeps
        its own name otherwise). A file that cannot be indexed raises ``InputError``
        naming it; nothing already in the library is lost."""
        source = _path_given_as_text(source, doc_name)
        if isinstance(source, (str, bytes)):
            return self._index_content(source, doc_name)
        path = Path(source)
        if doc_name is not None and doc_name != path.name:
            return self._index_content(path.read_bytes(), doc_name)
        return self._index_path(path)

    async def index(self, source: Source, doc_name: Optional[str] = None) -> DocumentIndex:
        """:meth:`index_sync` on a worker thread (the event loop is never blocked)."""
        return await self.library._run(lambda: self.index_sync(source, doc_name))

    def index_stream(self, source: Source, doc_name: Optional[str] = None) -> AsyncIterator[Event]:
        """Indexing progress as it happens, then ``("done", DocumentIndex)``."""
        return self.library._stream(lambda emit: self._index_with(source, doc_name, emit))

    def _index_with(self, source: Source, doc_name: Optional[str], emit: Any) -> DocumentIndex:
        source = _path_given_as_text(source, doc_name)
        if isinstance(source, (str, bytes)) or doc_name is not None:
            content = source if isinstance(source, (str, bytes)) else Path(source).read_bytes()
            return self._index_content(content, doc_name, emit)
        return self._index_path(Path(source), emit)

    def _index_content(
        self, content: Union[str, bytes], doc_name: Optional[str], emit: Any = None
    ) -> DocumentIndex:
        data = content.encode("utf-8") if isinstance(content, str) else content
        # A document is stored under its name (the same name replaces it): text given
        # without one is named by its content, so two texts never replace each other.
        name = _file_name(doc_name or f"document-{hashlib.sha256(data).hexdigest()[:12]}")
        with tempfile.TemporaryDirectory(prefix="documentindex-src-") as folder:
            path = Path(folder) / name
            path.write_bytes(data)
            return self._index_path(path, emit)

    def _index_path(self, path: Path, emit: Any = None) -> DocumentIndex:
        reports = self.library.index_sync(path, on_event=emit)
        report = reports[0]
        if not report.ok:
            error = report.error or f"{path}: not indexed"
            kind = {
                "user": _engine.InputError,
                "runtime": _engine.ResourceError,
                "bug": _engine.InternalError,
            }.get(report.fault or "", _engine.DocumentIndexError)
            raise kind(error)
        return self.library.document(report.doc_id or report.doc_name or path.name)


_FILE_SUFFIXES = (".htm", ".html", ".xhtml", ".pdf", ".txt", ".md", ".markdown", ".json", ".xml")


def _path_given_as_text(source: Source, doc_name: Optional[str]) -> Source:
    """A ``str`` that is a file's path is that file: ``index("filing.htm")`` indexes the
    filing, not the eleven characters of its name. A one-line string ending like a file
    name that names no file is refused, naming it, rather than indexed as text."""
    if not isinstance(source, str) or "\n" in source or len(source) > 4096:
        return source
    candidate = source.strip()
    if candidate and os.path.isfile(candidate):
        return Path(candidate)
    looks_like_a_file = candidate.lower().endswith(_FILE_SUFFIXES) and " " not in candidate
    if looks_like_a_file and doc_name is None:
        raise _engine.InputError(
            f"{candidate}: no such file (to index text that merely looks like a file name, "
            "pass it as bytes or give doc_name)"
        )
    return source


def _file_name(doc_name: str) -> str:
    """A safe file name for ``doc_name`` (the stored document keeps it as its name)."""
    cleaned = re.sub(r"[^\w.\- ]", "_", doc_name).strip(" .") or "document"
    return cleaned[:200]


class NodeSearcher:
    """Finds the sections of a document related to a query: words, titles and summaries,
    and meaning (the local embedding model), fused; with ``use_model`` the library's model
    also scores the candidates."""

    def __init__(self, doc_index: DocumentIndex, use_model: bool = False) -> None:
        self.doc_index = doc_index
        self.use_model = use_model

    def find_related_nodes_sync(self, query: str, top_k: int = 10) -> List[NodeMatch]:
        """The ``top_k`` sections best matching ``query``, best first; each
        ``relevance_score`` is relative to the best (1.0)."""
        library = _library_of(self.doc_index)
        import json

        data = json.loads(
            library._engine.search(
                query, self.doc_index.doc_id, None, None, max(top_k, 1), self.use_model
            )
        )
        return _matches(data, library, self.doc_index)[: max(top_k, 1)]

    async def find_related_nodes(self, query: str, top_k: int = 10) -> List[NodeMatch]:
        """:meth:`find_related_nodes_sync` on a worker thread."""
        library = _library_of(self.doc_index)
        return await library._run(lambda: self.find_related_nodes_sync(query, top_k))


class AgenticQA:
    """Answers questions about a document with citations verified against its text: the
    offline engine (figures from the statements, sentences that answer the question's
    words) or, when the library has a model, the model planning, reading and answering."""

    def __init__(self, doc_index: DocumentIndex) -> None:
        self.doc_index = doc_index

    def answer_sync(self, question: str, max_iterations: Optional[int] = None) -> QAResult:
        """The answer; ``max_iterations`` bounds the model's reading steps."""
        return _library_of(self.doc_index).ask_sync(
            question, doc=self.doc_index.doc_id, max_iterations=max_iterations
        )

    async def answer(self, question: str, max_iterations: Optional[int] = None) -> QAResult:
        """:meth:`answer_sync` on a worker thread; cancelling the task stops the model."""
        library = _library_of(self.doc_index)
        return await library._run(lambda: self.answer_sync(question, max_iterations))

    def answer_stream(self, question: str, max_iterations: Optional[int] = None) -> AsyncIterator[Event]:
        """``("step", text)`` and ``("token", text)`` as they come, then
        ``("done", QAResult)``."""
        library = _library_of(self.doc_index)
        return library.ask_stream(
            question, doc=self.doc_index.doc_id, max_iterations=max_iterations
        )


class ProvenanceExtractor:
    """Extracts every piece of evidence on a topic: every section is scanned (none
    skipped), each excerpt with its exact span and a relevance from 0 to 1."""

    def __init__(self, doc_index: DocumentIndex, use_model: bool = True) -> None:
        self.doc_index = doc_index
        self.use_model = use_model

    def extract_all_sync(self, topic: str, relevance_threshold: float = 0.0) -> ProvenanceResult:
        """The evidence on ``topic`` at or above ``relevance_threshold``."""
        return _library_of(self.doc_index).provenance_sync(
            topic,
            doc=self.doc_index.doc_id,
            relevance_threshold=relevance_threshold,
            use_model=self.use_model,
            document=self.doc_index,
        )

    async def extract_all(self, topic: str, relevance_threshold: float = 0.0) -> ProvenanceResult:
        """:meth:`extract_all_sync` on a worker thread; cancelling the task stops the scan."""
        library = _library_of(self.doc_index)
        return await library._run(lambda: self.extract_all_sync(topic, relevance_threshold))

    def extract_stream(self, topic: str, relevance_threshold: float = 0.0) -> AsyncIterator[Event]:
        """``("progress", dict)`` and ``("hit", Evidence)`` as sections are scanned, then
        ``("done", ProvenanceResult)``."""
        return _library_of(self.doc_index).provenance_stream(
            topic,
            doc=self.doc_index.doc_id,
            relevance_threshold=relevance_threshold,
            use_model=self.use_model,
            document=self.doc_index,
        )

    def extract_by_category_sync(
        self, categories: List[str], relevance_threshold: float = 0.0
    ) -> List[ProvenanceResult]:
        """:meth:`extract_all_sync` for each category."""
        return [self.extract_all_sync(c, relevance_threshold) for c in categories]

    async def extract_by_category(
        self, categories: List[str], relevance_threshold: float = 0.0
    ) -> List[ProvenanceResult]:
        """:meth:`extract_by_category_sync` on a worker thread."""
        library = _library_of(self.doc_index)
        return await library._run(
            lambda: self.extract_by_category_sync(categories, relevance_threshold)
        )
