"""Ingest: walk folders, extract what changed, embed it, and keep the store in step.

Two threads share the work so the model is the bottleneck, not parsing: the calling thread
walks, hashes, extracts and chunks files (with a per-file time budget, which needs the main
thread's alarm signal), and a writer thread embeds chunks of several files in one batch and
writes them to the store.

A file whose size and mtime are those stored is not read at all. A changed one is hashed; if
its content is new it is extracted again, except an mbox that only grew: its new messages are
read from where the last read stopped (the rule is in `brainq.store.writes`'s docstring). A
large mbox is read in parts, each written as the file grown to that size would be.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import os
import re
import signal
import stat
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, fields
from datetime import datetime, timezone
from pathlib import Path

from brainq import vocabulary
from brainq.annotate import annotate
from brainq.chunking import chunk_text
from brainq.config import Config, Limits
from brainq.crashpoints import reached
from brainq.documents import Document, Failure, Item
from brainq.embedding import ingest_embedder
from brainq.errors import ExtractError
from brainq.extract import email as mail
from brainq.extract import KNOWN_SUFFIXES, extract_item, extractor_for, resolved
from brainq.paths import BROKEN_LINK, NOT_UTF8, printable, unnamable
from brainq.store import Chunk, FileRecord, FileWrite, Store, StoredDocument, is_store
from brainq.store.records import EMPTY, NOT_A_KIND, within

# Folders that never hold a person's documents; Maildir's tmp/ holds half-delivered mail.
SKIP_DIRS = {".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv", ".cache"}
# How the reason a file failed ends when the documents of its last reading are kept.
KEPT = "; what was read of it before is kept"
# How the reason begins for a file that could not be opened (its permissions, an I/O error).
CANNOT_READ = "cannot read: "
# The writer embeds this many chunks at a time (length-sorted, so less padding than small
# batches), and this many more may wait parsed: the bound keeps memory flat on huge trees.
BATCH_CHUNKS = 512
# An interrupted run stops after embedding at most this many more chunks (~1 s here). A model
# call for each this many costs ~2% over one call for the whole batch; 64 cost up to 6%.
STOP_CHECK_CHUNKS = 128
# An mbox is read in parts of about this size, each written when read: a Gmail export of
# gigabytes is read in bounded memory, and a run stopped midway goes on from the last part.
MBOX_PART_BYTES = 32 * 2**20
# Bump when extraction or annotation derives different metadata from the same bytes: files
# stored with an older version are re-derived (and their unchanged chunks keep their vectors).
DERIVATION = 35  # 3: notes typed `note`; 4: words get vectors; 5: bulk-mail headers; 6: copy_key;
# 7: quoted replies, signatures and disclaimers marked in mail; 8: text in pictures read by OCR;
# 9: one message to several lists is one document (copy_key without recipients); attachment
# names written in raw 8-bit bytes decoded; 10: a chunk's vector is made of its own words, not
# the text a reply quotes (Chunk.embedded_text); 11: every sentence of a quoted line marked, a
# forward's text kept in its vector; doc-type cues that overlap in the text count once;
# 12: "last night", "this morning", "the day before yesterday" name days in documents too;
# 13: a table row with a dot leader is a line of its own; 14: a Date header over a day past the
# delivery yields to the Received header; quoted-printable under a 7bit header is decoded;
# 15: a word a PDF hyphenates at a line's end is whole again; 16: a recurrence is listed around
# its calendar's stamp, not only over its first days; 17: a date in the future is not used;
# terminal control codes are dropped from what documents say; an attachment is never dated by
# its mailbox file's modification time; 18: Word and Excel files, OpenDocument texts and
# spreadsheets, and CSV files are read, where they were skipped as no kind brainq reads;
# 19: web pages (.html), Word 97-2003 files (.doc) and Rich Text (.rtf), in folders and
# attached; the headers and footers of Word and OpenDocument texts; 20: the files inside zip
# archives, in folders and attached; a page saved as .mhtml is typed as a web page, not mail;
# Excel 97-2003 workbooks (.xls); 21: the files inside tar archives (.tar, .tar.gz, .tgz, ...);
# a zip's folders named with backslashes are folders; an archive whose first file is a PDF is an archive
# 22: notes in UTF-16 or a Windows code page, and raw 8-bit headers as Windows-1252; a
# repeating event names the days it leaves out; 23: Chinese and Japanese sentences end at a
# full-width stop, and their lines wrap without a space; 24: 7-Zip archives are read; "30 March
# Street" is an address, not a day; 25: a date left unused as in the future is no day a
# document is about; a calendar cut short keeps its whole events; "the 5th of may" is a day,
# and "tmrw" tomorrow; 26: a note is not titled by a line that only dates it ("Date: 2023"), and
# one dated in the future says so; 27: ISO-2022-JP with the characters Windows adds (①, ㈱);
# dates written the Chinese, Japanese and Korean way ("2026年3月13日"), and numeric dates
# right after such a character ("会議は3/13"); a reply on a mailing list is typed email;
# 28: a span of days ("December 21-23") was about each day in it; 29: an attachment is of its
# message's thread; 30: a span is about the days it prints again (28 took bullet lists of
# dates, reschedules "from March 3 to March 10" and "March 7 - 10 AM" for spans)
# 31: a text that writes a numeric date day first ("25/11/2026") has all of its dates read so;
# 32: and its notes say so, so that its sentences are read so when a question is asked; a date
# after "born" or "DOB" is not when a note was written; "Nov. 21" ends no sentence; 33: a date
# after "Updated:", "Last revised", "Created" or "written" opening a line or a remark in brackets
# is when a document was written, and a note (.txt, .md) opening with a lone "Date:" line and a
# blank one is a note, not mail; 34: an invitation's event, sent beside its text as an
# alternative, is a calendar entry; UTF-8 under a Western label and Western letters under a
# UTF-8 one are read as written; "receipt of" is no receipt; a terminal's escape sequence is
# dropped whole; an event written in UTC is on its calendar's day; a calendar in UTF-16 is read;
# the days RDATE adds to an event; 35: a WebP's bare EXIF is read; a scan is dated by the date
# printed on it; a month and its day that OCR runs together are a date; OCR's pieces of one row
# (a receipt's "TOTAL" and its "$22.95") are one line
_M_ARENA_MAX = -8  # glibc's mallopt() parameter (malloc.h)


@dataclass
class IngestReport:
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    still_unread: int = 0  # of the unchanged: files an earlier run could not read (`brainq status` names them)
    removed: int = 0
    failed: int = 0
    skipped: int = 0
    documents: int = 0
    chunks: int = 0
    embedded: int = 0  # chunks that needed the model; the rest reused a stored vector
    by_kind: Counter = field(default_factory=Counter)
    failures: list[Failure] = field(default_factory=list)
    skipped_files: list[Failure] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0

    @property
    def parts_failed(self) -> int:
        """Failures within files that are stored all the same (an attachment, a message of a
        mailbox, an event of a calendar): listed in `failures`, but not counted as `failed`,
        which counts files."""
        return len(self.failures) - self.failed

    def to_json(self) -> dict:
        return {
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "still_unread": self.still_unread,
            "removed": self.removed,
            "failed": self.failed,
            "parts_failed": self.parts_failed,
            "skipped": self.skipped,
            "documents": self.documents,
            "chunks": self.chunks,
            "embedded": self.embedded,
            "by_kind": dict(self.by_kind),
            "failures": [{"path": f.path, "reason": f.reason} for f in self.failures],
            "skipped_files": [{"path": f.path, "reason": f.reason} for f in self.skipped_files],
            "interrupted": self.interrupted,
            "seconds": round(self.seconds, 2),
        }


class Progress:
    """What ingest reports while it works; the CLI passes an object with these methods that
    draws a progress bar, and this one, which draws nothing, is the default."""

    def total(self, files: int) -> None: ...

    def file_done(self, path: str, status: str, chunks: int) -> None: ...

    def stopping(self) -> None:
        """Interrupted: what is read but not yet embedded is dropped; only what is embedded is written."""


@dataclass
class _Parsed:
    """One file, extracted and chunked, on its way to the writer thread."""

    path: str
    size: int
    mtime_ns: int
    sha256: str
    status: str  # added or updated
    documents: list[StoredDocument]
    chunks: list[Chunk]
    error: str | None = None
    read_offset: int | None = None  # an mbox: the bytes read (see the module docstring)
    messages: int | None = None  # an mbox: the messages in those bytes
    grown: bool = False  # the documents are a grown mbox's new messages, added to its others
    # A large mbox is read in parts, each written as the file grown to that size: a run stopped
    # midway goes on from there. The file counts as read with its last part.
    continued: bool = False  # parts of it were read before this one, in this run
    last: bool = True
    unread_parts: list[str] = field(default_factory=list)  # why parts of it were not read


def as_sources_name(store: Store, paths: list[Path]) -> list[Path]:
    """Each path, absolute, named as the source (or a path before it) that holds it through
    links: ~/Documents, a link to /data/Documents, is one folder, whichever name a run is given,
    and its files are stored once. A source keeps its own name (a store that holds both names
    from before keeps reading both)."""
    sources = store.sources()
    known = [(source, os.path.realpath(source)) for source in sources]
    named = []
    for path in map(os.path.abspath, paths):
        real = os.path.realpath(path)
        holder = None if path in sources else next((pair for pair in known if within(real, pair[1])), None)
        spelled = os.path.normpath(os.path.join(holder[0], os.path.relpath(real, holder[1]))) if holder else path
        named.append(Path(spelled))
        known.append((spelled, real))
    return named


def ingest(
    store: Store,
    config: Config,
    paths: list[Path],
    embed: Callable[[list[str]], list[list[float]]] | None = None,
    progress: Progress | None = None,
) -> IngestReport:
    """Bring the store in step with `paths` (files or folders, recursively).

    A file that no longer exists is dropped from the store; a source folder (one of `paths`)
    that no longer exists, or holds nothing, is reported and its documents kept (`brainq
    forget` drops them). Chunks are embedded as
    `config.embedding` says, after checking the store holds vectors of the same model, unless
    `embed` stands in for that (tests and benchmarks).
    """
    if embed is None:
        embed = ingest_embedder(store, config.embedding).embed
    progress = progress or Progress()
    report = IngestReport()
    started = time.monotonic()
    store.sync()  # on a Chroma server: other machines' chunks lend their vectors too
    # A store whose vectors are gone would report its files unchanged every night, while every
    # question fails: the run stops, saying how to mend it.
    store.require_vectors()
    store.flag_incomplete_metadata()
    roots = [Path(os.path.abspath(p)) for p in paths]
    # What `brainq forget` took out of a source stays out of its scans, but not of a path named
    # at or under it (ingesting it again brings it back).
    forgotten = store.forgotten()
    for path in forgotten_left(store, roots):  # a forget stopped midway: this run finishes it
        store.forget_file(path)
        report.removed += 1
    apart: list[str] = []  # spam and deleted mail, by name
    links: list[str] = []  # links to folders inside a source, not followed
    walked = {}
    for root in roots:
        left_out = [gone for gone in forgotten if not within(str(root), gone)]
        walked[str(root)] = list(_walk(root, store.home, left_out, config.limits.skip_mail, apart, links))
    # A folder set apart that is a source of its own, or holds one, is read as that source.
    named = set(walked) | set(store.sources())
    apart = sorted({path for path in apart if not any(within(root, path) for root in named)})
    # A link to what a source reads anyway (a sibling folder, another source) says nothing.
    read = [(root, os.path.realpath(root)) for root in named]
    links = sorted(
        {link for link, target in ((link, os.path.realpath(link)) for link in links)
         if not any(within(root, link) or within(target, real) for root, real in read)}
    )  # fmt: skip
    # A file named beside its folder ("ingest notes notes/wifi.txt") is read once.
    files = list(dict.fromkeys(f for found in walked.values() for f in found))
    stored = {root: store.files_under(root) for root in walked}  # as the run finds them
    # A folder of documents that is gone or empty is more often a drive or share not mounted,
    # or a folder moved, than documents meant to go: they stay until it is back or forgotten.
    missing = {
        root for root, found in walked.items()
        if not found and stored[root] not in ([], [root]) and not any(within(path, root) for path in apart)
    }  # fmt: skip
    files = [f for f in files if f not in missing]  # a link to a source folder gone, met by another source's walk
    progress.total(len(files) + len(missing))
    for folder in sorted(missing):
        reason = "folder not found" if _vanished(folder) else "folder empty"
        _fail(report, progress, folder, f"{reason} (moved, or not mounted?): its documents are kept; `brainq forget` it to drop them")
    for path in apart:
        report.skipped += 1
        report.skipped_files.append(Failure(path, "spam or deleted mail, by its name (limits.skip_mail)"))
    for path in links:
        report.skipped += 1
        report.skipped_files.append(Failure(path, "a link to a folder, not followed: ingest the folder it names to read it"))
    _share_heap_arenas()
    derived = derivation(config)
    writer = _Writer(store, embed, report, progress, derived)
    writer.start()
    try:
        for path in files:
            if writer.error:
                break
            for parsed in _examine(store, config, derived, path, report, progress):
                if writer.error:
                    break
                writer.put(parsed)
    except KeyboardInterrupt:
        # What is read but not yet embedded is dropped, as a crash would drop it: the next run
        # reads those files again. Only what is embedded is written, so the run stops in about a
        # second, not after every file already read is embedded.
        report.interrupted = True
        progress.stopping()
        writer.drop_queued()
    finally:
        writer.close()
    if writer.error:
        raise writer.error
    if not report.interrupted:
        seen = set(files)
        for gone in sorted({path for under in stored.values() for path in under} - seen):
            # A file in a source folder not found is kept, even when that source lies in another;
            # spam and deleted mail goes, though its file is still there.
            if any(within(gone, spam) for spam in apart) or (
                not any(within(gone, folder) for folder in missing) and (_vanished(gone) or os.path.isdir(gone))
            ):  # a folder now of the file's name (its documents in it) replaced the file
                store.forget_file(gone)
                report.removed += 1
    report.seconds = time.monotonic() - started
    return report


def forgotten_left(store: Store, roots: list[Path]) -> list[str]:
    """The files a forget stopped midway left of what it forgot (it stays remembered as
    forgotten until its last file is gone), but for those a run names again under `roots`."""
    return [
        path
        for gone in store.forgotten()
        for path in store.files_under(gone)
        if not any(within(path, str(root)) and within(str(root), gone) for root in roots)
    ]


def _vanished(path: str) -> bool:
    """Whether a file or folder is gone for sure, or is a link to what is: one in a folder
    brainq may no longer enter (its permissions changed) keeps its documents."""
    try:
        os.lstat(path)
    except (FileNotFoundError, NotADirectoryError):
        return True
    except OSError:
        return False
    return os.path.islink(path) and not os.path.exists(path)


def derivation(config: Config) -> int:
    """What a file's documents are derived with: this code's DERIVATION and the settings that
    shape them (patterns.yaml's doc_types, chunking, limits and numeric_dates), as a number a file
    record keeps.
    After an edit to any of those, a backfill derives every file again, as after a new DERIVATION.
    """
    limits = {f.name: getattr(config.limits, f.name) for f in fields(config.limits) if not f.metadata.get("secret")}
    settings = json.dumps([DERIVATION, asdict(config.doc_types), asdict(config.chunking), limits, config.numeric_dates])
    return int.from_bytes(hashlib.sha256(settings.encode()).digest()[:7], "big")  # one SQLite integer


def _share_heap_arenas() -> None:
    """Let ingest's threads share two glibc heap arenas, not one each, so memory one frees
    serves the others: peak RSS at 10k messages fell from 1,271 to ~1,000 MiB, as at 1k."""
    try:
        ctypes.CDLL(None).mallopt(_M_ARENA_MAX, 2)
    except (OSError, AttributeError):
        pass


def _walk(
    root: Path, store_home: Path, left_out: list[str], skip_mail: tuple[str, ...], apart: list[str], links: list[str]
) -> Iterator[str]:
    """The files under `root`, but for those at or under a path of `left_out`; a folder whose
    name is no text, or that cannot be listed, is given as itself, to be reported. Spam and
    deleted mail (`skip_mail`) is not walked into: those folders and files go to `apart`. Links
    to folders are not followed, as find and rsync follow none (a link may lead back up, or
    out of the source): they go to `links`, to be reported."""
    if not root.is_dir():
        if root.exists():
            yield str(root)
        return
    home = str(store_home.resolve())
    skip = {name.casefold() for name in skip_mail}
    # A Maildir message forgotten stays forgotten when a mail client marks it read or flags it,
    # moving it from new/ to cur/ and renaming it: it is the same message by its unique name.
    messages = {key for key in map(_maildir_message, left_out) if key and _is_maildir(key[0])}

    def wanted(path: str) -> bool:
        return not any(within(path, gone) for gone in left_out)

    unreadable: list[str] = []  # os.walk passes over a folder it cannot list, without a word
    for folder, dirs, names in os.walk(root, onerror=lambda exc: unreadable.append(exc.filename)):
        if os.path.realpath(folder) == home or is_store(folder) or not wanted(folder):
            dirs[:] = []
            continue
        keep = [d for d in dirs if d not in SKIP_DIRS and not (d == "tmp" and "cur" in dirs)]
        linked = [d for d in keep if os.path.islink(os.path.join(folder, d))]
        links.extend(os.path.join(folder, d) for d in linked if wanted(os.path.join(folder, d)))
        keep = [d for d in keep if d not in linked]
        bins = {d for d in keep if _mail_folder(d, skip) and _holds_mail(os.path.join(folder, d))}
        apart.extend(os.path.join(folder, d) for d in sorted(bins))
        # A desktop's ".Trash" holds what its owner threw away; Maildir++'s holds mail, which
        # skip_mail sets apart (and says so) or not.
        keep = [d for d in keep if d not in bins and not (d == ".Trash" and not _holds_mail(os.path.join(folder, d)))]
        yield from (os.path.join(folder, d) for d in sorted(keep) if unnamable(d))
        dirs[:] = sorted(d for d in keep if not unnamable(d))
        for name in sorted(names):
            path = os.path.join(folder, name)
            if name.startswith(".") or not wanted(path) or (messages and _maildir_message(path) in messages):
                continue
            if _mailbox_file(path, skip):
                apart.append(path)
            else:
                yield path
    yield from filter(wanted, unreadable)


def _maildir_message(path: str) -> tuple[str, str] | None:
    """The folder and unique name of what may be a Maildir message: a file in new/, or one in
    cur/ whose name ends in the ":2," of its flags (";2," or "!2," where a file system takes no
    colon), named without them; else None."""
    folder, sub = os.path.split(os.path.dirname(path))
    name = os.path.basename(path)
    unique = _MAILDIR_FLAGS.sub("", name)
    if sub == "new" or (sub == "cur" and unique != name):
        return folder, unique
    return None


_MAILDIR_FLAGS = re.compile(r"[:;!]2,[A-Za-z]*$")


def _is_maildir(folder: str) -> bool:
    return all(os.path.isdir(os.path.join(folder, sub)) for sub in ("cur", "new"))


def _mail_folder(name: str, skip: set[str]) -> bool:
    """Whether a folder's name is one of `skip` (casefolded) as mail clients and syncs write
    it: "Junk", Maildir++ ".Junk", ".INBOX.Junk", an IMAP sync's "[Gmail].Spam", Thunderbird's
    "Junk.sbd", Apple Mail's "Junk.mbox"."""
    name = name.casefold().removesuffix(".mbox").removesuffix(".sbd")
    return name in skip or name.rsplit(".", 1)[-1] in skip


def _holds_mail(folder: str) -> bool:
    """A mail folder: a Maildir, an MH folder (Claws Mail, Sylpheed, nmh), or Thunderbird's or
    Apple Mail's folder of mailboxes. A "Junk" folder of PDFs is a person's own, and is read."""
    if folder.casefold().endswith((".mbox", ".sbd")):
        return True
    return any(os.path.isdir(os.path.join(folder, d)) for d in ("cur", "new")) or any(
        os.path.isfile(os.path.join(folder, f)) for f in (".mh_sequences", ".claws_mark", ".sylpheed_mark")
    )


def _mailbox_file(path: str, skip: set[str]) -> bool:
    """Whether a file is a mailbox of `skip`: Thunderbird's "Junk" (no suffix), an export's
    "Spam.mbox". A note named "Trash" is read."""
    name = os.path.basename(path).casefold()
    if name.endswith(".mbox"):
        name = name.removesuffix(".mbox")
    elif "." in name:
        return False  # a document, not a mailbox
    try:
        return name in skip and mail.is_mailbox(Item(Path(path), os.path.basename(path)))
    except OSError:
        return False  # read, it fails with its own reason


def _unreadable(store: Store, report: IngestReport, progress: Progress, path: str, exc: OSError) -> None:
    """A file that cannot be read fails, and is recorded so that `status` names it; one deleted
    since the walk listed it (a download's partial file, a database's journal) is gone, not
    broken, and a link to nothing (its target gone, or a loop of links) holds nothing to read:
    both are passed over, so a nightly backfill does not fail on them for good."""
    if exc.errno in (errno.ENOENT, errno.ELOOP) and os.path.islink(path):
        _skip(report, progress, path, BROKEN_LINK)
    elif exc.errno == errno.ENOENT:
        _skip(report, progress, path, "gone before it was read")
    else:
        reason = CANNOT_READ + exc.strerror + (KEPT if _read_before(store.file_record(path)) else "")
        store.unopened_file(path, reason)
        _fail(report, progress, path, reason)


def _read_before(record: FileRecord | None) -> bool:
    """Whether the documents of the file's last good reading are stored, to keep if it fails now."""
    return bool(record and record.sha256 and not record.pending and (not record.error or record.error.endswith(KEPT)))


def _tried_again(record: FileRecord, config: Config) -> bool:
    """Whether the file is read however unchanged it looks: one that could not be opened (a
    chmod that lets it be read changes neither its size nor its time), and a PDF that needed
    a password when passwords are given (they are no part of `derived`: a file record must
    not store anything derived from them)."""
    error = record.error or ""
    return error.startswith(CANNOT_READ) or (error.startswith("encrypted") and bool(config.limits.passwords))


def _examine(store: Store, config: Config, derived: int, path: str, report: IngestReport, progress: Progress):
    """Decide whether a file changed, or was derived otherwise; if so, extract and chunk it.
    Yields a _Parsed for the file, or for each part of an mbox (_read_mailbox)."""
    if unnamable(path):
        _fail(report, progress, printable(path), NOT_UTF8)
        return
    try:
        st = os.stat(path)
    except OSError as exc:
        _unreadable(store, report, progress, path, exc)
        return
    if stat.S_ISDIR(st.st_mode):  # one the walk could not enter
        try:
            os.listdir(path)
        except OSError as exc:
            _fail(report, progress, path, f"cannot read the folder: {exc.strerror}")
            return
        _fail(report, progress, path, "cannot read the folder")
        return
    if not stat.S_ISREG(st.st_mode):
        # Opening a named pipe waits for a writer that may never come, and a device or socket
        # holds no document: only regular files are read.
        _skip(report, progress, path, "not a regular file")
        return
    record = store.file_record(path)
    current = record and not record.pending and record.sha256 and record.derived == derived and not _tried_again(record, config)
    if current and (record.size, record.mtime_ns) == (st.st_size, st.st_mtime_ns):
        if not os.access(path, os.R_OK):  # a chmod changes neither its size nor its time
            _unreadable(store, report, progress, path, PermissionError(errno.EACCES, os.strerror(errno.EACCES), path))
            return
        _unchanged(report, progress, path, record)
        return
    item = Item(Path(path), os.path.basename(path))
    grew = bool(current and _mbox_grew(record, st.st_size))
    try:
        module = extractor_for(item) if st.st_size else None
        # An mbox (a Gmail export runs to gigabytes) is read in parts: the size limit is a message's.
        mailbox = grew or (module is mail and mail.is_mailbox(item))
        foreign = module is None and not path.lower().endswith(KNOWN_SUFFIXES)  # of no kind brainq reads
        too_large = not mailbox and st.st_size > config.limits.max_file_mb * 2**20
        if too_large and foreign:
            _skip(report, progress, path, NOT_A_KIND)  # a film: not read, nor hashed, at any size
            return
        sha, prefix_sha = _sha256(path, st.st_size, record.read_offset if grew else None)
        resume = grew and prefix_sha == record.sha256 and mail.continues_mbox(path, record.read_offset)
    except OSError as exc:
        _unreadable(store, report, progress, path, exc)
        return
    if current and record.sha256 == sha:
        store.touch_file(path, st.st_size, st.st_mtime_ns)
        _unchanged(report, progress, path, record)
        return
    status = "updated" if record and record.sha256 else "added"
    cursor = mail.MboxCursor(end=st.st_size)
    if resume:
        cursor = mail.MboxCursor(record.read_offset, st.st_size, record.messages, store.locators(path))
    try:
        if not st.st_size and _read_before(record):
            raise ExtractError(EMPTY)  # emptied by a failed save or sync: a broken copy, kept below
        if not st.st_size or foreign:
            reason = NOT_A_KIND if st.st_size else EMPTY
            _skip(report, progress, path, reason)
            yield _Parsed(path, st.st_size, st.st_mtime_ns, sha, status, [], [], reason)
            return
        if too_large:  # recorded as any file that cannot be read: passed over until it changes
            raise ExtractError(_too_large(st.st_size, config.limits))
        if not mailbox:
            with _time_budget(config.limits.seconds_per_file):
                found = list(extract_item(item, config.limits))
            yield _prepare(store, config, path, st, sha, status, found, report, progress)
            return
        yield from _read_mailbox(store, config, item, st, sha, status, cursor, report, progress)
        return
    except ExtractError as exc:
        reason = str(exc)
    except _OutOfTime:
        reason = f"took longer than {config.limits.seconds_per_file:g} s; skipped"
    except (RecursionError, MemoryError, ValueError, LookupError, OSError, UnicodeError, AssertionError) as exc:
        # Hostile files reach corners no parser anticipates (some state their assumptions with
        # `assert`); the run must go on without them.
        reason = f"unreadable ({type(exc).__name__}: {str(exc)[:120]})"
    if _read_before(record) and not mailbox:
        # A file read before that fails now (overwritten by a broken copy, or out of time on a
        # busy night, or read again with new settings) keeps what was read of it: only a file
        # that is gone is dropped. Like any unreadable file, it is passed over until it
        # changes. (A mailbox's parts read in this run are on their way to the writer.)
        reason += KEPT
        store.failed_file(path, st.st_size, st.st_mtime_ns, sha, reason, derived)
        _fail(report, progress, path, reason)
        return
    _fail(report, progress, path, reason)
    if not cursor.start:  # nothing of it is kept; an mbox keeps the parts read before
        yield _Parsed(path, st.st_size, st.st_mtime_ns, sha, status, [], [], reason)


def _read_mailbox(store, config, item, st, sha, status, cursor, report, progress) -> Iterator[_Parsed]:
    """An mbox's messages from `cursor.start` on, in parts of about MBOX_PART_BYTES (at most
    half the size limit), each cut where a message starts. Each part is a _Parsed written as
    the file grown to its end would be, so a run stopped midway goes on from there. A part
    over the size limit is read message by message, and a message over it is reported and
    passed over."""
    path, limit = str(item.path), config.limits.max_file_mb * 2**20
    ends = deque(mail.parts(path, cursor.start, st.st_size, max(1, min(MBOX_PART_BYTES, int(limit // 2)))))
    cursor.mailbox = len(ends) > 1  # known: its parts are read as a mailbox, however few they hold
    prefix, first = _Prefix(path), cursor.start
    while ends:
        end = ends.popleft()
        found: list = []
        passed_over = None
        if end - cursor.start > limit:
            messages = mail.parts(path, cursor.start, end, 1)
            if len(messages) > 1:
                cursor.mailbox = True
                ends.extendleft(reversed(messages))
                continue
            too_large = _too_large(end - cursor.start, config.limits)
            if not cursor.mailbox and not cursor.start:
                raise ExtractError(too_large)
            passed_over = f"the message at byte {cursor.start}: {too_large}; passed over"
            report.failures.append(Failure(path, passed_over))
            cursor.mailbox, cursor.messages = True, cursor.messages + 1
        else:
            cursor.end = end
            with _time_budget(config.limits.seconds_per_file):
                found = list(resolved(mail.extract(item, config.limits, cursor), config.limits))
        digest = sha if end == st.st_size else prefix.to(end)
        parsed = _prepare(store, config, path, st, digest, status, found, report, progress)
        parsed.size, parsed.continued, parsed.last = end, cursor.start > first, end == st.st_size
        parsed.unread_parts += [passed_over] if passed_over else []
        if cursor.mailbox:
            parsed.read_offset, parsed.messages = end, cursor.messages
            if cursor.start:
                parsed.grown, parsed.error = True, None  # no new documents is no error here
        yield parsed
        cursor.start = end


def _too_large(size: int, limits: Limits) -> str:
    return f"too large ({size / 2**20:.0f} MB; limit {limits.max_file_mb:g} MB)"


class _Prefix:
    """The sha256 of a file's first bytes, carried forward part by part: a part's record holds
    the hash of the file up to the part's end, as the record of a file grown to there would."""

    def __init__(self, path: str):
        self.path, self.digest, self.at = path, hashlib.sha256(), 0

    def to(self, end: int) -> str:
        with open(self.path, "rb") as fh:
            fh.seek(self.at)
            while self.at < end:
                block = fh.read(min(1 << 20, end - self.at))
                if not block:
                    raise OSError(errno.EIO, "the file shrank while it was read")
                self.digest.update(block)
                self.at += len(block)
        return self.digest.hexdigest()


def _mbox_grew(record: FileRecord, size: int) -> bool:
    """The file was read as an mbox up to its stored size, and is larger now."""
    return record.read_offset is not None and record.read_offset == record.size < size


def _prepare(store, config, path, st, sha, status, found, report, progress) -> _Parsed:
    documents, chunks, unread = [], [], []
    seen_ids = set()
    read_at = datetime.now(timezone.utc)
    now = read_at.isoformat(timespec="seconds")
    for entry in found:
        if isinstance(entry, Failure):
            report.failures.append(entry)  # an attachment or message; its file still counts
            unread.append(entry.reason)
            continue
        doc = annotate(entry, config, st.st_mtime, read_at)
        if doc.doc_id in seen_ids:
            continue
        seen_ids.add(doc.doc_id)
        texts = chunk_text(doc.title, doc.text, config.chunking)
        stored = _stored(doc, store.document_id(doc.doc_id), len(texts), now)
        # Ids carry the content hash, so a changed file's new chunks never overwrite live ones.
        prefix = store.chunk_prefix(stored, sha)
        chunks.extend(Chunk(f"{prefix}:{i}", stored.doc_id, t) for i, t in enumerate(texts))
        documents.append(stored)
    error = "no documents found" if not documents and found else None
    return _Parsed(path, st.st_size, st.st_mtime_ns, sha, status, documents, chunks, error, unread_parts=unread)


def _stored(doc: Document, doc_id: str, chunks: int, now: str) -> StoredDocument:
    return StoredDocument(
        doc_id=doc_id,
        path=doc.path,
        locator=doc.locator,
        kind=doc.kind,
        doc_type=doc.doc_type or doc.kind,
        title=doc.title,
        sender=doc.sender,
        source_date=doc.source_date,
        date_source=doc.date_source,
        date_precision=doc.date_precision,
        event_dates=doc.event_dates,
        thread=doc.thread,
        headers=doc.headers,
        notes=doc.notes,
        ingested_at=now,
        chunks=chunks,
        copy_key=copy_key(doc),
    )


_SUBJECT_PREFIX = re.compile(r"^\s*((re|fwd?|aw|sv)\s*:\s*)+", re.IGNORECASE)
_RECIPIENTS = re.compile(r"^(?:To|Cc): .*$", re.MULTILINE)  # as extract.email writes them


def copy_key(doc: Document) -> str:
    """What every copy of a document shares: its kind, sender, subject, day and text.

    The same message in several folders (Gmail labels synced by mbsync, Sent and Inbox, an
    mbox imported twice) or file saved twice has them all, and so has one announcement sent to
    several lists minutes apart under other Message-IDs; a monthly reminder with the same
    words is written on another day, and stays a document of its own.
    """
    day = doc.source_date.date().isoformat() if doc.source_date and doc.date_source != "mtime" else ""
    # Recipients are not what a message says: the text's To and Cc lines are left out.
    parts = [
        doc.kind,
        (doc.sender or "").strip().lower(),
        " ".join(_SUBJECT_PREFIX.sub("", doc.title or "").lower().split()),
        day,
        " ".join(_RECIPIENTS.sub("", doc.text).split()) if doc.kind == "email" else " ".join(doc.text.split()),
    ]
    return hashlib.sha1("\0".join(parts).encode("utf-8", "replace")).hexdigest()[:20]


def _unchanged(report: IngestReport, progress: Progress, path: str, record: FileRecord) -> None:
    """A file read before is passed over; one that could not be read is counted as such, as a
    report that said only "unchanged" of it would say all is well. It is not reported failed
    again: a nightly backfill would mail the same failure every night. One skipped (of a kind
    not read, or empty) is skipped again, with its reason: it is in no store."""
    if record.error in (EMPTY, NOT_A_KIND):
        _skip(report, progress, path, record.error)
        return
    report.unchanged += 1
    report.still_unread += bool(record.error)
    progress.file_done(path, "unchanged", 0)


def _skip(report: IngestReport, progress: Progress, path: str, reason: str) -> None:
    report.skipped += 1
    report.skipped_files.append(Failure(path, reason))
    progress.file_done(path, "skipped", 0)


def _fail(report: IngestReport, progress: Progress, path: str, reason: str) -> None:
    report.failed += 1
    report.failures.append(Failure(path, reason))
    progress.file_done(path, "failed", 0)
    return None


def _sha256(path: str, size: int, mark: int | None = None) -> tuple[str, str | None]:
    """The sha256 of the file's first `size` bytes (those stat() counted), and of its first
    `mark` bytes too when asked (a grown mbox's prefix), in one pass."""
    digest, at_mark, done = hashlib.sha256(), None, 0
    with open(path, "rb") as fh:
        while done < size:
            if done == mark:
                at_mark = digest.hexdigest()
            limit = mark if mark is not None and done < mark else size
            block = fh.read(min(1 << 20, limit - done))
            if not block:
                break
            digest.update(block)
            done += len(block)
    if done == mark:
        at_mark = digest.hexdigest()
    return digest.hexdigest(), at_mark


class _OutOfTime(Exception):
    pass


@contextmanager
def _time_budget(seconds: float):
    """Abort one file's extraction after `seconds` (main thread only, where signals arrive)."""
    if threading.current_thread() is not threading.main_thread() or not seconds:
        yield
        return

    def expire(signum, frame):
        raise _OutOfTime()

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _Backlog:
    """Parsed files waiting for the writer, bounded by their chunks rather than their number:
    a bound of so many files cut model calls short on mailboxes of one-chunk messages."""

    def __init__(self, max_chunks: int):
        self.max_chunks = max_chunks
        self.items: deque[_Parsed | None] = deque()
        self.chunks = 0
        self.changed = threading.Condition()

    def put(self, parsed: _Parsed | None) -> None:
        size = len(parsed.chunks) if parsed else 0
        with self.changed:
            while self.items and self.chunks + size > self.max_chunks:
                self.changed.wait()  # a file larger than the bound still goes, alone
            self.items.append(parsed)
            self.chunks += size
            self.changed.notify_all()

    def get(self) -> _Parsed | None:
        with self.changed:
            while not self.items:
                self.changed.wait()
            parsed = self.items.popleft()
            self.chunks -= len(parsed.chunks) if parsed else 0
            self.changed.notify_all()
            return parsed

    def empty(self) -> bool:
        with self.changed:
            return not self.items

    def clear(self) -> None:
        with self.changed:
            self.items.clear()
            self.chunks = 0
            self.changed.notify_all()


class _Writer(threading.Thread):
    """Embeds the chunks of several files per model call and writes each file to the store.

    A batch is written by a second thread while the next one is embedded: writing it (one Chroma
    upsert, one catalog transaction) costs ~10% of the model's time, which would otherwise add up.
    """

    def __init__(self, store: Store, embed, report: IngestReport, progress: Progress, derived: int):
        super().__init__(name="brainq-writer", daemon=True)
        self.derived = derived  # what the files it writes were derived with (`derivation`)
        self.home, self.chroma_url = store.home, store.chroma_url
        # Opened in the threads that use them: a SQLite connection per thread.
        self.store: Store | None = None
        self.saver_store: Store | None = None
        self.saving = ThreadPoolExecutor(1, thread_name_prefix="brainq-store")
        self.saved: Future | None = None
        self.in_flight: dict[str, list[float]] = {}  # the batch being written, not yet findable
        self.embed = embed
        self.report = report
        self.progress = progress
        self.queue = _Backlog(BATCH_CHUNKS)
        self.words: set[str] = set()  # embedded by this run, perhaps not yet written
        self.error: BaseException | None = None
        self.stopped = False  # interrupted: nothing more is written

    def put(self, parsed: _Parsed) -> None:
        self.queue.put(parsed)

    def drop_queued(self) -> None:
        """Drop what waits to be embedded, the batch in hand too: a crash would drop it, and the
        next run reads those files again."""
        self.stopped = True
        self.queue.clear()

    def close(self) -> None:
        self.queue.put(None)
        self.join()

    def run(self) -> None:
        pending: list[_Parsed] = []
        chunks = 0  # in pending
        ended = False  # the main thread's last put (None) is taken
        try:
            self.store = Store(self.home, self.chroma_url)
            while True:
                item = self.queue.get()
                ended = item is None
                if item is not None:
                    pending.append(item)
                    chunks += len(item.chunks)
                if item is None or chunks >= BATCH_CHUNKS or self.queue.empty():
                    self._flush(pending)
                    pending, chunks = [], 0
                if item is None:
                    break
            self._wait_saved()
        except BaseException as exc:  # handed to the main thread, which re-raises it
            self.error = exc
            # Taken until the main thread's last put, so none of its puts waits on a full backlog;
            # an error in the last batch came after it.
            while not ended:
                ended = self.queue.get() is None
        self.saving.shutdown()
        for store in (self.store, self.saver_store):
            if store:
                store.close()

    def _flush(self, batch: list[_Parsed]) -> None:
        chunks = [c for p in batch for c in p.chunks]
        vectors = self.store.known_vectors(chunks) if chunks else {}
        vectors.update((c.text_sha, self.in_flight[c.text_sha]) for c in chunks if c.text_sha in self.in_flight)
        todo = list({c.text_sha: c.embedded_text for c in chunks if c.text_sha not in vectors}.items())
        # Longest first, as the model's batches go: each slice pads no more than the whole would.
        todo.sort(key=lambda item: len(item[1]), reverse=True)
        for start in range(0, len(todo), STOP_CHECK_CHUNKS):
            if self.stopped:
                return
            part = todo[start : start + STOP_CHECK_CHUNKS]
            vectors.update(zip([sha for sha, _ in part], self.embed([text for _, text in part])))
        if todo:
            reached("batch-embedded")
        self.report.embedded += len(todo)
        words = vocabulary.new_words((c.text for c in chunks), lambda found: self.store.known_words(found) | (found & self.words))
        word_vectors = self.embed(words) if words else []
        self.words.update(words)
        self._wait_saved()
        self.in_flight = vectors
        self.saved = self.saving.submit(self._save, batch, vectors, words, word_vectors)

    def _wait_saved(self) -> None:
        """Wait for the batch being written; its error, if any, is raised here."""
        if self.saved is not None:
            saved, self.saved = self.saved, None
            saved.result()

    def _save(self, batch: list[_Parsed], vectors: dict[str, list[float]], words: list[str], word_vectors) -> None:
        if self.saver_store is None:
            self.saver_store = Store(self.home, self.chroma_url)
        if words:  # before the chunks that hold them: a crash in between leaves no chunk without them
            self.saver_store.add_words(words, word_vectors)
        whole = []
        for p in batch:
            mine = [vectors[c.text_sha] for c in p.chunks]
            if p.grown:
                self.saver_store.save_files(whole)  # an mbox's first part before its next
                whole = []
                self.saver_store.add_documents(
                    p.path, p.size, p.mtime_ns, p.sha256, p.documents, p.chunks, mine, self.derived,
                    p.read_offset, p.messages, p.unread_parts,
                )  # fmt: skip
            else:
                whole.append(FileWrite(p.path, p.size, p.mtime_ns, p.sha256, p.documents, p.chunks, mine,
                                       p.error, self.derived, p.read_offset, p.messages, p.unread_parts))  # fmt: skip
        self.saver_store.save_files(whole)
        for p in batch:
            self.report.documents += len(p.documents)
            self.report.chunks += len(p.chunks)
            self.report.by_kind.update(d.kind for d in p.documents)
            if p.last and (p.documents or p.continued or p.grown):
                setattr(self.report, p.status, getattr(self.report, p.status) + 1)
                self.progress.file_done(p.path, p.status, len(p.chunks))
        self.saver_store.announce()  # on a Chroma server, once per batch: each announcement is a write
