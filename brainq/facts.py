"""Checkable facts in a sentence (a time, an amount, a size, a code, a number, a day, a place,
a person, yes/no) and the kind of fact a question asks for.

Two uses: a source whose best sentence holds the kind of fact asked for ("what time ...?" and
"12:45 PM") is likelier to answer than one that only shares its words, and two fresh sources
that state different values of the same kind of fact about the same thing disagree.
"""

from __future__ import annotations

import re
from datetime import date

from brainq.dates import MONTH_RE, WEEKDAY_RE, find_event_dates

_TIME = re.compile(r"\b(1[0-2]|0?[1-9])(?::([0-5]\d))?\s*([ap])\.?\s?m\b\.?|\bnoon\b|\b([01]?\d|2[0-3]):([0-5]\d)\b", re.I)
# Money: a currency sign before the figure, or after it as much of Europe writes it ("84,50 €"),
# or a currency's name or code after it ("180 dollars", "12 EUR": not "pounds", which weigh,
# nor a year's "2024 dollars");
# or a figure with cents under a money label, as a bank's statement prints it ("Amount: -48.20"),
# with its currency when one follows ("Fee: 12,50 €").
_CURRENCY_NAME = r"(?:dollars?|bucks|euros?|usd|eur|gbp)\b(?!-)"
_AMOUNT = re.compile(
    r"(?:(?<![\w.,-])(?P<sign_minus>[-−]))?(?P<sign>[$€£¥₹])\s?(?P<figure>\d(?:[\d,.]*\d)?)"
    r"|(?<![\d,.])(?P<figure_before>\d(?:[\d,.]*\d)?)\s?(?P<sign_after>[€£])"
    rf"|(?<![\d,.])(?P<figure_named>(?!(?:19|20)\d\d\b)\d(?:[\d,.]*\d)?)\s?(?P<currency>{_CURRENCY_NAME})"
    r"|\b(?:amount|total|cost|price|paid|balance|fee|charge|debit|credit)s?\b[^:\n]{0,20}:\s*"
    rf"(?P<minus>[-−])?(?P<labelled>\d[\d,]*[.,]\d\d)\b(?:[ \t]?(?P<labelled_sign>[€£]|{_CURRENCY_NAME}))?",
    re.I,
)
# by the name's first letters, or the sign itself
_CURRENCY_SIGNS = {"dol": "$", "buc": "$", "usd": "$", "eur": "€", "gbp": "£", "€": "€", "£": "£"}
_SIZE = re.compile(r"\b\d+(?:\.\d+)?\s?[x×]\s?\d+(?:\.\d+)?(?:\s?[x×]\s?\d+(?:\.\d+)?)?\b", re.I)
# A code: a token with a digit and a letter or symbol in its first 48 characters (model numbers,
# passwords, account and phone numbers; looking further from every point of a long run of
# "1.1.1." took seconds), but not a range ("6-10"), a span of years, an ISO date or an ordinal
# ("the 25th"); or a run of six digits or more (a microchip's, a student's or a policy's
# number), longer than a year, a ZIP code or a day's digits, and not an amount's; or a phone
# number in groups, as dialled at home ("01603 555 219") or abroad ("+44 1603 555219"); or a
# shorter run right after a code's name, a remark in brackets, "is" or a colon ("Garage keypad
# code (changed 2025): 4419", "the alarm PIN is 9021"), where a ZIP, area or dress code is no
# code asked for.
# A short code's digits, as a label or a code's name leaves them: no more figures, a word or an
# amount after them ("4419", not "4419.50" or "4419th").
_SHORT_RUN = r"\d{3,8}(?![\w$]|[.,:/-]\d)"
_CODE = re.compile(
    r"(?<![\w$])(?!(?:\d{1,2}-\d{1,2}|(?:19|20)\d\d-\d\d(?:\d\d)?(?:-\d\d)?)(?![\w-]))(?!\d+(?i:st|nd|rd|th)\b)"
    r"(?=[^\s]{0,47}\d)(?=[^\s]{0,47}[A-Za-z!@#%&*_-])[^\s,;()]{4,}"
    r"|(?<![\w$.,])\d{6,}(?!\w|[.,]\d)"
    r"|(?<![\w$.,])(?:\+\d{1,3}[ -]?|0)\d{2,4}(?:[ -]\d{3,4}){1,2}(?![\w.,]\d|\d)"
    r"|(?<!(?i:zip|rea|ess|tal) )\b(?i:code|pin|passcode|combination)s?\b(?:\s*\([^)\n]{0,40}\))?"
    rf"(?:\s+(?i:is|was|now|no\.?|number|#))*\s*[:#=]?\s*{_SHORT_RUN}"
)
# A number in digits or words ("three weeks", "a dozen eggs", "twice"); not "one", which is as
# often a pronoun ("the one we liked").
_NUMBER = re.compile(
    r"\b\d+(?:[.,]\d+)?\b|\b(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
    r"|(?:thir|four|fif|six|seven|eigh|nine)teen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety"
    r"|hundred|thousand|dozen|twice)\b",
    re.I,
)
# A weight or a height with its unit ("42 lbs", "4.6 kg", "3 ft 2 in", "5'4\"").
_MEASURE = re.compile(
    r"\b\d+(?:[.,]\d+)?\s?(?:lbs?|pounds?|kg|kilos?|kilograms?|oz|ounces?|grams?|g|ft|feet|foot|inch(?:es)?|in|cm|mm"
    r"|centimet(?:er|re)s?|met(?:er|re)s?|m)\b|\b\d\s?['′]\s?\d{1,2}\b",
    re.I,
)
# A place: a line labelled as one ("Where: Pool A"), a street address, or a place named after
# a preposition ("at St. Brendan's Hall", "moved from Sweden"); not a month or a weekday ("in
# March"), which are times.
_PLACE = re.compile(
    r"(?i:\b(?:where|location|venue|place|address)\s*:)"
    r"|\b\d{1,5}\s+(?:[A-Z][\w'.-]*\s+){1,4}"
    r"(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|Boulevard|Blvd|Way|Court|Ct|Place|Pl|Parkway|Pkwy|Highway|Hwy|Terrace|Circle)\b"
    r"|(?:(?<![\w-])(?:at|in|to|from|near|inside|outside|behind)|^(?:At|In|From|Near|Inside|Outside|Behind))\s+"
    rf"(?:the\s+)?(?!(?i:{MONTH_RE}|{WEEKDAY_RE}))[A-Z][\w'&.-]*"
)
# A person or a firm, as "who" asks for: a name after a title ("Dr. Solberg") or after "is",
# "was" or "be" ("the technician is Luis"), or two capitalised words (_names).
_NAME = r"[A-ZÀ-ÖØ-Þ][^\W\d_]*(?:['-][^\W\d_]+)?"
# Capitalised words that open a greeting, a heading or a label, not a name ("Hello Pat,",
# "Please Note:", "Your Amazon Order", "Total Amount Due", "See You Soon!").
_NO_NAME = re.compile(
    rf"{MONTH_RE}|{WEEKDAY_RE}|Hi|Hello|Hey|Dear|Thanks|Thank|Happy|Merry|Please|Welcome|Good|Best|Kind|See|You"
    r"|Re|Fwd|Fw|Your|Our|My|The|This|That|These|Those|Total|Amount|Balance|New|Note",
    re.I,
)
_NAMED = re.compile(rf"\b(?:Dr|Mr|Mrs|Ms|Mx|Coach)\.?\s+{_NAME}|\b(?:is|was|be)\s+(?P<name>{_NAME})")
_NAME_VERBS = {"is", "was", "will", "came", "did", "said", "from", "at", "of", "and"}
_WORD_END = ",.;:!?)\"'"
_NEGATIVE = re.compile(r"\b(cancel\w*|postpon\w*|called off|closed|no school|half[- ]day|early dismissal)\b", re.I)
_POSITIVE = re.compile(
    r"\b(as scheduled|still on|will go ahead|go on as planned|open as usual|full (school )?day|"
    r"regular (school )?day|not (be )?cancel\w*)\b",
    re.I,
)

