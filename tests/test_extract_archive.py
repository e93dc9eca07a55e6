"""Zip, tar and 7-Zip archives: each file inside read as the file it is, placed under the archive by its name
inside, dated by the archive's record of it when it has no date of its own; what archivers add,
encrypted files, bombs and archives nested without end stopped with a reason."""

from __future__ import annotations

import dataclasses
import gzip
import io
import os
import struct
import tarfile
import tempfile
import zipfile
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import py7zr.archiveinfo
import pytest

from brainq.annotate import annotate
from brainq.config import load_config
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract import archive, extract_item, extractor_for, office
from tests.conftest import SAMPLES
from tests.test_extract_office import docx_bytes, odt_bytes

CONFIG = load_config()
LIMITS = CONFIG.limits
WRITTEN = (2025, 10, 2, 9, 30, 0)


def zip_of(files: dict[str, bytes | str], written=WRITTEN, method=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", method) as z:
        for name, data in files.items():
            z.writestr(zipfile.ZipInfo(name, written), data, compress_type=method)
    return buffer.getvalue()


def read(data: bytes, name: str = "forms.zip", limits=LIMITS) -> list[Document | Failure]:
    return list(extract_item(Item(Path("/docs") / name, name, data=data), limits))


def annotated(doc: Document) -> Document:
    return annotate(doc, CONFIG, mtime=0, now=datetime(2026, 4, 1, tzinfo=timezone.utc))


def test_each_file_is_read_as_what_it_is_under_the_archive():
    data = zip_of({
        "school/permission-slip.docx": docx_bytes(["Aquarium trip", "The bus leaves at 8:15 AM."], modified="2026-02-20T09:00:00Z"),
        "school/notes.txt": "Minutes of March 3, 2024\nThe dues are $40.\n",
        "old/undated.txt": "The garage code is 4411.\n",
        "__MACOSX/school/._notes.txt": b"\x00\x05\x16\x07\x00\x02\x00\x00Mac OS X",
        "school/.DS_Store": b"\x00\x00\x00\x01Bud1\x00",
        "Thumbs.db": b"\xd0\xcf\x11\xe0",
        "setup.exe": b"MZ\x90\x00\x03",
        "school/": b"",
    })  # fmt: skip
    results = read(data)
    assert all(isinstance(r, Document) for r in results), results
    docs = {d.locator: annotated(d) for d in results}
    assert set(docs) == {"school/permission-slip.docx", "school/notes.txt", "old/undated.txt"}
    assert all(d.path == "/docs/forms.zip" for d in docs.values())
    slip = docs["school/permission-slip.docx"]
    assert slip.kind == "office" and "8:15 AM" in slip.text
    assert (slip.source_date, slip.date_source) == (datetime(2026, 2, 20, 9, tzinfo=timezone.utc), "office_meta")
    assert (docs["school/notes.txt"].source_date.date().isoformat(), docs["school/notes.txt"].date_source) == ("2024-03-03", "text")
    # No date of its own: the archive's record of when it was written, flagged as an mtime is.
    undated = docs["old/undated.txt"]
    assert undated.date_source == "mtime" and undated.source_date == datetime(*WRITTEN).astimezone(timezone.utc)
    assert undated.notes == ["no date in the file itself; dated by its modification time"]


def test_a_file_the_archiver_did_not_date_stays_undated():
    (doc,) = read(zip_of({"note.txt": "The garage code is 4411.\n"}, written=(1980, 1, 1, 0, 0, 0)))
    assert annotated(doc).source_date is None and doc.date_source == "none"


def test_an_archive_attached_to_a_message_is_read_and_its_files_dated_by_the_message():
    message = EmailMessage()
    message["From"], message["Subject"] = "office@school.example", "Forms for the trip"
    message["Date"] = "Tue, 03 Mar 2026 08:00:00 +0000"
    message.set_content("The forms are attached.")
    message.add_attachment(zip_of({"forms/slip.txt": "Return the slip by Friday.\n"}), maintype="application",
                           subtype="zip", filename="forms.zip")  # fmt: skip
    docs = {d.locator: d for d in read(message.as_bytes(), "trip.eml")}
    slip = annotated(docs["forms.zip/forms/slip.txt"])
    assert slip.path == "/docs/trip.eml" and slip.date_source == "email"
    assert slip.source_date == datetime(2026, 3, 3, 8, tzinfo=timezone.utc)


def test_archives_inside_archives_stop_at_the_nesting_limit():
    data = zip_of({"note.txt": "Deepest note.\n"})
    for level in range(LIMITS.max_depth + 1):
        data = zip_of({f"level{level}.zip": data, f"readme{level}.txt": f"Level {level} readme.\n"})
    results = read(data)
    docs = [r for r in results if isinstance(r, Document)]
    assert len(docs) == LIMITS.max_depth  # each archive's readme, down to the limit
    assert max(d.locator.count("/") for d in docs) == LIMITS.max_depth - 1
    failures = [r for r in results if isinstance(r, Failure)]
    assert failures and all("deeper than the nesting limit" in f.reason and f.path == "/docs/forms.zip" for f in failures)


def test_encrypted_and_unreadable_files_are_reported_and_the_rest_read():
    data = bytearray(zip_of({"secret.txt": "hidden\n", "plain.txt": "The gate code is 2580.\n"}, method=zipfile.ZIP_STORED))
    data[6] |= 0x1  # the first entry's local header and its central directory entry: encrypted
    central = data.find(b"PK\x01\x02")
    data[central + 8] |= 0x1
    results = read(bytes(data))
    assert [r.locator for r in results if isinstance(r, Document)] == ["plain.txt"]
    assert [r.reason for r in results if isinstance(r, Failure)] == ["secret.txt: encrypted; not read"]


def test_limits_on_files_and_their_inflated_size():
    many = zip_of({f"note{i}.txt": f"Note number {i}.\n" for i in range(5)})
    results = read(many, limits=dataclasses.replace(LIMITS, max_attachments=3))
    assert len([r for r in results if isinstance(r, Document)]) == 3
    assert [r.reason for r in results if isinstance(r, Failure)] == ["2 file(s) beyond the limit of 3 skipped"]
    # A bomb: each file far smaller than the limit, together far larger.
    bomb = zip_of({f"zeros{i}.txt": "0" * 600_000 for i in range(4)})
    results = read(bomb, limits=dataclasses.replace(LIMITS, max_file_mb=1))
    assert len([r for r in results if isinstance(r, Document)]) == 1
    reasons = [r.reason for r in results if isinstance(r, Failure)]
    assert len(reasons) == 3 and all("inflate to 1 MB together" in r for r in reasons)


@pytest.mark.parametrize("data", [b"PK\x03\x04 not really a zip", zip_of({})[:-5]])
def test_a_broken_archive_is_an_extract_error(data):
    with pytest.raises(ExtractError, match="not a readable zip archive"):
        read(data)


@pytest.mark.parametrize("data", [zip_of({}), zip_of({"__MACOSX/._x": b"x", "empty/": b""})])
def test_an_empty_archive_holds_nothing_and_nothing_wrong(data):
    assert read(data) == []


def test_only_zip_files_are_taken_for_archives():
    office = Item(Path("lease.docx"), "lease.docx", data=docx_bytes(["Lease"]))
    assert extractor_for(office) is not archive
    assert extractor_for(Item(Path("forms.zip"), "forms.zip", data=zip_of({"a.txt": "a"}))) is archive
    assert extractor_for(Item(Path("forms.zip"), "forms.zip", data=b"not a zip")) is not archive


def test_archives_nested_in_archives_and_messages_share_one_inflated_size_limit():
    """A small zip of zips (or of messages carrying zips) would otherwise inflate the limit once
    per archive; here the second zip of a megabyte is past the shared one of 1.5 MB."""
    limits = dataclasses.replace(LIMITS, max_file_mb=1.5)
    inner = zip_of({"zeros.txt": "0" * 2**20})
    message = EmailMessage()
    message["From"], message["Subject"] = "a@example.com", "zeros"
    message.set_content("attached")
    message.add_attachment(inner, maintype="application", subtype="zip", filename="zeros.zip")
    for outer in (zip_of({"a.zip": inner, "b.zip": inner}), zip_of({"a.eml": bytes(message), "b.eml": bytes(message)})):
        results = read(outer, limits=limits)
        zeros = [r for r in results if isinstance(r, Document) and r.locator.endswith("zeros.txt")]
        assert len(zeros) == 1
        assert any("together" in r.reason for r in results if isinstance(r, Failure)), results


def test_a_broken_lzma_file_is_reported_and_the_rest_read():
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_LZMA) as z:
        z.writestr("broken.txt", bytes(range(256)) * 200)
        z.writestr("plain.txt", "The gate code is 2580.\n")
    data = bytearray(data.getvalue())
    data[30 + len("broken.txt") + 20] ^= 0xFF  # a byte of its compressed data
    results = read(bytes(data))
    assert [r.locator for r in results if isinstance(r, Document)] == ["plain.txt"]
    assert [r.reason.split(":")[0] for r in results if isinstance(r, Failure)] == ["broken.txt"]


