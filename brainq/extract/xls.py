"""Excel 97-2003 workbooks (.xls), read by xlrd: each sheet as the Excel reader shows one.

Years of household budgets, team rosters and sign-up sheets are in .xls, and schools and clubs
still mail them. A sheet reads as a newer workbook's does (office.sheet_lines: a row a line,
each value under its column's name), a date as a date, and the file is titled and dated by the
summary properties every Office 97-2003 file carries (msword.summary).
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import olefile
import xlrd

from brainq.config import Limits
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract import msword, office
from brainq.extract.text import title_of

KIND = office.KIND  # a workbook of any age is typed and dated alike


def sniff(name: str, head: bytes) -> bool:
    return name.lower().endswith(office.XLS_SUFFIXES) and head.startswith(office.OLE_MAGIC)


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    data = item.read()
    try:
        # Ragged rows: xlrd otherwise pads every row to the sheet's widest, and one cell at
        # (65535, 255) makes a sheet of 16 million.
        book = xlrd.open_workbook(file_contents=data, on_demand=True, ragged_rows=True, logfile=io.StringIO())
        lines = list(office.within(_lines(book), limits))
    except xlrd.XLRDError as exc:
        if "encrypted" in str(exc).lower():
            raise ExtractError(office.LOCKED) from None
        raise ExtractError(f"not a readable Excel 97-2003 workbook ({exc})") from None
    # xlrd and olefile read a damaged or hostile file with struct, indexing and their own
    # assertions, and fail in whichever of them the damage reaches first.
    except Exception as exc:  # noqa: BLE001
        raise ExtractError(f"a damaged Excel 97-2003 workbook ({type(exc).__name__})") from None
    title, saved, created = _summary(data)
    text = "\n".join(line for line in lines if line.strip())
    if not text.strip():
        raise ExtractError("no text in the workbook")
    when = saved or created
    # A sheet's first cell is a column's name, not the workbook's: its file names it better.
    yield office.document(item, " ".join(title.split()) or " ".join(Path(item.name).stem.split()) or title_of(text), text, when)


def _summary(data: bytes) -> tuple[str, datetime | None, datetime | None]:
    """Title and dates; a Compound File olefile cannot open, though xlrd read its sheets, costs
    them and not the workbook."""
    try:
        with olefile.OleFileIO(io.BytesIO(data)) as ole:
            return msword.summary(ole)
    except Exception:  # noqa: BLE001  olefile fails in struct, indexing or its own checks
        return "", None, None


def _lines(book: xlrd.Book) -> Iterator[str]:
    """Each sheet in the workbook's order, loaded one at a time and unloaded after: a workbook
    is read in the memory of its largest sheet."""
    epoch = office.EPOCHS[book.datemode == 1]
    for index in range(book.nsheets):
        sheet = book.sheet_by_index(index)
        rows = (
            _trimmed([_value(cell, epoch) for cell in sheet.row_slice(r, 0, min(sheet.row_len(r), office.MAX_COLUMNS))])
            for r in range(sheet.nrows)
        )
        yield from office.sheet_lines(sheet.name, rows)
        book.unload_sheet(index)


def _trimmed(row: list[str]) -> list[str]:
    """A row without the empty cells to the sheet's last column, which Excel does not show."""
    while row and not row[-1]:
        row.pop()
    return row


def _value(cell: xlrd.sheet.Cell, epoch) -> str:
    if cell.ctype == xlrd.XL_CELL_TEXT:
        return cell.value
    if cell.ctype in (xlrd.XL_CELL_NUMBER, xlrd.XL_CELL_DATE):
        return office.excel_number(cell.value, "date" if cell.ctype == xlrd.XL_CELL_DATE else None, epoch)
    if cell.ctype == xlrd.XL_CELL_BOOLEAN:
        return "TRUE" if cell.value else "FALSE"
    if cell.ctype == xlrd.XL_CELL_ERROR:
        return xlrd.error_text_from_code.get(cell.value, "#ERROR")
    return ""
