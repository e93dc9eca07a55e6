#!/usr/bin/env python3
"""Rebuild the Whitaker household sample corpus in this folder.

    python corpus_samples/generate.py

Every file comes from the tables below, with fixed dates and fixed file times, so a re-run
writes byte-identical files. Only the files listed in these tables are written; nothing else
in the folder is touched. Needs the standard library and Pillow (for the JPEG EXIF).
"""

from __future__ import annotations

import io
import os
import textwrap
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from PIL import Image, ImageDraw
from PIL.TiffImagePlugin import IFDRational

HERE = Path(__file__).resolve().parent
# The household's files; this folder also holds the questions and README, which are not ingested.
OUT = HERE / "household"
NY = ZoneInfo("America/New_York")
TODAY = date(2026, 3, 12)  # the corpus's reference "today": nothing is written after it


def at(stamp: str) -> datetime:
    """'2026-03-11 13:42' in the household's time zone (EST or EDT as the date requires)."""
    return datetime.strptime(stamp, "%Y-%m-%d %H:%M").replace(tzinfo=NY)


def dedent(block: str) -> str:
    return textwrap.dedent(block).strip("\n") + "\n"


# --------------------------------------------------------------------------------------------
# Writers
# --------------------------------------------------------------------------------------------

WRITTEN: list[Path] = []


def write(rel: str, data: bytes, when: datetime) -> None:
    """Write one corpus file and give it the time of the document as its mtime."""
    assert when.date() <= TODAY, f"{rel} is dated after the corpus's today"
    path = OUT / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    stamp = when.timestamp()
    os.utime(path, (stamp, stamp))
    WRITTEN.append(path)


# PDF: a minimal PDF 1.4 writer. Helvetica with WinAnsiEncoding, one text line per row;
# a line starting with "# " is set in Helvetica-Bold as a heading; "\f" starts a new page.

PAGE_W, PAGE_H, MARGIN = 612, 792, 56
LINES_PER_PAGE = 50
WRAP = 92


def pdf_date(when: datetime) -> str:
    off = when.utcoffset()
    minutes = int(off.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    hh, mm = divmod(abs(minutes), 60)
    return when.strftime("D:%Y%m%d%H%M%S") + f"{sign}{hh:02d}'{mm:02d}'"


def pdf_literal(raw: bytes) -> bytes:
    return b"(" + raw.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)") + b")"


def pdf_info_string(value: str) -> bytes:
    if value.isascii():
        return pdf_literal(value.encode("ascii"))
    return b"<" + ("\ufeff" + value).encode("utf-16-be").hex().upper().encode() + b">"


def layout(body: str) -> list[list[str]]:
    """Split a document's text into pages of wrapped lines."""
    pages: list[list[str]] = []
    for block in body.split("\f"):
        lines: list[str] = []
        for line in block.strip("\n").split("\n"):
            indent = len(line) - len(line.lstrip(" "))
            wrapped = textwrap.wrap(line, WRAP, subsequent_indent=" " * (indent + 2)) or [""]
            lines.extend(wrapped)
        for start in range(0, len(lines), LINES_PER_PAGE):
            pages.append(lines[start:start + LINES_PER_PAGE])
    return pages


def pdf(body: str, *, title: str | None = None, created: datetime | None = None,
        author: str | None = None, creator: str | None = None) -> bytes:
    """A small text PDF; the Info dictionary holds only the fields given."""
    objects: list[bytes] = []

    def add(obj: bytes) -> int:
        objects.append(obj)
        return len(objects)

    catalog = add(b"")  # filled in once the page tree exists
    pages_id = add(b"")
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>"
    regular = add(font % b"Helvetica")
    bold = add(font % b"Helvetica-Bold")
    kids = []
    for lines in layout(body):
        ops = []
        y = PAGE_H - MARGIN
        for line in lines:
            if line.startswith("# "):
                font, size, text = b"/F2", 13, line[2:]
                y -= 4
            else:
                font, size, text = b"/F1", 10, line
            if text.strip():
                ops.append(b"BT %s %d Tf %d %d Td %s Tj ET" % (
                    font, size, MARGIN, y, pdf_literal(text.encode("cp1252"))))
            y -= size + 4
        stream = b"\n".join(ops)
        content = add(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        kids.append(add(
            b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %d %d] "
            b"/Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> >> /Contents %d 0 R >>"
            % (pages_id, PAGE_W, PAGE_H, regular, bold, content)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    objects[pages_id - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    info_fields = [(b"Title", title), (b"Author", author), (b"Creator", creator)]
    info = [b"/%s %s" % (key, pdf_info_string(val)) for key, val in info_fields if val]
    if created:
        info.append(b"/CreationDate " + pdf_literal(pdf_date(created).encode()))
        info.append(b"/ModDate " + pdf_literal(pdf_date(created).encode()))
    info_id = add(b"<< " + b" ".join(info) + b" >>") if info else None

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, obj in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, obj)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    trailer = b"/Size %d /Root %d 0 R" % (len(objects) + 1, catalog)
    if info_id:
        trailer += b" /Info %d 0 R" % info_id
    out += b"trailer\n<< %s >>\nstartxref\n%d\n%%%%EOF\n" % (trailer, xref)
    return bytes(out)


# JPEG: a 64x48 picture (a sky, a ground and a shape) with EXIF tags written by Pillow.

def dms(value: float) -> tuple[IFDRational, IFDRational, IFDRational]:
    value = abs(value)
    degrees = int(value)
    minutes = int((value - degrees) * 60)
    seconds = round((value - degrees - minutes / 60) * 3600, 2)
    return IFDRational(degrees, 1), IFDRational(minutes, 1), IFDRational(int(seconds * 100), 100)


def jpeg(photo: Photo) -> bytes:
    img = Image.new("RGB", (64, 48), photo.sky)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 30, 63, 47), fill=photo.ground)
    draw.rectangle((22, 14, 42, 34), fill=photo.subject)
    exif = Image.Exif()
    stamp = photo.taken.strftime("%Y:%m:%d %H:%M:%S")
    offset = photo.taken.strftime("%z")
    offset = offset[:3] + ":" + offset[3:]
    exif[0x010E] = photo.description  # ImageDescription
    exif[0x010F] = photo.make
    exif[0x0110] = photo.model
    exif[0x0131] = photo.software
    exif[0x0132] = stamp  # DateTime
    sub = exif.get_ifd(0x8769)  # Exif IFD
    sub[0x9003] = stamp  # DateTimeOriginal
    sub[0x9004] = stamp  # DateTimeDigitized
    sub[0x9010] = offset  # OffsetTime
    sub[0x9011] = offset  # OffsetTimeOriginal
    if photo.gps:
        lat, lon = photo.gps
        gps = exif.get_ifd(0x8825)
        gps[1] = "N" if lat >= 0 else "S"
        gps[2] = dms(lat)
        gps[3] = "E" if lon >= 0 else "W"
        gps[4] = dms(lon)
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=85, exif=exif.tobytes())
    return buf.getvalue()


# iCalendar: lines folded at 75 octets and joined with CRLF (RFC 5545, 3.1).

VTIMEZONE = [
    "BEGIN:VTIMEZONE", "TZID:America/New_York",
    "BEGIN:DAYLIGHT", "TZOFFSETFROM:-0500", "TZOFFSETTO:-0400", "TZNAME:EDT",
    "DTSTART:19700308T020000", "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU", "END:DAYLIGHT",
    "BEGIN:STANDARD", "TZOFFSETFROM:-0400", "TZOFFSETTO:-0500", "TZNAME:EST",
    "DTSTART:19701101T020000", "RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU", "END:STANDARD",
    "END:VTIMEZONE",
]


