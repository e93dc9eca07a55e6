"""Hostile and broken input: every extractor yields documents or an ExtractError, never anything
else, within a time bound and with its text within the limits.

Hypothesis builds mail (headers, charsets, MIME trees), PDFs (page trees, xref tables, streams),
EXIF blocks and calendars from their parts; real files from ../shared/corpora are truncated,
bit-flipped and header-mangled with fixed seeds; decompression bombs run in a child process whose
address space is capped. `python -m benchmarks.fuzz --cases N` runs the same strategies longer.
"""

from __future__ import annotations

import base64
import io
import json
import math
import quopri
import random
import signal
import struct
import subprocess
import sys
import time
import zipfile
import zlib
from collections import Counter
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

import icalendar
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brainq.config import Limits
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract import calendar, extract_item
from tests.conftest import CORPORA, ROOT
from tests.test_extract_archive import zip_of
from tests.test_extract_msword import word_file
from tests.test_extract_office import docx_bytes, odt_bytes, xlsx_bytes
from tests.test_extract_xls import workbook

LIMITS = Limits()
# Ordinary cases take milliseconds, the largest hostile ones below about 3 s on an idle machine;
# the bound leaves room for a busy one. The hangs this suite has caught took minutes to hours.
CASE_SECONDS = 20.0
EXAMPLES = 500  # per strategy in the suite; benchmarks/fuzz.py runs more
SUITE = settings(
    max_examples=EXAMPLES,
    derandomize=True,  # the same cases every run: the suite's time and outcome do not vary
    database=None,
    suppress_health_check=list(HealthCheck),
)

# What the cases of this run came to, by strategy and outcome; printed by the last test.
TALLY: Counter = Counter()
SLOWEST: list[tuple[float, str]] = []


# --- the property every case must have -------------------------------------------------------


@dataclass
class Case:
    """A file to extract: its name (which extractors also sniff) and its bytes."""

    name: str
    data: bytes

    def __repr__(self) -> str:  # hypothesis prints this for a failing case: enough to rebuild it
        return f"Case({self.name!r}, {self.data!r})"


class Hang(BaseException):
    """Raised by the alarm; a BaseException, so no extractor's `except Exception` swallows it."""


def check(case: Case, limits: Limits = LIMITS, group: str = "") -> str:
    """Extract `case` and assert the outcome is documents and failures, or an ExtractError.

    Returns the outcome ("documents", "failures only" or "error") for the tally.
    """

    def expire(signum, frame):
        raise Hang()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, CASE_SECONDS)
    started = time.perf_counter()
    try:
        results = list(extract_item(Item(Path("/fuzz") / case.name, case.name, data=case.data), limits))
    except ExtractError as exc:
        assert str(exc), "an ExtractError without a reason"
        outcome = "error"
    except Hang:
        raise AssertionError(f"{case.name}: still extracting after {CASE_SECONDS:g} s") from None
    else:
        _check_results(results, limits)
        outcome = "documents" if any(isinstance(r, Document) for r in results) else "failures only"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    seconds = time.perf_counter() - started
    TALLY[group or "other", outcome] += 1
    SLOWEST.append((seconds, f"{group}:{case.name} ({len(case.data)} bytes)"))
    SLOWEST.sort(reverse=True)
    del SLOWEST[5:]
    return outcome


def _check_results(results: list, limits: Limits) -> None:
    for result in results:
        assert isinstance(result, (Document, Failure)), f"an extractor yielded {type(result).__name__}"
        if isinstance(result, Failure):
            assert isinstance(result.reason, str) and result.reason
            continue
        assert isinstance(result.text, str) and isinstance(result.title, str)
        assert len(result.text) <= limits.max_text_chars
        assert len(result.title) <= limits.max_text_chars
        assert result.locator is None or isinstance(result.locator, str)
        assert result.source_date is None or isinstance(result.source_date, datetime)
        assert all(isinstance(d, date) for d in result.event_dates)
        assert all(isinstance(n, str) for n in result.notes)
        # SQLite refuses text that is not UTF-8 (a lone surrogate, as surrogateescape leaves):
        # one such document would stop the whole ingest.
        for value in (result.text, result.title, result.locator, result.sender, *result.notes):
            if value is not None:
                value.encode("utf-8")


# --- email -----------------------------------------------------------------------------------

CHARSETS = [
    "utf-8", "us-ascii", "iso-8859-1", "windows-1252", "koi8-r", "shift_jis", "iso-2022-jp",
    "gb2312", "ks_c_5601-1987", "utf-7", "utf-16", "utf-32", "utf-8*en", "x-unknown", "",
    "unknown-8bit", "u\x00\x00\x00d", "idna", "punycode", "undefined", "rot13", "base64",
    "zlib", "hex", "unicode_escape", "charmap",
]  # fmt: skip
HEADER_NAMES = [
    "From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To", "References",
    "Received", "List-Id", "Precedence", "Content-Type", "Content-Transfer-Encoding",
    "Content-Disposition", "MIME-Version", "X-Mailer",
]  # fmt: skip
DATES = [
    "Mon, 1 Jan 2024 10:00:00 +0000", "1 Jan 2024 10:00 PST", "Tue, 31 Feb 2024 25:61:61 +9999",
    "Fri, 13 Mar 2026 08:00:00 (EST)", "13/03/2026", "yesterday", "0", "Mon, 1 Jan 99999 00:00:00",
    "Mon, 1 Jan 0001 00:00:00 -2359", "", "Sat, 01 Jan 2000 00:00:00 GMT+25",
]  # fmt: skip
EOL = st.sampled_from([b"\r\n", b"\n"])


def _encoded_word(charset: str, encoding: str, data: bytes) -> bytes:
    if encoding == "B":
        payload = base64.b64encode(data)
    else:
        payload = quopri.encodestring(data, header=True).replace(b"=\n", b"")
    return b"=?" + charset.encode("latin-1", "replace") + b"?" + encoding.encode() + b"?" + payload + b"?="


header_word = st.one_of(
    st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.binary(max_size=40),
    st.builds(_encoded_word, st.sampled_from(CHARSETS), st.sampled_from("BQ"), st.binary(max_size=30)),
    st.sampled_from([b"=?utf-8?B?", b"=?utf-8?Q?=E2=82?= =?utf-8?Q?=AC?=", b"<id@host>", b"a@b.example",
                     b'"Name, Last" <x@y>', b"(comment)", b"=?", b"?=", b"\t", b" " * 200]),
)
header_value = st.one_of(
    st.lists(header_word, max_size=6).map(b" ".join),
    st.sampled_from(DATES).map(str.encode),
    # A long line folded or not: RFC 5322 says 998 characters, mailers write more.
    st.integers(1, 50_000).map(lambda n: b"x" * n),
    st.integers(1, 2_000).map(lambda n: b"\r\n ".join([b"folded"] * n)),
)
header_field = st.tuples(
    st.one_of(st.sampled_from(HEADER_NAMES), st.from_regex(r"[!-9;-~]{1,12}", fullmatch=True)),
    header_value,
).map(lambda f: f[0].encode() + b": " + f[1])

DISPOSITIONS = [
    "", "inline", "attachment", 'attachment; filename="a.pdf"', "attachment; filename=a.ics",
    "attachment; filename*=utf-8''%E2%82%AC%20invoice.pdf", "attachment; filename*=bogus''%ZZ",
    'attachment; filename="=?utf-8?B?w6kuanBn?="', 'attachment; filename="C:\\\\dir\\\\x.jpg"',
    "attachment; filename=", "attachment; filename*0=a; filename*1=.eml", "attachment;;;=",
]  # fmt: skip
LEAF_TYPES = [
    "text/plain", "text/html", "text/calendar", "application/ics", "application/pdf",
    "image/jpeg", "image/png", "application/octet-stream", "message/rfc822",
    "message/delivery-status", "text/rfc822-headers", "", "garbage", "text/", "/",
]  # fmt: skip
ENCODINGS = ["", "7bit", "8bit", "base64", "quoted-printable", "x-uuencode", "binary", "bogus"]


