"""The design's data classes over the engine's JSON: the tree of a document, search matches,
answers with citations and evidence reports. Every span is a range of the document's text
in characters, so ``text[start:end]`` is the cited excerpt exactly."""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Tuple

if TYPE_CHECKING:  # pragma: no cover
    from .library import Library


@dataclass
class TextSpan:
    """A range of the document's text (characters) and the chunks it covers."""

    start_char: int
    end_char: int
    start_chunk: int
    end_chunk: int


@dataclass
class CrossReference:
    """A reference from one section to another ("see Note 15")."""

    source_node_id: str
    target_description: str
    target_node_id: Optional[str] = None
    reference_text: str = ""
    resolved: bool = False


@dataclass
class TreeNode:
    """A section of the document: its title, its span of the text, its children."""

    node_id: str
    title: str
    level: int
    text_span: TextSpan
    summary: Optional[str] = None
    parent_id: Optional[str] = None
    children: List["TreeNode"] = field(default_factory=list)
    node_metadata: Dict[str, Any] = field(default_factory=dict)
    cross_references: List[CrossReference] = field(default_factory=list)
    start_page: Optional[int] = None
    end_page: Optional[int] = None

    @property
    def start_index(self) -> int:
        """The first chunk of the node's text."""
        return self.text_span.start_chunk

    @property
    def end_index(self) -> int:
        """One past the last chunk of the node's text: ``get_chunk_text(n.start_index,
        n.end_index)`` is the node's chunks."""
        return self.text_span.end_chunk

    def to_dict(self, include_children: bool = True) -> Dict[str, Any]:
        """The node as the design's JSON: ids, title, chunk and character range, children
        under ``nodes``."""
        out: Dict[str, Any] = {
            "node_id": self.node_id,
            "title": self.title,
            "level": self.level,
            "start_index": self.text_span.start_chunk,
            "end_index": self.text_span.end_chunk,
            "start_char": self.text_span.start_char,
            "end_char": self.text_span.end_char,
        }
        if self.start_page is not None:
            out["start_page"] = self.start_page
            out["end_page"] = self.end_page
        if self.summary:
            out["summary"] = self.summary
        if self.parent_id:
            out["parent_id"] = self.parent_id
        if self.node_metadata:
            out["metadata"] = self.node_metadata
        if self.cross_references:
            out["cross_references"] = [
                {"target": r.target_description, "resolved_to": r.target_node_id}
                for r in self.cross_references
            ]
        if include_children and self.children:
            out["nodes"] = [child.to_dict() for child in self.children]
        return out

    @classmethod
    def from_dict(cls, data: Dict[str, Any], parent_id: Optional[str] = None) -> "TreeNode":
        """A node (and its children) from :meth:`to_dict`'s JSON."""
        node = cls(
            node_id=data["node_id"],
            title=data["title"],
            level=data.get("level", 0),
            text_span=TextSpan(
                data["start_char"], data["end_char"], data["start_index"], data["end_index"]
            ),
            summary=data.get("summary"),
            parent_id=data.get("parent_id", parent_id),
            node_metadata=data.get("metadata", {}),
            cross_references=[
                CrossReference(
                    source_node_id=data["node_id"],
                    target_description=r["target"],
                    target_node_id=r.get("resolved_to"),
                    resolved=r.get("resolved_to") is not None,
                )
                for r in data.get("cross_references", [])
            ],
            start_page=data.get("start_page"),
            end_page=data.get("end_page"),
        )
        node.children = [cls.from_dict(c, node.node_id) for c in data.get("nodes", [])]
        return node


