"""Warm answers: `brainq serve` keeps the model and the store open behind a Unix socket.

A fresh `ask` process spends most of its time importing and loading the model; a server
that already holds them answers in a fraction of that. The socket lives in the store
directory (owner-only, like everything there) and the server also checks that every peer
runs as its own user, so a request or an answer never crosses users. `ask` uses the server
when one answers for its store and settings, and otherwise answers in-process: the server is
an accelerator, never a requirement, and both paths produce the same Answer.

Protocol: one request per connection, a JSON line from the client; the server replies with a
pickled ("answer", Answer), ("error", BrainqError) or ("mismatch", reason) and closes. Pickle
is safe here only because both ends are the same user, which the peer check enforces.
"""

from __future__ import annotations

import fcntl
import json
import os
import pickle
import socket
import struct
from array import array
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import date
from pathlib import Path

from brainq import __version__
from brainq.ask import Embed, ask
from brainq.config import Config
from brainq.errors import BrainqError, StoreError
from brainq.store import Store

SOCKET_NAME = "brainq.sock"
MAX_REQUEST_BYTES = 1 << 20
# A queued request may wait behind others; past this, answering in-process is faster.
REPLY_TIMEOUT_SECONDS = 120.0
REMEMBERED_VECTORS = 20_000  # sentence vectors the server keeps: float32, 384 numbers, ~30 MB


@dataclass
class Request:
    question: str
    as_of: str
    pattern: str | None
    top_k: int
    chroma_url: str | None
    patterns: str | None  # the patterns.yaml the client loaded (absolute), None for the built-in one
    version: str = __version__  # a server of another brainq may pickle another Answer


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
            conn.sendall(json.dumps(asdict(request)).encode() + b"\n")
            reply = _read_all(conn)
        except OSError:  # a stale socket, a server that stopped or stalled: answer in-process
            return None
    try:
        status, payload = pickle.loads(reply)
    except Exception:  # a reply cut short by a server stopping mid-answer
        return None
    if status == "error":
        raise payload
    return payload if status == "answer" else None


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
        """Load the model and open the vectors now, so the first client does not wait for them."""
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
        try:
            while True:
                conn, _ = self.sock.accept()
                with conn:
                    self._handle(conn)
        finally:
            self.close()

    def close(self) -> None:
        self.sock.close()
        self.path.unlink(missing_ok=True)
        self.lock.close()

    def _handle(self, conn: socket.socket) -> None:
        try:
            if _peer_uid(conn) != os.getuid():
                return
            conn.settimeout(10.0)
            request = Request(**json.loads(_read_line(conn)))
            conn.sendall(pickle.dumps(self._reply(request)))
        except Exception:
            return  # a client that went away or sent garbage costs nothing but its connection

    def _reply(self, request: Request) -> tuple[str, object]:
        if request.chroma_url != self.store.chroma_url or request.version != __version__:
            return "mismatch", "the server uses another Chroma or another brainq"
        try:
            config = self._config(request.patterns)
            self.store.refresh()
            as_of = date.fromisoformat(request.as_of)
            return "answer", ask(
                request.question, self.store, config, self.embed, as_of, request.pattern, request.top_k
            )
        except BrainqError as exc:
            return "error", exc
        except Exception as exc:  # the server outlives one bad question; the client reports it
            return "error", BrainqError(f"the server failed on this question: {type(exc).__name__}: {exc}")

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
