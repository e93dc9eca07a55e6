"""`brainq backfill` through the CLI: a temporary tree of real files, kept in step run after run."""

from __future__ import annotations

import base64
import json
import os
import shlex
import shutil
import sqlite3
import subprocess
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest

import brainq.extract.email
import brainq.ingest
import brainq.store
from brainq.config import DEFAULT_PATTERNS_FILE, load_config, parse_config
from brainq.paths import BROKEN_LINK
from brainq.store import COLLECTION, Store
from tests.conftest import ROOT, SAMPLES, run_cli

FIXTURES = ROOT / "tests" / "fixtures"

GROWTH = (
    # A message without a Message-ID (located as "#N") and one whose id repeats an old one.
    b"From aunt@example.net Wed Feb  5 08:00:00 2025\n"
    b"From: Aunt Rose <aunt@example.net>\n"
    b"Subject: Visiting in April\n"
    b"Date: Wed, 5 Feb 2025 08:00:00 +0000\n"
    b"\n"
    b"We will visit the week of April 14 and bring the old photo albums.\n"
    b"\n"
    b"From school@example.org Thu Feb  6 07:30:00 2025\n"
    b"From: School <school@example.org>\n"
    b"Subject: Picture day moved\n"
    b"Date: Thu, 6 Feb 2025 07:30:00 -0800\n"
    b"Message-ID: <picture-day@example.org>\n"
    b"\n"
    b"Picture day moves to next Tuesday because of the snow.\n"
    b"\n"
)


def make_tree(root: Path) -> Path:
    """A small household: notes, single messages, an mbox, a Maildir, a calendar and a PDF."""
    for folder in ("notes", "mail", "calendar", "documents", "Maildir/cur", "Maildir/new", "Maildir/tmp"):
        (root / folder).mkdir(parents=True)
    for name in ("wifi.txt", "hvac.md"):
        shutil.copy(FIXTURES / "text" / name, root / "notes")
    for name in ("school-halfday.eml", "invite.eml", "family.mbox"):
        shutil.copy(FIXTURES / "mail" / name, root / "mail")
    shutil.copy(FIXTURES / "mail/Maildir/cur/1741700000.M1P2.host:2,S", root / "Maildir/cur")
    shutil.copy(SAMPLES / "calendar/leo-soccer-practice.ics", root / "calendar")
    shutil.copy(SAMPLES / "documents/reliable-plumbing-receipt.pdf", root / "documents")
    return root


TREE_FILES = 8


@pytest.fixture
def home(tmp_path, embedder):
    """The tree, ingested once (which remembers it as a source); returns (tree, store)."""
    tree = make_tree(tmp_path / "home")
    store = tmp_path / "store"
    result = run_cli("ingest", "--json", str(tree), store=store)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["added"] == TREE_FILES
    return tree, store


def backfill(store: Path, status: int = 0) -> dict:
    result = run_cli("backfill", "--json", store=store)
    assert result.exit_code == status, result.output
    return json.loads(result.stdout)


def query(store: Path, sql: str, *args) -> list[tuple]:
    with closing(sqlite3.connect(store / "catalog.sqlite3")) as db:
        return db.execute(sql, args).fetchall()


def execute(store: Path, sql: str, *args) -> None:
    with closing(sqlite3.connect(store / "catalog.sqlite3")) as db, db:
        db.execute(sql, args)


def documents(store: Path, path: Path | None = None) -> dict[str, tuple]:
    """doc_id -> the document's catalog row without `ingested_at`, for one file or all."""
    rows = query(store, "SELECT * FROM documents WHERE ? IS NULL OR path = ?", *(2 * [path and str(path)]))
    return {row[0]: row[:15] + row[16:] for row in rows}


def chunk_ids(store: Path, path: Path | None = None) -> set[str]:
    rows = query(store, "SELECT chunk_id FROM chunk_index WHERE ? IS NULL OR path = ?", *(2 * [path and str(path)]))
    return {row[0] for row in rows}


def chroma_ids(store: Path) -> set[str]:
    import chromadb
    from chromadb.config import Settings

    client = chromadb.PersistentClient(str(store / "chroma"), settings=Settings(anonymized_telemetry=False))
    return set(client.get_collection(COLLECTION).get(include=[])["ids"])


def assert_consistent(store: Path) -> None:
    """Nothing pending; every document's chunk count is in chunk_index, each chunk linked to its
    text; Chroma holds exactly those."""
    assert query(store, "SELECT path FROM files WHERE pending = 1") == []
    counted = dict(query(store, "SELECT doc_id, chunks FROM documents"))
    indexed = dict(query(store, "SELECT doc_id, count(*) FROM chunk_index GROUP BY doc_id"))
    assert indexed == {doc: n for doc, n in counted.items() if n}
    unlinked = "SELECT chunk_index.chunk_id FROM chunk_index LEFT JOIN chunks ON chunks.rowid = text_rowid "
    assert query(store, unlinked + "WHERE chunks.chunk_id IS NOT chunk_index.chunk_id") == []
    assert query(store, "SELECT count(*) FROM chunks") == [(len(chunk_ids(store)),)]
    assert chroma_ids(store) == chunk_ids(store)


# -- new, changed, deleted, moved ----------------------------------------------------------------


def test_new_file_is_added(home):
    tree, store = home
    shutil.copy(FIXTURES / "mail/forwarded.eml", tree / "mail")
    report = backfill(store)
    assert (report["added"], report["unchanged"], report["updated"], report["removed"]) == (1, TREE_FILES, 0, 0)
    assert documents(store, tree / "mail/forwarded.eml")
    assert_consistent(store)


def test_changed_file_replaces_its_chunks(home):
    tree, store = home
    note = tree / "notes/wifi.txt"
    old_chunks = chunk_ids(store, note)
    note.write_text(note.read_text() + "\nThe guest network is now called Backyard, password lemonade42.\n")
    report = backfill(store)
    assert (report["updated"], report["unchanged"], report["documents"]) == (1, TREE_FILES - 1, 1)
    assert report["embedded"] >= 1
    new_chunks = chunk_ids(store, note)
    assert new_chunks and not new_chunks & old_chunks
    (doc,) = documents(store, note).values()
    assert doc[15] == len(new_chunks)  # documents.chunks (ingested_at left out)
    assert query(store, "SELECT count(*) FROM chunks WHERE chunks MATCH 'lemonade42'") == [(1,)]
    assert_consistent(store)


def test_a_file_that_no_longer_reads_keeps_its_documents_and_is_tried_again(home):
    tree, store = home
    note = tree / "mail/invite.eml"
    before = documents(store, note)
    readable = note.read_bytes()
    note.write_bytes(b"%PDF-1.4 truncated")  # overwritten by what cannot be read
    report = backfill(store, status=3)
    assert (report["failed"], report["removed"], report["updated"]) == (1, 0, 0)
    assert report["failures"][0]["reason"].endswith("what was read of it before is kept")
    assert documents(store, note) == before
    # Like any file that cannot be read, it is passed over until it changes, and named.
    report = backfill(store)
    assert (report["failed"], report["unchanged"], report["still_unread"]) == (0, TREE_FILES, 1)
    (failed,) = json.loads(run_cli("status", "--json", store=store).stdout)["failed_files"]
    assert failed["reason"].endswith("what was read of it before is kept")
    # ... and when it is broken again otherwise, or read again with new settings.
    note.write_bytes(b"%PDF-1.4 truncated again")
    assert backfill(store, status=3)["failed"] == 1 and documents(store, note) == before
    with closing(sqlite3.connect(store / "catalog.sqlite3")) as db, db:
        db.execute("UPDATE files SET derived = 0 WHERE path = ?", (str(note),))
    assert backfill(store, status=3)["failed"] == 1 and documents(store, note) == before
    note.write_bytes(readable)
    report = backfill(store)
    assert (report["failed"], report["updated"], report["still_unread"]) == (0, 1, 0)
    assert documents(store, note) == before
    assert_consistent(store)