def test_duplicate_names_each_kept_and_only_the_files_own_document_dated_by_the_archive():
    message = EmailMessage()
    message["From"], message["Subject"] = "a@example.com", "undated"
    message.set_content("see the notes")
    message.add_attachment(b"garage code 4411\n", maintype="text", subtype="plain", filename="notes.txt")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(zipfile.ZipInfo("n.txt", WRITTEN), "first\n")
        z.writestr(zipfile.ZipInfo("n.txt", WRITTEN), "second\n")
        z.writestr(zipfile.ZipInfo("m.eml", WRITTEN), bytes(message))
        z.writestr(zipfile.ZipInfo("later.txt", (2099, 1, 1, 0, 0, 0)), "from the future\n")
    docs = {d.locator: annotated(d) for d in read(buffer.getvalue())}
    assert docs["n.txt"].text == "first\n" and docs["n.txt#1"].text == "second\n"
    # A message's attachment is no file of the archive: undated, as in a message on disk.
    assert docs["m.eml/notes.txt"].source_date is None
    assert docs["later.txt"].source_date is None  # an archiver's clock set in the future


def test_an_archive_whose_list_of_files_is_too_large_is_refused_before_it_is_read(tmp_path):
    """A central directory of millions of entries would take gigabytes to list; its end record
    says how large it is. The limit holds for Office files, which are zips too."""
    from brainq.extract import office

    many = zip_of({})[:-22] + struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0)
    zip64 = bytearray(zip_of({"a.txt": "a"}))
    at = zip64.rfind(b"PK\x05\x06")
    directory = office.MAX_ZIP_DIRECTORY_MB * 2**20 + 1
    record = struct.pack("<4sQ2H2I4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, 1, 1, directory, 0)
    locator = struct.pack("<4sIQI", b"PK\x06\x07", 0, at, 1)
    end = struct.pack("<4s4H2IH", b"PK\x05\x06", 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0)
    with pytest.raises(ExtractError, match="more than the 16 MB brainq reads"):
        read(bytes(zip64[:at] + record + locator + end))
    with pytest.raises(ExtractError, match="more than the 16 MB brainq reads"):
        extract_item(Item(Path("big.xlsx"), "big.xlsx", data=bytes(zip64[:at] + record + locator + end)), LIMITS).__next__()
    assert read(many) == []  # 65,535 entries claimed, none there: under the limit, and zipfile finds none
    # The count beside the directory's size is not what zipfile reads by: a lie there changes nothing.
    lying = bytearray(zip_of({"a.txt": "a", "b.txt": "b"}))
    struct.pack_into("<HHI", lying, lying.rfind(b"PK\x05\x06") + 8, 1, 1, directory)
    with pytest.raises(ExtractError, match="more than the 16 MB brainq reads"):
        read(bytes(lying))
    # A ZIP64 locator pointing anywhere at all is no reason to stop the run.
    wild = zip64[:at] + struct.pack("<4sIQI", b"PK\x06\x07", 0, 2**63, 1) + end
    assert read(bytes(wild)) == []  # its end record lists nothing
    on_disk = tmp_path / "forms.zip"
    on_disk.write_bytes(zip_of({"a.txt": "The gate code is 2580.\n"}))
    (doc,) = extract_item(Item(on_disk, on_disk.name), LIMITS)
    assert doc.locator == "a.txt" and doc.path == str(on_disk)


def test_the_extended_timestamp_in_utc_is_read_before_the_local_dos_time():
    info = zipfile.ZipInfo("note.txt", (2001, 1, 1, 0, 0, 0))
    info.extra = struct.pack("<HHBi", 0x5455, 5, 1, 1_750_000_000)  # 2025-06-15 15:06:40 UTC
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(info, "The garage code is 4411.\n")
    (doc,) = read(buffer.getvalue())
    assert doc.file_time == datetime(2025, 6, 15, 15, 6, 40, tzinfo=timezone.utc)


def test_an_entry_without_a_name_is_passed_over():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr(zipfile.ZipInfo(""), "nameless")
        z.writestr(zipfile.ZipInfo("note.txt", WRITTEN), "The gate code is 2580.\n")
    assert [d.locator for d in read(buffer.getvalue())] == ["note.txt"]


def test_folders_named_with_backslashes_as_windows_zippers_wrote_them():
    docs = read(zip_of({"school\\forms\\notes.txt": "The dues are $40.\n", "__MACOSX\\school\\._notes.txt": b"\x00\x05"}))
    assert [d.locator for d in docs] == ["school/forms/notes.txt"]


def tar_of(files: dict[str, bytes | str], mode: str = "w:gz", written: float = 1_759_397_400) -> bytes:
    """A tarball of `files`, each recorded as written at `written` (2025-10-02 09:30 UTC)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as tar:
        for name, data in files.items():
            data = data.encode() if isinstance(data, str) else data
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), written
            tar.addfile(info, io.BytesIO(data))
        folder = tarfile.TarInfo("./school")
        folder.type = tarfile.DIRTYPE
        tar.addfile(folder)
    return buffer.getvalue()


@pytest.mark.parametrize(("name", "mode"), [("backup.tar", "w"), ("backup.tar.gz", "w:gz"), ("backup.tgz", "w:gz"),
                                            ("backup.tar.bz2", "w:bz2"), ("backup.tar.xz", "w:xz")])  # fmt: skip
def test_a_tarball_is_read_as_a_zip_is(name, mode):
    data = tar_of({
        "./school/permission-slip.docx": docx_bytes(["Aquarium trip", "The bus leaves at 8:15 AM."]),
        "./old/undated.txt": "The garage code is 4411.\n",
        "./school/._undated.txt": b"\x00\x05\x16\x07Mac OS X",
        "./setup.exe": b"MZ\x90\x00\x03",
    }, mode)  # fmt: skip
    item = Item(Path("/docs") / name, name, data=data)
    assert extractor_for(item) is archive
    docs = {d.locator: annotated(d) for d in extract_item(item, LIMITS)}
    assert set(docs) == {"school/permission-slip.docx", "old/undated.txt"}
    assert "8:15 AM" in docs["school/permission-slip.docx"].text and docs["old/undated.txt"].path == f"/docs/{name}"
    undated = docs["old/undated.txt"]
    assert undated.date_source == "mtime" and undated.source_date == datetime(2025, 10, 2, 9, 30, tzinfo=timezone.utc)


def test_tarballs_are_known_by_their_names_and_first_bytes():
    notes = {"a.txt": "a"}
    for name, data in [("notes.tar.gz", tar_of(notes, "w")), ("notes.tgz", tar_of(notes, "w")),  # unpacked by a browser
                       ("empty.tar", tar_of({}, "w")), ("empty.tar", bytes(10240))]:  # fmt: skip
        assert extractor_for(Item(Path(name), name, data=data)) is archive, name
    assert read(bytes(10240), "empty.tar") == []
    assert extractor_for(Item(Path("notes.txt.gz"), "notes.txt.gz", data=tar_of(notes))) is not archive
    assert extractor_for(Item(Path("old.tar"), "old.tar", data=b"not a tarball" * 100)) is not archive
    assert extractor_for(Item(Path("old.tgz"), "old.tgz", data=b"not gzip at all")) is not archive
    with pytest.raises(ExtractError, match="not a readable tar archive"):
        read(gzip.compress(b"gzip, but no tarball inside" * 40), name="old.tgz")
    with pytest.raises(ExtractError, match="not a readable tar archive"):
        read(b"\x1f\x8b\x08", name="cut.tgz")  # a gzip header cut short


def test_a_name_in_no_utf_8_is_read_as_latin_1_and_a_locator_of_a_file_s_own_name_is_not_taken_twice():
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT, encoding="latin-1") as tar:
        mail = b"From: a@example.com\nSubject: two\nDate: Tue, 03 Mar 2026 08:00:00 +0000\n\n2\n"
        for name, data in [("caf\xe9.txt", b"cafe\n"), ("m.txt", b"1\n"), ("m.txt#2", mail), ("m.txt", b"3\n")]:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    docs = read(buffer.getvalue(), "old.tar")
    assert {d.locator: d.text.split()[-1] for d in docs} == {"caf\xe9.txt": "cafe", "m.txt": "1", "m.txt#2": "2", "m.txt#3": "3"}


def test_a_tarball_past_its_limits_or_cut_short_is_reported():
    results = read(tar_of({f"note{i}.txt": f"Note number {i}.\n" for i in range(5)}), "notes.tgz",
                   limits=dataclasses.replace(LIMITS, max_attachments=3))  # fmt: skip
    assert len([r for r in results if isinstance(r, Document)]) == 3
    assert [r.reason for r in results if isinstance(r, Failure)] == ["files beyond the limit of 3 skipped"]
    # A stream has no index to skip by: the first file past the size allowance ends the reading.
    bomb = tar_of({f"zeros{i}.txt": "0" * 600_000 for i in range(4)})
    results = read(bomb, "zeros.tar.gz", limits=dataclasses.replace(LIMITS, max_file_mb=1))
    assert len([r for r in results if isinstance(r, Document)]) == 1
    (reason,) = [r.reason for r in results if isinstance(r, Failure)]
    assert reason.startswith("zeros1.txt: not read") and reason.endswith("the rest not read")
    # Headers and files passed over inflate too: a long name claiming gigabytes, ._ files.
    padded = tar_of({"._padding": "0" * 1_200_000, "a.txt": "The gate code is 2580.\n"}, mode="w:bz2")
    (reason,) = [r.reason for r in read(padded, "padded.tar.bz2", limits=dataclasses.replace(LIMITS, max_file_mb=1))]
    assert reason == "not read further; the files of an archive may inflate to 1 MB together (limits.max_file_mb)"
    # ... together with the archives around it: five such tarballs in one zip inflate once.
    results = read(zip_of({f"t{i}.tar.bz2": padded for i in range(5)}), limits=dataclasses.replace(LIMITS, max_file_mb=2))
    assert [r.locator for r in results if isinstance(r, Document)] == ["t0.tar.bz2/a.txt"]
    assert len([r for r in results if isinstance(r, Failure)]) == 4


def test_what_the_first_file_of_an_archive_is_does_not_make_the_archive_that():
    """A tarball's first file (a stored zip's too) starts within its first kilobyte, where a
    PDF is known by its bytes; an OpenDocument file named .zip is still one."""
    pdf = (SAMPLES / "documents" / "alder-lane-closing-summary-2019.pdf").read_bytes()
    for name, data in [("papers.tar", tar_of({"a.pdf": pdf, "b.txt": "The gate code is 2580.\n"}, "w")),
                       ("papers.zip", zip_of({"a.pdf": pdf, "b.txt": "The gate code is 2580.\n"}, method=zipfile.ZIP_STORED))]:  # fmt: skip
        assert sorted(r.locator for r in read(data, name)) == ["a.pdf", "b.txt"], name
    odt = Item(Path("minutes.zip"), "minutes.zip", data=odt_bytes("<text:p>The library fine is waived until May.</text:p>"))
    assert extractor_for(odt) is office and "waived" in next(extract_item(odt, LIMITS)).text


def test_a_gnu_incremental_tarball_s_times_are_no_part_of_its_names():
    """`tar --listed-incremental` writes access and change times where ustar keeps a prefix."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as tar:
        info = tarfile.TarInfo("a.txt")
        info.size = 8
        tar.addfile(info, io.BytesIO(b"A note.\n"))
    data = bytearray(buffer.getvalue())
    data[345:357] = b"15302370621\0"
    data[148:156] = b"%06o\0 " % tarfile.calc_chksums(bytes(data[:512]))[0]
    assert [d.locator for d in read(bytes(data), "incremental.tar")] == ["a.txt"]


