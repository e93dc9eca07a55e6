"""E-mail: single RFC 822 messages (.eml, Maildir files, Apple Mail's .emlx) and mbox files, one
document per message.

Mail in the wild is often broken (bad charsets, missing boundaries, fuzzed dates), so everything
here recovers what it can and notes what it guessed rather than giving up on a message.
"""

from __future__ import annotations

import binascii
import base64
import email
import functools
import io
import mimetypes
import quopri
import re
import warnings
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.errors import MessageError
from email.message import Message
from email.utils import parseaddr, parsedate_to_datetime
from pathlib import PurePosixPath, PureWindowsPath

from mailparser_reply.parser import EmailMessage as MailBody
from dateutil import parser as dateutil_parser
from dateutil.parser import UnknownTimezoneWarning

from brainq.chunking import FORWARD_WORDS
from brainq.config import Limits
from brainq.documents import Document, Failure, Item, Nested
from brainq.errors import ExtractError
from brainq.extract import html
from brainq.extract.text import decode_bytes

KIND = "email"

# RFC 5322 §3.6.8: a field name is printable ASCII except the colon.
_HEADER_LINE = re.compile(rb"[!-9;-~]+[ \t]*:")
# The mbox envelope line, "From sender asctime-date" (RFC 4155); Netscape wrote a bare "From -".
_ENVELOPE = re.compile(rb"From \S*(?:[ \t]*|[ \t].*\d:\d\d.*)\r?\n?\Z")
_LEADING_BLANK_LINES = re.compile(rb"\A(?:[ \t]*\r?\n)+")
_MBOX_NAME = re.compile(r"(?:^|\.)mbo?x(?:\.txt)?$")
# Apple Mail's .emlx (and .partial.emlx, its attachments kept beside it): a line with the
# message's length in bytes, the message, then a property list of flags.
_EMLX_LENGTH = re.compile(rb"\A[ \t]*(\d{1,12})[ \t]*\r?\n")
_BOM = b"\xef\xbb\xbf"

# Field names that only mail has; at least one must appear before a file is taken for a message,
# so that a note with a "Title: ..." line or a vCard is not.
_MAIL_FIELDS = frozenset(
    b"from to cc subject date message-id received return-path mime-version delivered-to sender "
    b"reply-to in-reply-to references x-mailer dkim-signature content-type".split()
)
_MIN_FIELDS = 2
# A note's names: one whose header is a lone Date line is a note dating itself, where a message
# file (a Maildir's, an .eml) is mail whatever it holds.
_NOTE_SUFFIXES = (".txt", ".md", ".markdown")

# Headers kept on the document: they drive doc_type rules (List-*, Precedence, bulk mailers'
# marks) and supersession.
KEPT_HEADERS = (
    "Message-ID",
    "In-Reply-To",
    "References",
    "List-Id",
    "List-Unsubscribe",
    "List-Post",
    "List-Unsubscribe-Post",
    "Precedence",
    "Auto-Submitted",
    "Feedback-ID",
    "X-Mailer",
)

_FORWARD_HEADS = r"forwarded message|weitergeleitete nachricht|message transf"
_FORWARD_MARK = re.compile(rf"^.*({_FORWARD_HEADS}|original message).*$", re.IGNORECASE | re.MULTILINE)
# A forward's own marker line, not a quoted one ("> ---------- Forwarded message"); Outlook's
# "Original Message" heads replies as often as forwards.
_FORWARDED = re.compile(rf"^(?!>)[-\s]*(?:begin forwarded message|{_FORWARD_HEADS})", re.IGNORECASE | re.MULTILINE)
# Languages of the reply headers, signatures and disclaimers looked for (mail-parser-reply's
# names); each costs a little on every message.
REPLY_LANGUAGES = ("en", "de", "fr", "es", "it", "nl", "sv", "da")


# RFC 2047 encoded word: =?charset?B|Q?text?= (charset may carry an RFC 2231 "*language" suffix).
_ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([bBqQ])\?([^?\s]*)\?=")

# RFC 5322 §4.3 obsolete zone names, for dates the RFC parser could not read.
_US_ZONES = {
    name: timezone(timedelta(hours=hours))
    for name, hours in {
        "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
    }.items()
}

# Attachments extracted as documents of their own; other kinds are only named in the text.
_DOCUMENT_TYPES = (
    "application/pdf", "image/jpeg", "image/png", "image/tiff", "image/heic", "image/heif", "image/webp",
    "text/calendar", "application/ics", "message/rfc822",
)  # fmt: skip (images of the kinds brainq reads: a GIF is a logo or a spacer, named only)
_DOCUMENT_SUFFIXES = (
    ".pdf", ".jpg", ".jpeg", ".png", ".tif", ".tiff", ".heic", ".webp", ".ics", ".eml",
)  # fmt: skip


