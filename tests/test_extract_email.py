"""The email extractor: single messages, mboxes and Maildir files, dates, charsets, attachments."""

from __future__ import annotations

import json
import time
from email.header import decode_header, make_header
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from brainq.config import Limits
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract import email as mail
from brainq.extract import extract_item, resolved
from tests.conftest import CORPORA

FIXTURES = Path(__file__).parent / "fixtures" / "mail"
CORPUS = CORPORA / "mail"


def extract(path: Path, limits: Limits = Limits()) -> tuple[list[Document], list[Failure]]:
    """Documents and failures of a file, through the extractor registry as ingest calls it."""
    results = list(extract_item(Item(path=path, name=path.name), limits))
    return (
        [r for r in results if isinstance(r, Document)],
        [r for r in results if isinstance(r, Failure)],
    )


def extract_bytes(tmp_path: Path, data: bytes, name: str = "m.eml", limits: Limits = Limits()):
    path = tmp_path / name
    path.write_bytes(data)
    return extract(path, limits)


def message(*headers: str, body: str = "Hello.") -> bytes:
    """A small message; headers are given as written in the file."""
    return ("\n".join(headers) + "\n\n" + body + "\n").encode("utf-8")


def at(*args: int, hours: float = 0) -> datetime:
    return datetime(*args, tzinfo=timezone(timedelta(hours=hours)))


# --- sniffing --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, head",
    [
        ("a.eml", b"From: a@example.com\nTo: b@example.com\nSubject: hi\n\nbody"),
        ("a.txt", b"Received: from x by y; Mon, 1 Jan 2024 00:00:00 +0000\nDate: x\n"),
        ("1741700000.M1P2.host:2,S", b"Delivered-To: a@example.com\nFrom: b@example.com\n"),
        ("a.mbox", b"From a@example.com Sat Feb  1 10:00:00 2025\nFrom: a@example.com\nTo: b\n"),
        ("a.mbox.txt", b"\xef\xbb\xbfFrom -\nFrom: a@example.com\nSubject: x\n\nbody"),
        ("leading-space", b"   \nMIME-Version: 1.0\nSubject: x\n"),
        ("one-field", b"Subject: TEST\r\n\r\nTEST\r\n"),
        ("reminder.eml", b"Date: Mon, 3 Mar 2025 10:00:00 +0000\n\nReminder\n"),  # a lone Date, named as mail
        ("4711.emlx", b"1843      \nReturn-Path: <a@example.com>\nFrom: a@example.com\nSubject: x\n"),
    ],
)
def test_sniff_claims_mail(name, head):
    assert mail.sniff(name, head)


@pytest.mark.parametrize(
    "name, head",
    [
        ("doc.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>"),
        ("photo.jpg", b"\xff\xd8\xff\xe1\x00\x18Exif\x00\x00II*\x00"),
        ("pic.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
        ("cal.ics", b"BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//x//EN\r\nBEGIN:VEVENT\r\n"),
        ("card.vcf", b"BEGIN:VCARD\nVERSION:3.0\nFN:Maggie\nEND:VCARD\n"),
        ("notes.txt", b"Buy milk and the 16x25x4 furnace filter.\nCall the vet.\n"),
        ("todo.md", b"To: do list\n- milk\n- eggs\n"),
        ("tuner.txt", b"Date: March 2025\n\nThe piano tuner came and charged $180.\n"),  # a note dating itself
        ("notes.md", b"---\ntitle: Notes\ndate: 2024-01-01\n---\n# Notes\n"),
        ("prose.txt", b"From the desk of the principal: school is closed.\n"),
        ("empty.eml", b""),
        ("binary.eml", bytes(range(256)) * 4),
        ("42.txt", b"1843\nFrom: a@example.com\nSubject: x\n"),  # a count line only .emlx has
    ],
)
def test_sniff_leaves_other_files_alone(name, head):
    assert not mail.sniff(name, head)


# --- headers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw, decoded",
    [
        (b"=?iso-8859-1?Q?Die_Hasen_und_die_Fr=F6sche?=", "Die Hasen und die Frösche"),
        (b"=?utf-8?B?UGnDsWF0YSBwYXJ0eQ==?=", "Piñata party"),
        (b"=?ISO-2022-JP?B?GyRCJF4kXyRgJGEkYhsoQg==?=", "まみむめも"),
        (b"=?ISO-2022-JP?B?GyRCMnE1RC0hGyhC?=", "会議①"),  # a character Windows adds (CP50220)
        (b"=?ks_c_5601-1987?B?x9Gxubi7t84gx8+0wiCwzQ==?=", "한국말로 하는 것"),
        (b"=?koi8-r?B?8NLJ18XU?=", "Привет"),
        (b"=?windows-1251?Q?=CF=F0=E8=E2=E5=F2?=", "Привет"),
        (b"=?iso-8859-8-i?B?4PDp?=", "אני"),  # RFC 1556 direction suffix
        # one UTF-8 character split across two words, joined before decoding (RFC 2047 §5)
        (b"=?utf-8?B?w6k=?= =?utf-8?B?w6k=?=", "éé"),
        (b"=?utf-8?B?4oI=?= =?utf-8?B?rA==?=", "€"),
        (b"Re: =?utf-8?Q?caf=C3=A9?= tomorrow", "Re: café tomorrow"),
        (b"S\xc3\xa4ying Hello", "Säying Hello"),  # RFC 6532 raw UTF-8
        (b"Fr\xf6sche", "Frösche"),  # raw latin-1
        (b"Appointment \x96 cleaning", "Appointment \u2013 cleaning"),  # raw Windows-1252
        (b"=?x-unknown?Q?Fr=F6sche?=", "Frösche"),
        (b"=?NONE?B?VEVTVA=?=", "TEST"),
        (b"=?utf-8?B?not*base64?=", "=?utf-8?B?not*base64?="),
    ],
)
def test_header_decoding(raw, decoded):
    assert mail.decode_header_text(raw) == decoded


