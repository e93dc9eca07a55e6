"""Word and OpenDocument text files: body in order, tables by row, dates from their properties,
and a clear reason for each file that cannot be read."""

from __future__ import annotations

import dataclasses
import io
import zipfile
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path
from xml.sax.saxutils import escape

import pytest

from brainq.annotate import annotate
from brainq.config import load_config
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract import extract_item, extractor_for, office
from tests.conftest import CORPORA

LIMITS = load_config().limits
NOW = datetime(2026, 4, 1, tzinfo=timezone.utc)
_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def docx_bytes(paragraphs: list[str], table: list[list[str]] = (), *, modified: str | None = "2026-03-02T10:15:00Z",
               created: str | None = "2019-05-01T08:00:00Z", title: str = "", body_xml: str = "",
               margins: dict[str, list[str]] | None = None) -> bytes:  # fmt: skip
    """A Word file as Word lays it out: runs in paragraphs, a table of rows of cells, the core
    properties in their own part, headers and footers (`margins`: part name to paragraphs) in
    theirs."""
    body = "".join(f'<w:p><w:r><w:t xml:space="preserve">{p}</w:t></w:r></w:p>' for p in paragraphs)
    if table:
        cells = lambda row: "".join(f"<w:tc><w:p><w:r><w:t>{c}</w:t></w:r></w:p></w:tc>" for c in row)  # noqa: E731
        body += "<w:tbl>" + "".join(f"<w:tr>{cells(row)}</w:tr>" for row in table) + "</w:tbl>"
    document = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document {_W}>'
        f"<w:body>{body}{body_xml}<w:sectPr/></w:body></w:document>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
        archive.writestr("word/document.xml", document)
        archive.writestr("docProps/core.xml", core_properties(modified, created, title))
        for name, lines in (margins or {}).items():
            root = "w:ftr" if "footer" in name else "w:hdr"
            paragraphs = "".join(f"<w:p><w:r><w:t>{line}</w:t></w:r></w:p>" for line in lines)
            archive.writestr(f"word/{name}", f"<{root} {_W}>{paragraphs}</{root}>")
    return buffer.getvalue()


def core_properties(modified: str | None, created: str | None, title: str = "") -> str:
    """The part where Word and Excel keep a file's title and dates."""
    dates = "".join(
        f'<dcterms:{name} xsi:type="dcterms:W3CDTF">{value}</dcterms:{name}>'
        for name, value in (("created", created), ("modified", modified)) if value
    )  # fmt: skip
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        f'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>{title}</dc:title>{dates}</cp:coreProperties>'
    )


def odt_bytes(content_body: str, *, saved: str = "2026-02-10T09:30:12.123456789", created: str = "2024-01-01T00:00:00",
              kind: str = "text", encrypted: bool = False, master_page: str = "") -> bytes:  # fmt: skip
    """An OpenDocument text (or spreadsheet) as LibreOffice writes it: `mimetype` stored first,
    then its parts; `master_page` is the page style's markup (its header and footer)."""
    office = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"'
    text = 'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
    table = 'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"'
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {office} {text} {table}>'
        f"<office:body><office:{kind}>{content_body}</office:{kind}></office:body></office:document-content>"
    )
    meta = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-meta {office} '
        'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/">'
        f"<office:meta><meta:creation-date>{created}</meta:creation-date><dc:date>{saved}</dc:date></office:meta>"
        "</office:document-meta>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), f"application/vnd.oasis.opendocument.{kind}")
        archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        if encrypted:
            manifest = '<manifest:file-entry manifest:full-path="content.xml"><manifest:encryption-data/></manifest:file-entry>'
            archive.writestr("META-INF/manifest.xml", f'<manifest:manifest xmlns:manifest="urn:x">{manifest}</manifest:manifest>')
        archive.writestr("meta.xml", meta, zipfile.ZIP_DEFLATED)
        if master_page:
            style = 'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"'
            archive.writestr("styles.xml", f"<office:document-styles {office} {text} {style}><office:master-styles>"
                             f"<style:master-page>{master_page}</style:master-page></office:master-styles></office:document-styles>")  # fmt: skip
    return buffer.getvalue()


