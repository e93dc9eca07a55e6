"""Every limit of `Limits`, at its edge: exactly at the limit is read in full, one over is cut
and says so (a failure with its reason, or a note on the document).

The limits come from patterns.yaml; the ingest-level tests set them there, as a user would.
"""

from __future__ import annotations

import dataclasses
import re
import time
from pathlib import Path

import pytest
import yaml

from brainq.config import DEFAULT_PATTERNS_FILE, Config, Limits, load_config, parse_config
from brainq.documents import Document, Failure, Item
from brainq.extract import extract_item
from brainq.extract import text as text_extractor
from brainq.ingest import IngestReport, ingest
from brainq.store import Store
from tests.test_fuzz import FONT, _container, pdf_file, stream, tiff_block

MIB = 1024 * 1024


def config_with(**limits) -> Config:
    """The shipped patterns.yaml with some `limits:` values changed, as a user would edit it."""
    text = DEFAULT_PATTERNS_FILE.read_text(encoding="utf-8")
    for key, value in limits.items():
        text, found = re.subn(rf"(?m)^(  {key}:)[ \t]*[^ \t#\n]+", rf"\g<1> {value}", text)
        assert found == 1, key
    return parse_config(text, "patterns.yaml")


def run_ingest(tmp_path: Path, config: Config, files: dict[str, bytes]) -> IngestReport:
    folder = tmp_path / "in"
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    store = Store(tmp_path / "store")
    try:
        return ingest(store, config, [folder], lambda texts: [[1.0] + [0.0] * 383 for _ in texts])
    finally:
        store.close()


def failed(report: IngestReport) -> dict[str, str]:
    return {Path(f.path).name: f.reason for f in report.failures}


def extract(name: str, data: bytes, limits: Limits) -> list[Document | Failure]:
    return list(extract_item(Item(Path("/limits") / name, name, data=data), limits))


def documents(results) -> list[Document]:
    return [r for r in results if isinstance(r, Document)]


def failures(results) -> list[str]:
    return [r.reason for r in results if isinstance(r, Failure)]


# --- one place, overridable -----------------------------------------------------------------


def test_every_limit_is_in_patterns_yaml_with_its_default():
    shipped = yaml.safe_load(DEFAULT_PATTERNS_FILE.read_text(encoding="utf-8"))["limits"]
    # Passwords come from a file of their own (config.read_passwords), never from the YAML.
    assert set(shipped) == {f.name for f in dataclasses.fields(Limits) if not f.metadata.get("secret")}
    assert load_config().limits == Limits()


def test_limits_are_overridden_in_patterns_yaml():
    config = config_with(max_pages=7, recurrence_seconds=0.5, max_stream_mb=1)
    limits = config.limits
    assert (limits.max_pages, limits.recurrence_seconds, limits.max_stream_mb) == (7, 0.5, 1.0)


# --- per file, through ingest ----------------------------------------------------------------


def test_max_file_mb(tmp_path):
    size = MIB // 1024  # the limit below, in bytes
    config = config_with(max_file_mb=1 / 1024)
    files = {"edge.txt": b"n" * size, "over.txt": b"n" * (size + 1), "film.mkv": b"\0" * (size + 1)}
    report = run_ingest(tmp_path, config, files)
    assert report.added == 1
    assert list(failed(report)) == ["over.txt"]
    assert failed(report)["over.txt"].startswith("too large")
    # A file of a kind brainq does not read is skipped, whatever its size.
    assert [(Path(f.path).name, f.reason) for f in report.skipped_files] == [("film.mkv", "not a kind brainq reads")]
    # Like any file that cannot be read, the large one is passed over until it changes.
    def again():
        store = Store(tmp_path / "store")
        try:
            return ingest(store, config, [tmp_path / "in"], lambda texts: [[1.0] + [0.0] * 383 for _ in texts])
        finally:
            store.close()

    report = again()
    assert (report.failed, report.unchanged, report.still_unread, report.skipped) == (0, 2, 1, 1)
    # One read before that grows past the limit keeps what was read of it.
    (tmp_path / "in" / "edge.txt").write_bytes(b"n" * (size + 1))
    assert failed(again())["edge.txt"].endswith("what was read of it before is kept")


def test_seconds_per_file(tmp_path, monkeypatch):
    original = text_extractor.extract

    def slow(item, limits):
        time.sleep(0.2 if item.name == "quick.txt" else 30)
        yield from original(item, limits)

    monkeypatch.setattr(text_extractor, "extract", slow)
    started = time.monotonic()
    files = {"quick.txt": b"quick", "slow.txt": b"slow"}
    report = run_ingest(tmp_path, config_with(seconds_per_file=1), files)
    assert time.monotonic() - started < 15  # the slow file was stopped, not waited for
    assert report.added == 1
    assert failed(report) == {"slow.txt": "took longer than 1 s; skipped"}


