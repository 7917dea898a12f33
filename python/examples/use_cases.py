"""The design's use cases through the Python package, as the README shows them; mypy
--strict checks it against the package's type stubs."""

import asyncio
import sys
from pathlib import Path
from typing import List

from documentindex import (
    AgenticQA,
    DocumentIndex,
    DocumentIndexer,
    Evidence,
    Library,
    NodeMatch,
    NodeSearcher,
    ProvenanceExtractor,
    ProvenanceResult,
    QAResult,
)


async def main(filing: Path) -> None:
    indexer = DocumentIndexer()
    doc_index: DocumentIndex = await indexer.index(filing.read_text(), doc_name="AAPL_10K_2024")
    nodes: List[NodeMatch] = await NodeSearcher(doc_index).find_related_nodes("supply chain risks")
    for node in nodes[:3]:
        print(f"{node.relevance_score:.2f} {node.node_id} {node.title}")
    answer: QAResult = await AgenticQA(doc_index).answer(
        question="What was Apple's capital expenditure in fiscal 2024?", max_iterations=5
    )
    print(answer.answer)
    for citation in answer.citations:
        start, end = citation.char_range
        assert doc_index.original_text[start:end] == citation.excerpt
    evidence: ProvenanceResult = await ProvenanceExtractor(doc_index).extract_all(
        topic="supply chain", relevance_threshold=0.6
    )
    first: Evidence = evidence.evidence[0]
    print(evidence.relevant_nodes_found, first.title, first.excerpts[0].text[:80])
    async for kind, payload in AgenticQA(doc_index).answer_stream("What were total net sales?"):
        if kind == "token":
            print(payload, end="")
    library = Library.temporary()
    library.index_sync(filing)
    print([d.doc_name for d in library.list()])


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