def _encode_body(body: bytes, encoding: str) -> bytes:
    if encoding == "base64":
        return base64.encodebytes(body)
    if encoding == "quoted-printable":
        return quopri.encodestring(body)
    return body


def _leaf(ctype: str, charset: str, encoding: str, disposition: str, body: bytes, broken: bool) -> bytes:
    lines = []
    if ctype:
        lines.append(f"Content-Type: {ctype}" + (f'; charset="{charset}"' if charset else ""))
    if encoding:
        lines.append(f"Content-Transfer-Encoding: {encoding}")
    if disposition:
        lines.append(f"Content-Disposition: {disposition}")
    encoded = _encode_body(body, encoding)
    if broken:  # a base64 body cut mid-quantum, a quoted-printable one with a stray "="
        encoded = encoded[: max(1, len(encoded) * 2 // 3)] + b"=!"
    head = "\r\n".join(lines).encode("latin-1", "replace")
    return head + b"\r\n\r\n" + encoded


def _multipart(subtype: str, boundary_mode: str, children: list[bytes]) -> bytes:
    declared = used = "b" + str(len(children)) + subtype[:3]
    if boundary_mode == "missing":
        header = f"Content-Type: multipart/{subtype}"
    else:
        if boundary_mode == "mismatched":
            used = declared + "x"
        header = f'Content-Type: multipart/{subtype}; boundary="{declared}"'
    if boundary_mode == "empty":
        header, used = 'Content-Type: multipart/mixed; boundary=""', ""
    body = b"".join(b"--" + used.encode() + b"\r\n" + child + b"\r\n" for child in children)
    if boundary_mode != "unterminated":
        body += b"--" + used.encode() + b"--\r\n"
    return header.encode() + b"\r\nMIME-Version: 1.0\r\n\r\npreamble\r\n" + body + b"epilogue"


def _rfc822(headers: list[bytes], child: bytes) -> bytes:
    inner = b"\r\n".join(headers) + (b"\r\n" if headers else b"") + child
    return b"Content-Type: message/rfc822\r\n\r\n" + inner


PAYLOADS: list[bytes] = []  # small valid files of every kind, filled in below


mime_leaf = st.builds(
    _leaf,
    st.sampled_from(LEAF_TYPES),
    st.sampled_from(CHARSETS),
    st.sampled_from(ENCODINGS),
    st.sampled_from(DISPOSITIONS),
    st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode),
              st.deferred(lambda: st.sampled_from(PAYLOADS))),
    st.booleans(),
)
mime_tree = st.recursive(
    mime_leaf,
    lambda children: st.one_of(
        st.builds(
            _multipart,
            st.sampled_from(["mixed", "alternative", "related", "report", "signed", "digest"]),
            st.sampled_from(["ok", "ok", "ok", "missing", "mismatched", "unterminated", "empty"]),
            st.lists(children, max_size=4),
        ),
        st.builds(_rfc822, st.lists(header_field, max_size=3), children),
    ),
    max_leaves=10,
)


@st.composite
def emails(draw) -> Case:
    fields = draw(st.lists(header_field, max_size=6))
    basics = [b"From: Ann <ann@example.com>", b"Subject: fuzz", b"Date: " + draw(st.sampled_from(DATES)).encode()]
    head = draw(st.permutations(basics[: draw(st.integers(1, 3))] + fields))
    message = b"\r\n".join(head) + b"\r\n" + draw(mime_tree)
    if draw(st.booleans()):
        message = message.replace(b"\r\n", b"\n")
    name = draw(st.sampled_from(["m.eml", "1741700000.M1P2.host:2,S", "message", "m.mbox"]))
    if name.endswith(".mbox"):  # two messages behind envelope lines
        envelope = b"From ann@example.com Mon Jan  6 10:00:00 2025\n"
        message = envelope + message + b"\n\n" + envelope + message
    return Case(name, message)


# --- PDF -------------------------------------------------------------------------------------