def test_subject_sender_headers_and_thread():
    [doc], failures = extract(FIXTURES / "school-halfday.eml")
    assert not failures
    assert doc.kind == "email" and doc.locator is None and doc.doc_type is None
    assert doc.title == "Re: Friday, March 13 is a full school day"
    assert doc.sender == "principal@lincoln-elementary.example"
    assert doc.path == str(FIXTURES / "school-halfday.eml")
    assert doc.headers["List-Id"].startswith("Lincoln Elementary families")
    assert set(doc.headers) == {"Message-ID", "In-Reply-To", "References", "List-Id",
                                "List-Unsubscribe"}
    assert doc.thread == "halfday-0@lincoln-elementary.example"  # the root of References
    assert "Principal Muñoz" in doc.text and "full school day, not a half-day" in doc.text


@pytest.mark.parametrize(
    "headers, thread",
    [
        (("In-Reply-To: <parent@x>", "Message-ID: <me@x>"), "parent@x"),
        (("Message-ID: <me@x>",), "me@x"),
        (("Message-ID: <9209252113.AA00975@ ebony >",), "9209252113.AA00975@ebony"),
        ((), None),
    ],
)
def test_thread_falls_back_to_reply_then_own_id(tmp_path, headers, thread):
    [doc], _ = extract_bytes(tmp_path, message("From: a@x", "Subject: s", *headers))
    assert doc.thread == thread


def test_missing_subject_gets_a_placeholder(tmp_path):
    [doc], _ = extract_bytes(tmp_path, message("From: a@x", "To: b@x"))
    assert doc.title == "(no subject)"


# --- Apple Mail ------------------------------------------------------------------------------

_PLIST = b"""<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
\t<key>date-received</key>
\t<integer>1773155700</integer>
\t<key>flags</key>
\t<integer>8590195713</integer>
</dict>
</plist>
"""


@pytest.mark.parametrize("name", ["4711.emlx", "4712.partial.emlx"])
def test_apple_mail_emlx_is_its_counted_message(tmp_path, name):
    """The length line and the property list after the message are no part of it."""
    raw = message(
        "From: School Office <office@example.org>", "Subject: Friday is a half-day",
        "Date: Tue, 10 Mar 2026 08:15:00 -0700", "Message-ID: <hd-1@example.org>",
        body="Dismissal on Friday is at 12:30.",
    )  # fmt: skip
    [doc], failures = extract_bytes(tmp_path, f"{len(raw)}       \n".encode() + raw + _PLIST, name)
    assert not failures
    assert (doc.title, doc.source_date) == ("Friday is a half-day", at(2026, 3, 10, 8, 15, hours=-7))
    assert doc.text.strip().endswith("Dismissal on Friday is at 12:30.")
    assert "plist" not in doc.text and "4711" not in doc.text


@pytest.mark.parametrize("wrong", [0, 40, 10_000])  # none, too few bytes, more than the file
def test_an_emlx_whose_count_is_wrong_is_read_to_its_property_list(tmp_path, wrong):
    raw = message("From: a@example.org", "Subject: Trash day moves", body="Pickup is on Tuesday now.")
    [doc], _ = extract_bytes(tmp_path, f"{wrong}\n".encode() + raw + _PLIST, "9.emlx")
    assert doc.text.strip().endswith("Pickup is on Tuesday now.") and "plist" not in doc.text


# --- bodies ----------------------------------------------------------------------------------


def test_html_only_body_becomes_text():
    [doc], _ = extract(FIXTURES / "newsletter-html.eml")
    assert doc.title == "Spring soccer sign-ups – last call"  # windows-1252 dash in latin-1
    assert "Sign-ups close Friday. Practice is on Tuesdays at the café field." in doc.text
    assert "Register here" in doc.text
    assert "<p>" not in doc.text and "color: red" not in doc.text and "https://" not in doc.text
    assert "HTML converted to text" in doc.notes


def test_alternative_prefers_plain_text():
    [doc], _ = extract(FIXTURES / "alternative.eml")
    assert "Plain part: the furnace filter is 16x25x4." in doc.text
    assert "HTML part" not in doc.text
    assert not doc.notes


@pytest.mark.parametrize(
    "headers, body, expected",
    [
        (("Content-Type: text/plain; charset=x-unknown",), "Fr\xf6sche", "Frösche"),
        (("Content-Type: text/plain; charset=\"u\0\0\0d\"",), "plain", "plain"),
        (("Content-Transfer-Encoding: base64",), "!!not base64!!", ""),
        (("Content-Transfer-Encoding: x-bogus",), "raw text", "raw text"),
        (("Content-Type: multipart/mixed",), "no boundary given", "no boundary given"),
        (("Content-Type: multipart/mixed; boundary=zz",), "--zz\n\npart, never closed", "never"),
    ],
)
def test_broken_bodies_recover_what_they_can(tmp_path, headers, body, expected):
    raw = message("From: a@x", "Subject: broken", "MIME-Version: 1.0", *headers, body="")
    [doc], _ = extract_bytes(tmp_path, raw + body.encode("latin-1"))
    assert expected in doc.text


