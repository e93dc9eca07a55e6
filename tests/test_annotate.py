"""Document types from the cues of patterns.yaml."""

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
    ],
)
def test_a_bill_is_known_by_the_words_bills_print(text, doc_type):
    from brainq.annotate import classify_doc_type
    from brainq.config import load_config
    from brainq.documents import Document

    doc = Document(path="bill.pdf", locator=None, kind="pdf", title="", text=text)
    assert classify_doc_type(doc, load_config().doc_types) == doc_type