def test_a_file_emptied_keeps_its_documents(home):
    """A failed save or sync leaves a file of no bytes: a broken copy, not a deleted file."""
    tree, store = home
    note = tree / "mail/invite.eml"
    before, readable = documents(store, note), note.read_bytes()
    note.write_bytes(b"")
    report = backfill(store, status=3)
    assert (report["failed"], report["removed"], report["skipped"]) == (1, 0, 0)
    assert report["failures"][0]["reason"] == "empty; what was read of it before is kept"
    assert documents(store, note) == before
    note.write_bytes(readable)
    assert backfill(store)["updated"] == 1 and documents(store, note) == before
    assert_consistent(store)


def test_a_file_it_may_not_open_is_named_by_status_until_it_reads(home, monkeypatch):
    """A file whose permissions changed fails on every run, as letting it be read again changes
    neither its size nor its time; it keeps what was read of it, and `status` names it."""
    tree, store = home
    changed, touched, fresh = tree / "notes/wifi.txt", tree / "notes/hvac.md", tree / "notes/spare-key.txt"
    untouched = tree / "mail/school-halfday.eml"  # only its permissions changed
    before = documents(store, changed)
    changed.write_text(changed.read_text() + "\nThe guest network is now called Backyard.\n")
    os.utime(touched)
    fresh.write_text("The spare key is under the blue flower pot.")
    denied_paths, real_open, real_access = {str(changed), str(touched), str(fresh), str(untouched)}, open, os.access

    def denied(file, *args, **kwargs):
        if str(file) in denied_paths:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    def access(path, mode, **kwargs):
        return str(path) not in denied_paths and real_access(path, mode, **kwargs)

    kept = "cannot read: Permission denied; what was read of it before is kept"
    unread = {(str(changed), kept), (str(touched), kept), (str(untouched), kept), (str(fresh), "cannot read: Permission denied")}
    # As the owner who took away their own rights (root, running the tests, keeps them).
    with monkeypatch.context() as patched:
        patched.setattr("builtins.open", denied)
        patched.setattr(os, "access", access)
        for _ in range(2):
            assert {(f["path"], f["reason"]) for f in backfill(store, status=3)["failures"]} == unread
        info = json.loads(run_cli("status", "--json", store=store).stdout)
        assert {(f["path"], f["reason"]) for f in info["failed_files"]} == unread
        assert info["files_with_errors"] == 4 and documents(store, changed) == before
        assert f"\nunread: {fresh}: cannot read: Permission denied" in run_cli("status", store=store).stdout
    report = backfill(store)
    assert (report["added"], report["updated"], report["failed"]) == (1, 3, 0)
    info = json.loads(run_cli("status", "--json", store=store).stdout)
    assert info["failed_files"] == [] and info["files_with_errors"] == 0
    assert backfill(store)["unchanged"] == TREE_FILES + 1
    assert_consistent(store)


def test_deleted_file_is_dropped(home):
    tree, store = home
    (tree / "mail/invite.eml").unlink()
    report = backfill(store)
    assert (report["removed"], report["unchanged"]) == (1, TREE_FILES - 1)
    assert documents(store, tree / "mail/invite.eml") == {}
    assert query(store, "SELECT count(*) FROM files WHERE path = ?", str(tree / "mail/invite.eml")) == [(0,)]
    assert_consistent(store)


def test_a_file_replaced_by_a_folder_of_its_name_is_dropped(home):
    tree, store = home
    invite = tree / "mail/invite.eml"
    text = invite.read_text()
    invite.unlink()
    invite.mkdir()
    (invite / "again.eml").write_text(text)
    report = backfill(store)
    assert (report["added"], report["removed"], report["unchanged"]) == (1, 1, TREE_FILES - 1)
    assert documents(store, invite) == {} and documents(store, invite / "again.eml") != {}
    assert_consistent(store)


def test_a_folder_forgotten_inside_a_source_stays_out_until_ingested_again(home):
    tree, store = home
    forgotten = documents(store, tree / "notes/wifi.txt")
    assert run_cli("forget", str(tree / "notes"), store=store).exit_code == 0
    report = backfill(store)
    assert (report["added"], report["unchanged"]) == (0, TREE_FILES - 2)
    assert documents(store, tree / "notes/wifi.txt") == {} and documents(store, tree / "notes/hvac.md") == {}
    assert run_cli("sources", store=store).output.splitlines() == [str(tree), f"  left out (forgotten): {tree / 'notes'}"]
    assert_consistent(store)
    # One file of it named again comes back, and stays through the source's backfills.
    assert run_cli("ingest", str(tree / "notes/wifi.txt"), store=store).exit_code == 0
    assert backfill(store)["added"] == 0
    assert documents(store, tree / "notes/wifi.txt") == forgotten and documents(store, tree / "notes/hvac.md") == {}
    # The folder named again comes back whole.
    assert run_cli("ingest", str(tree / "notes"), store=store).exit_code == 0
    assert backfill(store)["added"] == 0
    assert documents(store, tree / "notes/hvac.md")
    assert_consistent(store)


def test_forget_says_which_documents_stay_as_a_copy_elsewhere(home):
    tree, store = home
    shutil.copy(tree / "mail/invite.eml", tree / "documents/invite-saved.eml")
    assert backfill(store)["added"] == 1
    result = run_cli("forget", str(tree / "mail/invite.eml"), store=store)
    assert result.output == "forgot 0 documents; 2 documents stay, kept from a copy at another path\n"  # the message and its invitation
    result = run_cli("forget", str(tree / "documents"), store=store)  # the last copy, and the receipt
    assert result.output == "forgot 3 documents\n"
    assert documents(store, tree / "documents/invite-saved.eml") == {}
    assert_consistent(store)


def test_forget_of_several_paths_forgets_nothing_when_one_holds_nothing(home):
    """A typo among the paths: exit 2 says nothing happened, so nothing may have."""
    tree, store = home
    before = documents(store, tree / "notes/wifi.txt")
    result = run_cli("forget", str(tree / "notes"), str(tree / "nots"), store=store)
    assert result.exit_code == 2 and "nots: nothing in the store comes from there" in result.output
    assert documents(store, tree / "notes/wifi.txt") == before
    assert "left out" not in run_cli("sources", store=store).output
    # A path given twice, or inside another given, is forgotten with it.
    again = run_cli("forget", str(tree / "notes"), str(tree / "notes/wifi.txt"), str(tree / "notes"), store=store)
    assert again.exit_code == 0 and documents(store, tree / "notes/wifi.txt") == {}


