"""Excel 97-2003 workbooks (.xls): each sheet as a newer workbook's reads, dates as dates, titled
by the file; password-protected and damaged files refused with a reason."""

from __future__ import annotations

import io
from datetime import datetime, time
from pathlib import Path

import pytest
import xlwt

from brainq.config import load_config
from brainq.documents import Item
from brainq.errors import ExtractError
from brainq.extract import extract_item, extractor_for, html, office, xls
from tests.test_extract_msword import word_file
from tests.test_extract_office import xlsx_bytes

LIMITS = load_config().limits


def workbook(sheets: dict[str, list[list]]) -> bytes:
    """A .xls of these sheets; a datetime cell in a date format, as Excel writes one."""
    book = xlwt.Workbook()
    day, time_of_day = xlwt.easyxf(num_format_str="YYYY-MM-DD"), xlwt.easyxf(num_format_str="h:mm")
    for name, rows in sheets.items():
        sheet = book.add_sheet(name)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if isinstance(value, (datetime, time)):
                    sheet.write(r, c, value, day if isinstance(value, datetime) else time_of_day)
                elif value is not None:
                    sheet.write(r, c, value)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def read(data: bytes, name: str = "budget.xls"):
    return list(extract_item(Item(Path("/docs") / name, name, data=data), LIMITS))


def test_each_sheet_reads_as_a_newer_workbook_does():
    data = workbook({
        "Repairs": [["Job", "Contractor", "Cost", "Paid on"],
                    ["Water heater", "Dutton Plumbing", 1240, datetime(2009, 3, 5)],
                    ["Fence", "Cedar & Sons", 3900.5, None, None]],
        "Codes": [["Alarm code", "4411"], ["Pickup", time(7, 45)], ["Paid", True]],
        "Empty": [],
    })  # fmt: skip
    (doc,) = read(data, "house 2009.xls")
    assert doc.kind == "office" and doc.title == "house 2009" and doc.source_date is None
    assert doc.text.splitlines() == [
        "## Repairs",
        "Job  |  Contractor  |  Cost  |  Paid on",
        "Job: Water heater; Contractor: Dutton Plumbing; Cost: 1240; Paid on: 2009-03-05",
        "Job: Fence; Contractor: Cedar & Sons; Cost: 3900.5",  # no trailing empty cells
        "## Codes",
        "Alarm code  |  4411",
        "Pickup  |  07:45",
        "Paid  |  TRUE",
    ]


def test_only_compound_files_named_xls_are_taken_and_a_newer_workbook_under_the_old_name_is_read():
    assert extractor_for(Item(Path("a.xls"), "a.xls", data=workbook({"S": [["x"]]}))) is xls
    assert extractor_for(Item(Path("a.doc"), "a.doc", data=workbook({"S": [["x"]]}))) is not xls
    renamed = xlsx_bytes({"Sheet1": '<row><c t="s"><v>0</v></c></row>'}, ["Dues"])
    assert extractor_for(Item(Path("a.xls"), "a.xls", data=renamed)) is office
    (doc,) = read(renamed)
    assert "Dues" in doc.text


@pytest.mark.parametrize(
    "data, reason",
    [
        (workbook({"S": [["x"]]})[:1500], "Excel 97-2003 workbook"),  # cut short
        (word_file("A letter\r"), "not a readable Excel 97-2003 workbook"),  # a Word file named .xls
        (workbook({"S": [[None]]}), "no text in the workbook"),
    ],
)
def test_damaged_foreign_and_empty_workbooks_are_refused_with_a_reason(data, reason):
    with pytest.raises(ExtractError, match=reason):
        read(data)


def test_a_sparse_sheet_is_read_as_far_as_its_cells_go():
    """A cell at the last row and column made xlrd pad every row to 256 cells: 16 million of
    them from a 6 KB file."""
    book = xlwt.Workbook()
    sheet = book.add_sheet("Sparse")
    sheet.write(0, 0, "Gate code 2580")
    sheet.write(65535, 255, 1)
    buffer = io.BytesIO()
    book.save(buffer)
    (doc,) = read(buffer.getvalue())
    assert doc.text == "## Sparse\nGate code 2580"


@pytest.mark.parametrize(
    "data, kind",
    [
        (b"<html><body><table><tr><td>Rent</td><td>1200</td></tr></table></body></html>", html),
        (b"Date\tPayee\tAmount\n2026-03-01\tRent\t-1200.00\n", office),
        ("Date\tPayee\tAmount\r\n2026-03-01\tRent\t-1200.00\r\n".encode("utf-16"), office),  # Excel's "Unicode Text"
        (b"Date,Payee,Amount\r2026-03-01,Rent,-1200.00\r", office),  # an old Mac's line ends
    ],
)
def test_a_web_page_or_delimited_text_named_xls_is_read_as_what_it_is(data, kind):
    """Banks and web applications export "Excel" files as HTML tables or tab-separated text."""
    assert extractor_for(Item(Path("export.xls"), "export.xls", data=data)) is kind
    (doc,) = read(data, "export.xls")
    assert "Rent" in doc.text and "1200" in doc.text