def test_a_parser_that_asserts_loses_one_file_not_the_run(tmp_path, monkeypatch):
    """Parsers brainq uses state their assumptions with `assert` (Python's HTML parser did on
    "<![CTADA["): a hostile file that breaks one is reported, and the others are read."""

    def asserting(item, limits):
        if item.name == "hostile.txt":
            raise AssertionError("unexpected char in declaration")
        yield from original(item, limits)

    original = text_extractor.extract
    monkeypatch.setattr(text_extractor, "extract", asserting)
    report = run_ingest(tmp_path, config_with(), {"hostile.txt": b"words", "fine.txt": b"words too"})
    assert report.added == 1
    assert failed(report) == {"hostile.txt": "unreadable (AssertionError: unexpected char in declaration)"}


# --- text per document, for every kind -------------------------------------------------------


def _message(body: str) -> bytes:
    return f"From: a@example.com\nSubject: Limits\nDate: Mon, 1 Jan 2024 10:00:00 +0000\n\n{body}\n".encode()


def _pdf(*pages: str) -> bytes:
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "", FONT]
    kids = []
    for text in pages:
        objects.append(stream(f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()))
        resources = "<< /Font << /F1 3 0 R >> >>"
        objects.append(f"<< /Type /Page /Parent 2 0 R /Resources {resources} /Contents {len(objects)} 0 R >>")
        kids.append(f"{len(objects)} 0 R")
    objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(kids)} >>"
    return pdf_file(objects)


def _ics(*events: str) -> bytes:
    body = "".join(f"BEGIN:VEVENT\r\n{e}\r\nEND:VEVENT\r\n" for e in events)
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n{body}END:VCALENDAR\r\n".encode()


def _photo(description: bytes) -> bytes:
    text = description + b"\x00"
    return _container("jpeg", tiff_block("II", [(0x010E, 2, len(text), 26)], text, 0))


TEXT_SAMPLES = {
    "note.txt": b"Filter sizes\n" + b"16x25x4 " * 40,
    "mail.eml": _message("The dishwasher part is on order. " * 10),
    "doc.pdf": _pdf("first page " * 8, "second page " * 8),
    "cal.ics": _ics("UID:x\r\nDTSTART:20260313T100000\r\nSUMMARY:Practice\r\nDESCRIPTION:" + "Water. " * 30),
    "photo.jpg": _photo(b"Maggie at the lake " * 12),
    "page.html": b"<html><head><title>Limits</title></head><body><p>" + b"Pickup is at noon. " * 20 + b"</p></body></html>",
}


@pytest.mark.parametrize("name", list(TEXT_SAMPLES))
def test_max_text_chars(name):
    (full,) = documents(extract(name, TEXT_SAMPLES[name], Limits()))
    edge = len(full.text)
    (at_limit,) = documents(extract(name, TEXT_SAMPLES[name], Limits(max_text_chars=edge)))
    assert at_limit.text == full.text
    assert not any("text cut" in note for note in at_limit.notes)
    (over,) = documents(extract(name, TEXT_SAMPLES[name], Limits(max_text_chars=edge - 1)))
    assert over.text == full.text[: edge - 1]
    assert f"text cut at {edge - 1} characters" in over.notes


# --- PDF -------------------------------------------------------------------------------------


def test_max_pages():
    (at_limit,) = extract("doc.pdf", _pdf("one", "two", "three"), Limits(max_pages=3))
    assert "three" in at_limit.text and at_limit.notes == []
    (over,) = extract("doc.pdf", _pdf("one", "two", "three", "four"), Limits(max_pages=3))
    assert "three" in over.text and "four" not in over.text
    assert over.notes == ["only the first 3 of 4 pages read"]


def _page_inflating_to(size: int) -> bytes:
    """A one-page PDF whose content stream is deflated and inflates to exactly `size` bytes."""
    import zlib

    content = b"BT /F1 12 Tf 72 720 Td (edge) Tj ET"
    content += b" " * (size - len(content))
    page = "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
    return pdf_file(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>", FONT,
                     stream(zlib.compress(content, 9), "/Filter /FlateDecode "), page])  # fmt: skip


def test_max_stream_mb():
    (at_limit,) = extract("doc.pdf", _page_inflating_to(MIB), Limits(max_stream_mb=1))
    assert at_limit.text == "edge" and at_limit.notes == []
    (over,) = extract("doc.pdf", _page_inflating_to(MIB + 1), Limits(max_stream_mb=1))
    assert "edge" not in over.text
    assert "text of 1 page(s) unreadable" in over.notes


