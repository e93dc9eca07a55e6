"""`brainq serve`: warm answers over the store's socket, the same as in-process ones."""

import json
import shutil
import stat
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest

from brainq import __version__
from brainq.serve import PROTOCOL, RememberedEmbed
from tests.conftest import AS_OF, SAMPLES, ask_json, run_cli

# Runs `brainq ARGS` in a fresh process and reports, after its output, whether it loaded the
# model: a served answer needs none of it.
_CLIENT = """
import json, sys
from brainq.cli import app
sys.argv = ["brainq", *sys.argv[1:]]
code = 0
try:
    app()
except SystemExit as exc:
    code = exc.code or 0
print(json.dumps({"code": code, "model": "sentence_transformers" in sys.modules}), file=sys.stderr)
"""


def client(home, *args):
    done = subprocess.run(
        [sys.executable, "-c", _CLIENT, "--store", str(home), *args], capture_output=True, text=True, timeout=300
    )
    *messages, probe = done.stderr.strip().splitlines()
    return done.stdout, "\n".join(messages), json.loads(probe)


def test_remembered_vectors_are_embedded_once_and_the_oldest_go():
    asked = []

    def embed(texts):
        asked.append(texts)
        return [[float(len(t)), 0.5] for t in texts]

    remembered = RememberedEmbed(embed, size=2)
    assert remembered(["a", "bb", "a"]) == [[1.0, 0.5], [2.0, 0.5], [1.0, 0.5]]
    assert remembered(["bb", "ccc"]) == [[2.0, 0.5], [3.0, 0.5]]
    assert remembered(["a"]) == [[1.0, 0.5]]  # evicted as the oldest, so embedded again
    assert asked == [["a", "bb"], ["ccc"], ["a"]]


@pytest.fixture
def served(tmp_path, embedder):
    """A store of the sample notes, and a `brainq serve` process answering for it."""
    home, source = tmp_path / "s", tmp_path / "docs"
    shutil.copytree(SAMPLES / "notes", source)
    assert run_cli("ingest", "--quiet", str(source), store=home).exit_code == 0
    with serving(home):
        yield home, source


@contextmanager
def serving(home):
    """A `brainq serve` process for `home`, stopped as SIGTERM stops it, leaving no socket."""
    server = subprocess.Popen(
        [sys.executable, "-m", "brainq", "--store", str(home), "serve"], stderr=subprocess.PIPE, text=True
    )
    started = server.stderr.readline()
    try:
        assert "answering for" in started, started + server.stderr.read()
        yield server
    finally:
        server.terminate()
        assert server.wait(timeout=30) == 0
    assert not (home / "brainq.sock").exists()


@pytest.mark.slow
def test_served_answer_is_the_in_process_answer(served):
    home, _ = served
    question = ("ask", "--json", "--as-of", AS_OF, "What is the Wi-Fi password?")
    out, _, probe = client(home, *question)
    assert probe == {"code": 0, "model": False}  # the server answered
    assert stat.S_IMODE((home / "brainq.sock").stat().st_mode) == 0o600
    # In-process: the same question through the CLI with the server out of the way.
    (home / "brainq.sock").rename(home / "paused.sock")
    try:
        assert json.loads(out) == ask_json(home, question[-1])
    finally:
        (home / "paused.sock").rename(home / "brainq.sock")
    text, _, _ = client(home, "ask", "--as-of", AS_OF, "What is the Wi-Fi password?")
    assert text.startswith(("ANSWER", "VERIFY"))


@pytest.mark.slow
def test_server_reports_bad_questions_like_in_process(served):
    home, _ = served
    _, message, probe = client(home, "ask", "   ")
    assert probe == {"code": 2, "model": False}
    assert message == "brainq: error: the question is empty"


@pytest.mark.slow
def test_server_sees_what_a_backfill_wrote(served):
    home, source = served
    question = ("ask", "--json", "--as-of", AS_OF, "What size is our HVAC filter?")
    before, _, _ = client(home, *question)
    invoice = source / "comfort-air-invoice-26-0147.eml"
    shutil.copy(SAMPLES / "mail" / invoice.name, invoice)
    assert run_cli("backfill", "--quiet", store=home).exit_code == 0
    after, _, probe = client(home, *question)
    assert not probe["model"]
    assert str(invoice) not in [r["path"] for r in json.loads(before)["results"]]
    assert json.loads(after)["results"][0]["path"] == str(invoice)


