"""`brainq mcp`: the store as tools an AI assistant can call, over MCP's stdio transport.

The server opens the store and loads the question model once, so a warm call costs what a
`brainq serve` answer costs. Every tool reads; none writes, deletes, or opens a file outside
the store. Bad arguments and a store that cannot answer come back as tool errors with a
message the assistant can act on; nothing a client sends stops the server. Like the CLI, it
parses and renders only: the answers are `brainq.ask`'s, the listings the store's.
"""

from __future__ import annotations

from datetime import date
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

from brainq import __version__
from brainq.ask import AS_OF_YEARS, ask, check_question, rank, result_json
from brainq.config import Config
from brainq.dates import given_day
from brainq.errors import BrainqError
from brainq.scoring import as_known, visible
from brainq.store import Store

DOCUMENT_CHARS = 20_000  # text get_document returns at most: enough to read, not a whole mailbox
MAX_LIMIT = 200


def server(store: Store, config: Config, embed) -> MCPServer:
    """The MCP server for one store; `embed` is the question embedder (loaded on first use)."""
    app = _Server(
        "brainq",
        version=__version__,
        log_level="WARNING",  # stderr is the assistant's log: a line per failed call is enough
        instructions=(
            "A personal archive of mail, PDFs, photos, calendars and notes. Use `ask` for a "
            "question that wants an answer with a verdict (answer, verify, unknown) and dated "
            "sources; `search` to find documents; `get_document` to read one; `list_documents` "
            "to browse by date or type; `status` for what the archive holds. Dates are YYYY-MM-DD."
        ),
    )

    def guarded(call):
        """A BrainqError (bad input, an empty store) as a tool error: its message, one line."""
        try:
            store.refresh()  # see what a backfill wrote since the last call
            return call()
        except BrainqError as exc:
            raise ToolError(str(exc)) from None

    def _check_type(doc_type: str | None) -> None:
        problem = config.doc_types.unknown(doc_type or None)
        if problem:
            raise ToolError(problem)

    @app.tool(name="ask")
    def ask_archive(question: str, as_of: str | None = None, pattern: str | None = None) -> dict[str, Any]:
        """Answer a question from the freshest relevant evidence in the archive.

        Returns what `brainq ask --json` prints: the verdict (answer, verify or unknown, with
        a reason and a confidence), the answer sentence quoted from the best source, and the
        ranked sources with path, date, type and scores. `as_of` answers as if today were that
        day (YYYY-MM-DD); `pattern` forces logistical, entity or historical.
        """
        day = _day(as_of, "as_of") or date.today()
        return guarded(lambda: ask(question, store, config, embed, day, pattern, top_k=5).to_json())

    @app.tool()
    def search(
        query: str, since: str | None = None, until: str | None = None, doc_type: str | None = None, limit: int = 10
    ) -> list[dict[str, Any]]:
        """Documents that match a query, best first, without a verdict.

        `since`/`until` (YYYY-MM-DD) keep documents written in that span; `doc_type` keeps one
        type (email, newsletter, invoice, receipt, manual, static_pdf, photo, calendar_event,
        note). Each result has path, date, type, title, a snippet and its score.
        """
        (first, last), n = _span(since, until), _limit(limit)
        _check_type(doc_type)

        def found():
            check_question(query, "query")
            # `until` filters; ranking as of it stays within the years ask answers for
            # (9999-12-31 is how a client says "no end").
            as_of = max(min(last or date.today(), date.today()), date(AS_OF_YEARS[0], 1, 1))
            ranking = rank(query, store, config, embed, as_of)
            kept = [s for s in ranking.ranked if _within(s.doc, first, last, doc_type)][:n]
            return [result_json(i, s, ranking.floor) for i, s in enumerate(kept, 1)]

        return guarded(found)

    @app.tool()
    def get_document(id: str) -> dict[str, Any]:
        """One document's metadata and text (at most 20,000 characters), by its doc_id."""

        def read():
            docs = store.get_documents([id])
            if id not in docs:
                raise ToolError(f"no document with doc_id {_shown(id)} in this archive; search or list_documents give ids")
            return {**docs[id].to_json(), "text": store.document_text(id, DOCUMENT_CHARS, config.chunking.overlap_words)}

        return guarded(read)

    @app.tool()
    def list_documents(
        since: str | None = None,
        until: str | None = None,
        doc_type: str | None = None,
        limit: int = 50,
        newest_first: bool = False,
    ) -> list[dict[str, Any]]:
        """Documents with their dates, types and titles, oldest first (newest first with
        `newest_first`): what `brainq list` shows.

        `since`/`until` (YYYY-MM-DD) keep documents written in that span; `doc_type` keeps one
        type; at most `limit` (up to 200): the rest is reached by a narrower span.
        """
        (first, last), n = _span(since, until), _limit(limit)
        _check_type(doc_type)

        def listed():
            documents = store.documents(doc_type, first, last)
            if newest_first:
                documents = reversed(list(documents))
            return [d.to_json() for _, d in zip(range(n), documents)]

        return guarded(listed)

    @app.tool()
    def status() -> dict[str, Any]:
        """What the archive holds: documents and chunks, counts by type and by year, sources,
        its size, files and parts of files that could not be read (the first 200;
        files_with_errors counts all such files) and its last runs."""

        def summary():
            info = store.summary()
            return {**info, "failed_files": info["failed_files"][:MAX_LIMIT]}

        return guarded(summary)

    return app