def xlsx_bytes(sheets: dict[str, str], shared: list[str] = (), date1904: bool = False, modified: str | None = None) -> bytes:
    """An Excel workbook as Excel lays it out: sheets found through the workbook's relations,
    strings in a shared table, and styles (style 1 is a date format: built-in 14; style 2 a
    custom "d-mmm-yy"; style 3 a number format with quoted text holding a "d")."""
    main = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    relations = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
    listed = "".join(f'<sheet name="{name}" sheetId="{i}" r:id="rId{i}"/>' for i, name in enumerate(sheets, 1))
    pr = '<workbookPr date1904="1"/>' if date1904 else ""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/workbook.xml", f"<workbook {main} {relations}>{pr}<sheets>{listed}</sheets></workbook>")
        targets = "".join(f'<Relationship Id="rId{i}" Target="worksheets/sheet{i}.xml"/>' for i in range(1, len(sheets) + 1))
        archive.writestr("xl/_rels/workbook.xml.rels",
                         f'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{targets}</Relationships>')
        strings = "".join(f"<si>{s}</si>" if s.startswith("<") else f"<si><t>{escape(s)}</t></si>" for s in shared)
        archive.writestr("xl/sharedStrings.xml", f"<sst {main}>{strings}</sst>")
        archive.writestr("xl/styles.xml", (
            f'<styleSheet {main}><numFmts><numFmt numFmtId="164" formatCode="d-mmm-yy"/>'
            '<numFmt numFmtId="165" formatCode="&quot;due &quot;0"/></numFmts><cellXfs><xf numFmtId="0"/>'
            '<xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/></cellXfs></styleSheet>'
        ))  # fmt: skip
        if modified:
            archive.writestr("docProps/core.xml", core_properties(modified, None))
        for i, rows in enumerate(sheets.values(), 1):
            archive.writestr(f"xl/worksheets/sheet{i}.xml", f"<worksheet {main}><sheetData>{rows}</sheetData></worksheet>")
    return buffer.getvalue()


def read(name: str, data: bytes, limits=LIMITS) -> Document:
    [doc] = list(extract_item(Item(Path("/home/me/Documents") / name, name, data=data), limits))
    return doc


def test_a_word_file_reads_its_paragraphs_then_its_table_by_row():
    doc = read("lease.docx", docx_bytes(
        ["Lease renewal", "The monthly rent is $1,850 from April 1.", "Keys:\tat the office"],
        [["Item", "Amount"], ["", ""], ["Pet deposit", "$300"]],
    ))  # fmt: skip
    assert doc.kind == "office"
    assert doc.title == "Lease renewal"
    assert doc.text == (
        "Lease renewal\nThe monthly rent is $1,850 from April 1.\nKeys:\tat the office\n"
        "Item  |  Amount\nPet deposit  |  $300"
    )  # the empty row is no line


def test_a_word_file_is_dated_when_last_saved_not_when_its_template_was_made():
    doc = read("letter.docx", docx_bytes(["Dear neighbours,"], title="Block party"))
    assert doc.title == "Block party"
    assert (doc.source_date, doc.date_source, doc.date_precision) == (
        datetime(2026, 3, 2, 10, 15, tzinfo=timezone.utc), "office_meta", "instant",
    )  # fmt: skip


@pytest.mark.parametrize(
    "modified, created, expected",
    [
        (None, "2019-05-01T08:00:00Z", datetime(2019, 5, 1, 8, tzinfo=timezone.utc)),  # never saved again
        ("1601-01-01T00:00:00Z", None, None),  # Word's "never"
        ("last Tuesday", None, None),
    ],
)
def test_a_word_file_without_a_saved_date(modified, created, expected):
    assert read("form.docx", docx_bytes(["Permission slip"], modified=modified, created=created)).source_date == expected


def test_a_word_file_without_dates_is_dated_by_its_text_then_its_file():
    doc = read("minutes.docx", docx_bytes(["Meeting minutes", "Date: March 3, 2026", "Present: all"], modified=None, created=None))
    assert doc.source_date is None
    annotate(doc, load_config(), mtime=NOW.timestamp(), now=NOW)
    assert (doc.source_date.date().isoformat(), doc.date_source) == ("2026-03-03", "text")
    undated = read("list.docx", docx_bytes(["Packing list", "Sleeping bag"], modified=None, created=None))
    annotate(undated, load_config(), mtime=NOW.timestamp(), now=NOW)
    assert (undated.source_date, undated.date_source) == (NOW, "mtime")