@pytest.mark.slow
def test_one_server_per_store(served):
    home, _ = served
    second = subprocess.run(
        [sys.executable, "-m", "brainq", "--store", str(home), "serve"], capture_output=True, text=True, timeout=120
    )
    assert second.returncode == 1
    assert "already running" in second.stderr and "Traceback" not in second.stderr


@pytest.mark.slow
def test_ask_answers_in_process_when_the_server_is_gone(tmp_path, embedder):
    home = tmp_path / "s"
    assert run_cli("ingest", "--quiet", str(SAMPLES / "notes"), store=home).exit_code == 0
    (home / "brainq.sock").touch()  # left behind by a server that was killed
    started = time.monotonic()
    answer = ask_json(home, "What is the Wi-Fi password?")
    assert answer["results"] and time.monotonic() - started < 60


def _send(home, payload: bytes) -> dict:
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(60)
        conn.connect(str(home / "brainq.sock"))
        conn.sendall(payload)
        conn.shutdown(socket.SHUT_WR)
        data = b""
        while part := conn.recv(65536):
            data += part
    return json.loads(data)


@pytest.mark.slow
def test_the_socket_speaks_json_and_refuses_anything_else(served, tmp_path):
    import os
    import pickle

    home, _ = served
    negative = {"question": "x", "as_of": AS_OF, "pattern": None, "top_k": -3, "chroma_url": None, "patterns": None}
    for garbage in (
        b"hello\n", b'{"question": "x"}\n', b'{"brainq": %d, "ask": {"question": 3}}\n' % PROTOCOL,
        json.dumps({"brainq": PROTOCOL, "ask": negative}).encode() + b"\n",
    ):
        reply = _send(home, garbage)
        assert reply["brainq"] == PROTOCOL and reply["error"]["type"] == "UsageError"
        assert reply["error"]["message"].startswith("not a brainq request")

    witness = tmp_path / "pwned"

    class Hostile:
        def __reduce__(self):
            return (os.system, (f"touch {witness}",))

    reply = _send(home, pickle.dumps(Hostile()) + b"\n")
    assert "not a brainq request" in reply["error"]["message"]
    assert not witness.exists()
    # The server still answers a proper client afterwards.
    out, _, probe = client(home, "ask", "--json", "--as-of", AS_OF, "What is the Wi-Fi password?")
    assert probe == {"code": 0, "model": False} and json.loads(out)["results"]


def test_an_answer_is_rebuilt_only_from_brainq_classes():
    from brainq.serve import WireError, from_wire

    with pytest.raises(WireError, match="unknown type 'Popen'"):
        from_wire({"$": "Popen", "args": ["touch", "/tmp/x"]})
    with pytest.raises(WireError, match="malformed Intent"):
        from_wire({"$": "Intent", "pattern": "entity", "shell": "rm -rf /"})
    assert from_wire({"$": "tuple", "v": [{"$": "date", "v": "2026-03-12"}]})[0].isoformat() == "2026-03-12"


@pytest.mark.slow
def test_a_stalled_server_is_passed_over(tmp_path, embedder, monkeypatch):
    """A server stopped with Ctrl-Z accepts connections (the kernel queues them) and answers
    none: ask waits REPLY_TIMEOUT_SECONDS (here made shorter), not minutes, then answers
    in-process."""
    import os
    import signal

    timeout = 2.0
    monkeypatch.setattr("brainq.serve.REPLY_TIMEOUT_SECONDS", timeout)
    home = tmp_path / "s"
    assert run_cli("ingest", "--quiet", str(SAMPLES / "notes"), store=home).exit_code == 0
    with serving(home) as server:
        os.kill(server.pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            answer = ask_json(home, "What is the Wi-Fi password?")
            waited = time.monotonic() - started
        finally:
            os.kill(server.pid, signal.SIGCONT)
    assert answer["results"] and timeout <= waited < timeout + 60


def test_a_server_started_before_the_first_ingest_waits_for_it(tmp_path):
    """`@reboot brainq serve` on a store nothing is in yet: it starts, says so when asked, and
    leaves no socket behind when stopped."""
    home, empty = tmp_path / "s", tmp_path / "empty"
    empty.mkdir()
    run_cli("ingest", "--quiet", str(empty), store=home)  # makes the store, finds nothing
    request = {"question": "Anything?", "as_of": AS_OF, "pattern": None, "top_k": 5, "chroma_url": None,
               "patterns": None, "version": __version__}  # fmt: skip
    with serving(home):
        reply = _send(home, json.dumps({"brainq": PROTOCOL, "ask": request}).encode() + b"\n")
    assert "nothing is ingested" in reply["error"]["message"]
