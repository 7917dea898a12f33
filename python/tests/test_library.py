"""The persistent library, both calling styles, streaming, cancellation, errors, and the
notebook views."""

import asyncio
import json
import os
import subprocess
import traceback
from pathlib import Path

import pytest

import documentindex
from documentindex import (
    AgenticQA,
    Cancelled,
    DocumentIndex,
    DocumentIndexer,
    InputError,
    Library,
    NodeSearcher,
    ProvenanceExtractor,
)

from conftest import APPLE, FIXTURES, NIKE_PDF


def test_sync_and_async_give_the_same_results(apple):
    question = "What was Apple's capital expenditure in fiscal 2024?"
    sync_answer = AgenticQA(apple).answer_sync(question)
    async_answer = asyncio.run(AgenticQA(apple).answer(question))
    assert sync_answer.answer == async_answer.answer
    assert "9,447" in sync_answer.answer
    assert any("9,447" in c.excerpt for c in sync_answer.citations)
    sync_nodes = NodeSearcher(apple).find_related_nodes_sync("share repurchases", top_k=5)
    async_nodes = asyncio.run(NodeSearcher(apple).find_related_nodes("share repurchases", top_k=5))
    assert [n.node_id for n in sync_nodes] == [n.node_id for n in async_nodes]
    assert len(sync_nodes) == 5


def test_the_event_loop_is_not_blocked_while_the_engine_works(apple):
    async def main():
        ticks = 0

        async def ticker():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.001)
                ticks += 1

        task = asyncio.ensure_future(ticker())
        await ProvenanceExtractor(apple).extract_all("liquidity")
        task.cancel()
        return ticks

    assert asyncio.run(main()) > 5


def test_answers_and_evidence_stream_as_they_come(apple):
    async def main():
        answer_events = [e async for e in AgenticQA(apple).answer_stream("What were Apple's total net sales in fiscal 2024?")]
        scan_events = [e async for e in ProvenanceExtractor(apple).extract_stream("foreign exchange")]
        return answer_events, scan_events

    answer_events, scan_events = asyncio.run(main())
    kinds = [k for k, _ in answer_events]
    assert kinds[-1] == "done" and "step" in kinds and "token" in kinds
    streamed = "".join(p for k, p in answer_events if k == "token")
    result = answer_events[-1][1]
    assert streamed.strip() == result.answer.strip()
    hits = [p for k, p in scan_events if k == "hit"]
    report = scan_events[-1][1]
    assert scan_events[-1][0] == "done"
    assert [h.node_id for h in hits] and {h.node_id for h in hits} == {e.node_id for e in report.evidence}
    assert any(k == "progress" for k, _ in scan_events)


def test_indexing_streams_its_progress(scratch):
    async def main():
        return [e async for e in scratch.index_stream(FIXTURES / "buckle_8-K_2024-11-22.html")]

    events = asyncio.run(main())
    kinds = [k for k, _ in events]
    assert kinds[0] == "started" and "progress" in kinds and kinds[-1] == "done"
    (report,) = events[-1][1]
    assert report.ok and report.status == "indexed"


def test_a_cancelled_task_stops_indexing_and_stores_nothing(scratch):
    scratch.index_sync(APPLE, embed=False)

    async def main():
        task = asyncio.ensure_future(scratch.index(NIKE_PDF))
        await asyncio.sleep(1.0)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    names = [d.doc_name for d in scratch.list()]
    assert names == [APPLE.name]
    # The library works on after a cancellation.
    assert scratch.search_sync("iPhone", limit=3)


def test_a_cancelled_stream_stops_the_scan(apple):
    library = apple.library

    async def main():
        seen = 0
        async for kind, _ in library.provenance_stream("risk", doc=apple.doc_id):
            seen += 1
            if seen == 2:
                break
        return seen

    assert asyncio.run(main()) == 2
    # The next call starts afresh.
    assert ProvenanceExtractor(apple).extract_all_sync("iPhone").evidence


def test_bad_input_raises_input_error_naming_the_file_and_loses_nothing(scratch, tmp_path):
    scratch.index_sync(APPLE, embed=False)
    bad = tmp_path / "report.docx"
    bad.write_bytes(b"PK\x03\x04 not a filing")
    (report,) = scratch.index_sync(bad)
    assert not report.ok and report.fault == "user"
    assert "report.docx" in (report.error or "")
    with pytest.raises(InputError) as caught:
        DocumentIndexer(library=scratch).index_sync(bad)
    assert "report.docx" in str(caught.value)
    with pytest.raises(InputError, match="no document"):
        scratch.document("no-such-filing")
    assert [d.doc_name for d in scratch.list()] == [APPLE.name]
    assert isinstance(caught.value, documentindex.DocumentIndexError)


