"""Web pages: text without markup or scripts, titled and dated by the page's head, in the
charset the page holds; attached to a message or saved on their own."""

from __future__ import annotations

import contextlib
import dataclasses
import time
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest

from brainq.annotate import annotate, classify_doc_type
from brainq.config import load_config
from brainq.documents import Failure, Item
from brainq.errors import ExtractError
from brainq.extract import extract_item, extractor_for, html

CONFIG = load_config()
LIMITS = CONFIG.limits
NOW = datetime(2026, 4, 1, tzinfo=timezone.utc)

ORDER = """<!-- saved from url=(0040)https://shop.example.com/orders/4471 -->
<!DOCTYPE html>
<html><head><meta charset="{charset}">
<title>Order confirmation &amp; receipt \u2013 Hillside Hardware</title>
{meta}
<style>p {{ color: red }}</style><script>var note = "<p>not the page's words</p>";</script>
</head><body>
<h1>Thank you for your order</h1>
<p>Order number: 4471. Paid with Visa ending 1234.</p>
<table><tr><th>Item</th><th>Price</th></tr><tr><td>Furnace filter 16x25x1</td><td>$12.99</td></tr></table>
<p><a href="https://shop.example.com/track">Track your package</a> \u2022 caf\u00e9 hours 8\u20135</p>
</body></html>"""


def page(charset: str = "utf-8", meta: str = "", encoding: str | None = None) -> bytes:
    return ORDER.format(charset=charset, meta=meta).encode(encoding or charset)


def read(data: bytes, name: str = "order.html", limits=LIMITS):
    return list(extract_item(Item(Path(f"/docs/{name}"), name, data=data), limits))


def test_a_saved_page_reads_as_its_words_titled_and_typed():
    (doc,) = read(page(meta='<meta property="article:modified_time" content="2026-03-02T10:15:00-08:00">'))
    assert doc.kind == "html" and doc.title == "Order confirmation & receipt \u2013 Hillside Hardware"
    assert "Order number: 4471" in doc.text and "Furnace filter 16x25x1| $12.99" in doc.text
    assert "Track your package" in doc.text and "https://" not in doc.text  # a link keeps its words
    assert "not the page's words" not in doc.text and "color" not in doc.text
    assert (doc.source_date, doc.date_source, doc.date_precision) == (
        datetime(2026, 3, 2, 10, 15, tzinfo=timezone(timedelta(hours=-8))), "html_meta", "instant",
    )  # fmt: skip
    typed = annotate(doc, CONFIG, mtime=NOW.timestamp(), now=NOW)
    assert typed.doc_type == "receipt"  # "thank you for your order", "order number", "paid"


@pytest.mark.parametrize(
    "charset, encoding",
    [("utf-8", "utf-8"), ("windows-1252", "cp1252"), ("iso-8859-1", "cp1252"), ("ISO-8859-9", "cp1254"),
     ("x-unknown", "utf-8"), ("base64", "utf-8"), ("idna", "utf-8"), ("undefined", "utf-8"), ("utf_16", "utf-8"),
     ("utf-32", "utf-8"), ("cp037", "utf-8"), ("punycode", "utf-8")],
)  # fmt: skip
def test_the_page_is_read_in_the_charset_it_holds(charset, encoding):
    """A declared charset is believed, "iso-8859-1" read as windows-1252 as browsers do (its
    dash and bullet are 0x96 and 0x95); one Python does not know, that is no text encoding or
    does not read ASCII as ASCII (UTF-16 without its mark, EBCDIC) falls back to UTF-8. None
    raises: "idna" and "undefined" did, in the sniff every unclaimed file goes through."""
    (doc,) = read(page(charset, encoding=encoding))
    assert "\u2022 caf\u00e9 hours 8\u20135" in doc.text and "\u2013 Hillside" in doc.title