# What a question asks for, by its wording; the first that matches wins.
_ASKS = (
    # A question that opens with "when" asks for a day, whatever it is about ("when is the
    # account renewal due?", "when do we pay the water bill?"), as does one that asks for a
    # day outright ("what day is the balance due?").
    ("day", re.compile(r"^\W*when\b|\bwhat (day|date)\b|\bwhich day\b|\bdue date\b|\bby when\b", re.I)),
    (
        "time",
        re.compile(
            r"\bwhat time\b|\bhow early\b"
            r"|\bwhat(?:'s| is| was)? the (?:(?!last|first|next)[\w-]+ ){1,3}time\b",  # "the pickup time"
            re.I,
        ),
    ),
    # A number, code or ID named as what is asked ("what's the deposit certificate number?") is
    # no amount, whatever words about money come before it.
    ("code", re.compile(r"^\W*what(?:'s| is| was| are)?\s+(?:the |our |my |his |her |their )?(?:(?!of\b)[\w'-]+ ){0,3}(?:number|code|password|pin|id)\b", re.I)),
    # A weight or a height is never money, though "how much does Rex weigh" reads like it: it
    # is a figure with its unit ("42 lbs"), where any number would let a visit's date answer.
    ("measure", re.compile(r"\bweigh|\bhow (heavy|tall)\b", re.I)),
    ("number", re.compile(r"\bhow old\b", re.I)),
    # Money by its words; "how much" alone may be food or coverage, a number of any kind.
    (
        "amount",
        re.compile(
            r"\bhow much (is|was|are|were|will|would|did|does|do|money)\b"
            r"|\b(amount|balance) (due|owed|outstanding|left|remaining)\b"
            r"|\b(cost|price|premium|pay|paid|owe|fee|deposit|charge|spend|spent)\b"
            # "what's the total on the invoice?", not "the total rainfall" nor "in total"
            r"|\bthe total\b(?=\s*(?:on|of|for|due|at|was|is|\?|$))",
            re.I,
        ),
    ),
    ("size", re.compile(r"\bwhat size\b|\bdimensions?\b", re.I)),
    ("place", re.compile(r"\bwhere\b", re.I)),
    ("person", re.compile(r"^\W*who(m|se)?\b", re.I)),
    ("code", re.compile(r"\b(password|passcode|code|model|serial|account|policy|pin|number|ids?|vin)\b", re.I)),
    # "When" further on asks for a day ("by when is the form due?") unless another question word
    # opens the question: "who did we call when the basement flooded?" is an open question.
    (
        "day",
        re.compile(
            r"^(?!\W*(who|whom|whose|what|which|where|why|how)\b).*\bwhen\b"
            r"|\bwhat (day|date)\b|\bwhich day\b|\bdue\b|\bdeadline\b",
            re.I,
        ),
    ),
    ("number", re.compile(r"\bhow (much|many|long)\b", re.I)),
)