def test_forget_tells_its_progress_file_by_file(home):
    """Forgetting a folder of thousands of files takes a while: the bar moves as each goes."""
    tree, store = home
    told = []

    class Recorder:
        def total(self, files):
            told.append(("total", files))

        def file_done(self, path, status, chunks):
            told.append((Path(path).name, status))

    opened = Store(store)
    try:
        opened.forget(str(tree / "notes"), Recorder())
    finally:
        opened.close()
    names = sorted(p.name for p in (tree / "notes").iterdir())
    assert told[0] == ("total", len(names)) and sorted(told[1:]) == [(name, "removed") for name in names]


def test_a_folder_holding_sources_forgotten_stays_out_of_backfills(tmp_path, embedder):
    tree = make_tree(tmp_path / "home")
    store = tmp_path / "store"
    assert run_cli("ingest", str(tree / "notes"), str(tree / "mail"), store=store).exit_code == 0
    assert run_cli("forget", str(tree / "notes/wifi.txt"), store=store).exit_code == 0  # left out of notes
    assert run_cli("forget", str(tree), store=store).exit_code == 0
    assert run_cli("sources", store=store).output == ""  # and nothing left out of a source gone
    elsewhere = tmp_path / "calendar"
    shutil.copytree(tree / "calendar", elsewhere)
    assert run_cli("ingest", str(elsewhere), store=store).exit_code == 0
    assert backfill(store)["added"] == 0
    assert {row[1] for row in documents(store).values()} == {str(elsewhere / "leo-soccer-practice.ics")}


def test_a_file_named_beside_its_folder_is_read_once(tmp_path, embedder):
    tree = make_tree(tmp_path / "home")
    store = tmp_path / "store"
    result = run_cli("ingest", "--json", str(tree / "notes"), str(tree / "notes/wifi.txt"), store=store)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["added"] == 2
    assert len(documents(store)) == 2
    assert_consistent(store)


def test_moved_file_is_recognised_and_not_embedded_again(home):
    tree, store = home
    (tree / "archive").mkdir()
    (tree / "notes/hvac.md").rename(tree / "archive/hvac.md")
    report = backfill(store)
    assert (report["added"], report["removed"], report["embedded"]) == (1, 1, 0)
    assert documents(store, tree / "archive/hvac.md") and not documents(store, tree / "notes/hvac.md")
    assert_consistent(store)


# -- mailboxes -----------------------------------------------------------------------------------


# family.mbox's last message has no blank line after it, as Netscape's mailboxes end: the
# next message may come with one, or without (its envelope in Netscape's format).
@pytest.mark.parametrize("growth", [GROWTH, b"\n" + GROWTH], ids=["envelope", "blank-line-first"])
def test_grown_mbox_reads_only_the_new_messages(home, tmp_path, growth):
    tree, store = home
    mbox = tree / "mail/family.mbox"
    before_docs, before_chunks = documents(store, mbox), chunk_ids(store, mbox)
    with open(mbox, "ab") as fh:
        fh.write(growth)
    report = backfill(store)
    assert (report["updated"], report["unchanged"], report["documents"]) == (1, TREE_FILES - 1, 2)
    after = documents(store, mbox)
    # The old documents were not rewritten: same rows, same chunks (whose ids carry the old hash).
    assert {k: after[k] for k in before_docs} == before_docs
    assert before_chunks < chunk_ids(store, mbox)
    # The new messages got the locators a full read of the grown file gives them.
    fresh = tmp_path / "fresh"
    assert run_cli("ingest", str(mbox), store=fresh).exit_code == 0
    assert set(documents(fresh, mbox)) == set(after)
    assert {row[2] for row in after.values()} >= {"#3", "picture-day@example.org#4"}
    assert_consistent(store)
    assert backfill(store)["unchanged"] == TREE_FILES


def a_large_mbox(path: Path, messages: int = 40) -> Path:
    """Messages without ids, with a repeated id, with a "From " line in the body, and one in
    Gmail's Trash: what a split must read exactly as a whole read does."""
    path.parent.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(messages):
        ident = "" if i % 7 == 3 else f"Message-ID: <{'same' if i % 5 == 0 else i}@example.org>\n"
        label = "X-Gmail-Labels: Trash\n" if i == 12 else ""
        out.append(
            f"From sender{i}@example.org Mon Mar  3 0{i % 10}:00:00 2025\nFrom: Sender {i} <sender{i}@example.org>\n"
            f"Subject: Note {i}\nDate: Mon, 3 Mar 2025 0{i % 10}:00:00 +0000\n{ident}{label}\n"
            f"Reminder number {i}: the {i}th meeting moves to room {100 + i}.\n"
            f"From our side nothing else.\n\n"
        )
    path.write_text("".join(out))
    return path


def listed(store: Path) -> list[tuple]:
    docs = [json.loads(line) for line in run_cli("list", "--json", store=store).stdout.splitlines()]
    return sorted((d["locator"], d["title"], d["source_date"]) for d in docs)


def test_a_large_mbox_is_read_in_parts_as_the_whole_is(tmp_path, monkeypatch):
    mbox = a_large_mbox(tmp_path / "mail" / "Takeout.mbox")
    assert run_cli("ingest", str(mbox), store=tmp_path / "whole").exit_code == 0
    ends = brainq.extract.email.parts(str(mbox), 0, mbox.stat().st_size, 1000)
    assert len(ends) > 5 and ends[-1] == mbox.stat().st_size
    assert all(brainq.extract.email.continues_mbox(str(mbox), end) for end in ends[:-1])
    monkeypatch.setattr(brainq.ingest, "MBOX_PART_BYTES", 1000)
    small = tmp_path / "small.yaml"  # smaller than the mailbox, not than a part
    small.write_text(DEFAULT_PATTERNS_FILE.read_text(encoding="utf-8").replace("max_file_mb: 200", "max_file_mb: 0.002"))
    result = run_cli("--patterns", str(small), "ingest", "--json", str(mbox), store=tmp_path / "parts")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["added"], report["documents"]) == (1, 39)
    assert listed(tmp_path / "parts") == listed(tmp_path / "whole")
    assert_consistent(tmp_path / "parts")
    again = json.loads(run_cli("--patterns", str(small), "backfill", "--json", store=tmp_path / "parts").stdout)
    assert again["unchanged"] == 1


def test_an_mbox_read_stopped_midway_goes_on_from_its_last_part(tmp_path, monkeypatch):
    mbox = a_large_mbox(tmp_path / "mail" / "Takeout.mbox")
    assert run_cli("ingest", str(mbox), store=tmp_path / "whole").exit_code == 0
    monkeypatch.setattr(brainq.ingest, "MBOX_PART_BYTES", 1000)
    extract, starts = brainq.ingest.mail.extract, []

    store = tmp_path / "store"

    def stopped(item, limits, cursor):
        starts.append(cursor.start)
        if len(starts) == 4:
            # An interrupt drops the parts read but not yet written: wait for one written.
            deadline = time.monotonic() + 60
            while not _documents_in(store) and time.monotonic() < deadline:
                time.sleep(0.05)
            raise KeyboardInterrupt
        return extract(item, limits, cursor)

    monkeypatch.setattr(brainq.ingest.mail, "extract", stopped)
    result = run_cli("ingest", "--json", str(mbox), store=store)
    assert json.loads(result.stdout)["interrupted"]
    kept = len(listed(store))
    assert 0 < kept < 39
    read_before = starts[3]
    starts[:] = [None] * 10  # no more stops
    report = backfill(store)
    assert 0 < starts[10] <= read_before  # not from the start: from the last part written
    assert (report["updated"], report["documents"]) == (1, 39 - kept)
    assert listed(store) == listed(tmp_path / "whole")
    assert_consistent(store)