def pdf_file(objects: list, trailer: str = "/Root 1 0 R", xref: str = "ok", version: bytes = b"1.4") -> bytes:
    """A PDF of numbered objects (str or bytes bodies); `xref` says how broken its table is."""
    out = b"%PDF-" + version + b"\n%\xe2\xe3\xcf\xd3\n"
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        body = body if isinstance(body, bytes) else body.encode("latin-1", "replace")
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    start = len(out)
    shift = {"shifted": 7, "negative": -5}.get(xref, 0)
    if xref != "missing":
        out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
        out += b"".join(b"%010d 00000 n \n" % max(0, o + shift) for o in offsets)
    if xref == "garbage":
        out += b"xref\n0 99999999\nnot a table\n"
    out += f"trailer\n<< /Size {len(objects) + 1} {trailer} >>\n".encode("latin-1", "replace")
    out += b"startxref\n%d\n%%%%EOF\n" % (start + (1000 if xref == "startxref" else 0))
    return out[: len(out) // 2] if xref == "truncated" else out


def stream(data: bytes, extra: str = "", length: int | str | None = None) -> bytes:
    """A stream object; `length` overrides /Length (a wrong, huge or indirect one)."""
    declared = len(data) if length is None else length
    return f"<< /Length {declared} {extra}>>\nstream\n".encode() + data + b"\nendstream"


def deflated_zeros(size: int) -> bytes:
    """A valid zlib stream of `size` zero bytes (a multiple of 1 MiB), built in milliseconds.

    After a full flush deflate restarts, so every further MiB of zeros compresses to the same
    block; the block is repeated instead of compressing gigabytes. The Adler-32 of n zeros is
    (n mod 65521) << 16 | 1.
    """
    mib = bytes(1 << 20)
    compressor = zlib.compressobj(9)
    first = compressor.compress(mib) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(mib) + compressor.flush(zlib.Z_FULL_FLUSH)
    final = compressor.flush(zlib.Z_FINISH)[:-4]  # the last (empty) block, without its checksum
    count = size >> 20
    return first + block * (count - 1) + final + struct.pack(">I", (size % 65521) << 16 | 1)


FONT = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
TEXT_OPS = [
    "BT", "ET", "/F1 12 Tf", "/F9 12 Tf", "72 720 Td", "(Hello) Tj", "[(Hel) -120 (lo)] TJ", "T*",
    "(x) '", "1 2 (y) \"", "1 0 0 1 0 0 cm", "q", "Q", "/Fm1 Do", "(unbalanced Tj", ") Tj", "<48656c6c6f> Tj",
    "<4> Tj", "99999999999999999999 0 Td", "-1e308 Tz", "/Fm1 BDC EMC", "BI /W 1 /H 1 ID x EI",
    "1 0 0 RG", "[] 0 d", "<< /A [1 2 >> Tj", "%comment", "0 0 0 0 0 0 Tm", "()", "[[[[[ ]]]]] TJ",
]  # fmt: skip
COUNTS = ["1", "0", "-1", "1000000000", "2147483648", "9223372036854775808", "(abc)", "1 0 R", "null"]
FILTERS = [
    "", "/Filter /FlateDecode", "/Filter [/FlateDecode /FlateDecode]", "/Filter /ASCIIHexDecode",
    "/Filter /ASCII85Decode", "/Filter /LZWDecode", "/Filter /RunLengthDecode", "/Filter /DCTDecode",
    "/Filter /Foo", "/Filter [/FlateDecode] /DecodeParms << /Predictor 12 /Columns 99999999 >>",
    "/Filter /FlateDecode /DecodeParms << /Predictor 2 /Colors 0 >>", "/Filter 5",
]  # fmt: skip


def _encode_stream(data: bytes, filters: str, corrupt: bool) -> bytes:
    if "FlateDecode /FlateDecode" in filters:
        data = zlib.compress(zlib.compress(data))
    elif "FlateDecode" in filters:
        data = zlib.compress(data)
    elif "ASCIIHex" in filters:
        data = data.hex().encode() + b">"
    elif "ASCII85" in filters:
        data = base64.a85encode(data) + b"~>"
    if corrupt and data:
        data = data[: len(data) // 2] + b"\xff\x00garbage"
    return data


@st.composite
def pdfs(draw) -> Case:
    pages = draw(st.integers(0, 3))
    page_numbers = list(range(5, 5 + 2 * pages, 2))
    kids = [f"{n} 0 R" for n in page_numbers]
    kids += draw(st.lists(st.sampled_from(["2 0 R", "1 0 R", "99 0 R", "3 0 R", "null", "(x)"]), max_size=2))
    kids = draw(st.permutations(kids))
    tree_kids = draw(st.sampled_from([f"[{' '.join(kids)}]", "2 0 R", "[]", "null", "<< >>"]))
    count = draw(st.sampled_from([str(pages), *COUNTS]))
    catalog = draw(st.sampled_from([
        "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Catalog /Pages 1 0 R >>",
        "<< /Type /Catalog /Pages 99 0 R >>", "<< /Type /Catalog >>", "(not a dictionary)",
        "<< /Type /Catalog /Pages 2 0 R /Metadata 4 0 R >>",
    ]))  # fmt: skip
    objects = [catalog, f"<< /Type /Pages /Kids {tree_kids} /Count {count} >>", FONT]
    objects.append(draw(st.sampled_from([
        stream(b"<x:xmpmeta><rdf:RDF><rdf:Description xmp:CreateDate='2024-13-45T99:99'/></rdf:RDF></x:xmpmeta>"),
        stream(b"<?xpacket", "/Type /Metadata /Subtype /XML /Filter /FlateDecode "), "null",
    ])))  # fmt: skip
    for number in page_numbers:
        ops = draw(st.lists(st.sampled_from(TEXT_OPS), max_size=12))
        filters = draw(st.sampled_from(FILTERS))
        data = _encode_stream(" ".join(ops).encode(), filters, draw(st.booleans()))
        length = draw(st.sampled_from([None, None, 0, 10**12, -4, "99 0 R"]))
        objects.append(stream(data, filters + " ", length))
        own, page = f"{number} 0 R", f"{number + 1} 0 R"
        contents = draw(st.sampled_from([own, f"[{own} {own}]", page, "99 0 R", "[]"]))
        parent = draw(st.sampled_from(["2 0 R", page, "99 0 R"]))
        xobject = "/XObject << /Fm1 3 0 R >>" if draw(st.booleans()) else ""
        objects.append(
            f"<< /Type /Page /Parent {parent} /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> {xobject} >> /Contents {contents} >>"
        )
    trailer = "/Root 1 0 R"
    info = draw(st.sampled_from([
        None, "<< /Title (A title) /CreationDate (D:20240229120000+01'00') >>",
        "<< /Title <FEFF00410042> /CreationDate (D:99999999999999Z) >>", "<< /Title 5 /Author [1 2] >>",
        "<< /CreationDate (D:2024) /Title (\\376\\377\\000a) >>", "(not a dictionary)",
    ]))  # fmt: skip
    if info:
        objects.append(info)
        trailer += f" /Info {len(objects)} 0 R"
    if draw(st.booleans()) and draw(st.booleans()):
        objects.append("<< /Filter /Standard /V 9 /R 9 /O (x) /U (y) /P -1 >>")
        trailer += f" /Encrypt {len(objects)} 0 R /ID [(a) (b)]"
    xref = draw(st.sampled_from(["ok", "ok", "missing", "shifted", "negative", "garbage", "startxref", "truncated"]))
    data = pdf_file(objects, trailer, xref)
    if draw(st.booleans()):  # and a few bytes anywhere overwritten
        at = draw(st.integers(0, len(data) - 1))
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at + 8 :]
    return Case(draw(st.sampled_from(["doc.pdf", "scan", "x.PDF"])), data)


# --- EXIF ------------------------------------------------------------------------------------

EXIF_TAGS = [
    0x010E, 0x010F, 0x0110, 0x0132, 0x8769, 0x8825, 0xA005, 0x9003, 0x9004, 0x9010, 0x9011,
    0x9C9B, 0x9C9F, 0x927C, 0x0201, 0x0202, 0x0001, 0x0002, 0x0003, 0x0004, 0x0000, 0xFFFF,
]  # fmt: skip
POINTER_TAGS = {0x8769, 0x8825, 0xA005}


def tiff_block(endian: str, entries: list[tuple[int, int, int, int]], tail: bytes, next_ifd: int) -> bytes:
    """A TIFF header and one IFD at offset 8 with (tag, type, count, value-or-offset) entries."""
    e = "<" if endian == "II" else ">"
    head = endian.encode() + struct.pack(e + "HI", 42, 8)
    body = struct.pack(e + "H", len(entries))
    body += b"".join(struct.pack(e + "HHII", tag, kind, count, value) for tag, kind, count, value in entries)
    return head + body + struct.pack(e + "I", next_ifd) + tail


def _container(kind: str, tiff: bytes) -> bytes:
    exif = b"Exif\x00\x00" + tiff
    if kind == "jpeg":
        return b"\xff\xd8\xff\xe1" + struct.pack(">H", min(len(exif) + 2, 0xFFFF)) + exif + b"\xff\xd9"
    if kind == "png":
        chunk = b"eXIf" + tiff
        return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(tiff)) + chunk + struct.pack(">I", zlib.crc32(chunk))
    if kind == "webp":
        chunk = b"EXIF" + struct.pack("<I", len(exif)) + exif
        return b"RIFF" + struct.pack("<I", len(chunk) + 4) + b"WEBP" + chunk
    if kind == "heic":
        return b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic" + struct.pack(">I", len(exif) + 8) + b"Exif" + exif
    return tiff


@st.composite
def photos(draw) -> Case:
    endian = draw(st.sampled_from(["II", "MM"]))
    entries = []
    for _ in range(draw(st.integers(0, 8))):
        tag = draw(st.sampled_from(EXIF_TAGS) | st.integers(0, 0xFFFF))
        kind = draw(st.sampled_from([1, 2, 3, 4, 5, 7, 9, 10, 11, 12, 0, 13, 99]))
        absurd = st.sampled_from([0, 1, 2, 3, 4, 20, 255, 1000, 65535, 2**31 - 1, 2**32 - 1])
        count = draw(absurd | st.integers(0, 64))
        # Offsets that point at the IFD itself (8), into the tail, or far outside the file.
        value = draw(st.sampled_from([0, 8, 26, 38, 2**31, 2**32 - 1]) | st.integers(0, 200))
        if tag in POINTER_TAGS and draw(st.booleans()):
            kind, count, value = 4, 1, 8  # a sub-IFD that is IFD0 again: a loop
        entries.append((tag, kind, count, value))
    tail = draw(st.one_of(
        st.binary(max_size=120),
        st.just(b"2024:02:30 25:61:00\x00" + b"+25:99\x00" + b"\x00" * 16),
        st.just(b"2023:07:14 18:02:11\x00".ljust(40, b"\x00") + (b"A\x00" * 30)),
    ))  # fmt: skip
    next_ifd = draw(st.sampled_from([0, 0, 8, 2**32 - 1]) | st.integers(0, 300))
    kind = draw(st.sampled_from(["jpeg", "tiff", "png", "webp", "heic"]))
    name = {"jpeg": "p.jpg", "tiff": "p.tif", "png": "p.png", "webp": "p.webp", "heic": "p.heic"}[kind]
    return Case(name, _container(kind, tiff_block(endian, entries, tail, next_ifd)))


# --- calendars -------------------------------------------------------------------------------

WHEN = [
    "20260313T100000", "20260313T100000Z", "20260313", "20240229T235959", "99991231T235959",
    "00010101T000000", "20261399T100000", "tomorrow", "", "2026-03-13T10:00:00", "20260313T1000",
    "19700101T000000Z", "99991231",
]  # fmt: skip
ZONES = ["", "TZID=Europe/Paris", "TZID=Nowhere/Land", "TZID=Custom", "VALUE=DATE", "VALUE=PERIOD"]
DURATIONS = ["PT1H", "P1D", "P99999999W", "-P1D", "P", "PT0S", "bogus", "P1Y"]


