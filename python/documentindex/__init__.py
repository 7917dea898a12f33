"""DocumentIndex: financial filings as trees of sections mapped to exact text spans, answers
with verified citations, every piece of evidence on a topic, and search across a library of
filings — the Rust engine, from Python.

    from documentindex import DocumentIndexer, NodeSearcher, AgenticQA, ProvenanceExtractor

    doc_index = await DocumentIndexer().index(text, doc_name="AAPL_10K_2024")
    nodes = await NodeSearcher(doc_index).find_related_nodes("supply chain risks")
    answer = await AgenticQA(doc_index).answer(question="...", max_iterations=5)
    evidence = await ProvenanceExtractor(doc_index).extract_all(topic="...", relevance_threshold=0.6)

Every async method has a ``*_sync`` twin; ``Library`` opens the library folder the CLI and
the desktop app use.
"""

import os as _os
from pathlib import Path as _Path

_DATA = _Path(__file__).parent / "data"
# What the wheel ships for offline work: the distilled embedding table and its tokenizer,
# and pdfium. The environment, when set, wins (as for the CLI).
if (_DATA / "models" / "all-MiniLM-L6-v2").is_dir():
    _os.environ.setdefault("DOCINDEX_MODEL_DIR", str(_DATA / "models" / "all-MiniLM-L6-v2"))
if (_DATA / "pdfium" / "libpdfium.so").is_file():
    _os.environ.setdefault("DOCINDEX_PDFIUM", str(_DATA / "pdfium" / "libpdfium.so"))

from ._engine import (  # noqa: E402
    Cancelled,
    DocumentIndexError,
    InputError,
    InternalError,
    ProviderError,
    ResourceError,
    __version__,
)
from .api import AgenticQA, DocumentIndexer, NodeSearcher, ProvenanceExtractor  # noqa: E402
from .library import DocumentSummary, IndexReport, Library, default_library_dir  # noqa: E402
from .models import (  # noqa: E402
    Citation,
    CrossReference,
    DocumentIndex,
    Evidence,
    Excerpt,
    NodeMatch,
    ProvenanceResult,
    QAResult,
    TextSpan,
    TreeNode,
)

__all__ = [
    "AgenticQA",
    "Cancelled",
    "Citation",
    "CrossReference",
    "DocumentIndex",
    "DocumentIndexError",
    "DocumentIndexer",
    "DocumentSummary",
    "Evidence",
    "Excerpt",
    "IndexReport",
    "InputError",
    "InternalError",
    "Library",
    "NodeMatch",
    "NodeSearcher",
    "ProvenanceExtractor",
    "ProvenanceResult",
    "ProviderError",
    "QAResult",
    "ResourceError",
    "TextSpan",
    "TreeNode",
    "__version__",
    "default_library_dir",
]