WRAPPED = "The furnace fil=\nter is due for a change=2C says the service reminder we got in Ma=\nrch=\n=20with the next visit's date."


@pytest.mark.parametrize(
    "headers, body, expected",
    [
        # Quoted-printable under a 7bit header, or none: the words are whole again.
        (("Content-Transfer-Encoding: 7bit",), WRAPPED, "The furnace filter is due for a change, says the service reminder"),
        ((), WRAPPED, "we got in March with the next visit's date."),
        # An "=" quoted-printable would not write: the text is taken as written.
        ((), "x =\ny =\nz =\nx = y + z", "x =\ny =\nz =\nx = y + z"),
        ((), "Total=\n======\n$40=\n=3D", "Total=\n======\n$40=\n=3D"),
        # Fewer than three soft breaks: no reason to read it otherwise.
        ((), "a=\nb=20", "a=\nb=20"),
    ],
)
def test_undeclared_quoted_printable(tmp_path, headers, body, expected):
    [doc], _ = extract_bytes(tmp_path, message("From: a@x", "Subject: s", *headers, body=body))
    assert expected in doc.text


def test_text_is_kept_within_the_limit(tmp_path):
    raw = message("From: a@x", "Subject: long", body="word " * 1000)
    [doc], _ = extract_bytes(tmp_path, raw, limits=Limits(max_text_chars=100))
    assert len(doc.text) == 100
    assert "text cut at 100 characters" in doc.notes


# --- dates -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "date, expected",
    [
        ("Wed, 11 Mar 2026 16:02:00 -0500", at(2026, 3, 11, 16, 2, hours=-5)),
        ("Fri, 7 Dec 2001 10:06:42 -0800 (PST)", at(2001, 12, 7, 10, 6, 42, hours=-8)),
        ("Mon, 23 Sep 96 09:20:00 PDT", at(1996, 9, 23, 9, 20, hours=-7)),  # obsolete zone
        ("Wed, 20 Sep 1995 00:19:00 (EDT) -0400", at(1995, 9, 20, 0, 19, hours=-4)),
        ("Wed 29 May 2019 06:09:22 PM EDT", at(2019, 5, 29, 18, 9, 22, hours=-4)),
        ("2024-03-11T16:02:00+01:00", at(2024, 3, 11, 16, 2, hours=1)),
        ("Thu, 13 Feb 1969 23:32 -0330 (Newfoundland Time)", at(1969, 2, 13, 23, 32, hours=-3.5)),
        ("Tue, 12 Oct 2010 16:21:05 -0000", at(2010, 10, 12, 16, 21, 5)),  # UTC, zone unknown
        ("Tue, 12 Oct 2010 16:21:05 XYZ", at(2010, 10, 12, 16, 21, 5)),
    ],
)
def test_date_header_keeps_its_zone(tmp_path, date, expected):
    [doc], _ = extract_bytes(tmp_path, message("From: a@x", f"Date: {date}"))
    assert doc.source_date == expected
    assert doc.source_date.utcoffset() == expected.utcoffset()
    assert (doc.date_source, doc.date_precision) == ("header", "instant")


RECEIVED = "Received: from mx by mail; Mon, 5 Nov 2007 20:17:37 +1100 (EST)"
OLDER_RECEIVED = "Received: from a by mx; Mon, 5 Nov 2007 20:17:30 +1100"


@pytest.mark.parametrize(
    "headers, expected, source, note",
    [
        ((RECEIVED, OLDER_RECEIVED), at(2007, 11, 5, 20, 17, 37, hours=11), "received",
         "no Date header; dated by Received header"),
        ((RECEIVED, "Date: Pn, 29 paX 2007 21:13:00 +0100"), at(2007, 11, 5, 20, 17, 37, hours=11),
         "received", "no valid Date header; dated by Received header"),
        (("Date: Wg>",), None, None, "no valid Date header"),
        (("Date: Thu Jan 01 00:00:10 +0000",), None, None, "no valid Date header"),  # no year
        (("Date: Wed, 15 Dec 2010    59:10 -0500",), None, None, "no valid Date header"),
        (("Date: Wed, 4 Jun 207777777777777777777714 17:50:46 0",
          "Date: Mon, 05 Dec 2011 16:49:35 -0800"), at(2011, 12, 5, 16, 49, 35, hours=-8),
         "header", "first Date header invalid; dated by a later one"),
        ((), None, None, "no Date header"),
        # A sender's clock ahead of the delivery by more than a day: the delivery dates it.
        ((RECEIVED, "Date: Tue, 6 Nov 2008 09:00:00 +0000"), at(2007, 11, 5, 20, 17, 37, hours=11),
         "received", "Date header (2008-11-06) later than its delivery; dated by Received header"),
    ],
)
def test_missing_or_garbled_dates(tmp_path, headers, expected, source, note):
    [doc], _ = extract_bytes(tmp_path, message("From: a@x", "Subject: s", *headers))
    assert doc.source_date == expected
    assert doc.date_source == source
    assert note in doc.notes