def _documents_in(store: Path) -> int:
    with closing(sqlite3.connect(store / "catalog.sqlite3")) as db:
        return db.execute("SELECT count(*) FROM documents").fetchone()[0]


def test_an_interrupt_drops_what_waits_to_be_embedded_and_the_next_run_reads_it(home, tmp_path, embedder):
    """Ctrl-C stops a run in seconds: files read but not yet embedded are dropped, as a crash
    would drop them, not embedded first; the next run reads them."""
    tree, whole = home
    embedding, dropped = threading.Event(), threading.Event()

    def embed(texts):
        embedding.set()
        dropped.wait(60)  # the model is slow: the interrupt comes while it embeds the first file
        return embedder.embed(texts)

    class Stopping(brainq.ingest.Progress):
        said = False

        def stopping(self):
            self.said = True

    examine, drop, read = brainq.ingest._examine, brainq.ingest._Writer.drop_queued, []

    def reading(*args):
        read.append(args[3])
        if len(read) == 2:
            embedding.wait(60)  # the first file is the writer's batch in hand, alone
        if len(read) == TREE_FILES:
            raise KeyboardInterrupt
        yield from examine(*args)

    def dropping(writer):
        drop(writer)
        dropped.set()

    store, progress = tmp_path / "interrupted", Stopping()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(brainq.ingest, "_examine", reading)
        patch.setattr(brainq.ingest._Writer, "drop_queued", dropping)
        report = brainq.ingest.ingest(Store(store), load_config(), [tree], embed=embed, progress=progress)
    assert report.interrupted and progress.said
    assert report.added == 1 and _documents_in(store) == report.documents  # the file in hand, no more
    again = json.loads(run_cli("ingest", "--json", str(tree), store=store).stdout)
    assert again["added"] == TREE_FILES - report.added

    def documents(store):
        found = [json.loads(line) for line in run_cli("list", "--json", store=store).stdout.splitlines()]
        return sorted((d["path"], d["locator"] or "", d["title"]) for d in found)

    assert documents(store) == documents(whole)
    assert_consistent(store)


def test_a_message_larger_than_the_limit_is_passed_over_and_the_rest_read(tmp_path, monkeypatch):
    mbox = a_large_mbox(tmp_path / "Takeout.mbox", messages=12)
    text = mbox.read_text()
    cut = text.index("From sender6@")
    mbox.write_text(text[:cut] + text[cut:].replace("From our side", "x" * 3000 + "\nFrom our side", 1))
    monkeypatch.setattr(brainq.ingest, "MBOX_PART_BYTES", 1000)
    small = tmp_path / "small.yaml"
    small.write_text(DEFAULT_PATTERNS_FILE.read_text(encoding="utf-8").replace("max_file_mb: 200", "max_file_mb: 0.002"))
    result = run_cli("--patterns", str(small), "ingest", "--json", str(mbox), store=tmp_path / "store")
    assert result.exit_code == 3, result.output
    report = json.loads(result.stdout)
    assert report["failures"] == [{"path": str(mbox), "reason": f"the message at byte {cut}: too large (0 MB; limit 0.002 MB); passed over"}]
    assert (report["added"], report["failed"], report["parts_failed"]) == (1, 0, 1)
    titles = sorted(title for _, title, _ in listed(tmp_path / "store"))
    assert titles == sorted(f"Note {i}" for i in range(12) if i != 6)
    again = json.loads(run_cli("--patterns", str(small), "backfill", "--json", store=tmp_path / "store").stdout)
    assert again["unchanged"] == 1 and not again["failures"] and again["still_unread"] == 0  # stored, less a message
    # The run passed over the message without a word: status still names it.
    info = json.loads(run_cli("status", "--json", store=tmp_path / "store").stdout)
    assert info["failed_files"] == [{**f, "part": True} for f in report["failures"]] and info["files_with_errors"] == 1


def test_an_attachment_not_read_is_named_by_status_until_its_message_changes(tmp_path):
    mail = tmp_path / "mail"
    mail.mkdir()
    message = mail / "scan.eml"
    broken = base64.b64encode(b"%PDF-1.4 cut short by the scanner").decode()
    message.write_text(
        "From: a@example.com\nSubject: The scan\nDate: Mon, 2 Mar 2026 09:00:00 +0000\nMIME-Version: 1.0\n"
        'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nThe scan is attached.\n'
        '--b\nContent-Type: application/pdf; name="scan.pdf"\nContent-Transfer-Encoding: base64\n\n'
        f"{broken}\n--b--\n"
    )
    store = tmp_path / "store"
    first = json.loads(run_cli("ingest", "--json", str(mail), store=store).stdout)
    assert first["added"] == 1 and first["parts_failed"] == 1
    assert json.loads(run_cli("backfill", "--json", store=store).stdout)["failures"] == []  # passed over, unchanged
    info = json.loads(run_cli("status", "--json", store=store).stdout)
    assert info["failed_files"] == [{**f, "part": True} for f in first["failures"]] and info["files_with_errors"] == 1
    # the message itself is stored: a part of it is unread
    assert f"\npartly unread: {message}: {first['failures'][0]['reason']}" in run_cli("status", store=store).stdout
    message.write_text(message.read_text().split("--b\nContent-Type: application/pdf")[0] + "--b--\n")
    assert json.loads(run_cli("backfill", "--json", store=store).stdout)["updated"] == 1
    info = json.loads(run_cli("status", "--json", store=store).stdout)
    assert info["failed_files"] == [] and info["files_with_errors"] == 0


def _edit_prefix(mbox: Path) -> None:
    mbox.write_bytes(mbox.read_bytes().replace(b"Picture day is Thursday.", b"Picture day is Friday!!!") + GROWTH)


def _finish_last_message(mbox: Path) -> None:
    mbox.write_bytes(FULL_MBOX + GROWTH)


FULL_MBOX = (FIXTURES / "mail/family.mbox").read_bytes()


@pytest.mark.parametrize(
    "prepare, change, text",
    [
        pytest.param(None, _edit_prefix, "Picture day is Friday!!!", id="prefix-edited"),
        # The first read caught the last message half-written (body not yet there).
        pytest.param(
            FULL_MBOX[: FULL_MBOX.rindex(b"\n\nPicture day") + 1], _finish_last_message, "Picture day is Thursday.",
            id="half-written",
        ),
    ],
)
def test_mbox_that_did_not_only_grow_is_read_again(home, prepare, change, text):
    tree, store = home
    mbox = tree / "mail/family.mbox"
    if prepare is not None:
        mbox.write_bytes(prepare)
        backfill(store)
    before = chunk_ids(store, mbox)
    change(mbox)
    report = backfill(store)
    assert (report["updated"], report["documents"]) == (1, 5)  # every message read again
    assert not chunk_ids(store, mbox) & before
    texts = [t for (t,) in query(store, "SELECT text FROM chunks WHERE text LIKE '%Picture day is%'")]
    assert len(texts) == 1 and text in texts[0]
    assert_consistent(store)


