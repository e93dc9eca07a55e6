"""Two machines, one Chroma server: every command against `chroma run`, as on the embedded store.

Machine A (a laptop: notes and mail) and machine B (a NAS: scanned documents, a calendar) are
two `--store` directories ingesting into one server started here on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from datetime import date
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import httpx
import pytest

from brainq.errors import StoreError
from brainq.store import _Guarded
from tests.conftest import AS_OF, SAMPLES, ask_json, run_cli

pytestmark = pytest.mark.slow

LAPTOP = ("notes/wifi.txt", "notes/house-info.md", "notes/babysitter.md", "mail/comfort-air-invoice-26-0147.eml")
NAS = (
    "documents/comfort-air-invoice-25-1108.pdf",
    "documents/oakridge-vet-maggie-2026-01-27.pdf",
    "calendar/leo-soccer-practice.ics",
)
QUESTIONS = ("What size furnace filter do we need?", "What's our WiFi password?", "When was Maggie's last vet visit?")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A Chroma server on a free loopback port, with its data in a temp dir."""
    # The chromadb wheel installs `chroma` beside this Python.
    chroma = shutil.which("chroma", path=str(Path(sys.executable).parent)) or shutil.which("chroma")
    if chroma is None:
        pytest.skip("cannot start a Chroma server: no `chroma` command beside this Python or on PATH")
    data = tmp_path_factory.mktemp("chroma")
    port = _free_port()
    # The server reports to nobody unless an OpenTelemetry endpoint is configured: pass none.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHROMA_", "OTEL_"))}
    env["ANONYMIZED_TELEMETRY"] = "False"
    with open(data / "server.log", "wb") as log:
        process = subprocess.Popen(
            [chroma, "run", "--path", str(data / "db"), "--host", "127.0.0.1", "--port", str(port)],
            stdout=log, stderr=subprocess.STDOUT, env=env,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"{url}/api/v2/heartbeat", timeout=2).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            tail = (data / "server.log").read_text(errors="replace")[-500:]
            pytest.skip(f"cannot start a Chroma server (`chroma run` on port {port}): {tail.strip()}")
        time.sleep(0.2)
    yield url
    process.terminate()
    process.wait(timeout=30)


class Machine:
    """One `--store` talking to the shared server."""

    def __init__(self, home: Path, store: Path, url: str):
        self.home, self.store, self.url = home, store, url

    def run(self, *args: str):
        return run_cli("--chroma-url", self.url, *args, store=self.store)

    def ask(self, question: str, as_of: str = AS_OF) -> dict:
        result = self.run("ask", "--json", "--as-of", as_of, question)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    def documents(self) -> list[dict]:
        result = self.run("list", "--json")
        assert result.exit_code == 0, result.output
        return [json.loads(line) for line in result.stdout.splitlines()]

    def status(self, *flags: str) -> tuple[int, dict]:
        result = self.run("status", "--json", *flags)
        return result.exit_code, json.loads(result.stdout)


def _tree(root: Path, files: tuple[str, ...]) -> Path:
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLES / name, root / name)
    return root


@pytest.fixture(scope="module")
def machines(tmp_path_factory, server, embedder):
    """A and B, each having ingested its own files; returns (a, b)."""
    root = tmp_path_factory.mktemp("machines")
    a = Machine(_tree(root / "laptop", LAPTOP), root / "a-store", server)
    b = Machine(_tree(root / "nas", NAS), root / "b-store", server)
    for machine, files in ((a, LAPTOP), (b, NAS)):
        result = machine.run("ingest", "--json", str(machine.home))
        assert result.exit_code == 0, result.output
        assert json.loads(result.stdout)["added"] == len(files)
    return a, b


def _path(result: dict) -> str:
    return result["path"] + (f"#{result['locator']}" if result["locator"] else "")


def test_each_machine_answers_from_the_others_documents(machines):
    a, b = machines
    assert a.ask("When was Maggie's last vet visit?")["results"][0]["path"].startswith(str(b.home))
    assert b.ask("What's our WiFi password?")["results"][0]["path"].startswith(str(a.home / "notes"))


def test_a_machine_with_nothing_of_its_own_answers_from_the_server(machines, tmp_path):
    a, b = machines
    reader = Machine(tmp_path / "nothing", tmp_path / "c-store", a.url)
    assert reader.ask("What's our WiFi password?")["results"][0]["path"].startswith(str(a.home / "notes"))