def _numbers(values: list[int]):
    return st.lists(st.sampled_from(values), min_size=1, max_size=2).map(lambda v: ",".join(map(str, v)))


@st.composite
def recurrence_rules(draw) -> str:
    parts = ["FREQ=" + draw(st.sampled_from(
        ["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY", "FORTNIGHTLY"]
    ))]  # fmt: skip
    options = {
        "INTERVAL": st.sampled_from([0, 1, 2, 7, -1, 10**20]).map(str),
        "COUNT": st.sampled_from([0, 1, 3, 500, 10**9, -3]).map(str),
        "UNTIL": st.sampled_from(["20260401", "20260401T000000Z", "20250101", "99991231T235959Z", "garbage"]),
        "BYDAY": st.lists(st.sampled_from(["MO", "TU", "FR", "SU", "1MO", "-1FR", "99SA", "XX", "+2WE"]),
                          min_size=1, max_size=3).map(",".join),
        "BYMONTH": _numbers([1, 2, 6, 12, 0, 13]),
        "BYMONTHDAY": _numbers([1, 13, 29, 30, 31, -1, 0, 32]),
        "BYYEARDAY": st.sampled_from(["1", "366", "-1", "0", "400"]),
        "BYWEEKNO": st.sampled_from(["1", "53", "-1", "0", "54"]),
        "BYHOUR": st.sampled_from(["3", "25", "0,23"]),
        "BYMINUTE": st.sampled_from(["7", "61"]),
        "BYSECOND": st.sampled_from(["9", "60"]),
        "BYSETPOS": st.sampled_from(["1", "-1", "0", "999"]),
        "WKST": st.sampled_from(["MO", "SU", "XX"]),
    }
    for key in draw(st.lists(st.sampled_from(sorted(options)), max_size=4, unique=True)):
        parts.append(f"{key}={draw(options[key])}")
    return ";".join(parts)


def _prop(name: str, params: str, value: str) -> str:
    return f"{name}{';' + params if params else ''}:{value}"


@st.composite
def events(draw) -> str:
    lines = [f"UID:{draw(st.sampled_from(['a', 'a', 'b', '']))}"]
    if draw(st.integers(0, 9)):
        lines.append(_prop("DTSTART", draw(st.sampled_from(ZONES)), draw(st.sampled_from(WHEN))))
    end = draw(st.sampled_from(["", "DTEND", "DURATION", "both"]))
    if end in ("DTEND", "both"):
        lines.append(_prop("DTEND", draw(st.sampled_from(ZONES)), draw(st.sampled_from(WHEN))))
    if end in ("DURATION", "both"):
        lines.append(f"DURATION:{draw(st.sampled_from(DURATIONS))}")
    for _ in range(draw(st.sampled_from([0, 1, 1, 2]))):
        lines.append(f"RRULE:{draw(recurrence_rules())}")
    dated = ["EXDATE", "RDATE", "RECURRENCE-ID", "DTSTAMP", "LAST-MODIFIED"]
    for name in draw(st.lists(st.sampled_from(dated), max_size=3)):
        values = draw(st.lists(st.sampled_from(WHEN), min_size=1, max_size=3))
        lines.append(_prop(name, draw(st.sampled_from(ZONES)), ",".join(values)))
    lines.append("SUMMARY:" + draw(st.text(max_size=60)).replace("\r", " ").replace("\n", "\\n"))
    if draw(st.booleans()):
        lines.append("DESCRIPTION:" + draw(st.sampled_from(["x" * 5000, "a\\nb\\,c", "STATUS:CANCELLED"])))
    lines.append(f"STATUS:{draw(st.sampled_from(['CONFIRMED', 'CANCELLED', 'x']))}")
    return "BEGIN:VEVENT\r\n" + "\r\n".join(draw(st.permutations(lines))) + "\r\nEND:VEVENT\r\n"


CUSTOM_ZONE = (
    "BEGIN:VTIMEZONE\r\nTZID:Custom\r\nBEGIN:STANDARD\r\nDTSTART:16010101T000000\r\n"
    "RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30\r\nTZOFFSETFROM:+9999\r\nTZOFFSETTO:-0130\r\n"
    "END:STANDARD\r\nEND:VTIMEZONE\r\n"
)


@st.composite
def calendars(draw) -> Case:
    body = "".join(draw(st.lists(events(), max_size=4)))
    zone = CUSTOM_ZONE if draw(st.booleans()) else ""
    text = f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//fuzz//EN\r\n{zone}{body}END:VCALENDAR\r\n"
    if draw(st.booleans()):
        text = text.replace("END:VEVENT\r\n", "", 1)  # an event left open
    if draw(st.booleans()):
        text += text  # two calendars in one file, as some exports write
    return Case(draw(st.sampled_from(["cal.ics", "export"])), text.encode("utf-8", "surrogatepass"))


# --- notes -----------------------------------------------------------------------------------

NOTE_LINES = ["---", "title: x", "# Heading #", "#" * 7, "   ## a ##  ", " \t" * 500, "\ufeff", "x" * 3000]
notes = st.builds(
    Case,
    st.sampled_from(["note.txt", "note.md", "README.markdown"]),
    st.one_of(
        st.text().map(lambda t: t.encode("utf-8", "surrogatepass")),
        st.binary(),
        st.lists(st.sampled_from(NOTE_LINES), max_size=8).map(lambda lines: "\n".join(lines).encode()),
    ),
)

@st.composite
def office_files(draw) -> Case:
    """Word and Excel files, OpenDocument texts and spreadsheets, and CSV files of drawn text
    (markup characters and quotes included), cells, repeats and property dates, whole or broken
    as the corpus files are."""
    paragraphs = draw(st.lists(st.text(max_size=40), max_size=4))
    date = st.one_of(st.none(), st.sampled_from(["2026-03-02T10:15:00Z", "1601-01-01T00:00:00Z", "0000-00-00", "9999-12-31T23:59:59.999999999"]), st.text(max_size=12))
    form = draw(st.sampled_from(["docx", "xlsx", "odf", "csv"]))
    if form == "csv":
        separator = draw(st.sampled_from([",", ";", "\t", "|", '"', "\x00"]))
        text = "\n".join(separator.join(row) for row in draw(st.lists(st.lists(st.text(max_size=12), max_size=4), max_size=4)))
        name, data = draw(st.sampled_from(["export.csv", "list.tsv"])), text.encode(draw(st.sampled_from(["utf-8", "utf-16", "cp1252"])), "replace")
    elif form == "docx":
        table = draw(st.lists(st.lists(st.text(max_size=10), max_size=3), max_size=3))
        margins = draw(st.sampled_from([None, {"header1.xml": paragraphs, "footer1.xml": paragraphs[::-1]}]))
        name, data = "form.docx", docx_bytes(paragraphs, table, modified=draw(date), created=draw(date), margins=margins)
    elif form == "xlsx":
        value = st.sampled_from(["0", "1", "-1", "45003.25", "1e308", "nan", "x", "", "99999999"])
        cells = "".join(
            f'<c r="{draw(st.sampled_from(["A1", "ZZZ9", "", "1A", "XFD1048576"]))}" t="{draw(st.sampled_from(["s", "n", "b", "inlineStr", "d", "e", ""]))}" '
            f's="{draw(st.sampled_from(["0", "1", "2", "3", "99", "-1", ""]))}"><v>{draw(value)}</v></c>'
            for _ in range(draw(st.integers(0, 6)))
        )  # fmt: skip
        name, data = "budget.xlsx", xlsx_bytes({draw(st.text(max_size=8)): f"<row>{cells}</row>"}, paragraphs, draw(st.booleans()))
    else:
        kind = draw(st.sampled_from(["text", "spreadsheet"]))
        body = "".join(f"<text:p>{p}<text:s text:c=\"{draw(st.sampled_from(['2', '', 'x', '-1']))}\"/></text:p>" for p in paragraphs)
        if kind == "spreadsheet":
            repeat = draw(st.sampled_from(["1", "0", "-5", "x", "99999999"]))
            body = (f'<table:table><table:table-row table:number-rows-repeated="{repeat}"><table:table-cell '
                    f'table:number-columns-repeated="{repeat}" office:date-value="{draw(date) or ""}">{body}</table:table-cell>'
                    "</table:table-row></table:table>")  # fmt: skip
        page = draw(st.sampled_from(["", "<style:header><text:p>" + "".join(paragraphs) + "</text:p></style:header>"]))
        name = draw(st.sampled_from(["notes.odt", "sheet.ods", "attachment"]))
        data = odt_bytes(body, saved=draw(date) or "", kind=kind, master_page=page)
    mutation = draw(st.sampled_from(["whole", *MUTATIONS]))
    return Case(name, data if mutation == "whole" else mutate(data, mutation, str(draw(st.integers(0, 2**16)))))


