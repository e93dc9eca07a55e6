"""Document types from the cues of patterns.yaml, and dates the file itself cannot give."""

from datetime import datetime, timedelta, timezone

import pytest


@pytest.mark.parametrize(
    "text, doc_type",
    [
        ("Statement date: 3 May 2025\nBilling period: May 1 - May 31\nPhone plan $49.99\nTotal due May 20 $49.99", "invoice"),
        ("INVOICE 4471\nInvoice date: June 2, 2025\nLabor $120.00\nTotal $120.00", "invoice"),
        ("Amount due: $80.00\nDue date: July 1", "invoice"),
        ("Bill date: March 5, 2026\nWater base charge $22.40\nTotal due by March 26, 2026 $88.15", "invoice"),
        ("Your statement is ready.\nSign in to your account to read it.", "static_pdf"),
        ("Annual report of the garden club.\nWe planted forty trees this year.", "static_pdf"),
        # one place where two cues meet is one cue: a trip's payment due by a day is no bill
        ("Permission slip for the zoo trip.\nThe $12 payment due by March 3 goes to the office.", "static_pdf"),
        # receipt as receiving: a contract's terms, no receipt
        ("Payment is made one day following the receipt of payments.\nThe supplier shall be paid monthly.", "static_pdf"),
        ("Receipt\nOrder number: 5521\nTotal paid $42.00", "receipt"),
        ("RECEIPT OF PAYMENT\nReceived from: J. Smith\nPaid by check", "receipt"),
        ("Invoice #1043\nTerms: Due on receipt\nAmount due: $300.00\nPayments made by card are paid online.", "invoice"),
        # a till's receipt: its SUBTOTAL and the card it was paid with; an invoice's "Subtotal" is none
        ("HOME DEPOT #0612\nPVC PIPE 10FT $12.48\nSUBTOTAL $21.45\nTAX $1.50\nTOTAL $22.95\nVISA****4421", "receipt"),
        ("Invoice #: 24-0933\nInvoice Date: October 15, 2024\nSubtotal $183.00\nPaid by card on 10/15/2024", "invoice"),
        ("INVOICE #1043\nSUBTOTAL $100.00\nAMOUNT DUE $108.00\nDue date: May 1\nCard on file: VISA ****4421 will be charged", "invoice"),
        # a manual by its title and its first lines
        ("Dishwasher Use and Care Manual\nRead all instructions before use.\nLoading the racks", "manual"),
    ],
)
def test_a_bill_is_known_by_the_words_bills_print(text, doc_type):
    from brainq.annotate import classify_doc_type
    from brainq.config import load_config
    from brainq.documents import Document

    doc = Document(path="bill.pdf", locator=None, kind="pdf", title="", text=text)
    assert classify_doc_type(doc, load_config().doc_types) == doc_type


@pytest.mark.parametrize(
    "headers, doc_type",
    [
        ({"List-Id": "<pta.lists.example.org>"}, "newsletter"),  # the list's own mailing
        ({"List-Id": "<pta.lists.example.org>", "In-Reply-To": "<a@example.org>"}, "email"),  # a member's reply
        ({"Precedence": "list", "References": "<a@example.org>"}, "email"),
        # a bulk sender's marks stand, replies or not (mass mailers set References too)
        ({"Precedence": "bulk", "References": "<a@example.org>"}, "newsletter"),
        ({"X-Mailer": "MailChimp Mailer", "References": "<a@example.org>"}, "newsletter"),
        ({}, "email"),
    ],
)
def test_a_reply_on_a_mailing_list_is_a_conversation_not_a_newsletter(headers, doc_type):
    from brainq.annotate import classify_doc_type
    from brainq.config import load_config
    from brainq.documents import Document

    doc = Document(path="m.eml", locator=None, kind="email", title="Re: bake sale", text="I can bring two trays.", headers=headers)
    assert classify_doc_type(doc, load_config().doc_types) == doc_type


def test_a_reply_that_reads_like_a_newsletter_is_one():
    from brainq.annotate import classify_doc_type
    from brainq.config import load_config
    from brainq.documents import Document

    text = "Our spring newsletter is here. View this in your browser. Unsubscribe at any time."
    doc = Document(path="m.eml", locator=None, kind="email", title="Spring news", text=text,
                   headers={"List-Id": "<news.example.org>", "References": "<a@example.org>"})
    assert classify_doc_type(doc, load_config().doc_types) == "newsletter"