def test_max_stream_mb_for_a_web_page():
    page = b"<html><body><p>edge</p>" + b" " * (MIB - 37) + b"</body></html>"
    assert len(page) == MIB
    (at_limit,) = extract("page.html", page, Limits(max_stream_mb=1))
    assert at_limit.notes == []
    (over,) = extract("page.html", page + b"<p>past the limit</p>", Limits(max_stream_mb=1))
    assert "edge" in over.text and "past the limit" not in over.text
    assert over.notes == ["page read to its first 1 MB"]


# --- email -----------------------------------------------------------------------------------


def _with_attachments(count: int) -> bytes:
    part = ("--B\nContent-Type: text/calendar\nContent-Disposition: attachment; filename=e{n}.ics\n\n"
            "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:{n}\nDTSTART:20260313T100000\nEND:VEVENT\nEND:VCALENDAR\n")
    parts = "".join(part.format(n=n) for n in range(count))
    head = _message("").replace(b"\n\n", b'\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="B"\n\n', 1)
    return head + (parts + "--B--\n").encode()


def test_max_attachments():
    at_limit = extract("m.eml", _with_attachments(3), Limits(max_attachments=3))
    assert len(documents(at_limit)) == 4 and failures(at_limit) == []
    over = extract("m.eml", _with_attachments(4), Limits(max_attachments=3))
    assert len(documents(over)) == 4
    assert failures(over) == ["1 attachment(s) beyond the limit of 3 skipped"]


def _forwarded(depth: int) -> bytes:
    """A message forwarding a message ... `depth` levels down."""
    message = _message("innermost")
    for level in range(depth):
        head = (f"From: a@example.com\nSubject: level {level}\nMIME-Version: 1.0\n"
                f"Content-Type: multipart/mixed; boundary=L{level}\n\n--L{level}\nContent-Type: message/rfc822\n\n")
        message = head.encode() + message + f"\n--L{level}--\n".encode()
    return message


def test_max_depth():
    at_limit = extract("m.eml", _forwarded(2), Limits(max_depth=2))
    assert len(documents(at_limit)) == 3 and failures(at_limit) == []
    over = extract("m.eml", _forwarded(3), Limits(max_depth=2))
    assert len(documents(over)) == 3
    (reason,) = failures(over)
    assert reason.startswith("attachment part-1.eml: ")
    assert reason.endswith(": deeper than the nesting limit of 2")


# --- calendars -------------------------------------------------------------------------------


def test_max_events():
    events = [f"UID:{n}\r\nDTSTART:20260313T100000" for n in range(4)]
    at_limit = extract("c.ics", _ics(*events[:3]), Limits(max_events=3))
    assert len(documents(at_limit)) == 3 and failures(at_limit) == []
    over = extract("c.ics", _ics(*events), Limits(max_events=3))
    assert len(documents(over)) == 3
    assert failures(over) == ["only the first 3 events read"]


def _all_day(start: str, end: str) -> bytes:
    return _ics(f"UID:x\r\nDTSTART;VALUE=DATE:{start}\r\nDTEND;VALUE=DATE:{end}")


def test_max_event_days():
    # DTEND of an all-day event is exclusive: 14 to 17 March is three days.
    (at_limit,) = extract("c.ics", _all_day("20260314", "20260317"), Limits(max_event_days=3))
    assert len(at_limit.event_dates) == 3 and at_limit.notes == []
    (over,) = extract("c.ics", _all_day("20260314", "20260318"), Limits(max_event_days=3))
    assert len(over.event_dates) == 3
    assert over.notes == ["longer than 3 days: only its first days listed"]


def _daily(count: int) -> bytes:
    return _ics(f"UID:x\r\nDTSTART:20260313T100000\r\nRRULE:FREQ=DAILY;COUNT={count}")


def test_recurrence_days():
    # The last occurrence of 11 daily ones is 10 days after the first.
    (at_limit,) = extract("c.ics", _daily(11), Limits(recurrence_days=10))
    assert len(at_limit.event_dates) == 11 and at_limit.notes == []
    (over,) = extract("c.ics", _daily(12), Limits(recurrence_days=10))
    assert len(over.event_dates) == 11
    assert over.notes == ["occurrences more than 10 days after its start not listed"]


def test_max_occurrences():
    (at_limit,) = extract("c.ics", _daily(5), Limits(max_occurrences=5))
    assert len(at_limit.event_dates) == 5 and at_limit.notes == []
    (over,) = extract("c.ics", _daily(6), Limits(max_occurrences=5))
    assert len(over.event_dates) == 5
    assert over.notes == ["only the 5 occurrences nearest its start listed"]


def test_recurrence_seconds():
    (expanded,) = extract("c.ics", _daily(5), Limits(recurrence_seconds=5))
    assert len(expanded.event_dates) == 5
    (spent,) = extract("c.ics", _daily(5), Limits(recurrence_seconds=0))
    assert len(spent.event_dates) == 1
    assert spent.notes == ["recurrence not expanded (time limit)"]