# Pieces of pages: markup broken and whole, heads that declare charsets and dates, comments.
PAGE_PIECES = [
    "<!DOCTYPE html>", "<html>", "</html>", "<head>", "<title>", "</title>", "<body>", "<p>", "</p>", "<table><tr><td>",
    "</td><td>", "</td></tr></table>", "<script>", "</script>", "<style>", "<!--", "-->", "<![CDATA[", "&amp;", "&#0;",
    "&#x110000;", "&bogus;", "<a href=", "<meta ", "charset=", "utf-16", "x-unknown", "base64", "'", '"', ">", "<",
    "content=", "name=date ", "property=article:modified_time ", "2026-03-02T10:15:00Z", "0000-00-00", "Tue, 15 Nov",
    "<ol><li>", "<pre>", "<br>", "<blockquote>", "<h1>", "<img src=x>", "\x00", "\ufeff", "word ",
]  # fmt: skip


@st.composite
def web_pages(draw) -> Case:
    """Pages of drawn markup and text in a drawn encoding, with or without a byte-order mark,
    whole or broken as the corpus files are."""
    pieces = draw(st.lists(st.one_of(st.sampled_from(PAGE_PIECES), st.text(max_size=12)), max_size=40))
    encoding = draw(st.sampled_from(["utf-8", "cp1252", "utf-16-le", "latin-1"]))
    data = "".join(pieces).encode(encoding, "replace")
    if draw(st.booleans()):
        data = {"utf-16-le": b"\xff\xfe", "utf-8": b"\xef\xbb\xbf"}.get(encoding, b"") + data
    name = draw(st.sampled_from(["page.html", "saved.htm", "attachment", "note.xhtml"]))
    mutation = draw(st.sampled_from(["whole", *MUTATIONS]))
    return Case(name, data if mutation == "whole" else mutate(data, mutation, str(draw(st.integers(0, 2**16)))))


@st.composite
def archives(draw) -> Case:
    """Zip archives of small files of every kind under drawn names (folders, no suffix, an
    archiver's additions, another archive), stored or deflated, whole or broken."""
    names = st.sampled_from(["scan.pdf", "forms/slip.txt", "__MACOSX/._scan.pdf", "inner.zip", "form.docx",
                             "mail.eml", "page.html", "notes", "../outside.txt", ".DS_Store", "a/b/c/"])  # fmt: skip
    contents = st.one_of(st.deferred(lambda: st.sampled_from(PAYLOADS)), st.binary(max_size=64))
    stamp = st.sampled_from([(2025, 10, 2, 9, 30, 0), (1980, 1, 1, 0, 0, 0), (2107, 12, 31, 23, 59, 58)])
    buffer = io.BytesIO()
    method = draw(st.sampled_from([zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA]))
    with zipfile.ZipFile(buffer, "w") as z:
        for name, data in draw(st.lists(st.tuples(names, contents), max_size=5)):
            z.writestr(zipfile.ZipInfo(name, draw(stamp)), data, compress_type=method)
    data = buffer.getvalue()
    if draw(st.booleans()):  # an archive in an archive
        data = zip_of({"inner.zip": data, "readme.txt": "read me"})
    mutation = draw(st.sampled_from(["whole", *MUTATIONS]))
    return Case("bundle.zip", data if mutation == "whole" else mutate(data, mutation, str(draw(st.integers(0, 2**16)))))


@st.composite
def seven_zip_archives(draw) -> Case:
    """7-Zip archives of small files of every kind under drawn names, packed by a drawn method,
    inside a zip or not, whole or broken."""
    import py7zr

    names = st.sampled_from(["scan.pdf", "forms/slip.txt", "__MACOSX/._scan.pdf", "inner.zip", "form.docx",
                             "mail.eml", "page.html", "notes", ".DS_Store", "slip.txt"])  # fmt: skip
    contents = st.one_of(st.deferred(lambda: st.sampled_from(PAYLOADS)), st.binary(max_size=64))
    method = draw(st.sampled_from([py7zr.FILTER_LZMA2, py7zr.FILTER_BZIP2, py7zr.FILTER_DEFLATE, py7zr.FILTER_ZSTD,
                                   py7zr.FILTER_BROTLI, py7zr.FILTER_COPY]))  # fmt: skip
    buffer = io.BytesIO()
    with py7zr.SevenZipFile(buffer, "w", filters=[{"id": method}]) as archive:
        for name, data in draw(st.lists(st.tuples(names, contents), max_size=5)):
            archive.writestr(data, name)
    data = buffer.getvalue()
    if draw(st.booleans()):  # an archive in an archive
        data = zip_of({"inner.7z": data, "readme.txt": "read me"})
        name = "bundle.zip"
    else:
        name = "bundle.7z"
    mutation = draw(st.sampled_from(["whole", *MUTATIONS]))
    return Case(name, data if mutation == "whole" else mutate(data, mutation, str(draw(st.integers(0, 2**16)))))


@st.composite
def excel_97_files(draw) -> Case:
    """Excel 97-2003 workbooks of drawn sheets, text, numbers, dates and booleans, whole or
    broken as the corpus files are."""
    cell = st.one_of(st.none(), st.text(max_size=12), st.integers(-(2**40), 2**40), st.floats(allow_nan=False, allow_infinity=False),
                     st.booleans(), st.datetimes(datetime(1900, 3, 1), datetime(9999, 1, 1)))  # fmt: skip
    sheets = draw(st.dictionaries(st.text("abc123 ", min_size=1, max_size=8), st.lists(st.lists(cell, max_size=5), max_size=5), max_size=3))
    data = workbook(sheets or {"Sheet1": []})
    mutation = draw(st.sampled_from(["whole", *MUTATIONS]))
    return Case("sheet.xls", data if mutation == "whole" else mutate(data, mutation, str(draw(st.integers(0, 2**16)))))


@st.composite
def word_97_files(draw) -> Case:
    """Word 97-2003 files of drawn text (Word's marks and field characters among it), story
    lengths and flags, in either piece encoding, whole or broken as the corpus files are."""
    marks = st.sampled_from(["\r", "\x07", "\x1d", "\x0b", "\x0c", "\x13", "\x14", "\x15", "\x01", "\x03", "a", "\u00e9"])
    body = "".join(draw(st.lists(st.one_of(marks, st.text(max_size=8)), max_size=30)))
    headers = "".join(draw(st.lists(marks, max_size=6)))
    eight_bit = draw(st.booleans())
    if eight_bit:
        body, headers = (t.encode("cp1252", "replace").decode("cp1252") for t in (body, headers))
    flags = draw(st.sampled_from([0x0200, 0x0000, 0x0300, 0xFFFF]))
    version = draw(st.sampled_from([193, 101, 0xFFFF]))
    body = body if body.count("\x1d") <= 8 else body.replace("\x1d", "\x07")  # one page of paragraph properties
    data = word_file(body, headers, eight_bit=eight_bit, flags=flags, version=version, rows=draw(st.booleans()))
    mutation = draw(st.sampled_from(["whole", *MUTATIONS]))
    return Case("minutes.doc", data if mutation == "whole" else mutate(data, mutation, str(draw(st.integers(0, 2**16)))))