# ---------------------------------------------------------------------------------------------
# Sniffing and splitting


def sniff(name: str, head: bytes) -> bool:
    """True when the first bytes are a mail header block, or an mbox envelope line and one."""
    lines = _leading_lines(_without_emlx_length(name, head))
    if lines and _is_envelope(lines[0]):
        lines = lines[1:]
    if name.lower().endswith(_NOTE_SUFFIXES) and len(lines) == 2 and lines[0].lower().startswith(b"date:"):
        return False  # a note dating itself ("Date: March 2025", a blank line, its text)
    return _looks_like_header_block(lines)


def _without_emlx_length(name: str, data: bytes) -> bytes:
    """An .emlx file's message: the bytes its first line counts, or, where the count does not
    end at the property list (a file edited or cut), those before the list."""
    length = _EMLX_LENGTH.match(data) if name.lower().endswith(".emlx") else None
    if length is None:
        return data
    body, count = data[length.end() :], int(length.group(1))
    if not body[count:].lstrip().startswith(b"<?xml"):
        plist = body.rfind(b"<?xml")
        count = plist if plist >= 0 and b"<plist" in body[plist:] else len(body)
    return body[:count]


def _is_envelope(line: bytes) -> bool:
    """A "From " line (not a "From :" header), as mbox files put before each message."""
    return line.startswith(b"From ") and not _HEADER_LINE.match(line)


def _leading_lines(head: bytes) -> list[bytes]:
    """The first lines of `head` (after a BOM and blank lines), up to and with a blank one."""
    block = []
    for line in head.removeprefix(_BOM).lstrip().splitlines(keepends=True):
        block.append(line)
        if not line.strip():
            break
    return block


def _looks_like_header_block(lines: list[bytes]) -> bool:
    """Header fields, one of them a mail field: two or more, or one that a blank line ends.

    ("To: do list" followed by a list is a note; "Subject: test", a blank line and a body is mail.)
    """
    names: list[bytes] = []
    ended = False
    for line in lines:
        if _HEADER_LINE.match(line):
            names.append(line.split(b":", 1)[0].strip().lower())
        elif not (line[:1] in (b" ", b"\t") and line.strip()):
            ended = not line.strip()
            break
    mail = any(n in _MAIL_FIELDS for n in names)
    return mail and (len(names) >= _MIN_FIELDS or (len(names) == 1 and ended))


def split_mbox(lines: Iterable[bytes]) -> Iterator[bytes]:
    """The messages of an mbox, one at a time, without their envelope lines.

    mboxo files leave "From " body lines unescaped (RFC 4155 §2), so a "From " line starts a
    message only where an envelope may stand (after a blank line, or in the envelope's own
    format, as Netscape wrote it with no blank line before) and when mail headers follow it.
    """
    message: list[bytes] = []
    after_blank = True
    stream = _Lookahead(lines)
    for line in stream:
        line = line.removeprefix(_BOM) if not message else line
        if (
            _is_envelope(line)
            and (after_blank or _ENVELOPE.match(line))
            and _looks_like_header_block(stream.header_block())
        ):
            if _has_content(message):
                yield b"".join(message)
            message = []
            after_blank = False
            continue
        message.append(line)
        after_blank = not line.strip()
    if _has_content(message):
        yield b"".join(message)


class _Lookahead:
    """Lines, with a look at the header block that follows the current one."""

    def __init__(self, lines: Iterable[bytes]):
        self._lines = iter(lines)
        self._ahead: deque[bytes] = deque()

    def __iter__(self) -> _Lookahead:
        return self

    def __next__(self) -> bytes:
        return self._ahead.popleft() if self._ahead else next(self._lines)

    def header_block(self) -> list[bytes]:
        """The next lines up to the first that cannot be a header line; they are still to come."""
        block: list[bytes] = []
        while True:
            if len(block) < len(self._ahead):
                line = self._ahead[len(block)]
            else:
                line = next(self._lines, None)
                if line is None:
                    return block
                self._ahead.append(line)
            block.append(line)
            if not (_HEADER_LINE.match(line) or (line[:1] in (b" ", b"\t") and line.strip())):
                return block


def _has_content(lines: list[bytes]) -> bool:
    return any(line.strip() for line in lines)


# ---------------------------------------------------------------------------------------------
# Reading a grown mbox from where it was read before


@dataclass
class MboxCursor:
    """Where a read of an mbox file starts and stops, and, once it is done, what it found.

    A full read starts at 0. A mailbox that only grew is read from `start`, the size it had
    when it was last read, with that read's message count and locators, so that its new
    messages get exactly the locators a full read would give them (`continues_mbox` says
    when reading from there is safe).
    """

    start: int = 0
    end: int | None = None  # read no byte past this one (the size that was hashed); None: to EOF
    messages: int = 0  # messages before `start`; after the read, messages before `end`
    # Locators already given: a repeated Message-ID gets "#N" appended. A resumed read takes
    # those of the file's stored documents (a message that failed to read left none).
    locators: set[str] = field(default_factory=set)
    mailbox: bool = False  # set by the read: the file was read as an mbox, not as one message