def test_a_date_hours_after_delivery_is_kept(tmp_path):
    """Clocks and zones disagree by hours: only a Date more than a day past its delivery is
    taken for a clock adrift."""
    [doc], _ = extract_bytes(tmp_path, message("From: a@x", RECEIVED, "Date: Mon, 5 Nov 2007 22:00:00 +0000"))
    assert doc.source_date == at(2007, 11, 5, 22)
    assert doc.date_source == "header"


def test_file_time_is_never_a_date(tmp_path):
    [doc], _ = extract_bytes(tmp_path, message("From: a@x", "Subject: undated"))
    assert doc.source_date is None and doc.date_source is None


# --- files and mailboxes ---------------------------------------------------------------------


def test_mbox_yields_one_document_per_message():
    docs, failures = extract(FIXTURES / "family.mbox")
    assert not failures
    assert [d.locator for d in docs] == ["bday-1@example.net", "#1", "picture-day@example.org"]
    assert [d.title for d in docs] == ["Maggie's birthday", "Maggie's checkup", "Picture day"]
    assert [d.source_date for d in docs] == [
        at(2025, 2, 1, 10, hours=-6), at(2025, 2, 3, 12, hours=-5), at(2025, 2, 4, 7, 30, hours=-8)
    ]
    assert "From Russia with love\nYear: 1963" in docs[0].text  # a body line, not a new message
    assert len({d.doc_id for d in docs}) == 3


def test_duplicate_message_ids_get_unique_locators(tmp_path):
    one = b"From a@x Mon Jan  6 10:00:00 2025\n" + message("From: a@x", "Message-ID: <same@x>")
    docs, _ = extract_bytes(tmp_path, one * 3, name="dupes.mbox")
    assert [d.locator for d in docs] == ["same@x", "same@x#1", "same@x#2"]


def test_terminal_control_codes_are_dropped(tmp_path):
    """An ESC in a subject, a body or an attachment's name would drive the terminal that
    `brainq list` or `ask` prints it to."""
    raw = (
        "From: Eve \x1b[8m<eve@example.org>\nSubject: hi \x1b[2J there \x1b]0;owned\x07 x\n"
        "List-Id: <\x9b31mlist>\nMIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=BB\n\n"
        "--BB\nContent-Type: text/plain\n\nBody \x1b[31mred\x1b[0m text,\ttabbed.\n"
        "--BB\nContent-Type: text/plain; name=\"a\x1b[31mnote.txt\"\n"
        "Content-Disposition: attachment; filename=\"a\x1b[31mnote.txt\"\n\nAttached \x1b[5mnote.\n--BB--\n"
    ).encode()
    docs, _ = extract_bytes(tmp_path, raw)
    # each escape sequence whole: "[31m" left behind is noise in every title and answer
    assert [d.title for d in docs] == ["hi  there  x", "Attached note."]
    fields = [f for d in docs for f in (d.title, d.text, d.locator or "", d.sender or "", *d.headers.values())]
    assert not [f for f in fields if any(ord(c) < 32 and c not in "\t\n\r" or 0x7F <= ord(c) <= 0x9F for c in f)]
    assert "Body red text,\ttabbed." in docs[0].text and docs[1].locator == "anote.txt"


def test_a_c1_code_goes_alone_not_with_the_words_after_it():
    """0x9B and 0x9D begin sequences on 8-bit terminals, and are also what UTF-8 quotes read
    as Latin-1 leave (an RTF's): taken for sequences, they ate the words after them."""
    from brainq.extract import _without_controls

    doc = Document(path="/n.rtf", locator=None, kind="text", title="Home \x9b Products",
                   text="He said \u00e2\x80\x9cyes\u00e2\x80\x9d and then \u00e2\x80\x9cno\u00e2\x80\x9d to the plumber.")
    cleaned = _without_controls(doc)
    assert cleaned.title == "Home  Products"
    assert cleaned.text == "He said \u00e2yes\u00e2 and then \u00e2no\u00e2 to the plumber."


def test_a_gmail_export_leaves_out_spam_and_trash(tmp_path):
    """Takeout puts spam and deleted mail in the same mbox as the rest, labelled."""
    raw = b"".join(
        b"From 1@xxx Mon Jan  6 10:00:00 2025\n" + message("From: a@x", f"Subject: {subject}", *labels)
        for subject, labels in [
            ("kept", ['X-Gmail-Labels: Inbox,"Category Updates",Opened']),
            ("spam", ["X-Gmail-Labels: Spam"]),
            ("no labels", []),
            ("deleted", ["X-Gmail-Labels: Opened,trash,Category Promotions"]),
            ("after", ["X-Gmail-Labels: Important"]),
        ]
    )
    docs, failures = extract_bytes(tmp_path, raw, name="All mail Including Spam and Trash.mbox")
    assert not failures
    assert [(d.title, d.locator) for d in docs] == [("kept", "#0"), ("no labels", "#2"), ("after", "#4")]
    docs, _ = extract_bytes(tmp_path, raw, name="all.mbox", limits=Limits(skip_mail=()))
    assert len(docs) == 5