def test_every_document_once_on_both_machines(machines):
    a, b = machines
    listed = a.documents()
    assert listed == b.documents()
    assert len({d["doc_id"] for d in listed}) == len(listed)
    assert {d["path"] for d in listed} == {str(a.home / f) for f in LAPTOP} | {str(b.home / f) for f in NAS}
    _, info = a.status()
    assert info["chroma_url"] == a.url and info["documents"] == len(listed)
    assert set(info["by_origin"]) == {info["origin"], b.status()[1]["origin"]}
    assert f"origin: {info['origin']} on the Chroma server at {a.url}" in a.run("status").output


def test_answers_match_the_embedded_store(machines, tmp_path):
    a, b = machines
    embedded = tmp_path / "embedded"
    result = run_cli("ingest", "--quiet", str(a.home), str(b.home), store=embedded)
    assert result.exit_code == 0, result.output
    for question in QUESTIONS:
        served, local = a.ask(question), ask_json(embedded, question)
        for answer in (served, local):  # doc_ids are namespaced by origin on a server: compare paths
            paths = {found.pop("doc_id"): found["path"] for found in answer["results"]}
            answer["answer_source"] = paths.get(answer["answer_source"], answer["answer_source"])
        # Scores may differ in their last digits: torch's vectors (precision fp32 or bf16)
        # change there with the batch a text was embedded in.
        assert _alike(served, local), question


def _alike(a, b) -> bool:
    """Equal, but for numbers within 0.01 of each other."""
    if isinstance(a, float) or isinstance(b, float):
        return isinstance(a, (int, float)) and isinstance(b, (int, float)) and abs(a - b) <= 0.01
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_alike(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_alike(x, y) for x, y in zip(a, b))
    return a == b


def test_same_path_on_two_machines_is_two_documents(machines, tmp_path):
    """Both machines have a file at the same path (here one file, rewritten in between):
    two documents, and B forgetting its own leaves A's."""
    a, b = machines
    shared = tmp_path / "shared"
    shared.mkdir()
    note = shared / "locker.txt"
    note.write_text("Boat storage\n\nThe boat storage locker combination is 2468.\n")
    assert a.run("ingest", "--quiet", str(shared)).exit_code == 0
    note.write_text("Boat storage\n\nThe boat storage locker combination is 1357.\n")
    assert b.run("ingest", "--quiet", str(shared)).exit_code == 0
    for machine in machines:
        assert [d["path"] for d in machine.documents()].count(str(note)) == 2
    question, today = "What is the boat storage locker combination?", date.today().isoformat()
    snippets = " ".join(r["snippet"] for r in a.ask(question, today)["results"])
    assert "2468" in snippets and "1357" in snippets

    result = b.run("forget", str(shared))
    assert result.exit_code == 0 and "forgot 1 document" in result.output
    for machine in machines:
        assert [d["path"] for d in machine.documents()].count(str(note)) == 1
        assert "2468" in machine.ask(question, today)["answer"]
    assert a.run("forget", str(shared)).exit_code == 0


def test_backfill_on_one_machine_reaches_the_other(machines):
    a, b = machines
    (a.home / "notes/babysitter.md").unlink()
    with open(a.home / "notes/wifi.txt", "a") as fh:
        fh.write("\nThe new guest password is lemonade42.\n")
    result = a.run("backfill", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["removed"], report["updated"]) == (1, 1)
    paths = [d["path"] for d in b.documents()]
    assert str(a.home / "notes/babysitter.md") not in paths
    assert paths.count(str(a.home / "notes/wifi.txt")) == 1
    found = b.ask("What is the new guest password?")["results"]
    assert any(r["path"] == str(a.home / "notes/wifi.txt") and "lemonade42" in r["snippet"] for r in found)
    assert b.documents() == a.documents()


def test_two_machines_ingesting_at_once(machines, tmp_path):
    """A in its own process, B in this one, at the same time, each a copy of files the other
    ingested: nothing lost, nothing twice, and no chunk embedded again."""
    a, b = machines
    unchanged = ("notes/house-info.md", "mail/comfort-air-invoice-26-0147.eml")  # on A, after any backfill
    more_a, more_b = _tree(tmp_path / "laptop", NAS), _tree(tmp_path / "nas", unchanged)
    args = [sys.executable, "-m", "brainq", "--store", str(a.store), "--chroma-url", a.url]
    other = subprocess.Popen([*args, "ingest", "--quiet", str(more_a)], stderr=subprocess.PIPE, text=True)
    result = b.run("ingest", "--json", str(more_b))
    assert result.exit_code == 0 and json.loads(result.stdout)["embedded"] == 0, result.output
    assert other.wait(timeout=300) == 0, other.stderr.read()
    listed = a.documents()
    assert listed == b.documents() and len({d["doc_id"] for d in listed}) == len(listed)
    places = {d["path"] for d in listed} | {c.split("#")[0] for d in listed for c in d["copies"]}
    for tree, files in ((more_a, NAS), (more_b, unchanged)):
        assert {str(tree / f) for f in files} <= places  # listed, or a copy of one listed
    for machine in machines:
        assert machine.status("--check")[0] == 0