def continues_mbox(path: str, offset: int) -> bool:
    """True when a full read of the file would start a new message at `offset` as well, or
    after the blank lines that begin what follows it.

    That is `split_mbox`'s rule: an envelope line and a header block, after a blank line or in
    the envelope's own format. Then reading from `offset` finds the same new messages a full
    read would. Otherwise the last message was still being written when the file was read, or
    the file was rewritten, and it must be read again from the start.
    """
    with open(path, "rb") as fh:
        fh.seek(max(0, offset - 256))
        before = fh.read(min(offset, 256))
        head = fh.read(16384)
    lines = head.splitlines(keepends=True)
    # A mailbox whose last message has no blank line after it (Netscape's) gets one with the
    # next message appended: a full read ends the old message with it, a read from `offset`
    # passes over it, and both start the new message after it.
    while before.endswith(b"\n") and lines and not lines[0].strip():
        before += lines.pop(0)
    if not (before.endswith(b"\n") and lines and _is_envelope(lines[0])):
        return False
    if not _looks_like_header_block(lines[1:]):
        return False
    if _ENVELOPE.match(lines[0]):
        return True
    _, newline, last_line = before[:-1].rpartition(b"\n")
    # Without a newline in the window the line may be longer than it; then it is not a boundary.
    return not last_line.strip() and (bool(newline) or offset <= 256)


def parts(path: str, start: int, size: int, part_bytes: int) -> list[int]:
    """Where to stop reading an mbox's bytes from `start` to `size` in parts of about
    `part_bytes`: each part ends where a full read starts a message (`continues_mbox`), so the
    parts read as the whole would, and the last at `size`. A part grows past `part_bytes` to
    the end of the message it is in; one without a message start after it runs to the end."""
    ends = []
    with open(path, "rb") as fh:
        while size - start > part_bytes:
            fh.seek(start + part_bytes - 1)
            position = start + part_bytes - 1 + len(fh.readline())  # the next line's start
            while position < size:
                line = fh.readline()
                if line.startswith(b"From ") and continues_mbox(path, position):
                    break
                position += len(line)
            if position >= size:
                break
            ends.append(start := position)
    return [*ends, size]


def _lines(stream: io.BufferedIOBase, cursor: MboxCursor) -> Iterator[bytes]:
    """The stream's lines from byte `cursor.start`, none past byte `cursor.end`."""
    stream.seek(cursor.start)
    position = cursor.start
    for line in stream:
        if cursor.end is not None:
            if position >= cursor.end:
                return
            line = line[: cursor.end - position]
        position += len(line)
        yield line


# ---------------------------------------------------------------------------------------------
# Extraction


def extract(
    item: Item, limits: Limits, cursor: MboxCursor | None = None
) -> Iterator[Document | Failure | Nested]:
    """One document per message (plus its attachments); raises ExtractError if none can be read.

    `cursor` bounds the read of an mbox and records how far it got; with `cursor.start` set,
    only the messages from there on are read (the file is known to be an mbox).
    """
    cursor = cursor or MboxCursor()
    if cursor.start or cursor.mailbox:
        with _open(item) as stream:
            cursor.mailbox = True
            yield from _mailbox(item, split_mbox(_lines(stream, cursor)), limits, cursor)
        return
    head = item.head()
    if not head.strip():
        raise ExtractError("empty file")
    if not _is_mbox(item, head):
        yield from _message(item, _without_emlx_length(item.name, item.read()), None, limits)
        return
    with _open(item) as stream:
        messages = split_mbox(_lines(stream, cursor))
        first, second = next(messages, None), next(messages, None)
        if first is None:
            raise ExtractError("not an email: no message after the mbox \"From \" line")
        if second is None and not _MBOX_NAME.search(item.name.lower()):
            yield from _message(item, first, None, limits)
            return
        cursor.mailbox = True
        yield from _mailbox(item, _chain(first, second, messages), limits, cursor)


def is_mailbox(item: Item) -> bool:
    """Whether the file is an mbox, by its first lines (as `extract` tells)."""
    return _is_mbox(item, item.head())


def _is_mbox(item: Item, head: bytes) -> bool:
    """An mbox starts with an envelope line; a .eml file is one message even when it does.

    (A .eml saved from an mbox keeps its envelope line, and its body may hold another one,
    e.g. a git patch attached inline.)
    """
    lines = _leading_lines(head)
    return bool(lines) and _is_envelope(lines[0]) and not item.name.lower().endswith(".eml")