class DocumentIndex:
    """A document's tree of sections over its text. Indexes made by a :class:`Library` (or a
    :class:`DocumentIndexer`) stay bound to it, so they can be searched, asked and scanned."""

    def __init__(
        self,
        doc_id: str,
        doc_name: str,
        doc_type: str,
        original_text: str,
        structure: List[TreeNode],
        chunk_char_offsets: List[Tuple[int, int]],
        metadata: Optional[Dict[str, Any]] = None,
        cross_references: Optional[List[CrossReference]] = None,
        description: Optional[str] = None,
        library: Optional["Library"] = None,
    ) -> None:
        self.doc_id = doc_id
        self.doc_name = doc_name
        self.doc_type = doc_type
        self.original_text = original_text
        self.structure = structure
        self.chunk_char_offsets = chunk_char_offsets
        self.metadata = metadata or {}
        self.cross_references = cross_references or []
        self.description = description
        self.library = library
        self._by_id = {n.node_id: n for n in self.get_all_nodes()}

    # The engine's JSON ----------------------------------------------------------------

    @classmethod
    def _from_engine(cls, data: Dict[str, Any], library: Optional["Library"]) -> "DocumentIndex":
        chunks = sorted(data.get("chunks", []), key=lambda c: c["chunk_index"])
        offsets = [(c["span"]["start_char"], c["span"]["end_char"]) for c in chunks]
        refs_by_node: Dict[str, List[CrossReference]] = {}
        refs = []
        text = data["text"]
        for r in data.get("cross_refs", []):
            ref = CrossReference(
                source_node_id=r["source_node_id"],
                target_description=r["target"],
                target_node_id=r.get("target_node_id"),
                reference_text=text[r["span"]["start_char"] : r["span"]["end_char"]],
                resolved=r.get("target_node_id") is not None,
            )
            refs.append(ref)
            refs_by_node.setdefault(ref.source_node_id, []).append(ref)
        nodes: Dict[str, TreeNode] = {}
        roots: List[TreeNode] = []
        for n in data["nodes"]:
            start, end = n["span"]["start_char"], n["span"]["end_char"]
            first, last = _chunk_range(offsets, start, end)
            metadata: Dict[str, Any] = {"token_count": n.get("token_count")}
            if n.get("financial"):
                metadata["financial"] = n["financial"]
            node = TreeNode(
                node_id=n["node_id"],
                title=n["title"],
                level=n["level"],
                text_span=TextSpan(start, end, first, last),
                summary=n.get("summary") or None,
                parent_id=n.get("parent_id"),
                node_metadata=metadata,
                cross_references=refs_by_node.get(n["node_id"], []),
                start_page=n.get("start_page"),
                end_page=n.get("end_page"),
            )
            nodes[node.node_id] = node
            parent = nodes.get(node.parent_id) if node.parent_id else None
            if parent is None:
                roots.append(node)
            else:
                parent.children.append(node)
        return cls(
            doc_id=data["doc_id"],
            doc_name=data["doc_name"],
            doc_type=data["doc_type"],
            original_text=text,
            structure=roots,
            chunk_char_offsets=offsets,
            metadata=data.get("metadata", {}),
            cross_references=refs,
            description=data.get("description"),
            library=library,
        )

    # Text ----------------------------------------------------------------------------

    @property
    def chunks(self) -> List[str]:
        """The text of each chunk (about 200 tokens of one section's own text)."""
        return [self.original_text[s:e] for s, e in self.chunk_char_offsets]

    def get_node_text(self, node_id: str) -> Optional[str]:
        """The node's whole text (its children's included), or None for an unknown id."""
        node = self.find_node(node_id)
        if node is None:
            return None
        return self.original_text[node.text_span.start_char : node.text_span.end_char]

    def get_chunk_text(self, start_chunk: int, end_chunk: int) -> str:
        """The text of chunks ``start_chunk`` up to (not including) ``end_chunk``."""
        return "\n".join(self.chunks[start_chunk:end_chunk])

    def get_text_by_char_range(self, start: int, end: int) -> str:
        """The document's text from character ``start`` to ``end``."""
        return self.original_text[start:end]

    # Navigation ----------------------------------------------------------------------

    def find_node(self, node_id: str) -> Optional[TreeNode]:
        """The node with this id, or None."""
        return self._by_id.get(node_id)

    def get_all_nodes(self) -> List[TreeNode]:
        """Every node, in document (pre-)order."""
        out: List[TreeNode] = []

        def walk(nodes: List[TreeNode]) -> None:
            for node in nodes:
                out.append(node)
                walk(node.children)

        walk(self.structure)
        return out

    def get_leaf_nodes(self) -> List[TreeNode]:
        """The nodes without children."""
        return [n for n in self.get_all_nodes() if not n.children]

    def get_node_path(self, node_id: str) -> List[TreeNode]:
        """The nodes from the root down to ``node_id`` (empty for an unknown id)."""
        path: List[TreeNode] = []
        node = self.find_node(node_id)
        while node is not None:
            path.append(node)
            node = self.find_node(node.parent_id) if node.parent_id else None
        return list(reversed(path))

    # Serialisation -------------------------------------------------------------------

    def to_dict(self, include_text: bool = False) -> Dict[str, Any]:
        """The design's JSON: ``doc_name`` and ``structure`` with ``node_id``, ``title``,
        ``start_index``, ``end_index`` and children under ``nodes``; with ``include_text``,
        the text and chunk offsets too, so :meth:`from_dict` restores it whole."""
        out: Dict[str, Any] = {
            "doc_id": self.doc_id,
            "doc_name": self.doc_name,
            "doc_type": self.doc_type,
            "description": self.description,
            "total_chunks": len(self.chunk_char_offsets),
            "total_chars": len(self.original_text),
            "metadata": self.metadata,
            "structure": [node.to_dict() for node in self.structure],
            "cross_references": [
                {
                    "source_node_id": r.source_node_id,
                    "target": r.target_description,
                    "resolved_to": r.target_node_id,
                    "reference_text": r.reference_text,
                }
                for r in self.cross_references
            ],
        }
        if include_text:
            out["original_text"] = self.original_text
            out["chunk_char_offsets"] = [list(o) for o in self.chunk_char_offsets]
            out["chunks"] = self.chunks
        return out

    @classmethod
    def from_dict(
        cls,
        data: Dict[str, Any],
        original_text: Optional[str] = None,
        library: Optional["Library"] = None,
    ) -> "DocumentIndex":
        """An index from :meth:`to_dict`'s JSON; the text comes from ``original_text`` or
        the JSON (``include_text=True``). Bound to ``library`` when given (it must hold the
        document)."""
        text = original_text if original_text is not None else data.get("original_text")
        if text is None:
            raise ValueError(
                "from_dict needs the document's text: pass original_text, or a dict made "
                "with to_dict(include_text=True)"
            )
        offsets = [tuple(o) for o in data.get("chunk_char_offsets", [])]
        refs = [
            CrossReference(
                source_node_id=r["source_node_id"],
                target_description=r["target"],
                target_node_id=r.get("resolved_to"),
                reference_text=r.get("reference_text", ""),
                resolved=r.get("resolved_to") is not None,
            )
            for r in data.get("cross_references", [])
        ]
        index = cls(
            doc_id=data["doc_id"],
            doc_name=data["doc_name"],
            doc_type=data.get("doc_type", "generic"),
            original_text=text,
            structure=[TreeNode.from_dict(n) for n in data["structure"]],
            chunk_char_offsets=offsets,  # type: ignore[arg-type]
            metadata=data.get("metadata", {}),
            cross_references=refs,
            description=data.get("description"),
            library=library,
        )
        if refs:
            # The document's references carry their text: each node gets its own.
            for node in index.get_all_nodes():
                node.cross_references = [r for r in refs if r.source_node_id == node.node_id]
        return index

    def __repr__(self) -> str:
        return (
            f"DocumentIndex(doc_name={self.doc_name!r}, doc_type={self.doc_type!r}, "
            f"nodes={len(self._by_id)}, chars={len(self.original_text)})"
        )

    def _repr_html_(self) -> str:
        def item(node: TreeNode) -> str:
            pages = (
                f" <small>p. {node.start_page}–{node.end_page}</small>"
                if node.start_page is not None
                else ""
            )
            inner = "".join(item(c) for c in node.children)
            children = f"<ul>{inner}</ul>" if inner else ""
            return (
                f"<li><code>{node.node_id}</code> {html.escape(node.title)}{pages}"
                f"{children}</li>"
            )

        return (
            f"<div><b>{html.escape(self.doc_name)}</b> ({html.escape(self.doc_type)}, "
            f"{len(self._by_id)} sections)<ul>{''.join(item(n) for n in self.structure)}</ul></div>"
        )