@pytest.mark.parametrize("folder, name", [("new", "1773400000.M9P9.host"), ("cur", "1773400000.M9P9.host:2,S")])
def test_new_maildir_message_is_picked_up(home, folder, name):
    tree, store = home
    shutil.copy(FIXTURES / "mail/newsletter-html.eml", tree / "Maildir/tmp" / name)  # still being delivered
    report = backfill(store)
    assert (report["added"], report["unchanged"]) == (0, TREE_FILES)
    os.rename(tree / "Maildir/tmp" / name, tree / "Maildir" / folder / name)
    report = backfill(store)
    assert (report["added"], report["documents"]) == (1, 1)
    assert documents(store, tree / "Maildir" / folder / name)


def test_read_message_moving_from_new_to_cur_is_not_embedded_again(home):
    tree, store = home
    shutil.copy(FIXTURES / "mail/newsletter-html.eml", tree / "Maildir/new/1773400000.M9P9.host")
    assert backfill(store)["added"] == 1
    os.rename(tree / "Maildir/new/1773400000.M9P9.host", tree / "Maildir/cur/1773400000.M9P9.host:2,RS")
    report = backfill(store)
    assert (report["added"], report["removed"], report["embedded"]) == (1, 1, 0)
    assert_consistent(store)


def test_a_forgotten_message_stays_forgotten_when_it_is_read(home):
    """A mail client that marks a message read moves it from new/ to cur/ and renames it."""
    tree, store = home
    message = tree / "Maildir/new/1773400000.M9P9.host"
    shutil.copy(FIXTURES / "mail/newsletter-html.eml", message)
    assert backfill(store)["added"] == 1
    assert run_cli("forget", str(message), store=store).exit_code == 0
    os.rename(message, tree / "Maildir/cur/1773400000.M9P9.host:2,RS")
    assert backfill(store)["added"] == 0
    assert documents(store, tree / "Maildir/cur/1773400000.M9P9.host:2,RS") == {}
    # Folders named new and cur that are no Maildir hold files of their own names.
    (tree / "notes/new").mkdir()
    (tree / "notes/new/Meeting: agenda.txt").write_text("Agenda: the budget.")
    assert backfill(store)["added"] == 1
    assert run_cli("forget", str(tree / "notes/new/Meeting: agenda.txt"), store=store).exit_code == 0
    (tree / "notes/cur").mkdir()
    (tree / "notes/cur/Meeting: agenda.txt").write_text("Minutes: the budget passed.")
    assert backfill(store)["added"] == 1
    assert_consistent(store)


# -- metadata from an older brainq ---------------------------------------------------------------


def test_texts_are_kept_in_the_catalog_only(home):
    import chromadb
    from chromadb.config import Settings

    _, store = home
    client = chromadb.PersistentClient(str(store / "chroma"), settings=Settings(anonymized_telemetry=False))
    stored = client.get_collection(COLLECTION).get(include=["documents"])["documents"]
    assert len(stored) == len(chunk_ids(store)) and set(stored) == {None}


def test_a_long_lived_readers_counts_follow_every_write(home):
    tree, store = home
    with closing(Store(store)) as reader:
        words, chunks = reader.document_frequency('"lemonade42"'), reader.chunk_count()
        assert words == 0 and reader.document_frequency('"lemonade42"') == 0  # the second one remembered
        (tree / "notes/guest.txt").write_text("Guest network Backyard, password lemonade42.\n")
        assert backfill(store)["added"] == 1  # another connection
        assert (reader.document_frequency('"lemonade42"'), reader.chunk_count()) == (1, chunks + 1)
        reader.forget_file(str(tree / "notes/guest.txt"))  # this connection
        assert (reader.document_frequency('"lemonade42"'), reader.chunk_count()) == (0, chunks)


class _Broken:
    """A Chroma collection on a client that loaded the folder while another process wrote it:
    every read fails, as Chroma keeps a collection's index once it is loaded."""

    def __init__(self):
        self.reads = 0

    def __getattr__(self, name):
        from chromadb.errors import InternalError

        def call(*args, **kwargs):
            self.reads += 1
            raise InternalError("Error executing plan: Internal error: Error finding id")

        return call


def test_a_read_broken_by_a_concurrent_write_is_tried_again_on_a_new_client(home, monkeypatch):
    _, store = home
    monkeypatch.setattr(brainq.store.vectors, "READ_RETRY_SECONDS", (0.0, 0.0, 0.0))
    with closing(Store(store)) as reader:
        vector = next(iter(reader.vectors(sorted(chunk_ids(store))[:1]).values()))
        guarded = reader.collection
        guarded._collection = broken = _Broken()
        assert reader.semantic(vector, 5)[0].score == pytest.approx(1.0)
        assert broken.reads == 1 and not isinstance(guarded._collection, _Broken)
        assert reader.collection is not guarded  # the handles moved to the new client
        guarded = reader.collection
        guarded._collection = _Broken()  # every read, not only the question's
        assert set(reader.chroma.chunk_ids()) == chunk_ids(store)
        guarded = reader.collection

        # The folder stays broken for every new client too: one line, no traceback.
        guarded._collection, guarded._reopen = _Broken(), _Broken
        with pytest.raises(brainq.store.StoreError, match=r"^the vectors of store .* failed \(Error executing.*status --check --repair"):
            reader.vectors(sorted(chunk_ids(store))[:1])


def test_the_writing_process_never_opens_a_second_client(home, monkeypatch):
    """Not through the Store holding the lock, nor through another of the same process (ingest's
    writer and saver threads each open one)."""
    _, store = home
    monkeypatch.setattr(brainq.store.vectors, "READ_RETRY_SECONDS", (0.0, 0.0))
    with closing(Store(store)) as locking, closing(Store(store)) as other, locking.writer_lock():
        for reader in (locking, other):
            guarded = reader.collection
            guarded._collection = broken = _Broken()
            with pytest.raises(brainq.store.StoreError, match="Error finding id"):
                reader.vectors(sorted(chunk_ids(store))[:1])
            assert guarded._collection is broken and broken.reads == 3
    with closing(Store(store)) as after:  # the lock let go: a reader may start a new client
        guarded = after.collection
        guarded._collection = _Broken()
        assert after.vectors(sorted(chunk_ids(store))[:1])


def test_catalog_of_schema_1_is_linked_to_its_texts_when_opened(home, embedder):
    _, store = home
    execute(store, "ALTER TABLE chunk_index DROP COLUMN text_rowid")
    execute(store, "UPDATE meta SET value = '1' WHERE key = 'schema'")
    with closing(Store(store)) as opened:
        hits = opened.semantic(embedder.embed(["guest wifi network"])[0], 3)
    assert "Network: FamilyGuest" in hits[0].text
    assert query(store, "SELECT value FROM meta WHERE key = 'schema'") == [(str(brainq.store.SCHEMA_VERSION),)]
    assert_consistent(store)
    assert backfill(store)["unchanged"] == TREE_FILES


