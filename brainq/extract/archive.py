"""Zip, tar and 7-Zip archives: each file inside is read as the file it is, as a message's
attachments are.

A folder zipped to be mailed or downloaded (a year of statements, a school's forms, a scanner's
batch), or packed as a tarball or a 7-Zip archive (a mail export, a backup), holds documents a person looks for one
by one, not the archive. Each file becomes its own documents, `path` the archive and `locator`
its name inside; one of a kind brainq does not read is passed over, as in a folder. A file
without a date of its own is dated by the time the archive records for it, flagged as a file's
modification time is.
"""

from __future__ import annotations

import bz2
import contextlib
import functools
import gzip
import io
import lzma
import struct
import tarfile
import tempfile
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path, PurePosixPath
from typing import IO

import py7zr
import py7zr.archiveinfo
from py7zr.helpers import get_sanitized_output_path
from py7zr.io import Py7zIO, WriterFactory

from brainq.config import Limits
from brainq.documents import Document, Failure, Item, Nested
from brainq.errors import ExtractError
from brainq.extract import office
from brainq.extract.text import decode_bytes
from brainq.extract.office import ZIP_ERRORS, open_zip

KIND = "archive"

# What an archiver adds that no one wrote: macOS's resource forks and folder settings, Windows'
# thumbnail caches.
_NOT_DOCUMENTS = ("__MACOSX/",)
_NOT_DOCUMENT_NAMES = (".DS_Store", "Thumbs.db", "desktop.ini")
_DOS_EPOCH = 315_532_800  # 1980-01-01, before which a zip records no file
_MAX_NAME = 4096  # characters of a tar member's name kept, its ends (a GNU long name may claim megabytes)


# A tarball by its name; how it is compressed by its first bytes (a browser may have unpacked a
# .tar.gz it downloaded without renaming it). The standard library's readers of these formats
# decompress in bounded steps, and say when a stream is cut short.
_TAR_NAMES = (".tar", ".tar.gz", ".tgz", ".tar.bz2", ".tbz2", ".tbz", ".tar.xz", ".txz")
_DECOMPRESSORS: dict[bytes, Callable[[IO[bytes]], IO[bytes]]] = {
    b"\x1f\x8b": lambda source: gzip.GzipFile(fileobj=source, mode="rb"),
    b"BZh": bz2.BZ2File,
    b"\xfd7zXZ\x00": lzma.LZMAFile,
}
_TAR_ERRORS = (tarfile.TarError, OSError, EOFError, ValueError, zlib.error, lzma.LZMAError, UnicodeError)
_7Z_MAGIC = b"7z\xbc\xaf\x27\x1c"
_PPMD = b"\x03\x04\x01"  # a 7-Zip method id
# py7zr makes an object of about half a kilobyte for every entry of an archive's list of files
# before any limit of brainq's applies, and a packed list of a few hundred kilobytes may hold
# millions: its own cap (8 million entries, some gigabytes) comes down to a home archive's size.
_MAX_7Z_ENTRIES = py7zr.archiveinfo.MAX_NUMFILES = 1 << 17


@dataclass
class _Entry:
    """A file in an archive, as zip, tar and 7-Zip all describe one."""

    name: str
    size: int  # as the archive declares it
    written: datetime | None
    open: Callable[[], IO[bytes]]
    encrypted: bool = False


def sniff(name: str, head: bytes) -> bool:
    return _format(name, head) is not None


def _format(name: str, head: bytes) -> str | None:
    lower = name.lower()
    if lower.endswith(".zip") and head.startswith(b"PK") and not office.sniff(name, head):  # an OpenDocument file is a zip
        return "zip"
    if lower.endswith(_TAR_NAMES) and (_decompressor(head) or _tar_header(head[:512])):
        return "tar"
    if lower.endswith(".7z") and head.startswith(_7Z_MAGIC):
        return "7z"
    return None


def _decompressor(head: bytes) -> Callable[[IO[bytes]], IO[bytes]] | None:
    return next((opener for magic, opener in _DECOMPRESSORS.items() if head.startswith(magic)), None)