@pytest.mark.parametrize("name", ["dupes.mbox", "mail.mbx", "Inbox.mbox.txt"])
def test_mbox_named_file_with_one_message_keeps_its_locator(tmp_path, name):
    raw = b"From a@x Mon Jan  6 10:00:00 2025\n" + message("From: a@x", "Message-ID: <only@x>")
    [doc], _ = extract_bytes(tmp_path, raw, name=name)
    assert doc.locator == "only@x"


def test_eml_with_envelope_and_patch_inside_is_one_message(tmp_path):
    patch = message(
        "From: Dev <dev@x>", "Subject: [PATCH] fix", "Date: Thu, 3 Feb 2022 21:05:05 -0400",
        body="the patch",
    ).decode()
    raw = message(
        "From: Bremner <b@x>", "Subject: Re: tests", "Date: Sat, 05 Feb 2022 10:19:09 -0400",
        body=f"Here is the diff:\n\nFrom fc88cba Mon Sep 17 00:00:00 2001\n{patch}",
    )
    envelope = b"From b@x  Sat Feb  5 09:19:10 2022\n"
    [doc], _ = extract_bytes(tmp_path, envelope + raw, name="mbox-attachment.eml")
    assert doc.title == "Re: tests" and doc.locator is None
    assert "[PATCH] fix" in doc.text


def test_maildir_file_is_one_message():
    path = FIXTURES / "Maildir" / "cur" / "1741700000.M1P2.host:2,S"
    [doc], failures = extract(path)
    assert not failures
    assert doc.locator is None
    assert doc.title == "Practice cancelled today"
    assert doc.source_date == at(2026, 3, 12, 13, 5, hours=-4)


@pytest.mark.parametrize("data", [b"", b"\x00\x01\x02\xff" * 300], ids=["zero-byte", "binary"])
def test_unreadable_files_raise_extract_error(tmp_path, data):
    with pytest.raises(ExtractError) as raised:
        extract_bytes(tmp_path, data, name="broken.eml")
    assert str(raised.value).strip()


@pytest.mark.parametrize(
    "data, reason",
    [(b"", "empty file"), (b"\n\n  \n", "empty file"), (b"Just some words\n", "no header lines")],
)
def test_extract_called_directly_explains_what_is_wrong(tmp_path, data, reason):
    path = tmp_path / "x.eml"
    path.write_bytes(data)
    with pytest.raises(ExtractError, match=reason):
        list(mail.extract(Item(path=path, name=path.name), Limits()))


def _read_in_parts(path: Path, part_bytes: int) -> tuple[list[tuple], int]:
    """What ingest stores of an mbox read in parts of about `part_bytes`, and its message count."""
    size, item = path.stat().st_size, Item(path=path, name=path.name)
    ends = mail.parts(str(path), 0, size, part_bytes)
    cursor = mail.MboxCursor(mailbox=len(ends) > 1)
    found = []
    for end in ends:
        cursor.end = end
        docs = [d for d in resolved(mail.extract(item, Limits(), cursor), Limits()) if isinstance(d, Document)]
        found += [(d.locator, d.title, d.source_date, d.text) for d in docs]
        cursor.start = end
    return found, cursor.messages


def test_every_mailbox_of_the_corpus_reads_the_same_in_parts():
    """Real mailboxes (mboxo and mboxrd, "From " lines in bodies, CRLF, envelopes without a
    blank line before them) cut where a message starts, read part by part."""
    if not CORPUS.is_dir():
        pytest.skip(f"mail corpus not found at {CORPUS}")
    boxes = [p for p in sorted(CORPUS.rglob("*")) if p.is_file() and mail.is_mailbox(Item(path=p, name=p.name))]
    assert len(boxes) > 40
    for box in boxes:
        whole = _read_in_parts(box, box.stat().st_size + 1)
        for part_bytes in (500, 3000):
            assert _read_in_parts(box, part_bytes) == whole, (box, part_bytes)


def test_split_mbox_streams_messages():
    lines = iter([b"From a Mon Jan  6 10:00:00 2025\n", b"Subject: one\n", b"\n", b"1\n"] * 3)
    messages = mail.split_mbox(lines)
    assert next(messages) == b"Subject: one\n\n1\n"
    assert len(list(messages)) == 2


# --- attachments -----------------------------------------------------------------------------


def test_nested_messages_become_documents_of_their_own():
    docs, failures = extract(FIXTURES / "forwarded.eml")
    assert not failures
    outer, invoice, receipt = docs
    assert outer.locator is None and "Attachments: invoice.eml" in outer.text
    assert invoice.locator == "invoice.eml"
    assert invoice.sender == "office@rapidrooter.example"
    assert invoice.source_date == at(2024, 6, 5, 11, hours=-5)
    assert "Attachments: receipt.eml, warranty.zip" in invoice.text
    # The receipt has no Date: it takes the date of the message that carried it.
    assert receipt.locator == "invoice.eml/receipt.eml"
    assert (receipt.source_date, receipt.date_source) == (invoice.source_date, "email")
    assert receipt.date_precision == "instant"
    assert len({d.doc_id for d in docs}) == 3


def test_nesting_beyond_the_limit_is_reported_not_followed():
    docs, failures = extract(FIXTURES / "forwarded.eml", Limits(max_depth=1))
    assert [d.locator for d in docs] == [None, "invoice.eml"]
    assert {failure.path for failure in failures} == {str(FIXTURES / "forwarded.eml")}
    assert [failure.reason for failure in failures] == [
        "attachment invoice.eml: attachment receipt.eml: deeper than the nesting limit of 1",
        "attachment invoice.eml: attachment warranty.zip: deeper than the nesting limit of 1",
    ]


