"""Zip archives: each file inside is read as the file it is, as a message's attachments are.

A folder zipped to be mailed or downloaded (a year of statements, a school's forms, a scanner's
batch) holds documents a person looks for one by one, not the archive. Each file becomes its
own documents, `path` the archive and `locator` its name inside; one of a kind brainq does not
read is passed over, as in a folder. A file without a date of its own is dated by the time the
archive records for it, flagged as a file's modification time is.
"""

from __future__ import annotations

import functools
import io
import struct
import zipfile
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import PurePosixPath

from brainq.config import Limits
from brainq.documents import Document, Failure, Item, Nested
from brainq.errors import ExtractError
from brainq.extract.office import ZIP_ERRORS, open_zip

KIND = "archive"

# What an archiver adds that no one wrote: macOS's resource forks and folder settings, Windows'
# thumbnail caches.
_NOT_DOCUMENTS = ("__MACOSX/",)
_NOT_DOCUMENT_NAMES = (".DS_Store", "Thumbs.db", "desktop.ini")
_DOS_EPOCH = 315_532_800  # 1980-01-01, before which a zip records no file


def sniff(name: str, head: bytes) -> bool:
    return name.lower().endswith(".zip") and head.startswith(b"PK")


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure | Nested]:
    """The archive's files, for the registry to read; failures for those that cannot be taken
    out (an empty archive holds nothing to read, and nothing wrong either).

    The files of an archive and of every archive and message inside it inflate to
    `limits.max_file_mb` together, as much as one file on disk may hold: a zip bomb, nested or
    not, stops there."""
    # A file on disk is read from there, a member at a time, not held whole in memory.
    with io.BytesIO(item.data) if item.data is not None else open(item.path, "rb") as source:
        try:
            archive = open_zip(source)
            members = [info for info in archive.infolist() if _written_by_someone(info)]
        except ZIP_ERRORS as exc:
            raise ExtractError(f"not a readable zip archive ({exc})") from None
        with archive:
            yield from _members(item, archive, members, limits)


def _members(
    item: Item, archive: zipfile.ZipFile, members: list[zipfile.ZipInfo], limits: Limits
) -> Iterator[Document | Failure | Nested]:
    """Each file handed on as soon as it is read, so that only one is held in memory at a time."""
    path, seen = str(item.path), set()
    allowance = item.allowance  # the registry's, for the file on disk and all that is nested in it
    for count, info in enumerate(members):
        if count == limits.max_attachments:
            yield Failure(path, f"{len(members) - count} file(s) beyond the limit of {limits.max_attachments} skipped")
            return
        if info.file_size > allowance[0]:
            yield Failure(path, f"{info.filename}: not read; the files of an archive may inflate to {limits.max_file_mb:g} MB together (limits.max_file_mb)")
            continue
        if info.flag_bits & 0x1:
            yield Failure(path, f"{info.filename}: encrypted; not read")
            continue
        try:
            with archive.open(info) as stream:
                data = stream.read(allowance[0] + 1)  # zipfile stops at the size the entry declares
        except ZIP_ERRORS as exc:
            yield Failure(path, f"{info.filename}: unreadable ({exc})")
            continue
        allowance[0] -= len(data)
        # Two files of one name (an archiver appending): each kept, the second by its place.
        locator = info.filename if info.filename not in seen else f"{info.filename}#{count}"
        seen.add(locator)
        name = PurePosixPath(info.filename).name
        sub = Item(path=item.path, name=name, data=data, depth=item.depth + 1, allowance=allowance)
        adopt = functools.partial(_adopt, locator=locator, label=info.filename, written=_time_of(info))
        yield Nested(sub, info.filename, adopt, optional=True)


def _written_by_someone(info: zipfile.ZipInfo) -> bool:
    name = PurePosixPath(info.filename).name
    folder = not info.filename or info.filename.endswith("/")  # ZipInfo.is_dir() fails on an empty name
    return not (folder or info.filename.startswith(_NOT_DOCUMENTS) or name.startswith("._") or name in _NOT_DOCUMENT_NAMES)


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