@pytest.mark.parametrize(
    "kind, text, when, expected, source",
    [
        # a broken clock's year: the date printed in the text, else the file's time
        ("pdf", "Invoice date: March 5, 2026\nTotal $88.15", datetime(2099, 1, 1, tzinfo=timezone.utc), "2026-03-05", "text"),
        ("pdf", "No date here.", datetime(3609, 6, 30, tzinfo=timezone.utc), "2025-01-02", "mtime"),
        ("pdf", "Invoice date: March 5, 2099", datetime(2099, 3, 5, tzinfo=timezone.utc), "2025-01-02", "mtime"),
        ("photo", "", datetime(2099, 9, 29, 10, 10, 10), None, "none"),  # EXIF: naive local time
        ("photo", "Photo x.jpg taken 2099-09-29 10:10.", datetime(2099, 9, 29, 10, 10, 10), None, "none"),
        ("pdf#attachment", "No date here.", datetime(2099, 1, 1, tzinfo=timezone.utc), None, "none"),  # not its mbox's time
        ("email", "Hello.", datetime(9999, 12, 31, tzinfo=timezone.utc), None, "none"),
        # tomorrow in a zone ahead of the reader's is no future
        ("email", "Hello.", datetime.now(timezone(timedelta(hours=14))) + timedelta(hours=10), "kept", "header"),
    ],
)
def test_a_date_in_the_future_is_not_used(kind, text, when, expected, source):
    from brainq.annotate import annotate
    from brainq.config import load_config
    from brainq.documents import Document

    kind, _, locator = kind.partition("#")
    doc = Document(path="x", locator=locator or None, kind=kind, title="", text=text, source_date=when, date_source="header")
    annotate(doc, load_config(), datetime(2025, 1, 2, 12, tzinfo=timezone.utc).timestamp(), datetime.now(timezone.utc))
    if expected == "kept":
        assert (doc.source_date, doc.date_source, doc.notes) == (when, "header", [])
        return
    assert doc.date_source == source
    assert (doc.source_date.date().isoformat() if doc.source_date else None) == expected
    assert (doc.date_precision is None) == (doc.source_date is None)
    assert any("lies in the future; not used" in note for note in doc.notes)
    assert when.date() not in doc.event_dates  # nor a day it is about, where its text prints it



@pytest.mark.parametrize(
    "text, expected, source",
    [
        ("Bill date: January 9, 2025\nPay by February 1, 2025\nAmount due $41.20", "2025-01-09", "text"),
        # a date after the scan is a due date or an event's: the scan's date stays
        ("Please pay by December 20, 2026\nAmount due $41.20", "2026-11-29", "scan"),
        ("Amount due $41.20", "2026-11-29", "scan"),
    ],
)
def test_a_scan_is_dated_by_the_date_printed_on_it_before_the_scan(text, expected, source):
    """A 2025 bill scanned today is no news: the scanner's date says when it was scanned."""
    from brainq.annotate import annotate
    from brainq.config import load_config
    from brainq.documents import Document

    scanned = datetime(2026, 11, 29, 9, 30, tzinfo=timezone.utc)
    doc = Document(path="x.pdf", locator=None, kind="pdf", title="", text=text, source_date=scanned, date_source="scan")
    annotate(doc, load_config(), scanned.timestamp(), datetime(2026, 11, 30, tzinfo=timezone.utc))
    assert (doc.source_date.date().isoformat(), doc.date_source) == (expected, source)


def test_a_note_dated_in_the_future_says_so():
    """Not "no date in the file itself": it has one, left unused."""
    from brainq.annotate import annotate
    from brainq.config import load_config
    from brainq.documents import Document

    doc = Document(path="x.txt", locator=None, kind="text", title="", text="Date: 2099-01-01\nPassport renewal.")
    annotate(doc, load_config(), datetime(2025, 1, 2, 12, tzinfo=timezone.utc).timestamp(), datetime.now(timezone.utc))
    assert (doc.date_source, doc.source_date.date().isoformat()) == ("mtime", "2025-01-02")
    assert doc.notes == ["its date (2099-01-01) lies in the future; not used", "dated by its modification time"]