# Kinds of fact an answering sentence may leave unstated: a source's own date may be the day
# asked about ("when"), and a place or a person is written in too many ways to tell its absence
# ("where", "who": "the roofer we used" may be named only in the title).
MAY_GO_UNSTATED = frozenset({"day", "place", "person"})
# Kinds of fact that choose a source's answer line but do not rank the source: names are in
# most documents, and lifting those that hold one lets a question nothing answers ("who
# painted the house?") find a source.
LINE_ONLY = frozenset({"person"})


def asked_for(question: str) -> str | None:
    """The kind of fact a question asks for, or None for an open question."""
    return next((kind for kind, cue in _ASKS if cue.search(question)), None)


def names_kind(words: str, kind: str | None) -> bool:
    """Whether the words name the kind of fact asked for ("phone number" for a number): a
    note's "Babysitter: Freya, 555-0142" answers without them, so their absence from every
    document says nothing of whether the store knows the answer."""
    return any(asked == kind and cue.search(words) for asked, cue in _ASKS)


# The day a change leaves ("moved from Nov 19", "rescheduled from March 3 to March 10",
# "instead of Friday"): no day the sentence says the thing is on.
_FORMER_DAY = re.compile(
    r"\b(?:(?:moved|rescheduled|postponed|changed|shifted|pushed)\s+(?:back\s+)?from|instead\s+of|no\s+longer\s+on)\s+"
    r"[^,;.()]*?(?=\s+(?:to|until|till|now)\b|\s+[-–→]|\s+we\b|[,;.()]|$)",
    re.I,
)