def test_tracked_deletions_content_controls_and_text_boxes():
    body = (
        '<w:p><w:r><w:t>Pickup at </w:t></w:r><w:del><w:r><w:delText>3:00</w:delText></w:r></w:del>'
        "<w:ins><w:r><w:t>3:30</w:t></w:r></w:ins><w:r><w:br/><w:t>Gate B</w:t></w:r></w:p>"
        "<w:sdt><w:sdtContent><w:p><w:r><w:t>Parent signature: Ana</w:t></w:r></w:p></w:sdtContent></w:sdt>"
    )
    doc = read("pickup.docx", docx_bytes([], body_xml=body))
    assert doc.text == "Pickup at 3:30\nGate B\nParent signature: Ana"


def test_an_opendocument_text_reads_headings_lists_tables_and_spaces():
    body = (
        "<text:h>Babysitter notes</text:h>"
        "<text:p>Bedtime<text:s text:c=\"3\"/>8 PM<text:tab/>sharp<text:note><text:note-body>"
        "<text:p>a footnote</text:p></text:note-body></text:note></text:p>"
        "<text:list><text:list-item><text:p>Allergic to <text:span>peanuts</text:span></text:p></text:list-item></text:list>"
        "<table:table><table:table-row><table:table-cell><text:p>Poison control</text:p></table:table-cell>"
        "<table:table-cell><text:p>1-800-222-1222</text:p></table:table-cell></table:table-row></table:table>"
    )
    doc = read("sitter.odt", odt_bytes(body))
    assert doc.text == "Babysitter notes\nBedtime   8 PM\tsharp\nAllergic to peanuts\nPoison control  |  1-800-222-1222"
    assert doc.source_date == datetime(2026, 2, 10, 9, 30, 12, 123456)  # no zone written: naive, as a PDF's


def test_an_opendocument_text_is_known_by_its_mimetype_without_its_suffix():
    data = odt_bytes("<text:p>Recital program</text:p>")
    assert extractor_for(Item(Path("attachment"), "attachment", data=data)) is office
    assert extractor_for(Item(Path("archive.zip"), "archive.zip", data=docx_bytes(["x"]))) is not office


def test_an_excel_sheet_names_each_value_by_its_column():
    rows = (
        '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>'
        '<row r="2"><c r="A2" t="s"><v>3</v></c><c r="B2" s="1"><v>45003</v></c><c r="C2"><v>14500.5</v></c></row>'
        '<row r="3"><c r="A3" t="inlineStr"><is><t>Gutters</t></is></c><c r="C3"><v>0.1</v></c></row>'
        '<row r="9"><c r="B9" t="b"><v>1</v></c></row>'
    )
    doc = read("house-costs.xlsx", xlsx_bytes({"Repairs 2023": rows, "Empty": ""}, ["Item", "Date", "Cost", "Roof"]))
    assert doc.title == "house-costs"  # its file names it, not its first cell
    assert doc.text == (
        "## Repairs 2023\nItem  |  Date  |  Cost\n"
        "Item: Roof; Date: 2023-03-18; Cost: 14500.5\nItem: Gutters; Cost: 0.1\nDate: TRUE"
    )  # the empty sheet gives no line


def test_an_excel_sheet_of_two_columns_is_a_list_and_dates_follow_their_format():
    rows = (
        '<row><c t="s"><v>0</v></c><c t="s"><v>1</v></c></row>'
        '<row><c t="s"><v>2</v></c><c s="2"><v>0.5</v></c></row>'  # a time of day alone: no day of 1904
        '<row><c t="s"><v>3</v></c><c s="3"><v>12</v></c></row>'  # "due 12": no date
        '<row><c t="s"><v>4</v></c><c s="1"><v>1</v></c></row>'
    )
    shared = ["Wi-Fi password", "<r><t>blue</t></r><r><t>heron</t></r><rPh><t>ブルー</t></rPh>", "Alarm at", "Rent day", "Start"]
    doc = read("codes.xlsx", xlsx_bytes({"Codes": rows}, shared, date1904=True))
    assert doc.text == (
        "## Codes\nWi-Fi password  |  blueheron\nAlarm at  |  12:00\nRent day  |  12\nStart  |  1904-01-02"
    )