class _Server(MCPServer):
    """The SDK's server, with arguments that do not fit a tool's schema, or that it has none
    for, reported as one line that names the argument ("limit takes a whole number, got
    'abc'"): the SDK passes on pydantic's report, several lines that name an internal function
    and link pydantic's docs."""

    async def call_tool(self, name, arguments, context=None):
        tool = self._tool_manager.get_tool(name)
        known = (tool.parameters.get("properties") or {}) if tool else None
        if known is not None and (unknown := sorted(set(arguments or {}) - set(known))):
            # The SDK leaves an argument no parameter takes out without a word ("top_k" to ask):
            # the assistant would believe it was heeded.
            takes = f"takes {', '.join(known)}" if known else "takes no arguments"
            raise ToolError(f"Error executing tool {name}: unknown argument {unknown[0]!r}; {name} {takes}")
        for key, value in (arguments or {}).items():
            if expected := _mistyped(known[key], value):
                raise ToolError(f"Error executing tool {name}: {key} takes {expected}, got {_shown(value)}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc, UnexpectedToolError) or not isinstance(exc.__cause__, ValidationError):
                raise
            problems = "; ".join(_argument_problem(error) for error in exc.__cause__.errors())
            raise ToolError(f"Error executing tool {name}: {problems}") from exc.__cause__

    async def run_stdio_async(self) -> None:
        """As the SDK's, but a line that is no JSON-RPC message gets the error reply JSON-RPC
        asks for: the SDK's transport only logs it, and a client waits for an answer."""
        async with stdio_server() as (lines, replies):
            answered = _Answered(lines, replies)
            await self._lowlevel_server.run(
                answered, _Replies(replies, answered.unanswered), self._lowlevel_server.create_initialization_options()
            )


class _Answered:
    """The transport's messages, with each line it could not read answered in its place, and
    their end held back until every request read has its reply: at the end of its input the
    SDK cancels the requests still being answered, so a client that writes its requests and
    closes stdin (`brainq mcp < requests.jsonl`) lost the answers to the last of them."""

    def __init__(self, lines, replies):
        self._lines, self._replies = lines, replies
        self.unanswered: set = set()  # ids of the requests read and not yet replied to

    @property
    def last_context(self):  # the SDK runs a handler in the context its message was sent in
        return getattr(self._lines, "last_context", None)

    def __aiter__(self):
        return self

    async def __anext__(self):
        async for item in self._lines:
            if not isinstance(item, Exception):
                message = getattr(item.message, "root", item.message)
                method, known = getattr(message, "method", None), getattr(message, "id", None)
                if method == "notifications/cancelled" and known is None:  # no reply will come
                    cancelled = (getattr(message, "params", None) or {}).get("requestId")
                    if isinstance(cancelled, (str, int)):
                        self.unanswered.discard(cancelled)
                elif method is not None and known is not None:
                    self.unanswered.add(known)
                return item
            reply = _unreadable(item)
            if reply is not None:
                await self._replies.send(SessionMessage(reply))
        while self.unanswered:
            await anyio.sleep(REPLY_POLL_SECONDS)
        raise StopAsyncIteration

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc_info):
        await self.aclose()

    async def aclose(self):
        await self._lines.aclose()