def stated_days(sentence: str, anchor: date | None, limit: int = 50, day_first: bool | None = None) -> list[date]:
    """The days a sentence says something is on: those it names, less those a change leaves.
    `anchor` is the day its document was written, `day_first` its order of numeric dates (None:
    as the sentence itself shows)."""
    return find_event_dates(_FORMER_DAY.sub(" ", sentence), anchor, limit, day_first)


def holds(sentence: str, kind: str, anchor: date | None, asked: str = "", day_first: bool | None = None) -> bool:
    """Whether a sentence states a fact of that kind; a place or a person only if the question
    (`asked`) does not name it already: "where did we stay in Lisbon?" is not answered by
    "Spring break in Lisbon"."""
    if kind == "day":
        return bool(stated_days(sentence, anchor, limit=1, day_first=day_first))
    if kind == "person":
        return any(not _named_in(name, asked) for name in _names(sentence))
    if kind == "place":
        return any(not _named_in(m[0], asked) for m in _PLACE.finditer(sentence))
    if kind == "code" and _labelled_as_asked(sentence, asked):
        return True
    pattern = {"time": _TIME, "amount": _AMOUNT, "size": _SIZE, "code": _CODE, "number": _NUMBER, "measure": _MEASURE}[kind]
    return pattern.search(sentence) is not None


_PLACE_WORDS = {"where", "location", "venue", "place", "address", "at", "in", "from", "near", "inside", "outside", "behind", "the"}
_WORD = re.compile(r"[^\W\d_][\w'&-]*")


# A short run of digits after a label's colon ("Gate keypad: 3307"), the label's last word
# caught.
_LABELLED_RUN = re.compile(rf"([^\W\d_][\w'-]*)[ \t]*[:#=][ \t]*{_SHORT_RUN}")


def _labelled_as_asked(sentence: str, asked: str) -> bool:
    """Whether a short number is labelled in the question's own words ("Gate keypad: 3307"
    for "what is the gate keypad code?"): the label says what it is, as "code" would, where
    a bare "3307" could be anything. By its last word, which names the thing numbered: "Garage
    built: 1998" is a year of the garage, "Alarm company phone: 555 0142" another number."""
    question = {w.lower() for w in _WORD.findall(asked)}
    return any(m[1].lower() in question for m in _LABELLED_RUN.finditer(sentence))


def _named_in(found: str, asked: str) -> bool:
    """Whether every capitalised word of a place or a name found is a word of the question (a
    labelled place, "Where: ...", names none of its own here, and always counts)."""
    words = {w.lower() for w in _WORD.findall(found) if w[0].isupper()} - _PLACE_WORDS
    return bool(words) and words <= {w.lower() for w in _WORD.findall(asked)}


def states_value(line: str) -> bool:
    """Whether a line states a time, an amount, a size or a code: "PIN: 4471" answers in two
    words, where other lines that short ("Hi Pat,", "Thanks!") say nothing."""
    return any(holds(line, kind, None) for kind in ("time", "amount", "size", "code"))


def _names(sentence: str) -> list[str]:
    """The names a sentence holds: after a title or "is"; or two capitalised words, one name,
    inside a sentence after a word in lower case ("we used Rask Plumbing", "the nanny is José
    Núñez"), or opening it before a comma or a verb ("Luis Ortega will come"). Not words of a
    greeting or a heading ("Dear Customer Service,", "Wednesday Morning Update")."""
    found = [m[0] for m in _NAMED.finditer(sentence) if not (m["name"] and _NO_NAME.fullmatch(m["name"]))]
    words = sentence.split()
    for i in range(len(words) - 1):
        first, second = words[i], words[i + 1].rstrip(_WORD_END)
        if first.rstrip(_WORD_END) != first or not (_is_name(first) and _is_name(second)):
            continue
        if i == 0:
            after = words[i + 2] if i + 2 < len(words) else ""
            if words[i + 1][-1] in ",(-" or after.lower() in _NAME_VERBS:
                found.append(f"{first} {second}")
        elif words[i - 1][0].islower() or words[i - 1].endswith(","):
            found.append(f"{first} {second}")
    return found