def test_a_compressed_tarball_whose_trailer_is_cut_or_followed_by_junk_keeps_its_files():
    """Its files are all there; the stream's trailer (a checksum, a length) is what is lost."""
    whole = tar_of({"a.txt": "A note.\n", "b.txt": "Another note.\n"})
    for data in (whole[:-8], whole + b"SIGNATURE"):
        assert [(type(r).__name__, r.locator) for r in read(data, "notes.tgz")] == [("Document", "a.txt"), ("Document", "b.txt")]


def test_what_follows_a_tarball_s_end_is_reported_and_a_type_tar_does_not_know_is_a_file():
    first, second = tar_of({"a.txt": "A note.\n"}), tar_of({"b.txt": "Another note.\n"})
    results = read(first + second, "appended.tgz")  # tar czf - new >> all.tgz
    assert [r.locator for r in results if isinstance(r, Document)] == ["a.txt"]
    assert ["more follows the block of zeros" in r.reason for r in results if isinstance(r, Failure)] == [True]
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        info = tarfile.TarInfo("vendor.txt")
        info.type, info.size = b"A", 8
        tar.addfile(info, io.BytesIO(b"A note.\n"))
    assert [d.locator for d in read(buffer.getvalue(), "vendor.tar")] == ["vendor.txt"]


