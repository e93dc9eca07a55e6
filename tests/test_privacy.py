"""A person's mail stays theirs: no network, an owner-only store, a store brainq cannot read is
left alone, and bad input at the command line is one line and an exit status.

The commands run as a user runs them, in a process of their own: `python -m brainq`.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest

from brainq.errors import StoreError
from tests.conftest import ROOT

SAMPLES = ROOT / "corpus_samples/household"
FIXTURES = ROOT / "tests/fixtures"
# Network system calls of every thread and child process, filtered in the kernel (cheap).
STRACE = ["strace", "-f", "--seccomp-bpf", "-qq", "-e", "trace=connect,sendto,sendmsg"]
OFFLINE_SWITCHES = {"ORT_DISABLE_TELEMETRY": "1", "ANONYMIZED_TELEMETRY": "False", "HF_HUB_OFFLINE": "1"}

# Loaded into every Python process of the command through PYTHONPATH: any attempt to reach a
# network address is written to $BRAINQ_TEST_NET_LOG and fails; at exit the offline switches the
# process ran with are written to $BRAINQ_TEST_ENV_LOG.
SITECUSTOMIZE = r'''
import atexit, json, os, socket

_LOG = os.environ["BRAINQ_TEST_NET_LOG"]


def _refuse(what, target):
    with open(_LOG, "a") as fh:
        fh.write(f"{os.getpid()} {what} {target!r}\n")
    raise OSError(f"network access refused in this test: {what} {target!r}")


def _guard(name):
    real = getattr(socket.socket, name)

    def guarded(self, *args):
        if self.family != socket.AF_UNIX:
            _refuse(name, args[-1] if args else None)  # the address is the last argument
        return real(self, *args)

    setattr(socket.socket, name, guarded)


for _name in ("connect", "connect_ex", "sendto"):
    _guard(_name)
socket.getaddrinfo = lambda host, *args, **kwargs: _refuse("getaddrinfo", host)
socket.create_connection = lambda address, *args, **kwargs: _refuse("create_connection", address)


@atexit.register
def _report_switches():
    names = ("ORT_DISABLE_TELEMETRY", "ANONYMIZED_TELEMETRY", "HF_HUB_OFFLINE")
    with open(os.environ["BRAINQ_TEST_ENV_LOG"], "a") as fh:
        fh.write(json.dumps({name: os.environ.get(name) for name in names}) + "\n")
'''


def brainq(*args: str, env: dict | None = None, prefix: list | None = None) -> subprocess.CompletedProcess:
    """`python -m brainq ARGS` in a process of its own, as a user runs it."""
    command = [*(prefix or []), sys.executable, "-m", "brainq", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT, env=env)


def _strace_works() -> bool:
    """strace also sees native code (Chroma's Rust core, onnxruntime) that Python's socket cannot."""
    if not shutil.which("strace"):
        return False
    probe = subprocess.run([*STRACE, "-o", os.devnull, "true"], capture_output=True)
    return probe.returncode == 0


def _sources(folder: Path) -> Path:
    """One file of every kind brainq reads, and a message carrying a PDF and a photo."""
    folder.mkdir()
    for path in [
        FIXTURES / "mail/invite.eml",  # an .ics attachment
        FIXTURES / "mail/forwarded.eml",  # nested messages
        FIXTURES / "mail/family.mbox",
        FIXTURES / "mail/Maildir/cur/1741700000.M1P2.host:2,S",
        FIXTURES / "text/hvac.md",
        SAMPLES / "calendar/leo-soccer-practice.ics",
        SAMPLES / "documents/comfort-air-invoice-24-0933.pdf",
        SAMPLES / "photos/IMG_0412.jpg",
    ]:
        shutil.copy(path, folder / path.name)
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@example.com", "b@example.com", "Receipt and photo"
    message["Date"] = "Tue, 10 Mar 2026 09:00:00 -0500"
    message.set_content("Attached: the receipt and the photo of the filter.")
    for path, (kind, sub) in [(SAMPLES / "documents/reliable-plumbing-receipt.pdf", ("application", "pdf")),
                              (SAMPLES / "photos/IMG_3307.jpg", ("image", "jpeg"))]:  # fmt: skip
        message.add_attachment(path.read_bytes(), maintype=kind, subtype=sub, filename=path.name)
    (folder / "attachments.eml").write_bytes(bytes(message))
    return folder


@pytest.fixture(scope="module")
def offline_run(tmp_path_factory):
    """`ingest` and `ask` run once, with every network attempt recorded and refused."""
    work = tmp_path_factory.mktemp("offline")
    site = work / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = {k: v for k, v in os.environ.items() if k not in OFFLINE_SWITCHES and not k.startswith("BRAINQ_")}
    env.update(
        PYTHONPATH=os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])),
        BRAINQ_TEST_NET_LOG=str(work / "network.log"),
        BRAINQ_TEST_ENV_LOG=str(work / "environment.log"),
    )
    (work / "network.log").touch()
    traced = _strace_works()
    store, sources = work / "store", _sources(work / "sources")
    runs = []
    question = ["ask", "--as-of", "2026-03-12", "What size is our HVAC filter?"]
    for name, args in [("ingest", ["ingest", str(sources)]), ("ask", question)]:
        prefix = [*STRACE, "-o", str(work / f"{name}.strace")]
        runs.append(brainq("--store", str(store), *args, env=env, prefix=prefix if traced else None))
    return {"work": work, "store": store, "runs": runs, "traced": traced}


def test_ingest_and_ask_open_no_network_socket(offline_run):
    ingest, ask = offline_run["runs"]
    assert ingest.returncode == 0, ingest.stderr[-2000:]
    assert ask.returncode == 0, ask.stderr[-2000:]
    assert ask.stdout.strip()  # a verdict, from the model and Chroma
    assert (offline_run["work"] / "network.log").read_text() == ""
    if offline_run["traced"]:
        for name in ("ingest", "ask"):
            calls = (offline_run["work"] / f"{name}.strace").read_text().splitlines()
            assert [c for c in calls if "AF_INET" in c] == [], name


def test_offline_switches_are_in_effect(offline_run):
    """Set by brainq itself: the test removed them from the environment it started brainq with."""
    lines = (offline_run["work"] / "environment.log").read_text().splitlines()
    reports = [json.loads(line) for line in lines]
    assert len(reports) >= 2  # ingest and ask (and any process they started)
    assert all(report == OFFLINE_SWITCHES for report in reports)


def test_store_is_owner_only(offline_run):
    store = offline_run["store"]
    paths = [store, *store.rglob("*")]
    assert any(p.name == "catalog.sqlite3" for p in paths) and any(p.name == "chroma" for p in paths)
    wrong = {str(p.relative_to(store)): oct(p.stat().st_mode & 0o777) for p in paths
             if p.stat().st_mode & 0o777 != (0o700 if p.is_dir() else 0o600)}  # fmt: skip
    assert wrong == {}


# --- a store brainq cannot read --------------------------------------------------------------


def _snapshot(store: Path) -> dict[str, tuple[int, bytes]]:
    files = [p for p in store.rglob("*") if p.is_file()]
    return {str(p.relative_to(store)): (p.stat().st_mode, p.read_bytes()) for p in files}


def test_store_of_a_newer_version_is_refused_and_left_alone(tmp_path):
    store = tmp_path / "store"
    assert brainq("--store", str(store), "ingest", str(FIXTURES / "text")).returncode == 0
    with sqlite3.connect(store / "catalog.sqlite3") as db:
        db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    db.close()
    before = _snapshot(store)
    message = f"brainq: error: store {store} was written by a newer brainq (schema 99); upgrade brainq"
    for args in (["status"], ["ingest", str(FIXTURES / "text")], ["ask", "Is Friday a half-day?"], ["list"]):
        result = brainq("--store", str(store), *args)
        assert (result.returncode, result.stderr.strip()) == (1, message), args
        assert _snapshot(store) == before, args


# --- bad input at the command line (tests/test_cli.py has the common cases) ------------------


def test_store_path_under_a_file(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    store = tmp_path / "file/store"
    result = brainq("--store", str(store), "ingest", str(FIXTURES / "text"))
    assert result.returncode == 1
    assert result.stderr.strip() == f"brainq: error: cannot create store at {store}: Not a directory"
    result = brainq("--store", str(store), "status")
    assert result.returncode == 1
    assert result.stderr.strip().startswith(f"brainq: error: no brainq store at {store}: ")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes to read-only folders")
def test_read_only_store(tmp_path):
    store = tmp_path / "store"
    store.mkdir(mode=0o500)
    try:
        result = brainq("--store", str(store), "ingest", str(FIXTURES / "text"))
    finally:
        store.chmod(0o700)
    assert result.returncode == 1
    assert result.stderr.startswith(f"brainq: error: store {store} is yours, but {store} is closed to you (not writable by you); `chmod -R u+rwX")
    assert result.stderr.count("\n") == 1


def test_a_store_whose_files_are_not_yours_is_refused_in_one_line(tmp_path, monkeypatch):
    """A store made once with `sudo brainq backfill` has root's files: Chroma fails deep inside
    (a PermissionError on its lock), and a repair would set healthy vectors aside. The store
    says so first. Root writes anyway, so a file that is not writable is made to look so."""
    from brainq.store import Store

    store = tmp_path / "store"
    Store(store).close()
    (store / "chroma").mkdir()
    (store / "chroma" / "chroma.sqlite3").touch()
    refused = store / "chroma" / "chroma.sqlite3"
    real_access, me = os.access, os.geteuid()
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != refused and real_access(path, mode))
    # Yours, its mode changed (`chmod 555`): chown would not help.
    with pytest.raises(StoreError, match=rf"^store {store} is yours, but {refused} is closed to you \(not writable by you\); `chmod -R u\+rwX {store}`"):
        Store(store)
    monkeypatch.setattr(os, "geteuid", lambda: me + 1)
    with pytest.raises(StoreError, match=rf"^store {store} is not yours to use \({refused}: not writable by you\); if it was made with sudo"):
        Store(store)


def test_a_store_on_a_read_only_filesystem_is_refused_as_such(tmp_path, monkeypatch):
    """Not "not yours, chown it": the owner of a store on a read-only mount owns it already.
    Neither the mount nor a root that writes anyway can be had here, so both are made to look so."""
    from brainq.store import Store

    store = tmp_path / "store"
    Store(store).close()
    real_access, real_statvfs = os.access, os.statvfs
    monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != store and real_access(path, mode))
    read_only = type("Flags", (), {"f_flag": os.ST_RDONLY})()
    monkeypatch.setattr(os, "statvfs", lambda path: read_only if Path(path) == store else real_statvfs(path))
    with pytest.raises(StoreError, match=rf"^store {store} is on a read-only filesystem \({store}\): brainq writes"):
        Store(store)


@pytest.mark.parametrize(
    "change, message",
    [
        (("default_pattern: entity", "default_pattern: urgent"), "'urgent' is not one of the patterns"),
        (("  max_pages: 2000", "  max_pages: many"), "limits.max_pages: expected a whole number"),
        (("patterns:", "patterns: {unclosed"), "not valid YAML"),
    ],
)
def test_bad_patterns_file_is_one_line(tmp_path, change, message):
    patterns = tmp_path / "patterns.yaml"
    patterns.write_text((ROOT / "patterns.yaml").read_text().replace(*change, 1))
    result = brainq("--store", str(tmp_path / "s"), "--patterns", str(patterns), "ask", "Is it on?")
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1 and message in result.stderr


@pytest.mark.parametrize(
    "args, message",
    [
        (["teleport"], "No such command"),
        (["ingest"], "Missing argument"),
        (["ask", "--top-k", "0", "Is Friday a half-day?"], "--top-k"),
        (["list", "--until", "2026-02-30"], "--until takes a date"),
    ],
)
def test_usage_errors_exit_2_without_a_traceback(tmp_path, args, message):
    result = brainq("--store", str(tmp_path / "s"), *args)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


def test_debug_shows_the_traceback(tmp_path):
    (tmp_path / "file").write_text("not a folder")
    result = brainq("--store", str(tmp_path / "file"), "--debug", "status")
    assert result.returncode == 1
    assert "Traceback" in result.stderr and "is a file, not a directory" in result.stderr


# --- passwords for encrypted PDFs ---------------------------------------------------------------


def test_pdf_passwords_open_files_and_are_never_stored_or_printed(tmp_path):
    from pypdf import PdfWriter

    password = "Tulip-4471-passw0rd"
    writer = PdfWriter()
    writer.add_blank_page(612, 792)
    writer.add_metadata({"/Title": "Tax return 2025", "/CreationDate": "D:20260301090000Z"})
    writer.encrypt(user_password=password, owner_password=None, algorithm="AES-256")
    (tmp_path / "docs").mkdir()
    writer.write(tmp_path / "docs/return.pdf")
    (tmp_path / "pw.txt").write_text(f"wrong one\n{password}\n")
    patterns = tmp_path / "patterns.yaml"
    patterns.write_text((ROOT / "patterns.yaml").read_text().replace("\npasswords: null", "\npasswords: pw.txt"))
    run = ["--store", str(tmp_path / "s"), "--patterns", str(patterns), "ingest", "--json", str(tmp_path / "docs")]

    locked = brainq("--store", str(tmp_path / "s"), "ingest", "--json", str(tmp_path / "docs"))
    assert locked.returncode == 3 and "needs a password" in locked.stdout
    (tmp_path / "pw.txt").chmod(0o644)
    refused = brainq(*run)
    assert refused.returncode == 1 and refused.stderr.strip().endswith(f"run: chmod 600 {tmp_path / 'pw.txt'}")

    (tmp_path / "pw.txt").chmod(0o600)
    result = brainq(*run)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["documents"] == 1  # the file that failed is read once passwords are given
    listed = brainq("--store", str(tmp_path / "s"), "list", "--json")
    assert json.loads(listed.stdout)["title"] == "Tax return 2025"
    assert password not in result.stdout + result.stderr + listed.stdout + listed.stderr
    for path in (tmp_path / "s").rglob("*"):
        assert not path.is_file() or password.encode() not in path.read_bytes(), path