def _tar_header(block: bytes) -> bool:
    """Whether a block is a tar header, or the end marker an empty tarball begins with."""
    try:
        tarfile.TarInfo.frombuf(block, "utf-8", "surrogateescape")
    except tarfile.EOFHeaderError:
        return True
    except (tarfile.HeaderError, ValueError, UnicodeError):
        return False
    return True


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure | Nested]:
    """The archive's files, for the registry to read; failures for those that cannot be taken
    out (an empty archive holds nothing to read, and nothing wrong either).

    The files of an archive and of every archive and message inside it inflate to
    `limits.max_file_mb` together, as much as one file on disk may hold: a zip bomb, nested or
    not, stops there."""
    # A file on disk is read from there, a member at a time, not held whole in memory.
    with io.BytesIO(item.data) if item.data is not None else open(item.path, "rb") as source:
        head = item.head(512)
        kind = _format(item.name, head)
        if kind == "tar":
            yield from _tar(item, source, _decompressor(head), limits)
            return
        if kind == "7z":
            yield from _seven_zip(item, source, limits)
            return
        try:
            archive = open_zip(source)
            members = [info for info in archive.infolist() if _written_by_someone(_name(info))]
        except ZIP_ERRORS as exc:
            raise ExtractError(f"not a readable zip archive ({exc})") from None
        with archive:
            entries = (
                _Entry(_name(info), info.file_size, _time_of(info), functools.partial(archive.open, info), bool(info.flag_bits & 0x1))
                for info in members
            )  # fmt: skip
            yield from _files(item, entries, len(members), limits, ZIP_ERRORS)


def _seven_zip(item: Item, source: IO[bytes], limits: Limits) -> Iterator[Document | Failure | Nested]:
    """A 7-Zip archive's files. They are packed together, in blocks whose every file is
    inflated to reach the last, so they are taken out in one pass, as a tarball's are read: up
    to the first that does not fit in the allowance (it and the rest reported), at most
    `limits.max_attachments`, charged to the allowance as they are taken out; then handed on
    one by one."""
    allowance, path = item.allowance, str(item.path)
    try:
        with py7zr.SevenZipFile(source, max_extract_size=max(allowance[0], 0)) as archive, tempfile.TemporaryDirectory() as nowhere:
            listed = list(zip(archive.files, archive.list()))
            members = [(f, info) for f, info in listed if info.is_file and not info.is_symlink and _written_by_someone(info.filename)]
            if archive.needs_password() and members:
                raise ExtractError("an encrypted 7-Zip archive; not read")
            if _PPMD in _methods(archive) and members:
                raise ExtractError("a 7-Zip archive compressed with PPMd; not read (its decoder crashes on a damaged file)")
            taken, room = [], allowance[0]
            for f, info in members[: limits.max_attachments]:
                if info.uncompressed > room:
                    break
                taken.append((f, info))
                room -= info.uncompressed
            keys = _keys(listed, {info.filename for _, info in taken}, Path(nowhere))
            shared = {key for key, n in Counter(keys.values()).items() if n > 1}
            inflated = _Inflated({keys[id(f)]: info.uncompressed for f, info in taken if keys[id(f)] not in shared})
            if taken:
                archive.extract(path=nowhere, targets={info.filename for _, info in taken}, factory=inflated)
    except py7zr.PasswordRequired:  # its list of files encrypted too
        raise ExtractError("an encrypted 7-Zip archive; not read") from None
    except ExtractError:
        raise
    except Exception as exc:  # a damaged archive makes py7zr and its decoders raise anything
        if str(exc).startswith("numfiles value") and str(exc).endswith(f"exceeds limit {_MAX_7Z_ENTRIES}"):
            raise ExtractError(f"a 7-Zip archive that lists more than {_MAX_7Z_ENTRIES:,} files; not read") from None
        raise ExtractError(f"not a readable 7-Zip archive ({type(exc).__name__}: {str(exc)[:120]})") from None
    allowance[0] -= sum(info.uncompressed for _, info in taken)

    def opened(key: str) -> IO[bytes]:
        held = inflated.held.pop(key, None)  # and let go of it; an empty file was never written
        return io.BytesIO(bytes(held.data) if held else b"")

    entries = []
    for f, info in taken:
        if keys[id(f)] in shared:
            yield Failure(path, f"{info.filename}: its name is another file's in the archive; not read")
        else:
            entries.append(_Entry(info.filename, 0, info.creationtime, functools.partial(opened, keys[id(f)])))
    entries += [_Entry(info.filename, info.uncompressed, info.creationtime, bytes) for _, info in members[len(taken) :]]
    yield from _files(item, entries, len(members), limits, (OSError,), stream=True)