def _chunk_range(offsets: List[Tuple[int, int]], start: int, end: int) -> Tuple[int, int]:
    """The chunks overlapping ``start..end``, as first and one past the last (an empty range
    at the next chunk for a node with no text)."""
    inside = [i for i, (s, e) in enumerate(offsets) if s < end and start < e]
    if inside:
        return inside[0], inside[-1] + 1
    after = [i for i, (s, _) in enumerate(offsets) if s >= start]
    at = after[0] if after else len(offsets)
    return at, at


class _OfANode:
    """What a result about one section says of it: the section's id and title."""

    node: TreeNode

    @property
    def node_id(self) -> str:
        return self.node.node_id

    @property
    def title(self) -> str:
        return self.node.title


@dataclass
class NodeMatch(_OfANode):
    """A section that matches a search: why, how well (0 to 1), and its matching sentences."""

    node: TreeNode
    relevance_score: float
    match_reason: str
    matched_excerpts: List[str] = field(default_factory=list)
    doc_id: str = ""
    doc_name: str = ""
    path: str = ""
    document: Optional[DocumentIndex] = None


    def get_text(self, doc_index: Optional[DocumentIndex] = None) -> str:
        """The section's whole text."""
        doc = doc_index or self.document
        if doc is None:
            raise ValueError("this match has no document to read from: pass doc_index")
        return doc.get_node_text(self.node.node_id) or ""


