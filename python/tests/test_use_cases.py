"""The design's four use cases, run as its example writes them, on a filing given as text and
on a PDF, offline: every node's and every citation's text is the slice of the document's
text at its span."""

import asyncio

import pytest

from documentindex import (
    AgenticQA,
    DocumentIndex,
    DocumentIndexer,
    NodeSearcher,
    ProvenanceExtractor,
)

from conftest import APPLE, MICROSOFT_PDF


def assert_exact_spans(doc: DocumentIndex) -> None:
    text = doc.original_text
    nodes = doc.get_all_nodes()
    assert len(nodes) > 20
    for node in nodes:
        span = node.text_span
        assert 0 <= span.start_char <= span.end_char <= len(text)
        assert doc.get_node_text(node.node_id) == text[span.start_char : span.end_char]
        assert 0 <= node.start_index <= node.end_index <= len(doc.chunk_char_offsets)
        for start, end in doc.chunk_char_offsets[node.start_index : node.end_index]:
            assert start < span.end_char and span.start_char < end
        for child in node.children:
            assert span.start_char <= child.text_span.start_char
            assert child.text_span.end_char <= span.end_char


def run_use_cases(text_or_path, doc_name):
    async def use_cases():
        indexer = DocumentIndexer()
        doc_index = await indexer.index(text_or_path, doc_name=doc_name)
        nodes = await NodeSearcher(doc_index).find_related_nodes("supply chain risks")
        answer = await AgenticQA(doc_index).answer(
            question="What was the total net sales in the fiscal year?", max_iterations=5
        )
        evidence = await ProvenanceExtractor(doc_index).extract_all(
            topic="supply chain", relevance_threshold=0.6
        )
        return indexer, doc_index, nodes, answer, evidence

    return asyncio.run(use_cases())


@pytest.mark.parametrize("source", ["text", "pdf"])
def test_the_seed_use_cases_run_as_written_with_exact_spans(source):
    if source == "text":
        given, name = APPLE.read_text(encoding="utf-8"), "AAPL_10K_2024"
    else:
        given, name = MICROSOFT_PDF, None
    indexer, doc_index, nodes, answer, evidence = run_use_cases(given, name)
    text = doc_index.original_text

    # The index: the design's JSON, and spans that are slices of the text.
    if source == "text":
        assert doc_index.doc_name == "AAPL_10K_2024"
        assert doc_index.doc_type == "10-K"
    else:
        assert doc_index.doc_name == MICROSOFT_PDF.name
        assert all(n.start_page is not None for n in doc_index.get_all_nodes())
    as_dict = doc_index.to_dict()
    assert as_dict["doc_name"] == doc_index.doc_name
    first = as_dict["structure"][0]
    assert {"node_id", "title", "start_index", "end_index"} <= set(first)
    titles = " ".join(n.title for n in doc_index.get_all_nodes())
    assert "Item 1A" in titles and "Item 7" in titles
    assert_exact_spans(doc_index)

    # Related nodes: ranked, scored 0..1, their excerpts inside their own text.
    assert 3 <= len(nodes) <= 10
    assert nodes[0].relevance_score == 1.0
    assert all(0.0 < n.relevance_score <= 1.0 for n in nodes)
    assert any("risk" in n.title.lower() or "supply" in n.get_text().lower() for n in nodes[:3])
    for match in nodes:
        body = match.get_text(doc_index)
        assert body == text[match.node.text_span.start_char : match.node.text_span.end_char]
        for excerpt in match.matched_excerpts:
            assert " ".join(excerpt.split()) in " ".join(body.split())

    # The answer: cited, each citation the exact slice at its range, inside its node.
    assert answer.answered, answer.answer
    assert answer.citations
    assert 0.0 < answer.confidence <= 1.0
    assert answer.reasoning_trace
    for citation in answer.citations:
        start, end = citation.char_range
        assert citation.excerpt == text[start:end]
        node = doc_index.find_node(citation.node_id)
        assert node is not None and node.title == citation.node_title
        assert node.text_span.start_char <= start and end <= node.text_span.end_char
        assert f"[{citation.marker}]" in answer.answer

    # Evidence: every section scanned, every excerpt the slice at its range.
    assert evidence.total_nodes_scanned == len(doc_index.get_all_nodes())
    assert evidence.scan_coverage == 1.0
    assert evidence.relevant_nodes_found == len(evidence.evidence) > 0
    for item in evidence.evidence:
        node_span = item.node.text_span
        assert node_span.start_char <= item.text_range[0] <= item.text_range[1] <= node_span.end_char
        for x in item.excerpts:
            assert x.relevance >= 0.6
            assert x.text == text[x.text_range[0] : x.text_range[1]]