def test_excel_times_are_rounded_to_the_minute_they_show_and_escaped_emoji_are_whole():
    rows = (
        '<row><c t="s"><v>0</v></c><c s="1"><v>44197.7083333333</v></c></row>'  # 15 digits, as a sheet keeps them
        '<row><c t="s"><v>1</v></c></row>'
    )
    doc = read("t.xlsx", xlsx_bytes({"S": rows}, ["Party", "Cake _xD83C__xDF82_ and a lone _xD83D_ half"]))
    assert doc.text == "## S\nParty  |  2021-01-01 17:00\nCake \U0001f382 and a lone \ufffd half"
    doc.text.encode("utf-8")  # a lone surrogate could be neither stored nor embedded


def test_a_small_file_repeating_a_long_text_is_read_only_to_the_text_limit():
    small = dataclasses.replace(LIMITS, max_text_chars=50_000)
    cells = "".join('<row><c t="s"><v>0</v></c><c t="s"><v>0</v></c></row>' for _ in range(2000))
    data = xlsx_bytes({"S": cells}, ["word " * 20_000])  # 100 kB of text, 4,000 times
    assert len(data) < 50_000
    assert len(read("bomb.xlsx", data, small).text) <= 50_000
    repeated = (
        '<table:table table:name="S"><table:table-row table:number-rows-repeated="100">'
        f'<table:table-cell table:number-columns-repeated="64"><text:p>{"word " * 20_000}</text:p></table:table-cell>'
        "</table:table-row></table:table>"
    )
    assert len(read("bomb.ods", odt_bytes(repeated, kind="spreadsheet"), small).text) <= 50_000
    assert read("blank-lines.csv", b"a,b\n" + b"\n" * 3_000_000 + b"c,d\n").text == "## blank-lines\na  |  b\nc  |  d"


def test_a_table_in_a_table_is_read_once_and_a_text_box_once():
    inner = "<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Inner</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    outer = f"<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Outer</w:t></w:r></w:p>{inner}</w:tc><w:tc><w:p><w:r><w:t>Right</w:t></w:r></w:p></w:tc></w:tr></w:tbl>"
    box = "<w:p><w:r><w:t>Note:</w:t></w:r><w:r><mc:AlternateContent xmlns:mc=\"http://schemas.openxmlformats.org/markup-compatibility/2006\">"
    box += "<mc:Choice><w:drawing><w:txbxContent><w:p><w:r><w:t>Call Dr. Lee</w:t></w:r></w:p></w:txbxContent></w:drawing></mc:Choice>"
    box += "<mc:Fallback><w:pict><w:txbxContent><w:p><w:r><w:t>Call Dr. Lee</w:t></w:r></w:p></w:txbxContent></w:pict></mc:Fallback>"
    box += "</mc:AlternateContent></w:r></w:p>"
    assert read("t.docx", docx_bytes([], body_xml=outer + box)).text == "Outer Inner  |  Right\nNote:\nCall Dr. Lee"


def test_comments_are_no_part_of_an_opendocument_text_or_cell():
    comment = (
        '<office:annotation><dc:creator xmlns:dc="http://purl.org/dc/elements/1.1/">Bob</dc:creator>'
        "<text:p>check this figure</text:p></office:annotation>"
    )
    assert read("c.odt", odt_bytes(f"<text:p>Rent is {comment}1200 a month</text:p>")).text == "Rent is 1200 a month"
    cell = f"<table:table-cell>{comment}<text:p>100</text:p></table:table-cell>"
    sheet = f'<table:table table:name="B"><table:table-row><table:table-cell><text:p>Budget</text:p></table:table-cell>{cell}</table:table-row></table:table>'
    assert read("c.ods", odt_bytes(sheet, kind="spreadsheet")).text == "## B\nBudget  |  100"


def test_an_opendocument_spreadsheet_repeats_rows_and_reads_dates_as_dates():
    cell = lambda value, extra="": f"<table:table-cell{extra}><text:p>{value}</text:p></table:table-cell>"  # noqa: E731
    body = (
        '<table:table table:name="Chores">'
        f"<table:table-row>{cell('Chore')}{cell('Who')}{cell('Since')}</table:table-row>"
        f'<table:table-row table:number-rows-repeated="2">{cell("Dishes")}{cell("Sam")}'
        f"""{cell('03/02/26', ' office:value-type="date" office:date-value="2026-03-02"')}</table:table-row>"""
        '<table:table-row table:number-rows-repeated="1048000"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
        "</table:table>"
    )
    doc = read("chores.ods", odt_bytes(body, kind="spreadsheet"))
    dishes = "Chore: Dishes; Who: Sam; Since: 2026-03-02"
    assert doc.text == f"## Chores\nChore  |  Who  |  Since\n{dishes}\n{dishes}"  # the million empty rows: none