RTF_PIECES = [
    "{", "}", "\\par ", "\\cell ", "\\row ", "\\u8211", "\\u-4000", "\\uc0", "\\uc9", "\\'e9", "\\'8", "\\*", "\\bin3 ",
    "\\bin99999999 ", "\\ansicpg932 ", "\\ansicpg0 ", "{\\info{\\title ", "{\\creatim\\yr2024\\mo13\\dy40", "\\yr99999999999",
    "{\\fonttbl ", "{\\header ", "{\\pict ", "\\", "\\\\", "\\{", "\r\n", "word ", "\x00",
]  # fmt: skip
rtf_files = st.builds(
    Case,
    st.sampled_from(["note.rtf", "letter.doc", "attachment"]),
    st.lists(st.one_of(st.sampled_from(RTF_PIECES), st.text(max_size=8)), max_size=40).map(
        lambda pieces: ("{\\rtf1 " + "".join(pieces)).encode("latin-1", "replace")
    ),
)


STRATEGIES = {"email": emails(), "pdf": pdfs(), "photo": photos(), "calendar": calendars(), "text": notes, "office": office_files(), "html": web_pages(), "msword": word_97_files(), "rtf": rtf_files, "archive": archives(), "7z": seven_zip_archives(), "xls": excel_97_files()}


def _fill_payloads() -> None:
    """Small valid files of every kind, for attachments: so parsers behind parsers are reached.

    The PDF's page holds a text layer too long to be taken for a scan's: the generated PDFs and
    the corpus's scans reach OCR, and each message need not spend seconds there."""
    content = stream(b"BT /F1 12 Tf 72 720 Td (Attached: the form for Friday) Tj ET")
    page = "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
    event = b"BEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260313T100000\r\nRRULE:FREQ=WEEKLY\r\nEND:VEVENT\r\n"
    PAYLOADS.extend([
        pdf_file(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
                  FONT, content, page]),
        _container("jpeg", tiff_block("II", [(0x9003, 2, 20, 26)], b"2024:03:01 10:00:00\x00", 0)),
        b"BEGIN:VCALENDAR\r\n" + event + b"END:VCALENDAR\r\n",
        b"From: inner@example.com\r\nSubject: inner\r\n\r\nforwarded body\r\n",
        b"<html><body><p>Hello <b>there</b><table><tr><td>cell</td></tr></table></body></html>",
        docx_bytes(["Attached form"], [["Due", "Friday"]]),
    ])  # fmt: skip


_fill_payloads()


# RRULEs with both COUNT and UNTIL, which RFC 5545 forbids: dateutil warns and reads them anyway.
@pytest.mark.filterwarnings("ignore:Using both 'count' and 'until':DeprecationWarning")
@pytest.mark.parametrize("kind", sorted(STRATEGIES))
def test_generated_files_yield_documents_or_an_extract_error(kind):
    @SUITE
    @given(STRATEGIES[kind])
    def run(case: Case):
        check(case, group=kind)

    run()


# --- hostile files built by hand -------------------------------------------------------------

MAIL_HEAD = b"From: a@example.com\r\nTo: b@example.com\r\nSubject: hi\r\nDate: Mon, 1 Jan 2024 10:00:00 +0000\r\n"


def _attachments(count: int) -> bytes:
    part = (b"--B\r\nContent-Type: text/calendar\r\nContent-Disposition: attachment; filename=a.ics\r\n\r\n"
            b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:x\r\nDTSTART:20260101T000000\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    head = b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n"
    return MAIL_HEAD + head + part * count + b"--B--\r\n"


def _nested_multipart(depth: int) -> bytes:
    opening = b"".join(b"Content-Type: multipart/mixed; boundary=B%d\r\n\r\n--B%d\r\n" % (i, i) for i in range(depth))
    closing = b"".join(b"\r\n--B%d--" % i for i in reversed(range(depth)))
    return MAIL_HEAD + b"MIME-Version: 1.0\r\n" + opening + b"Content-Type: text/plain\r\n\r\ninner" + closing


def _nested_messages(depth: int) -> bytes:
    message = MAIL_HEAD + b"\r\ninnermost\r\n"
    for _ in range(depth):
        message = MAIL_HEAD + b"MIME-Version: 1.0\r\nContent-Type: message/rfc822\r\n\r\n" + message
    return message


def _page_tree(kids: str, count: str) -> bytes:
    page = "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
    return pdf_file(["<< /Type /Catalog /Pages 2 0 R >>", f"<< /Type /Pages /Kids {kids} /Count {count} >>",
                     FONT, stream(b"BT /F1 12 Tf 72 720 Td (Hi) Tj ET"), page])  # fmt: skip


def _doubling_page_tree(levels: int) -> bytes:
    """Each node of the page tree lists the next one twice: 2^levels pages from `levels` objects."""
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", "", FONT, stream(b"BT (x) Tj ET"),
               "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>"]  # fmt: skip
    objects[1] = f"<< /Type /Pages /Kids [6 0 R 6 0 R] /Count {2**levels} >>"
    for level in range(levels):
        kid = f"{7 + level} 0 R" if level < levels - 1 else "5 0 R"
        objects.append(f"<< /Type /Pages /Kids [{kid} {kid}] /Count {2 ** (levels - level - 1)} >>")
    return pdf_file(objects)


def _self_invoking_form() -> bytes:
    form = stream(b"/Fm1 Do BT /F1 12 Tf (x) Tj ET",
                  "/Type /XObject /Subtype /Form /BBox [0 0 1 1] /Resources << /XObject << /Fm1 6 0 R >> >> ")
    resources = "<< /XObject << /Fm1 6 0 R >> /Font << /F1 3 0 R >> >>"
    page = f"<< /Type /Page /Parent 2 0 R /Resources {resources} /Contents 4 0 R >>"
    return pdf_file(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>", FONT,
                     stream(b"/Fm1 Do"), page, form])  # fmt: skip


def _ifd_chain(length: int) -> bytes:
    """IFDs each pointing at the next through an EXIF pointer, deeper than any camera writes."""
    body = b"".join(struct.pack("<HHHII", 1, 0x8769, 4, 1, 8 + 18 * (i + 1)) + b"\0\0\0\0" for i in range(length))
    return b"II*\x00\x08\x00\x00\x00" + body


def _ics(*events: str, head: str = "") -> bytes:
    body = "".join(f"BEGIN:VEVENT\r\n{e}\r\nEND:VEVENT\r\n" for e in events)
    return f"BEGIN:VCALENDAR\r\nVERSION:2.0\r\n{head}{body}END:VCALENDAR\r\n".encode()


def _never_matching_rules() -> bytes:
    limits = "BYMONTH=2;BYMONTHDAY=30;BYHOUR=3;BYMINUTE=7;BYSECOND=9"
    frequencies = ("YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY")
    return _ics(*(f"UID:{f}\r\nDTSTART:20260101T000000\r\nRRULE:FREQ={f};{limits}" for f in frequencies))


def _dates_at_the_ends_of_time() -> bytes:
    return _ics(
        "UID:a\r\nDTSTART:20260101T100000\r\nDURATION:P99999999W",
        "UID:b\r\nDTSTART:00010101T000000\r\nDURATION:-P1D",
        "UID:c\r\nDTSTART:99991231T230000\r\nDURATION:PT2H",
        "UID:d\r\nDTSTART;VALUE=DATE:99991231\r\nRRULE:FREQ=WEEKLY;BYDAY=-1SU",
    )


def _nested_events(depth: int) -> bytes:
    nested = "BEGIN:VEVENT\r\n" * depth + "DTSTART:20260101\r\n" + "END:VEVENT\r\n" * depth
    return f"BEGIN:VCALENDAR\r\n{nested}END:VCALENDAR\r\n".encode()


def _charsets_that_are_not() -> bytes:
    subject = b"Subject: " + b" ".join(_encoded_word(c, "Q", b"\xff\xfe x") for c in CHARSETS)
    body = b"Content-Type: text/plain; charset=punycode\r\n\r\n\xff"
    return MAIL_HEAD.replace(b"Subject: hi", subject) + body