def _is_name(word: str) -> bool:
    return re.fullmatch(_NAME, word) is not None and not _NO_NAME.fullmatch(word)


def facts(sentence: str, anchor: date | None = None, day_first: bool | None = None) -> dict[str, str]:
    """The checkable facts a sentence states, normalised so "2:45 PM", "2:45pm" and "14:45" are
    all "2:45" (a clock time without AM/PM is common, and households rarely confuse them)."""
    found = {}
    if m := _TIME.search(sentence):
        found["time"] = _time(m)
    if m := _AMOUNT.search(sentence):
        figure = m.group("figure") or m.group("figure_before") or m.group("figure_named") or m.group("labelled")
        named = (m.group("currency") or m.group("labelled_sign") or "").lower()
        sign = m.group("sign") or m.group("sign_after") or _CURRENCY_SIGNS.get(named[:3], "")
        minus = "-" if m.group("minus") or m.group("sign_minus") else ""  # a debit: "-€48.20", not "€−48.20"
        # Written after the figure ("1.250,00 €", "2.400 EUR"), the euro is written as much of
        # Europe writes amounts: points group thousands; with its sign, a comma marks the
        # decimals ("0,3045 €" a kWh), but not in "1,250 euros" of a text in English.
        after = "€" in (m.group("sign_after"), m.group("labelled_sign"))
        found["amount"] = minus + sign + _money(figure, points_group=after or named.startswith("eur"), comma_decimal=after)
    if m := _SIZE.search(sentence):
        found["size"] = re.sub(r"\s", "", m.group(0).lower()).replace("×", "x")
    days = stated_days(sentence, anchor, day_first=day_first)
    if days:
        found["day"] = ", ".join(d.strftime("%a %b %-d") for d in days)
    positive, negative = _POSITIVE.search(sentence), _NEGATIVE.search(sentence)
    if positive and not negative:
        found["yes/no"] = "on as planned"
    elif negative and not positive:
        found["yes/no"] = "off or changed"
    return found


def _money(figure: str, points_group: bool = False, comma_decimal: bool = False) -> str:
    """A figure as its value, so a mail's "$1,850" and its invoice's "$1850.00" agree: a comma or
    point before the last one or two digits is the decimal mark ("84,50 €", "$12.5"), any other
    a thousands' separator, but for a lone point (a pump's "$3.459" is no $3,459, nor "€1.799"
    a litre €1799). Where `points_group`, points before three digits group thousands ("1.250
    €" is €1250); where `comma_decimal`, a comma marks the decimals ("0,3045 €"). Zeros that end
    the decimals are dropped ("$3.450" is $3.45; no cents are written as none)."""
    if points_group and re.fullmatch(r"[1-9]\d{0,2}(?:\.\d{3})+(?:,\d+)?", figure):
        whole, _, decimals = figure.replace(".", "").partition(",")
    elif comma_decimal and re.fullmatch(r"\d+,\d+", figure):
        whole, decimals = figure.split(",")
    elif lone := re.fullmatch(r"(\d+)\.(\d{3,})", figure):
        whole, decimals = lone.groups()
    else:
        whole, decimals = re.fullmatch(r"(.*?)(?:[.,](\d\d?))?", figure).groups()
        whole = re.sub(r"[.,]", "", whole)
    decimals = decimals.rstrip("0") if decimals else ""
    return whole + "." + decimals.ljust(2, "0") if decimals else whole


def _time(m: re.Match) -> str:
    if m.group(0).lower() == "noon":
        return "12:00"
    if m.group(3):
        return f"{int(m.group(1))}:{m.group(2) or '00'}"
    return f"{(int(m.group(4)) - 1) % 12 + 1}:{m.group(5)}"