@dataclass
class Citation:
    """A verified citation: the exact excerpt of a node and where it is in the text."""

    marker: int
    node_id: str
    node_title: str
    excerpt: str
    char_range: Tuple[int, int]
    doc_id: str = ""
    doc_name: str = ""
    pages: Optional[Tuple[int, int]] = None


@dataclass
class QAResult:
    """An answer: its text with markers ``[n]``, the citations they point at, a confidence
    (0 to 1 and a label) and the steps taken."""

    question: str
    answer: str
    confidence: float
    confidence_label: str
    citations: List[Citation]
    reasoning_trace: List[Dict[str, Any]]
    nodes_visited: List[str]
    answered: bool = True
    engine: str = "extractive"
    unsupported_numbers: List[str] = field(default_factory=list)
    tokens_used: int = 0
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def _from_engine(cls, data: Dict[str, Any]) -> "QAResult":
        citations = [
            Citation(
                marker=c["marker"],
                node_id=c["node_id"],
                node_title=c["title"],
                excerpt=c["excerpt"],
                char_range=(c["start_char"], c["end_char"]),
                doc_id=c["doc_id"],
                doc_name=c["doc_name"],
                pages=(c["start_page"], c["end_page"])
                if c.get("start_page") is not None
                else None,
            )
            for c in data.get("citations", [])
        ]
        confidence = data.get("confidence", {})
        return cls(
            question=data["question"],
            answer=data["answer"],
            confidence=float(confidence.get("score", 0.0)),
            confidence_label=str(confidence.get("label", "LOW")),
            citations=citations,
            reasoning_trace=[
                {"step": i + 1, "action": step} for i, step in enumerate(data.get("reasoning", []))
            ],
            nodes_visited=list(data.get("nodes_visited", [])),
            answered=bool(data.get("answered", False)),
            engine=data.get("engine", "extractive"),
            unsupported_numbers=list(data.get("unsupported_numbers", [])),
            tokens_used=int(data.get("tokens_used", 0)),
            raw=data,
        )

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<li>[{c.marker}] <b>{html.escape(c.node_title)}</b> "
            f"<small>{html.escape(c.doc_name)} {c.char_range[0]}–{c.char_range[1]}</small>"
            f"<blockquote>{html.escape(c.excerpt)}</blockquote></li>"
            for c in self.citations
        )
        return (
            f"<div><p><b>{html.escape(self.question)}</b></p>"
            f"<p>{html.escape(self.answer)}</p>"
            f"<p><small>confidence {self.confidence_label} ({self.confidence:.2f}); "
            f"{self.engine}</small></p><ol style='list-style:none'>{rows}</ol></div>"
        )


@dataclass
class Excerpt:
    """One passage of evidence: its text, where it is, how relevant (0 to 1) and why."""

    text: str
    text_range: Tuple[int, int]
    relevance: float
    reason: str = ""