def _huge_length() -> bytes:
    return pdf_file([
        "<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>", stream(b"BT (x) Tj ET", length=10**12),
    ])  # fmt: skip


def _many_entries() -> bytes:
    entry = struct.pack("<HHII", 0x8769, 4, 1, 8)
    return b"II*\x00\x08\x00\x00\x00" + struct.pack("<H", 65535) + entry * 65535


HOSTILE = {
    # mail
    "1000 attachments": Case("many.eml", _attachments(1000)),
    "10 MB header line": Case("long.eml", MAIL_HEAD + b"X-Long: " + b"a" * 10_000_000 + b"\r\n\r\nbody"),
    "10 MB subject": Case("subject.eml", MAIL_HEAD.replace(b"hi", b"=?utf-8?q?ab?= " * 700_000) + b"\r\nbody"),
    "header folded over 150,000 lines": Case("folded.eml", MAIL_HEAD + b"X-F: a" + b"\r\n " * 150_000 + b"\r\n\r\nb"),
    "2000 nested multiparts": Case("deep.eml", _nested_multipart(2000)),
    "300 nested messages": Case("nested.eml", _nested_messages(300)),
    "multipart without boundary": Case("nob.eml", MAIL_HEAD + b"Content-Type: multipart/mixed\r\n\r\n--x\r\n\r\nhi"),
    "charsets that are not charsets": Case("cs.eml", _charsets_that_are_not()),
    # PDF
    "page tree that contains itself": Case("loop.pdf", _page_tree("[2 0 R 5 0 R]", "2")),
    "/Count 10^9": Case("count.pdf", _page_tree("[5 0 R]", "1000000000")),
    "2^40 pages from 40 objects": Case("dag.pdf", _doubling_page_tree(40)),
    "form XObject that draws itself": Case("form.pdf", _self_invoking_form()),
    "no xref table": Case("noxref.pdf", _page_tree("[5 0 R]", "1").replace(b"xref", b"xraf")),
    "/Length 10^12": Case("len.pdf", _huge_length()),
    "nested arrays 100,000 deep": Case("deep.pdf", pdf_file(["<< /Type /Catalog >>", "[" * 100_000 + "]" * 100_000])),
    # EXIF
    "EXIF pointer to IFD0": Case("loop.jpg", _container("jpeg", tiff_block("II", [(0x8769, 4, 1, 8)], b"", 0))),
    "next IFD is itself": Case("next.tif", tiff_block("MM", [(0x010F, 2, 4, 0x41414141)], b"", 8)),
    "count 2^32-1": Case("count.tif", tiff_block("II", [(0x9003, 2, 2**32 - 1, 26),
                                                    (0x0100, 4, 2**32 - 1, 8)], b"", 0)),
    "65535 IFD entries": Case("wide.tif", _many_entries()),
    "5000 chained sub-IFDs": Case("chain.tif", _ifd_chain(5000)),
    # calendars
    "rules that never match": Case("never.ics", _never_matching_rules()),
    "interval 0 and nothing to match": Case("zero.ics", _ics(
        "UID:z\r\nDTSTART:20260101\r\nRRULE:FREQ=DAILY;INTERVAL=0;BYMONTH=2;BYMONTHDAY=30"
    )),
    "recurrence storm": Case("storm.ics", _ics(
        *(f"UID:{n}\r\nDTSTART:20260101\r\nRRULE:FREQ=DAILY" for n in range(99)))),
    "dates at the ends of time": Case("ends.ics", _dates_at_the_ends_of_time()),
    "5000 nested events": Case("nested.ics", _nested_events(5000)),
    "30,000 events": Case("many.ics", _ics(*(f"UID:{n}\r\nDTSTART:20260101T000000" for n in range(30_000)))),
    # notes
    "heading of 40,000 spaces and tabs": Case("h.md", b"# x" + b" \t" * 20_000 + b"x #"),
    "front matter never closed": Case("fm.md", b"---\n" + b"a: b\n" * 100_000),
}


@pytest.mark.parametrize("label", list(HOSTILE))
def test_hostile_files_yield_documents_or_an_extract_error(label):
    check(HOSTILE[label], group="hostile")


def test_hostile_mail_is_cut_where_the_limits_say():
    many = list(extract_item(Item(Path("/m.eml"), "many.eml", data=HOSTILE["1000 attachments"].data), LIMITS))
    skipped = 1000 - LIMITS.max_attachments
    assert many[-1].reason == f"{skipped} attachment(s) beyond the limit of {LIMITS.max_attachments} skipped"
    with pytest.raises(ExtractError, match="MIME parts nested too deeply"):
        list(extract_item(Item(Path("/d.eml"), "deep.eml", data=HOSTILE["2000 nested multiparts"].data), LIMITS))


# --- mutated real files ----------------------------------------------------------------------

MUTATIONS = ("truncated", "bit-flipped", "header-mangled")
CORPUS_DIRS = {"mail": 100, "pdfs": 40, "photos": 40}  # files taken from each, spread evenly
MAX_CORPUS_FILE = 300_000  # bytes: larger files parse for seconds, mutated or not
NOT_SOURCES = {"details.json", "truth.json", "passwords.json", "README.md"}


def corpus_files() -> list[Path]:
    """A fixed, evenly spread selection of the shared corpora, plus the repository's calendars."""
    chosen: list[Path] = []
    for folder, wanted in CORPUS_DIRS.items():
        files = sorted(p for p in (CORPORA / folder).rglob("*")
                       if p.is_file() and p.name not in NOT_SOURCES and p.stat().st_size <= MAX_CORPUS_FILE)
        step = max(1, len(files) // wanted)
        chosen += files[::step][:wanted]
    chosen += sorted((ROOT / "corpus_samples").rglob("*.ics")) + sorted((ROOT / "tests/fixtures").rglob("*.ics"))
    return chosen


JUNK = [b"\x00", b"\xff" * 4, b"\r\n", b":", b"=?utf-8?B?", b"<<", b"obj", b"\n--", b"BEGIN:VEVENT\r\n"]


def mutate(data: bytes, mutation: str, seed: str) -> bytes:
    """`data` truncated, with bits flipped, or with its header region overwritten, reproducibly."""
    rng = random.Random(f"{seed}:{mutation}")
    if not data:
        return data
    if mutation == "truncated":
        return data[: rng.randrange(1, len(data) + 1)]
    out = bytearray(data)
    if mutation == "bit-flipped":
        for _ in range(rng.randint(1, 32)):
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        return bytes(out)
    # The first kilobyte holds what parsers read first: mail headers, the PDF header and first
    # objects, the JPEG APP1 segment and its IFD0, the VCALENDAR header.
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(min(len(out), 1024))
        junk = rng.choice(JUNK)
        out[at : at + rng.randint(0, 8)] = junk
    return bytes(out)


def test_mutated_corpus_files_yield_documents_or_an_extract_error():
    if not CORPORA.is_dir():
        pytest.skip(f"shared corpora not found at {CORPORA}")
    for path in corpus_files():
        rel = path.relative_to(ROOT.parent if path.is_relative_to(CORPORA) else ROOT).as_posix()
        data = path.read_bytes()
        for mutation in MUTATIONS:
            check(Case(path.name, mutate(data, mutation, rel)), group=f"corpus {mutation}")


# --- bombs, in a child with a capped address space -------------------------------------------

# The child's address space may grow this much beyond what imports and the OCR engine's working
# set took (measured on a blank picture of the largest size it reads: a fixed cost, not a bomb's),
BOMB_BUDGET_MB = 512
MAX_GROWTH_MB = 256  # and its memory this much: the limits keep a bomb far below it

CHILD = r"""
import json, resource, sys
from pathlib import Path
from brainq.config import Limits
from brainq.documents import Document, Item
from brainq.errors import ExtractError
from brainq.extract import extract_item
from brainq import ocr
from PIL import Image

side = int(Limits().ocr_max_megapixels ** 0.5 * 1000)
ocr.read(Image.new("RGB", (side, side), "white"), Limits())

def vm_bytes():
    for line in open("/proc/self/status"):
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024

cap = vm_bytes() + int(sys.argv[1]) * 2**20
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
report = {}
for line in sys.stdin:
    name, path = json.loads(line)
    try:
        results = list(extract_item(Item(Path(path), name), Limits()))
        docs = [r for r in results if isinstance(r, Document)]
        outcome = {"documents": len(docs), "longest": max([len(d.text) for d in docs] or [0]),
                   "notes": [n for d in docs for n in d.notes]}
    except ExtractError as exc:
        outcome = {"error": str(exc)}
    except MemoryError:
        outcome = {"memory": True}
    outcome["growth_mb"] = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    report[name] = outcome
print(json.dumps(report))
"""


def _bomb_pdf(filters: str, stream_data: bytes) -> bytes:
    page = "<< /Type /Page /Parent 2 0 R /Resources << /Font << /F1 3 0 R >> >> /Contents 4 0 R >>"
    info = "<< /Title (Bomb) >>"
    return pdf_file(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [5 0 R] /Count 1 >>", FONT,
                     stream(stream_data, filters + " "), page, info], "/Root 1 0 R /Info 6 0 R")  # fmt: skip