@pytest.mark.parametrize(
    "older",
    [
        "UPDATE files SET derived = 0 WHERE path = ?",
        "UPDATE documents SET doc_type = NULL WHERE path = ?",
        "UPDATE documents SET source_date = NULL, source_ts = NULL, date_source = NULL WHERE path = ?",
        "UPDATE documents SET event_dates = NULL WHERE path = ?",
    ],
    ids=["derivation-version", "doc_type", "source_date", "event_dates"],
)
def test_missing_metadata_is_derived_again_without_embedding(home, older):
    tree, store = home
    message = tree / "mail/school-halfday.eml"
    expected, chunks = documents(store, message), chunk_ids(store, message)
    execute(store, older, str(message))
    report = backfill(store)
    assert (report["updated"], report["unchanged"], report["embedded"]) == (1, TREE_FILES - 1, 0)
    assert documents(store, message) == expected
    assert chunk_ids(store, message) == chunks
    assert_consistent(store)


def test_an_edit_to_the_doc_type_rules_retypes_every_file_without_embedding(home, tmp_path):
    tree, store = home
    patterns = tmp_path / "patterns.yaml"
    patterns.write_text(DEFAULT_PATTERNS_FILE.read_text(encoding="utf-8").replace("text: note}", "text: memo}"))
    chunks = chunk_ids(store)
    report = json.loads(run_cli("--patterns", str(patterns), "backfill", "--json", store=store).stdout)
    assert (report["updated"], report["unchanged"], report["embedded"]) == (TREE_FILES, 0, 0)
    notes = dict(query(store, "SELECT path, doc_type FROM documents WHERE kind = 'text'"))
    assert notes == {str(tree / "notes/wifi.txt"): "memo", str(tree / "notes/hvac.md"): "memo"}
    assert len(chunk_ids(store)) == len(chunks)
    assert_consistent(store)
    again = json.loads(run_cli("--patterns", str(patterns), "backfill", "--json", store=store).stdout)
    assert again["unchanged"] == TREE_FILES


@pytest.mark.parametrize(
    "edit, rederives",
    [
        (("text: note}", "text: memo}"), True),
        (("max_words: 160", "max_words: 120"), True),
        (("max_pages: 2000", "max_pages: 50"), True),
        (("half_life_days: 7", "half_life_days: 5"), False),
        (("question_batch_tokens: 256", "question_batch_tokens: 512"), False),
    ],
    ids=["doc_types", "chunking", "limits", "decay", "embedding"],
)
def test_only_settings_that_shape_documents_derive_them_again(edit, rederives):
    text = DEFAULT_PATTERNS_FILE.read_text(encoding="utf-8")
    assert edit[0] in text
    edited = parse_config(text.replace(*edit))
    assert (brainq.ingest.derivation(edited) != brainq.ingest.derivation(parse_config(text))) is rederives


# -- concurrency, unchanged trees ----------------------------------------------------------------


@pytest.mark.parametrize("command", ["backfill", "ingest", "forget"])
def test_overlapping_run_exits_4_or_waits(home, command):
    tree, store = home
    args = [command] if command == "backfill" else [command, str(tree)]
    holder = Store(store)
    lock = holder.writer_lock()
    lock.__enter__()
    try:
        result = run_cli(*args, store=store)
        assert result.exit_code == 4
        assert result.stderr.startswith("brainq: error: another brainq ingest, backfill, forget or repair is writing to")
        assert result.stderr.count("\n") == 1 and "--wait SECONDS" in result.stderr
        threading.Timer(0.5, lock.__exit__, (None, None, None)).start()
        started = time.monotonic()
        result = run_cli(*args, "--wait", "30", store=store)
    finally:
        lock.__exit__(None, None, None)  # a no-op if the timer released it already
        holder.close()
    assert result.exit_code == 0, result.output
    assert 0.4 < time.monotonic() - started < 30


def test_unchanged_tree_is_only_stat_ed(home, monkeypatch):
    tree, store = home

    def no_reading(*args, **kwargs):
        raise AssertionError("an unchanged file was read")

    for name in ("_sha256", "extract_item", "extractor_for"):
        monkeypatch.setattr(brainq.ingest, name, no_reading)
    monkeypatch.setattr(brainq.ingest.mail, "extract", no_reading)
    report = backfill(store)
    assert report["unchanged"] == TREE_FILES
    assert (report["added"], report["updated"], report["removed"], report["embedded"]) == (0, 0, 0, 0)
    status = json.loads(run_cli("status", "--json", store=store).stdout)
    assert status["last_runs"][0]["command"] == "backfill"
    assert status["last_runs"][0]["unchanged"] == TREE_FILES


def _parsed(chunks: int) -> brainq.ingest._Parsed:
    return brainq.ingest._Parsed("f", 0, 0, "sha", "added", [], [None] * chunks)


def test_parsed_files_wait_while_their_chunks_would_pass_the_bound():
    backlog = brainq.ingest._Backlog(max_chunks=10)
    backlog.put(_parsed(6))
    second = threading.Thread(target=backlog.put, args=(_parsed(5),))
    second.start()
    second.join(0.2)
    assert second.is_alive()  # 6 + 5 > 10: it waits for the writer
    assert len(backlog.get().chunks) == 6
    second.join(5)
    assert not second.is_alive() and backlog.chunks == 5


def test_a_file_larger_than_the_bound_still_goes_alone():
    backlog = brainq.ingest._Backlog(max_chunks=10)
    backlog.put(_parsed(40))  # an empty backlog takes it, or a large PDF would wait forever
    assert len(backlog.get().chunks) == 40 and backlog.empty()


# A backfill killed while it replaces changed files and drops deleted ones: tests/test_crash.py.


# -- cron ----------------------------------------------------------------------------------------


def sourced(store):
    """A store with one source, an empty folder beside it: what cron's backfills keep in step."""
    (store.parent / "empty").mkdir()
    assert run_cli("ingest", str(store.parent / "empty"), store=store).exit_code == 0
    return store


@pytest.mark.parametrize(
    "every, schedule",
    [
        ([], "15 3 * * *"),
        (["--every", "30"], "*/30 * * * *"),
        (["--every", "1"], "* * * * *"),
        (["--every", "60"], "15 * * * *"),
        (["--every", "360"], "15 */6 * * *"),
        (["--every", "1440"], "15 3 * * *"),
    ],
)
def test_cron_prints_a_crontab_line(tmp_path, every, schedule):
    result = run_cli("cron", *every, store=sourced(tmp_path / "store"))
    assert result.exit_code == 0, result.output
    line = result.stdout.strip()
    assert "\n" not in line and line.startswith(schedule + " /")
    executable, *rest = shlex.split(line.removeprefix(schedule))
    assert os.path.isabs(executable) and os.access(executable, os.X_OK)
    assert rest == ["--store", str(tmp_path / "store"), "backfill", "--quiet"]


def test_cron_line_carries_global_options_and_escapes_percent(tmp_path):
    store = sourced(tmp_path / "50% done")
    result = run_cli("--chroma-url", "http://nas:8000", "cron", store=store)
    assert result.exit_code == 0, result.output
    assert f"--store '{tmp_path}/50\\% done' --chroma-url http://nas:8000 backfill --quiet" in result.stdout


@pytest.mark.parametrize("every", ["45", "90", "0"])
def test_cron_refuses_intervals_cron_cannot_keep(tmp_path, every):
    result = run_cli("cron", "--every", every, store=sourced(tmp_path / "store"))
    assert result.exit_code == 2


def test_cron_refuses_a_store_its_backfills_would_fail_on(tmp_path):
    """A mistyped --store, or one with nothing ingested yet, would fail every night."""
    missing = run_cli("cron", store=tmp_path / "typo")
    assert missing.exit_code == 1 and "no brainq store at" in missing.output
    Store(tmp_path / "store", create=True).close()
    empty = run_cli("cron", store=tmp_path / "store")
    assert empty.exit_code == 2 and "no sources to scan" in empty.output


