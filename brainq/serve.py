"""Warm answers: `brainq serve` keeps the model and the store open behind a Unix socket.

A fresh `ask` process spends most of its time importing and loading the model; a server
that already holds them answers in a fraction of that. The socket lives in the store
directory (owner-only, like everything there) and the server also checks that every peer
runs as its own user, so a request or an answer never crosses users. `ask` uses the server
when one answers for its store and settings, and otherwise answers in-process: the server is
an accelerator, never a requirement, and both paths produce the same Answer.

Protocol (version `PROTOCOL`): one request per connection. The client sends one JSON line,
`{"brainq": 2, "ask": {question, as_of, pattern, top_k, chroma_url, patterns, version}}`; the
server replies with one JSON object, `{"brainq": 2, "answer": ...}`, `{"brainq": 2, "error":
{"type", "message"}}` or `{"brainq": 2, "mismatch": reason}`, and closes. The answer travels as
its dataclasses, each tagged with its name, and is rebuilt only from the classes listed in
`_WIRE_TYPES`: nothing a peer sends can make the other side build an object of its choosing,
whatever the socket's permissions (which keep other users out, and the peer check too).
Anything else is refused with a one-line error.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import struct
from array import array
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, is_dataclass
from datetime import date, datetime
from pathlib import Path

from brainq import __version__
from brainq import errors
from brainq.ask import Answer, Embed, ask, understood
from brainq.config import Config
from brainq.embedding import lazy_question_embed
from brainq.errors import BrainqError, StoreError, UsageError
from brainq.intent import Intent
from brainq.query.candidates import Candidate
from brainq.scoring import Scored
from brainq.store import Store, StoredDocument
from brainq.timeref import TimeRef
from brainq.verdict import Verdict

SOCKET_NAME = "brainq.sock"
PROTOCOL = 2  # 2: an Answer names its source
MAX_REQUEST_BYTES = 1 << 20
# A queued request may wait behind others (each takes a tenth of a second); past this, the
# server is stalled (stopped with Ctrl-Z, or hung) and answering in-process is faster.
REPLY_TIMEOUT_SECONDS = 10.0
REMEMBERED_VECTORS = 20_000  # sentence vectors the server keeps: float32, 384 numbers, ~30 MB


@dataclass
class Request:
    question: str
    as_of: str
    pattern: str | None
    top_k: int
    chroma_url: str | None
    patterns: str | None  # the patterns.yaml the client loaded (absolute), None for the built-in one
    version: str = __version__  # a server of another brainq may send another Answer


def socket_path(home: Path) -> Path:
    return Path(home).expanduser() / SOCKET_NAME


def ask_served(home: Path, request: Request):
    """The server's Answer, or None when no server answers for this store and these settings."""
    path = socket_path(home)
    if not path.exists():
        return None
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        try:
            conn.settimeout(1.0)
            conn.connect(str(path))
            if _peer_uid(conn) != os.getuid():
                return None
            conn.settimeout(REPLY_TIMEOUT_SECONDS)
            conn.sendall(json.dumps({"brainq": PROTOCOL, "ask": asdict(request)}).encode() + b"\n")
            reply = _read_all(conn)
        except OSError:  # a stale socket, a server that stopped or stalled: answer in-process
            return None
    try:
        message = json.loads(reply)
    except ValueError:  # a reply cut short by a server stopping mid-answer
        return None
    kind = _kind(message, ("answer", "error", "mismatch"))
    if kind is None:
        raise StoreError(f"the brainq server on {path} replied in another format; stop it and start `brainq serve` again")
    if kind == "error":
        raise _error(message["error"])
    if kind == "answer":
        try:
            answer = from_wire(message["answer"])
        except WireError as exc:
            raise StoreError(f"the brainq server on {path} sent an answer brainq cannot read ({exc})") from None
        if isinstance(answer, Answer):
            return answer
        raise StoreError(f"the brainq server on {path} sent something other than an answer")
    return None


def answer(home: Path, request: Request, config: Config) -> Answer:
    """The client side of `brainq ask`: the answer of the server running for this store and
    these settings, else one made in this process (which loads the model first)."""
    served = ask_served(home, request)
    if served is not None:
        return served
    as_of = date.fromisoformat(request.as_of)
    understood(request.question, as_of, config, request.pattern)
    store = Store(home, request.chroma_url, create=False)
    embed = lazy_question_embed(store, config.embedding)
    return ask(request.question, store, config, embed, as_of, request.pattern, request.top_k)


