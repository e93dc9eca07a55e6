#!/usr/bin/env python3
"""Generate the Halvorsen-Reyes household sample corpus (corpus_samples/household-b/household/).

Every document is data in this file; every file is rebuilt byte for byte (fixed dates, fixed
MIME boundaries, fixed Message-IDs, fixed mtimes).  Only files under household/ are written.

    python corpus_samples/household-b/generate.py          # (re)build household/
    python corpus_samples/household-b/generate.py --list   # also print key -> path

Needs the standard library and Pillow (for the JPEG EXIF).
"""
import base64
import os
import sys
import textwrap
from datetime import date, datetime, timedelta, timezone

from PIL import Image, ImageDraw
from PIL.TiffImagePlugin import IFDRational

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "household")

MANIFEST = {}  # key -> path relative to HERE


# --------------------------------------------------------------------------- time helpers
def _nth_sunday(year, month, n):
    d = date(year, month, 1)
    d += timedelta(days=(6 - d.weekday()) % 7)
    return d + timedelta(days=7 * (n - 1))


def pacific(y, m, d, hh=9, mm=0, ss=0):
    """Aware datetime in US Pacific time (hand-coded US DST rules, no tz database needed)."""
    naive = datetime(y, m, d, hh, mm, ss)
    start = datetime.combine(_nth_sunday(y, 3, 2), datetime.min.time()).replace(hour=2)
    end = datetime.combine(_nth_sunday(y, 11, 1), datetime.min.time()).replace(hour=2)
    off = -7 if start <= naive < end else -8
    return naive.replace(tzinfo=timezone(timedelta(hours=off)))