def ics_text(value: str) -> str:
    return value.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def ics_utc(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def fold(line: str) -> list[str]:
    raw = line.encode("utf-8")
    parts, limit = [], 75
    while len(raw) > limit:
        cut = limit
        while (raw[cut] & 0xC0) == 0x80:  # never split a UTF-8 sequence
            cut -= 1
        parts.append(raw[:cut].decode())
        raw = raw[cut:]
        limit = 74  # continuation lines start with a space
    parts.append(raw.decode())
    return [parts[0]] + [" " + p for p in parts[1:]]


def ics(cal: Calendar) -> bytes:
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", f"PRODID:{cal.prodid}", "CALSCALE:GREGORIAN"]
    if cal.method:
        lines.append(f"METHOD:{cal.method}")
    if cal.name:
        lines.append(f"X-WR-CALNAME:{ics_text(cal.name)}")
    lines.append("X-WR-TIMEZONE:America/New_York")
    lines += VTIMEZONE
    for ev in cal.events:
        lines += ["BEGIN:VEVENT", f"UID:{ev.uid}", f"DTSTAMP:{ics_utc(ev.modified)}",
                  f"CREATED:{ics_utc(ev.created or ev.modified)}",
                  f"LAST-MODIFIED:{ics_utc(ev.modified)}"]
        if isinstance(ev.start, datetime):
            lines.append(f"DTSTART;TZID=America/New_York:{ev.start:%Y%m%dT%H%M%S}")
            lines.append(f"DTEND;TZID=America/New_York:{ev.end:%Y%m%dT%H%M%S}")
        else:
            lines.append(f"DTSTART;VALUE=DATE:{ev.start:%Y%m%d}")
            lines.append(f"DTEND;VALUE=DATE:{ev.end:%Y%m%d}")
        if ev.rrule:
            lines.append(f"RRULE:{ev.rrule}")
        lines.append(f"SUMMARY:{ics_text(ev.summary)}")
        if ev.location:
            lines.append(f"LOCATION:{ics_text(ev.location)}")
        if ev.description:
            lines.append(f"DESCRIPTION:{ics_text(ev.description)}")
        if ev.organizer:
            lines.append(f"ORGANIZER;CN={ev.organizer[0]}:mailto:{ev.organizer[1]}")
        for name, addr in ev.attendees:
            lines.append(f"ATTENDEE;CN={name};ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION:mailto:{addr}")
        lines += [f"STATUS:{ev.status}", f"SEQUENCE:{ev.sequence}", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "\r\n".join(folded for line in lines for folded in fold(line)).encode() + b"\r\n"


# Email: built with the standard library; MIME boundaries are fixed so output is stable.

MAIL_POLICY = policy.default.clone(linesep="\n")
MAIL_WIDTH = 72


def reflow(body: str) -> str:
    """Re-wrap hard-wrapped prose to MAIL_WIDTH columns, as a mail client would send it.

    A line continues the previous one only when the previous one was long (hard-wrapped), so
    signatures, addresses and short lines stay as written; tables and indented lines are kept.
    """
    out: list[str] = []
    group: list[str] = []
    lead = ""  # prefix of the group's first line ("- " or "> ")

    def flush() -> None:
        nonlocal group
        if group:
            prefix = "> " if lead == "> " else ""
            rest = "  " if lead == "- " else prefix
            out.extend(textwrap.wrap(" ".join(group), MAIL_WIDTH, initial_indent=prefix,
                                     subsequent_indent=rest))
            group = []

    lines = body.split("\n")
    for number, line in enumerate(lines):
        if line == "-- " or set(line.strip()) == {"_"}:  # footer rule: keep the rest
            flush()
            out.extend(lines[number:])
            break
        bare = line[2:] if line.startswith("> ") else line
        is_quote = line.startswith("> ")
        verbatim = (not bare.strip() or bare.startswith("    ") or "   " in bare.strip()
                    or bare.endswith("wrote:"))
        continues = (group and not verbatim and len(previous) >= 60
                     and (is_quote == (lead == "> "))
                     and not bare.startswith("- ")
                     and (lead != "- " or bare.startswith("  ")))
        if continues:
            group.append(bare.strip())
        else:
            flush()
            if verbatim:
                out.append(line)
            else:
                lead = "> " if is_quote else "- " if bare.startswith("- ") else ""
                group = [bare.strip() if lead != "- " else bare]
        previous = line
    flush()
    return "\n".join(out)


def email_message(mail: Mail) -> EmailMessage:
    msg = EmailMessage(policy=MAIL_POLICY)
    msg["From"] = mail.sender
    msg["To"] = mail.to
    if mail.cc:
        msg["Cc"] = mail.cc
    msg["Subject"] = mail.subject
    msg["Date"] = format_datetime(mail.date)
    msg["Message-ID"] = f"<{mail.msgid}>"
    if mail.in_reply_to:
        msg["In-Reply-To"] = f"<{mail.in_reply_to}>"
        msg["References"] = " ".join(f"<{ref}>" for ref in mail.references)
    for name, value in mail.extra_headers:
        msg[name] = value
    msg.set_content(reflow(mail.body))
    if mail.html:
        msg.add_alternative(mail.html, subtype="html")
    for name, content_type, data in mail.attachments:
        maintype, subtype = content_type.split("/")
        if maintype == "text":
            msg.add_attachment(data.decode(), subtype=subtype, filename=name,
                               params={"method": "REQUEST"} if subtype == "calendar" else {})
        else:
            msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    for number, part in enumerate(msg.walk()):
        if part.is_multipart():
            part.set_boundary(f"=_part{number}_{mail.msgid.split('@')[0]}")
    return msg


def maildir_name(mail: Mail, number: int) -> str:
    """Maildir file name: time.M<n>P<n>.host, plus ':2,S' (seen) for messages in cur/."""
    name = f"{int(mail.date.timestamp())}.M{number}P{number}.host"
    return name + ":2,S" if mail.folder == "cur" else name


def mbox_from_line(mail: Mail) -> bytes:
    addr = mail.sender.split("<")[-1].rstrip(">")
    when = mail.date.astimezone(timezone.utc).strftime("%a %b %d %H:%M:%S %Y")
    return f"From {addr} {when}\n".encode()


def mbox_escape(raw: bytes) -> bytes:
    lines = raw.split(b"\n")
    return b"\n".join(b">" + ln if ln.startswith(b"From ") else ln for ln in lines)


# --------------------------------------------------------------------------------------------
# Records
# --------------------------------------------------------------------------------------------

@dataclass
class Pdf:
    path: str  # relative to corpus_samples/, or the attachment's file name
    date: datetime  # when it was written; the file's mtime
    body: str
    title: str | None = None
    created: bool = True  # write /CreationDate; if False, the date is only printed in the text
    author: str | None = None
    creator: str | None = None

    def render(self) -> bytes:
        return pdf(self.body, title=self.title, author=self.author, creator=self.creator,
                   created=self.date if self.created else None)


@dataclass
class Event:
    uid: str
    summary: str
    start: datetime | date
    end: datetime | date
    modified: datetime  # DTSTAMP and LAST-MODIFIED: when the entry was last written
    created: datetime | None = None
    location: str = ""
    description: str = ""
    rrule: str = ""
    status: str = "CONFIRMED"
    sequence: int = 0
    organizer: tuple[str, str] | None = None
    attendees: tuple[tuple[str, str], ...] = ()


@dataclass
class Calendar:
    path: str
    prodid: str
    events: list[Event]
    name: str = ""
    method: str = ""

    @property
    def date(self) -> datetime:
        return max(ev.modified for ev in self.events)


@dataclass
class Mail:
    folder: str  # "cur" or "new" (Maildir), "eml" (a file in mail/), or "mbox"
    date: datetime
    sender: str
    to: str
    subject: str
    msgid: str
    body: str
    cc: str = ""
    eml: str = ""  # file name, for folder "eml"
    in_reply_to: str = ""
    references: tuple[str, ...] = ()
    extra_headers: tuple[tuple[str, str], ...] = ()
    html: str = ""
    attachments: list[tuple[str, str, bytes]] = field(default_factory=list)


@dataclass
class Photo:
    path: str
    taken: datetime
    description: str
    make: str
    model: str
    software: str
    sky: tuple[int, int, int]
    ground: tuple[int, int, int]
    subject: tuple[int, int, int]
    gps: tuple[float, float] | None = None


@dataclass
class Note:
    path: str
    date: datetime
    body: str


# --------------------------------------------------------------------------------------------
# The household: Tom and Priya Whitaker, Harper (9, fourth grade) and Leo (6, first grade),
# Maggie the golden retriever, at 214 Alder Lane, Westbrook, NY.
# --------------------------------------------------------------------------------------------

PRIYA = "Priya Whitaker <priya@whitakerfamily.net>"
TOM = "Tom Whitaker <tom@whitakerfamily.net>"
BOTH = f"{PRIYA}, {TOM}"
PRINCIPAL = "Dr. Denise Okafor <dokafor@birchwood.westbrookcsd.org>"
PATEL = "Daniel Patel <dpatel@birchwood.westbrookcsd.org>"
COACH = "Coach Mike Delgado <mdelgado@westbrooksoccer.org>"
THUNDER = "U8 Thunder families <u8thunder@westbrooksoccer.org>"
FAMILIES = "Birchwood Families <families@birchwood.westbrookcsd.org>"
ROOM14 = "Room 14 Families <room14@birchwood.westbrookcsd.org>"

PRINCIPAL_SIGNATURE = """
Dr. Denise Okafor
Principal, Birchwood Elementary School
Westbrook Central School District
40 Birchwood Avenue, Westbrook, NY 12590 | (555) 010-2200
"""

# ---- PDFs ----------------------------------------------------------------------------------

CALENDAR_2025_26 = Pdf(
    "documents/birchwood-calendar-2025-2026.pdf", at("2025-08-04 09:30"),
    title="Birchwood Elementary School Calendar 2025-2026", author="Westbrook Central School District",
    creator="Microsoft Word", body=dedent("""
    # Birchwood Elementary School - 2025-2026 School Calendar
    Westbrook Central School District | 40 Birchwood Avenue, Westbrook, NY 12590 | (555) 010-2200
    School hours: 8:35 AM - 3:05 PM. Early dismissal days end at 12:30 PM.

    # Fall
    Mon, Sept 1 ........ Labor Day - district offices closed
    Wed, Sept 3 ........ First day of school for students (grades K-5)
    Thu, Sept 18 ....... Picture Day
    Fri, Oct 10 ........ Early dismissal 12:30 PM - staff professional development
    Mon, Oct 13 ........ No school - Indigenous Peoples' Day
    Tue, Nov 4 ......... No school - Election Day
    Tue, Nov 11 ........ No school - Veterans Day
    Wed, Nov 26 ........ Early dismissal 12:30 PM
    Thu-Fri, Nov 27-28 . No school - Thanksgiving recess
    Fri, Dec 19 ........ Early dismissal 12:30 PM
    Dec 22 - Jan 2 ..... No school - Winter recess (classes resume Monday, January 5)

    # Winter and spring
    Mon, Jan 19 ........ No school - Dr. Martin Luther King Jr. Day
    Feb 16 - Feb 20 .... No school - Mid-winter recess
    Fri, Mar 13 ........ Half day: early dismissal 12:30 PM - end of Trimester 2, staff development
    Fri, Apr 3 ......... No school - Good Friday
    Apr 6 - Apr 10 ..... No school - Spring recess
    Mon, May 25 ........ No school - Memorial Day
    Wed, June 17 ....... Last day for students - early dismissal 12:30 PM

    # Trimesters
    Trimester 1: September 3 - December 5. Trimester 2: December 8 - March 13.
    Trimester 3: March 16 - June 17. Report cards go home one week after each trimester ends.

    # Emergency closings
    Three emergency closing days are built into this calendar. Instructional time lost to
    emergency closings may be made up by converting a scheduled early dismissal day to a full day;
    families will be notified by email and phone. Closings are announced by 6:00 AM on the
    district website, by text message, and on local radio.

    Approved by the Board of Education, July 15, 2025.
    """))

CALENDAR_2024_25 = Pdf(
    "documents/birchwood-calendar-2024-2025.pdf", at("2024-08-06 10:15"),
    title="Birchwood Elementary School Calendar 2024-2025", author="Westbrook Central School District",
    creator="Microsoft Word", body=dedent("""
    # Birchwood Elementary School - 2024-2025 School Calendar
    Westbrook Central School District | 40 Birchwood Avenue, Westbrook, NY 12590 | (555) 010-2200
    School hours: 8:35 AM - 3:05 PM. Early dismissal days end at 12:30 PM.

    # Fall
    Mon, Sept 2 ........ Labor Day - district offices closed
    Wed, Sept 4 ........ First day of school for students (grades K-5)
    Fri, Oct 11 ........ Early dismissal 12:30 PM - staff professional development
    Mon, Oct 14 ........ No school - Indigenous Peoples' Day
    Tue, Nov 5 ......... No school - Election Day
    Mon, Nov 11 ........ No school - Veterans Day
    Wed, Nov 27 ........ Early dismissal 12:30 PM
    Thu-Fri, Nov 28-29 . No school - Thanksgiving recess
    Fri, Dec 20 ........ Early dismissal 12:30 PM
    Dec 23 - Jan 1 ..... No school - Winter recess (classes resume Thursday, January 2)

    # Winter and spring
    Mon, Jan 20 ........ No school - Dr. Martin Luther King Jr. Day
    Feb 17 - Feb 21 .... No school - Mid-winter recess
    Fri, Mar 14 ........ Early dismissal 12:30 PM - end of Trimester 2
    Fri, Apr 18 ........ No school - Good Friday
    Apr 21 - Apr 25 .... No school - Spring recess
    Mon, May 26 ........ No school - Memorial Day
    Wed, June 18 ....... Last day for students - early dismissal 12:30 PM

    # Emergency closings
    Three emergency closing days are built into this calendar. Closings are announced by
    6:00 AM on the district website, by text message, and on local radio.

    Approved by the Board of Education, July 16, 2024.
    """))

HVAC_2024 = Pdf(
    "documents/comfort-air-invoice-24-0933.pdf", at("2024-10-15 16:20"),
    title="Invoice 24-0933", author="Comfort Air Heating & Cooling", creator="ServicePro", body=dedent("""
    # Comfort Air Heating & Cooling
    48 Mill Street, Westbrook, NY 12590 | (555) 010-5500 | comfortairhvac.com
    NYS HVAC License #H-20417

    # INVOICE
    Invoice #: 24-0933
    Invoice Date: October 15, 2024
    Bill To: Tom & Priya Whitaker, 214 Alder Lane, Westbrook, NY 12590
    Service Address: same as billing
    Technician: Ray Mendez

    Description                                                                   Amount
    Fall furnace safety inspection and tune-up (gas furnace, basement)            $129.00
    Pleated air filters 16x25x1, MERV 8, 6-pack (1 installed, 5 left on site)      $54.00
    Subtotal                                                                      $183.00
    Paid by card on 10/15/2024                                                   -$183.00
    Balance due                                                                     $0.00

    Technician notes: Furnace in good condition, CO readings normal. Change the 16x25x1 filter
    every 2-3 months (more often during shedding season - there is a dog in the home). Five spare
    filters left on the shelf next to the furnace.

    Thank you for choosing Comfort Air!
    """))

HVAC_2025 = Pdf(
    "documents/comfort-air-invoice-25-1108.pdf", at("2025-10-21 15:05"),
    title="Invoice 25-1108", created=False, body=dedent("""
    # Comfort Air Heating & Cooling
    48 Mill Street, Westbrook, NY 12590 | (555) 010-5500 | comfortairhvac.com

    # INVOICE
    Invoice #: 25-1108
    Invoice Date: October 21, 2025
    Due Date: November 20, 2025
    Bill To: Tom & Priya Whitaker, 214 Alder Lane, Westbrook, NY 12590
    Technician: Ray Mendez

    Description                                                                   Amount
    Fall furnace tune-up: burner cleaning, heat exchanger inspection, CO test     $149.00
    Pleated air filter 16x25x1, MERV 8 (replaced)                                  $12.00
    Amount Due                                                                    $161.00

    Technician notes: Filter was very dirty (dog hair). We recommend upgrading to a 4-inch media
    air cleaner cabinet at the return (takes a 16x25x4 MERV 11 filter): better filtration and only
    two filter changes a year. Quote: $346 for cabinet and first filter, plus about 1.5 hours of
    labor. Call the office to schedule.

    Please make checks payable to Comfort Air Heating & Cooling or pay at comfortairhvac.com/pay.
    """))

HVAC_2026 = Pdf(  # attached to the invoice email; no Info dictionary at all
    "Invoice_26-0147.pdf", at("2026-02-02 15:30"), created=False, body=dedent("""
    # Comfort Air Heating & Cooling
    48 Mill Street, Westbrook, NY 12590 | (555) 010-5500 | comfortairhvac.com
    NYS HVAC License #H-20417

    # INVOICE
    Invoice #: 26-0147
    Invoice Date: February 2, 2026
    Due Date: March 4, 2026
    Bill To: Tom & Priya Whitaker, 214 Alder Lane, Westbrook, NY 12590
    Technician: Ray Mendez

    Description                                                                   Amount
    AirGuard MC-1625 media air cleaner cabinet, installed at furnace return       $298.00
    AirGuard 16x25x4 MERV 11 pleated media filter (installed)                      $48.00
    Labor: remove 1-inch filter rack, install cabinet, seal return duct (1.5 hr)  $140.00
    Amount Due                                                                    $486.00

    Notes from your technician:
    Your furnace now takes a 4-inch media filter: size 16x25x4 (actual 15-3/8 x 24-3/8 x 3-7/8),
    MERV 11. The old 1-inch slot at the return has been sealed, so 16x25x1 filters no longer fit.
    Replace the media filter every 6 months. Next filter change: August 2026.
    Replacement filters are $48 installed, or $39 if you pick one up at our counter.

    Thank you for choosing Comfort Air! Pay by check or at comfortairhvac.com/pay.
    """))

ROOF_RECEIPT = Pdf(
    "documents/summit-ridge-roofing-receipt-2023.pdf", at("2023-09-18 11:00"),
    title="Receipt 2023-118", author="Summit Ridge Roofing LLC", body=dedent("""
    # Summit Ridge Roofing LLC
    77 Quarry Road, Westbrook, NY 12590 | (555) 010-7700 | Licensed and insured
    Family owned since 1994

    # RECEIPT No. 2023-118
    Date: September 18, 2023
    Customer: Tom and Priya Whitaker, 214 Alder Lane, Westbrook, NY 12590

    Work performed September 11-15, 2023:
    - Complete tear-off of existing roof (two layers of 3-tab shingles), haul-away and disposal
    - Ice and water shield along eaves and valleys; synthetic underlayment on all decks
    - Ridgeline HD architectural shingles, color Weathered Wood (30 squares)
    - New aluminum drip edge, continuous ridge vent, pipe boots
    - New seamless 5-inch aluminum gutters and downspouts (white) with leaf guards

    Contract price                                      $18,460.00
    Deposit paid August 14, 2023 (check #2274)          -$6,000.00
    Final payment September 18, 2023 (check #2291)     -$12,460.00
    Balance                                                  $0.00   PAID IN FULL

    Warranty: 10-year workmanship warranty from Summit Ridge Roofing (through September 2033).
    Manufacturer's 50-year limited shingle warranty registered in the homeowners' names.
    Keep this receipt with your home records; it is your proof of warranty.

    Thank you for your business!
    Gary Lindqvist, Owner
    """))

WATER_HEATER_RECEIPT = Pdf(
    "documents/reliable-plumbing-receipt.pdf", at("2022-11-03 17:45"),
    title="Receipt", created=False, body=dedent("""
    # Reliable Plumbing & Drain
    205 Canal Street, Westbrook, NY 12590 | (555) 010-8800 | Master Plumber Lic. #MP-3391

    # RECEIPT
    Date: November 3, 2022
    Customer: Tom Whitaker, 214 Alder Lane, Westbrook, NY 12590
    Technician: Sam Feld

    Work performed:
    Removed and disposed of the old 40-gallon gas water heater (installed 2008, leaking at base).
    Installed new AquaTherm 50-gallon natural gas water heater, Model GT-50-40NV,
    Serial No. 2210A118437, 40,000 BTU, atmospheric vent.
    New gas flex connector and shutoff, thermal expansion tank, new T&P discharge pipe.
    Town of Westbrook plumbing permit #P-22-1187 (inspection passed 11/3/2022).

    Water heater and parts                               $1,585.00
    Labor                                                  $680.00
    Permit                                                  $75.00
    Total                                                $2,340.00
    Paid in full - Visa ending 4417

    Warranty: 6-year tank and parts warranty from AquaTherm; 1-year labor warranty from Reliable.
    Flush the tank once a year to keep sediment down. Thank you for your business!
    """))

DISHWASHER_MANUAL = Pdf(
    "documents/harrow-dishwasher-owners-manual.pdf", at("2023-11-02 08:00"),
    title="Harrow DW-4600 Series Owner's Manual", author="Harrow Home Appliances",
    creator="Adobe InDesign", body=dedent("""
    # Harrow Built-In Dishwasher
    # Owner's Manual
    Models DW-4650SS (stainless), DW-4650WH (white), DW-4655SS (stainless, third rack)

    Read this manual before using your dishwasher and keep it for future reference.
    Write your model and serial number here (found on the label on the right edge of the door):
    Model: ______________   Serial: ______________

    # Important safety instructions
    Use the dishwasher only for its intended function. Do not wash plastic items unless they are
    marked dishwasher safe. Keep children away from detergent and from the open door.
    \f
    # Daily use
    1. Scrape large food scraps; there is no need to pre-rinse.
    2. Add detergent to the dispenser and close the lid.
    3. Select a cycle: Auto, Heavy, Normal, Quick 1 Hr, or Rinse Only.
    4. Press Start and close the door within 4 seconds.

    # Maintenance
    Clean the filter once a month: twist the cylindrical filter counterclockwise, lift it out,
    rinse it under running water and reinstall it until it locks.
    Run an empty Heavy cycle with dishwasher cleaner every three months.

    # Troubleshooting and error codes
    E09  Heating element fault. Call for service.
    E15  Leak detected in the base pan. Turn off the water supply and call for service.
    E24  Drain problem. Clean the filter and check the drain hose for kinks or a blocked air gap.
    E25  Drain pump blocked. Remove debris from the pump cover under the filter.
    Dishes not dry: use rinse aid and select Heated Dry.
    \f
    # Warranty
    Harrow Home Appliances warrants this dishwasher against defects in materials and workmanship
    for one year from the date of purchase (parts and labor), and the stainless steel tub for
    five years (parts only). Keep your purchase receipt as proof of the date of purchase.
    For service call 1-800-555-0160 or visit harrowhome.com/support.
    """))

INSURANCE_DECLARATIONS = Pdf(
    "documents/cascade-mutual-homeowners-declarations-2025.pdf", at("2025-05-12 14:00"),
    title="Homeowners Policy Declarations HO-7734-2219", author="Cascade Mutual Insurance Company",
    body=dedent("""
    # Cascade Mutual Insurance Company
    # Homeowners Policy Declarations
    Policy number: HO-7734-2219
    Policy period: June 1, 2025 to June 1, 2026, 12:01 AM standard time at the residence premises
    Named insured: Thomas and Priya Whitaker
    Residence premises: 214 Alder Lane, Westbrook, NY 12590
    Construction: frame, built 1987, one family. Roof: asphalt architectural shingle, 2023.

    # Coverages and limits of liability
    Coverage A - Dwelling                                  $412,000
    Coverage B - Other structures                           $41,200
    Coverage C - Personal property                         $206,000
    Coverage D - Loss of use                                $82,400
    Coverage E - Personal liability (each occurrence)      $300,000
    Coverage F - Medical payments to others (each person)    $5,000

    Deductible: $1,500 all perils
    Endorsements: water backup and sump overflow ($10,000); replacement cost on contents;
    scheduled jewelry (one engagement ring, $6,800).

    Annual premium: $1,512.00
    Mortgagee: Hudson Federal Savings, ISAOA, loan no. 0031198842

    Your agent: Linda Park, Park Insurance Agency, 12 Main Street, Westbrook, NY 12590,
    (555) 010-6100. To report a claim 24/7, call 1-800-555-0134.
    """))

VET_2024 = Pdf(
    "documents/oakridge-vet-maggie-2024-04-18.pdf", at("2024-04-18 11:40"),
    title="Visit Summary - Maggie - 04/18/2024", author="Oakridge Animal Hospital", body=dedent("""
    # Oakridge Animal Hospital
    1180 Oakridge Road, Westbrook, NY 12590 | (555) 010-4400

    # Visit Summary
    Patient: Maggie    Species: Canine    Breed: Golden Retriever    Sex: Female (spayed)
    Date of birth: 03/2021 (estimated). Adopted 05/2021 from the Westbrook Humane Society.
    Owners: Tom and Priya Whitaker, 214 Alder Lane
    Visit date: 04/18/2024    Veterinarian: Emily Carver, DVM
    Reason for visit: Annual wellness exam

    Weight: 61.2 lb    Temp: 101.4 F    Body condition: 5/9
    Exam: Bright and alert. Mild tartar on upper premolars. Ears clean. Heart and lungs normal.
    Heartworm/tick panel (4Dx): negative.

    Vaccines given today: Rabies (3-year), next due 04/18/2027.
    Dispensed: 12 months heartworm prevention; 6 months flea and tick chewables.
    Recommendations: brush teeth 3 times a week; consider dental cleaning next year.

    Thank you for trusting us with Maggie's care!
    """))

VET_2025 = Pdf(
    "documents/oakridge-vet-maggie-2025-03-25.pdf", at("2025-03-25 10:20"),
    title="Visit Summary - Maggie - 03/25/2025", author="Oakridge Animal Hospital", body=dedent("""
    # Oakridge Animal Hospital
    1180 Oakridge Road, Westbrook, NY 12590 | (555) 010-4400

    # Visit Summary
    Patient: Maggie    Species: Canine    Breed: Golden Retriever    Sex: Female (spayed)
    Owners: Tom and Priya Whitaker, 214 Alder Lane
    Visit date: 03/25/2025    Veterinarian: Emily Carver, DVM
    Reason for visit: Annual wellness exam and vaccines

    Weight: 64.8 lb    Temp: 101.2 F    Body condition: 5/9
    Exam: Healthy 4-year-old. Tartar improved. Small fatty lump left flank, soft and movable
    (lipoma); recheck size at next visit.
    Heartworm/tick panel (4Dx): negative.

    Vaccines given today: DHPP (3-year), next due 03/2028; Bordetella (kennel cough), next due 03/2026.
    Rabies current until 04/18/2027.
    Dispensed: 12 months heartworm prevention.

    Thank you for trusting us with Maggie's care!
    """))

VET_2026 = Pdf(
    "documents/oakridge-vet-maggie-2026-01-27.pdf", at("2026-01-27 17:10"),
    title="Visit Summary - Maggie - 01/27/2026", author="Oakridge Animal Hospital", body=dedent("""
    # Oakridge Animal Hospital
    1180 Oakridge Road, Westbrook, NY 12590 | (555) 010-4400

    # Visit Summary
    Patient: Maggie    Species: Canine    Breed: Golden Retriever    Sex: Female (spayed)
    Owners: Tom and Priya Whitaker, 214 Alder Lane
    Visit date: 01/27/2026    Veterinarian: Emily Carver, DVM
    Reason for visit: Limping on right front leg for two days after running on ice

    Weight: 68.4 lb    Temp: 101.6 F
    Exam: Mild lameness right forelimb, soreness at the carpus (wrist). No swelling of the joint,
    no pain in the shoulder or elbow. Lipoma left flank unchanged.
    Assessment: Mild soft-tissue sprain of the right carpus.

    Treatment: Carprofen 75 mg, 1 tablet by mouth twice daily with food for 7 days.
    Leash walks only for 2 weeks; no ball chasing. Recheck if not improved in 10 days.
    Weight is up 3.6 lb since last year - cut treats and reduce food by 1/4 cup a day.

    Vaccine status: Rabies current, due 04/18/2027. DHPP current, due 03/2028.
    Bordetella due 03/2026.

    Thank you for trusting us with Maggie's care!
    """))

PEDIATRICS_HARPER = Pdf(
    "documents/maple-grove-pediatrics-harper-2025-08-12.pdf", at("2025-08-12 10:30"),
    title="After Visit Summary - Harper Whitaker", author="Maple Grove Pediatrics", body=dedent("""
    # Maple Grove Pediatrics
    300 Maple Grove Drive, Suite 2, Westbrook, NY 12590 | (555) 010-3300

    # After Visit Summary
    Patient: Harper Whitaker    DOB: 06/21/2016    Age: 9 years
    Visit date: August 12, 2025    Provider: Anita Shah, MD
    Visit type: Well-child visit (9 years)

    Height: 53.5 in (51st percentile)    Weight: 63 lb (48th percentile)    BP: 98/62
    Vision: 20/20 right, 20/20 left. Hearing: passed both ears.
    Immunizations: up to date. Flu vaccine recommended this fall (clinic starts in October).
    School and sports form completed and given to parent.

    Guidance discussed: 9-11 hours of sleep, screen time limits, bike helmet, sunscreen.
    Next well visit: age 10 (August 2026).
    """))

PEDIATRICS_LEO = Pdf(
    "documents/maple-grove-pediatrics-leo-visit.pdf", at("2026-02-24 16:12"),
    title="After Visit Summary - Leo Whitaker", created=False, body=dedent("""
    # Maple Grove Pediatrics
    300 Maple Grove Drive, Suite 2, Westbrook, NY 12590 | (555) 010-3300

    # After Visit Summary
    Patient: Leo Whitaker    DOB: 09/02/2019    Age: 6 years
    Visit date: February 24, 2026    Provider: Anita Shah, MD
    Reason for visit: Sore throat and fever (101.8 F) since last night

    Weight: 46 lb. Allergies: cashews (anaphylaxis; carries epinephrine). No drug allergies.
    Rapid strep test: POSITIVE.
    Diagnosis: Strep throat (streptococcal pharyngitis).

    Prescribed: Amoxicillin 400 mg/5 mL, give 6 mL by mouth twice a day for 10 days
    (through March 5). Finish the whole bottle even when he feels better.
    Leo may return to school after 24 hours on the antibiotic and once he has no fever.
    Call us if he is not drinking, has trouble breathing, or still has fever after 48 hours.

    Printed 02/24/2026 4:12 PM
    """))

DENTAL_RECEIPT = Pdf(
    "documents/bright-smiles-receipt-2025-09-30.pdf", at("2025-09-30 09:40"),
    title="Patient Receipt", author="Bright Smiles Pediatric Dentistry", body=dedent("""
    # Bright Smiles Pediatric Dentistry
    88 Orchard Street, Westbrook, NY 12590 | (555) 010-9900 | Helen Nguyen, DDS

    # Patient Receipt
    Date: 09/30/2025    Guarantor: Priya Whitaker

    Harper Whitaker - periodic exam, cleaning, fluoride varnish,
      sealants on permanent molars #3, #14, #19, #30. Insurance paid $312.00. Patient portion $40.00
    Leo Whitaker - periodic exam, cleaning, fluoride varnish, 2 bitewing x-rays.
      Insurance paid $164.00. Patient portion $20.00

    Total paid today: $60.00 (Visa ending 4417)
    Thank you for your payment!
    Next cleaning for both children: 6 months (March/April 2026). We will send a reminder.
    """))

CLOSING_2019 = Pdf(
    "documents/alder-lane-closing-summary-2019.pdf", at("2019-07-12 15:00"),
    title="Settlement Statement Summary - 214 Alder Lane", author="Mahoney Title Services",
    body=dedent("""
    # Mahoney Title Services
    Settlement Statement Summary

    Property: 214 Alder Lane, Westbrook, NY 12590 (Section 42, Block 3, Lot 17)
    Buyers: Thomas Whitaker and Priya Whitaker
    Sellers: Robert and Linda Haskins
    Closing date: July 12, 2019    Settlement agent: Mahoney Title Services, Westbrook

    Contract sales price                         $389,000.00
    Earnest money deposit                        -$10,000.00
    New loan (Hudson Federal Savings, 30-year fixed 3.875%)   -$311,200.00
    Closing costs paid by buyers                  $11,842.50
    Cash due from buyers at closing               $79,642.50

    Keys, garage remotes and the mailbox key were delivered to the buyers at closing.
    Please keep this summary with your permanent home records.
    """))

SOCCER_SCHEDULE = Pdf(  # attached to the league's schedule email
    "U8_Thunder_Spring_2026_Schedule.pdf", at("2026-02-09 20:00"),
    title="WYSL U8 Thunder - Spring 2026 Schedule", author="Westbrook Youth Soccer League",
    body=dedent("""
    # Westbrook Youth Soccer League - Spring 2026
    # U8 Thunder - Game Schedule
    Coach: Mike Delgado, (555) 010-0142. Team manager: Jen Ruiz.
    Practices: Tuesdays and Thursdays, 5:30-6:45 PM, Riverside Park Field 2 (starting March 3).

    Sat 3/7     9:00 AM   Thunder vs. Riverside Rockets      Riverside Park Field 4
    Sat 3/14    9:00 AM   Thunder vs. Lakeside Lightning     Riverside Park Field 4
    Sat 3/21    9:00 AM   Thunder vs. Hillcrest Hawks        Riverside Park Field 2
    Sat 3/28    9:00 AM   Thunder vs. Northside United       Northside Park
    Sat 4/4     No games (Easter weekend)
    Sat 4/11   10:30 AM   Thunder vs. Lakeside Lightning     Lakeside School Field
    Sat 4/18    9:00 AM   Thunder vs. Hillcrest Hawks        Hillcrest Middle School turf
    Sat 4/25    9:00 AM   Thunder vs. Riverside Rockets      Riverside Park Field 4
    Sat 5/2     9:00 AM   Thunder vs. Northside United       Riverside Park Field 2
    Sat 5/16   10:00 AM   End-of-season festival and medals  Riverside Park

    Rainouts are posted by 7:00 AM on game day on the league calendar and by text.
    U8 games are 4 v 4, four 10-minute quarters, no score kept. Arrive 30 minutes early.
    """))

PDFS = [CALENDAR_2025_26, CALENDAR_2024_25, HVAC_2024, HVAC_2025, ROOF_RECEIPT,
        WATER_HEATER_RECEIPT, DISHWASHER_MANUAL, INSURANCE_DECLARATIONS, VET_2024, VET_2025,
        VET_2026, PEDIATRICS_HARPER, PEDIATRICS_LEO, DENTAL_RECEIPT, CLOSING_2019]

# ---- Calendars -----------------------------------------------------------------------------

DENTAL_INVITE = Calendar(
    "appointments.ics", "-//Bright Smiles Pediatric Dentistry//Patient Reminders//EN", method="REQUEST",
    events=[Event(
        "bs-20260402-0800-whitaker@brightsmilesdental.com",
        "Dental cleanings: Harper (8:00) and Leo (8:30) - Bright Smiles",
        at("2026-04-02 08:00"), at("2026-04-02 09:00"), at("2026-03-03 10:20"),
        location="Bright Smiles Pediatric Dentistry, 88 Orchard Street, Westbrook, NY 12590",
        description=("Six-month checkups and cleanings with Dr. Helen Nguyen. Harper at 8:00 AM, "
                     "Leo at 8:30 AM. Please arrive 10 minutes early and bring your insurance card. "
                     "To reschedule call (555) 010-9900 at least 24 hours ahead."),
        organizer=("Bright Smiles Pediatric Dentistry", "appointments@brightsmilesdental.com"),
        attendees=(("Priya Whitaker", "priya@whitakerfamily.net"),))])

CALENDARS = [
    Calendar("calendar/leo-soccer-practice.ics", "-//Westbrook Youth Soccer League//TeamSnap Export//EN",
             name="U8 Thunder practices", events=[Event(
                 "practice-u8-thunder-spring-2026@westbrooksoccer.org", "U8 Thunder practice",
                 at("2026-03-03 17:30"), at("2026-03-03 18:45"), at("2026-02-20 19:05"),
                 location="Riverside Park Field 2, 1 River Road, Westbrook, NY",
                 rrule="FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20260515T035959Z",
                 description=("Spring practices with Coach Mike. Bring water, shin guards and a "
                              "size 3 ball. Cancellations are posted here and emailed by 3 PM."))]),
    Calendar("calendar/wysl-u8-thunder-games.ics", "-//Westbrook Youth Soccer League//League Calendar//EN",
             name="WYSL U8 Thunder games - Spring 2026", events=[
                 Event("game-0307-thunder-rockets@westbrooksoccer.org",
                       "CANCELLED: Thunder vs. Riverside Rockets",
                       at("2026-03-07 09:00"), at("2026-03-07 10:00"), at("2026-03-06 18:40"),
                       created=at("2026-02-09 20:00"), status="CANCELLED", sequence=1,
                       location="Riverside Park Field 4, 1 River Road, Westbrook, NY",
                       description="Rained out - fields closed. Makeup game: Sunday, April 12 at 3:00 PM."),
                 Event("game-0314-thunder-lightning@westbrooksoccer.org",
                       "Thunder vs. Lakeside Lightning",
                       at("2026-03-14 09:00"), at("2026-03-14 10:00"), at("2026-03-05 21:15"),
                       created=at("2026-02-09 20:00"),
                       location="Riverside Park Field 4, 1 River Road, Westbrook, NY",
                       description="Home game - blue jerseys. Arrive 30 minutes early."),
                 Event("game-0321-thunder-hawks@westbrooksoccer.org",
                       "Thunder vs. Hillcrest Hawks (moved to Sunday)",
                       at("2026-03-22 13:00"), at("2026-03-22 14:00"), at("2026-03-09 08:30"),
                       created=at("2026-02-09 20:00"), sequence=2,
                       location="Hillcrest Middle School turf field, 5 Grove Street, Westbrook, NY",
                       description=("Moved from Saturday, March 21 at Riverside (field conflict) to "
                                    "Sunday, March 22 at 1:00 PM on the Hillcrest turf.")),
                 Event("game-0328-thunder-northside@westbrooksoccer.org",
                       "Thunder vs. Northside United",
                       at("2026-03-28 09:00"), at("2026-03-28 10:00"), at("2026-02-09 20:00"),
                       location="Northside Park, 400 North Street, Westbrook, NY",
                       description="Away game - white jerseys."),
                 Event("game-0412-thunder-rockets-makeup@westbrooksoccer.org",
                       "Makeup: Thunder vs. Riverside Rockets",
                       at("2026-04-12 15:00"), at("2026-04-12 16:00"), at("2026-03-06 18:45"),
                       location="Riverside Park Field 4, 1 River Road, Westbrook, NY",
                       description="Makeup for the March 7 rainout."),
             ]),
    Calendar("calendar/birchwood-school-events.ics", "-//Westbrook CSD//School Events Feed//EN",
             name="Birchwood Elementary Events", events=[
                 Event("ed-20260313@birchwood.westbrookcsd.org",
                       "Early Dismissal 12:45 PM - Staff Professional Development",
                       date(2026, 3, 13), date(2026, 3, 14), at("2026-03-11 14:05"),
                       created=at("2025-08-04 09:30"), status="CANCELLED", sequence=2,
                       description=("CANCELLED. Friday, March 13 is now a full day of school "
                                    "(snow makeup); dismissal at the regular time, 3:05 PM. The "
                                    "staff development early dismissal moved to Friday, March 27.")),
                 Event("ed-20260327@birchwood.westbrookcsd.org",
                       "Early Dismissal 12:45 PM - Staff Professional Development",
                       date(2026, 3, 27), date(2026, 3, 28), at("2026-03-11 14:05"),
                       description="Students dismissed at 12:45 PM. Kids Club half-day care available."),
                 Event("bookfair-2026@birchwood.westbrookcsd.org", "Spring Book Fair (library)",
                       date(2026, 3, 16), date(2026, 3, 21), at("2026-02-18 12:00"),
                       description="Open 8:15 AM - 3:30 PM; family night Wednesday 5:00-7:00 PM."),
                 Event("sciencefair-2026@birchwood.westbrookcsd.org", "Science Fair",
                       at("2026-03-19 18:00"), at("2026-03-19 19:30"), at("2026-01-14 09:00"),
                       location="Birchwood Elementary gym",
                       description="Projects set up by 5:30 PM. Open to families 6:00-7:30 PM."),
                 Event("concert-2026-spring@birchwood.westbrookcsd.org",
                       "Spring Concert - Grades 3-5",
                       at("2026-03-24 19:00"), at("2026-03-24 20:00"), at("2026-03-02 13:30"),
                       location="Westbrook High School auditorium",
                       description="Performers arrive by 6:30 PM in black and white."),
                 Event("goodfriday-2026@birchwood.westbrookcsd.org", "No School - Good Friday",
                       date(2026, 4, 3), date(2026, 4, 4), at("2025-08-04 09:30")),
                 Event("springrecess-2026@birchwood.westbrookcsd.org", "Spring Recess - No School",
                       date(2026, 4, 6), date(2026, 4, 11), at("2025-08-04 09:30")),
             ]),
    Calendar("calendar/whitaker-family.ics", "-//Whitaker Family//Shared Calendar//EN",
             name="Whitaker family", events=[
                 Event("fam-trash@whitakerfamily.net", "Trash and recycling to the curb",
                       at("2024-01-08 19:30"), at("2024-01-08 19:45"), at("2024-01-05 20:00"),
                       rrule="FREQ=WEEKLY;BYDAY=MO",
                       description="Pickup is Tuesday morning. Recycling every other week (even weeks)."),
                 Event("fam-subaru-0314@whitakerfamily.net",
                       "Outback: oil change + state inspection (Westbrook Auto Care)",
                       at("2026-03-14 08:00"), at("2026-03-14 09:30"), at("2026-03-11 22:15"),
                       location="Westbrook Auto Care, 91 Route 9, Westbrook, NY",
                       description="Tom drops it off; about 90 minutes."),
                 Event("fam-dishwasher-0317@whitakerfamily.net",
                       "Dishwasher repair - Tri-County (arrival 8-12)",
                       at("2026-03-17 08:00"), at("2026-03-17 12:00"), at("2026-03-05 11:30"),
                       description="Technician Luis. Someone needs to be home; Maggie in the yard."),
                 Event("fam-groom-0320@whitakerfamily.net", "Maggie: grooming at Paws & Suds",
                       at("2026-03-20 10:00"), at("2026-03-20 12:00"), at("2026-03-08 16:20"),
                       location="Paws & Suds, 22 Depot Street, Westbrook, NY",
                       description="Bath, nail trim and de-shed. Pick up at noon."),
                 Event("fam-recital-0329@whitakerfamily.net",
                       "Harper's piano recital (Ms. Ferraro's studio)",
                       at("2026-03-29 14:00"), at("2026-03-29 15:30"), at("2026-03-03 21:00"),
                       location="Westbrook Community Music School, 15 Elm Street, Westbrook, NY",
                       description="Harper plays 'Arabesque' (Burgmuller). Arrive 1:30 PM; dress up."),
             ]),
]

# ---- Email ---------------------------------------------------------------------------------

SOCCER_1 = "20260310182000.4411.mdelgado@westbrooksoccer.org"
SOCCER_2 = "CAF3x9k2-pw-0310@whitakerfamily.net"
SOCCER_3 = "20260311163000.4502.mdelgado@westbrooksoccer.org"

MAILDIR = [
    Mail("cur", at("2026-03-11 13:42"), PRINCIPAL, FAMILIES,
         "Change to this Friday's early dismissal (3/13)",
         "20260311134200.okafor.0311@birchwood.westbrookcsd.org", dedent("""
    Dear Birchwood Families,

    As you know, we lost a day of instruction to the snow on Tuesday, February 3. After
    consulting with the district office, we will make up that time this week: Friday, March 13
    will now be a FULL school day. Students will be dismissed at the regular time, 3:05 PM,
    buses will run their normal afternoon routes, and lunch will be served as usual.

    The staff professional development afternoon that had been planned for the 13th has moved
    to Friday, March 27. That day will be an early dismissal, and students will be dismissed at
    12:45 PM (our new early dismissal time since March 1). Kids Club after-care will be open on
    both days.

    I know many of you had planned around a half day this Friday, and I apologize for the short
    notice. The printed school calendar on the district website will be updated by the end of
    the week.

    Thank you, as always, for your flexibility.

    Warm regards,
    """) + dedent(PRINCIPAL_SIGNATURE)),
    Mail("cur", at("2026-02-23 09:15"), PRINCIPAL, FAMILIES,
         "New early dismissal time starting March 1",
         "20260223091500.okafor.0223@birchwood.westbrookcsd.org", dedent("""
    Dear Families,

    Beginning Sunday, March 1, the district's new transportation contract changes the bus
    schedule on early dismissal days. From that date, all early dismissal days will end at
    12:45 PM instead of 12:30 PM. Regular dismissal (3:05 PM) does not change.

    Our next early dismissal is Friday, March 13 (end of the second trimester), so please plan
    for a 12:45 pickup that day. After that, the only other scheduled early dismissal this year
    is the last day of school, Wednesday, June 17.

    If your child rides the bus, afternoon drop-off times on early dismissal days will be about
    15 minutes later than on past half days. Kids Club will open at 12:45 on those days.

    Thank you,
    """) + dedent(PRINCIPAL_SIGNATURE)),
    Mail("cur", at("2026-03-10 14:20"), COACH, THUNDER,
         "Thursday practice cancelled (3/12)", SOCCER_1, dedent("""
    Hi Thunder families,

    The Parks Department just closed all the grass fields at Riverside Park through the end of
    the week because of the rain. We already lost tonight's practice, and Thursday's practice
    (3/12) is CANCELLED too.

    Please have the kids do 10 minutes of toe taps and inside-outside dribbling at home. Jen will
    send Saturday's game details separately.

    Coach Mike
    U8 Thunder | Westbrook Youth Soccer League
    cell (555) 010-0142
    """)),
    Mail("cur", at("2026-03-10 19:48"), PRIYA, COACH,
         "Re: Thursday practice cancelled (3/12)", SOCCER_2, in_reply_to=SOCCER_1,
         references=(SOCCER_1,), body=dedent("""
    Thanks, Mike. Leo will be sad, but we'll do toe taps in the driveway. Any chance of a makeup
    practice before Saturday?

    Priya

    On Tue, Mar 10, 2026 at 2:20 PM Coach Mike Delgado wrote:
    > The Parks Department just closed all the grass fields at Riverside Park through the end of
    > the week because of the rain. We already lost tonight's practice, and Thursday's practice
    > (3/12) is CANCELLED too.
    """)),
    Mail("cur", at("2026-03-11 12:30"), COACH, THUNDER,
         "Re: Thursday practice cancelled (3/12)", SOCCER_3, in_reply_to=SOCCER_2,
         references=(SOCCER_1, SOCCER_2), body=dedent("""
    Good news, everyone: practice is back ON for Thursday (3/12)!

    Riverside is still closed, but the school district is letting us use the turf field at
    Hillcrest Middle School. Same time, 5:30-6:30 PM. Park in the back lot off Grove Street.
    Turf shoes or cleats are both fine; bring water and shin guards.

    Sorry for the back and forth this week, and thanks for your patience.

    Coach Mike
    U8 Thunder | Westbrook Youth Soccer League
    cell (555) 010-0142

    On Tue, Mar 10, 2026 at 7:48 PM Priya Whitaker wrote:
    > Thanks, Mike. Leo will be sad, but we'll do toe taps in the driveway. Any chance of a
    > makeup practice before Saturday?
    """)),
    Mail("cur", at("2026-03-09 20:05"), "Jen Ruiz <jen.ruiz@fastmail.com>", THUNDER,
         "Thunder game Saturday + snack schedule", "9f2c1a7e-0309@fastmail.com", dedent("""
    Hi all!

    This Saturday, March 14, the Thunder play the Lakeside Lightning at 10:00 AM on Riverside
    Park Field 4. Please have the kids there by 9:30 for warm-ups, in their blue home jerseys.
    If Riverside is still closed, the league will post a backup field and I'll text everyone.

    Snacks this week: the Whitaker family (orange slices and water are perfect!).
    Next week: the Gupta family.

    Go Thunder!
    Jen Ruiz, team manager
    """)),
    Mail("cur", at("2026-03-09 16:30"), PATEL, ROOM14,
         "Room 14 weekly: spring pictures and science fair",
         "20260309163000.dpatel.r14@birchwood.westbrookcsd.org",
         dedent("""
    Dear Room 14 families,

    A few things for the week ahead:

    Spring pictures: the photographer is splitting the school over two days, and fourth grade
    got Wednesday, 3/18, in the morning. Order forms went home in Friday folders; they can also
    be returned on picture day.

    Science fair: projects should be set up in the gym by 5:30 on Thursday, 3/19. The fair opens
    to families at 6:00. Trifold boards are available in the office if you still need one.

    In class we start our fractions unit this week. Spelling tests stay on Fridays.
    And a reminder that field trip money is due Monday (see my note from Friday).

    Best,
    Mr. Patel
    Daniel Patel | Grade 4, Room 14 | Birchwood Elementary School
    """)),
    Mail("cur", at("2026-03-02 15:45"), PATEL, ROOM14,
         "Field trip: Westbrook Science Center on Thursday 3/19",
         "20260302154500.dpatel.r14@birchwood.westbrookcsd.org",
         dedent("""
    Dear Room 14 families,

    Our class will visit the Westbrook Science Center on Thursday, March 19, to go with our unit
    on electricity and magnets. The bus leaves at 9:00 and we'll be back by 2:15.

    Please send in the signed permission slip (in today's folder) and $12 in an envelope by
    Friday, March 13th. Students should pack a bag lunch with no glass containers.

    Thank you!
    Mr. Patel
    Daniel Patel | Grade 4, Room 14 | Birchwood Elementary School
    """)),
    Mail("cur", at("2026-03-06 14:10"), PATEL, ROOM14,
         "CORRECTION: field trip is now Friday, March 20",
         "20260306141000.dpatel.r14@birchwood.westbrookcsd.org",
         dedent("""
    Dear Room 14 families,

    The Science Center double-booked us for the 19th, so our field trip has moved to Friday,
    March 20. Same times: the bus leaves at 9:00 and we'll be back by 2:15.

    Because of the change, permission slips and the $12 are now due Monday, March 16 (not this
    Friday). Students still need a bag lunch.

    Sorry for any confusion!
    Mr. Patel
    Daniel Patel | Grade 4, Room 14 | Birchwood Elementary School
    """)),
    Mail("cur", at("2026-03-04 20:12"), "Erin Whitaker-Cole <erin.wcole@gmail.com>", BOTH,
         "Update on Grandma Maggie", "CAE8w1-erin-0304@mail.gmail.com", dedent("""
    Hi Tom and Priya,

    Just wanted to let you know that Grandma Maggie's visit with Dr. Hsu on Monday (March 2nd)
    went well. Her knee is healing nicely after the fall in January. He gave her a cortisone shot
    and wants to see her again in June. She's walking to the mailbox on her own again.

    She asked me to tell Harper and Leo thank you for the drawings; they are on her fridge.

    Love,
    Erin
    """)),
    Mail("cur", at("2026-03-02 08:00"), "Oakridge Animal Hospital <reminders@oakridgeanimalhospital.com>",
         TOM, "Maggie is due for her Bordetella vaccine", "rem-20260302-55120@oakridgeanimalhospital.com",
         dedent("""
    Dear Tom,

    This is a friendly reminder from Oakridge Animal Hospital.

    Our records show that Maggie's most recent visit was on January 27, 2026, with Dr. Emily
    Carver. The following vaccine is coming due:

        Bordetella (kennel cough) - due by March 31, 2026

    Many boarding kennels, groomers and daycares require a current Bordetella vaccine. You can
    book a quick vaccine appointment online at oakridgeanimalhospital.com/book or by calling
    (555) 010-4400. If Maggie has already received this vaccine elsewhere, please let us know so
    we can update her record.

    Oakridge Animal Hospital
    1180 Oakridge Road, Westbrook, NY 12590
    Mon-Fri 7:30 AM - 7:00 PM, Sat 8:00 AM - 1:00 PM
    """)),
    Mail("cur", at("2026-03-05 11:02"), "Tri-County Appliance Repair <service@tricountyappliance.com>",
         PRIYA, "Service appointment confirmed: Tuesday, March 17", "TCA-58213-conf@tricountyappliance.com",
         dedent("""
    Hello Priya,

    Your service appointment is confirmed.

    Work order: 58213
    Address: 214 Alder Lane, Westbrook, NY 12590
    Appliance: Harrow built-in dishwasher, model DW-4650SS, serial HD2404-118203
    Problem reported: not draining, display shows E24
    Date: Tuesday, 3/17/2026
    Arrival window: 8:00 AM - 12:00 PM (your technician will call 30 minutes ahead)
    Technician: Luis Ortega

    The diagnostic fee is $89 and is waived if you approve the repair. Please clear the area
    under the sink and keep pets in another room during the visit.

    To reschedule, reply to this email or call (555) 010-2626.

    Tri-County Appliance Repair - Factory authorized service for Harrow, Bosch and Whirlpool
    """)),
    Mail("cur", at("2026-02-16 10:00"), "Cascade Mutual Insurance <noreply@cascademutual.com>", TOM,
         "Your homeowners policy renews on June 1", "renewal-HO77342219-2026@cascademutual.com",
         dedent("""
    Dear Thomas Whitaker,

    Your homeowners policy HO-7734-2219 for 214 Alder Lane is scheduled to renew on June 1, 2026.
    Here is a summary of what changes at renewal:

    Annual premium: $1,684.00 (current term: $1,512.00)
    Deductible: $1,500 all perils (no change)
    Coverages: no change to your coverages or endorsements

    The premium change reflects higher rebuilding costs in your area. Your full renewal
    declarations will be mailed 30 days before the renewal date. If you pay in full by June 1,
    no installment fees apply.

    Questions? Contact your agent, Linda Park, at Park Insurance Agency, (555) 010-6100.

    Cascade Mutual Insurance Company
    This message was sent to the email address on your policy. Please do not reply.
    """)),
    Mail("new", at("2026-03-12 07:15"), "Birchwood Kids Club <kidsclub@birchwood.westbrookcsd.org>",
         PRIYA, "Kids Club: this Friday and Friday, March 27", "kc-20260312-0715@birchwood.westbrookcsd.org",
         dedent("""
    Hi Kids Club families,

    Since Friday, March 13 is now a full school day, Kids Club will run its usual afternoon
    program that day, from dismissal at 3:05 until 6:00 PM. No sign-up needed.

    Friday, March 27 is now the early dismissal day (12:45 PM). Half-day care runs from 12:45 to
    6:00 PM and costs $35 for the afternoon. Please sign up on the Kids Club portal by Friday,
    March 20 so we can plan staffing and lunch.

    See you soon!
    Tasha Green
    Kids Club Director, Birchwood Elementary
    """)),
    Mail("new", at("2026-03-12 06:02"), "Westbrook Public Library <notices@westbrooklibrary.org>",
         "Harper Whitaker <priya@whitakerfamily.net>", "A hold is ready for pickup",
         "hold-20260312-88412@westbrooklibrary.org", dedent("""
    Hello Harper Whitaker,

    The following item is ready for pickup at the Main Library hold shelf:

        The Wild Robot Escapes / Peter Brown

    Please pick it up by Thursday, March 19, 2026. Items not picked up by then go to the next
    person on the list. Library card ending 0317.

    Westbrook Public Library, 1 Library Plaza. Open Mon-Thu 9-8, Fri-Sat 9-5, Sun 1-5.
    """)),
    Mail("new", at("2026-03-11 22:10"), TOM, PRIYA, "Subaru Saturday morning",
         "CAT0m-subaru-0311@whitakerfamily.net", dedent("""
    Hey,

    I booked the Outback at Westbrook Auto Care for Saturday at 8 - oil change and the state
    inspection (the sticker runs out this month). They said about 90 minutes.

    Can you take Leo to his game? We're on snacks, so the oranges need to come too.

    T
    """)),
]

PTA_HEADERS = (
    ("List-Id", "Birchwood PTA Buzz <buzz.birchwoodpta.org>"),
    ("List-Unsubscribe", "<mailto:unsubscribe@birchwoodpta.org?subject=unsubscribe>, "
                         "<https://birchwoodpta.org/unsubscribe>"),
    ("Precedence", "bulk"),
)
PTA_FROM = "The Birchwood Buzz <buzz@birchwoodpta.org>"
PTA_FOOTER = """
______________________________________________________________________
Birchwood Elementary PTA | birchwoodpta.org | Questions? pta@birchwoodpta.org
You are receiving The Birchwood Buzz because you are a Birchwood family.
Unsubscribe: https://birchwoodpta.org/unsubscribe
"""

TOWN_HEADERS = (
    ("List-Id", "Westbrook Public Works News <publicworks.westbrookny.gov>"),
    ("List-Unsubscribe", "<https://westbrookny.gov/notify/unsubscribe>"),
    ("Precedence", "bulk"),
)
TOWN_FROM = "Town of Westbrook Public Works <news@westbrookny.gov>"
TOWN_FOOTER = """
______________________________________________________________________
Town of Westbrook Department of Public Works | (555) 010-1000
1 Town Hall Plaza, Westbrook, NY 12590
You subscribed to Public Works News at westbrookny.gov/notify.
Unsubscribe at any time: https://westbrookny.gov/notify/unsubscribe
"""

NEWSLETTERS = [
    (at("2025-08-22 15:00"), PTA_FROM, PTA_HEADERS,
     "The Birchwood Buzz: Welcome back!", "buzz-2025-08-22", """
    WELCOME BACK, BIRCHWOOD!

    We hope everyone had a wonderful summer. School starts Wednesday, September 3. Doors open at
    8:25 AM and the first bell rings at 8:35.

    IMPORTANT DATES
    - Picture Day: Thursday, September 18
    - First early dismissal: Friday, October 10 (staff development)
    - PTA meetings: second Tuesday of each month, 7 PM in the library

    A reminder for new families: early dismissal days end at 12:30 PM, and Kids Club offers
    half-day care on those afternoons.

    VOLUNTEER WITH US
    Our fall fun run needs 20 volunteers. Sign up at birchwoodpta.org/volunteer.
    """),
    (at("2025-12-12 16:00"), PTA_FROM, PTA_HEADERS,
     "The Birchwood Buzz: Winter concert and coat drive", "buzz-2025-12-12", """
    HAPPY HOLIDAYS FROM THE PTA

    - Winter Concert: Tuesday, December 16, 6:30 PM in the gym
    - Half day: Friday, December 19 - students dismissed at 12:30 PM
    - Winter recess: December 22 through January 2; classes resume Monday, January 5

    COAT DRIVE
    Gently used coats, hats and mittens can go in the bins by the front office through 12/19.
    Thank you to the 48 families who have donated so far!
    """),
    (at("2026-01-16 15:30"), PTA_FROM, PTA_HEADERS,
     "The Birchwood Buzz: Mark your calendars", "buzz-2026-01-16", """
    MARK YOUR CALENDARS

    - Mid-winter recess: February 16-20, no school
    - Friday, 3/13: early dismissal at 12:30 PM (end of the trimester, teacher development)
    - Science Fair: Thursday, March 19 - registration forms due February 6
    - Spring Concert (grades 3-5): Tuesday, March 24

    STAFF APPRECIATION
    Thank you for the wonderful breakfast for our teachers last week. Next up is the spring
    book fair; volunteer slots open in February.
    """),
    (at("2026-02-20 15:30"), PTA_FROM, PTA_HEADERS,
     "The Birchwood Buzz: March is almost here", "buzz-2026-02-20", """
    MARCH AT BIRCHWOOD

    Reminder: Friday, March 13 is a HALF DAY. Students are dismissed at 12:30 PM. If you need
    half-day care, Kids Club sign-ups are open now.

    - Spring Book Fair: Monday, March 16 through Friday, March 20, in the library
    - Spring Picture Day: Tuesday, March 17
    - Science Fair: Thursday, March 19, 6 PM in the gym
    - Spring Concert (grades 3-5): Tuesday, March 24, 7 PM at the high school

    BOOK FAIR VOLUNTEERS
    We need cashiers for each day of the book fair. Sign up at birchwoodpta.org/volunteer.
    """),
    (at("2026-03-06 15:30"), PTA_FROM, PTA_HEADERS,
     "The Birchwood Buzz: Book fair next week!", "buzz-2026-03-06", """
    THE BOOK FAIR IS COMING

    The Spring Book Fair opens Monday, March 16 and runs through Friday, March 20 in the
    library, 8:15 AM to 3:30 PM. Family Night is Wednesday, March 18, 5-7 PM, with a read-aloud
    by our librarian at 6. Students can shop with their class or bring money in a labeled
    envelope.

    SPRING PICTURE DAY
    Spring Picture Day is Tuesday, March 17, for all grades. Order forms came home in folders.

    COMING UP
    - Science Fair: Thursday, March 19, 6 PM in the gym
    - Spring Concert (grades 3-5): Tuesday, March 24, 7 PM at the Westbrook High School auditorium
    - PTA meeting: Tuesday, April 14, 7 PM in the library

    Thank you to everyone who helped with the Valentine's cards for the Brookside seniors!
    """),
    (at("2026-01-05 09:00"), TOWN_FROM, TOWN_HEADERS,
     "Public Works News: winter collection update", "dpw-2026-01-05", """
    WINTER COLLECTION UPDATE

    Christmas tree pickup: trees will be collected curbside from January 12 to January 23.
    Please remove all lights, stands and decorations.

    Trash and recycling: regular Tuesday pickup continues. Recycling is collected every other
    week (even-numbered weeks).

    Yard waste collection is suspended for the winter and resumes Monday, April 6.

    Snow: please keep cars off town streets during declared snow emergencies.
    """),
    (at("2026-03-02 09:00"), TOWN_FROM, TOWN_HEADERS,
     "Public Works News: spring street sweeping and yard waste", "dpw-2026-03-02", """
    SPRING IS ON ITS WAY

    Street sweeping begins Monday, March 23. Streets in Zone 3 (including Alder Lane, Birch
    Street and Canal Street) are swept on Thursday mornings between 7 and 11 AM; please keep
    cars off the street during those hours. Cars left on the street may be ticketed.

    Yard waste: because of a change in contractor, curbside yard waste collection now resumes
    Monday, April 13 (not April 6 as announced in January). Use paper bags or open containers.

    Potholes: report them at westbrookny.gov/potholes or call (555) 010-1000.
    """),
    (at("2026-03-03 11:00"), "Comfort Air Heating & Cooling <news@comfortairhvac.com>",
     (("List-Id", "Comfort Corner <comfortcorner.comfortairhvac.com>"),
      ("List-Unsubscribe", "<https://comfortairhvac.com/email/unsubscribe>")),
     "Comfort Corner: spring AC tune-up special", "comfortcorner-2026-03", """
    COMFORT CORNER - SPRING NEWSLETTER

    Spring AC tune-up special: $99 through April 30 (regularly $139). Book early, because May
    fills up fast!

    FILTER FACTS
    Most homes use 1-inch filters (common sizes are 16x25x1 and 20x20x1). These should be
    changed every 1 to 3 months, more often if you have pets. Homes with a 4-inch media
    cabinet can change their filter every 6 to 12 months. Not sure what you have? The size is
    printed on the edge of the filter.

    Refer a neighbor and you both get $25 off your next service.

    ______________________________________________________________________
    Comfort Air Heating & Cooling | 48 Mill Street, Westbrook | (555) 010-5500
    Unsubscribe: https://comfortairhvac.com/email/unsubscribe
    """),
]


def html_version(text: str) -> str:
    """The HTML alternative of a newsletter: headings, paragraphs and lists."""
    def esc(value: str) -> str:
        return value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")

    parts = []
    for para in reflow(text).split("\n\n"):
        lines = [line for line in para.split("\n") if line.strip()]
        if lines and lines[0].isupper():
            parts.append(f"<h2>{esc(lines.pop(0))}</h2>")
        items: list[str] = []
        prose: list[str] = []
        for line in lines:
            if line.startswith("- "):
                items.append(line[2:])
            elif items and line.startswith("  "):
                items[-1] += " " + line.strip()
            else:
                prose.append(line.strip())
        if prose:
            parts.append(f"<p>{esc(' '.join(prose))}</p>")
        if items:
            parts.append("<ul>" + "".join(f"<li>{esc(item)}</li>" for item in items) + "</ul>")
    return ("<html><body>\n" + "\n".join(parts)
            + '\n<p><small><a href="#">View it in your browser</a></small></p>\n</body></html>\n')


def newsletter(when, sender, headers, subject, key, body) -> Mail:
    """A newsletter message: plain text plus an HTML alternative, with list headers."""
    footer = TOWN_FOOTER if sender == TOWN_FROM else PTA_FOOTER if sender == PTA_FROM else ""
    text = dedent(body) + "\n" + dedent(footer) if footer else dedent(body)
    domain = sender.split("@")[1].rstrip(">")
    return Mail("mbox", when, sender, PRIYA, subject, f"{key}@{domain}", text,
                extra_headers=headers, html=html_version(dedent(body)))


EMLS = [
    Mail("eml", at("2026-02-02 15:30"), "Comfort Air Heating & Cooling <billing@comfortairhvac.com>", TOM,
         "Invoice 26-0147 from Comfort Air Heating & Cooling", "inv-26-0147@comfortairhvac.com",
         eml="comfort-air-invoice-26-0147.eml", attachments=[
             ("Invoice_26-0147.pdf", "application/pdf", HVAC_2026.render())], body=dedent("""
    Hi Tom,

    Thank you for having us out today to install your new media air cleaner. Your invoice
    26-0147 for $486.00 is attached; payment is due by March 4, 2026.

    Pay online at comfortairhvac.com/pay or mail a check to 48 Mill Street, Westbrook, NY 12590.

    Thanks again,
    Donna Reyes, Office Manager
    Comfort Air Heating & Cooling | (555) 010-5500
    """)),
    Mail("eml", at("2026-03-03 10:20"), "Bright Smiles Pediatric Dentistry <appointments@brightsmilesdental.com>",
         PRIYA, "Appointment confirmation: Harper and Leo, Thursday, April 2",
         "appt-20260303-1020-whitaker@brightsmilesdental.com", eml="bright-smiles-appointments.eml",
         attachments=[("appointments.ics", "text/calendar", ics(DENTAL_INVITE))], body=dedent("""
    Hi Priya,

    It's time for Harper's and Leo's six-month checkups! We have reserved back-to-back
    appointments with Dr. Nguyen:

        Harper Whitaker - Thursday, April 2, 2026 at 8:00 AM
        Leo Whitaker - Thursday, April 2, 2026 at 8:30 AM

    A calendar invitation is attached. Please arrive 10 minutes early and bring your insurance
    card. If you need to reschedule, call us at (555) 010-9900 at least 24 hours in advance.

    See you soon!
    The Bright Smiles team
    88 Orchard Street, Westbrook, NY 12590
    """)),
    Mail("eml", at("2024-05-18 13:12"), "Hearth & Home Appliance <orders@hearthandhome.com>", PRIYA,
         "Your order receipt #HH-240518-3302", "order-HH-240518-3302@hearthandhome.com",
         eml="hearth-home-order-receipt.eml", body=dedent("""
    Thank you for your purchase, Priya!

    Order number: HH-240518-3302
    Order date: May 18, 2024
    Store: Hearth & Home Appliance, 600 Route 9, Westbrook

    Harrow 24" built-in dishwasher, stainless, model DW-4650SS        $749.00
    Delivery and installation                                         $129.00
    Haul-away of old dishwasher                                        $25.00
    3-year Hearth & Home Protection Plan                               $89.00
    Subtotal                                                          $992.00
    Sales tax (8.125%)                                                 $80.60
    Total paid                                                      $1,072.60
    Paid with Visa ending 4417

    Delivery and installation: Wednesday, May 22, 2024, between 10 AM and 2 PM.
    Our installers will call 30 minutes before arrival. Please clear the area under the sink.

    Keep this receipt: it is your proof of purchase for the manufacturer's warranty and your
    Protection Plan (plan number HHP-771902, valid through May 22, 2027).

    Hearth & Home Appliance | (555) 010-3030 | hearthandhome.com
    """)),
    Mail("eml", at("2023-10-02 17:05"), "Rosa Alvarez <ralvarez@birchwood.westbrookcsd.org>",
         "Room 12 Families <room12@birchwood.westbrookcsd.org>", "Room 12 conference sign-ups",
         "20231002170500.ralvarez.r12@birchwood.westbrookcsd.org", eml="room12-conference-signups-2023.eml",
         body=dedent("""
    Dear Room 12 families,

    I am so enjoying getting to know your second graders! Fall parent-teacher conferences will
    be held Monday, November 6 and Tuesday, November 7. Please choose a 15-minute slot on the
    sign-up page (link in the Birchwood app) by October 20.

    Class pictures from picture day will come home next week. They turned out so well!

    Warmly,
    Ms. Alvarez
    Rosa Alvarez | Grade 2, Room 12 | Birchwood Elementary School
    """)),
    Mail("eml", at("2025-11-10 21:00"), "Westbrook Youth Soccer League <registrar@westbrooksoccer.org>",
         PRIYA, "Registration confirmed: Leo Whitaker - Spring 2026 U8", "reg-S26-0412@westbrooksoccer.org",
         eml="wysl-registration-spring-2026.eml", body=dedent("""
    Thank you for your payment!

    Confirmation number: WYSL-S26-0412
    Player: Leo Whitaker (born 2019)
    Division: U8 coed recreational
    Season: Spring 2026 (games March 7 - May 16)
    Registration fee: $95.00 - paid with Visa ending 4417

    Team assignments and schedules will be emailed in February. The fee includes a jersey and
    socks; players need shin guards and a size 3 ball.

    Westbrook Youth Soccer League - volunteer run since 1979
    """)),
    Mail("eml", at("2026-02-10 18:00"), "Westbrook Youth Soccer League <registrar@westbrooksoccer.org>",
         PRIYA, "Spring 2026: Leo's team and game schedule", "sched-S26-u8-thunder@westbrooksoccer.org",
         eml="wysl-spring-2026-schedule.eml", attachments=[
             ("U8_Thunder_Spring_2026_Schedule.pdf", "application/pdf", SOCCER_SCHEDULE.render())],
         body=dedent("""
    Hi Priya,

    Leo has been placed on the U8 Thunder, coached by Mike Delgado. The team's game schedule is
    attached. Practices start Tuesday, March 3 and run Tuesdays and Thursdays from 5:30 to
    6:45 PM at Riverside Park Field 2.

    Subscribe to the league calendar for rainouts and changes: westbrooksoccer.org/calendar

    See you on the field!
    Westbrook Youth Soccer League
    """)),
]

# ---- Photos --------------------------------------------------------------------------------

HOUSE_GPS = (41.70318, -73.92104)

PHOTOS = [
    Photo("photos/IMG_0412.jpg", at("2021-05-08 14:22"),
          "Bringing Maggie home from the Westbrook Humane Society", "Apple", "iPhone 11", "14.5.1",
          (150, 190, 230), (90, 140, 70), (220, 170, 90), gps=(41.71402, -73.90877)),
    Photo("photos/IMG_3307.jpg", at("2022-11-03 16:05"),
          "New water heater installed in the basement", "Apple", "iPhone 12", "16.1",
          (120, 120, 125), (90, 90, 95), (200, 200, 205), gps=HOUSE_GPS),
    Photo("photos/IMG_5521.jpg", at("2023-09-15 17:40"), "New roof finished", "Apple", "iPhone 13",
          "16.6.1", (160, 200, 240), (80, 150, 70), (110, 95, 80), gps=HOUSE_GPS),
    Photo("photos/DSC_1188.jpg", at("2023-10-05 10:15"),
          "Harper's 2023 class photo with Ms. Alvarez, Room 12, Birchwood Elementary",
          "NIKON CORPORATION", "NIKON D750", "Ver.1.15", (60, 80, 140), (140, 120, 100), (230, 200, 180)),
    Photo("photos/IMG_8804.jpg", at("2025-07-09 19:30"),
          "Sunset from the cabin dock on Squam Lake, summer vacation 2025", "Apple", "iPhone 15",
          "18.5", (240, 150, 90), (40, 70, 110), (30, 40, 30), gps=(43.77114, -71.53389)),
    Photo("photos/IMG_9012.jpg", at("2025-09-03 07:50"),
          "First day of school: Harper starts 4th grade, Leo starts 1st grade", "Apple", "iPhone 15",
          "18.6.2", (170, 210, 240), (100, 160, 80), (230, 80, 80), gps=HOUSE_GPS),
    Photo("photos/IMG_9655.jpg", at("2025-12-13 11:20"),
          "Picking out our Christmas tree at Hollis Tree Farm", "Apple", "iPhone 15", "26.1",
          (200, 210, 220), (240, 240, 245), (30, 100, 50), gps=(41.65822, -73.98741)),
    Photo("photos/IMG_9983.jpg", at("2026-02-14 18:45"), "Leo lost his first tooth!", "Apple",
          "iPhone 15", "26.2", (240, 220, 190), (180, 140, 100), (250, 250, 250), gps=HOUSE_GPS),
]

# ---- Notes ---------------------------------------------------------------------------------

NOTES = [
    Note("notes/wifi.txt", at("2024-06-09 20:30"), dedent("""
    HOME WI-FI
    written 6/9/2024 after the Fibrelink install

    Network: WhitakerHome
    Password: maple-otter-42

    Guest network: WhitakerGuest
    Guest password: welcome2024

    Router: Fibrelink gateway in the hall closet (admin login is on the sticker underneath).
    Garage keypad: 8812
    """)),
    Note("notes/house-info.md", at("2026-01-18 16:45"), dedent("""
    # House info - 214 Alder Lane

    Last updated: January 18, 2026

    ## Internet
    We replaced the Fibrelink gateway with an eero mesh on January 18, 2026 (main unit in the
    living room, satellites in the office and the basement).

    - Network: Whitaker-Mesh
    - Password: Lantern!Creek27
    - Guest network: Whitaker-Guest, password sunflower-88
    - Fibrelink account number: 8834-20917-03 (support 1-800-555-0199)

    ## Shutoffs
    - Gas: valve on the supply pipe next to the water heater in the basement (handle across
      the pipe = off)
    - Water main: front crawlspace, left of the hatch
    - Breaker panel: garage, behind the bikes

    ## Trash
    Trash and recycling go out Monday night for Tuesday pickup. Recycling is every other week
    (even weeks).

    ## Accounts
    - Electric and gas: Hudson Valley Energy, account 20-4471-9902
    - Water and sewer: Town of Westbrook, account W-11872
    """)),
    Note("notes/babysitter.md", at("2026-03-01 21:10"), dedent("""
    # Notes for babysitters

    Updated March 1, 2026

    ## Kids
    - Harper is in 4th grade with Mr. Patel (Room 14); Leo is in 1st grade with Ms. Kim (Room 3),
      both at Birchwood Elementary.
    - Bedtime: Leo 7:45, Harper 8:30 (reading in bed until 9 is fine).
    - Leo is allergic to cashews. His EpiPen is in the kitchen drawer left of the stove.
      No cashew snacks in the house, ever.
    - Screen time: 30 minutes after homework.

    ## Maggie (the dog)
    - 2 cups of kibble at 7 AM and 5 PM. No table food.
    - Don't let her out the front door; she bolts for the neighbors' cat.

    ## House
    - Garage keypad code (changed October 2025): 4419
    - Wi-Fi: the card on the fridge.

    ## Phone numbers
    - Priya (555) 010-1201, Tom (555) 010-1202
    - Pediatrician: Dr. Anita Shah, Maple Grove Pediatrics, (555) 010-3300
    - Vet: Oakridge Animal Hospital, (555) 010-4400
    - Neighbors: the Hendersons at #216 have a key.
    """)),
    Note("notes/home-projects-2023.md", at("2023-12-30 14:00"), dedent("""
    # Home projects 2023

    Written December 30, 2023, for next year's budget.

    - April: repainted the living room. Color: Benjamin Moore "Pale Oak" OC-20, eggshell finish.
      Two gallons left in the basement for touch-ups.
    - May: planted two serviceberry trees along the back fence.
    - June: new dehumidifier in the basement (Frigidaire 50-pint), about $260.
    - September: new roof (full tear-off, architectural shingles) plus new gutters with leaf
      guards. Receipt and warranty papers are in the blue file box.
    - October: had the driveway sealed (Westbrook Paving, $450).

    Next year: replace the back steps, look at a new dishwasher (the old one is 15 years old).
    """)),
]


# --------------------------------------------------------------------------------------------

def main() -> None:
    for doc in PDFS:
        write(doc.path, doc.render(), doc.date)
    for cal in CALENDARS:
        write(cal.path, ics(cal), cal.date)
    for number, mail in enumerate(MAILDIR, start=1):
        write(f"mail/Maildir/{mail.folder}/{maildir_name(mail, number)}",
              email_message(mail).as_bytes(), mail.date)
    for mail in EMLS:
        write(f"mail/{mail.eml}", email_message(mail).as_bytes(), mail.date)
    letters = sorted((newsletter(*row) for row in NEWSLETTERS), key=lambda m: m.date)
    mbox = b"".join(mbox_from_line(m) + mbox_escape(email_message(m).as_bytes()).rstrip(b"\n")
                    + b"\n\n" for m in letters)
    write("mail/newsletters.mbox", mbox, letters[-1].date)
    for photo in PHOTOS:
        write(photo.path, jpeg(photo), photo.taken)
    for note in NOTES:
        write(note.path, note.body.encode(), note.date)
    # Maildir needs its tmp/ folder to be a valid maildir.
    (OUT / "mail/Maildir/tmp").mkdir(parents=True, exist_ok=True)
    print(f"wrote {len(WRITTEN)} files under {OUT}")


if __name__ == "__main__":
    main()