class Server:
    """Answers requests one at a time: asks take tens of milliseconds once warm, and one
    thread keeps the store's SQLite connection and the model free of concurrent use."""

    def __init__(self, store: Store, embed: Embed, load_config: Callable[[str | None], Config]):
        self.store = store
        self.embed = RememberedEmbed(embed)
        self.load_config = load_config
        self.configs: dict[tuple, Config] = {}
        self.path = socket_path(store.home)
        self.sock = self._bind()

    def warm_up(self) -> None:
        """Load the model and open the vectors now, so the first client does not wait for them;
        a server started on a store nothing is in yet waits for its first question."""
        if self.store.chunk_count():
            ask("warm up", self.store, self._config(None), self.embed, date.today())

    def _bind(self) -> socket.socket:
        """Bind the store's socket, holding `serve.lock` for the server's lifetime: one server
        per store, and a stale socket is replaced only by the one process holding the lock."""
        if len(str(self.path).encode()) > 100:
            raise StoreError(f"the store path is too long for a socket ({self.path}); use a shorter --store")
        self.lock = open(self.store.home / "serve.lock", "a+")
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.lock.close()
            raise StoreError(f"a brainq server is already running for this store ({self.path})") from None
        self.path.unlink(missing_ok=True)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind(str(self.path))
        os.chmod(self.path, 0o600)
        sock.listen(64)
        return sock

    def serve_forever(self) -> None:
        while True:
            conn, _ = self.sock.accept()
            with conn:
                self._handle(conn)

    def close(self) -> None:
        self.sock.close()
        self.path.unlink(missing_ok=True)
        self.lock.close()

    def _handle(self, conn: socket.socket) -> None:
        try:
            if _peer_uid(conn) != os.getuid():
                return
            conn.settimeout(10.0)
            reply = self._reply(_read_line(conn))
            conn.sendall(json.dumps({"brainq": PROTOCOL, **reply}).encode())
        except Exception:
            return  # a client that went away costs nothing but its connection

    def _reply(self, line: bytes) -> dict:
        try:
            request = parse_request(line)
        except UsageError as exc:
            return {"error": {"type": "UsageError", "message": str(exc)}}
        if request.chroma_url != self.store.chroma_url or request.version != __version__:
            return {"mismatch": "the server uses another Chroma or another brainq"}
        try:
            config = self._config(request.patterns)
            self.store.refresh()
            as_of = date.fromisoformat(request.as_of)
            answer = ask(request.question, self.store, config, self.embed, as_of, request.pattern, request.top_k)
            return {"answer": to_wire(answer)}
        except BrainqError as exc:
            return {"error": {"type": type(exc).__name__, "message": str(exc)}}
        except Exception as exc:  # the server outlives one bad question; the client reports it
            message = f"the server failed on this question: {type(exc).__name__}: {exc}"
            return {"error": {"type": "BrainqError", "message": message}}

    def _config(self, patterns: str | None):
        """Configs by file and mtime: an edited patterns.yaml takes effect on the next ask."""
        key = (patterns, os.stat(patterns).st_mtime_ns if patterns else None)
        if key not in self.configs:
            self.configs[key] = self.load_config(patterns)
        return self.configs[key]


class RememberedEmbed:
    """An embedder that remembers its latest vectors. Most of a warm answer's time goes to
    embedding the best documents' sentences, and the same documents come up again and again
    (a week of questions about school hits the same few emails)."""

    def __init__(self, embed: Embed, size: int = REMEMBERED_VECTORS):
        self.embed = embed
        self.size = size
        self.vectors: OrderedDict[str, array] = OrderedDict()

    def __call__(self, texts: list[str]) -> list[list[float]]:
        missing = [t for t in dict.fromkeys(texts) if t not in self.vectors]
        for text, vector in zip(missing, self.embed(missing) if missing else []):
            self.vectors[text] = array("f", vector)
        for text in texts:
            self.vectors.move_to_end(text)
        vectors = [list(self.vectors[t]) for t in texts]
        while len(self.vectors) > self.size:
            self.vectors.popitem(last=False)
        return vectors


def _peer_uid(conn: socket.socket) -> int:
    """The user at the other end; -1 (nobody we trust) where the system cannot tell (not Linux)."""
    if not hasattr(socket, "SO_PEERCRED"):
        return -1
    creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    return struct.unpack("3i", creds)[1]