def test_attachments_beyond_the_limit_are_reported():
    docs, failures = extract(FIXTURES / "forwarded.eml", Limits(max_attachments=0))
    assert [d.locator for d in docs] == [None]
    assert [f.reason for f in failures] == ["1 attachment(s) beyond the limit of 0 skipped"]


def test_other_attachments_are_named_in_the_text():
    [doc], failures = extract(FIXTURES / "attachments.eml")
    assert not failures
    assert "Attachments: pictures.zip, packing list.doc, voice.m4a" in doc.text


def test_calendar_attachment_is_extracted_or_reported():
    docs, failures = extract(FIXTURES / "invite.eml")
    message_doc, *attached = docs
    assert message_doc.title == "Game schedule" and "Attachments: invite.ics" in message_doc.text
    if attached:
        assert all(d.locator.startswith("invite.ics") for d in attached)
        assert all(d.sender == "league@example.org" and d.source_date for d in attached)
        assert message_doc.thread and all(d.thread == message_doc.thread for d in attached)  # one conversation
    else:
        assert [f.reason.split(":")[0] for f in failures] == ["attachment invite.ics"]


def test_an_invitation_is_a_calendar_entry_beside_its_text(tmp_path):
    """Outlook and Google send an invitation as alternatives of one message: text, HTML and
    the event itself (text/calendar, method REQUEST), none of them an attachment. Keeping only
    the text dropped the event, and with it the day it is about."""
    event = (
        "BEGIN:VCALENDAR\nMETHOD:REQUEST\nBEGIN:VEVENT\nUID:abc-123\nDTSTAMP:20260310T120000Z\n"
        "DTSTART:20260318T170000Z\nDTEND:20260318T180000Z\nSUMMARY:Parent-teacher conference\n"
        "END:VEVENT\nEND:VCALENDAR\n"
    )
    parts = (
        "--b\nContent-Type: text/plain\n\nYou are invited.\n"
        "--b\nContent-Type: text/html\n\n<p>You are invited.</p>\n"
        f"--b\nContent-Type: text/calendar; method=REQUEST\n\n{event}--b--\n"
    )
    raw = message("From: school@example.org", "Subject: Invitation: conference", "MIME-Version: 1.0",
                  'Content-Type: multipart/alternative; boundary="b"', body=parts)
    docs, failures = extract_bytes(tmp_path, raw)
    assert not failures
    message_doc, entry = docs
    assert "You are invited." in message_doc.text and "<p>" not in message_doc.text
    assert entry.kind == "calendar" and entry.title == "Parent-teacher conference"
    assert entry.event_dates and min(entry.event_dates).isoformat() == "2026-03-18"


def test_attachment_locators_sit_under_their_mbox_message(tmp_path):
    forwarded = (FIXTURES / "forwarded.eml").read_bytes()
    raw = b"From dad Fri Jun  7 18:00:00 2024\n" + forwarded
    docs, _ = extract_bytes(tmp_path, raw * 2, name="heater.mbox")
    assert [d.locator for d in docs] == [
        "fwd-heater@example.net",
        "fwd-heater@example.net/invoice.eml",
        "fwd-heater@example.net/invoice.eml/receipt.eml",
        "fwd-heater@example.net#1",
        "fwd-heater@example.net#1/invoice.eml",
        "fwd-heater@example.net#1/invoice.eml/receipt.eml",
    ]


def test_duplicate_attachment_names_are_made_unique(tmp_path):
    part = (
        "--b\nContent-Type: message/rfc822\nContent-Disposition: attachment; filename=fwd.eml\n\n"
        "From: x@y\nSubject: inner\n\ninner body\n"
    )
    raw = message("From: a@x", "Subject: twice", "MIME-Version: 1.0",
                  'Content-Type: multipart/mixed; boundary="b"', body=part * 2 + "--b--")
    docs, _ = extract_bytes(tmp_path, raw)
    assert [d.locator for d in docs] == [None, "fwd.eml", "fwd-2.eml"]


# --- robustness ------------------------------------------------------------------------------


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(["m.eml", "m.mbox", "m"]),
    headers=st.lists(st.sampled_from([
        b"From a Mon Jan  6 10:00:00 2025", b"From: a@x", b"Subject: =?utf-8?B?", b"Date: ",
        b"Content-Type: multipart/mixed; boundary=b", b"Content-Transfer-Encoding: base64",
        b"Content-Type: multipart/related; boundary=b", b"Content-Type: message/rfc822",
        b"--b", b"--b--", b"", b"\tfolded",
    ]), max_size=8),
    tail=st.binary(max_size=300),
)
def test_arbitrary_input_yields_documents_or_an_extract_error(name, headers, tail):
    data = b"From: a@x\nSubject: fuzz\n" + b"\n".join(headers) + b"\n" + tail
    try:
        results = list(resolved(mail.extract(Item(path=Path(name), name=name, data=data), Limits()), Limits()))
    except ExtractError:
        return
    assert all(isinstance(r, (Document, Failure)) for r in results)


# --- the real-mail corpus --------------------------------------------------------------------

