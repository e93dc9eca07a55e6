"""`brainq mcp`: the store's tools, through the MCP SDK's own stdio client, as an assistant calls them."""

import asyncio
import json
import subprocess
import sys
import threading

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from brainq.store import Store
from tests.conftest import AS_OF, SAMPLES, ask_json, run_cli

pytestmark = pytest.mark.slow


def session_calls(store, calls):
    """Start `brainq mcp` for `store`, list its tools, make `calls` [(tool, arguments)] in turn."""

    async def run():
        params = StdioServerParameters(command=sys.executable, args=["-m", "brainq", "--store", str(store), "mcp"])
        async with stdio_client(params) as streams, ClientSession(*streams) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            return tools, [await session.call_tool(name, arguments) for name, arguments in calls]

    return asyncio.run(run())


def test_every_tool_on_the_sample_store(sample_store):
    store, _ = sample_store
    question = "What size is our HVAC filter?"
    tools, (asked, found, listed, status, bad_day, far_day, no_end, bad_limit, bad_type, unknown, no_question, wordy_limit,
            no_query, long_id, still, newest, compact_day, backwards, stray, true_limit, text_limit, yes) = session_calls(
        store,
        [
            ("ask", {"question": question, "as_of": AS_OF}),
            ("search", {"query": "furnace filter", "doc_type": "invoice", "limit": 3}),
            ("list_documents", {"since": "2026-03-01", "doc_type": "email", "limit": 100}),
            ("status", {}),
            ("ask", {"question": question, "as_of": "next Friday"}),
            ("ask", {"question": "What is on next week?", "as_of": "9999-12-31"}),
            ("search", {"query": "furnace filter", "until": "9999-12-31", "limit": 3}),
            ("search", {"query": "filter", "limit": 0}),
            ("list_documents", {"doc_type": "invoices"}),
            ("get_document", {"id": "no-such-document"}),
            ("ask", {"as_of": AS_OF}),
            ("search", {"query": "filter", "limit": "many"}),
            ("search", {"query": "\u200b"}),
            ("get_document", {"id": "x" * 10_000}),
            ("ask", {"question": "Is Friday a half-day?", "as_of": AS_OF}),
            ("list_documents", {"newest_first": True, "limit": 3}),
            ("list_documents", {"since": "20260301"}),
            ("search", {"query": "filter", "since": "2026-03-01", "until": "2026-02-01"}),
            ("ask", {"question": question, "as_of": AS_OF, "top_k": 100}),
            ("list_documents", {"limit": True}),
            ("search", {"query": "filter", "limit": "3"}),
            ("list_documents", {"newest_first": "yes"}),
        ],
    )
    assert set(tools) == {"ask", "search", "get_document", "list_documents", "status"}
    assert all(t.description for t in tools.values())
    assert tools["ask"].input_schema["required"] == ["question"]

    assert not asked.is_error and asked.structured_content == ask_json(store, question)
    results = found.structured_content["result"]
    assert 0 < len(results) <= 3 and {r["doc_type"] for r in results} == {"invoice"}
    documents = listed.structured_content["result"]
    assert documents and all(d["doc_type"] == "email" and d["source_date"] >= "2026-03-01" for d in documents)
    assert status.structured_content["documents"] > len(documents)

    assert bad_day.is_error and "as_of takes a date as YYYY-MM-DD" in bad_day.content[0].text
    assert far_day.is_error and "brainq answers as of a day in 1900 to 2999" in far_day.content[0].text
    assert not no_end.is_error and no_end.structured_content["result"]  # 9999-12-31: no end
    assert bad_limit.is_error and "limit must be between 1 and 200" in bad_limit.content[0].text
    assert bad_type.is_error and "unknown doc_type 'invoices': choose one of" in bad_type.content[0].text
    assert unknown.is_error and "no document with doc_id" in unknown.content[0].text
    # Arguments that do not fit the schema: one line naming the argument, not pydantic's report.
    assert no_question.is_error and no_question.content[0].text == "Error executing tool ask: question is required"
    assert wordy_limit.is_error and wordy_limit.content[0].text.endswith("limit takes a whole number, got 'many'")
    # taken as written: true is no 1, "3" no 3, "yes" no true
    assert true_limit.is_error and true_limit.content[0].text.endswith("limit takes a whole number, got True")
    assert text_limit.is_error and text_limit.content[0].text.endswith("limit takes a whole number, got '3'")
    assert yes.is_error and yes.content[0].text.endswith("newest_first takes true or false, got 'yes'")
    assert no_query.is_error and "the query has no words" in no_query.content[0].text
    assert compact_day.is_error and "since takes a date as YYYY-MM-DD" in compact_day.content[0].text
    assert backwards.is_error and "since 2026-03-01 is after until 2026-02-01" in backwards.content[0].text
    assert long_id.is_error and len(long_id.content[0].text) < 200  # a client's argument quoted in part
    assert stray.is_error and stray.content[0].text == (  # not left out without a word
        "Error executing tool ask: unknown argument 'top_k'; ask takes question, as_of, pattern"
    )
    assert not still.is_error and still.structured_content["verdict"]["level"] == "answer"
    dates = [d["source_date"] for d in newest.structured_content["result"]]
    everything = [json.loads(line)["source_date"] for line in run_cli("list", "--json", store=store).stdout.splitlines()]
    assert dates == sorted(dates, reverse=True) and dates[0] == max(d for d in everything if d)


def test_a_document_is_read_by_its_id(sample_store):
    store, _ = sample_store
    first = ask_json(store, "What size is our HVAC filter?")["results"][0]
    _, (document,) = session_calls(store, [("get_document", {"id": first["doc_id"]})])
    read = document.structured_content
    assert read["path"] == first["path"] and read["doc_type"] == first["doc_type"]
    assert "16x25" in read["text"] and len(read["text"]) <= 20_001