def _read_line(conn: socket.socket) -> bytes:
    data = b""
    while not data.endswith(b"\n"):
        part = conn.recv(65536)
        if not part:
            break
        data += part
        if len(data) > MAX_REQUEST_BYTES:
            raise ValueError("request too large")
    return data


def _read_all(conn: socket.socket) -> bytes:
    parts = []
    while part := conn.recv(1 << 16):
        parts.append(part)
    return b"".join(parts)


# -- the wire format -----------------------------------------------------------------------------

_WIRE_TYPES = {cls.__name__: cls for cls in (Answer, Intent, TimeRef, Verdict, Scored, Candidate, StoredDocument)}
_ERRORS = {cls.__name__: cls for cls in vars(errors).values() if isinstance(cls, type) and issubclass(cls, BrainqError)}


class WireError(ValueError):
    """A message that is not brainq's protocol."""


def _kind(message, kinds: tuple[str, ...]) -> str | None:
    """Which of `kinds` a message of this protocol version carries, or None."""
    if not isinstance(message, dict) or message.get("brainq") != PROTOCOL:
        return None
    found = [k for k in kinds if k in message]
    return found[0] if len(found) == 1 and len(message) == 2 else None


def parse_request(line: bytes) -> Request:
    """A client's request, or a UsageError that says in one line why it is not one."""
    try:
        message = json.loads(line)
    except ValueError:
        raise UsageError("not a brainq request: not one line of JSON") from None
    if _kind(message, ("ask",)) is None:
        raise UsageError(f"not a brainq request: expected {{\"brainq\": {PROTOCOL}, \"ask\": {{...}}}}")
    body = message["ask"]
    names = {f.name for f in fields(Request)}
    if not isinstance(body, dict) or not set(body) <= names:
        raise UsageError(f"not a brainq request: 'ask' takes only {', '.join(sorted(names))}")
    try:
        request = Request(**body)
    except TypeError as exc:
        raise UsageError(f"not a brainq request: {exc}") from None
    for name, kinds in (("question", str), ("as_of", str), ("top_k", int), ("version", str)):
        if not isinstance(getattr(request, name), kinds):
            raise UsageError(f"not a brainq request: {name} must be a {kinds.__name__}")
    for name in ("pattern", "chroma_url", "patterns"):
        if getattr(request, name) is not None and not isinstance(getattr(request, name), str):
            raise UsageError(f"not a brainq request: {name} must be a string or null")
    if isinstance(request.top_k, bool) or request.top_k < 1:  # JSON's true is an int to Python
        raise UsageError("not a brainq request: top_k must be 1 or more")
    return request


def to_wire(value):
    """A value as JSON: dataclasses tagged with their name, dates and tuples tagged too."""
    if is_dataclass(value):
        return {"$": type(value).__name__, **{f.name: to_wire(getattr(value, f.name)) for f in fields(value)}}
    if isinstance(value, datetime):
        return {"$": "datetime", "v": value.isoformat()}
    if isinstance(value, date):
        return {"$": "date", "v": value.isoformat()}
    if isinstance(value, tuple):
        return {"$": "tuple", "v": [to_wire(v) for v in value]}
    if isinstance(value, list):
        return [to_wire(v) for v in value]
    if isinstance(value, dict):
        return {"$": "dict", "v": [[to_wire(k), to_wire(v)] for k, v in value.items()]}
    return value


def from_wire(value):
    """The value `to_wire` made, built only from the listed classes; WireError otherwise."""
    if isinstance(value, list):
        return [from_wire(v) for v in value]
    if not isinstance(value, dict):
        return value
    tag = value.get("$")
    try:
        if tag == "datetime":
            return datetime.fromisoformat(value["v"])
        if tag == "date":
            return date.fromisoformat(value["v"])
        if tag == "tuple":
            return tuple(from_wire(v) for v in value["v"])
        if tag == "dict":
            return {from_wire(k): from_wire(v) for k, v in value["v"]}
        if tag in _WIRE_TYPES:
            cls = _WIRE_TYPES[tag]
            return cls(**{k: from_wire(v) for k, v in value.items() if k != "$"})
    except (KeyError, TypeError, ValueError) as exc:
        raise WireError(f"a malformed {tag}: {exc}") from None
    raise WireError(f"unknown type {tag!r}")


def _error(body) -> BrainqError:
    """The error a server reported, as the same class (only brainq's own)."""
    if not isinstance(body, dict) or not isinstance(body.get("message"), str):
        return StoreError("the brainq server reported an error it did not describe")
    return _ERRORS.get(body.get("type"), BrainqError)(body["message"])