NOT_MAIL = {"zbateson/README.md", "details.json", "truth.json"}
# The reference dates come from email.utils.parsedate_to_datetime, which drops a 12-hour clock's
# "PM" (and then the zone); brainq reads the header as written.
REFERENCE_MISREAD = {"notmuch/crypto/encrypted-signed.eml": at(2019, 5, 29, 18, 9, 22, hours=-4)}
# The reference holds these messages' Date headers; each is over a day later than the delivery
# its topmost Received header records, so brainq dates them by that delivery.
DATED_BY_DELIVERY = {
    "mail-parser/mail_malformed_3": at(2017, 3, 8, 1, 21),
    "flanker/outlook-express.eml": at(2014, 7, 14, 4, 1, 18),
    "mikel-mail/plain_emails/raw_email_bad_time.eml": at(2008, 6, 30, 2, 34, hours=-7),
}


def message_documents(docs: list[Document]) -> list[Document]:
    """The documents of messages, in file order, without those of their attachments."""
    if docs and docs[0].locator is None:
        return docs[:1]  # a single message; the rest are its attachments
    messages: list[Document] = []
    for doc in docs:
        parent = messages[-1].locator if messages else None
        if parent is not None and doc.locator and doc.locator.startswith(parent + "/"):
            continue
        messages.append(doc)
    return messages


def same_instant(got: datetime | None, reference: datetime) -> bool:
    """Equal instants; a reference without a zone (its parser found none) compares wall clocks."""
    if got is None:
        return False
    if reference.tzinfo is None:
        return got.replace(tzinfo=None) == reference
    return got == reference


@pytest.fixture(scope="module")
def corpus():
    """Every corpus file extracted once: {relative path: documents or the ExtractError's reason}.

    OCR is off: these tests are of mail's structure and their time limit is the mail parser's
    (pictures in attachments are read in tests/test_ocr.py and the fuzz run)."""
    if not CORPUS.is_dir():
        pytest.skip(f"mail corpus not found at {CORPUS}")
    results: dict[str, list[Document] | str] = {}
    failures, slow = 0, []
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file()):
        rel = path.relative_to(CORPUS).as_posix()
        if rel in NOT_MAIL:
            continue
        started = time.perf_counter()
        try:
            docs, fails = extract(path, Limits(ocr=False))
            results[rel], failures = docs, failures + len(fails)
        except ExtractError as exc:
            results[rel] = str(exc)
        if time.perf_counter() - started > 3:
            slow.append(rel)
    return results, failures, slow


def test_corpus_files_are_extracted_or_reported(corpus, capsys):
    results, failures, slow = corpus
    extracted = {rel: docs for rel, docs in results.items() if isinstance(docs, list)}
    reported = {rel: reason for rel, reason in results.items() if isinstance(reason, str)}
    assert not slow
    assert all(reason.strip() for reason in reported.values())
    assert all(extracted.values()), "a file that yields nothing must raise ExtractError instead"
    messages = sum(len(message_documents(docs)) for docs in extracted.values())
    with capsys.disabled():
        print(f"\nmail corpus: {len(results)} files, {len(extracted)} extracted "
              f"({messages} messages), {len(reported)} reported, {failures} attachment failures")
    assert len(extracted) >= len(results) - 2  # an Outlook .msg and an empty file


def test_corpus_dates_match_the_reference(corpus, capsys):
    results, _, _ = corpus
    truth = json.loads((CORPUS / "truth.json").read_text())
    matched, mismatched = 0, []
    for key, iso in truth.items():
        if iso is None:
            continue
        rel, _, index = key.partition("#")
        docs = results.get(rel)
        messages = message_documents(docs) if isinstance(docs, list) else []
        n = int(index or 0)
        got = messages[n].source_date if n < len(messages) else None
        reference = REFERENCE_MISREAD.get(rel) or DATED_BY_DELIVERY.get(rel) or datetime.fromisoformat(iso)
        if same_instant(got, reference):
            matched += 1
        else:
            mismatched.append((key, iso, got))
    with capsys.disabled():
        print(f"\nmail corpus dates: {matched}/{matched + len(mismatched)} match truth.json")
    assert not mismatched


@pytest.mark.parametrize(
    "rel",
    [
        "mikel-mail/multi_charset/japanese.eml",  # ISO-2022-JP
        "mikel-mail/multi_charset/japanese_iso_2022.eml",
        "mimekit/messages/japanese.txt",
        "mikel-mail/rfc2822/example14.eml",  # encoded word on an all-space folded line
        "mikel-mail/plain_emails/raw_email.eml",  # Korean
        "flanker/bilingual-simple.eml",  # Russian
        "mail-parser/mail_test_6",  # Russian, split over several words
        "zbateson/m2001.txt",
    ],
)
def test_corpus_subjects_are_decoded(corpus, rel):
    """Subjects read as the standard library decodes the raw value recorded in details.json."""
    results, _, _ = corpus
    raw = json.loads((CORPUS / "details.json").read_text())[rel]["subject"]
    expected = " ".join(str(make_header(decode_header(raw))).split())
    assert "=?" in raw and not expected.isascii()
    assert results[rel][0].title == expected