def rfc2822(dt):
    days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    off = int(dt.utcoffset().total_seconds() // 60)
    sign = "-" if off < 0 else "+"
    off = abs(off)
    return "%s, %02d %s %04d %02d:%02d:%02d %s%02d%02d" % (
        days[dt.weekday()], dt.day, months[dt.month - 1], dt.year, dt.hour, dt.minute, dt.second,
        sign, off // 60, off % 60)


def epoch(dt):
    return int(dt.timestamp())


def pdf_date(dt):
    off = int(dt.utcoffset().total_seconds() // 60)
    sign = "-" if off < 0 else "+"
    off = abs(off)
    return "D:%s%s%02d'%02d'" % (dt.strftime("%Y%m%d%H%M%S"), sign, off // 60, off % 60)


def ics_utc(dt):
    return dt.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def T(s):
    """Dedent a triple-quoted block and drop the first newline."""
    return textwrap.dedent(s).lstrip("\n")


def write(rel, data, dt):
    path = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)
    ts = epoch(dt)
    os.utime(path, (ts, ts))
    return os.path.relpath(path, HERE)


# --------------------------------------------------------------------------- PDF writer
def _pdf_escape(s):
    b = s.encode("cp1252")
    return b.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")


def _layout(text):
    """Text -> pages of (font, size, leading, line).  '# ' title, '## ' heading, '\\f' page break."""
    pages, cur, used = [], [], 0.0
    top, bottom = 740.0, 60.0
    for raw in text.split("\n"):
        if raw.strip() == "\f":
            pages.append(cur)
            cur, used = [], 0.0
            continue
        if raw.startswith("# "):
            items = [("F2", 15, 22, raw[2:])]
        elif raw.startswith("## "):
            items = [("F2", 11.5, 17, raw[3:])]
        else:
            wrapped = textwrap.wrap(raw, 100, subsequent_indent="    ") if raw.strip() else [""]
            items = [("F1", 9.5, 13, w) for w in wrapped]
        for it in items:
            if used + it[2] > top - bottom:
                pages.append(cur)
                cur, used = [], 0.0
            cur.append(it)
            used += it[2]
    pages.append(cur)
    return [p for p in pages if p]


def make_pdf(text, info):
    """info: dict of Info entries (values str; 'CreationDate' a datetime) or None for no Info."""
    pages = _layout(text)
    objs = []  # bytes of objects 1..n

    def add(b):
        objs.append(b)
        return len(objs)

    add(b"")  # 1 catalog placeholder
    add(b"")  # 2 pages placeholder
    f1 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    f2 = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    kids = []
    for page in pages:
        y = 740.0
        stream = b""
        for font, size, lead, line in page:
            y -= lead
            if line:
                stream += b"BT /%s %g Tf 60 %.1f Td (%s) Tj ET\n" % (
                    font.encode(), size, y, _pdf_escape(line))
        cid = add(b"<< /Length %d >>\nstream\n%sendstream" % (len(stream), stream))
        pid = add(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                  b"/Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> >> /Contents %d 0 R >>"
                  % (f1, f2, cid))
        kids.append(pid)
    objs[0] = b"<< /Type /Catalog /Pages 2 0 R >>"
    objs[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    info_id = None
    if info is not None:
        parts = []
        for k in ("Title", "Author", "Subject", "Creator", "Producer", "CreationDate", "ModDate"):
            if k in info:
                v = info[k]
                if isinstance(v, datetime):
                    v = pdf_date(v)
                parts.append(b"/%s (%s)" % (k.encode(), _pdf_escape(v)))
        info_id = add(b"<< " + b" ".join(parts) + b" >>")
    out = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, o)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
    for off in offsets:
        out += b"%010d 00000 n \n" % off
    trailer = b"<< /Size %d /Root 1 0 R" % (len(objs) + 1)
    if info_id:
        trailer += b" /Info %d 0 R" % info_id
    out += b"trailer\n" + trailer + b" >>\nstartxref\n%d\n%%%%EOF\n" % xref
    return out


# --------------------------------------------------------------------------- email writer
def _b64(data):
    s = base64.b64encode(data).decode("ascii")
    return "\n".join(s[i:i + 76] for i in range(0, len(s), 76))


def build_email(m):
    dt = m["date"]
    h = [("From", m["from"]), ("To", m["to"])]
    if m.get("cc"):
        h.append(("Cc", m["cc"]))
    h += [("Subject", m["subject"]), ("Date", rfc2822(dt)), ("Message-ID", "<%s>" % m["mid"])]
    if m.get("irt"):
        h.append(("In-Reply-To", "<%s>" % m["irt"]))
        h.append(("References", " ".join("<%s>" % r for r in m.get("refs", [m["irt"]]))))
    h += m.get("headers", [])
    h.append(("MIME-Version", "1.0"))
    body = m["body"]
    if not body.endswith("\n"):
        body += "\n"
    atts = m.get("atts", [])
    if not atts:
        h += [("Content-Type", "text/plain; charset=utf-8"), ("Content-Transfer-Encoding", "8bit")]
        return "".join("%s: %s\n" % kv for kv in h) + "\n" + body
    boundary = "=_hb_%s_0417" % m["key"]
    h.append(("Content-Type", 'multipart/mixed; boundary="%s"' % boundary))
    out = "".join("%s: %s\n" % kv for kv in h) + "\nThis is a multi-part message in MIME format.\n\n"
    out += "--%s\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n%s\n" % (
        boundary, body)
    for fname, ctype, data in atts:
        out += "--%s\nContent-Type: %s; name=\"%s\"\nContent-Disposition: attachment; filename=\"%s\"\n" \
               "Content-Transfer-Encoding: base64\n\n%s\n\n" % (boundary, ctype, fname, fname, _b64(data))
    out += "--%s--\n" % boundary
    return out


def mbox_from_line(m):
    addr = m["from"].split("<")[-1].rstrip(">") if "<" in m["from"] else m["from"]
    u = m["date"].astimezone(timezone.utc)
    return "From %s %s%2d %s\n" % (addr, u.strftime("%a %b "), u.day, u.strftime("%H:%M:%S %Y"))


def mbox_escape(text):
    out = []
    for line in text.split("\n"):
        stripped = line.lstrip(">")
        if stripped.startswith("From "):
            line = ">" + line
        out.append(line)
    return "\n".join(out)


# --------------------------------------------------------------------------- calendar writer
VTIMEZONE = T("""
BEGIN:VTIMEZONE
TZID:America/Los_Angeles
BEGIN:DAYLIGHT
TZOFFSETFROM:-0800
TZOFFSETTO:-0700
TZNAME:PDT
DTSTART:19700308T020000
RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU
END:DAYLIGHT
BEGIN:STANDARD
TZOFFSETFROM:-0700
TZOFFSETTO:-0800
TZNAME:PST
DTSTART:19701101T020000
RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU
END:STANDARD
END:VTIMEZONE
""")


def _fold(line):
    b = line.encode("utf-8")
    if len(b) <= 75:
        return line
    parts, cur = [], ""
    for ch in line:
        if len((cur + ch).encode("utf-8")) > (75 if not parts else 74):
            parts.append(cur)
            cur = ch
        else:
            cur += ch
    parts.append(cur)
    return "\r\n ".join(parts)


def _ics_text(s):
    return s.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def make_ics(calname, events, method=None):
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Halvorsen-Reyes//household-b generator//EN",
             "CALSCALE:GREGORIAN"]
    if method:
        lines.append("METHOD:" + method)
    if calname:
        lines.append("X-WR-CALNAME:" + calname)
        lines.append("X-WR-TIMEZONE:America/Los_Angeles")
    lines += VTIMEZONE.strip().split("\n")
    for e in events:
        lines.append("BEGIN:VEVENT")
        lines.append("UID:" + e["uid"])
        lines.append("DTSTAMP:" + ics_utc(e["modified"]))
        if e.get("created"):
            lines.append("CREATED:" + ics_utc(e["created"]))
        lines.append("LAST-MODIFIED:" + ics_utc(e["modified"]))
        if e.get("allday"):
            s, en = e["start"], e["end"]
            lines.append("DTSTART;VALUE=DATE:" + s.strftime("%Y%m%d"))
            lines.append("DTEND;VALUE=DATE:" + en.strftime("%Y%m%d"))
        else:
            lines.append("DTSTART;TZID=America/Los_Angeles:" + e["start"].strftime("%Y%m%dT%H%M%S"))
            lines.append("DTEND;TZID=America/Los_Angeles:" + e["end"].strftime("%Y%m%dT%H%M%S"))
        if e.get("rrule"):
            lines.append("RRULE:" + e["rrule"])
        lines.append("SUMMARY:" + _ics_text(e["summary"]))
        if e.get("location"):
            lines.append("LOCATION:" + _ics_text(e["location"]))
        if e.get("description"):
            lines.append("DESCRIPTION:" + _ics_text(e["description"]))
        if e.get("organizer"):
            lines.append("ORGANIZER;CN=" + e["organizer"])
        lines.append("SEQUENCE:%d" % e.get("sequence", 0))
        lines.append("STATUS:" + e.get("status", "CONFIRMED"))
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(_fold(l) + "\r\n" for l in lines)


# --------------------------------------------------------------------------- photo writer
def make_jpeg(spec):
    w, h = 64, 48
    im = Image.new("RGB", (w, h), spec["bg"])
    d = ImageDraw.Draw(im)
    for shape in spec.get("draw", []):
        kind, box, color = shape
        if kind == "rect":
            d.rectangle(box, fill=color)
        elif kind == "ellipse":
            d.ellipse(box, fill=color)
        elif kind == "line":
            d.line(box, fill=color, width=2)
    ex = Image.Exif()
    stamp = spec["dt"].strftime("%Y:%m:%d %H:%M:%S")
    ex[0x010F] = spec["make"]
    ex[0x0110] = spec["model"]
    ex[0x010E] = spec["desc"]
    ex[0x0132] = stamp
    eifd = ex.get_ifd(0x8769)
    eifd[0x9003] = stamp
    eifd[0x9004] = stamp
    if spec.get("gps"):
        lat, lon = spec["gps"]

        def dms(v):
            v = abs(v)
            deg = int(v)
            mins = int((v - deg) * 60)
            secs = round(((v - deg) * 60 - mins) * 60 * 100)
            return (IFDRational(deg, 1), IFDRational(mins, 1), IFDRational(secs, 100))

        g = ex.get_ifd(0x8825)
        g[0] = b"\x02\x02\x00\x00"
        g[1] = "N" if lat >= 0 else "S"
        g[2] = dms(lat)
        g[3] = "E" if lon >= 0 else "W"
        g[4] = dms(lon)
    import io
    buf = io.BytesIO()
    im.save(buf, "JPEG", quality=88, exif=ex)
    return buf.getvalue()


# =========================================================================== DOCUMENTS AS DATA
# Household: Marcus Halvorsen and Naomi Reyes, 41 Heron Bend Road, Marlow Falls, OR 97361.
# Iris (12, grade 7, Cedar Ridge Middle School), Felix (8, grade 3, Quarry Hill Elementary,
# Ms. Okonkwo's Room 14).  Biscuit (beagle mix) and Clementine ("Clem", cat).
# Uncle Clem = Clement Halvorsen, Marcus's brother, in Bend.  "Mom" (Naomi's) = Lupe Reyes.
# Corpus "today": Tuesday 2026-04-21.

P = pacific  # shorthand

# --------------------------------------------------------------------------- PDFs
# path None -> only used as an email attachment.  info None -> no Info dictionary at all.
PDFS = {}


def pdf(key, path, text, info, date_):
    PDFS[key] = {"path": path, "text": T(text), "info": info, "date": date_}


# ---- school
pdf("district_calendar", "documents/school/mfsd41-2025-26-calendar.pdf", """
# Marlow Falls School District 41
## 2025-26 Student Calendar (approved by the School Board, June 2025)
All K-12 schools: Quarry Hill Elementary, Sandpiper Elementary, Cedar Ridge Middle School,
Marlow Falls High School. Full-day dismissal: elementary 2:50 PM, middle 3:20 PM, high 3:05 PM.
Half days: elementary 11:50 AM, middle 12:20 PM, high 12:05 PM.

## August / September 2025
Aug 25-29  Teacher work days (no school for students)
Tue Sep 2  First day of school, grades 1-12
Wed Sep 3  First day for kindergarten
## October 2025
Fri Oct 10  No school - statewide in-service day
## November 2025
Tue Nov 11  No school - Veterans Day
Wed Nov 19 - Fri Nov 21  Parent-teacher conferences (half days)
Wed Nov 26 - Fri Nov 28  Thanksgiving break - no school
## December 2025 / January 2026
Mon Dec 22 - Fri Jan 2  Winter break - no school
Mon Jan 5  School resumes
Mon Jan 19  No school - Martin Luther King Jr. Day
Fri Jan 30  No school - end of semester grading day
\f
# MFSD 41 - 2025-26 Student Calendar (page 2)
## February 2026
Mon Feb 16  No school - Presidents Day
## March 2026
Fri Mar 13  Half day - end of trimester 2 (elementary)
Mon Mar 23 - Fri Mar 27  Spring conferences, half days for elementary
## April 2026
Mon Apr 6 - Fri Apr 10  Spring break - no school
Fri Apr 24  No school - staff development day
## May 2026
Mon May 25  No school - Memorial Day
## June 2026
Thu Jun 11  Last day of school - half day
Snow and emergency closures: days lost to weather may be made up. Make-up days, if needed,
will be announced by the district and posted to the online calendar.
District office: 1450 Quarry Road, Marlow Falls, OR 97361 - (541) 555-0100
""", {"Title": "MFSD 41 2025-26 Student Calendar", "Producer": "Microsoft Word - Print to PDF",
      "CreationDate": P(2025, 8, 4, 14, 12)}, P(2025, 8, 4, 14, 12))

pdf("science_syllabus", "documents/school/science7-spring-syllabus.pdf", """
# Cedar Ridge Middle School - Science 7
## Spring Semester Syllabus - Ms. Ruth Iwasaki, Room 212
January 12, 2026

Welcome back! This semester we study ecosystems, energy transfer and human body systems.
Every student completes an independent science fair investigation.

## Materials
Composition notebook (graph ruled), pencils, colored pencils, a tri-fold display board
(available at the student store for $6).

## Science fair timeline
Fri Feb 20   Project proposal and research question due
Fri Mar 20   Data collection complete; share data table in class
Fri Apr 17   Draft conclusion and graphs due
Fri Apr 24   Display board due, in Room 212 before first period
Tue Apr 28   Judging during science classes
Top projects advance to the Mid-Valley Regional Fair in May.

## Grading
Labs 35%, notebook 15%, quizzes and tests 30%, science fair 20%.
Late work: 10% off per school day, up to five days.

Questions? riwasaki@mfsd41.org or leave a note on the class page.
""", {"Title": "Science 7 Spring Syllabus", "Producer": "Google Docs Renderer"},
    P(2026, 1, 12, 8, 0))

pdf("iris_schedule", "documents/school/crms-spring-2026-class-schedule.pdf", """
# Cedar Ridge Middle School
## Spring 2026 Class Schedule
Student: HALVORSEN, IRIS M.          Student ID: 2043187
Grade: 7      Homeroom: 118 (Mr. Delgado)      Counselor: Ms. Farah Qureshi
Locker: B-214

## Period   Course                      Teacher               Room
1   Science 7                   R. Iwasaki            212
2   Math 7 Advanced             P. Lindgren           204
3   Language Arts 7             T. Okafor             119
4   Concert Orchestra (violin)  H. Vasquez-Brandt     Music 2
5   Lunch / Advisory
6   World History               G. Marsh              121
7   PE / Health                 K. Boateng            Gym

Bell schedule: Period 1 begins 8:20 AM. Dismissal 3:20 PM.
Use your student ID for the lunch line, library checkout and the school laptop login.
Printed January 26, 2026.
""", {"Title": "Class schedule - Halvorsen, Iris", "Producer": "Synergy SIS 2025.3",
      "CreationDate": P(2026, 1, 26, 7, 40)}, P(2026, 1, 26, 7, 40))

pdf("felix_progress", "documents/school/quarry-hill-progress-report-t2.pdf", """
# Quarry Hill Elementary - Trimester 2 Progress Report
Student: Felix Halvorsen      Grade 3      Room 14      Teacher: Ms. A. Okonkwo
Report date: March 16, 2026

## Reading                 3 - Meets standard
## Writing                 2 - Approaching standard
## Mathematics             3 - Meets standard
## Science                 4 - Exceeds standard
## Social studies          3 - Meets standard
## Work habits             3 - Consistently
Days absent: 2 (plus 2 district snow closures)   Tardies: 1

Teacher comment: Felix is a curious scientist and a kind friend. He loved our plant life cycle
investigations. This trimester let's work on adding detail to his writing and checking his
reading log every night.
""", {"Title": "Progress Report T2", "Producer": "Synergy SIS 2025.3",
      "CreationDate": P(2026, 3, 16, 15, 30)}, P(2026, 3, 16, 15, 30))

# attachments: school
pdf("bus_letter_2025", None, """
# MFSD 41 Transportation - Bus Assignment 2025-26
August 20, 2025

Student: Felix Halvorsen            School: Quarry Hill Elementary      Grade: 3
Route: 22            Bus: 31          Driver: Mr. Alvarez
Stop: Heron Bend Rd & Marsh Ln

AM pickup: 7:41 AM
PM drop-off: 3:12 PM

Please have your student at the stop five minutes before the scheduled time. Drivers cannot
wait for students who are not visible at the stop. Kindergarten and first grade students must
be met by an adult in the afternoon.

Bus conduct expectations are on the back of this letter. Questions: Transportation Office,
(541) 555-0160, transportation@mfsd41.org.
""", {"Title": "Bus assignment", "Producer": "Versatrans RP 14.2",
      "CreationDate": P(2025, 8, 20, 11, 0)}, P(2025, 8, 20, 11, 0))

pdf("orchestra_flyer", None, """
# Cedar Ridge Middle School Orchestras
## Spring Concert
Thursday, April 30, 2026 - 6:30 PM
CRMS Gymnasium, 2900 Cedar Ridge Drive

Featuring the 6th Grade Strings, the Concert Orchestra (grades 7-8) and the Chamber Ensemble.
Program includes Holst's "St. Paul's Suite", a fiddle-tune medley and a student-composed piece.

Performers: arrive by 6:00 PM in the band room for tuning.
Concert dress: black pants or skirt, white top, black shoes.
Free admission - all are welcome. Donations support the summer strings camp scholarship.
Director: Helen Vasquez-Brandt
""", {"Title": "Spring Concert flyer", "Producer": "Canva", "CreationDate": P(2026, 2, 23, 20, 5)},
    P(2026, 2, 23, 20, 5))

pdf("permission_slip", None, """
# Quarry Hill Elementary - Field Trip Permission
Grade 3, Room 14 (Ms. Okonkwo)

Destination: Willamette Discovery Farm, 2200 Orchard Heights Road
Date of trip: Thursday, April 30, 2026
Leave school 9:00 AM - return by 2:15 PM (regular dismissal)
Transportation: district bus
Cost: $12 per student (covers admission and the seed-planting workshop).
Scholarships are available - no student will miss the trip because of cost.

What to bring: a sack lunch with a drink, a water bottle, closed-toe shoes that can get muddy,
a jacket.

Please return this form with payment by Friday, April 24.
Chaperones: we need four adults. Chaperones must have a current district volunteer clearance.

Student name: ______________________________
My child may attend the field trip described above.
Parent/guardian signature: ______________________   Phone: ________________
[ ] I can chaperone      [ ] Enclosed $12      [ ] Requesting scholarship
""", {"Title": "Room 14 field trip permission", "Producer": "Microsoft Word",
      "CreationDate": P(2026, 4, 15, 15, 40)}, P(2026, 4, 15, 15, 40))

pdf("league_schedule", None, """
# Marlow Falls Little League - Spring 2026
## Minors Division - ROCKHOUNDS
Manager: Luis Ortega     Team parent: Kim Delacroix

## Games
Sat Apr 11   10:00 AM   vs Mill City Millers          Heron Park Field 3
Sat Apr 18   12:30 PM   at Santiam Sluggers           Dutton Field #2
Sat Apr 25   10:00 AM   vs Canyon Creek Coyotes       Heron Park Field 3
Sat May 2     9:00 AM   at Riverbend Rattlers         Riverbend Park
Sat May 9    12:30 PM   vs Santiam Sluggers           Heron Park Field 3
Sat May 16   10:00 AM   at Mill City Millers          Mill City Ballpark
Sat May 23   TBD        Minors tournament

Home team: provide the game ball and run the scoreboard.
Practices: Wednesdays, 5:30-7:00 PM; location per your manager.
Rainouts are announced by the league by 8:00 AM on game day.
""", {"Title": "Rockhounds spring schedule", "Producer": "LeagueApps export",
      "CreationDate": P(2026, 3, 1, 18, 0)}, P(2026, 3, 1, 18, 0))

pdf("meet_packet", None, """
# Riverbend Invitational - Meet Information
Saturday, May 2, 2026
Host: Riverbend Aquatic Club
Location: Riverbend Community Pool, 410 Mill Race Road, Riverbend, OR

## Timeline (11-14 session)
Facility opens     6:55 AM
Warm-up            7:15 - 8:15 AM
Meet begins        8:30 AM
Estimated finish   12:30 PM
Swimmers 10 & under swim the afternoon session (warm-up 12:45 PM).

## Events (11-14)
1  Girls 100 IM        2  Boys 100 IM
5  Girls 50 Free       6  Boys 50 Free
9  Girls 100 Back      10 Boys 100 Back
13 Girls 50 Breast     14 Boys 50 Breast
17 Girls 200 Free Relay 18 Boys 200 Free Relay
\f
# Riverbend Invitational - page 2
## Entries and fees
$6.00 per individual event, $10 per relay, $12 facility surcharge per swimmer.
Entries close Wednesday, April 22 at 9:00 PM. Maximum four individual events per swimmer.
## Parking and spectators
Park in the Mill Race Road lot; overflow at Riverbend Middle School. Spectator seating is in
the upper bleachers only. No glass containers or flash photography at starts.
## Officials
Each club provides two timers per session. Marlins timers sign up with Coach Dana.
""", {"Title": "Riverbend Invitational meet packet", "Producer": "Hy-Tek Meet Manager 8.0",
      "CreationDate": P(2026, 4, 16, 21, 10)}, P(2026, 4, 16, 21, 10))

pdf("hoa_agenda", None, """
# Heron Bend Neighbors Association
## Spring General Meeting - Agenda
Wednesday, April 22, 2026, 6:00 PM
Marlow Falls Grange Hall, 3315 Quarry Road

1. Call to order and introductions (Owen Sutherland, President)
2. Approval of the minutes of the October 14, 2025 meeting
3. Treasurer's report (Gloria Fenwick)
4. Vote: 2026 dues of $260 per household (up from $240), the increase to fund the entrance
   landscaping reserve
5. Entrance landscaping: bids from Green Thumb Landscapes and Marlow Valley Gardens
6. Speed bumps on Heron Bend Road - update from the city traffic engineer
7. Summer block party date
8. Open floor
9. Adjourn by 7:30 PM

Coffee and cookies provided by the Sutherlands.
""", {"Title": "HOA spring agenda", "Producer": "LibreOffice 7.6",
      "CreationDate": P(2026, 4, 9, 18, 40)}, P(2026, 4, 9, 18, 40))

# ---- bills (monthly series, attachments)
def cve(key, stmt, period, kwh, energy, total, due, with_date):
    text = """
# Cascade Valley Electric
## Residential Statement
Statement date: %s
Account number: 5520-117719
Customer: NAOMI REYES
Service address: 41 HERON BEND RD, MARLOW FALLS OR 97361

## Billing period: %s
Meter 88214037   kWh used: %s   Rate schedule: R-1 Residential

Basic charge                                      $12.50
Energy charge (%s kWh)                            $%s
Transmission and public purpose charges           included above
Total amount due                                  $%s
Due date: %s

AutoPay is not active on this account. Pay online, by phone at 1-800-555-0128, or mail the
stub below. Outage? Call 1-800-555-0129 or text OUT to 55012.
""" % (stmt, period, kwh, kwh, energy, total, due)
    info = {"Title": "CVE statement", "Producer": "CVE Billing 5"}
    y, m, d = {"January 9, 2026": (2026, 1, 9), "February 9, 2026": (2026, 2, 9),
               "March 9, 2026": (2026, 3, 9), "April 9, 2026": (2026, 4, 9)}[stmt]
    if with_date:
        info["CreationDate"] = P(y, m, d, 4, 15)
    pdf(key, None, text, info, P(y, m, d, 4, 15))


cve("cve_2026_01", "January 9, 2026", "Dec 5, 2025 - Jan 6, 2026", "1,284", "129.68", "142.18",
    "January 30, 2026", False)
cve("cve_2026_02", "February 9, 2026", "Jan 6 - Feb 5, 2026", "1,186", "119.05", "131.55",
    "March 2, 2026", True)
cve("cve_2026_03", "March 9, 2026", "Feb 5 - Mar 6, 2026", "1,058", "105.90", "118.40",
    "March 30, 2026", True)
cve("cve_2026_04", "April 9, 2026", "Mar 6 - Apr 6, 2026", "842", "84.22", "96.72",
    "April 30, 2026", False)

pdf("bw_2026_01", None, """
# brightwave
## Your statement
Statement date: 8 January 2026
Account: 3090-44172     Billing period: Jan 8 - Feb 7, 2026
NAOMI REYES, 41 HERON BEND RD, MARLOW FALLS OR 97361

Fiber 500 - promotional price (month 7 of 7)          $55.00
Wi-Fi 6 router rental                                   $0.00
Taxes and regulatory fees                               $1.42
Total due January 28, 2026                             $56.42

Good to know: your promotional pricing ends with this billing period. Visit
brightwave.net/plans to see standard pricing for your plan.
""", {"Title": "Brightwave statement", "Producer": "BW Invoicing"}, P(2026, 1, 8, 6, 0))

for _k, _mon, _d, _per, _due in (
        ("bw_2026_03", 3, "8 March 2026", "Mar 8 - Apr 7, 2026", "March 28, 2026"),
        ("bw_2026_04", 4, "8 April 2026", "Apr 8 - May 7, 2026", "April 28, 2026")):
    pdf(_k, None, """
# brightwave
## Your statement
Statement date: %s
Account: 3090-44172     Billing period: %s
NAOMI REYES, 41 HERON BEND RD, MARLOW FALLS OR 97361

Fiber 500 - monthly service                            $70.00
Wi-Fi 6 router rental                                   $0.00
Taxes and regulatory fees                               $1.84
Total due %s                             $71.84

Thanks for being a Brightwave customer. Refer a neighbor and you both get a $50 credit.
""" % (_d, _per, _due), {"Title": "Brightwave statement", "Producer": "BW Invoicing",
                         "CreationDate": P(2026, _mon, 8, 6, 0)}, P(2026, _mon, 8, 6, 0))

pdf("ridgeline_2026_02", "documents/bills/ridgeline-statement-2026-02.pdf", """
# Ridgeline Disposal & Recycling
## Quarterly Service Statement
Statement date: 2 February 2026
Customer no.: RD-4471-0935   (formerly 40-11873-2 - we have moved to a new billing system;
please use your new customer number on checks and when you call us)
Service address: 41 Heron Bend Rd, Marlow Falls OR 97361
Billing name: Marcus Halvorsen

Service period February 1 - April 30, 2026
35-gallon refuse cart, weekly (Thursday)                     $87.30
96-gallon commingled recycling, every other week              included
96-gallon yard debris cart (weekly April - November)          $31.20
Amount due by February 25, 2026                              $118.50

Reminder: place carts at the curb by 6:00 AM with lids closed, 3 feet apart.
Questions: (541) 555-0177, Monday-Friday 8-5.
""", {"Title": "Statement", "Producer": "Ridgeline Billing"}, P(2026, 2, 2, 9, 0))

pdf("ridgeline_2025_08", "documents/bills/ridgeline-statement-2025-08.pdf", """
# Ridgeline Disposal & Recycling
## Quarterly Service Statement
Statement date: 1 August 2025
Account: 40-11873-2
Service address: 41 Heron Bend Rd, Marlow Falls OR 97361
Billing name: Marcus Halvorsen

Service period August 1 - October 31, 2025
35-gallon refuse cart, weekly (Thursday)                     $84.60
96-gallon commingled recycling, every other week              included
96-gallon yard debris cart (weekly April - November)          $30.00
Amount due by August 25, 2025                                $114.60
""", {"Title": "Statement", "Producer": "RDR AR module", "CreationDate": P(2025, 8, 1, 9, 0)},
    P(2025, 8, 1, 9, 0))

pdf("water_2026_03", "documents/bills/marlow-falls-utilities-2026-03.pdf", """
# City of Marlow Falls - Utility Billing
## Water, Sewer and Stormwater
Bill date: March 5, 2026
Account: 0031872-04
Service location: 41 HERON BEND RD
Read dates: Jan 2 - Mar 2, 2026 (bi-monthly)   Usage: 7 CCF (5,236 gallons)

Water base charge            $22.40
Water usage (7 CCF)          $19.95
Sewer                        $38.60
Stormwater                    $7.20
Total due by March 26, 2026  $88.15

Spring tip: check your irrigation system for leaks before turning it on.
Pay online at marlowfallsor.gov/utilities or at City Hall, 200 Main Street.
""", {"Title": "Utility bill", "Producer": "CityWorks Billing",
      "CreationDate": P(2026, 3, 5, 7, 30)}, P(2026, 3, 5, 7, 30))

# ---- home
pdf("summit_2026_02", None, """
# Summit Air Heating & Cooling
## INVOICE 26-0214
Invoice date: February 12, 2026
Customer: Marcus Halvorsen, 41 Heron Bend Rd, Marlow Falls OR 97361
Job date: February 10, 2026      Technicians: Andre Lutz, Sam Whitfield
Permit: City of Marlow Falls MECH-26-0088

Remove and dispose of existing 2006 Carrollton 80% gas furnace              $450.00
Norden N96T080B 96% AFUE two-stage gas furnace, 80,000 BTU                $4,980.00
New 4-inch media filter cabinet; filter size 20x25x4, MERV 11             $385.00
   (replace every 6-12 months; spare filter left with homeowner)
PVC venting, condensate line and pump                                     $640.00
Labor (two technicians, one day)                                        $1,290.00
Permit and inspection                                                     $195.00
Total                                                                   $7,940.00
Deposit received 01/28/2026 (check 2214)                               -$2,000.00
Paid in full 02/10/2026 (Visa ending 4471)                             -$5,940.00
Amount due                                                                  $0.00

Thank you for choosing Summit Air. Your 10-year parts warranty will be registered for you.
""", {"Title": "Invoice 26-0214", "Producer": "ServiceTitan", "CreationDate": P(2026, 2, 12, 9, 45)},
    P(2026, 2, 12, 9, 45))

pdf("summit_2024_10", "documents/home/summit-air-tuneup-2024-10.pdf", """
# Summit Air Heating & Cooling
## INVOICE 24-1187
Invoice date: October 15, 2024
Customer: Marcus Halvorsen, 41 Heron Bend Rd, Marlow Falls OR 97361

Fall furnace tune-up (Comfort Club member price)                 $99.00
   Clean burners, check flame sensor, test safeties, check gas pressure
Replace filter - 20x25x1 pleated MERV 8                          $18.00
Total                                                           $117.00
Paid - Visa                                                    -$117.00

Technician notes: Carrollton 80% furnace, installed 2006. Running normally. Filter was very
dirty - recommend changing the 1-inch filter every 2 months.
""", {"Title": "Invoice 24-1187", "Producer": "ServiceTitan", "CreationDate": P(2024, 10, 15, 16, 20)},
    P(2024, 10, 15, 16, 20))

pdf("summit_2025_10", "documents/home/summit-air-tuneup-2025-10.pdf", """
# Summit Air Heating & Cooling
## INVOICE 25-1342
Invoice date: October 21, 2025
Customer: Marcus Halvorsen, 41 Heron Bend Rd, Marlow Falls OR 97361

Fall furnace tune-up (Comfort Club member price)                $109.00
Replace filter - 20x25x1 pleated MERV 8                          $19.00
Total                                                           $128.00
Paid - Visa                                                    -$128.00

Technician notes: Furnace is 19 years old. Cracking visible at the heat exchanger seams;
carbon monoxide test normal today. Recommend replacement before next winter. Quote for a
96% two-stage furnace with a 4-inch media filter cabinet emailed to the homeowner.
""", {"Title": "Invoice 25-1342", "Producer": "ServiceTitan"}, P(2025, 10, 21, 15, 5))

pdf("fridge_manual", "documents/home/kelvaro-refrigerator-owners-manual.pdf", """
# Kelvaro French Door Refrigerator
## Owner's Manual and Installation Instructions
Models KFD-3690-SS, KFD-3690-BS, KFD-3690-WH (36-inch, 26 cu. ft.)

## Important safety instructions
Read all instructions before using this appliance. Connect to a grounded 3-prong outlet.
Do not use an extension cord. Keep children away from the appliance while it is being
installed. Dispose of the old refrigerator properly: remove its doors first.

## Installation
Leave 1 inch of clearance above and behind the cabinet. Level the unit front to back with the
leveling legs so the doors close on their own. Allow 24 hours for the freezer to reach
temperature before loading food.
\f
# Owner's Manual - page 2
## Water filter
Your refrigerator uses a KelvaPure WF-22 replacement cartridge located in the upper right
corner of the fresh food compartment. Replace the filter every 6 months, or when the filter
light turns red.
To replace: turn the old cartridge a quarter turn counter-clockwise and pull it straight out.
Insert the new WF-22 cartridge and turn clockwise until it locks. Dispense 4 gallons of water
to flush air and carbon fines. Hold the FILTER button for 3 seconds to reset the light.
Use only genuine KelvaPure cartridges; other filters may leak and void the warranty.
\f
# Owner's Manual - page 3
## Ice maker
Turn on the ice maker with the switch on the left side of the ice bin. The first ice takes
about 24 hours. Discard the first three batches.
## Temperature settings
Recommended: fresh food 37 F, freezer 0 F.
## Warranty
One year parts and labor; five years on the sealed system. Register at kelvaro.com/register.
Customer care: 1-800-555-0155.
""", {"Title": "KFD-3690 Owner's Manual", "Author": "Kelvaro Appliances",
      "Producer": "Adobe PDF Library 17.0", "CreationDate": P(2024, 5, 2, 10, 0)}, P(2024, 5, 2, 10, 0))

pdf("home_inspection", "documents/home/home-inspection-2019.pdf", """
# Cascade Home Inspections
## Inspection Report - 41 Heron Bend Road, Marlow Falls, OR
Inspection date: March 29, 2019
Client: Marcus Halvorsen and Naomi Reyes   Inspector: Dale Prentice, OCHI #1187

## Summary of significant items
1. Masonry chimney: heavy creosote in the flue. Recommend a professional sweep and a Level II
   chimney inspection before the fireplace is used.
2. Furnace: Carrollton 80% gas furnace, manufactured 2006 (13 years old). Operating. Budget
   for replacement within 5-8 years.
3. Gutters: debris buildup on the north side; consider guards.
4. Exterior paint: fair condition, some peeling on south-facing trim. Plan to repaint the
   exterior within 3-5 years.
\f
# Inspection Report - page 2
## Roof
Composition shingle, estimated 8 years old. Serviceable. Moss on the north slope.
## Plumbing
Water heater: 50-gallon gas, 2014. Main water shutoff in the crawlspace near the front
foundation vent. Sewer lateral: original clay pipe (1978); a camera scope is recommended.
## Electrical
200-amp panel, garage. Two outlets in the basement lack GFCI protection.
## Deck / exterior
No deck. Concrete patio at the rear, cracked but stable.
\f
# Inspection Report - page 3
## Interior
Windows: double-pane vinyl, two failed seals in the upstairs bedroom.
Kitchen appliances: functional at the time of inspection.
## Limitations
This inspection is visual and not a guarantee of future performance. The chimney interior was
only partially visible.
Report issued April 2, 2019.
""", {"Title": "Inspection Report - 41 Heron Bend Rd", "Producer": "HomeGauge 6",
      "CreationDate": P(2019, 4, 2, 17, 0)}, P(2019, 4, 2, 17, 0))

pdf("timberline_deck", "documents/home/timberline-deck-contract-2021.pdf", """
# Timberline Decks LLC
## Contract and Final Invoice  #TD-2107-31
Contract date: July 19, 2021
Completed: September 24, 2021
Owner: Marcus Halvorsen, 41 Heron Bend Road, Marlow Falls, OR 97361
CCB license #224190

## Scope of work
Build a 16' x 20' freestanding deck off the back slider: pressure-treated framing on concrete
footings, clear cedar decking and fascia, 4-foot stairs to the lawn, cedar railing with black
aluminum balusters. Remove the cracked concrete patio. City permit B21-0712.

## Price
Materials                                   $8,240.00
Labor                                       $5,880.00
Permit and engineering                        $740.00
Contract total                             $14,860.00
Deposit paid 7/19/2021                     -$4,500.00
Final payment 9/24/2021                   -$10,360.00
Balance                                         $0.00

Workmanship warranty: 3 years. Recommend cleaning and resealing the cedar every 2 years.
Crew lead: Matt Greer.
""", None, P(2021, 9, 24, 16, 0))

pdf("dutton_sewer", "documents/home/dutton-plumbing-receipt-2023.pdf", """
# Dutton & Sons Plumbing
## RECEIPT  #48812
Date: August 22, 2023
Customer: Naomi Reyes, 41 Heron Bend Rd, Marlow Falls OR 97361

Emergency call 8/19 - camera inspection of sewer lateral              $295.00
   Finding: collapsed clay pipe 31 ft from the house, root intrusion
Replace 52 ft of clay sewer lateral with 4" HDPE by pipe bursting    $6,480.00
   (cleanout to city connection; no trench across the lawn)
Install new two-way cleanout at foundation                             $575.00
Total                                                                $7,350.00
Paid - Visa ending 4471                                             -$7,350.00

Thank you! Warranty: 10 years on the new line. Technicians: Rick Dutton, Ana Flores.
""", {"Title": "Receipt 48812", "Producer": "QuickBooks", "CreationDate": P(2023, 8, 22, 14, 30)},
    P(2023, 8, 22, 14, 30))

pdf("evergreen_gutters", "documents/home/evergreen-gutter-invoice-2022.pdf", """
# Evergreen Gutter Co.
## Invoice #EG-2210-118
Date: October 14, 2022
Bill to: Marcus Halvorsen, 41 Heron Bend Rd, Marlow Falls OR 97361

Clean and flush all gutters and downspouts                       $185.00
Install LeafShield stainless micro-mesh guards, 164 linear ft  $1,968.00
Re-pitch north run, reseal 3 corners                             $143.00
Total                                                          $2,296.00
Paid by check #1987

LeafShield guards carry a 25-year no-clog warranty. Keep this invoice with your records.
""", {"Title": "Invoice EG-2210-118", "Producer": "Invoice Ninja",
      "CreationDate": P(2022, 10, 14, 17, 10)}, P(2022, 10, 14, 17, 10))

# ---- pets
pdf("biscuit_2021", "documents/pets/fernhill-biscuit-new-patient-2021.pdf", """
# Fernhill Animal Clinic
## New Patient Exam
Visit date: 06/19/2021      Doctor: Hannah Yoon, DVM
Client: Naomi Reyes & Marcus Halvorsen, 41 Heron Bend Rd, Marlow Falls OR

Patient: Biscuit      Species: Canine      Breed: Beagle mix      Sex: Male (neutered)
Estimated age: 1 year      Color: tricolor      Weight: 9.8 kg
Microchip: 985112004417263 (registered to client 06/12/2021)
History: adopted from a shelter one week ago; neutered prior to adoption.

Exam: bright and alert, mild ear wax both ears, teeth clean, heart and lungs normal.
Vaccines given today: DHPP booster, Bordetella (intranasal).
Rabies: given 06/10/2021 at the shelter (1-year). Next due 06/10/2022.
Fecal test: negative. Start monthly heartworm and flea prevention.
Next visit: DHPP booster and rabies in one year.
""", {"Title": "Fernhill medical record"}, P(2021, 6, 19, 10, 30))

pdf("biscuit_2024", "documents/pets/fernhill-biscuit-annual-2024.pdf", """
# Fernhill Animal Clinic
## Wellness Exam
Date: 05/20/2024      Doctor: Hannah Yoon, DVM
Patient: Biscuit (canine, beagle mix, MN, ~4 yrs)      Weight: 11.6 kg
Exam: healthy. Mild tartar. Body condition 6/9 - cut treats.
Vaccines current: Rabies 3-year given 05/14/2023 (due 05/14/2026); DHPP 3-year given
05/14/2023 (due 05/14/2026). Bordetella given today.
Heartworm test: negative. Continue monthly prevention.
""", {"Title": "Wellness exam - Biscuit", "Producer": "Cornerstone 9.6",
      "CreationDate": P(2024, 5, 20, 11, 0)}, P(2024, 5, 20, 11, 0))

pdf("biscuit_2025_11", "documents/pets/fernhill-biscuit-visit-2025-11.pdf", """
# Fernhill Animal Clinic
## Medical Record - Urgent Visit
Date of visit: 11/18/2025     Doctor: Hannah Yoon, DVM
Patient: Biscuit (canine, beagle mix, MN, ~5 yrs)     Weight: 11.9 kg

Presenting complaint: owner saw the patient swallow a child's sock about 1 hour ago. No
vomiting yet, eating normally this morning.
Assessment: gastric foreign body (textile), recent ingestion, patient stable.
Treatment: apomorphine given; emesis induced within 5 minutes; one striped sock recovered
intact. Maropitant (Cerenia) given afterward for nausea.
Discharge: bland diet (boiled chicken and rice) for 48 hours, then normal food. Call if
vomiting, lethargy or no stool for 48 hours. Keep laundry out of reach!
""", {"Title": "Medical record - Biscuit", "Producer": "Cornerstone 9.6",
      "CreationDate": P(2025, 11, 18, 13, 20)}, P(2025, 11, 18, 13, 20))

pdf("clem_2025", "documents/pets/fernhill-clementine-exam-2025.pdf", """
# Fernhill Animal Clinic
## Wellness Exam
Date: 03/11/2025      Doctor: Hannah Yoon, DVM
Patient: Clementine ("Clem")   Species: Feline   Breed: Domestic shorthair   Sex: Female (spayed)
Age: 10 years      Weight: 5.1 kg
Exam: healthy senior cat, mild dental tartar, body condition 6/9.
Vaccines: FVRCP given today (3-year). Indoor only - rabies not required by owner choice.
Plan: senior bloodwork next year; dental cleaning to be discussed.
""", {"Title": "Wellness exam - Clementine", "Producer": "Cornerstone 9.6",
      "CreationDate": P(2025, 3, 11, 15, 0)}, P(2025, 3, 11, 15, 0))

pdf("clem_2026", "documents/pets/fernhill-clementine-exam-2026.pdf", """
# Fernhill Animal Clinic
## Senior Wellness Exam
Date: 03/17/2026      Doctor: Hannah Yoon, DVM
Patient: Clementine ("Clem")   Species: Feline   Breed: Domestic shorthair   Sex: Female (spayed)
Age: 11 years      Weight: 4.6 kg (down 0.5 kg since 03/2025)
Exam: bright, well hydrated, mild tartar. Thyroid not palpable.
Senior blood panel and T4: all within normal limits.
Plan: weight recheck in 3 months (June 2026). Offer the senior diet in two small meals.
""", {"Title": "Senior exam - Clementine", "Producer": "Cornerstone 9.6",
      "CreationDate": P(2026, 3, 17, 16, 10)}, P(2026, 3, 17, 16, 10))

# ---- medical
pdf("ped_2024", "documents/medical/willow-creek-visit-2024-06.pdf", """
# Willow Creek Pediatrics
2290 Mill Street, Marlow Falls, OR 97361     Phone (541) 555-0126     Fax (541) 555-0127
## After-Visit Summary
Patient: Felix Halvorsen    DOB: 02/09/2018    Visit: 06/11/2024    Provider: Martin Osei, MD
Reason for visit: 6-year well child check.
Height 117 cm, weight 21.4 kg. Vision and hearing normal.
Immunizations: up to date.
Next well visit: age 7. Call the office with any questions.
""", {"Title": "After-Visit Summary", "Producer": "Epic", "CreationDate": P(2024, 6, 11, 11, 5)},
    P(2024, 6, 11, 11, 5))

pdf("ped_2026", "documents/medical/willow-creek-visit-2026-01.pdf", """
# Willow Creek Pediatrics
NEW LOCATION: 75 Riverfront Parkway, Suite 200, Marlow Falls, OR 97361
Phone (541) 555-0178     Fax (541) 555-0179     After hours nurse line (541) 555-0180
## After-Visit Summary
Patient: Iris Halvorsen    DOB: 11/04/2013    Visit: 01/22/2026    Provider: Martin Osei, MD
Reason for visit: sore throat, fever 101.2 F for one day.
Rapid strep: negative. Throat culture sent; we will call only if positive.
Diagnosis: viral pharyngitis. Rest, fluids, ibuprofen as needed.
Return to school when fever-free for 24 hours.
""", {"Title": "After-Visit Summary", "Producer": "Epic", "CreationDate": P(2026, 1, 22, 10, 40)},
    P(2026, 1, 22, 10, 40))

pdf("urgent_care", "documents/medical/urgent-care-visit-2025-07-13.pdf", """
# Marlow Falls Urgent Care
## Visit Summary
Date of service: 07/13/2025    Arrived 4:12 PM
Patient: Felix Halvorsen    DOB: 02/09/2018    Accompanied by: father
Chief complaint: fell off scooter on outstretched hand; left wrist pain and swelling.
X-ray, left wrist, 2 views: buckle (torus) fracture of the distal left radius. No
displacement. Growth plate not involved.
Treatment: short arm fiberglass cast applied (green). Ibuprofen for pain.
Follow-up: Valley Orthopedics in 1 week; expected cast time 3-4 weeks.
Provider: J. Whitcombe, PA-C
""", {"Title": "Visit Summary", "Producer": "eClinicalWorks", "CreationDate": P(2025, 7, 13, 17, 45)},
    P(2025, 7, 13, 17, 45))

# ---- insurance and car
pdf("pc_dec_2026", None, """
# Pacific Crest Insurance
## Auto Policy Declarations - Renewal
Policy number: PCA-88130457-02
Policy period: March 15, 2026 to March 15, 2027 (12:01 AM standard time)
Named insureds: Marcus Halvorsen, Naomi Reyes, 41 Heron Bend Rd, Marlow Falls OR 97361

Vehicle 1: 2019 Subaru Outback Premium   VIN 4S4BSAFC2K3201187
Vehicle 2: 2017 Toyota Sienna LE         VIN 5TDKZ3DC0HS803354
Drivers: Marcus Halvorsen, Naomi Reyes

Coverages: bodily injury 250/500; property damage 100; uninsured motorist 250/500;
comprehensive $500 deductible; collision $500 deductible; roadside assistance.

Annual premium (both vehicles):                       $2,292.40
   Multi-policy discount applied; good driver discount applied.
Payment plan: annual, AutoPay from checking on March 15.
""", {"Title": "Declarations PCA-88130457-02", "Producer": "Guidewire PolicyCenter",
      "CreationDate": P(2026, 3, 2, 23, 0)}, P(2026, 3, 2, 23, 0))

pdf("pc_idcards_2026", None, """
# Pacific Crest Insurance - Oregon Proof of Insurance
Policy number: PCA-88130457-02
Effective 03/15/2026 - Expires 03/15/2027
Insured: Marcus Halvorsen, Naomi Reyes
2019 Subaru Outback   VIN 4S4BSAFC2K3201187
2017 Toyota Sienna    VIN 5TDKZ3DC0HS803354
Claims 24/7: 1-800-555-0161. Keep this card in each vehicle.
""", {"Title": "ID cards", "Producer": "Guidewire PolicyCenter"}, P(2026, 3, 2, 23, 0))

pdf("pc_dec_2025", "documents/insurance/pacific-crest-auto-declarations-2025.pdf", """
# Pacific Crest Insurance
## Auto Policy Declarations - Renewal
Policy number: PCA-88130457-01
Policy period: March 15, 2025 to March 15, 2026 (12:01 AM standard time)
Named insureds: Marcus Halvorsen, Naomi Reyes, 41 Heron Bend Rd, Marlow Falls OR 97361
Vehicle 1: 2019 Subaru Outback Premium
Vehicle 2: 2017 Toyota Sienna LE
Coverages: bodily injury 250/500; property damage 100; comprehensive and collision $500
deductibles.
Annual premium (both vehicles):                       $2,037.20
""", {"Title": "Declarations PCA-88130457-01", "Producer": "Guidewire PolicyCenter",
      "CreationDate": P(2025, 3, 1, 23, 0)}, P(2025, 3, 1, 23, 0))

pdf("sienna_sale", "documents/auto/sienna-bill-of-sale-2022.pdf", """
# Valley Auto Exchange
1840 Santiam Highway, Marlow Falls, OR - Dealer #DLR-30417
## Bill of Sale
Date of sale: May 21, 2022
Buyer(s): Marcus Halvorsen and Naomi Reyes, 41 Heron Bend Road, Marlow Falls, OR 97361

Vehicle: 2017 Toyota Sienna LE, 8-passenger, Predawn Gray
VIN 5TDKZ3DC0HS803354     Odometer: 58,330 miles (actual)

Vehicle price                     $23,400.00
Documentation fee                    $150.00
Oregon title and registration        $390.00
Trade-in (2009 Honda Civic)       -$3,200.00
Total paid                        $20,740.00
Financing: none - paid by cashier's check.
Sold as is, with the remaining factory powertrain coverage. Salesperson: Dev Marchand.
""", {"Title": "Bill of Sale", "Producer": "DealerSocket", "CreationDate": P(2022, 5, 21, 15, 0)},
    P(2022, 5, 21, 15, 0))

pdf("auto_2025_09", "documents/auto/mf-auto-care-2025-09.pdf", """
# Marlow Falls Auto Care
## Repair Order 25-3310
Date: 09/12/2025
Vehicle: 2019 Subaru Outback    Mileage in: 56,050
Full synthetic oil and filter change (0W-20, 5.1 qt)          $79.95
Multi-point inspection: front brakes 6 mm, rear 5 mm; wipers worn (declined)
Total                                                          $84.71
Next service due: 61,050 miles or 03/12/2026, whichever comes first.
""", {"Title": "RO 25-3310", "Producer": "Mitchell1", "CreationDate": P(2025, 9, 12, 11, 30)},
    P(2025, 9, 12, 11, 30))

pdf("auto_2026_03", "documents/auto/mf-auto-care-2026-03.pdf", """
# Marlow Falls Auto Care
## Repair Order 26-0874
Date: 03/16/2026
Vehicle: 2019 Subaru Outback    Mileage in: 61,204
Full synthetic oil and filter change (0W-20, 5.1 qt)          $82.95
Tire rotation and pressure check                              $24.00
Replace wiper blades (front pair)                             $38.50
Total                                                        $153.28
Next service due: 66,204 miles or 09/16/2026, whichever comes first.
Thank you for your business!
""", {"Title": "RO 26-0874", "Producer": "Mitchell1"}, P(2026, 3, 16, 12, 0))

pdf("camp_balance", None, """
# Camp Tamarack - Marlow Falls Parks & Recreation
## Account Statement
Statement date: April 1, 2026
Registration ID: TAM-26-0583
Family: Reyes / Halvorsen

Camper: Felix Halvorsen - Session 2, Adventure Explorers, July 6-10, 2026 (day camp)
Tuition                                       $465.00
Deposit received 02/20/2026                  -$125.00
Balance due                                   $340.00
Payment due date: May 1, 2026

Pay online with your registration ID or by check to "City of Marlow Falls".
Registrations with an unpaid balance after May 1 may be released to the waitlist.
""", {"Title": "Camp Tamarack statement", "Producer": "ActiveNet"}, P(2026, 4, 1, 8, 0))


# --------------------------------------------------------------------------- people
NAOMI = "Naomi Reyes <naomi.reyes@pinemail.net>"
MARCUS = "Marcus Halvorsen <marcus.halvorsen@pinemail.net>"
BOTH = NAOMI + ", " + MARCUS
DISTRICT = "MFSD 41 Communications <news@mfsd41.org>"
QH_FAMILIES = "Quarry Hill Families <qhe-families@mfsd41.org>"
DANA = "Dana Kowalczyk <coach.dana@marlinsswim.org>"
LUIS = "Luis Ortega <lortega.rockhounds@pinemail.net>"
KIM = "Kim Delacroix <kim.delacroix@pinemail.net>"
ROCKHOUNDS = "Rockhounds Families <rockhounds-2026@groups.mfll.org>"
MARLINS_1114 = "Marlins 11-14 Families <group1114@marlinsswim.org>"
HERON_BEND = "Heron Bend Neighbors <neighbors@heronbend.org>"
CLEM = "Clem Halvorsen <clem.halvorsen@pinemail.net>"
MARISOL = "Marisol Reyes <marisol.reyes@pinemail.net>"
TESS = "Tess Nakamura <tess.nakamura@pinemail.net>"

# where: "cur" / "new" (Maildir), "eml:<file name>", "mbox:<file name>"
# atts: (file name, content type, "pdf:<key>" or "ics:<key>")
MAILS = []


def mail(key, where, date_, frm, to, subject, body, **kw):
    m = {"key": key, "where": where, "date": date_, "from": frm, "to": to, "subject": subject,
         "body": T(body), "mid": kw.pop("mid", "%s.%s@mail.heronbend.example" % (
             key.replace("_", "-"), date_.strftime("%Y%m%d%H%M")))}
    m.update(kw)
    MAILS.append(m)
    return m


def list_headers(list_id, unsub):
    return [("List-Id", list_id), ("List-Unsubscribe", unsub),
            ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click"), ("Precedence", "bulk")]


# =========================================================== Maildir: school
mail("district_makeup", "cur", P(2026, 3, 20, 15, 40), DISTRICT, "MFSD 41 Families <families@mfsd41.org>",
     "Make-up days for February's snow closures", """
Dear MFSD 41 families,

As you know, all schools were closed on Tuesday, February 3 and Wednesday, February 4
because of snow and ice. Oregon requires us to make up that instructional time, and the
School Board approved the following changes at its March 18 meeting:

  - Friday, April 24, previously a staff development day with no students, becomes a
    regular, full school day for all students.
  - Thursday, June 11 (the last day) stays a half day, and Friday, June 12 is added as a
    half day.

The staff development originally planned for April 24 moves to the afternoon of
Wednesday, May 20, after students are dismissed at the regular time.

We will not reprint the paper calendar that went home in August. The online calendar feed
has been updated.

Thank you for your flexibility,
Dr. Renata Solberg
Superintendent, Marlow Falls School District 41
""")

mail("district_reminder", "cur", P(2026, 4, 14, 9, 5), DISTRICT, "MFSD 41 Families <families@mfsd41.org>",
     "Reminder: Friday, April 24 is a regular school day", """
Families,

A quick reminder that Friday, April 24 is now a regular full day for every MFSD 41 school.
It is one of the make-up days for February's snow closures, so please don't plan on the
long weekend shown in the printed calendar from August.

Buses run their normal routes, breakfast and lunch are served, and regular dismissal times
apply (Quarry Hill 2:50 PM, Cedar Ridge 3:20 PM).

If your student will be away that day for a trip planned before the change, please call
your school's attendance line so the absence can be excused.

MFSD 41 Communications
""")

mail("parent_asks_friday", "cur", P(2026, 4, 16, 20, 48), "Jen Aldana <jen.aldana@pinemail.net>",
     "Room 14 Parents <room14-parents@groups.qhpta.org>", "School on the 24th?", """
Hi all - quick question. My fridge calendar says no school Friday the 24th and we were
thinking of heading to the coast for a long weekend. Then my neighbor said something about
snow make-up days?? Does anyone know for sure whether the kids have school that Friday?

Thanks!
Jen (Mateo's mom)
""")

mail("transport_route22", "cur", P(2026, 4, 13, 10, 30), "MFSD 41 Transportation <transportation@mfsd41.org>",
     "Route 22 families <route22@mfsd41.org>", "Route 22 schedule change starting April 20", """
Dear Route 22 families,

Beginning Monday, April 20, Route 22 adds a stop for the new Sandpiper Estates
neighborhood. Morning times change as follows:

  Sandpiper Way & Kestrel Ct ......... 7:44 AM (new stop)
  Heron Bend Rd & Marsh Ln ........... 7:53 AM (was 7:41 AM)
  Quarry Rd & Vine St ................ 7:58 AM (was 7:47 AM)
  Arrive Quarry Hill Elementary ...... 8:10 AM

Afternoon drop-off times are unchanged. Please be at the stop five minutes early; drivers
cannot wait for riders who are not at the stop.

Questions: (541) 555-0160.
MFSD 41 Transportation - Route 22, Bus 31 (driver: Mr. Alvarez)
""")

mail("qh_retakes", "cur", P(2026, 4, 16, 13, 20), "Quarry Hill Elementary <qhe-office@mfsd41.org>",
     QH_FAMILIES, "Picture retake day", """
Hello Quarry Hill families,

Retake day with Evergreen School Portraits is Wednesday, April 29. Students who missed fall
portraits, or who want a new one, should bring their original portrait packet that morning.
The photographers set up in the gym at 8:15 AM and go class by class.

If you ordered a package in the fall and are happy with it, no action is needed.

Quarry Hill Front Office
(541) 555-0112
""")

mail("okonkwo_news", "cur", P(2026, 3, 27, 15, 55), "Adaeze Okonkwo <aokonkwo@mfsd41.org>",
     "Room 14 Families <room14@mfsd41.org>", "Room 14 news - before spring break", """
Dear Room 14 families,

What a trimester! We finished our plant life cycle unit this week and the bean plants are
going home today (please keep watering them!).

Coming up after spring break:
  - Our field trip to Willamette Discovery Farm is Thursday, April 30. Permission slips will
    come home after break.
  - Multiplication facts through 10s - please keep practicing at home.
  - Reading logs are due every Monday.

Have a restful spring break!
Ms. Okonkwo
Room 14, Quarry Hill Elementary
""")

mail("iwasaki_fair", "cur", P(2026, 4, 13, 14, 10), "Ruth Iwasaki <riwasaki@mfsd41.org>",
     "Science 7 Families <science7@mfsd41.org>", "Science fair: new due date", """
Dear 7th grade science families,

Because the library, where we set up the displays, is reserved for state testing the week of
April 20, display boards are now due Monday, April 27 instead of Friday, April 24.
Judging moves to Tuesday, April 28 and the public showcase is Wednesday, April 29,
6:00-7:30 PM in the CRMS library.

Students bring their boards to Room 212 before first period. Boards should stand on a table
(no wider than 36 inches) and include title, question, hypothesis, procedure, data,
graphs and conclusion.

Thank you,
Ruth Iwasaki
Science 7, Cedar Ridge Middle School
""")

mail("crms_missing", "cur", P(2026, 3, 30, 16, 2), "Cedar Ridge Middle School <noreply@mfsd41.org>",
     NAOMI, "Missing assignment notice - Iris Halvorsen", """
This is an automated message from Cedar Ridge Middle School.

Student: Iris Halvorsen (Grade 7)
Course: Math 7 Advanced - P. Lindgren
Assignment: Unit 6 practice set B (due 03/27/2026)
Status: Missing

Students may turn in late work for partial credit until the end of the unit. Please contact
the teacher with any questions.
""")

mail("orchestra_update", "cur", P(2026, 4, 16, 17, 45), "Helen Vasquez-Brandt <hvasquezbrandt@mfsd41.org>",
     "CRMS Orchestra Families <orchestra@mfsd41.org>", "Concert update: new venue and time", """
Dear orchestra families,

Good news - Marlow Falls High School has offered us their Performing Arts Center for the
spring concert, so we're moving there. The date is the same, Thursday, April 30, but the
concert now begins at 7:00 PM.

Students should come in through the stage door on the north side of the building (off Fir
Street) by 6:15 PM to tune and warm up. Audience parking is in the east lot; the doors to the
hall open at 6:40.

Concert dress is unchanged. Please disregard the time and place printed on the February
flyer.

See you there!
Helen Vasquez-Brandt
Orchestra Director, Cedar Ridge Middle School
""")

mail("pta_carnival_volunteers", "cur", P(2026, 4, 7, 12, 15), "Rosa Kim-Ambrose <rosa.ka@pinemail.net>",
     "Quarry Hill Families <qhe-families@mfsd41.org>", "Spring Carnival booth volunteers needed!", """
Hi Quarry Hill families!

The Spring Carnival is Friday, May 8, 5:00-8:00 PM on the back field. We still need
volunteers for the cake walk, face painting and the duck pond - 45-minute shifts.
Sign up on the PTA page or just reply to me.

Thank you!!
Rosa Kim-Ambrose, PTA Carnival Chair
""")

# =========================================================== Maildir: sports
mail("dana_move", "cur", P(2026, 4, 8, 19, 30), DANA, MARLINS_1114,
     "Practice location change starting next week", """
Hi Marlins families,

As you know the Aquatic Center closed on March 30 for the resurfacing project, and Parks
tells us it will be closed for several more weeks. Marlow Falls High School has offered us
their pool in the meantime.

Starting Tuesday, April 14, the 11-14 group trains Tuesdays and Thursdays, 6:00-7:15 PM at
the MFHS pool (enter through the gym doors on Fir Street). There is no Monday, Wednesday or
Friday session while we're at the high school. Bring a lock for the locker room.

Thanks for rolling with it!
Coach Dana
Marlow Falls Marlins
""")

mail("dana_week", "new", P(2026, 4, 20, 20, 15), DANA, MARLINS_1114, "This week + meet packet", """
Hi all,

Reminder that we're at the high school again this week: Tuesday and Thursday, 6:00 sharp,
out of the water by 7:15. Please have swimmers on deck in suits by 5:55 - the MFHS team
clears the pool right at 6 and we lose lane time if we start late.

The meet packet for May 2 went out Saturday. Entries close Wednesday night.

Coach Dana
""")

mail("sofia_asks_warmup", "new", P(2026, 4, 20, 21, 32), "Sofia Brandvold <sofia.brandvold@pinemail.net>",
     MARLINS_1114, "Carpool to Riverbend?", """
Hi Marlins parents,

Anyone want to carpool to Riverbend on May 2? We have room for two swimmers.

Also - does anyone know what time the 11-14 kids actually have to be in the water for
warm-ups that morning? I've seen two different times and I'd rather not get it wrong at
that hour!

Sofia (Annika's mom)
""")

mail("luis_practices", "cur", P(2026, 3, 5, 18, 40), LUIS, ROCKHOUNDS, "Rockhounds practices", """
Hi Rockhounds families!

Welcome to the spring season - I'm excited to coach this group. Our practices are
Wednesdays, 5:30-7:00 PM at Heron Park, Field 3 (the one next to the community garden).
First practice is Wednesday, March 11.

Please bring: glove, helmet, bat if you have one, water bottle, and cleats (no metal spikes).
If it's raining, I'll text by 3 PM whether we're on.

Go Rockhounds!
Coach Luis
""")

mail("luis_moved", "new", P(2026, 4, 20, 12, 10), LUIS, ROCKHOUNDS, "Saturday's game moved to SUNDAY", """
Rockhounds families -

The league is aerating all the Heron Park fields this Saturday, so our game against Canyon
Creek moves to Sunday, April 26 at 2:00 PM at Dutton Field #2. Please have players there in
uniform by 1:15 for warm-ups.

Team photos are still Saturday morning at Heron Park - the photographer sets up in the
picnic shelter, which isn't affected. Kim sent the details yesterday.

Coach Luis
""")

mail("kim_photos", "new", P(2026, 4, 19, 19, 30), KIM, ROCKHOUNDS, "Team photo day Saturday!", """
Hi Rockhounds parents,

Team and individual photos are this Saturday, April 25 at the Heron Park picnic shelter.
Please have your player there in full uniform (jersey, pants, socks, cap) at 9:30 AM.

Order forms were in the team bags - envelopes with payment go straight to the
photographer. Siblings are welcome in a family shot after the team picture.

Thanks!
Kim (team parent)
""")

# =========================================================== Maildir: neighborhood, town
mail("hoa_dues", "cur", P(2026, 4, 2, 9, 15), "Gloria Fenwick <gfenwick@pinemail.net>", HERON_BEND,
     "2026 dues invoices coming", """
Hi neighbors,

Annual association dues for 2026 are $240 per household, the same as last year. I'll put
paper invoices in mailboxes this weekend. Checks payable to Heron Bend Neighbors
Association, due May 31 - or pay by Venmo to @HeronBendHOA and put your house number in
the note.

Thanks for keeping our entrance beautiful!
Gloria Fenwick, Treasurer
""")

mail("hoa_correction", "cur", P(2026, 4, 15, 8, 30), "Owen Sutherland <osutherland@pinemail.net>",
     HERON_BEND, "Re: Spring meeting April 22 - agenda attached", """
Neighbors - one change. The Grange double-booked the hall, so we will meet at 7:00 PM
instead, in the community room of the Marlow Falls Public Library (use the side door on
Third Street; the main library closes at 6). Same date, same agenda.

Owen Sutherland
President, Heron Bend Neighbors Association

On Thu, Apr 9, 2026 at 7:00 PM Beth Marchetti <beth.marchetti@pinemail.net> wrote:
> Hello Heron Bend neighbors,
>
> The spring meeting is Wednesday, April 22 at 6:00 PM at the Grange Hall on
> Quarry Road. The agenda is attached; the main items are the dues vote and the
> entrance landscaping.
>
> Hope to see you there,
> Beth Marchetti, Secretary
""", irt="hoa-spring-meeting.202604091900@mail.heronbend.example")

mail("aquatics_delay", "cur", P(2026, 4, 15, 11, 0), "Marlow Falls Aquatic Center <aquatics@marlowfallsor.gov>",
     "Aquatic Center pass holders <passholders@marlowfallsor.gov>", "Update on the resurfacing project", """
Dear pass holders,

During the resurfacing work our contractor found cracks in the main basin that have to be
repaired before the new plaster goes on. We now expect to welcome swimmers back on
Saturday, May 16 - not May 2 as first announced.

All annual and punch passes will be extended by six weeks automatically. Swim lessons
that were scheduled for May 4-15 will be moved to the summer session, and families will be
contacted individually.

Thank you for your patience,
Marlow Falls Aquatic Center - Parks & Recreation
(541) 555-0140
""")

mail("gary_pool", "new", P(2026, 4, 19, 16, 20), "Gary Lindqvist <gary.lindqvist@pinemail.net>",
     HERON_BEND, "Pool?", """
Hey all -

Does anyone know when the town pool opens again? My kids keep asking and I thought it
was supposed to be early May, but I can't find anything on the city site.

Also, does anybody have an extension ladder I could borrow next weekend? Gutters are full.

Gary (#52)
""")

mail("library_hold", "new", P(2026, 4, 21, 7, 5), "Marlow Falls Public Library <notices@marlowfallslibrary.org>",
     NAOMI, "Your hold is ready for pickup", """
Hello NAOMI REYES,

The following item is ready for pickup at the Main Library holds shelf:

  The Wild Robot Protects / Peter Brown (juvenile fiction)

Please pick it up by Tuesday, April 28, 2026. Holds shelf hours: Monday-Saturday, 10 AM -
6 PM.
""")

mail("ridgeline_debris", "cur", P(2026, 4, 1, 7, 0), "Ridgeline Disposal & Recycling <service@ridgelinedisposal.com>",
     MARCUS, "Yard debris service resumes weekly", """
Hello Marcus,

Spring is here! Starting the week of April 6, yard debris carts are collected every week on
your regular service day. Grass clippings, leaves, small branches (under 4 inches) and
garden trimmings only - no dirt, rocks or pet waste.

Ridgeline Disposal & Recycling
""")

# =========================================================== Maildir: pets, health
mail("sudsy_confirm", "cur", P(2026, 4, 17, 11, 12), "Sudsy Paws Grooming <book@sudsypaws.com>", NAOMI,
     "Appointment confirmed: Thu Apr 23, 10:30 AM", """
Hi Naomi,

This confirms Biscuit's bath, blow-dry and nail trim with Jolene on Thursday, April 23 at
10:30 AM. Pickup is usually about 90 minutes later; we'll text you when he's ready.

Estimated price: $58.00. Please let us know 24 hours ahead if you need to reschedule.

Sudsy Paws Grooming, 118 Main Street, Marlow Falls
""")

mail("fernhill_reminder", "cur", P(2026, 4, 2, 8, 0), "Fernhill Animal Clinic <reminders@fernhillvet.com>",
     NAOMI, "Reminder: vaccines coming due for Biscuit", """
Hello Naomi,

Our records show the following reminders for Biscuit (canine, beagle mix):

  Rabies (3 year) ............ due 05/14/2026
  DHPP (3 year) .............. due 05/14/2026
  Heartworm test ............. due 05/20/2026

Last visit: 11/18/2025 with Dr. Hannah Yoon.

Book online at fernhillvet.com or call us at (541) 555-0193.
Fernhill Animal Clinic, 600 Fernhill Road, Marlow Falls
""")

mail("ortho_feb", "cur", P(2026, 2, 16, 9, 0), "Cascade Smiles Orthodontics <noreply@cascadesmiles.com>",
     NAOMI, "Appointment reminder", """
Hello Naomi,

This is a reminder of your upcoming appointment at Cascade Smiles Orthodontics:

  Monday, March 2, 2026 at 4:00 PM with Dr. Raymond Tse
  Visit type: adjustment (20 minutes)

Reply C to confirm or call (541) 555-0188 to reschedule.
880 Commerce Way, Suite 4, Marlow Falls
""")

mail("ortho_apr", "new", P(2026, 4, 20, 9, 0), "Cascade Smiles Orthodontics <noreply@cascadesmiles.com>",
     NAOMI, "Appointment reminder", """
Hello Naomi,

This is a reminder of your upcoming appointment at Cascade Smiles Orthodontics:

  Monday, April 27, 2026 at 3:40 PM with Dr. Raymond Tse
  Visit type: adjustment (20 minutes)

Please brush well before the visit. Reply C to confirm or call (541) 555-0188 to
reschedule.
880 Commerce Way, Suite 4, Marlow Falls
""")

mail("dentist_original", "cur", P(2026, 3, 19, 10, 25), "Bright Harbor Family Dental <appointments@brightharbordental.com>",
     NAOMI, "Appointment scheduled", """
Hi Naomi,

Felix Halvorsen is scheduled for a cleaning and exam on Thursday, April 23, 2026 at 3:15 PM
with Dr. Lena Fischer.

Bright Harbor Family Dental, 44 Harbor Lane, Marlow Falls - (541) 555-0150
""")

mail("willow_reminder", "cur", P(2026, 4, 3, 12, 0), "Willow Creek Pediatrics <noreply@willowcreekpeds.com>",
     NAOMI, "Felix is due for a well-child visit", """
Hello,

Our records show that Felix is due for his yearly well-child checkup in June. Summer
appointments fill quickly - please schedule through the patient portal.

Willow Creek Pediatrics
""")

# =========================================================== Maildir: family
mail("clem_invite", "cur", P(2026, 4, 10, 21, 5), CLEM, BOTH + ", Dana Halvorsen <dana.h.bend@pinemail.net>",
     "Birthday BBQ on the 25th", """
Hey all -

I'm turning 46 (ugh) and we're doing a BBQ at the new place to celebrate. Saturday the
25th, come around 1:00. 1180 Juniper Ridge Drive, Bend. Bring the kids, and Biscuit if he
promises not to eat anybody's socks.

Clem
""", mid="clem-bbq.202604102105@pinemail.net")

mail("naomi_reply_clem", "cur", P(2026, 4, 11, 8, 14), NAOMI, CLEM + ", " + MARCUS,
     "Re: Birthday BBQ on the 25th", """
We'll be there! Felix has a game that morning so we might be a little late. What can we
bring?

N

On Fri, Apr 10, 2026 at 9:05 PM Clem Halvorsen <clem.halvorsen@pinemail.net> wrote:
> Hey all -
>
> I'm turning 46 (ugh) and we're doing a BBQ at the new place to celebrate. Saturday the
> 25th, come around 1:00. 1180 Juniper Ridge Drive, Bend.
""", mid="naomi-bbq-reply.202604110814@pinemail.net", irt="clem-bbq.202604102105@pinemail.net")

mail("clem_change", "cur", P(2026, 4, 18, 17, 40), CLEM, BOTH, "Re: Birthday BBQ on the 25th", """
Change of plans - let's push it to 3:00 so nobody has to race over the pass after ball
games. Naomi, would you bring your potato salad? Marcus, the cornhole boards, if they
survived the winter.

Clem

On Sat, Apr 11, 2026 at 8:14 AM Naomi Reyes <naomi.reyes@pinemail.net> wrote:
> We'll be there! Felix has a game that morning so we might be a little late. What can we
> bring?
>
> On Fri, Apr 10, 2026 at 9:05 PM Clem Halvorsen <clem.halvorsen@pinemail.net> wrote:
> > I'm turning 46 (ugh) and we're doing a BBQ at the new place to celebrate. Saturday the
> > 25th, come around 1:00. 1180 Juniper Ridge Drive, Bend.
""", irt="naomi-bbq-reply.202604110814@pinemail.net",
     refs=["clem-bbq.202604102105@pinemail.net", "naomi-bbq-reply.202604110814@pinemail.net"])

mail("marisol_lockbox", "cur", P(2026, 3, 14, 10, 20), MARISOL, NAOMI, "Mom's house stuff", """
Nae -

Mom changed the lockbox code after the roofers finished. It's 0417 now (the box is on the
back porch next to the hose bib). In case you ever need to get in when I'm out of town.

Spare garage remote is in the kitchen junk drawer, and her insurance cards are copied in
the blue folder on the desk.

M
""")

mail("naomi_mom_visit", "cur", P(2026, 4, 6, 21, 30), NAOMI, MARCUS, "Mom's visit", """
Mom's coming May 7-14! Marisol is booking the flight and will send me the details. Can you
clear the desk out of the office so the air mattress fits? She wants to see Iris's concert
video and Felix's game on the 9th.
""")

mail("tess_rate", "cur", P(2026, 2, 1, 17, 45), TESS, NAOMI, "Spring schedule", """
Hi Naomi!

Thanks for having me over so much this winter, the kids are the best. Just a heads up that
starting this month I'm charging $20 an hour (it's been $17 for the last year and gas is
killing me). I can still do Tuesday afternoons and most Friday nights.

Tess
""")

mail("marcus_router", "cur", P(2026, 2, 7, 20, 10), MARCUS, NAOMI, "new router is in", """
Brightwave swapped the old router today (the tech said the old one was a 2019 model).

New network name: HeronBend-5G   (there's also HeronBend-2G for the printer)
Password: tidepool-Otter-88   (case-sensitive, capital O)
Guest network: HeronBend-Guest / biscuitbiscuit

I'll update the sheet on the fridge. Your laptop and the TV will need the new one.
M
""")

mail("appliance_order", "cur", P(2026, 2, 10, 11, 30), "ApplianceParts Direct <orders@appliancepartsdirect.com>",
     MARCUS, "Order AP-558120 has shipped", """
Thanks for your order, Marcus!

Order AP-558120 shipped via UPS Ground, arriving Thursday, February 12.

  1 x KelvaPure WF-22R refrigerator water filter ........ $44.99
      Replaces WF-22 (discontinued). Fits Kelvaro KFD-3690 series.
  Shipping ............................................... $0.00
  Order total ............................................ $44.99

Tip: replace every 6 months. Subscribe & Save to get the next one automatically.
""")

mail("marcus_oil", "cur", P(2026, 3, 16, 12, 45), MARCUS, NAOMI, "Outback", """
Outback's done at MF Auto Care - oil, tires rotated, new wipers. $153 and change, receipt
is in the folder. They also said the rear brakes will want pads sometime this year.
""")

# =========================================================== Maildir: bills and accounts
for _key, _d, _mon in (("cve_2026_01", P(2026, 1, 9, 4, 20), "January"),
                       ("cve_2026_02", P(2026, 2, 9, 4, 20), "February"),
                       ("cve_2026_03", P(2026, 3, 9, 4, 20), "March"),
                       ("cve_2026_04", P(2026, 4, 9, 4, 20), "April")):
    mail("mail_" + _key, "cur", _d, "Cascade Valley Electric <ebill@cascadevalleyelectric.com>", NAOMI,
         "Your %s bill is ready" % _mon, """
Hello NAOMI REYES,

Your Cascade Valley Electric bill for the account ending in 7719 is ready. Please see the
attached statement for your amount due and due date.

Pay online at cascadevalleyelectric.com/pay or set up AutoPay so you never miss a due date.

This is an automated message. Please do not reply.
""", atts=[("CVE_statement_%s.pdf" % _d.strftime("%Y%m%d"), "application/pdf", "pdf:" + _key)])

for _key, _d in (("bw_2026_01", P(2026, 1, 8, 6, 10)), ("bw_2026_03", P(2026, 3, 8, 6, 10)),
                 ("bw_2026_04", P(2026, 4, 8, 6, 10))):
    mail("mail_" + _key, "cur", _d, "Brightwave <billing@brightwave.net>", NAOMI,
         "Your Brightwave statement is ready", """
Hi Naomi,

Your latest statement for account 3090-44172 is attached.

Manage your account and payments at brightwave.net/account.

Brightwave
""", atts=[("brightwave-statement-%s.pdf" % _d.strftime("%Y-%m"), "application/pdf", "pdf:" + _key)])

mail("camp_confirm", "cur", P(2026, 2, 20, 13, 5), "Camp Tamarack <registrar@camptamarack.org>", NAOMI,
     "Registration confirmed - Felix Halvorsen", """
Thank you for registering with Camp Tamarack!

Registration ID: TAM-26-0583
Camper: Felix Halvorsen (age 8)
Session 2: Adventure Explorers, Monday July 6 - Friday July 10, 2026
Day camp, 9:00 AM - 3:00 PM, Tamarack Lake Park (drop-off at the lodge)

Tuition: $465.00
Deposit received today: $125.00
A statement for the remaining tuition will be emailed in April.

Camp Tamarack - Marlow Falls Parks & Recreation
""")

mail("summit_warranty", "cur", P(2026, 2, 20, 10, 0), "Summit Air Heating & Cooling <service@summitairhvac.com>",
     MARCUS, "Warranty registration complete", """
Hi Marcus,

We've registered the equipment we installed for you:

  Norden N96T080B gas furnace, serial 2601N4477A
  Installation date: 02/10/2026
  Parts warranty: 10 years (through 02/10/2036)
  Labor warranty: 2 years (Summit Air)

Your first maintenance visit is included - we'll reach out in the fall.

Renee, Summit Air office
""")

# =========================================================== .eml files
mail("summit_invoice", "eml:2026-02-12-summit-air-invoice.eml", P(2026, 2, 12, 10, 0),
     "Summit Air Heating & Cooling <service@summitairhvac.com>", MARCUS, "Invoice 26-0214 - thank you", """
Hi Marcus,

Thanks for choosing Summit Air. Your invoice for this week's job is attached for your
records; it's paid in full. The warranty registration confirmation will follow by email.

Renee
Summit Air Heating & Cooling - (541) 555-0171
""", atts=[("Invoice_26-0214.pdf", "application/pdf", "pdf:summit_2026_02")])

mail("pc_renewal", "eml:2026-03-03-pacific-crest-renewal.eml", P(2026, 3, 3, 7, 30),
     "Pacific Crest Insurance <policyservice@pacificcrestins.com>", MARCUS, "Your auto policy renewal documents", """
Dear Marcus Halvorsen,

Your Pacific Crest auto policy renews on March 15, 2026. Your renewal declarations and new
proof-of-insurance cards are attached. Please print the cards and keep one in each vehicle.

No action is needed: your payment will be drafted on the renewal date.

Pacific Crest Insurance - Policy Service
""", atts=[("Declarations.pdf", "application/pdf", "pdf:pc_dec_2026"),
           ("ID_Cards.pdf", "application/pdf", "pdf:pc_idcards_2026")])

mail("camp_balance", "eml:2026-04-01-camp-tamarack-statement.eml", P(2026, 4, 1, 8, 5),
     "Camp Tamarack <registrar@camptamarack.org>", NAOMI, "Your Camp Tamarack statement", """
Hello,

Please see the attached statement for your family's summer camp account.

Camp Tamarack - Marlow Falls Parks & Recreation
""", atts=[("CampTamarack_statement.pdf", "application/pdf", "pdf:camp_balance")])

mail("orchestra_saveday", "eml:2026-02-24-orchestra-spring-concert.eml", P(2026, 2, 24, 16, 30),
     "Helen Vasquez-Brandt <hvasquezbrandt@mfsd41.org>", "CRMS Orchestra Families <orchestra@mfsd41.org>",
     "Spring Concert - save the date", """
Dear orchestra families,

Please save the date for our Spring Concert on Thursday, April 30! All the details are on
the attached flyer. Concert dress is black on the bottom, white on top.

Mrs. V-B
""", atts=[("Spring_Concert_2026.pdf", "application/pdf", "pdf:orchestra_flyer")])

mail("hoa_meeting", "eml:2026-04-09-hoa-spring-meeting.eml", P(2026, 4, 9, 19, 0),
     "Beth Marchetti <beth.marchetti@pinemail.net>", HERON_BEND,
     "Spring meeting April 22 - agenda attached", """
Hello Heron Bend neighbors,

The spring meeting is Wednesday, April 22 at 6:00 PM at the Grange Hall on
Quarry Road. The agenda is attached; the main items are the dues vote and the
entrance landscaping.

Hope to see you there,
Beth Marchetti, Secretary
""", mid="hoa-spring-meeting.202604091900@mail.heronbend.example",
     atts=[("HBNA_spring_agenda.pdf", "application/pdf", "pdf:hoa_agenda")])

mail("permission", "eml:2026-04-15-room14-field-trip.eml", P(2026, 4, 15, 16, 5),
     "Adaeze Okonkwo <aokonkwo@mfsd41.org>", "Room 14 Families <room14@mfsd41.org>", "Field trip form", """
Hi Room 14 families,

Please see the attached form for our trip. Paper copies went home in Friday folders too.

Thank you!
Ms. Okonkwo
""", atts=[("Room14_permission.pdf", "application/pdf", "pdf:permission_slip")])

mail("meet_packet", "eml:2026-04-18-marlins-meet-packet.eml", P(2026, 4, 18, 10, 0), DANA, MARLINS_1114,
     "May 2 meet packet (Riverbend Invitational)", """
Hi families,

The packet for the Riverbend Invitational is attached - please read the whole thing, it
has the timeline, entry fees and parking. Enter your swimmer in TeamHub by Wednesday night.

Coach Dana
""", atts=[("Riverbend_Invitational_2026.pdf", "application/pdf", "pdf:meet_packet")])

mail("dentist_moved", "eml:2026-04-16-bright-harbor-reschedule.eml", P(2026, 4, 16, 14, 50),
     "Bright Harbor Family Dental <appointments@brightharbordental.com>", NAOMI,
     "Your appointment has been rescheduled", """
Hi Naomi,

As you requested, Felix's cleaning and exam has been moved to a later time on the same
day: Thursday, April 23 at 4:00 PM (it was 3:15 PM), still with Dr. Lena Fischer.

An updated calendar invitation is attached.

Bright Harbor Family Dental - (541) 555-0150
""", atts=[("invite.ics", "text/calendar; charset=utf-8; method=REQUEST", "ics:dentist_invite")])

mail("league_schedule", "eml:2026-03-02-rockhounds-schedule.eml", P(2026, 3, 2, 8, 30),
     "Marlow Falls Little League <schedule@mfll.org>", ROCKHOUNDS, "Rockhounds 2026 spring schedule", """
Hello Rockhounds families,

Attached is the spring 2026 game schedule for the Rockhounds (Minors division). Your
manager is Luis Ortega; he'll be in touch about practices.

Marlow Falls Little League
""", atts=[("Rockhounds_Spring_2026.pdf", "application/pdf", "pdf:league_schedule")])

mail("bus_letter", "eml:2025-08-20-bus-assignment.eml", P(2025, 8, 20, 11, 10),
     "MFSD 41 Transportation <transportation@mfsd41.org>", NAOMI, "Bus assignment for 2025-26", """
Dear parent/guardian,

Your student's bus assignment for the 2025-26 school year is attached.

MFSD 41 Transportation
""", atts=[("bus_assignment_2025-26.pdf", "application/pdf", "pdf:bus_letter_2025")])

mail("flight_fwd", "eml:2026-04-12-fwd-mom-flight.eml", P(2026, 4, 12, 18, 22), MARISOL, NAOMI,
     "Fwd: Your trip confirmation - SKYQ7D", """
Here's Mom's flight. She says don't park, just do the curb, and don't be late.

M

---------- Forwarded message ---------
From: Cascadia Air <itinerary@cascadiaair.com>
Date: Sat, Apr 11, 2026 at 3:02 PM
Subject: Your trip confirmation - SKYQ7D
To: <lupe.reyes@pinemail.net>

Thank you for flying Cascadia Air.

Confirmation code: SKYQ7D
Passenger: GUADALUPE REYES

Thursday, May 7, 2026
  Flight 318   Sacramento (SMF) depart 2:05 PM  ->  Eugene (EUG) arrive 3:40 PM
  Seat 9C   Main Cabin   1 checked bag included

Thursday, May 14, 2026
  Flight 321   Eugene (EUG) depart 5:10 PM  ->  Sacramento (SMF) arrive 6:45 PM
  Seat 9C   Main Cabin

Check in opens 24 hours before departure at cascadiaair.com.
""")

# =========================================================== mbox: archive-2024
A24 = "mbox:archive-2024.mbox"
mail("storage_welcome", A24, P(2024, 1, 22, 14, 2), "Keep-Safe Storage <office@keepsafestorage.com>", MARCUS,
     "Welcome to Keep-Safe Storage", """
Hi Marcus,

Welcome to Keep-Safe Storage! Your rental details:

  Unit: C-114 (10 x 10, drive-up)
  Monthly rent: $129.00, billed on the 1st
  Gate access code: 7730 then # (works 6 AM - 10 PM daily)

Please keep your own lock on the unit at all times. Office hours are Monday-Saturday,
9 AM - 5 PM, 2650 Santiam Highway.

Keep-Safe Storage
""")

mail("marisol_lockbox_old", A24, P(2024, 2, 11, 19, 40), MARISOL, NAOMI, "Mom's lockbox", """
Nae, I finally got Mom to put a lockbox on the back porch. Code is 2580. Don't tell her I
told you it's the same as her ATM pin, she'll change both.

M
""")

mail("larkspur", A24, P(2024, 3, 5, 13, 15), "The Larkspur Hotel <stay@larkspurhotel.com>", NAOMI,
     "Reservation confirmed - LKS-77120", """
Dear Naomi Reyes,

Thank you for choosing The Larkspur Hotel, 812 Pine Street, Seattle, WA.

Confirmation: LKS-77120
Arrival: Monday, April 1, 2024 (check-in after 3 PM)
Departure: Thursday, April 4, 2024 (check-out by 11 AM)
Room: Family Suite, two queens and a sofa bed, 3 nights
Rate: $219.00 per night plus tax. Parking: $38 per night, valet.

We look forward to welcoming you to Seattle.
""")

mail("ferraro_welcome", A24, P(2024, 9, 3, 16, 45), "Dominic Ferraro <dferraro@mfsd41.org>",
     "Room 9 Families <room9@mfsd41.org>", "Welcome to Room 9!", """
Dear families,

Welcome to second grade! I'm Dominic Ferraro, and I'm so happy to be your child's teacher
this year. What a great first day - we read "The Day You Begin", made our class
agreements and found out that eleven of us have a dog.

Each Friday a folder comes home with work and notes; please return it on Monday. Our
specials: PE on Monday and Thursday, music on Tuesday, library on Wednesday.

Looking forward to a wonderful year,
Mr. Ferraro
Room 9, Quarry Hill Elementary
""")

mail("fall_splash", A24, P(2024, 10, 20, 18, 5), DANA, "Marlins Families <families@marlinsswim.org>",
     "Fall Splash results", """
Marlins -

What a day at the Fall Splash! Special shout-out to our first-meet swimmers, who all
finished every race:

  Iris Halvorsen        50 Free 41.27    50 Back 49.80
  Annika Brandvold      50 Free 39.95    50 Breast 52.11
  Theo Marsh            50 Free 44.02    50 Fly   DQ (one-hand touch - we'll fix it!)

Full results are posted on TeamHub. Next meet: Harvest Invitational, November 16.

Coach Dana
""")

mail("summit_tuneup_2024", A24, P(2024, 10, 10, 9, 0), "Summit Air Heating & Cooling <service@summitairhvac.com>",
     MARCUS, "Tune-up scheduled for Oct 15", """
Hi Marcus,

Your fall furnace tune-up is scheduled for Tuesday, October 15 between 1 and 4 PM. As a
Comfort Club member your price is $99, and we'll bring a 20x25x1 filter for your unit.

Summit Air Heating & Cooling
""")

mail("valley_cable_2024", A24, P(2024, 6, 14, 5, 30), "Valley Cable <billing@valleycable.net>", NAOMI,
     "Your Valley Cable bill", """
Hi NAOMI,

Your Valley Cable bill is ready.

Internet Ultra 300 ......... $79.99
Modem rental ............... $14.00
Total due July 5 ........... $93.99

Valley Cable
""")

mail("clem_thanks_2024", A24, P(2024, 4, 29, 9, 12), CLEM, BOTH, "thanks!", """
Thanks for the fishing hat, you guys! Wore it Saturday on the Deschutes, caught nothing,
looked great doing it. Good to see you all for the birthday.

Clem
""")

mail("biscuit_annual_2024", A24, P(2024, 5, 20, 13, 0), "Fernhill Animal Clinic <reminders@fernhillvet.com>",
     NAOMI, "Visit summary for Biscuit", """
Thank you for visiting Fernhill today! Biscuit's wellness exam went well. He got his
Bordetella vaccine; rabies and DHPP are current until May 2026. Dr. Yoon recommends fewer
treats - he's up to 11.6 kg.

Fernhill Animal Clinic
""")

mail("naomi_xmas_2024", A24, P(2024, 12, 2, 21, 0), NAOMI, MARCUS, "xmas ideas", """
Iris - new violin case? Felix - the Lego volcano set. Your brother - something for the
truck? Let's decide this weekend.
""")

# =========================================================== mbox: archive-2025
A25 = "mbox:archive-2025.mbox"
mail("tess_intro_2025", A25, P(2025, 2, 8, 14, 30), TESS, NAOMI, "Re: babysitting", """
Hi Naomi! Thanks for reaching out - Mrs. Aldana said such nice things. I usually charge
$17 an hour for two kids. I'm free most Tuesday afternoons and Friday nights. I'm CPR
certified and have my own car.

Tess
""")

mail("pc_renewal_2025", A25, P(2025, 3, 2, 7, 30), "Pacific Crest Insurance <policyservice@pacificcrestins.com>",
     MARCUS, "Your auto policy renewal documents", """
Dear Marcus Halvorsen,

Your Pacific Crest auto policy PCA-88130457-01 renews on March 15, 2025. Your annual
premium for both vehicles is $2,037.20. Your documents are available in your online
account.

Pacific Crest Insurance - Policy Service
""")

mail("clem_gift_2025", A25, P(2025, 4, 14, 12, 40), NAOMI, MARCUS, "Clem's birthday", """
Ordered your brother's birthday present: the cast-iron smoker box and a sampler of hickory
and apple wood chips from Rivertown Outfitters. Arrives Thursday, so we can bring it to
Bend on the 26th. $64 total. Sign the card!
""")

mail("brightwave_welcome", A25, P(2025, 6, 3, 10, 0), "Brightwave <welcome@brightwave.net>", NAOMI,
     "Welcome to Brightwave!", """
Hi Naomi,

Welcome to Brightwave! Your order for Fiber 500 is confirmed.

Installation appointment: Tuesday, June 10, 2025, between 8 AM and 12 PM
Address: 41 Heron Bend Rd, Marlow Falls
Account: 3090-44172
Promotional price: $55.00/month for your first 7 months

An adult must be home for the installation. The technician will run fiber to the house
and set up your Wi-Fi router.

Brightwave
""")

mail("valley_cable_cancel", A25, P(2025, 6, 12, 9, 15), "Valley Cable <care@valleycable.net>", NAOMI,
     "We're sorry to see you go", """
Hi NAOMI,

This confirms that your Valley Cable service at 41 Heron Bend Rd was disconnected on June
11, 2025 at your request. Please return your modem to any Valley Cable store within 14 days
to avoid a $120 equipment charge. Your final bill will be prorated.

Valley Cable
""")

mail("brightwave_first_bill", A25, P(2025, 7, 9, 6, 5), "Brightwave <billing@brightwave.net>", NAOMI,
     "Your first Brightwave bill", """
Hi Naomi,

Here's your first Brightwave statement for account 3090-44172:

  Fiber 500 (promotional) .... $55.00
  Partial month Jun 10-Jul 7 . $47.67
  Taxes and fees ............. $2.61
  Total due July 29 .......... $105.28

Brightwave
""")

for _d, _per, _amt, _due in ((P(2025, 7, 9, 4, 20), "Jun 5 - Jul 6, 2025", "$151.20", "July 30, 2025"),
                             (P(2025, 8, 9, 4, 20), "Jul 7 - Aug 6, 2025", "$188.34", "August 30, 2025"),
                             (P(2025, 10, 9, 4, 20), "Sep 5 - Oct 6, 2025", "$121.77", "October 30, 2025")):
    mail("cve_%s" % _d.strftime("%Y_%m"), A25, _d, "Cascade Valley Electric <ebill@cascadevalleyelectric.com>",
         NAOMI, "Your Cascade Valley Electric bill", """
Hello NAOMI REYES,

Your bill for account 5520-117719 is ready.

  Billing period: %s
  Amount due: %s
  Due date: %s

Pay online at cascadevalleyelectric.com/pay.
""" % (_per, _amt, _due))

mail("silver_lake_res", A25, P(2025, 7, 21, 20, 44), "Oregon State Parks Reservations <reservations@oregonstateparks.example>",
     NAOMI, "Reservation confirmation 2-0091773", """
Thank you for your reservation!

Park: Silver Lake State Park
Site: 42 (standard tent site, lakeside loop)
Arrival: Friday, August 8, 2025 (check-in 4 PM)
Departure: Monday, August 11, 2025 (check-out 1 PM)
Occupants: 2 adults, 2 children, 1 dog (leashed)
Fees paid: $96.00 + $8.00 reservation fee

Quiet hours 10 PM - 7 AM. Firewood available at the camp host site.
""")

mail("okonkwo_welcome", A25, P(2025, 9, 2, 16, 30), "Adaeze Okonkwo <aokonkwo@mfsd41.org>",
     "Room 14 Families <room14@mfsd41.org>", "Welcome to third grade in Room 14", """
Dear families,

Welcome to third grade! My name is Adaeze Okonkwo and this is my sixth year at Quarry Hill.
This year we'll learn multiplication, write our first research reports and grow a garden.
Friday folders come home every week.

Ms. Okonkwo
""")

mail("summit_quote", A25, P(2025, 10, 22, 11, 0), "Summit Air Heating & Cooling <service@summitairhvac.com>",
     MARCUS, "Furnace replacement quote", """
Hi Marcus,

As Andre mentioned at yesterday's tune-up, your furnace is 19 years old and the heat
exchanger is showing cracks. Our quote for a Norden 96% two-stage furnace with a 4-inch
media filter cabinet is $7,940 installed, permit included. We can usually schedule within
three weeks of approval.

Renee, Summit Air office
""")

mail("biscuit_sock", A25, P(2025, 11, 18, 12, 5), MARCUS, NAOMI, "Biscuit", """
Biscuit ate one of Felix's striped socks. Watched him do it. I'm at Fernhill now - they gave
him a shot to make him throw up and the sock came right back out. He's fine, just sulky.
Bland food for two days. PLEASE tell Felix to keep his laundry off the floor.
""")

# =========================================================== mbox: lists (newsletters)
LST = "mbox:lists.mbox"
QUILL = list_headers("The Quarry Quill <quill.qhpta.org>",
                     "<mailto:unsubscribe@qhpta.org?subject=quill>, <https://qhpta.org/u/quill?m=hr41>")
LIB = list_headers("Library Happenings <happenings.marlowfallslibrary.org>",
                   "<https://marlowfallslibrary.org/unsubscribe?list=happenings&u=8812>")
PARKS = list_headers("Parks and Rec News <parksnews.marlowfallsor.gov>",
                     "<mailto:parksnews-leave@marlowfallsor.gov>")
MARLINS = list_headers("Marlins News <news.marlinsswim.org>",
                       "<https://marlinsswim.org/news/unsubscribe?u=halvorsen>")
SUMMIT = list_headers("Summit Air Comfort Club <comfort.summitairhvac.com>",
                      "<https://summitairhvac.com/unsub?c=MH2214>")
BW = list_headers("Brightwave News <news.brightwave.net>", "<https://brightwave.net/prefs?u=3090-44172>")
CVEN = list_headers("Power Lines <powerlines.cascadevalleyelectric.com>",
                    "<https://cascadevalleyelectric.com/unsubscribe?a=5520117719>")
HG = list_headers("Marlow Falls Home & Garden <news.mfhomegarden.com>", "<https://mfhomegarden.com/unsubscribe>")

mail("lib_jan", LST, P(2026, 1, 6, 10, 0), "Marlow Falls Public Library <happenings@marlowfallslibrary.org>",
     NAOMI, "Library Happenings - Winter 2026", """
LIBRARY HAPPENINGS - WINTER 2026

KIDS & TEENS
- Lego Builders: every Wednesday at 3:30 PM in the Children's Room. Ages 6-12, bricks
  provided, no registration needed.
- Preschool Storytime: Tuesdays and Fridays at 10:30 AM.
- Teen Anime Club: first Thursday of the month, 4 PM.

ADULTS
- Winter Reading Bingo runs through February 28.
- Tax help with AARP volunteers: Saturdays, February 7 - April 11, by appointment.

HOURS: Monday-Thursday 10-8, Friday-Saturday 10-6, closed Sunday.
""", headers=LIB)

mail("quill_jan", LST, P(2026, 1, 9, 7, 30), "Quarry Hill PTA <quill@qhpta.org>", NAOMI,
     "The Quarry Quill - January 2026", """
THE QUARRY QUILL - January 2026

Happy New Year, Quarry Hill!

DATES TO REMEMBER
- Mon Jan 19: No school (MLK Day)
- Fri Jan 30: No school (grading day)
- Fri Feb 13: Valentine's card exchange in classrooms
- Fri Apr 24: No school - staff development day

BOX TOPS: we raised $412 this fall - thank you!
LOST AND FOUND will be donated on January 30.
""", headers=QUILL)

mail("cve_news_feb", LST, P(2026, 2, 17, 9, 0), "Cascade Valley Electric <powerlines@cascadevalleyelectric.com>",
     NAOMI, "Power Lines - February 2026", """
POWER LINES - February 2026

Rates: the Oregon PUC approved a 4.2% increase in residential energy rates effective
April 1, 2026. The typical home using 1,000 kWh a month will pay about $5 more.

Winter tip: a programmable thermostat set to 68 F by day and 60 F at night can save up to
10% on heating.

Storm season: report outages at 1-800-555-0129 or text OUT to 55012.
""", headers=CVEN)

mail("parks_mar", LST, P(2026, 3, 2, 8, 0), "Marlow Falls Parks & Recreation <parksnews@marlowfallsor.gov>",
     NAOMI, "Parks & Rec spring update", """
PARKS & REC SPRING UPDATE

AQUATIC CENTER RESURFACING
The Aquatic Center closes Monday, March 30 so the main pool can be resurfaced and the
gutters repaired. We plan to reopen on Saturday, May 2 with a free family swim.

SUMMER CAMPS
Camp Tamarack day camps still have space in Sessions 3 and 5. Register at
marlowfallsor.gov/camps.

FARMERS MARKET
The Saturday market returns to Riverfront Park on May 9, 9 AM - 1 PM.
""", headers=PARKS)

mail("marlins_mar", LST, P(2026, 3, 3, 12, 0), "Marlow Falls Marlins <news@marlinsswim.org>", NAOMI,
     "Marlins News - March", """
MARLINS NEWS - MARCH 2026

PRACTICE SCHEDULE (11-14 group)
Monday, Wednesday, Friday, 5:30-7:00 PM at the Aquatic Center.

SWIMMER SPOTLIGHT
Congratulations to Iris Halvorsen, who dropped almost two seconds in the 50 Free at the
Winter Champs (36.90) and qualified for the Valley Age Group meet!

SPRING MEETS
May 2 - Riverbend Invitational. Meet packet to come in April.
""", headers=MARLINS)

mail("summit_news_mar", LST, P(2026, 3, 10, 10, 0), "Summit Air Comfort Club <comfort@summitairhvac.com>",
     MARCUS, "Spring tune-up season is here", """
SUMMIT AIR COMFORT CLUB - SPRING 2026

Book your spring A/C tune-up before May 31 for $89 (members $79).

FILTER TIP OF THE MONTH
Most homes in the valley have a 1-inch filter in the return grille or next to the furnace.
A 1-inch pleated filter should be changed every 1-3 months - more often with pets!

Summit Air Heating & Cooling - (541) 555-0171
""", headers=SUMMIT)

mail("hg_mar", LST, P(2026, 3, 20, 6, 0), "Marlow Falls Home & Garden <news@mfhomegarden.com>", NAOMI,
     "Spring home checklist", """
MARLOW FALLS HOME & GARDEN - SPRING CHECKLIST

1. Chimney: spring is the best time for a sweep before summer bookings fill. Local pick:
   Ash & Ember Chimney Sweeps, (541) 555-0199.
2. Exterior paint: Apex Painters is booking summer exterior jobs now - 10% off before
   April 30.
3. Gutters: clean them after the last big storm.
4. Irrigation: test every zone before the first hot week.
""", headers=HG)

mail("quill_apr", LST, P(2026, 4, 1, 7, 30), "Quarry Hill PTA <quill@qhpta.org>", NAOMI,
     "The Quarry Quill - April 2026", """
THE QUARRY QUILL - April 2026

Happy spring! Enjoy spring break next week, April 6-10.

DATES TO REMEMBER
- Apr 6-10: Spring break - no school
- Fri Apr 24: No school (staff development day) - enjoy the long weekend!
- Thu Apr 30: 3rd grade field trip
- Fri May 8: Spring Carnival, 5-8 PM

BOOK FAIR: thank you for buying $1,860 of books - our classrooms get $430 in free books!
""", headers=QUILL)

mail("bw_news_apr", LST, P(2026, 4, 3, 11, 0), "Brightwave <news@brightwave.net>", NAOMI,
     "Spring into faster internet", """
BRIGHTWAVE NEWS - APRIL 2026

New customers: get Fiber 300 for $45/month for 12 months, or Fiber 500 for $55/month for
7 months. Tell your neighbors - refer a friend and you both get $50.

Already a customer? Upgrade to Fiber 1 Gig for just $20 more per month.

Tip: restart your router once a month to keep Wi-Fi speeds up.
""", headers=BW)

mail("parks_apr", LST, P(2026, 4, 6, 8, 0), "Marlow Falls Parks & Recreation <parksnews@marlowfallsor.gov>",
     NAOMI, "Parks & Rec: summer registration is open", """
PARKS & REC NEWS - APRIL

Summer registration is open for swim lessons, Camp Tamarack and youth tennis.

AQUATIC CENTER
Resurfacing is under way. Watch this newsletter for reopening news - we are aiming for
early May.

VOLUNTEER
Riverfront Park cleanup day: Saturday, April 18, 9 AM - noon.
""", headers=PARKS)

mail("lib_apr", LST, P(2026, 4, 7, 10, 0), "Marlow Falls Public Library <happenings@marlowfallslibrary.org>",
     NAOMI, "Library Happenings - Spring 2026", """
LIBRARY HAPPENINGS - SPRING 2026

- Spring Break Movie Matinee: Wednesday, April 8 at 2 PM, "The Wild Robot".
- Seed library: pick up free vegetable and flower seeds at the front desk.
- Author visit: local illustrator Mai Tran, Saturday, May 2 at 11 AM.
- Community room bookings for summer open May 1.
""", headers=LIB)

mail("marlins_apr", LST, P(2026, 4, 14, 12, 0), "Marlow Falls Marlins <news@marlinsswim.org>", NAOMI,
     "Marlins News - April", """
MARLINS NEWS - APRIL 2026

RIVERBEND INVITATIONAL - SATURDAY, MAY 2
11-14 warm-ups begin at 7:45 AM; the first event is at 8:30 AM. Plan to arrive 15
minutes before warm-up. Parents: we need six timers!

PRACTICE
See Coach Dana's emails for this month's practice plan.

SPIRIT WEAR
New caps and parkas are in - order by April 30.
""", headers=MARLINS)

mail("quill_apr17", LST, P(2026, 4, 17, 7, 30), "Quarry Hill PTA <quill@qhpta.org>", NAOMI,
     "The Quarry Quill - Carnival & picture retakes", """
THE QUARRY QUILL - Mid-April

PICTURE RETAKES
Picture retakes are Tuesday, April 28 in the library, starting at 8:30 AM. Bring your
original packet if you want a retake.

SPRING CARNIVAL - Friday, May 8, 5-8 PM
We need cake walk donations and volunteers - see Rosa's email.

TEACHER APPRECIATION WEEK is May 4-8.
""", headers=QUILL)


# --------------------------------------------------------------------------- calendars
def L(y, m, d, hh=0, mm=0):
    """Local (floating, TZID'd) time for DTSTART/DTEND."""
    return datetime(y, m, d, hh, mm)


CALENDARS = {}


def cal(path, name, events, method=None):
    CALENDARS[path] = (name, events, method)


cal("calendar/quarry-hill-events.ics", "Quarry Hill Elementary - Events", [
    {"uid": "qhe-2026-0406-springbreak@mfsd41.org", "allday": True, "start": L(2026, 4, 6), "end": L(2026, 4, 11),
     "summary": "Spring break - no school", "created": P(2025, 8, 4, 14, 30), "modified": P(2025, 8, 4, 14, 30)},
    {"uid": "qhe-2026-0423-mathnight@mfsd41.org", "start": L(2026, 4, 23, 18, 0), "end": L(2026, 4, 23, 19, 0),
     "summary": "Family Math Night", "location": "Quarry Hill Elementary cafeteria",
     "description": "Cancelled - will be rescheduled in the fall.", "status": "CANCELLED", "sequence": 1,
     "created": P(2026, 1, 9, 8, 0), "modified": P(2026, 4, 13, 15, 10)},
    {"uid": "qhe-2026-0424-staffdev@mfsd41.org", "allday": True, "start": L(2026, 4, 24), "end": L(2026, 4, 25),
     "summary": "Regular school day (snow make-up day)",
     "description": "Formerly a no-school staff development day. The School Board made this a regular full "
                    "day on 3/18/2026 to make up the Feb 3-4 snow closures. Normal bus routes and dismissal times.",
     "sequence": 2, "created": P(2025, 8, 4, 14, 30), "modified": P(2026, 4, 14, 9, 0)},
    {"uid": "qhe-2026-0430-fieldtrip3@mfsd41.org", "start": L(2026, 4, 30, 9, 0), "end": L(2026, 4, 30, 14, 15),
     "summary": "Grade 3 field trip - Willamette Discovery Farm", "created": P(2026, 3, 2, 10, 0),
     "modified": P(2026, 3, 2, 10, 0)},
    {"uid": "qhe-2026-0508-carnival@mfsd41.org", "start": L(2026, 5, 8, 17, 0), "end": L(2026, 5, 8, 20, 0),
     "summary": "PTA Spring Carnival", "location": "Quarry Hill back field", "created": P(2026, 1, 9, 8, 0),
     "modified": P(2026, 1, 9, 8, 0)},
    {"uid": "qhe-2026-0520-staffdev@mfsd41.org", "start": L(2026, 5, 20, 14, 50), "end": L(2026, 5, 20, 16, 30),
     "summary": "Staff development (after regular dismissal)", "created": P(2026, 3, 20, 15, 30),
     "modified": P(2026, 3, 20, 15, 30)},
    {"uid": "qhe-2026-0525-memorial@mfsd41.org", "allday": True, "start": L(2026, 5, 25), "end": L(2026, 5, 26),
     "summary": "Memorial Day - no school", "created": P(2025, 8, 4, 14, 30), "modified": P(2025, 8, 4, 14, 30)},
    {"uid": "qhe-2026-0612-makeup@mfsd41.org", "allday": True, "start": L(2026, 6, 12), "end": L(2026, 6, 13),
     "summary": "Half day (snow make-up day) - dismissal 11:50 AM", "created": P(2026, 3, 20, 15, 30),
     "modified": P(2026, 3, 20, 15, 30)},
])

cal("calendar/marlins-swim.ics", "Marlins 11-14", [
    {"uid": "marlins-1114-winter-practice@marlinsswim.org", "start": L(2026, 1, 5, 17, 30), "end": L(2026, 1, 5, 19, 0),
     "rrule": "FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20260328T065959Z", "summary": "Marlins 11-14 practice",
     "location": "Marlow Falls Aquatic Center", "created": P(2025, 12, 15, 12, 0), "modified": P(2025, 12, 15, 12, 0)},
    {"uid": "marlins-1114-mfhs-practice@marlinsswim.org", "start": L(2026, 4, 14, 18, 0), "end": L(2026, 4, 14, 19, 15),
     "rrule": "FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20260530T065959Z", "summary": "Marlins 11-14 practice (at MFHS)",
     "location": "Marlow Falls High School pool - enter by the gym doors on Fir St",
     "description": "Temporary location while the Aquatic Center is closed for resurfacing.",
     "created": P(2026, 4, 8, 19, 25), "modified": P(2026, 4, 8, 19, 25)},
    {"uid": "marlins-2026-0502-riverbend@marlinsswim.org", "allday": True, "start": L(2026, 5, 2), "end": L(2026, 5, 3),
     "summary": "Riverbend Invitational (meet)", "location": "Riverbend Community Pool, 410 Mill Race Rd",
     "description": "See the meet packet for the session timeline.", "created": P(2026, 3, 3, 12, 0),
     "modified": P(2026, 3, 3, 12, 0)},
])

cal("calendar/rockhounds-little-league.ics", "Rockhounds (MFLL Minors)", [
    {"uid": "rockhounds-practice-2026@mfll.org", "start": L(2026, 3, 11, 17, 30), "end": L(2026, 3, 11, 19, 0),
     "rrule": "FREQ=WEEKLY;BYDAY=WE;UNTIL=20260528T065959Z", "summary": "Rockhounds practice",
     "location": "Heron Park Field 3", "created": P(2026, 3, 1, 18, 5), "modified": P(2026, 3, 1, 18, 5)},
    {"uid": "rockhounds-g1-2026@mfll.org", "start": L(2026, 4, 11, 10, 0), "end": L(2026, 4, 11, 12, 0),
     "summary": "Rockhounds vs Mill City Millers", "location": "Heron Park Field 3",
     "description": "Rained out - not rescheduled.", "status": "CANCELLED", "sequence": 1,
     "created": P(2026, 3, 1, 18, 5), "modified": P(2026, 4, 11, 7, 45)},
    {"uid": "rockhounds-g2-2026@mfll.org", "start": L(2026, 4, 18, 12, 30), "end": L(2026, 4, 18, 14, 30),
     "summary": "Rockhounds at Santiam Sluggers", "location": "Dutton Field #2",
     "created": P(2026, 3, 1, 18, 5), "modified": P(2026, 3, 1, 18, 5)},
    {"uid": "rockhounds-photos-2026@mfll.org", "start": L(2026, 4, 25, 9, 0), "end": L(2026, 4, 25, 10, 0),
     "summary": "Team photos - Rockhounds", "location": "Heron Park picnic shelter",
     "description": "Full uniform. Order envelopes to the photographer.",
     "created": P(2026, 4, 12, 20, 0), "modified": P(2026, 4, 12, 20, 0)},
    {"uid": "rockhounds-g3-2026@mfll.org", "start": L(2026, 4, 26, 14, 0), "end": L(2026, 4, 26, 16, 0),
     "summary": "Rockhounds vs Canyon Creek Coyotes", "location": "Dutton Field #2",
     "description": "Moved from Saturday 4/25 10:00 AM at Heron Park (field aeration). Arrive 1:15.",
     "sequence": 1, "created": P(2026, 3, 1, 18, 5), "modified": P(2026, 4, 20, 12, 0)},
    {"uid": "rockhounds-g4-2026@mfll.org", "start": L(2026, 5, 2, 9, 0), "end": L(2026, 5, 2, 11, 0),
     "summary": "Rockhounds at Riverbend Rattlers", "location": "Riverbend Park",
     "created": P(2026, 3, 1, 18, 5), "modified": P(2026, 3, 1, 18, 5)},
    {"uid": "rockhounds-g5-2026@mfll.org", "start": L(2026, 5, 9, 12, 30), "end": L(2026, 5, 9, 14, 30),
     "summary": "Rockhounds vs Santiam Sluggers", "location": "Heron Park Field 3",
     "created": P(2026, 3, 1, 18, 5), "modified": P(2026, 3, 1, 18, 5)},
])

cal("calendar/family.ics", "Reyes-Halvorsen family", [
    {"uid": "fam-tess-tuesdays@heronbend.example", "start": L(2026, 2, 3, 15, 0), "end": L(2026, 2, 3, 18, 0),
     "rrule": "FREQ=WEEKLY;BYDAY=TU", "summary": "Tess - after school",
     "created": P(2026, 2, 1, 18, 0), "modified": P(2026, 2, 1, 18, 0)},
    {"uid": "fam-camp-tamarack@heronbend.example", "allday": True, "start": L(2026, 7, 6), "end": L(2026, 7, 11),
     "summary": "Felix - Camp Tamarack (Session 2)", "location": "Tamarack Lake Park lodge",
     "created": P(2026, 2, 20, 13, 20), "modified": P(2026, 2, 20, 13, 20)},
    {"uid": "fam-mom-visit@heronbend.example", "allday": True, "start": L(2026, 5, 7), "end": L(2026, 5, 15),
     "summary": "Mom visiting", "created": P(2026, 4, 6, 21, 35), "modified": P(2026, 4, 6, 21, 35)},
    {"uid": "fam-datenight@heronbend.example", "start": L(2026, 4, 17, 19, 0), "end": L(2026, 4, 17, 21, 0),
     "summary": "Date night - Bistro Lune", "status": "CANCELLED", "sequence": 1,
     "created": P(2026, 4, 2, 20, 0), "modified": P(2026, 4, 16, 21, 0)},
    {"uid": "fam-felix-dentist@heronbend.example", "start": L(2026, 4, 23, 16, 0), "end": L(2026, 4, 23, 17, 0),
     "summary": "Felix - Bright Harbor Dental", "location": "44 Harbor Lane",
     "description": "Cleaning + exam. Moved from 3:15.", "sequence": 1,
     "created": P(2026, 3, 19, 10, 30), "modified": P(2026, 4, 16, 14, 55)},
    {"uid": "fam-biscuit-groom@heronbend.example", "start": L(2026, 4, 23, 10, 30), "end": L(2026, 4, 23, 12, 0),
     "summary": "Biscuit - Sudsy Paws", "location": "118 Main St",
     "created": P(2026, 4, 17, 11, 20), "modified": P(2026, 4, 17, 11, 20)},
    {"uid": "fam-clem-bbq@heronbend.example", "start": L(2026, 4, 25, 15, 0), "end": L(2026, 4, 25, 19, 0),
     "summary": "Clem's birthday BBQ", "location": "1180 Juniper Ridge Dr, Bend",
     "description": "Bring potato salad + cornhole boards.", "sequence": 1,
     "created": P(2026, 4, 11, 8, 20), "modified": P(2026, 4, 18, 18, 0)},
    {"uid": "fam-iris-concert@heronbend.example", "start": L(2026, 4, 30, 19, 0), "end": L(2026, 4, 30, 20, 30),
     "summary": "Iris - spring orchestra concert", "location": "MFHS Performing Arts Center",
     "sequence": 1, "created": P(2026, 2, 24, 17, 0), "modified": P(2026, 4, 16, 18, 0)},
])

cal("calendar/family-2025.ics", "Reyes-Halvorsen family (2025)", [
    {"uid": "fam25-clem-45@heronbend.example", "allday": True, "start": L(2025, 4, 26), "end": L(2025, 4, 27),
     "summary": "Clem's 45th birthday (Bend)", "created": P(2025, 3, 30, 9, 0), "modified": P(2025, 3, 30, 9, 0)},
    {"uid": "fam25-iris-recital@heronbend.example", "start": L(2025, 6, 7, 14, 0), "end": L(2025, 6, 7, 15, 30),
     "summary": "Iris violin recital", "location": "Marlow Arts Guild, 220 Main St",
     "created": P(2025, 5, 1, 20, 0), "modified": P(2025, 5, 1, 20, 0)},
    {"uid": "fam25-brightwave@heronbend.example", "start": L(2025, 6, 10, 8, 0), "end": L(2025, 6, 10, 12, 0),
     "summary": "Brightwave fiber install (someone home!)", "created": P(2025, 6, 3, 10, 30),
     "modified": P(2025, 6, 3, 10, 30)},
    {"uid": "fam25-cast-off@heronbend.example", "start": L(2025, 8, 4, 10, 0), "end": L(2025, 8, 4, 11, 0),
     "summary": "Felix - cast off (Valley Orthopedics)", "created": P(2025, 7, 21, 9, 0),
     "modified": P(2025, 7, 21, 9, 0)},
    {"uid": "fam25-camping@heronbend.example", "allday": True, "start": L(2025, 8, 8), "end": L(2025, 8, 12),
     "summary": "Camping!", "location": "Silver Lake State Park, site 42",
     "created": P(2025, 7, 21, 20, 50), "modified": P(2025, 7, 21, 20, 50)},
    {"uid": "fam25-school-starts@heronbend.example", "allday": True, "start": L(2025, 9, 2), "end": L(2025, 9, 3),
     "summary": "First day of school", "created": P(2025, 8, 20, 12, 0), "modified": P(2025, 8, 20, 12, 0)},
])

ICS_ATTACHMENTS = {
    "dentist_invite": ("", [
        {"uid": "bhd-appt-88213@brightharbordental.com", "start": L(2026, 4, 23, 16, 0), "end": L(2026, 4, 23, 17, 0),
         "summary": "Dental cleaning & exam - Felix Halvorsen", "location": "Bright Harbor Family Dental, 44 Harbor Lane",
         "organizer": "Bright Harbor Family Dental:mailto:appointments@brightharbordental.com",
         "description": "Rescheduled from 3:15 PM. Please arrive 10 minutes early.", "sequence": 1,
         "created": P(2026, 3, 19, 10, 25), "modified": P(2026, 4, 16, 14, 48)}], "REQUEST"),
}

# --------------------------------------------------------------------------- photos
HOME_GPS = (44.6412, -123.0581)
PHOTOS = [
    {"key": "photo_gotcha", "file": "photos/IMG_2021-06-12_biscuit.jpg", "dt": P(2021, 6, 12, 11, 48),
     "make": "Apple", "model": "iPhone 11", "gps": (44.6365, -123.1052),
     "desc": "Biscuit's gotcha day! Adopted from the Linn County Humane Society",
     "bg": (130, 170, 90), "draw": [("ellipse", (20, 14, 44, 38), (160, 110, 60))]},
    {"key": "photo_deck", "file": "photos/IMG_2021-09-25_deck.jpg", "dt": P(2021, 9, 25, 17, 2),
     "make": "Apple", "model": "iPhone 11", "gps": HOME_GPS,
     "desc": "Deck is done! Thanks to Matt and the Timberline Decks crew",
     "bg": (150, 190, 230), "draw": [("rect", (4, 28, 60, 40), (170, 110, 70))]},
    {"key": "photo_gutters", "file": "photos/IMG_2022-10-14_gutters.jpg", "dt": P(2022, 10, 14, 13, 30),
     "make": "Apple", "model": "iPhone 11", "gps": HOME_GPS,
     "desc": "Gutter guards going on (Evergreen Gutter Co.)",
     "bg": (200, 200, 205), "draw": [("line", (0, 12, 64, 12), (90, 90, 90))]},
    {"key": "photo_tooth", "file": "photos/IMG_2024-03-18_tooth.jpg", "dt": P(2024, 3, 18, 19, 40),
     "make": "Google", "model": "Pixel 7", "gps": None,
     "desc": "Felix lost his first tooth! Bottom front, at dinner",
     "bg": (240, 220, 200), "draw": [("rect", (28, 26, 36, 34), (255, 255, 255))]},
    {"key": "photo_seattle", "file": "photos/IMG_2024-04-02_seattle.jpg", "dt": P(2024, 4, 2, 12, 15),
     "make": "Google", "model": "Pixel 7", "gps": (47.6097, -122.3422),
     "desc": "Spring break in Seattle - fish toss at the market",
     "bg": (120, 130, 150), "draw": [("rect", (10, 10, 54, 20), (200, 40, 40))]},
    {"key": "photo_second_grade", "file": "photos/IMG_2024-09-03_first-day.jpg", "dt": P(2024, 9, 3, 8, 5),
     "make": "Google", "model": "Pixel 7", "gps": (44.6451, -123.0412),
     "desc": "Felix's first day of 2nd grade - with Mr. Ferraro outside Room 9",
     "bg": (180, 210, 160), "draw": [("rect", (24, 10, 40, 44), (40, 80, 160))]},
    {"key": "photo_first_meet", "file": "photos/IMG_2024-10-19_swim.jpg", "dt": P(2024, 10, 19, 10, 22),
     "make": "Google", "model": "Pixel 7", "gps": (44.6290, -123.0770),
     "desc": "Iris behind the blocks at her first Marlins meet",
     "bg": (40, 140, 200), "draw": [("line", (0, 24, 64, 24), (255, 255, 255))]},
    {"key": "photo_clem_bday", "file": "photos/IMG_2025-04-26_bend.jpg", "dt": P(2025, 4, 26, 16, 10),
     "make": "Samsung", "model": "SM-S911U", "gps": (44.0582, -121.3153),
     "desc": "Clem's 45th in Bend - he already fired up the new smoker box",
     "bg": (90, 90, 100), "draw": [("rect", (20, 20, 44, 36), (30, 30, 30))]},
    {"key": "photo_cast", "file": "photos/IMG_2025-07-14_cast.jpg", "dt": P(2025, 7, 14, 9, 30),
     "make": "Samsung", "model": "SM-S911U", "gps": None,
     "desc": "Felix picked a bright green cast",
     "bg": (250, 240, 230), "draw": [("rect", (14, 18, 50, 30), (60, 200, 60))]},
    {"key": "photo_campsite", "file": "photos/IMG_2025-08-09_campsite.jpg", "dt": P(2025, 8, 9, 18, 22),
     "make": "Samsung", "model": "SM-S911U", "gps": (44.4021, -122.0113),
     "desc": "Silver Lake State Park, site 42 - tent up, Biscuit on guard",
     "bg": (60, 110, 60), "draw": [("rect", (18, 22, 46, 40), (230, 140, 30))]},
    {"key": "photo_sunset", "file": "photos/IMG_2025-08-10_sunset.jpg", "dt": P(2025, 8, 10, 20, 31),
     "make": "Samsung", "model": "SM-S911U", "gps": (44.4033, -122.0139),
     "desc": "Sunset over the lake, last night of the trip",
     "bg": (240, 150, 80), "draw": [("ellipse", (24, 20, 40, 36), (255, 220, 120))]},
    {"key": "photo_clementine", "file": "photos/IMG_2026-01-18_clem.jpg", "dt": P(2026, 1, 18, 14, 3),
     "make": "Apple", "model": "iPhone 14", "gps": None,
     "desc": "Clem in her sunny spot on the stairs",
     "bg": (230, 200, 150), "draw": [("ellipse", (18, 18, 46, 40), (240, 150, 50))]},
    {"key": "photo_snow", "file": "photos/IMG_2026-02-04_snow.jpg", "dt": P(2026, 2, 4, 10, 45),
     "make": "Apple", "model": "iPhone 14", "gps": HOME_GPS,
     "desc": "Snow day #2 - sledding on the Heron Bend hill",
     "bg": (245, 245, 250), "draw": [("rect", (26, 30, 38, 36), (200, 30, 30))]},
    {"key": "photo_furnace", "file": "photos/IMG_2026-02-10_furnace.jpg", "dt": P(2026, 2, 10, 14, 20),
     "make": "Apple", "model": "iPhone 14", "gps": HOME_GPS,
     "desc": "Summit Air crew putting in the new furnace in the basement",
     "bg": (110, 100, 90), "draw": [("rect", (22, 6, 42, 44), (220, 220, 215))]},
    {"key": "photo_game", "file": "photos/IMG_2026-04-18_game.jpg", "dt": P(2026, 4, 18, 13, 12),
     "make": "Apple", "model": "iPhone 14", "gps": (44.6280, -123.0190),
     "desc": "Felix's first hit of the season - Rockhounds at Santiam",
     "bg": (100, 160, 80), "draw": [("ellipse", (30, 20, 36, 26), (255, 255, 255))]},
]

# --------------------------------------------------------------------------- notes
NOTES = [
    ("notes/house-notes-2023.txt", P(2023, 3, 12, 20, 0), """
HOUSE NOTES (written March 2023)

Wi-Fi: Halvorsen_Home   password: rainyday2019
Alarm panel: by the garage door; code is our anniversary month+day
Water shutoff: crawlspace, just inside the front vent, blue handle
Furnace filter: 20x25x1 - buy the 3-packs at Marlow Hardware, change every 2 months
Breaker for the garage fridge: #14
Trash day: Thursday. Recycling every other Thursday (green week on the magnet).
Basement floor drain gurgles when the washer runs - find someone to scope the sewer line.
"""),
    ("notes/sitter-sheet.md", P(2026, 3, 28, 9, 0), """
# Sitter sheet

_Updated March 28, 2026_

## Wi-Fi
- Network: **HeronBend-5G**
- Password: `tidepool-Otter-88`

## Kids
- **Iris** (12): violin practice 30 min before screens. Swim on practice nights - she
  packs her own bag.
- **Felix** (8): reading log every night (20 min). Bus: Route 22 at the Marsh Ln corner,
  7:41 AM. Bedtime 8:15.
- No screens after 8 PM for either.

## Animals
- **Biscuit** (dog): 1 cup kibble at 7 AM and 5 PM. He WILL eat socks - keep laundry up.
- **Clem** (the cat, Clementine): 1/4 can of the senior food at 6 PM. Indoor only!

## Phone numbers
- Naomi: 541-555-0104 / Marcus: 541-555-0105
- Kids' doctor - Dr. Osei, Willow Creek Pediatrics: 541-555-0178
- Uncle Clem (Bend): 541-555-0133
- Neighbors: the Sutherlands, #47: 541-555-0146
- Poison Control: 1-800-222-1222
"""),
    ("notes/garden-plan-2026.txt", P(2026, 2, 22, 15, 0), """
Garden plan - February 22, 2026

Raised bed 1: peas (plant early March), then beans in June
Raised bed 2: tomatoes (Sungold, Early Girl), basil
Raised bed 3: Felix's pumpkin patch (he insists)
Order: drip line connectors, 2 bags compost, bird netting
Ask Gary if we can borrow his tiller again
"""),
    ("notes/christmas-2025-gifts.md", P(2025, 12, 1, 21, 0), """
# Christmas 2025 gift list
_started December 1, 2025_

- Iris: new violin case (the blue one), swim parka
- Felix: Lego volcano, baseball glove (youth 11")
- Uncle Clem: Oregon Ducks hoodie (XL)
- Mom: digital photo frame, load with the camping pictures
- Marisol: bread-baking class gift card
- Tess: $50 gift card + card from the kids
"""),
    ("notes/hoa-fall-meeting-2025.txt", P(2025, 10, 14, 21, 30), """
Heron Bend Neighbors - fall meeting notes (Naomi), October 14, 2025

- ~25 households. Owen re-elected president, Beth secretary, Gloria treasurer.
- Dues stay $240 for the rest of 2025. The board will propose raising 2026 dues at the
  spring meeting to pay for new entrance landscaping.
- City says speed bump study on Heron Bend Rd "early 2026".
- Block party was a hit - repeat in August.
"""),
    ("notes/camping-packing-list.md", P(2025, 8, 5, 19, 0), """
# Camping packing list
_last used August 2025 - next time bring MORE bug spray_

- Tent, footprint, 4 sleeping bags, pads, pillows
- Stove + 2 fuel cans, lighter, pot, pan, kettle
- Cooler, ice, water jugs
- Headlamps, lantern, extra batteries
- Biscuit: leash, tie-out, bowl, food, towel
- Rain jackets (always), sunscreen, first-aid kit
- Felix's cast cover!!
"""),
]


# --------------------------------------------------------------------------- build
def attachment_bytes(ref):
    kind, key = ref.split(":", 1)
    if kind == "pdf":
        d = PDFS[key]
        return make_pdf(d["text"], d["info"])
    if kind == "ics":
        name, events, method = ICS_ATTACHMENTS[key]
        return make_ics(name, events, method).encode("utf-8")
    raise ValueError(ref)


def render(m):
    mm = dict(m)
    mm["atts"] = [(f, c, attachment_bytes(r)) for f, c, r in m.get("atts", [])]
    return build_email(mm)


def main():
    # standalone PDFs
    for key, d in PDFS.items():
        if d["path"]:
            MANIFEST[key] = write(d["path"], make_pdf(d["text"], d["info"]), d["date"])
    # Maildir and .eml
    n = 0
    mboxes = {}
    for m in MAILS:
        where = m["where"]
        if where in ("cur", "new"):
            n += 1
            name = "%d.M%dP%d.host" % (epoch(m["date"]), n, n)
            if where == "cur":
                name += ":2,S"
            MANIFEST[m["key"]] = write("mail/Maildir/%s/%s" % (where, name), render(m), m["date"])
        elif where.startswith("eml:"):
            MANIFEST[m["key"]] = write("mail/saved/" + where[4:], render(m), m["date"])
        elif where.startswith("mbox:"):
            mboxes.setdefault(where[5:], []).append(m)
    for name, msgs in mboxes.items():
        msgs = sorted(msgs, key=lambda x: x["date"])
        text = "".join(mbox_from_line(m) + mbox_escape(render(m)) + "\n" for m in msgs)
        rel = write("mail/" + name, text, msgs[-1]["date"])
        for m in msgs:
            MANIFEST[m["key"]] = rel
    for rel in ("mail/Maildir/tmp",):
        os.makedirs(os.path.join(OUT, rel), exist_ok=True)
    # calendars
    for path, (name, events, method) in CALENDARS.items():
        latest = max(e["modified"] for e in events)
        MANIFEST[path] = write(path, make_ics(name, events, method), latest)
    # photos
    for p in PHOTOS:
        MANIFEST[p["key"]] = write(p["file"], make_jpeg(p), p["dt"])
    # notes
    for path, dt, text in NOTES:
        MANIFEST[path] = write(path, T(text), dt)
    if "--list" in sys.argv:
        for k in sorted(MANIFEST):
            print("%-26s %s" % (k, MANIFEST[k]))
    print("wrote %d files under %s" % (len(set(MANIFEST.values())), os.path.relpath(OUT, os.getcwd())),
          file=sys.stderr)


if __name__ == "__main__":
    main()