def _bombs() -> dict[str, bytes]:
    gigabyte = deflated_zeros(1 << 30)  # 1 MB that inflates to 1 GiB
    # 4 million characters of text from 4 MB of page, twice what a document may keep.
    text = b"BT /F1 12 Tf " + (b"(" + b"a" * 200 + b") Tj 0 -1 Td ") * 20_000 + b"ET"
    pdf_attachment = base64.encodebytes(_bomb_pdf("/Filter /FlateDecode", gigabyte))
    return {
        "flate-bomb.pdf": _bomb_pdf("/Filter /FlateDecode", gigabyte),
        "nested-flate-bomb.pdf": _bomb_pdf("/Filter [/FlateDecode /FlateDecode]", zlib.compress(gigabyte, 9)),
        "text-bomb.pdf": _bomb_pdf("/Filter /FlateDecode", zlib.compress(text, 9)),
        "metadata-bomb.pdf": pdf_file([
            "<< /Type /Catalog /Pages 2 0 R /Metadata 3 0 R >>", "<< /Type /Pages /Kids [] /Count 0 >>",
            stream(gigabyte, "/Type /Metadata /Subtype /XML /Filter /FlateDecode "),
        ]),
        "bomb-attached.eml": MAIL_HEAD + b"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=B\r\n\r\n"
        b"--B\r\n"
        b"Content-Type: application/pdf\r\nContent-Transfer-Encoding: base64\r\n"
        b"Content-Disposition: attachment; filename=bomb.pdf\r\n\r\n" + pdf_attachment + b"\r\n--B--\r\n",
        "huge-description.tif": tiff_block("II", [(0x010E, 2, 30_000_000, 26)], b"d" * 30_000_000, 0),
        # 144 million pixels declared (432 MB decoded), under Pillow's own bomb limit, in 1 KB.
        "pixel-bomb.png": png_declaring(12_000, 12_000),
        # A page 70 metres wide without text: rendered at OCR resolution it would be 15 GB.
        "huge-page.pdf": pdf_file(["<< /Type /Catalog /Pages 2 0 R >>", "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                                   "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200000 200000] /Contents 4 0 R >>",
                                   stream(b"")]),
    }  # fmt: skip


def png_declaring(width: int, height: int) -> bytes:
    """A PNG whose header declares `width` x `height` RGB pixels, with one row of them."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(1 + 3 * width))) + chunk(b"IEND", b"")


def test_decompression_bombs_stay_within_memory_bounds(tmp_path):
    bombs = _bombs()
    lines = []
    for name, data in bombs.items():
        (tmp_path / name).write_bytes(data)
        lines.append(json.dumps([name, str(tmp_path / name)]))
    started = time.monotonic()
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(BOMB_BUDGET_MB)], input="\n".join(lines), capture_output=True,
        text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert child.returncode == 0, child.stderr[-2000:]
    report = json.loads(child.stdout)
    for name, outcome in report.items():
        TALLY["bomb", "error" if "error" in outcome else "documents"] += 1
        assert "memory" not in outcome, f"{name}: ran out of memory within {BOMB_BUDGET_MB} MB"
        assert outcome["growth_mb"] < MAX_GROWTH_MB, f"{name}: grew by {outcome['growth_mb']:.0f} MB"
        assert outcome.get("longest", 0) <= LIMITS.max_text_chars
    # A bomb is cut where the limit says, and the document says what was left out.
    assert "text of 1 page(s) unreadable" in report["flate-bomb.pdf"]["notes"]
    assert "text of 1 page(s) unreadable" in report["nested-flate-bomb.pdf"]["notes"]
    assert f"text cut at {LIMITS.max_text_chars} characters" in report["text-bomb.pdf"]["notes"]
    assert report["huge-description.tif"]["longest"] == LIMITS.max_text_chars
    assert time.monotonic() - started < 60


# --- the 400-year calendar cycle used to bound recurrence searches ---------------------------

WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


@st.composite
def plain_rules(draw) -> str:
    parts = [f"FREQ={draw(st.sampled_from(['YEARLY', 'MONTHLY', 'WEEKLY', 'DAILY']))}"]
    if draw(st.booleans()):
        parts.append(f"INTERVAL={draw(st.integers(1, 5))}")
    if draw(st.booleans()):
        nth = st.builds("{}{}".format, st.sampled_from([1, 2, -1]), st.sampled_from(WEEKDAYS))
        days = st.sampled_from(WEEKDAYS) | nth
        parts.append("BYDAY=" + ",".join(draw(st.lists(days, min_size=1, max_size=3))))
    if draw(st.booleans()):
        parts.append(f"BYMONTH={draw(st.integers(1, 12))}")
    if draw(st.booleans()):
        parts.append(f"BYMONTHDAY={draw(st.sampled_from([1, 15, 28, 29, 30, 31, -1]))}")
    if draw(st.booleans()):
        parts.append(f"COUNT={draw(st.integers(1, 300))}")
    elif draw(st.booleans()):
        parts.append(f"UNTIL={draw(st.dates(date(2000, 1, 1), date(2101, 1, 1))):%Y%m%d}")
    return ";".join(parts)


@settings(SUITE, max_examples=EXAMPLES // 5)
@given(
    plain_rules(),
    st.datetimes(datetime(1900, 1, 1), datetime(2200, 1, 1)),
    st.booleans(),
    st.none() | st.datetimes(datetime(1900, 1, 1), datetime(2200, 1, 1)),  # the calendar's stamp
)
def test_rules_expanded_whole_cycles_later_give_the_same_days(text, start, all_day, stamped):
    start = start.replace(microsecond=0)
    first = start.date() if all_day else start
    rule = icalendar.vRecur.from_ical(text)
    shifted, _ = calendar._occurrences(rule, first, set(), LIMITS, stamped, math.inf)
    real_shift = calendar._cycle_shift
    try:
        calendar._cycle_shift = lambda limit: 0
        unshifted, _ = calendar._occurrences(rule, first, set(), LIMITS, stamped, math.inf)
    finally:
        calendar._cycle_shift = real_shift
    assert shifted == unshifted
    TALLY["calendar cycle", "documents"] += 1


def test_zz_tally(capsys):
    """The number of cases this module ran, by strategy and outcome (read it with -s or -rA)."""
    total = sum(TALLY.values())
    with capsys.disabled():
        groups = Counter()
        for (group, _), n in TALLY.items():
            groups[group] += n
        print(f"\nfuzz: {total} cases: " + ", ".join(f"{g} {n}" for g, n in sorted(groups.items())))
        print("fuzz: outcomes: " + ", ".join(f"{g}/{o} {n}" for (g, o), n in sorted(TALLY.items())))
        print("fuzz: slowest: " + "; ".join(f"{s:.2f} s {what}" for s, what in SLOWEST))
    assert total > 0