def _keys(listed: list, targets: set[str], folder: Path) -> dict[int, str]:
    """The name py7zr gives each file it takes out, by id() of its entry: as py7zr's `_extract`
    names them, under `folder` (so that the folder brainq runs in plays no part), the second
    entry of a name as "name_0", the third "name_1", folders counted; two entries may come out
    under one name ("./a.txt" and "a.txt")."""
    keys, seen = {}, Counter()
    for f, info in listed:
        if f.filename not in targets:
            continue
        name = f.filename if not seen[f.filename] else f"{f.filename}_{seen[f.filename] - 1}"
        seen[f.filename] += 1
        if not info.is_directory:
            keys[id(f)] = get_sanitized_output_path(name, folder).as_posix()
    return keys


def _methods(archive: py7zr.SevenZipFile) -> set[bytes]:
    """The ids of the methods the archive's blocks are packed with."""
    try:
        folders = archive.header.main_streams.unpackinfo.folders
    except AttributeError:  # no block: nothing but empty files and folders
        return set()
    return {coder["method"] for folder in folders for coder in folder.coders}


class _Inflated(WriterFactory):
    """What py7zr takes out, held in memory, each file at most the size its header declares."""

    def __init__(self, sizes: dict[str, int]):
        self.sizes = sizes
        self.held: dict[str, _Held] = {}

    def create(self, filename: str) -> Py7zIO:
        self.held[filename] = _Held(self.sizes.get(filename, 0))
        return self.held[filename]


class _Held(Py7zIO):
    """A file's bytes as py7zr writes them, past `limit` dropped (a header that understates).
    py7zr only writes to it (and checks the CRC as it goes): reading is from `data`."""

    def __init__(self, limit: int):
        self.data, self.limit = bytearray(), limit

    def write(self, s: bytes | bytearray) -> int:
        self.data += s[: max(0, self.limit - len(self.data))]
        return len(s)

    def read(self, size: int | None = None) -> bytes:
        return b""

    def seek(self, offset: int, whence: int = 0) -> int:
        return 0

    def flush(self) -> None:
        pass

    def size(self) -> int:
        return len(self.data)


def _name(info: zipfile.ZipInfo) -> str:
    """A member's name with "/" between its folders, where some Windows zippers (older .NET's,
    and PowerShell's Compress-Archive on it) wrote "\\"."""
    return info.filename.replace("\\", "/")


def _tar(
    item: Item, source: IO[bytes], decompress: Callable[[IO[bytes]], IO[bytes]] | None, limits: Limits
) -> Iterator[Document | Failure | Nested]:
    """A tarball is read as a stream, in one pass: a compressed one has no index to seek by.
    Every byte it inflates counts against the allowance it shares with the archives around it
    and inside it, its headers and the files passed over as much as the files read."""
    path = str(item.path)
    past = Failure(path, f"not read further; {_together(limits)}")
    with decompress(source) if decompress else contextlib.nullcontext(source) as raw:
        stream = _Inflating(raw, item.allowance)
        try:
            archive = tarfile.open(fileobj=stream, mode="r|", tarinfo=_Header, encoding="utf-8", errors="surrogateescape")
        except _PastAllowance:
            yield past
            return
        except _TAR_ERRORS as exc:
            raise ExtractError(f"not a readable tar archive ({exc})") from None
        with archive:
            try:
                yield from _files(item, _tar_entries(archive), None, limits, _TAR_ERRORS, stream=True)
            except _PastAllowance:
                yield past
            except _TAR_ERRORS as exc:  # past the last file read: a stream cut short or damaged
                yield Failure(path, f"the rest of the archive is unreadable ({exc})")