def test_a_document_of_several_chunks_is_read_as_written(sample_store):
    """Chunks repeat the last sentences of the one before; the document's text says them once."""
    store, _ = sample_store
    path = SAMPLES / "notes" / "babysitter.md"
    listed = [json.loads(line) for line in run_cli("list", "--json", store=store).stdout.splitlines()]
    doc_id = next(d["doc_id"] for d in listed if d["path"] == str(path))
    _, (document,) = session_calls(store, [("get_document", {"id": doc_id})])
    lines = [line for line in document.structured_content["text"].splitlines() if line.strip()]
    assert len(lines) > 20 and len(lines) == len(set(lines))  # the file repeats no line either
    assert lines[-1] in path.read_text()


def test_a_document_that_repeats_its_own_lines_keeps_them(tmp_path, embedder):
    """Only what chunking carried over is said once: a log repeating a line keeps each time."""
    from contextlib import closing

    from brainq.config import load_config

    notes = tmp_path / "notes"
    notes.mkdir()
    again = "- Same again: gave the dog one 75 mg carprofen tablet with dinner, and she ate all of it."
    distinct = [f"- Day {i}: walked the dog around the block at {i} in the morning." for i in range(1, 15)]
    (notes / "log.md").write_text("\n".join([*distinct, *[again] * 7]) + "\n")
    assert run_cli("ingest", "--quiet", str(notes), store=tmp_path / "s").exit_code == 0
    with closing(Store(tmp_path / "s")) as store:
        (doc,) = store.documents(None, None, None)
        text = store.document_text(doc.doc_id, 20_000, load_config().chunking.overlap_words)
    assert doc.chunks > 1
    assert text.count("Same again") == 7 and all(text.count(line) == 1 for line in distinct)


def test_an_empty_store_says_so(tmp_path):
    Store(tmp_path / "empty").close()
    _, (asked, status) = session_calls(tmp_path / "empty", [("ask", {"question": "Anything?"}), ("status", {})])
    assert asked.is_error and "nothing is ingested" in asked.content[0].text
    assert status.structured_content["documents"] == 0


def test_a_line_that_is_no_message_is_answered_and_the_server_goes_on(tmp_path):
    """JSON-RPC 2.0 answers a line it cannot take with an error of id null; a client that
    sent it would otherwise wait for ever, and the next request must still be served."""
    Store(tmp_path / "empty").close()
    command = [sys.executable, "-m", "brainq", "--store", str(tmp_path / "empty"), "mcp"]
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as server:
        unanswered = threading.Timer(60, server.kill)  # a reply that never comes ends the read
        unanswered.start()

        def reply_to(line: str) -> dict:
            server.stdin.write(line + "\n")
            server.stdin.flush()
            return json.loads(server.stdout.readline())

        try:
            not_json = reply_to("this is not json")
            server.stdin.write("\n   \n")  # blank lines, and a response however malformed: no reply
            server.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 5, "result": "x"}) + "\n")
            not_a_message = reply_to(json.dumps({"jsonrpc": "2.0", "id": 1, "method": 3}))
            ping = reply_to(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "ping"}))
        finally:
            unanswered.cancel()
            server.stdin.close()  # the client is done: the server ends, quietly
        assert server.wait(timeout=60) == 0 and server.stderr.read() == ""
    assert not_json == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error: the line is not JSON"}}
    assert not_a_message["id"] == 1 and not_a_message["error"]["code"] == -32600  # its id, where it can be read
    assert ping == {"jsonrpc": "2.0", "id": 2, "result": {}}


def test_requests_written_at_once_are_all_answered_after_the_input_ends(sample_store):
    """`brainq mcp < requests.jsonl`: the input ends while the last requests are still being
    answered; their answers come all the same, then the server ends."""
    store, _ = sample_store
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        # a cancel whose id cannot be one, and a request named like a cancel: neither cancels anything
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": [2]}},
        {"jsonrpc": "2.0", "id": 7, "method": "notifications/cancelled", "params": {"requestId": 3}},
        *({"jsonrpc": "2.0", "id": n, "method": "tools/call",
           "params": {"name": "ask", "arguments": {"question": "Is Friday a half-day?", "as_of": AS_OF}}} for n in (2, 3)),
    ]  # fmt: skip
    command = [sys.executable, "-m", "brainq", "--store", str(store), "mcp"]
    done = subprocess.run(command, input="".join(json.dumps(r) + "\n" for r in requests), capture_output=True, text=True, timeout=300)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0 and "Traceback" not in done.stderr and "internal error" not in done.stderr
    answers = {r["id"]: r for r in replies}
    assert sorted(answers) == [1, 2, 3, 7] and answers[7]["error"]["code"] == -32601  # no such method
    assert not any(answers[n]["result"].get("isError") for n in (2, 3))


def test_search_keeps_a_date_known_to_the_month_as_any_day_of_it():
    from dataclasses import replace
    from datetime import date, datetime

    from brainq.mcp_server import _within
    from brainq.store import StoredDocument

    march = StoredDocument(doc_id="m", path="/m", locator=None, kind="text", doc_type="note", title="m", sender=None,
                           source_date=datetime(2025, 3, 1), date_source="text", date_precision="month")
    assert _within(march, date(2025, 3, 15), None, None)
    assert _within(march, None, date(2025, 3, 1), None)
    assert not _within(march, date(2025, 4, 1), None, None)
    assert not _within(replace(march, date_precision="day"), date(2025, 3, 15), None, None)