@pytest.mark.parametrize("mode", ["w", "w:gz", "w:xz"])
def test_a_tarball_cut_short_anywhere_is_read_up_to_the_break_which_is_reported(mode):
    """tarfile takes a header cut short for the end of the archive; the files after it would be
    lost without a word."""
    whole = tar_of({"a.txt": "The gate code is 2580.\n", "dir/b.txt": "Bee " * 300, "c.txt": "Cee\n"}, mode)
    for cut in range(1, len(whole), 7 if mode == "w" else 1):
        try:
            results = read(whole[:cut], "cut.tar")
        except ExtractError:
            continue  # cut within the first header: no tarball at all
        documents = [r for r in results if isinstance(r, Document)]
        assert len(documents) == 3 or any(isinstance(r, Failure) for r in results), (cut, results)


def seven_zip_of(files: dict[str, bytes | str], password: str | None = None, header_encryption: bool = False) -> bytes:
    import py7zr

    buffer = io.BytesIO()
    with tempfile.TemporaryDirectory() as folder, py7zr.SevenZipFile(
        buffer, "w", password=password, header_encryption=header_encryption
    ) as archive:
        for i, (name, data) in enumerate(files.items()):  # from files, which the archive records the times of
            written = Path(folder) / str(i)
            written.write_bytes(data.encode() if isinstance(data, str) else data)
            os.utime(written, (0, datetime(*WRITTEN, tzinfo=timezone.utc).timestamp()))
            archive.write(written, name)
    return buffer.getvalue()