def _tar_entries(archive: tarfile.TarFile) -> Iterator[_Entry]:
    """The tarball's files (a type tar does not know is one, as POSIX says). tarfile's list of
    the entries it has read is emptied as it goes: a stream may hold any number of them (links,
    folders) besides the files."""
    while (member := archive.next()) is not None:
        archive.members.clear()
        name = _tar_name(member)
        if (member.isreg() or member.type not in tarfile.SUPPORTED_TYPES) and _written_by_someone(name):
            yield _Entry(name, member.size, _tar_time(member), functools.partial(archive.extractfile, member))
    if _more_after_the_end(archive):
        raise tarfile.ReadError("more follows the block of zeros that ends it: an archive appended, or a damaged header")


def _more_after_the_end(archive: tarfile.TarFile) -> bool:
    """Whether anything but zeros follows the block that ended the archive. tarfile stops at one
    block of zeros (the end is two): another tarball appended (`tar czf - new >> all.tgz`), or a
    header zeroed by damage, would hide the files after it."""
    while chunk := archive.fileobj.read(2**16):
        if chunk.strip(b"\0"):
            return True
    return False


def _tar_name(member: tarfile.TarInfo) -> str:
    """A member's name as text: tar records bytes, which old tarballs wrote in Latin-1; they
    are decoded as a message's raw 8-bit header bytes are."""
    name = decode_bytes(member.name.encode("utf-8", "surrogateescape"), None).removeprefix("./")
    return name if len(name) <= _MAX_NAME else f"{name[: _MAX_NAME // 2]}…{name[-_MAX_NAME // 2 :]}"  # its kind kept


class _Header(tarfile.TarInfo):
    """A tar header read as tarfile reads one, but that a header cut short or garbled after the
    first is an error (tarfile takes it for the archive's end, and the files after the break
    would go unreported), and that a GNU header's name has no prefix."""

    @classmethod
    def frombuf(cls, buf: bytes, encoding: str, errors: str) -> tarfile.TarInfo:
        header = super().frombuf(buf, encoding, errors)
        # GNU's own format has no name prefix where ustar's is: its incremental archives keep
        # access and change times there, which tarfile puts before the name ("15302370621/a.txt").
        if buf[257:265] == tarfile.GNU_MAGIC and header.type not in tarfile.GNU_TYPES and not header.isdir():
            header.name = tarfile.nts(buf[:100], encoding, errors)
        return header

    @classmethod
    def fromtarfile(cls, archive: tarfile.TarFile) -> tarfile.TarInfo:
        try:
            return super().fromtarfile(archive)
        except (tarfile.EmptyHeaderError, tarfile.TruncatedHeaderError, tarfile.InvalidHeaderError) as exc:
            if archive.offset == 0:
                raise  # no tarball at all: tarfile says so itself
            raise tarfile.ReadError(f"cut short or damaged: {exc}") from None


class _PastAllowance(Exception):
    """A tarball's stream inflated past the allowance: no tar error, so that no file's reading
    takes it for its own."""


class _Inflating:
    """A tarball's decompressed stream, each byte read charged to the allowance (a list of one
    number, shared with the archives around and inside it).

    A compressed stream cut short, or followed by junk, ends where its data ends: the
    decompressors raise only when asked for more, and tarfile asks for whole records, so the
    files in a tarball's last record were lost with its trailer. What the cut took is found by
    tar itself: a header or a file cut short is an error there."""

    def __init__(self, inner: IO[bytes], allowance: list[int]):
        self.inner, self.allowance = inner, allowance

    def read(self, size: int = -1) -> bytes:
        try:
            data = self.inner.read(size)
        except (EOFError, gzip.BadGzipFile):
            data = b""
        self.allowance[0] -= len(data)
        if self.allowance[0] < 0:
            raise _PastAllowance
        return data