def _open(item: Item) -> io.BufferedIOBase:
    """The item as a binary stream: its file, read line by line, or an attachment in memory."""
    return io.BytesIO(item.data) if item.data is not None else open(item.path, "rb")


def _chain(first: bytes, second: bytes | None, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    if second is not None:
        yield second
        yield from rest


def _mailbox(
    item: Item, messages: Iterable[bytes], limits: Limits, cursor: MboxCursor
) -> Iterator[Document | Failure | Nested]:
    """Documents of each mbox message, located by Message-ID (or `#N`), unique within the file."""
    skip = {name.casefold() for name in limits.skip_mail}
    for raw in messages:
        index = cursor.messages
        cursor.messages += 1
        fields = _header_fields(_strip_envelope(raw))
        if skip & _gmail_labels(fields):
            continue  # counted all the same, so the messages after it keep their "#N"
        message_id = _bare_id(_header_text(fields, "Message-ID"))
        locator = message_id or f"#{index}"
        if locator in cursor.locators:
            locator = f"{locator}#{index}"
        cursor.locators.add(locator)
        try:
            yield from _message(item, raw, locator, limits)
        except ExtractError as exc:
            yield Failure(str(item.path), f"message {locator}: {exc}")


def _gmail_labels(fields: list[tuple[str, bytes]]) -> set[str]:
    """The labels Gmail gave a message, casefolded: a Takeout export keeps Spam and Trash in
    the same mbox as the rest, telling them apart only by this header."""
    labels = _header_text(fields, "X-Gmail-Labels")
    return {label.strip(' "').casefold() for label in labels.split(",")} - {""}


def _message(
    item: Item, raw: bytes, locator: str | None, limits: Limits
) -> Iterator[Document | Failure | Nested]:
    """The message's document, then its attachments' documents and failures."""
    raw = _strip_envelope(raw)
    fields = _header_fields(raw)
    if not fields:
        raise ExtractError("not an email: no header lines")
    try:
        msg = email.message_from_bytes(raw)
        parts = _layout(msg)
    except RecursionError:
        # The email package and _layout follow nested parts recursively; parts nested deeper
        # than Python's stack allows are no mail a person wrote.
        raise ExtractError("MIME parts nested too deeply") from None
    page = locator is None and _is_saved_page(item.name, fields)
    doc = Document(
        path=str(item.path),
        locator=locator,
        kind=html.KIND if page else KIND,
        title=" ".join(_header_text(fields, "Subject").split())[: limits.max_text_chars]
        or "(no subject)",
        text="",
        sender=None if page else _sender(fields),
        headers={name: _header_text(fields, name) for name in KEPT_HEADERS if _has(fields, name)},
    )
    doc.thread = None if page else _thread(doc.headers)
    _date(doc, fields)
    attachments = _name_attachments([part for role, part in parts if role == "attachment"])
    doc.text = _text(doc, fields, parts, [name for name, _ in attachments])
    # The message's own facts, taken before its document is handed on (and maybe changed).
    context = _Context(locator, doc.source_date, doc.date_precision, doc.sender, doc.thread)
    yield doc
    yield from _attachments(item, context, attachments, limits)


def _is_saved_page(name: str, fields: list[tuple[str, bytes]]) -> bool:
    """A web page saved as one file (.mhtml, .mht) is MIME as mail is, but no one sent it: it is
    typed as a web page, without the sender its browser writes ("<Saved by Blink>") or a thread
    shared with every page of the same title."""
    return (
        name.lower().endswith((".mhtml", ".mht"))
        or _has(fields, "Snapshot-Content-Location")
        or _header_text(fields, "From").strip().lower().startswith("<saved by ")
    )


def _strip_envelope(raw: bytes) -> bytes:
    """The message without a BOM, leading blank lines and an mbox envelope line."""
    raw = _LEADING_BLANK_LINES.sub(b"", raw.removeprefix(_BOM))
    first, _, rest = raw.partition(b"\n")
    return rest if _is_envelope(first) else raw


# ---------------------------------------------------------------------------------------------
# Headers


def _header_fields(raw: bytes) -> list[tuple[str, bytes]]:
    """(lower-case name, unfolded raw value) of the top header block, in order.

    Parsed here rather than by the email package, which hands back 8-bit values as opaque
    Header objects; RFC 6532 allows UTF-8 and old mailers write any charset raw.
    """
    fields: list[tuple[str, list[bytes]]] = []
    for line in io.BytesIO(raw):  # read lazily: the body may be megabytes
        line = line.rstrip(b"\r\n")
        if not line:
            break  # only an empty line ends the block: RFC 5322 §4.2 allows all-space folds
        if line[:1] in (b" ", b"\t"):
            if fields:  # a continuation before any field is dropped
                fields[-1][1].append(line.strip())
        elif _HEADER_LINE.match(line):
            name, _, value = line.partition(b":")
            fields.append((name.strip().decode("ascii").lower(), [value.strip()]))
        else:
            break  # RFC 5322 §2.2: a line that is not a field ends the header block
    # Joined once: appending each folded line to its field copies the field every time, which
    # makes a header folded over thousands of lines take minutes.
    return [(name, b" ".join(parts)) for name, parts in fields]


def _has(fields: list[tuple[str, bytes]], name: str) -> bool:
    return any(n == name.lower() for n, _ in fields)


def _header_values(fields: list[tuple[str, bytes]], name: str) -> list[str]:
    return [decode_header_text(v) for n, v in fields if n == name.lower()]


def _header_text(fields: list[tuple[str, bytes]], name: str) -> str:
    """The first such header, decoded, or ""."""
    values = _header_values(fields, name)
    return values[0] if values else ""


def decode_header_text(value: bytes | str) -> str:
    """A header value as text: raw 8-bit bytes and RFC 2047 encoded words both decoded."""
    text = value if isinstance(value, str) else decode_bytes(value, None)
    # (charset, [bytes, ...]) or (None, [text]); a run of words in one charset is joined once at
    # the end, as joining word by word takes minutes for a subject of a million words.
    pieces: list[tuple[str | None, list]] = []
    pos = 0
    for match in _ENCODED_WORD.finditer(text):
        between = text[pos:match.start()]
        # RFC 2047 §6.2: white space between adjacent encoded words is not displayed.
        if between and not (between.isspace() and pieces and pieces[-1][0] is not None):
            pieces.append((None, [between]))
        charset = match.group(1).split("*")[0].lower()
        data = _decode_word(match.group(2), match.group(3))
        if data is None:
            pieces.append((None, [match.group(0)]))
        elif pieces and pieces[-1][0] == charset:
            # Join before decoding: mailers split multibyte characters across words.
            pieces[-1][1].append(data)
        else:
            pieces.append((charset, [data]))
        pos = match.end()
    pieces.append((None, [text[pos:]]))
    return "".join(p[0] if cs is None else decode_bytes(b"".join(p), cs) for cs, p in pieces)


def _decode_word(encoding: str, encoded: str) -> bytes | None:
    data = encoded.encode("latin-1", "replace")  # raw 8-bit bytes inside a word pass through
    if encoding in "qQ":
        return binascii.a2b_qp(data, header=True)
    try:
        return binascii.a2b_base64(data + b"=" * (-len(data) % 4))
    except binascii.Error:
        return None


def _sender(fields: list[tuple[str, bytes]]) -> str | None:
    """The From address, lower-cased.

    Read before RFC 2047 decoding: encoded words never hold the address (RFC 2047 §5), and a
    decoded display name may carry quotes or commas that would confuse the address parser.
    """
    raw = next((value for name, value in fields if name == "from"), b"")
    return parseaddr(decode_bytes(raw, None))[1].lower() or None


def _bare_id(value: str) -> str | None:
    """A Message-ID without its angle brackets (and without the spaces old mailers put in)."""
    match = re.search(r"<([^<>]+)>", value)
    if match:
        return "".join(match.group(1).split()) or None
    words = value.split()
    return words[0] if words else None


def _thread(headers: dict[str, str]) -> str | None:
    """The thread's root: first of References, else In-Reply-To, else the message itself."""
    for name in ("References", "In-Reply-To", "Message-ID"):
        root = _bare_id(headers.get(name, ""))
        if root:
            return root
    return None


# ---------------------------------------------------------------------------------------------
# Dates


def _date(doc: Document, fields: list[tuple[str, bytes]]) -> None:
    """Date from the first readable Date header, else from the topmost Received header; from
    that one too when the Date header is later than the delivery it records (by more than
    CLOCK_SKEW): a message is not written after it arrived. A sender's clock set ahead would
    otherwise keep the message the freshest news for as long, and hide it from every question
    asked before the day it claims."""
    delivered = _delivered(fields)
    dates = _header_values(fields, "Date")
    for index, value in enumerate(dates):
        when = parse_mail_date(value)
        if when is None:
            continue
        if delivered is not None and when - delivered > CLOCK_SKEW:
            doc.source_date, doc.date_source, doc.date_precision = delivered, "received", "instant"
            doc.notes.append(f"Date header ({when:%Y-%m-%d}) later than its delivery; dated by Received header")
            return
        doc.source_date, doc.date_source, doc.date_precision = when, "header", "instant"
        if index:
            doc.notes.append("first Date header invalid; dated by a later one")
        return
    problem = "no valid Date header" if dates else "no Date header"
    if delivered is None:
        doc.notes.append(problem)
        return
    doc.source_date, doc.date_source, doc.date_precision = delivered, "received", "instant"
    doc.notes.append(f"{problem}; dated by Received header")


CLOCK_SKEW = timedelta(days=1)  # a Date header this far past its delivery is a sender's clock adrift


def _delivered(fields: list[tuple[str, bytes]]) -> datetime | None:
    """When the message reached its reader: the topmost Received header was added last, by the
    server that delivered it, and its date follows the last ";" (RFC 5321 §4.4)."""
    received = _header_values(fields, "Received")
    return parse_mail_date(received[0].rpartition(";")[2]) if received else None


def parse_mail_date(value: str) -> datetime | None:
    """A mail date as a tz-aware datetime, or None when it cannot be read.

    RFC 5322 dates first; then free-form dates through dateutil, but only when they name a full
    day (no year means no date). A date without a known zone is UTC: RFC 5322 §4.3 reads an
    unknown zone as "-0000", universal time with no local offset known.
    """
    value = re.sub(r"\([^()]*\)", " ", value).strip()  # RFC 5322 §3.2.2 comments, e.g. "(PST)"
    if not value:
        return None
    rfc = _rfc_date(value)
    if rfc is not None and rfc.tzinfo is not None:
        return rfc
    free = _free_date(value)
    if free is not None and (free.tzinfo is not None or rfc is None):
        rfc = free
    if rfc is None:
        return None
    return rfc if rfc.tzinfo is not None else rfc.replace(tzinfo=timezone.utc)


def _rfc_date(value: str) -> datetime | None:
    try:
        return parsedate_to_datetime(value)
    except (ValueError, TypeError, OverflowError, IndexError):
        return None


def _free_date(value: str) -> datetime | None:
    """dateutil's reading, if the text gives year, month and day (same result for two defaults)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UnknownTimezoneWarning)  # then the date is naive
            readings = {
                dateutil_parser.parse(value, default=default, tzinfos=_US_ZONES)
                for default in (datetime(2001, 1, 1), datetime(2002, 2, 2))
            }
    except (ValueError, OverflowError, TypeError):
        return None
    if len(readings) != 1:
        return None
    when = readings.pop()
    try:
        when.utcoffset()
    except (ValueError, OverflowError):
        return None
    return when


# ---------------------------------------------------------------------------------------------
# Body


def _layout(part: Message) -> list[tuple[str, Message]]:
    """(role, part) for the parts that make the message: "text", "html" or "attachment"."""
    ctype = part.get_content_type()
    if ctype == "message/rfc822" or _is_attachment(part):
        return [("attachment", part)]
    if part.is_multipart():
        if ctype.startswith("message/"):
            return []  # delivery/disposition reports: machine-readable fields, not prose
        children = [_layout(child) for child in part.get_payload()]
        if ctype == "multipart/alternative":
            # An invitation (Outlook's, Google's) is the same meeting as its text and as a
            # calendar entry: the entry is kept beside the text, for the day it is about.
            chosen = _preferred(children)
            return chosen + [p for c in children for p in c if p not in chosen and _is_calendar(p[1])]
        if ctype == "multipart/related" and children:
            # RFC 2387: parts after the root are what the root (HTML) shows: logos, spacers.
            return children[0] + [p for c in children[1:] for p in c if not _is_image(p[1])]
        return [p for c in children for p in c]
    if ctype == "text/html":
        return [("html", part)]
    if ctype.startswith(("text/", "multipart/")):  # a multipart without a boundary is text
        return [("text", part)]
    return [("attachment", part)]


def _is_attachment(part: Message) -> bool:
    if part.is_multipart():
        return False
    if part.get_content_disposition() == "attachment":
        return True
    return _is_calendar(part)


def _is_calendar(part: Message) -> bool:
    return part.get_content_type() in ("text/calendar", "application/ics")


def _is_image(part: Message) -> bool:
    return part.get_content_type().startswith("image/")


def _preferred(alternatives: list[list[tuple[str, Message]]]) -> list[tuple[str, Message]]:
    """The plain-text alternative when there is one (it reads best), else the first non-empty."""
    for parts in alternatives:
        roles = {role for role, _ in parts}
        if "text" in roles and "html" not in roles:
            return parts
    return next((parts for parts in alternatives if parts), [])


def _text(
    doc: Document,
    fields: list[tuple[str, bytes]],
    parts: list[tuple[str, Message]],
    attachment_names: list[str],
) -> str:
    """Searchable text: who wrote to whom, the body, and the attachments' names.

    (The subject is the title, which chunking puts in front of every chunk.)
    """
    lines = [f"{name}: {_header_text(fields, name)}" for name in ("From", "To", "Cc")
             if _has(fields, name)]
    blocks = ["\n".join(lines)]
    for role, part in parts:
        if role == "text":
            blocks.append(_marked(_part_text(part)))
        elif role == "html":
            blocks.append(_marked(html.text_of(_part_text(part))))
            if "HTML converted to text" not in doc.notes:
                doc.notes.append("HTML converted to text")
    if attachment_names:
        blocks.append("Attachments: " + ", ".join(attachment_names))
    # NUL ends strings in SQLite and in the embedder's tokenizer.
    return "\n\n".join(b.strip() for b in blocks if b.strip()).replace("\x00", "")


def _marked(body: str) -> str:
    """The body with what its sender did not write this time marked as quoted ("> "): the
    earlier messages a reply quotes (any client's header: "On ... wrote:", Outlook's "From: ...
    Sent: ...", "-----Original Message-----", in the languages of REPLY_LANGUAGES), its
    signature, legal disclaimers and list footers. Marked lines stay searchable; retrieval
    reads them as no statement of this message. A message with next to nothing of its own
    before what it quotes (a forward, "FYI") is left as it is: what it forwards is what it says.

    mail-parser-reply finds them: over the 1,735 messages of ../shared/corpora/mail it marked
    quoted text in 240 of the 305 that quote and signatures or footers in 288 more, and was
    the only one of the parsers compared to know Outlook's headers and languages other than
    English (email-reply-parser emptied 48 bodies, talon needs an old scikit-learn).
    """
    parsed = MailBody(text=body, languages=list(REPLY_LANGUAGES), keep_hyphen_lists=True).read()
    own, *earlier = parsed.replies
    if len(_FORWARD_MARK.sub("", own.body).split()) < FORWARD_WORDS or _FORWARDED.search(body):
        # "FYI", or a forward's own marker line: the rest is what it says. So it is under a
        # note ("Can you take him to this one?"): a forward passes on what it forwards, where a
        # reply quotes what it answers.
        return body
    others = [own.signatures, *own.disclaimers, *(reply.content for reply in earlier)]
    quoted = [line if line.startswith(">") else f"> {line}".rstrip() for o in others for line in o.splitlines()]
    return "\n\n".join([own.body, "\n".join(quoted)]).strip()


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return ""
    if _undeclared_quoted_printable(part, payload):
        payload = quopri.decodestring(payload)
    text = decode_bytes(payload, part.get_content_charset())
    return text.replace("\r\n", "\n")


_SOFT_BREAK = re.compile(rb"=\r?\n")
_NOT_QUOTED_PRINTABLE = re.compile(rb"=(?![0-9A-F]{2}|\r?\n)")


def _undeclared_quoted_printable(part: Message, payload: bytes) -> bool:
    """A body declared 7bit or 8bit (or not at all) that is quoted-printable all the same: an
    archive that rewrote its messages' headers, or a client that forgot the header. Read as
    it is, its words break at every wrapped line ("the furnace fil=" / "ter") and the full-text index
    never finds them. Taken for quoted-printable only when it has several soft line breaks and
    every "=" in it is one of quoted-printable's, so "a = b" or "=====" stays as written."""
    declared = str(part.get("Content-Transfer-Encoding", "7bit")).strip().lower()
    return (
        declared in ("7bit", "8bit")
        and len(_SOFT_BREAK.findall(payload)) >= 3
        and not _NOT_QUOTED_PRINTABLE.search(payload)
    )


# ---------------------------------------------------------------------------------------------
# Attachments


def _name_attachments(parts: list[Message]) -> list[tuple[str, Message]]:
    """Each attachment with a file name, unique within the message."""
    named, used = [], set()
    for index, part in enumerate(parts, 1):
        name = _file_name(part) or f"part-{index}{_suffix(part)}"
        stem, dot, suffix = name.rpartition(".") if "." in name else (name, "", "")
        n = 1
        while name in used:
            n += 1
            name = f"{stem}-{n}{dot}{suffix}"
        used.add(name)
        named.append((name, part))
    return named


def _file_name(part: Message) -> str | None:
    """The attachment's own file name, decoded (RFC 2231, or RFC 2047 as many mailers write it)."""
    try:
        raw = part.get_filename() or part.get_param("name")
    except (ValueError, LookupError, UnicodeError):
        return None
    if isinstance(raw, tuple):  # an RFC 2231 value get_param could not decode
        raw = raw[2]
    if raw and "\ufffd" in raw:  # raw 8-bit bytes, which the parser's header fetch replaced
        raw = _raw_file_name(part) or raw
    if not raw:
        return None
    name = decode_header_text(raw.encode("utf-8", "surrogateescape"))
    # Windows mailers send the full path of the file they attached.
    name = PureWindowsPath(PurePosixPath(name).name).name
    return " ".join(name.split()) or None


_NAME_PARAM = re.compile(r'\b(?:file)?name\s*=\s*"?([^";\r\n]+)', re.IGNORECASE)


def _raw_file_name(part: Message) -> str | None:
    """The name parameter as the header holds it, its 8-bit bytes kept (as surrogates):
    Content-Disposition's filename first, as get_filename reads it, then Content-Type's name."""
    headers = dict((key.lower(), value) for key, value in reversed(list(part.raw_items())))
    for key in ("content-disposition", "content-type"):
        if key in headers and (found := _NAME_PARAM.search(headers[key])):
            return found.group(1)
    return None


def _suffix(part: Message) -> str:
    ctype = part.get_content_type()
    if ctype == "message/rfc822":
        return ".eml"
    return mimetypes.guess_extension(ctype) or ""


@dataclass(frozen=True)
class _Context:
    """What an attachment inherits from its message."""

    locator: str | None
    source_date: datetime | None
    date_precision: str | None
    sender: str | None
    thread: str | None


def _attachments(
    item: Item, message: _Context, attachments: list[tuple[str, Message]], limits: Limits
) -> Iterator[Document | Failure | Nested]:
    """The attachments brainq may read, for the registry to extract; failures for those it
    cannot even take out of the message."""
    path = str(item.path)
    where = f"{message.locator}/" if message.locator else ""
    for count, (name, part) in enumerate(attachments):
        if count == limits.max_attachments:
            skipped = len(attachments) - count
            prefix = f"message {message.locator}: " if message.locator else ""
            yield Failure(path, f"{prefix}{skipped} attachment(s) beyond the limit of "
                          f"{limits.max_attachments} skipped")
            return
        label = f"attachment {where}{name}"
        try:
            data = _payload(part)
        except RecursionError:  # a forwarded message serialised recursively, nested too deeply
            yield Failure(path, f"{label}: messages nested too deeply")
            continue
        except ExtractError as exc:
            yield Failure(path, f"{label}: {exc}")
            continue
        sub = Item(path=item.path, name=name, data=data, depth=item.depth + 1, charset=_declared_charset(part),
                   allowance=item.allowance)  # fmt: skip
        adopt = functools.partial(_adopt, message=message, locator=where + name, label=label)
        yield Nested(sub, label, adopt, optional=not _is_document(part, name))


# What the email package raises writing back a message it parsed: a part in a charset with a NUL
# in its name or one Python does not know, a folded header that holds another header line.
_REWRITE_ERRORS = (UnicodeError, LookupError, ValueError, MessageError)


def _payload(part: Message) -> bytes:
    """The attachment's bytes; a nested message re-serialised as the bytes of an .eml file."""
    encoding = str(part.get("Content-Transfer-Encoding", "")).strip().lower()
    if part.get_content_type() == "message/rfc822" and encoding in ("base64", "quoted-printable"):
        # RFC 2046 allows no such encoding of a message, but mailers write it; the parser then
        # holds the encoded text as the body of a message with no headers.
        inner = part.get_payload(0) if part.is_multipart() else part
        encoded = inner.get_payload() if isinstance(inner, Message) else ""
        if isinstance(encoded, str):
            try:
                return base64.b64decode(encoded) if encoding == "base64" else quopri.decodestring(encoded.encode())
            except ValueError:
                raise ExtractError(f"a forwarded message in broken {encoding}") from None
    if part.get_content_type() == "message/rfc822" and part.is_multipart():
        inner = part.get_payload(0)
        if not isinstance(inner, Message):
            return b""
        try:
            return inner.as_bytes()
        except _REWRITE_ERRORS:
            pass
        try:
            # A header the parser decoded with replacement characters cannot be re-encoded as
            # ASCII; its UTF-8 text is as good a source for the nested message.
            return inner.as_string().encode("utf-8", "replace")
        except _REWRITE_ERRORS:
            raise ExtractError("cannot be read back (a broken header or charset)") from None
    payload = part.get_payload(decode=True)
    return payload if isinstance(payload, bytes) else b""


def _declared_charset(part: Message) -> str | None:
    """The charset a text attachment is sent in (a page's, which outranks what it declares)."""
    try:
        return part.get_content_charset() if part.get_content_maintype() == "text" else None
    except (LookupError, UnicodeError, ValueError):
        return None


def _is_document(part: Message, name: str) -> bool:
    return part.get_content_type().startswith(_DOCUMENT_TYPES) or name.lower().endswith(
        _DOCUMENT_SUFFIXES
    )


def _adopt(
    result: Document | Failure, message: _Context, locator: str, label: str
) -> Document | Failure:
    """An attachment's result placed under its message, with its date, sender and thread if it
    has none."""
    if isinstance(result, Failure):
        return Failure(result.path, f"{label}: {result.reason}")
    result.locator = f"{locator}/{result.locator}" if result.locator else locator
    if result.source_date is None and message.source_date is not None:
        result.source_date = message.source_date
        result.date_source = "email"
        result.date_precision = message.date_precision
    result.sender = result.sender or message.sender
    # An attachment is part of its message's conversation: the reply that moves the meeting
    # supersedes the agenda as it does the message that carried it.
    result.thread = result.thread or message.thread
    return result
