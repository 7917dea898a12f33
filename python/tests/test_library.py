"""The persistent library, both calling styles, streaming, cancellation, errors, and the
notebook views."""

import asyncio
import contextlib
import http.server
import json
import threading
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
    before = scratch._engine.cancelled_calls

    async def main():
        task = asyncio.ensure_future(scratch.index(NIKE_PDF))
        await asyncio.sleep(0.2)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert scratch._engine.cancelled_calls == before + 1
    assert [d.doc_name for d in scratch.list()] == [APPLE.name]
    # The library works on after a cancellation, and the next call is not cancelled.
    assert scratch.search_sync("iPhone", limit=3)


def test_leaving_a_stream_early_stops_its_call_and_no_other(scratch):
    scratch.index_sync(APPLE, embed=False)
    before = scratch._engine.cancelled_calls

    async def main():
        # Another task's call runs beside the stream's: only the stream's is cancelled.
        other = asyncio.ensure_future(scratch.ask("What was Apple's net income in fiscal 2024?"))
        async with contextlib.aclosing(scratch.index_stream(NIKE_PDF)) as events:
            async for kind, _ in events:
                if kind == "started":
                    break
        return await other

    answer = asyncio.run(main())
    assert "93,736" in answer.answer
    assert scratch._engine.cancelled_calls == before + 1
    assert [d.doc_name for d in scratch.list()] == [APPLE.name]


def test_an_exception_in_a_callback_is_raised_and_a_call_back_is_refused(apple):
    library = apple.library

    def fails(kind, payload):
        raise ValueError("the consumer broke")

    with pytest.raises(ValueError, match="the consumer broke"):
        library.ask_sync("What was Apple's net income in fiscal 2024?", doc=apple.doc_id, on_event=fails)

    def calls_back(kind, payload):
        library.list()

    with pytest.raises(InputError, match="on_event"):
        library.ask_sync("What was Apple's net income in fiscal 2024?", doc=apple.doc_id, on_event=calls_back)
    # The library is free again.
    assert library.list()


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


def test_a_path_given_as_a_string_is_the_file_not_its_name_as_text(scratch, tmp_path):
    indexer = DocumentIndexer(library=scratch)
    doc = indexer.index_sync(str(APPLE))
    assert doc.doc_name == APPLE.name
    assert len(doc.structure) > 5, "the filing's sections, not its path's characters"
    missing = str(tmp_path / "no-such-filing.htm")
    with pytest.raises(InputError, match="no-such-filing.htm: no such file"):
        indexer.index_sync(missing)
    # Text that only looks like a file name is indexed as text when it is named.
    named = indexer.index_sync("notes.txt", doc_name="literal.txt")
    assert named.doc_name == "literal.txt"


def test_a_bad_model_string_is_an_input_error_and_keys_never_show(tmp_path, monkeypatch):
    secret = "sk-python-test-271828-secret"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    with pytest.raises(InputError) as caught:
        Library(tmp_path / "lib", model="gpt-4o")
    assert "openai/gpt-4o" in str(caught.value)

    # A provider that refuses the key and quotes it back, as some do.
    class Refuses(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("content-length", 0)))
            body = json.dumps({"error": {"message": f"Incorrect API key provided: {secret}"}})
            self.send_response(401)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(body.encode())

        do_GET = do_POST

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Refuses)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{server.server_port}/v1")
    Library(tmp_path / "lib2").index_sync(APPLE, embed=False)
    library = Library(tmp_path / "lib2", model="openai/gpt-4o-mini")
    with pytest.raises(documentindex.ProviderError) as refused:
        library.ask_sync("What does Apple say about its supply chain?")
    server.shutdown()
    shown = (
        repr(library)
        + repr(DocumentIndexer(library=library))
        + str(refused.value)
        + "".join(traceback.format_exception(refused.value))
        + "".join(traceback.format_exception(caught.value))
    )
    assert "401" in str(refused.value) or "key" in str(refused.value).lower()
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


def test_texts_given_without_a_name_do_not_replace_each_other(tmp_path):
    indexer = DocumentIndexer(library=tmp_path / "lib")
    first = indexer.index_sync("# Note 1\n\nRevenue was $5 million.\n\n# Note 2\n\nCosts rose.\n")
    second = indexer.index_sync("# Part A\n\nHeadcount was 120.\n\n# Part B\n\nNo change.\n")
    assert first.doc_name != second.doc_name
    assert len(indexer.library.list()) == 2
    assert first.get_node_text(first.get_leaf_nodes()[0].node_id).startswith("# Note 1")


def test_to_dict_and_from_dict_restore_the_tree(apple):
    data = apple.to_dict(include_text=True)
    again = DocumentIndex.from_dict(json.loads(json.dumps(data)), library=apple.library)
    assert apple.cross_references
    assert [(r.source_node_id, r.reference_text, r.target_node_id) for r in again.cross_references] == [
        (r.source_node_id, r.reference_text, r.target_node_id) for r in apple.cross_references
    ]
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
    every = ProvenanceExtractor(apple).extract_all_sync("supply chain")
    assert all(x.relevance >= 0.5 for _, x in result.excerpts())
    assert sum(1 for _ in every.excerpts()) > sum(1 for _ in result.excerpts())
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