def test_a_bank_statement_in_csv_reads_as_a_sheet_named_after_its_file():
    data = (
        "Date,Description,Amount,Balance\r\n"
        '2026-03-02,"BRIGHTWAVE FIBER, AUTOPAY",-65.00,1234.56\r\n'
        "2026-03-05,PAYROLL,2100.00,3334.56\r\n"
    ).encode("utf-8-sig")
    doc = read("checking-2026-03.csv", data)
    assert doc.title == "checking-2026-03" and doc.kind == "office"
    assert doc.text == (
        "## checking-2026-03\nDate  |  Description  |  Amount  |  Balance\n"
        "Date: 2026-03-02; Description: BRIGHTWAVE FIBER, AUTOPAY; Amount: -65.00; Balance: 1234.56\n"
        "Date: 2026-03-05; Description: PAYROLL; Amount: 2100.00; Balance: 3334.56"
    )


def test_a_csv_of_excel_on_windows_semicolons_and_its_code_page():
    doc = read("haushalt.csv", "Posten;Betrag\nMiete;1.250,00 €\nStrom;84,50 €\n".encode("cp1252"))
    assert doc.text == "## haushalt\nPosten  |  Betrag\nMiete  |  1.250,00 €\nStrom  |  84,50 €"
    assert read("list.tsv", b"milk\t2\neggs\t12\n").text == "## list\nmilk  |  2\neggs  |  12"
    assert read("unicode.csv", "Küche\t3\n".encode("utf-16")).text == "## unicode\nKüche  |  3"


@pytest.mark.parametrize(
    "name, data, reason",
    [
        ("locked.docx", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(600), "password-protected Office document"),
        ("cut.docx", docx_bytes(["Half a file"])[:300], "not a readable Office or OpenDocument file"),
        ("photos.docx", b"PK\x03\x04" + bytes(26), "not a readable Office or OpenDocument file"),
        ("blank.docx", docx_bytes([]), "no text in the document"),
        ("locked.ods", odt_bytes("<table:table/>", kind="spreadsheet", encrypted=True), "password-protected Office document"),
        ("blank.xlsx", xlsx_bytes({"Sheet1": "", "Sheet2": "<row/>"}), "no text in the document"),
        ("commas.csv", b",,,\n,,\n", "no text in the document"),
        ("huge.csv", b'a,"' + b"x" * 200_000 + b'"\n', "not a readable CSV file"),
    ],
)
def test_a_file_that_cannot_be_read_says_why(name, data, reason):
    with pytest.raises(ExtractError, match=reason):
        read(name, data)


def test_a_zip_without_a_document_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("photo.jpg", b"not a document")
    with pytest.raises(ExtractError, match="a zip archive, not an Office or OpenDocument"):
        read("renamed.docx", buffer.getvalue())


def test_entities_are_refused_and_a_part_inflating_past_the_limit_is_not_read():
    laughs = '<!DOCTYPE w [<!ENTITY a "aaaaaaaaaa">]>'  # the seed of a "billion laughs"
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(docx_bytes(["&a;"]))) as source, zipfile.ZipFile(buffer, "w") as archive:
        for info in source.infolist():
            part = source.read(info)
            if info.filename == "word/document.xml":
                part = part.replace(b"?>", f"?>{laughs}".encode(), 1)
            archive.writestr(info, part)
    with pytest.raises(ExtractError, match="declares a DTD"):
        read("entities.docx", buffer.getvalue())
    bomb = docx_bytes(["zero " * 400_000])  # 2 MB of text in a few kB
    small = dataclasses.replace(LIMITS, max_stream_mb=1)
    assert len(bomb) < 50_000
    with pytest.raises(ExtractError, match=r"word/document.xml inflates past 1 MB \(limits.max_stream_mb\)"):
        read("bomb.docx", bomb, small)


def mail_with_form(paragraphs: list[str]) -> bytes:
    """A school's message with a Word form attached, the form undated (its message dates it)."""
    message = EmailMessage()
    message["From"], message["To"] = "office@school.example", "parents@example.org"
    message["Subject"], message["Date"] = "Field trip form", "Mon, 02 Mar 2026 08:00:00 -0500"
    message.set_content("The form is attached; please return it by Friday.")
    message.add_attachment(
        docx_bytes(paragraphs, modified=None, created=None), filename="permission-slip.docx",
        maintype="application", subtype="vnd.openxmlformats-officedocument.wordprocessingml.document",
    )  # fmt: skip
    return message.as_bytes()