def test_check_and_repair_mend_only_their_own_origin(machines):
    import chromadb
    from chromadb.config import Settings

    a, b = machines
    origin_a = a.status()[1]["origin"]
    host, port = a.url.removeprefix("http://").split(":")
    client = chromadb.HttpClient(host=host, port=int(port), settings=Settings(anonymized_telemetry=False))
    client.get_collection("brainq_chunks").add(
        ids=["orphan:0:0"], embeddings=[[0.1] * 384], documents=["left over"], metadatas=[{"path": "/x", "origin": origin_a}]
    )
    for machine, orphans in ((b, 0), (a, 1)):
        code, info = machine.status("--check")
        assert (code, info["check"]["orphan_vectors"], info["check"]["missing_vectors"]) == (min(orphans, 1), orphans, 0)
    assert b.status("--check", "--repair")[1]["check"]["repaired"] is False
    assert a.status("--check", "--repair")[1]["check"]["repaired"] is True
    assert a.status("--check")[0] == 0
    assert client.get_collection("brainq_chunks").get(ids=["orphan:0:0"])["ids"] == []


class _OldServer(BaseHTTPRequestHandler):
    """Answers like a Chroma 0.4 server, which has no v2 API."""

    def do_GET(self):
        self.send_response(404)
        self.end_headers()
        self.wfile.write(b'{"detail":"Not Found"}')

    def log_message(self, *args):
        pass


def test_the_cron_line_names_the_server_the_store_keeps_its_vectors_on(machines):
    """cron runs without the environment that may have named the server (BRAINQ_CHROMA_URL)."""
    a, _ = machines
    line = run_cli("cron", store=a.store).stdout
    assert f"--store {a.store} --chroma-url {a.url} backfill --quiet" in line


def test_a_server_lost_midway_is_one_line():
    class Gone:
        def upsert(self, **_):
            raise httpx.ConnectError("[Errno 111] Connection refused")

    with pytest.raises(StoreError, match=r"^the Chroma server at http://nas:8000 failed: \[Errno 111\]"):
        _Guarded(Gone(), "http://nas:8000", server=True).upsert(ids=["x"])


def _error(store: Path, *args: str) -> str:
    result = run_cli(*args, "status", store=store)
    assert result.exit_code == 1
    assert len(result.output.strip().splitlines()) == 1, result.output
    return result.output


def test_unusable_servers_and_stores_are_one_line_errors(tmp_path):
    assert "cannot reach the Chroma server" in _error(tmp_path / "s" / "new", "--chroma-url", f"http://127.0.0.1:{_free_port()}")
    assert not (tmp_path / "s").exists()  # a new machine's folder the server could not fill is not left behind
    assert "cannot reach the Chroma server" in _error(tmp_path / "s", "--chroma-url", f"http://[::1]:{_free_port()}")
    for url in ("localhost:8000", "http://localhost:99999", "http://localhost:abc", "http://[::1", "http://localhost:0"):
        assert "expected http://host:port" in _error(tmp_path / "s", "--chroma-url", url)
    old = HTTPServer(("127.0.0.1", 0), _OldServer)
    threading.Thread(target=old.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{old.server_address[1]}"
        assert "does not speak Chroma's API v2" in _error(tmp_path / "s", "--chroma-url", url)
    finally:
        old.shutdown()


def test_a_store_keeps_to_its_vectors(machines, tmp_path):
    """A catalog describes one place's vectors: an embedded store cannot turn into a server's."""
    a, _ = machines
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "one.txt").write_text("One line of text.\n")
    assert run_cli("ingest", "--quiet", str(notes), store=tmp_path / "embedded").exit_code == 0
    assert "use a new --store for the server" in _error(tmp_path / "embedded", "--chroma-url", a.url)
    result = run_cli("ask", "anything", store=a.store)
    assert result.exit_code == 1 and f"pass --chroma-url {a.url}" in result.output