REPLY_POLL_SECONDS = 0.05


class _Replies:
    """The transport's reply stream, crossing off each request as its reply is sent."""

    def __init__(self, replies, unanswered: set):
        self._replies, self._unanswered = replies, unanswered

    async def send(self, item: SessionMessage) -> None:
        await self._replies.send(item)
        message = getattr(item.message, "root", item.message)
        if getattr(message, "method", None) is None:  # a response or an error, not a request of ours
            self._unanswered.discard(getattr(message, "id", None))

    async def aclose(self) -> None:
        await self._replies.aclose()

    async def __aenter__(self):
        return self

    async def __aexit__(self, *exc_info):
        await self.aclose()


def _unreadable(exc: Exception) -> JSONRPCError | None:
    """JSON-RPC 2.0's reply to a line it cannot take: a parse error, or an invalid request
    under its id where one can be read (else null); none to a blank line, nor to a response,
    which is never answered."""
    errors = exc.errors() if isinstance(exc, ValidationError) else []
    line = next((e["input"] for e in errors if e["type"] == "json_invalid"), None)
    if line is not None:
        if not str(line).strip():
            return None
        return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=PARSE_ERROR, message="Parse error: the line is not JSON"))
    sent = next((e["input"] for e in errors if isinstance(e.get("input"), dict)), {})
    if "method" not in sent and ("result" in sent or "error" in sent):
        return None
    known = sent.get("id")
    known = known if isinstance(known, (str, int)) and not isinstance(known, bool) else None
    error = ErrorData(code=INVALID_REQUEST, message="Invalid Request: not a JSON-RPC 2.0 message")
    return JSONRPCError(jsonrpc="2.0", id=known, error=error)


# JSON's types as a schema names them, with the value each takes as written: pydantic would
# take "3" for 3 and true for 1, and an assistant that sent them would not learn its mistake.
_JSON_TYPES = {"string": ("text", str), "integer": ("a whole number", int), "boolean": ("true or false", bool)}


def _mistyped(schema: dict, value: Any) -> str | None:
    """What the parameter of `schema` takes, where `value` is not of its JSON type; else None."""
    types = [schema.get("type"), *(option.get("type") for option in schema.get("anyOf", []))]
    if value is None and "null" in types:
        return None
    kinds = [_JSON_TYPES[t] for t in types if t in _JSON_TYPES]
    fits = any(isinstance(value, kind) and (kind is bool or not isinstance(value, bool)) for _, kind in kinds)
    return None if fits or not kinds else kinds[0][0]


def _argument_problem(error: dict) -> str:
    field = ".".join(str(part) for part in error["loc"]) or "the arguments"
    kind = error["type"]
    if kind == "missing":
        return f"{field} is required"
    return f"{field}: {error['msg']}"  # a value of the wrong type is refused before (_mistyped)


def _shown(value: Any) -> str:
    """A value as a message quotes it: a client's argument may be any length."""
    text = repr(value)
    return text if len(text) <= 80 else text[:79] + "…"


def _span(since: str | None, until: str | None) -> tuple[date | None, date | None]:
    first, last = _day(since, "since"), _day(until, "until")
    if first and last and first > last:
        raise ToolError(f"since {first} is after until {last}: no day is in both")
    return first, last


def _day(value: str | None, name: str) -> date | None:
    if value is None or value == "":
        return None
    try:
        return given_day(value)
    except (TypeError, ValueError):
        raise ToolError(f"{name} takes a date as YYYY-MM-DD, got {_shown(value)}") from None


def _limit(value: int) -> int:
    if not 1 <= value <= MAX_LIMIT:
        raise ToolError(f"limit must be between 1 and {MAX_LIMIT}, got {value}")
    return value


def _within(doc, first: date | None, last: date | None, doc_type: str | None) -> bool:
    written = doc.written_day
    if doc_type and doc.doc_type != doc_type:
        return False
    # As `list` keeps them: a date known to the month or year is any day of it.
    known = as_known(doc.source_date, doc.date_precision) if doc.source_date else None
    if first and (known is None or known < first.isoformat()[: len(known)]):
        return False
    return not last or (written is not None and written <= last and visible(doc, last))