def test_a_word_attachment_is_a_document_of_its_message():
    data = mail_with_form(["Field trip permission", "Cost: $12, due March 6."])
    results = list(extract_item(Item(Path("/mail/trip.eml"), "trip.eml", data=data), LIMITS))
    assert not [r for r in results if isinstance(r, Failure)]
    attachment = next(r for r in results if r.kind == "office")
    assert (attachment.path, attachment.locator) == ("/mail/trip.eml", "permission-slip.docx")
    assert "Cost: $12, due March 6." in attachment.text


def test_word_and_opendocument_attachments_of_a_real_message_say_what_its_pdf_says():
    """A message of the shared corpus carries one text as .docx, .odt and .pdf, each written by
    its own program: the three read alike."""
    path = CORPORA / "mail" / "php-mime-mail-parser" / "issue274.eml"
    if not path.is_file():
        pytest.skip(f"shared corpora not found at {CORPORA}")
    results = list(extract_item(Item(path, path.name), LIMITS))
    assert not [r for r in results if isinstance(r, Failure)]
    said = {r.locator: " ".join(r.text.split()) for r in results if r.locator and r.locator.startswith("Hello from")}
    assert said.keys() == {f"Hello from SwiftMailer.{suffix}" for suffix in ("docx", "odt", "pdf")}
    assert len(set(said.values())) == 1 and "Hello from SwiftMailer" in said["Hello from SwiftMailer.pdf"], said


def test_a_letterhead_in_headers_and_footers_is_read_after_the_body():
    """A contractor's name, phone and licence are often only in the page's header or footer;
    each line once (the first page's header repeats the default one), after the body, so the
    body's first line still titles the letter."""
    data = docx_bytes(["Estimate 2291", "Replace the water heater: $1,240."], margins={
        "header1.xml": ["Dutton Plumbing \u00b7 (555) 013-4477"], "header2.xml": ["Dutton Plumbing \u00b7 (555) 013-4477"],
        "footer1.xml": ["Licence PL-2231 \u00b7 insured"], "footer12.xml": ["Replace the water heater: $1,240."],
    })  # fmt: skip
    doc = read("estimate.docx", data)
    assert doc.text.split("\n") == [
        "Estimate 2291", "Replace the water heater: $1,240.", "Dutton Plumbing \u00b7 (555) 013-4477", "Licence PL-2231 \u00b7 insured",
    ]  # fmt: skip
    assert doc.title == "Estimate 2291"
    page = ('<style:header><text:p>Alder Lane Apartments, 12 Alder Lane</text:p></style:header>'
            '<style:footer-left><text:p>Office hours 9-5</text:p></style:footer-left>')  # fmt: skip
    odt = read("lease.odt", odt_bytes("<text:p>Lease renewal</text:p>", master_page=page))
    assert odt.text.split("\n") == ["Lease renewal", "Alder Lane Apartments, 12 Alder Lane", "Office hours 9-5"]


def test_a_header_or_footer_that_cannot_be_read_loses_only_its_own_lines():
    """Broken, DTD-declaring or oversized headers are passed over; the body and the other parts
    are read. Headers and footers are capped apart, so fifteen headers keep the footer."""
    margins = {f"header{i}.xml": [f"Header {i}"] for i in range(1, 16)}
    margins["footer1.xml"] = ["Licence PL-2231"]
    doc = read("many.docx", docx_bytes(["Estimate 2291"], margins=margins))
    assert doc.text.split("\n") == ["Estimate 2291", *[f"Header {i}" for i in range(1, 7)], "Licence PL-2231"]
    broken = docx_bytes(["Estimate 2291"], margins={"header1.xml": ["<unclosed"], "header2.xml": ["x" * 2**21],
                                                     "footer1.xml": ["Licence PL-2231"]})  # fmt: skip
    assert read("broken.docx", broken).text.split("\n") == ["Estimate 2291", "Licence PL-2231"]
    dtd = odt_bytes("<text:p>Lease renewal</text:p>", master_page='<!DOCTYPE x [<!ENTITY a "b">]>')
    assert read("lease.odt", dtd).text == "Lease renewal"