def test_a_7_zip_archive_is_read_as_a_zip_is():
    data = seven_zip_of({
        "school/permission-slip.docx": docx_bytes(["Aquarium trip", "The bus leaves at 8:15 AM."]),
        "old/undated.txt": "The garage code is 4411.\n",
        "__MACOSX/school/._undated.txt": b"\x00\x05\x16\x07Mac OS X",
        "setup.exe": b"MZ\x90\x00\x03",
    })  # fmt: skip
    item = Item(Path("/docs/backup.7z"), "backup.7z", data=data)
    assert extractor_for(item) is archive
    docs = {d.locator: annotated(d) for d in extract_item(item, LIMITS)}
    assert set(docs) == {"school/permission-slip.docx", "old/undated.txt"}
    assert "8:15 AM" in docs["school/permission-slip.docx"].text and docs["old/undated.txt"].path == "/docs/backup.7z"
    undated = docs["old/undated.txt"]  # dated by the time the archive records for it, in UTC
    assert undated.date_source == "mtime" and undated.source_date == datetime(*WRITTEN, tzinfo=timezone.utc)
    assert extractor_for(Item(Path("notes.7z"), "notes.7z", data=b"not a 7-Zip archive")) is not archive


def test_a_7_zip_archive_past_its_limits_encrypted_or_damaged_is_reported():
    many = seven_zip_of({f"note{i}.txt": f"Note number {i}.\n" for i in range(5)})
    results = read(many, "notes.7z", limits=dataclasses.replace(LIMITS, max_attachments=3))
    assert len([r for r in results if isinstance(r, Document)]) == 3
    assert [r.reason for r in results if isinstance(r, Failure)] == ["2 file(s) beyond the limit of 3 skipped"]
    # A bomb: four files of 600 kB packed into a few hundred bytes, with room for one. Its files
    # are inflated in one pass, as a tarball's are read: up to the first past the allowance.
    bomb = seven_zip_of({f"zeros{i}.txt": "0" * 600_000 for i in range(4)})
    assert len(bomb) < 10_000
    results = read(bomb, "zeros.7z", limits=dataclasses.replace(LIMITS, max_file_mb=1))
    assert len([r for r in results if isinstance(r, Document)]) == 1
    (reason,) = [r.reason for r in results if isinstance(r, Failure)]
    assert reason.startswith("zeros1.txt: not read") and reason.endswith("the rest not read")
    # ... together with the archives around it: three such archives in one zip inflate once.
    results = read(zip_of({f"z{i}.7z": bomb for i in range(3)}), limits=dataclasses.replace(LIMITS, max_file_mb=1))
    assert [r.locator for r in results if isinstance(r, Document)] == ["z0.7z/zeros0.txt"]
    for locked in (seven_zip_of({"a.txt": "secret"}, password="pw"), seven_zip_of({"a.txt": "secret"}, "pw", True)):
        with pytest.raises(ExtractError, match="an encrypted 7-Zip archive; not read"):
            read(locked, "locked.7z")
    whole = seven_zip_of({f"note{i}.txt": f"Note number {i} says something else entirely.\n" * 20 for i in range(3)})
    for broken in (whole[: len(whole) // 2], whole[:32] + bytes(len(whole) - 32), whole[:-40] + b"\xff" * 40):
        with pytest.raises(ExtractError, match="not a readable 7-Zip archive"):
            read(broken, "broken.7z")


def test_a_7_zip_archive_listing_too_many_files_is_refused_before_they_are_all_held(monkeypatch):
    """py7zr holds every entry of the list before brainq's limits apply (half a kilobyte each),
    and a few hundred kilobytes of packed list can name millions; brainq lowers its cap."""
    assert py7zr.archiveinfo.MAX_NUMFILES == archive._MAX_7Z_ENTRIES <= 1 << 17
    monkeypatch.setattr(py7zr.archiveinfo, "MAX_NUMFILES", 4)
    monkeypatch.setattr(archive, "_MAX_7Z_ENTRIES", 4)
    assert len([r for r in read(seven_zip_of({f"n{i}.txt": "x" for i in range(4)}), "four.7z") if isinstance(r, Document)]) == 4
    with pytest.raises(ExtractError, match="^a 7-Zip archive that lists more than 4 files; not read$"):
        read(seven_zip_of({f"n{i}.txt": "x" for i in range(5)}), "five.7z")


def test_a_7_zip_archive_s_files_of_one_name_are_all_read_wherever_brainq_runs(tmp_path, monkeypatch):
    data = seven_zip_of({"notes/a.txt": "The gate code is 2580.\n", "notes/b.txt": "b\n"})
    data_twice = seven_zip_of({"a.txt": "first\n", "b.txt": "second\n"})
    import py7zr

    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w") as archive:  # an archiver appending: two files named a.txt
        archive.writestr(b"The gate code is 2580.\n", "a.txt")
        archive.writestr(b"The pool opens at 9.\n", "a.txt")
    assert {d.locator: d.text.split()[-1] for d in read(buffer.getvalue(), "twice.7z")} == {"a.txt": "2580.", "a.txt#1": "9."}
    # A file named as py7zr renames the second of two: neither of those two is taken for the other.
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w") as archive:
        for name, text in [("n.txt", "one"), ("n.txt", "two"), ("n.txt_0", "three"), ("m.txt", "four")]:
            archive.writestr(f"Note {text}.\n".encode(), name)
    results = read(buffer.getvalue(), "renamed.7z")
    assert {r.locator: r.text.split()[-1] for r in results if isinstance(r, Document)} == {"n.txt": "one.", "m.txt": "four."}
    assert sorted(r.reason for r in results if isinstance(r, Failure)) == [
        "n.txt: its name is another file's in the archive; not read", "n.txt_0: its name is another file's in the archive; not read",
    ]  # fmt: skip
    # A later file of a name taken, past a bomb: py7zr would inflate the bomb to reach it.
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w") as archive:
        for name, content in [("a.txt", b"small\n"), ("zeros.bin", bytes(3 * 2**20)), ("a.txt", b"again\n")]:
            archive.writestr(content, name)
    with pytest.raises(ExtractError, match="DecompressionBombError"):
        read(buffer.getvalue(), "bomb.7z", limits=dataclasses.replace(LIMITS, max_file_mb=1))
    # py7zr checks names against a folder; the one brainq runs in (here "notes" links elsewhere) plays no part.
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "notes").symlink_to(tmp_path / "elsewhere")
    monkeypatch.chdir(tmp_path)
    assert sorted(d.locator for d in read(data, "notes.7z")) == ["notes/a.txt", "notes/b.txt"]
    assert len(read(data_twice, "t.7z")) == 2


def test_a_damaged_7_zip_archive_of_any_compression_is_one_reason():
    import py7zr

    text = "".join(f"Line {i} of the minutes says something different each time: {i * 7919}.\n" for i in range(400))
    for method in (py7zr.FILTER_LZMA2, py7zr.FILTER_ZSTD, py7zr.FILTER_BROTLI, py7zr.FILTER_BZIP2, py7zr.FILTER_DEFLATE):
        buffer = io.BytesIO()
        with py7zr.SevenZipFile(buffer, "w", filters=[{"id": method}]) as archive:
            archive.writestr(text.encode(), "minutes.txt")
        whole = buffer.getvalue()
        for at in range(32, len(whole) - 40, max(1, len(whole) // 40)):
            damaged = whole[:at] + bytes([whole[at] ^ 0xFF]) + whole[at + 1 :]
            try:
                read(damaged, "minutes.7z")
            except ExtractError as exc:
                assert "not a readable 7-Zip archive" in str(exc) and "\n" not in str(exc)
    # PPMd's decoder ends the process on some damaged blocks: such an archive is not opened at all.
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w", filters=[{"id": py7zr.FILTER_PPMD}]) as archive:
        archive.writestr(text.encode(), "minutes.txt")
    with pytest.raises(ExtractError, match="compressed with PPMd; not read"):
        read(buffer.getvalue(), "minutes.7z")
