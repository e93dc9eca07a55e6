"""Outlook .msg files: one message saved out of Outlook, read as the mail it is.

A .msg is a Compound File (OLE2) of MAPI properties: subject, sender, recipients, the body in
plain text, HTML or RTF, the transport headers when it was received, and its attachments.
extract-msg reads them and rebuilds the RFC 822 message (its own Date header, else the time
Outlook submitted it), which the email extractor then reads like any other: one document for
the message, and one per attachment brainq reads.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from brainq.config import Limits
from brainq.documents import Document, Failure, Item
from brainq.errors import ExtractError
from brainq.extract import email, office

KIND = email.KIND
# A stream every Outlook message holds; Word and Excel files are Compound Files too.
_MESSAGE_STREAM = "__properties_version1.0".encode("utf-16-le")


def sniff(name: str, head: bytes) -> bool:
    return head.startswith(office.OLE_MAGIC) and (name.lower().endswith(".msg") or _MESSAGE_STREAM in head)


def extract(item: Item, limits: Limits) -> Iterator[Document | Failure]:
    import extract_msg

    logging.getLogger("extract_msg").setLevel(logging.ERROR)  # it logs every unknown property
    try:
        message = extract_msg.openMsg(item.read(), delayAttachments=False)
    except Exception as exc:  # extract-msg raises many types; all mean "not a message we can read"
        raise ExtractError(f"not a readable Outlook message ({type(exc).__name__}: {str(exc)[:80]})") from None
    try:
        if not isinstance(message, extract_msg.Message):
            raise ExtractError(f"an Outlook {type(message).__name__.lower()}, not a message")
        rebuilt = message.asEmailMessage()
        if message.subject:  # the property, unfolded: a folded transport header can gain a space
            del rebuilt["Subject"]
            rebuilt["Subject"] = message.subject
        raw = rebuilt.as_bytes(policy=rebuilt.policy.clone(max_line_length=0))
    except ExtractError:
        raise
    except Exception as exc:
        raise ExtractError(f"cannot rebuild the Outlook message ({type(exc).__name__}: {str(exc)[:80]})") from None
    finally:
        message.close()
    yield from email.extract(Item(item.path, item.name, data=raw, depth=item.depth, allowance=item.allowance), limits)