@dataclass
class Evidence(_OfANode):
    """A section with evidence on the topic, and its excerpts."""

    node: TreeNode
    relevance_score: float
    match_reason: str
    excerpts: List[Excerpt]
    text_range: Tuple[int, int]
    doc_id: str = ""
    doc_name: str = ""
    path: str = ""


    @property
    def matched_excerpts(self) -> List[str]:
        return [x.text for x in self.excerpts]


def _node_of(hit: Dict[str, Any], doc: Optional[DocumentIndex]) -> TreeNode:
    """The tree node a search hit or an evidence row names; a bare node when its document
    is not at hand."""
    if doc is not None:
        node = doc.find_node(hit["node_id"])
        if node is not None:
            return node
    return TreeNode(
        node_id=hit["node_id"],
        title=hit["title"],
        level=hit.get("path", "").count("›"),
        text_span=TextSpan(hit["start_char"], hit["end_char"], 0, 0),
        start_page=hit.get("start_page"),
        end_page=hit.get("end_page"),
    )


def _evidence_of(e: Dict[str, Any], doc: Optional[DocumentIndex]) -> Evidence:
    return Evidence(
        node=_node_of(e, doc),
        relevance_score=float(e["relevance"]),
        match_reason=e.get("reason", ""),
        excerpts=[
            Excerpt(
                text=x["text"],
                text_range=(x["start_char"], x["end_char"]),
                relevance=float(x["relevance"]),
                reason=x.get("reason", ""),
            )
            for x in e.get("excerpts", [])
        ],
        text_range=(e["start_char"], e["end_char"]),
        doc_id=e["doc_id"],
        doc_name=e["doc_name"],
        path=e.get("path", ""),
    )


@dataclass
class ProvenanceResult:
    """Every piece of evidence on a topic, with how much of the document was scanned."""

    topic: str
    evidence: List[Evidence]
    total_nodes_scanned: int
    relevant_nodes_found: int
    scan_coverage: float
    summary: Optional[str] = None
    raw: Dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def _from_engine(
        cls, data: Dict[str, Any], doc: Optional[DocumentIndex], threshold: float = 0.0
    ) -> "ProvenanceResult":
        coverage = data.get("coverage", {})
        # The threshold is the excerpts' (a model's judgement has its own bar): sections keep
        # the excerpts at or above it, and a section left with none goes.
        evidence = []
        for row in data.get("evidence", []):
            item = _evidence_of(row, doc)
            item.excerpts = [x for x in item.excerpts if x.relevance >= threshold]
            if item.excerpts:
                evidence.append(item)
        total = int(coverage.get("sections_total", 0))
        scanned = int(coverage.get("sections_scanned", 0))
        return cls(
            topic=data["topic"],
            evidence=evidence,
            total_nodes_scanned=scanned,
            relevant_nodes_found=len(evidence),
            scan_coverage=(scanned / total) if total else 0.0,
            summary=data.get("summary"),
            raw=data,
        )

    def excerpts(self) -> Iterator[Tuple[Evidence, Excerpt]]:
        """Every excerpt with its section."""
        for e in self.evidence:
            for x in e.excerpts:
                yield e, x

    def to_dataframe(self) -> Any:
        """One row per excerpt (needs pandas: ``pip install documentindex[dataframe]``)."""
        try:
            import pandas as pd  # type: ignore[import-not-found]
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError(
                "to_dataframe needs pandas: pip install pandas (or documentindex[dataframe])"
            ) from e
        return pd.DataFrame(
            [
                {
                    "doc_name": e.doc_name,
                    "node_id": e.node_id,
                    "title": e.title,
                    "path": e.path,
                    "node_relevance": e.relevance_score,
                    "excerpt": x.text,
                    "start_char": x.text_range[0],
                    "end_char": x.text_range[1],
                    "relevance": x.relevance,
                    "reason": x.reason,
                }
                for e, x in self.excerpts()
            ]
        )

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(e.title)}</td><td>{x.relevance:.2f}</td>"
            f"<td>{html.escape(x.text)}</td></tr>"
            for e, x in self.excerpts()
        )
        return (
            f"<div><b>{html.escape(self.topic)}</b>: {self.relevant_nodes_found} section(s), "
            f"{self.total_nodes_scanned} scanned<table><tr><th>section</th><th>relevance</th>"
            f"<th>excerpt</th></tr>{rows}</table></div>"
        )