def _files(
    item: Item, entries: Iterable[_Entry], total: int | None, limits: Limits, errors: tuple[type[Exception], ...],
    stream: bool = False,
) -> Iterator[Document | Failure | Nested]:
    """Each file handed on as soon as it is read, so that only one is held in memory at a time.
    A stream (tar) charges its own bytes to the allowance, and stops at the first file past it:
    passing over it would still inflate it."""
    path, seen = str(item.path), set()
    allowance = item.allowance  # the registry's, for the file on disk and all that is nested in it
    for count, entry in enumerate(entries):
        if count == limits.max_attachments:
            more = f"{total - count} file(s)" if total is not None else "files"
            yield Failure(path, f"{more} beyond the limit of {limits.max_attachments} skipped")
            return
        if entry.size > allowance[0]:
            rest = "; the rest not read" if stream else ""
            yield Failure(path, f"{entry.name}: not read; {_together(limits)}{rest}")
            if stream:
                return
            continue
        if entry.encrypted:
            yield Failure(path, f"{entry.name}: encrypted; not read")
            continue
        try:
            with entry.open() as opened:
                data = opened.read(allowance[0] + 1)  # the archive stops at the size the entry declares
        except errors as exc:
            yield Failure(path, f"{entry.name}: unreadable ({exc})")
            if stream:
                return  # a stream broken within a file has no next one to find
            continue
        if not stream:
            allowance[0] -= len(data)
        # Two files of one name (an archiver appending): each kept, the second by its place.
        locator, place = entry.name, count
        while locator in seen:  # "n.txt#2" may be a file's own name
            locator, place = f"{entry.name}#{place}", place + 1
        seen.add(locator)
        sub = Item(path=item.path, name=PurePosixPath(entry.name).name, data=data, depth=item.depth + 1, allowance=allowance)
        adopt = functools.partial(_adopt, locator=locator, label=entry.name, written=entry.written)
        yield Nested(sub, entry.name, adopt, optional=True)


def _together(limits: Limits) -> str:
    return f"the files of an archive may inflate to {limits.max_file_mb:g} MB together (limits.max_file_mb)"


def _written_by_someone(filename: str) -> bool:
    name = PurePosixPath(filename).name
    folder = not filename or filename.endswith("/")  # ZipInfo.is_dir() fails on an empty name
    return not (folder or filename.startswith(_NOT_DOCUMENTS) or name.startswith("._") or name in _NOT_DOCUMENT_NAMES)


def _tar_time(member: tarfile.TarInfo) -> datetime | None:
    """The time a tarball records for a file, in UTC; 0 (or less) when the packer recorded none."""
    try:
        return datetime.fromtimestamp(member.mtime, timezone.utc) if member.mtime > 0 else None
    except (OverflowError, OSError, ValueError):
        return None


def _time_of(info: zipfile.ZipInfo) -> datetime | None:
    """The time the archive records for a file: the extended timestamp ("UT", 0x5455) that
    Info-ZIP, macOS and 7-Zip add, in UTC; else the DOS time every entry has, local time without
    a zone, as the archiver's clock showed it, whose least value (1980-01-01) means none."""
    at = 0
    while at + 4 <= len(info.extra):
        kind, size = struct.unpack_from("<HH", info.extra, at)
        if kind == 0x5455 and size >= 5 and at + 9 <= len(info.extra) and info.extra[at + 4] & 1:
            (stamp,) = struct.unpack_from("<i", info.extra, at + 5)
            if stamp > _DOS_EPOCH:
                return datetime.fromtimestamp(stamp, timezone.utc)
        at += 4 + size
    try:
        written = datetime(*info.date_time)
    except (TypeError, ValueError):
        return None
    return written.astimezone(timezone.utc) if written > datetime(1980, 1, 1, 0, 0, 2) else None


def _adopt(result: Document | Failure, locator: str, label: str, written: datetime | None) -> Document | Failure:
    if isinstance(result, Failure):
        return Failure(result.path, f"{label}: {result.reason}")
    if result.locator is None:  # the file's own document, not a message's attachment in it
        result.file_time = written
    result.locator = f"{locator}/{result.locator}" if result.locator else locator
    return result