@pytest.mark.parametrize(
    "header, bulk",
    [
        ("List-Id: <pta.school.example>", True),
        ("Precedence: bulk", True),
        ("Precedence: list", True),
        ("Precedence: first-class", False),
        ("Feedback-ID: 1234:campaign:esp", True),
        ("X-Mailer: MailChimp Mailer - **CID5f8**", True),
        ("X-Mailer: Microsoft Outlook 16.0", False),
    ],
)
def test_bulk_mail_is_known_by_the_headers_its_senders_set(tmp_path, header, bulk):
    from brainq.annotate import classify_doc_type
    from brainq.config import load_config

    [doc], _ = extract_bytes(tmp_path, message("From: a@example.org", "Subject: News", header, body="Hello all."))
    assert (classify_doc_type(doc, load_config().doc_types) == "newsletter") == bulk


def test_what_the_sender_did_not_write_is_marked_as_quoted(tmp_path):
    body = (
        "No, it moved to 7:00 PM, in the library's meeting room.\n\n"
        "Thanks,\nDana Whitfield\nHOA secretary\n\n"
        "On Mon, Apr 13, 2026 at 9:00 AM Pat <pat@example.org> wrote:\n"
        "> The meeting is at 6:00 PM at the clubhouse.\n"
    )
    [doc], _ = extract_bytes(tmp_path, message("From: dana@example.org", "Subject: Re: Meeting", body=body))
    own, _, marked = doc.text.partition("\n> ")
    assert "moved to 7:00 PM" in own and "6:00 PM" not in own and "Dana Whitfield" not in own
    assert "> The meeting is at 6:00 PM at the clubhouse." in doc.text  # still searchable
    assert "> Dana Whitfield" in doc.text


@pytest.mark.parametrize("note", ["FYI", "Can you take him to this one? I have a review that afternoon."])
def test_a_forward_is_what_it_forwards(tmp_path, note):
    """With a note or without: the most common way a family passes a fact on."""
    body = f"{note}\n\n---------- Forwarded message ---------\nFrom: Air <a@x.org>\nSubject: Itinerary\n\nFlight 123 lands at 4:05 PM.\n"
    [doc], _ = extract_bytes(tmp_path, message("From: me@example.org", "Subject: Fwd: Itinerary", body=body))
    assert "\nFlight 123 lands at 4:05 PM." in doc.text and "> Flight" not in doc.text


@pytest.mark.skipif(not (CORPUS / "mail-parser/mail_outlook_1").exists(), reason="../shared/corpora/mail is absent")
def test_an_outlook_msg_file_is_read_as_its_message():
    [doc], failures = extract(CORPUS / "mail-parser/mail_outlook_1")  # a .msg without the suffix
    assert doc.kind == "email" and not failures
    assert doc.title == "Newsletter Prüfung Personalwesen / Prüfung Eröffnungsbilanz"
    assert doc.sender == "nueblingv@w-vwa.de"
    assert (doc.source_date.isoformat(), doc.date_source) == ("2017-09-18T12:00:18+02:00", "header")
    assert "Sehr geehrte Frau Gaiser-Schönenborn" in doc.text


def test_a_word_file_is_no_outlook_message():
    from brainq.extract import msg

    ole = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600 + "WordDocument".encode("utf-16-le")
    assert not msg.sniff("report.doc", ole) and msg.sniff("saved.msg", ole)


def test_a_forwarded_message_in_base64_is_read_as_a_message(tmp_path):
    import base64

    inner = message("From: guest@localhost", "Subject: test-localhost", "Date: Sat, 25 May 2019 09:48:23 +0200",
                    body="The test went through.")  # fmt: skip
    outer = message(
        "From: a@example.org", "Subject: fwd", 'Content-Type: multipart/mixed; boundary="b"',
        body=(
            "--b\nContent-Type: text/plain\n\nSee the attached message.\n"
            '--b\nContent-Type: message/rfc822; name="test.eml"\nContent-Transfer-Encoding: base64\n'
            'Content-Disposition: attachment; filename="test.eml"\n\n'
            f"{base64.encodebytes(inner).decode()}\n--b--"
        ),
    )  # fmt: skip
    docs, failures = extract_bytes(tmp_path, outer)
    assert not failures
    assert [d.title for d in docs] == ["fwd", "test-localhost"] and "The test went through." in docs[1].text


def test_a_gif_is_named_not_read(tmp_path):
    outer = message(
        "From: a@example.org", "Subject: logo", 'Content-Type: multipart/mixed; boundary="b"',
        body=(
            "--b\nContent-Type: text/plain\n\nHello.\n"
            '--b\nContent-Type: image/gif\nContent-Disposition: attachment; filename="spacer.gif"\n'
            "Content-Transfer-Encoding: base64\n\nR0lGODlhAQABAAAAACw=\n--b--"
        ),
    )  # fmt: skip
    [doc], failures = extract_bytes(tmp_path, outer)
    assert not failures and "spacer.gif" in doc.text


def test_an_attachment_named_in_raw_utf8_keeps_its_name(tmp_path):
    # Yahoo writes 8-bit file names into the header, unencoded (flanker's russian-attachment).
    part = (
        '--b\nContent-Type: message/rfc822\nContent-Disposition: attachment; filename="Счёт за март.eml"\n\n'
        "From: x@y\nSubject: inner\n\ninner body\n--b--"
    )
    raw = message("From: a@x", "Subject: invoice", "MIME-Version: 1.0", 'Content-Type: multipart/mixed; boundary="b"', body=part)
    docs, _ = extract_bytes(tmp_path, raw)
    assert [d.locator for d in docs] == [None, "Счёт за март.eml"]