@pytest.mark.parametrize("bom, codec", [(b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"), (b"\xef\xbb\xbf", "utf-8")])
def test_a_byte_order_mark_decides_the_encoding(bom, codec):
    (doc,) = read(bom + ORDER.format(charset="windows-1252", meta="").encode(codec))
    assert "caf\u00e9 hours" in doc.text


def test_a_page_without_a_declaration_is_utf8_else_windows_1252():
    undeclared = ORDER.replace('<meta charset="{charset}">', "")
    assert "caf\u00e9" in read(undeclared.format(meta="").encode("utf-8"))[0].text
    assert "caf\u00e9" in read(undeclared.format(meta="").encode("cp1252"))[0].text
    # One stray byte does not make a UTF-8 page windows-1252, nor does a replacement character
    # the page itself holds.
    stray = read(undeclared.format(meta="").encode("utf-8").replace(b"Thank", b"\xffThank"))[0]
    assert "caf\u00e9" in stray.text and "\u2013 Hillside" in stray.title
    assert read("<p>Price: \ufffd5 \u2014 caf\u00e9</p>".encode())[0].text.strip() == "Price: \ufffd5 \u2014 caf\u00e9"
    assert "C++ rocks" in read(b'<meta charset="utf-7"><p>C++ rocks</p>')[0].text  # UTF-7 is no page's charset


def test_a_page_cut_mid_character_keeps_its_encoding():
    data = b"<html><head><title>Caf\xc3\xa9 order</title></head><body><p>" + "caf\u00e9 ".encode() * 2000
    limits = dataclasses.replace(LIMITS, max_stream_mb=(len(data) - 1) / 2**20)  # cut inside the last "é"
    (doc,) = read(data, limits=limits)
    assert doc.title == "Caf\u00e9 order" and doc.notes


def test_an_attached_page_is_read_in_the_charset_its_message_declares():
    """MIME's charset outranks the page's own declaration, as HTTP's does for a browser."""
    message = EmailMessage()
    message["From"], message["Subject"] = "yoyaku@ryokan.example", "Booking"
    message.set_content("Attached.")
    page = "<html><body><p>\u3054\u4e88\u7d04\u3042\u308a\u304c\u3068\u3046</p></body></html>".encode("shift_jis")
    message.add_attachment(page, maintype="text", subtype="html", filename="booking.html")
    message.get_payload()[1].set_param("charset", "shift_jis")
    attached = next(r for r in read(message.as_bytes(), name="m.eml") if r.kind == "html")
    assert "\u3054\u4e88\u7d04\u3042\u308a\u304c\u3068\u3046" in attached.text


@pytest.mark.parametrize("sent_as", ["us-ascii", "iso-8859-1", "utf-8"])
def test_a_mislabelled_attachment_is_read_as_what_it_holds(sent_as):
    """Mailers label attachments wrongly: a UTF-8 page sent as "us-ascii" or "iso-8859-1" is
    UTF-8 all the same, and a windows-1252 page sent as "utf-8" (which it does not read as) is
    read by its own declaration."""
    utf8 = "<meta charset='utf-8'><p>Caf\u00e9 cr\u00e8me \u2014 12 \u20ac</p>".encode()
    cp1252 = "<meta charset='windows-1252'><p>Caf\u00e9 cr\u00e8me \u2014 12 \u20ac</p>".encode("cp1252")
    for data in (utf8, cp1252):
        (doc,) = list(extract_item(Item(Path("/m.eml"), "page.html", data=data, charset=sent_as), LIMITS))
        assert doc.text.strip() == "Caf\u00e9 cr\u00e8me \u2014 12 \u20ac"


@pytest.mark.parametrize(
    "meta, expected, precision",
    [
        ('<meta name="date" content="2025-11-03">', datetime(2025, 11, 3), "day"),
        ('<meta itemprop="datePublished" content="2024-06-01T08:00:00Z">'
         '<meta itemprop="dateModified" content="2025-01-15T08:00:00Z">', datetime(2025, 1, 15, 8, tzinfo=timezone.utc), "instant"),
        ('<meta http-equiv="Last-Modified" content="Tue, 15 Nov 2022 12:45:26 GMT">',
         datetime(2022, 11, 15, 12, 45, 26, tzinfo=timezone.utc), "instant"),
        ("<meta name='DC.date' content='not a date'><meta name=dcterms.created content=2023-05-04>", datetime(2023, 5, 4), "day"),
        ('<meta name="date" content="20260302T101500Z">', datetime(2026, 3, 2, 10, 15, tzinfo=timezone.utc), "instant"),
    ],
)  # fmt: skip
def test_the_page_is_dated_by_what_its_head_says_last_change_first(meta, expected, precision):
    (doc,) = read(page(meta=meta))
    assert (doc.source_date, doc.date_precision) == (expected, precision)


def test_a_page_without_a_date_of_its_own_is_dated_as_a_pdf_is():
    """By a date printed in it, else the file's time, flagged."""
    (doc,) = read(page(meta='<meta name="date" content="0001-01-01">'))
    assert doc.source_date is None
    dated = annotate(dataclasses.replace(doc, text="Ordered on March 3, 2026.\n" + doc.text), CONFIG, NOW.timestamp(), NOW)
    assert (dated.source_date.date().isoformat(), dated.date_source) == ("2026-03-03", "text")
    undated = annotate(dataclasses.replace(doc, text="Thanks!"), CONFIG, NOW.timestamp(), NOW)
    assert undated.date_source == "mtime"


def test_the_title_falls_back_to_the_first_heading_then_the_name():
    untitled = b"<html><body><h2>Spring  schedule</h2><p>Practice is at 5 PM.</p></body></html>"
    assert read(untitled)[0].title == "Spring schedule"  # an icon's <svg><title> is not the page's:
    assert read(untitled.replace(b"<h2>", b"<svg><title>Close menu</title></svg><h2>"))[0].title == "Spring schedule"
    # "İ" lower-cased is two characters: the title is found in the page as written.
    assert read("<title>\u0130stanbul \u0130zmir otel</title><p>x</p>".encode())[0].title == "\u0130stanbul \u0130zmir otel"
    unclosed = b"<html><head><title>Never closed<body><p>Words.</p>"
    assert read(unclosed)[0].title  # whatever it says, it has one and the page is read


def test_pages_are_known_by_name_or_by_their_first_markup():
    doctype = b"\n<!-- a comment --><!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\"><html><p>x</p></html>"
    assert extractor_for(Item(Path("a"), "attachment", data=doctype)) is html
    assert extractor_for(Item(Path("a"), "page.xhtml", data=b'<?xml version="1.0"?>\n<html xmlns="x"><p>x</p></html>')) is html
    assert extractor_for(Item(Path("a"), "saved.HTM", data=b"just words, no markup")) is html
    assert extractor_for(Item(Path("a"), "Booking ref. 4471", data=doctype)) is html  # ". 4471" is no suffix
    assert extractor_for(Item(Path("a"), "news.shtml", data=b"<p>x</p>")) is html
    assert extractor_for(Item(Path("a"), "notes.txt", data=b"Remember: <html> is a tag")) is not html
    # Markup opens PHP and template files too: a suffix of another kind is that kind.
    assert extractor_for(Item(Path("a"), "index.php", data=b"<html><?php echo 1; ?></html>")) is None
    assert extractor_for(Item(Path("a"), "notes.txt", data=b'Template: <meta charset="idna">')) is not html
    assert extractor_for(Item(Path("a"), "data.html", data=b"\x00\x01\x02binary")) is None
    mail = b"From: a@example.com\r\nSubject: hi\r\n\r\n<html><p>body</p></html>"
    assert extractor_for(Item(Path("a"), "message.html", data=mail)).KIND == "email"


def test_a_page_with_no_words_is_refused_with_a_reason():
    with pytest.raises(ExtractError, match="no text in the page"):
        read(b"<html><head><title>Empty</title><script>x()</script></head><body> <img src=a.png> </body></html>")


def test_a_huge_page_is_read_to_the_stream_limit_with_a_note():
    limits = dataclasses.replace(LIMITS, max_stream_mb=0.01)
    (doc,) = read(b"<html><body>" + b"<p>word</p>" * 5000 + b"</body></html>", limits=limits)
    assert "page read to its first 0.01 MB" in doc.notes and 0 < doc.text.count("word") < 5000


def test_hostile_heads_cost_no_more_than_their_length():
    """Comments before the markup are matched one by one (a pattern letting each run on to a
    later "-->" tried every split: 22 empty comments took 0.7 s, 40 would take days), and a
    tag is read to the next "<" at most, so unclosed ones are not read again each."""
    start = time.perf_counter()
    assert extractor_for(Item(Path("a"), "attachment", data=b"<!---->" * 500 + b"x")) is None
    hostile = b"<html><head>" + b"<meta charset=" * 30000 + b"<title" * 30000 + b"<meta name=date content=" * 30000
    with contextlib.suppress(ExtractError):  # the converter reads it all as one broken tag
        read(hostile + b"<body><p>x</p>")
    # Python's HTML parser reads an unclosed tag to the page's end, each time (40,000 took
    # nearly 4 minutes); one endless tag made the attribute pattern quadratic.
    read(b"<html><body><p>x</p>" + b"<a " * 40000 + b'<a b="' * 20000 + b'<a b=" ' * 40000)
    read(b"<html><head><meta " + b"a" * 60000 + b"></head><body><p>x</p></body></html>")
    read(b"<p>x</p>" + b"<!--" * 40000 + b"<![if >" * 40000)  # never closed, each read again
    assert time.perf_counter() - start < 10


def test_an_attached_page_is_a_document_of_its_message_and_its_date():
    message = EmailMessage()
    message["From"], message["To"] = "trips@airline.example", "me@example.org"
    message["Subject"], message["Date"] = "Your itinerary", "Mon, 02 Mar 2026 08:00:00 -0500"
    message.set_content("Your itinerary is attached.")
    message.add_attachment(
        b"<html><body><p>Flight 212 departs PDX at 7:40 AM on April 4.</p></body></html>",
        maintype="text", subtype="html", filename="itinerary.html",
    )  # fmt: skip
    # Outlook relays add an ATT00001.htm holding no words: passed over, no failure of its message.
    message.add_attachment(b"<html><body><img src=cid:logo></body></html>", maintype="text", subtype="html",
                           filename="ATT00001.htm")  # fmt: skip
    results = read(message.as_bytes(), name="itinerary.eml")
    assert not [r for r in results if isinstance(r, Failure)]
    assert [r.locator for r in results if r.kind == "html"] == ["itinerary.html"]
    attached = next(r for r in results if r.kind == "html")
    assert attached.locator == "itinerary.html" and "departs PDX at 7:40 AM" in attached.text
    assert (attached.date_source, attached.source_date.isoformat()) == ("email", "2026-03-02T08:00:00-05:00")


def test_a_marked_section_the_parser_does_not_know_loses_no_words():
    """Python's HTML parser raises on "<![CTADA[" (a typo, or a fragment cut there); the page,
    and a mail whose body is such HTML, is read with it as text."""
    (doc,) = read(b"<html><body><p>Pickup is at 3 PM.</p><![CTADA[ <p>Bring a coat.</p></body></html>")
    assert "Pickup is at 3 PM." in doc.text and "Bring a coat." in doc.text
    mail = b"From: a@example.com\r\nSubject: hi\r\nContent-Type: text/html\r\n\r\n<p>Pickup is at 3 PM.</p><![if x]><![CTADA["
    (message,) = read(mail, name="m.eml")
    assert "Pickup is at 3 PM." in message.text and "<![if" not in message.text  # a known section is no text


def test_markup_is_read_as_the_parser_reads_it_where_it_can():
    """A quoted value may hold "<" and ">": the page is left to the parser, which reads it."""
    (doc,) = read(b'<p><a href="https://x.example/?q=<b>">Link text</a></p><button onclick="if(a<b)go()">Press me</button><p>after</p>')
    assert doc.text.split() == ["Link", "text", "Press", "me", "after"]


def test_a_character_reference_too_long_for_python_is_a_replacement_character():
    """Python refuses to read an integer of thousands of digits (ValueError), in the parser
    and in html.unescape: in a page, its title and an HTML mail body alike."""
    huge = b"&#" + b"9" * 5000 + b";"
    (doc,) = read(b"<html><head><title>a " + huge + b"</title></head><body><p>a " + huge + b" b</p></body></html>")
    assert doc.text.split() == ["a", "\ufffd", "b"] and doc.title == "a \ufffd"
    mail = b"From: a@example.com\r\nSubject: hi\r\nContent-Type: text/html\r\n\r\n<p>a " + huge + b" b</p>"
    assert read(mail, name="m.eml")[0].text.endswith("a \ufffd b")


def test_markup_the_converter_asserts_on_is_read_without_its_layout():
    """html2text asserts that "<ol start>" has a number; the page's words are kept all the same."""
    (doc,) = read(b"<html><head><style>td{color:red}</style></head><body><ol start><li>Pay the plumber</li></ol>"
                  b"<script>var secret = 1;</script></body></html>")  # fmt: skip
    assert doc.text.split() == ["Pay", "the", "plumber"]


def test_a_page_saved_as_one_file_is_read_as_the_message_it_is():
    """Chrome's and Edge's .mhtml: MIME, the page its HTML root, dated when it was saved."""
    mhtml = (
        b"From: <Saved by Blink>\r\nSnapshot-Content-Location: https://school.example.org/news\r\n"
        b"Subject: Spring schedule\r\nDate: Fri, 27 Nov 2026 09:00:00 -0000\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/related; type="text/html"; boundary="B"\r\n\r\n--B\r\n'
        b"Content-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
        b"<html><head><title>Spring</title></head><body><p>Friday is a half day; dismissal at 11:50.</p></body></html>\r\n"
        b"--B\r\nContent-Type: image/png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n--B--\r\n"
    )  # fmt: skip
    (doc,) = read(mhtml, name="news.mhtml")
    assert "Friday is a half day; dismissal at 11:50." in doc.text and "<p>" not in doc.text
    assert (doc.title, doc.source_date.isoformat()) == ("Spring schedule", "2026-11-27T09:00:00+00:00")
    # A page, not a message: typed as a page is, with no sender and no thread.
    assert (doc.kind, doc.sender, doc.thread) == ("html", None, None)
    assert classify_doc_type(doc, load_config().doc_types) == "static_pdf"