def test_cron_line_runs(tmp_path):
    store = sourced(tmp_path / "store")
    line = run_cli("cron", "--every", "10", store=store).stdout
    done = subprocess.run(shlex.split(line)[5:], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert json.loads(run_cli("status", "--json", store=store).stdout)["last_runs"][0]["command"] == "backfill"


def test_a_folder_it_may_not_enter_is_reported_and_keeps_its_documents(home, monkeypatch):
    """A folder whose permissions changed (or a share gone away) is no deleted folder."""
    tree, store = home
    mail = str(tree / "mail")
    before = query(store, "SELECT COUNT(*) FROM documents")
    scandir, listdir, lstat = os.scandir, os.listdir, os.lstat

    def denied(path, real):
        if str(path) == mail or str(path).startswith(mail + os.sep):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    # As the owner who took away their own rights (root, running the tests, keeps them).
    monkeypatch.setattr(os, "scandir", lambda path=".": denied(path, scandir))
    monkeypatch.setattr(os, "listdir", lambda path=".": denied(path, listdir))
    monkeypatch.setattr(os, "lstat", lambda path, **kw: denied(path, lambda p: lstat(p, **kw)))
    result = run_cli("backfill", "--json", store=store)
    assert result.exit_code == 3, result.output
    report = json.loads(result.stdout)
    assert [(f["path"], f["reason"]) for f in report["failures"]] == [(mail, "cannot read the folder: Permission denied")]
    assert report["removed"] == 0
    assert query(store, "SELECT COUNT(*) FROM documents") == before


def test_a_link_to_a_source_folder_gone_is_one_failure(tmp_path):
    """A source that is a link to a folder moved away: one "folder not found", not also a file
    of its parent source's "gone before it was read". The link named a folder the first source
    holds, so the source is that folder, by the name it has there."""
    folder = tmp_path / "docs"
    (folder / "real").mkdir(parents=True)
    (folder / "real" / "note.txt").write_text("The gate code is 2580.")
    (folder / "link").symlink_to(folder / "real")
    store = tmp_path / "store"
    assert run_cli("ingest", "--quiet", str(folder), str(folder / "link"), store=store).exit_code == 0
    (folder / "real").rename(folder / "moved")
    report = json.loads(run_cli("backfill", "--json", store=store).stdout)
    real = str(folder / "real")
    assert [(f["path"], f["reason"][:16]) for f in report["failures"]] == [(real, "folder not found")]
    assert real not in [f["path"] for f in report["skipped_files"]]


def test_a_source_folder_not_found_keeps_its_documents_until_forgotten(home):
    """An unmounted drive looks like a deleted folder; dropping its documents on a nightly
    run would mean embedding them all again when it is back."""
    tree, store = home
    before = query(store, "SELECT COUNT(*) FROM documents")
    tree.rename(tree.with_name("unmounted"))
    result = run_cli("backfill", "--json", store=store)
    assert result.exit_code == 3, result.output
    report = json.loads(result.stdout)
    assert [f["path"] for f in report["failures"]] == [str(tree)]
    assert "folder not found" in report["failures"][0]["reason"] and report["removed"] == 0
    assert query(store, "SELECT COUNT(*) FROM documents") == before
    tree.mkdir()  # the mount point, empty while the drive is away
    result = run_cli("backfill", "--json", store=store)
    assert result.exit_code == 3 and "folder empty" in json.loads(result.stdout)["failures"][0]["reason"]
    tree.rmdir()
    tree.with_name("unmounted").rename(tree)
    assert backfill(store)["unchanged"] == TREE_FILES
    tree.rename(tree.with_name("unmounted"))
    assert run_cli("forget", str(tree), store=store).exit_code == 0
    assert query(store, "SELECT COUNT(*) FROM documents") == [(0,)]


def test_a_source_inside_another_keeps_its_documents_while_not_found(home):
    tree, store = home
    assert run_cli("ingest", str(tree / "mail"), store=store).exit_code == 0  # a source of its own too
    before = query(store, "SELECT COUNT(*) FROM documents")
    (tree / "mail").rename(tree.parent / "away")  # unmounted
    result = run_cli("backfill", "--json", store=store)
    report = json.loads(result.stdout)
    assert report["failures"][0]["path"] == str(tree / "mail") and "not found" in report["failures"][0]["reason"]
    assert report["removed"] == 0 and query(store, "SELECT COUNT(*) FROM documents") == before


def test_spam_and_deleted_mail_stays_out(home, tmp_path):
    """Mail clients keep spam and deleted mail in folders (or mbox files) so named."""
    tree, store = home
    one = (FIXTURES / "mail/Maildir/cur/1741700000.M1P2.host:2,S").read_bytes()
    bins = ["Maildir/.Junk/cur/1.host:2,S", "Maildir/.INBOX.Trash/cur/2.host:2,S",
            "mbsync/[Gmail]/Spam/cur/3.host:2,S", "offlineimap/[Gmail].Bin/new/6.host", "Thunderbird/Junk",
            "Apple/Deleted Messages.mbox/Messages/4.emlx", "Maildir/.Trash/cur/8.host:2,S"]  # fmt: skip
    kept = ["Maildir/.Receipts/cur/5.host:2,S", "notes/Junk/7.eml"]  # a folder of one's own
    for name in bins + kept:
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_bytes(one.replace(b"Subject:", f"X-Name: {name}\nSubject:".encode()))
    (tree / "Thunderbird/Junk").write_bytes(b"From - Mon Jan  6 10:00:00 2025\n" + one)
    (tree / "notes/Trash").write_bytes(one)  # a message saved under that name: no mailbox
    (tree / "Desktop/.Trash").mkdir(parents=True)  # a desktop's: thrown away, not read, not mail
    (tree / "Desktop/.Trash/old.txt").write_text("A note thrown away.")
    (tree / "Claws/trash").mkdir(parents=True)  # an MH folder
    (tree / "Claws/trash/.mh_sequences").write_text("unseen: 1\n")
    (tree / "Claws/trash/1").write_bytes(one)
    bins.append("Claws/trash/1")
    kept.append("notes/Trash")
    report = backfill(store)
    assert report["added"] == len(kept)
    apart = {str(tree / name.split("/cur/")[0].split("/new/")[0].removesuffix("/Messages/4.emlx").removesuffix("/1"))
             for name in bins}
    assert {f["path"] for f in report["skipped_files"]} == apart
    everything = tmp_path / "everything.yaml"
    everything.write_text(DEFAULT_PATTERNS_FILE.read_text(encoding="utf-8").replace("skip_mail: [", "skip_mail: [] #"))
    report = json.loads(run_cli("--patterns", str(everything), "backfill", "--json", store=store).stdout)
    assert report["added"] == len(bins) and not report["skipped_files"]
    report = backfill(store)  # the default again: what was read before goes
    assert report["removed"] == len(bins) and report["failed"] == 0
    assert run_cli("ingest", str(tree / "Thunderbird/Junk"), store=store).exit_code == 0  # named: read
    assert backfill(store)["removed"] == 0
    report = json.loads(run_cli("ingest", "--json", str(tree), store=store).stdout)  # the source it is in
    assert report["removed"] == 0 and str(tree / "Thunderbird/Junk") not in {f["path"] for f in report["skipped_files"]}
    assert len(documents(store, tree / "Thunderbird/Junk")) == 1


def test_every_file_is_accounted_for(home):
    """In the store, failed with a reason, or skipped with a reason: none silently."""
    tree, store = home
    (tree / "notes/empty.txt").write_bytes(b"")
    (tree / "notes/photos.rar").write_bytes(b"Rar!\x1a\x07\x01\x00 a RAR archive")
    (tree / "notes/broken.pdf").write_bytes(b"%PDF-1.4 truncated")
    os.mkfifo(tree / "notes/pipe.eml")  # opening it would wait for a writer forever
    # Links to nothing: a target deleted, and a loop of two links. Passed over, or every
    # nightly backfill would fail on them for good.
    (tree / "notes/gone.txt").symlink_to(tree / "notes/deleted.txt")
    (tree / "notes/loop-a.txt").symlink_to(tree / "notes/loop-b.txt")
    (tree / "notes/loop-b.txt").symlink_to(tree / "notes/loop-a.txt")
    # A link to a folder is not followed (it may lead back up, or out of the source), and says so.
    (tree.parent / "elsewhere").mkdir()
    (tree.parent / "elsewhere/note.txt").write_text("The shed code is 1234.")
    (tree / "notes/elsewhere").symlink_to(tree.parent / "elsewhere")
    (tree / "notes/again").symlink_to(tree / "notes")  # read anyway: nothing to say
    # Names in Latin-1, as an old archive unpacks them: no catalog or terminal takes them as they are.
    (tree / os.fsdecode(b"notes/caf\xe9.eml")).write_text("Subject: hi\n\nThe caf\u00e9 opens at 8.\n")
    (tree / os.fsdecode(b"notes/r\xe9sum\xe9s")).mkdir()
    (tree / os.fsdecode(b"notes/r\xe9sum\xe9s/cv.eml")).write_text("Subject: cv\n\nA CV.\n")
    result = run_cli("backfill", "--json", store=store)
    assert result.exit_code == 3  # done, but a file failed
    report = json.loads(result.stdout)
    assert {(Path(f["path"]).name, f["reason"]) for f in report["skipped_files"]} == {
        ("empty.txt", "empty"), ("photos.rar", "not a kind brainq reads"), ("pipe.eml", "not a regular file"),
        ("gone.txt", BROKEN_LINK), ("loop-a.txt", BROKEN_LINK), ("loop-b.txt", BROKEN_LINK),
        ("elsewhere", "a link to a folder, not followed: ingest the folder it names to read it"),
    }  # fmt: skip
    assert sorted(Path(f["path"]).name for f in report["failures"]) == ["broken.pdf", "caf\\xe9.eml", "r\\xe9sum\\xe9s"]
    assert report["skipped"] == 7 and report["failed"] == 3
    assert all("rename it" in f["reason"] for f in report["failures"] if "\\x" in f["path"])
    assert run_cli("status", store=store).exit_code == 0  # the run's log holds the names as text
    # The next run passes over the unchanged broken file; status still names it, and not the
    # files passed over as empty or of a kind brainq does not read.
    again = json.loads(run_cli("backfill", "--json", store=store).stdout)
    assert again["failed"] == 2 and again["still_unread"] == 1  # the names, still; the PDF, counted
    # What was skipped is skipped again, with its reason: it is in no store.
    assert {(Path(f["path"]).name, f["reason"]) for f in again["skipped_files"]} >= {
        ("empty.txt", "empty"), ("photos.rar", "not a kind brainq reads"),
    }  # fmt: skip
    assert again["skipped"] == 7
    assert "(1 of them unread, as before: `brainq status` says why)" in run_cli("backfill", store=store).stdout
    info = json.loads(run_cli("status", "--json", store=store).stdout)
    assert [(Path(f["path"]).name, f["reason"][:11]) for f in info["failed_files"]] == [("broken.pdf", "unreadable ")]
    assert info["files_with_errors"] == 1
    # Files skipped are counted apart from those read: "from 3 files" had said so of three skipped.
    read = {json.loads(line)["path"] for line in run_cli("list", "--json", store=store).stdout.splitlines()}
    assert info["files_skipped"] == 2 and info["files"] == len(read) + 1  # and broken.pdf
    text = run_cli("status", store=store).stdout
    assert f"\nunread: {tree / 'notes/broken.pdf'}: unreadable" in text  # the whole file
    assert "; 2 skipped (empty, or of no kind brainq reads)" in text


def test_a_store_inside_a_source_is_not_read_and_a_file_gone_before_its_reading_is_no_failure(home, monkeypatch):
    """Another brainq store in an ingested folder holds no one's documents, and its journal
    files come and go while it is used; a file deleted between the walk and its reading (a
    download's partial file) is passed over, not failed."""
    from brainq import ingest as ingesting

    tree, store = home
    other = tree / "notes" / "old-brainq"
    assert run_cli("ingest", "--quiet", str(tree / "notes"), store=other).exit_code == 0
    listed = list(ingesting._walk(tree, store, [], (), [], []))
    assert listed and not [p for p in listed if p.startswith(str(other))]
    walk = ingesting._walk
    monkeypatch.setattr(ingesting, "_walk", lambda *args: [*walk(*args), str(tree / "notes" / "download.part")])
    report = json.loads(run_cli("backfill", "--json", store=store).stdout)
    assert report["failed"] == 0
    assert [(Path(f["path"]).name, f["reason"]) for f in report["skipped_files"]] == [("download.part", "gone before it was read")]


def test_a_source_named_through_a_link_is_the_same_source(home):
    """~/Documents, a link to /data/Documents: one folder, whichever name a run is given."""
    tree, store = home
    link = tree.parent / "linked-home"
    link.symlink_to(tree)
    result = run_cli("ingest", "--json", str(link), store=store)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["added"], report["unchanged"]) == (0, TREE_FILES)
    result = run_cli("ingest", "--json", str(link / "notes"), store=store)  # a folder under it too
    assert json.loads(result.stdout)["added"] == 0
    sources = json.loads(run_cli("status", "--json", store=store).stdout)["sources"]
    assert str(tree) in sources and not any("linked-home" in source for source in sources)
    assert_consistent(store)


def test_a_run_that_did_not_finish_is_the_last_run_status_names(home, monkeypatch):
    """Killed, or failed on a full disk: `status` does not show the run before it as the last."""
    from brainq.errors import StoreError

    tree, store = home

    def failing(*args, **kwargs):
        raise StoreError("the disk holding the store is full")

    with monkeypatch.context() as patched:
        patched.setattr("brainq.ingest.ingest", failing)
        assert run_cli("backfill", store=store).exit_code == 1
    (last, before) = json.loads(run_cli("status", "--json", store=store).stdout)["last_runs"][:2]
    assert (last["command"], last["finished_at"], before["command"]) == ("backfill", None, "ingest")
    assert "last run: backfill started at " in run_cli("status", store=store).stdout
    assert "has not finished" in run_cli("status", store=store).stdout
    backfill(store)
    last = json.loads(run_cli("status", "--json", store=store).stdout)["last_runs"][0]
    assert last["finished_at"] and last["started_at"] <= last["finished_at"] and last["unchanged"] == TREE_FILES