def test_a_bad_model_string_is_an_input_error_and_keys_never_show(tmp_path, monkeypatch):
    secret = "sk-python-test-271828-secret"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    with pytest.raises(InputError) as caught:
        Library(tmp_path / "lib", model="gpt-4o")
    assert "openai/gpt-4o" in str(caught.value)
    library = Library(tmp_path / "lib2", model="openai/gpt-4o-mini")
    shown = repr(library) + repr(DocumentIndexer(library=library)) + "".join(
        traceback.format_exception(caught.value)
    )
    assert secret not in shown


def test_the_same_folder_shows_the_same_documents_from_python_and_the_cli(scratch):
    scratch.index_sync([APPLE, FIXTURES / "buckle_8-K_2024-11-22.html"], embed=False)
    binary = os.environ["DOCINDEX_BIN"]
    listed = subprocess.run(
        [binary, "--library", str(scratch.path), "--json", "list"],
        check=True,
        capture_output=True,
        text=True,
    )
    from_cli = sorted(d["doc_id"] for d in json.loads(listed.stdout))
    assert from_cli == sorted(d.doc_id for d in scratch.list())
    # And what the CLI indexes, Python sees.
    subprocess.run(
        [binary, "--library", str(scratch.path), "index", "--skip-embed",
         str(FIXTURES / "oracle_8-K_2024-11-14_item5.07.html")],
        check=True,
        capture_output=True,
    )
    assert "oracle_8-K_2024-11-14_item5.07.html" in [d.doc_name for d in Library(scratch.path).list()]


def test_a_library_answers_across_filings_with_company_scope(scratch):
    scratch.index_sync([APPLE, FIXTURES / "tesla_10-K_FY2023_0001628280-24-002390.html"])
    answer = scratch.ask_sync("How many consumer vehicles did Tesla deliver in 2023?")
    assert "1,808,581" in answer.answer
    assert {c.doc_name for c in answer.citations} == {"tesla_10-K_FY2023_0001628280-24-002390.html"}
    scoped = scratch.search_sync("net sales", company="Apple", limit=3)
    assert {m.doc_name for m in scoped} == {APPLE.name}


def test_to_dict_and_from_dict_restore_the_tree(apple):
    data = apple.to_dict(include_text=True)
    again = DocumentIndex.from_dict(json.loads(json.dumps(data)), library=apple.library)
    assert [n.to_dict(False) for n in again.get_all_nodes()] == [
        n.to_dict(False) for n in apple.get_all_nodes()
    ]
    leaf = again.get_leaf_nodes()[5]
    assert again.get_node_text(leaf.node_id) == apple.get_node_text(leaf.node_id)
    assert [n.node_id for n in again.get_node_path(leaf.node_id)][-1] == leaf.node_id
    assert again.get_node_path(leaf.node_id)[0].parent_id is None
    assert again.chunks == apple.chunks
    # Bound again, it answers.
    assert AgenticQA(again).answer_sync("What was Apple's net income in fiscal 2024?").citations
    with pytest.raises(ValueError, match="text"):
        DocumentIndex.from_dict(apple.to_dict())
    with pytest.raises(InputError, match="not bound"):
        NodeSearcher(DocumentIndex.from_dict(data)).find_related_nodes_sync("iPhone")


def test_evidence_as_a_dataframe_and_notebook_views(apple):
    result = ProvenanceExtractor(apple).extract_all_sync("supply chain", relevance_threshold=0.5)
    frame = result.to_dataframe()
    assert len(frame) == sum(len(e.excerpts) for e in result.evidence) > 0
    assert {"node_id", "excerpt", "start_char", "end_char", "relevance"} <= set(frame.columns)
    for row in frame.itertuples():
        assert apple.original_text[row.start_char : row.end_char] == row.excerpt
    answer = AgenticQA(apple).answer_sync("What was Apple's capital expenditure in fiscal 2024?")
    page = answer._repr_html_()
    assert "9,447" in page and "<blockquote>" in page
    tree = apple._repr_html_()
    assert "Item 1A" in tree and tree.count("<li>") == len(apple.get_all_nodes())
