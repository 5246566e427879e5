"""When the agreement was made, when it takes effect, how long it runs.

Dates are read where drafting puts them: the preamble ("dated as of", "made and entered into on", "this 1st
day of March, 2019"), an "Effective Date" definition, the term clause ("for a period of three (3) years from
the Effective Date", "shall expire on December 31, 2020"), and, for a date the preamble leaves out, the
signature blocks. A fixed term from a known start is turned into the end date it fixes (the anniversary).
"""

from __future__ import annotations

import calendar
import re
from datetime import date

from agents.facts.lifecycle import DATE, MONTHS, NUMBER_WORDS, WITHIN_TERM, parse_date
from agents.facts.models import Span
from agents.facts.scan import word_positions

_MONTH = "|".join(sorted([*MONTHS, "sept"], key=len, reverse=True))  # "Sept. 15, 2015" is common
# "the 1st day of March, 2019" and "March 1 2019" are common in preambles and not in lifecycle.DATE
_ORD = r"(?:st|nd|rd|th|s\s?t|n\s?d|r\s?d|t\s?h)"  # PDF text splits ordinals: "17t h day of May"
_DAY_OF = rf"(?i:\d{{1,2}}\s?{_ORD}?\s+(?:day\s+)?of\s+(?:{_MONTH})\.?,?\s*(?:A\.?D\.?\s+)?\d{{4}})"
_NUMERIC = r"\d{1,2}/\d{1,2}/(?:\d{4}|\d{2})\b"
# PDF text often loosens a date's comma or drops a space: "June 1 , 2010", "June 1,2010", "January1, 1998"
_LOOSE = rf"(?i:(?<![a-z])(?:{_MONTH})\.?\s*\d{{1,2}}\s?{_ORD}?\s*,\s*\d{{4}})"
ANY_DATE = rf"(?:{_DAY_OF}|{DATE}|{_LOOSE}|{_NUMERIC})"
_ANY_DATE_RE = re.compile(ANY_DATE)

_SELF = re.compile(
    rf"\b(?:dated|made|entered\s+into|executed|concluded|signed)\b(?:(?!\bWHEREAS\b)[^.;]){{0,80}}?"
    rf"(?<![\w/])({ANY_DATE})|\beffective\s+(?:as\s+(?:of|from)|on|from)\s+(?:the\s+)?({ANY_DATE})"
    # "made effective June 1, 2015", "This Agreement, effective June 1, 2015": not "will, effective June 1, be adjusted"
    rf"|(?:\b(?:made|into|is|be|become|becomes|and)|\b(?:Agreement|Amendment|Contract)[\"\u201d)]?,?)\s+effective\s+"
    rf"(?:the\s+)?({ANY_DATE})|\bas\s+of\s+(?:the\s+)?({ANY_DATE})", re.I)
# "made this ____ day of June, 2015", "as of September [ ], 2019": the agreement leaves its date to be filled in.
_BLANK_DATE = re.compile(
    r"\b(?:dated|made|entered\s+into|executed|as\s+of|effective)\b[^.;]{0,40}?(?:_{2,}|\[\s*[\u25cf\u2022*]?\s*\])", re.I)
# A date on a line of its own above the preamble: a letter agreement's date.
_DATE_LINE = re.compile(rf"(?m)^[ \t]*(?:Dated?\s*:?[ \t]*)?({ANY_DATE})[ \t]*$")
_EFFECTIVE_AFTER = re.compile(
    r"[\s,]*(?:\(|,)?\s*(?:the\s*|such\s+date\s+being\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?(?:the\s+)?)?"
    r"[\"\u201c\u201d]\s*(?:[\w-]+\s+){0,2}Effective\s+Date", re.I)
_EFFECTIVE_DEF = re.compile(
    rf"[\"\u201c\u201d]\s*Effective\s+Date\s*[\"\u201d\u201c]\s*(?:shall\s+)?(?:means?|is|shall\s+be)\b[^.;]{{0,80}}?({ANY_DATE})",
    re.I)
_EFFECTIVE_IS = re.compile(
    rf"\beffective\s+date\s+(?:of\s+(?:this|the)\s+[\w ]{{1,40}}?\s+)?(?:will|shall)\s+be\s+(?:the\s+)?({ANY_DATE})", re.I)
_EFFECTIVE_LABEL = re.compile(rf"\bEffective\s+Date\s*:?\s+({ANY_DATE})", re.I)  # a cover or summary table's field
# '"Effective Date" means the date on which the last Party signs': the last signature's date
_EFFECTIVE_ON_SIGNING = re.compile(
    r"(?:Effective\s+Date[\"\u201d]?\s*(?:shall\s+)?(?:means?|is|shall\s+be)|\b(?:is|be|become|becomes)\s+effective\s+"
    r"(?:as\s+of|on|upon))\s+the\s+(?:later\s+of\s+the\s+)?date\s+"
    r"(?:on\s+which\s+|of\s+)?(?:the\s+|this\s+Agreement\s+(?:is|has\s+been)\s+)?(?:last|final|later|both|second)?\s*"
    r"(?:signature|signed|executed|execution|(?:party|parties)\s+(?:to\s+)?(?:signs?|executes?)|"
    r"of\s+the\s+parties\s+(?:signs|executes))", re.I)
# "shall be effective as of the date first written above": the agreement's own date is its effective date
_EFFECTIVE_AS_DATED = re.compile(
    r"(?:Effective\s+Date[\"\u201d]?\s*(?:shall\s+)?(?:means?|is|shall\s+be)|effective\s+(?:as\s+of|on|from))\s+the\s+"
    r"date\s+(?:first\s+)?(?:above\s+)?(?:written|set\s+forth|stated|mentioned)", re.I)
_EFFECTIVE_WORDS = re.compile(r"effective\s+date", re.I)
# "The term (the "Term") shall commence on November 1, 2007": the agreement runs from that date
_COMMENCES_ON = re.compile(
    rf"\b(?:this\s+Agreement|the\s+(?:initial\s+)?term(?:\s+of\s+this\s+Agreement)?)(?:\s*\([^()]{{0,40}}\))?,?\s+"
    rf"(?:shall|will)\s+(?:commence|begin|start)\s+(?:on|as\s+of)\s+(?:the\s+)?({ANY_DATE})", re.I)
_EFFECTIVE_TERM = re.compile(r"[\"\u201c\u201d]\s*Effective\s+Date\s*[\"\u201d\u201c]", re.I)
# EDGAR exhibits carry "Source: ACME INC., 8-K, 1/10/2020" on each page: the filing's date, not a signature's.
_FILING_STAMP = re.compile(r"\bSource\s*:|\b\d{1,2}-K\b|\b10-[QK]\b|\bS-1\b", re.I)
_WITNESS = re.compile(r"IN\s+WITNESS\s+WHEREOF", re.I)
_WITNESS_AS_OF = re.compile(rf"IN\s+WITNESS\s+WHEREOF[^.;]{{0,200}}?\bas\s+of\s+(?:the\s+)?({ANY_DATE})", re.I)
# "This Amendment to the Supply Agreement dated April 1, 2017": that date is the other agreement's.
_REFERS_BACK = re.compile(r"\bto\s+(?:the|that|that\s+certain|an?)\s+(?:[\w,&/-]+\s+){0,10}?(?:Agreement|Contract|Lease|"
                          r"Licen[cs]e)\b", re.I)

_N = r"(?P<n>\w+(?:[\s-]\w+)?)\s*(?:\(\s*(?P<d>\d+)\s*(?:st|nd|rd|th)?\s*\)\s*)?"
_ORDINALS = {w: i + 1 for i, w in enumerate(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split())}
_FIXED = re.compile(
    rf"\b(?P<lead>of|for|be|until|is|expires?|ends?)\s+(?:an?\s+(?:initial\s+)?(?:period|term)\s+of\s+)?{_N}"
    rf"(?:full\s+)?(?:calendar\s+|contract\s+)?(?P<unit>years?|months?)\b", re.I)
_FIXED_FROM = re.compile(r"\b(?:from|after|following|commencing\s+(?:on|with)|beginning\s+(?:on|with)|of)\s+(?:the\s+)?"
                         r"(?P<ref>Effective\s+Date|Commencement\s+Date|date\s+(?:hereof|of\s+this\s+Agreement|of\s+execution"
                         r"|first\s+(?:above\s+)?written)|execution|signing|Start\s+Date)", re.I)
_ENDS_ON = re.compile(
    rf"\b(?:expire|expires|expiring|terminate|terminates|terminating|end|ends|ending|continue|continues|continuing|"
    rf"remain|remains|through|until|to\s+and\s+including)\b[^.;]{{0,60}}?(?<![\w/])({ANY_DATE})", re.I)
_PERPETUAL = re.compile(r"\bperpetu(?:al|ity)\b|\bindefinite(?:ly)?\b|\bunless\s+and\s+until\s+terminated\b|"
                        r"\buntil\s+terminated\b", re.I)
_RENEW = re.compile(
    r"\b(?:automatic(?:ally)?\s+(?:be\s+)?(?:renew|extend)\w*|renew\w*\s+automatically|(?:successive|additional)\s+"
    r"(?:renewal\s+)?(?:\w+\s+)?(?:\(\d+\)\s+)?(?:year|month|term|period)s?)", re.I)
_RENEW_PERIOD = re.compile(rf"(?:successive|additional|further|renewal)\s+(?:periods?\s+of\s+|terms?\s+of\s+)?{_N}"
                           r"(?P<unit>years?|months?)", re.I)
_NOTICE = re.compile(rf"{_N}(?P<unit>days?|months?)['\u2019]?\s*(?:prior\s+)?(?:advance\s+)?(?:written\s+)?notice", re.I)
# Where an agreement speaks of its own duration (not a licence's, a warranty's or a confidentiality period's).
_TERM_SUBJECT = re.compile(
    r"\b(?:the\s+)?(?:initial\s+)?term\s+of\s+this\s+(?:Agreement|Contract)\b|\bInitial\s+Term\b|"
    r"\b(?:this|the)\s+(?:Agreement|Contract)\s+(?:(?:shall|will)\s+(?:\w+\s+){0,2}?)?(?:commences?|continues?|remains?|"
    r"be\s+in\s+(?:full\s+)?(?:force|effect)|expires?|terminates?|have\s+a\s+term|be\s+effective|become\s+effective|runs?|"
    # "This contract shall be for a term of one year commencing on the date first above written"
    r"be\s+for\s+an?\s+(?:initial\s+)?(?:term|period)\s+of|"
    r"ends?|(?:enter|come)s?\s+into\s+(?:force|effect))\b|\b(?:the|its)\s+Term\b(?:\s*\([^()]{0,40}\))?(?=\s+(?:of|shall|will|is))"
    r"|\bthis\s+(?:Agreement|Contract)\s+is\s+(?:valid|effective|in\s+force)\b"
    r"|[\"\u201c\u201d]?\bTerm\b[\"\u201d\u201c]?\s+(?:shall\s+)?means?\b", re.I)
_STARTS = re.compile(r"\b(?:commenc\w*|begin\w*|start\w*)\b", re.I)
_AFTERWARDS = re.compile(r"\s*(?:thereafter|after\s+(?:its|the|such)?\s*(?:termination|expiration|expiry))", re.I)
_EXPIRY_LABEL = re.compile(rf"\b(?:Expiration|Expiry|Termination|End)\s+Date\s*:\s*({ANY_DATE})", re.I)
_ANNIVERSARY = re.compile(rf"\b(?:the\s+)?{_N}(?:year\s+)?anniversary\b", re.I)


def iso(d: date | None) -> str | None:
    return d.isoformat() if d else None


# A year outside these is a misread (a page number glued to a year, "1813") or a typo, not an agreement's date.
YEARS = (1950, 2100)


def read_date(s: str) -> date | None:
    """Any of lifecycle's forms, '1st day of March, 2019' and US numeric '3/1/2019'; None unless it is a real
    calendar date in a plausible year (YEARS)."""
    d = _read_date(s)
    return d if d is not None and YEARS[0] <= d.year <= YEARS[1] else None


def _read_date(s: str) -> date | None:
    s = re.sub(rf"(?<=\d)\s?{_ORD}\b", "", s.strip())
    s = re.sub(r"(?i)\bsept\b", "Sep", s)
    s = re.sub(r"(?<=[A-Za-z])(?=\d)|(?<=\d)(?=[A-Za-z]{3})", " ", s)  # "January1, 1998", "September1998"
    if m := re.match(rf"(\d{{1,2}})\s+(?:day\s+)?of\s+({_MONTH})\.?,?\s+(?:A\.?D\.?\s+)?(\d{{4}})", s, re.I):
        return parse_date(f"{m.group(1)} {m.group(2)} {m.group(3)}")
    if m := re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})", s):
        y = int(m.group(3))
        y = y + (2000 if y < 50 else 1900) if y < 100 else y
        try:
            return date(y, int(m.group(1)), int(m.group(2)))
        except ValueError:
            return None
    return parse_date(s)


def _count(word: str, digits: str | None) -> int | None:
    if digits:
        return int(digits)
    w = re.sub(r"(?<=\d)(?:st|nd|rd|th)$", "", word.strip().lower())
    if w.isdigit():
        return int(w)
    last = w.split()[-1] if w.split() else ""
    return NUMBER_WORDS.get(last) or _ORDINALS.get(last)


def add_years_months(start: date, n: int, unit: str) -> date:
    """The anniversary n years/months after `start` (CUAD dates a term's end on the anniversary)."""
    months = n * (12 if unit.lower().rstrip("s").endswith("year") else 1)
    y, m = divmod(start.month - 1 + months, 12)
    year, month = start.year + y, m + 1
    return date(year, month, min(start.day, calendar.monthrange(year, month)[1]))


def preamble_dates(text: str, window: tuple[int, int]) -> tuple[tuple[date | None, Span], tuple[date | None, Span]]:
    """((agreement date, span), (effective date, span)) from the preamble window."""
    s, e = window
    agreement: tuple[date | None, Span] = (None, (0, 0))
    effective: tuple[date | None, Span] = (None, (0, 0))
    for m in _SELF.finditer(text, s, e):
        g = next(i for i in (1, 2, 3, 4) if m.group(i))
        d = read_date(m.group(g))
        if d is None:
            continue
        if m.group().lower().startswith("dated") and _REFERS_BACK.search(text, max(s, m.start() - 300), m.start()):
            continue
        span = (m.start(g), m.end(g))
        # "made and entered into effective as of": the date it takes effect, not necessarily the one it was made on
        # ("entered into and effective as of" says both)
        lead = text[m.start(): m.start(g)].lower()
        by_effect = g in (2, 3) or ("effective" in lead and not re.search(r"\band\s+(?:made\s+)?effective", lead))
        if _EFFECTIVE_AFTER.match(text, m.end(g), min(len(text), m.end(g) + 80)):
            effective = effective if effective[0] else (d, span)
            if agreement[0] is None and not by_effect:
                agreement = (d, span)
        elif agreement[0] is None and not by_effect:
            agreement = (d, span)
        elif effective[0] is None and by_effect:
            effective = (d, span)
        if agreement[0] and effective[0]:
            break
    if effective[0] is None:
        for m in _ANY_DATE_RE.finditer(text, s, e):
            if _EFFECTIVE_AFTER.match(text, m.end(), min(len(text), m.end() + 80)) and (d := read_date(m.group())):
                effective = (d, (m.start(), m.end()))
                break
    return agreement, effective


def blank_date(text: str, window: tuple[int, int]) -> bool:
    """Whether the preamble leaves its date blank ("made this ____ day of June, 2015")."""
    return bool(_BLANK_DATE.search(text, *window))


def letter_date(text: str, end: int) -> tuple[date | None, Span]:
    """A date standing on a line of its own before `end` (the preamble): how a letter agreement is dated."""
    for m in _DATE_LINE.finditer(text, 0, min(len(text), end)):
        label = text[max(0, m.start() - 60): m.start()]
        if _stamped(text, m.start(1)) or re.search(r"\b(?:date|effective|expir\w*|term)\s*:?\s*$", label, re.I):
            continue  # a filing stamp, or a cover page's "EFFECTIVE DATE" label above it
        if d := read_date(m.group(1)):
            return d, (m.start(1), m.end(1))
    return None, (0, 0)


_FIRST_WRITTEN = re.compile(r"\bdate\s+first\s+(?:above\s+)?written\b|\b(?:year|date)\s+above\s+written\b", re.I)
_DATE_LABEL = re.compile(rf"(?<!Effective )(?<!Expiration )(?<!Expiry )(?<!Termination )(?<!End )(?<!Start )\bDate\s*:\s*({ANY_DATE})", re.I)


def header_date(text: str, end: int) -> tuple[date | None, Span]:
    """A form's "Date: June 1, 1998" in the heading above the preamble, where the body dates things from "the date
    first above written": the one date written above, which the form itself calls its own."""
    if not _FIRST_WRITTEN.search(text):
        return None, (0, 0)
    for m in _DATE_LABEL.finditer(text, 0, min(len(text), end)):
        if not _stamped(text, m.start(1)) and (d := read_date(m.group(1))):
            return d, (m.start(1), m.end(1))
    return None, (0, 0)


def defined_effective_date(text: str) -> tuple[date | None, Span]:
    """An effective date defined or stated anywhere: '"Effective Date" means January 1, 2020', 'shall commence on
    January 1, 1998 (the "Effective Date")', 'The effective date of the Franchise will be January 1, 2016'."""
    hits = []
    # each form names "effective date": search only around those words
    for w in _EFFECTIVE_WORDS.finditer(text):
        lo, hi = max(0, w.start() - 20), min(len(text), w.end() + 140)
        for rx in (_EFFECTIVE_DEF, _EFFECTIVE_IS, _EFFECTIVE_LABEL):
            if m := rx.search(text, lo, hi):
                hits.append((m.start(1), m.end(1)))
        if hits:
            break
    for m in _EFFECTIVE_TERM.finditer(text):
        dates = [d for d in _ANY_DATE_RE.finditer(text, max(0, m.start() - 90), m.start()) if not _stamped(text, d.start())]
        if dates and _EFFECTIVE_AFTER.match(text, dates[-1].end(), m.end()):
            hits.append((dates[-1].start(), dates[-1].end()))
            break
    for s, e in sorted(hits):
        if d := read_date(text[s:e]):
            return d, (s, e)
    if m := _EFFECTIVE_ON_SIGNING.search(text):
        return signature_date(text)
    if (m := _COMMENCES_ON.search(text)) and (d := read_date(m.group(1))):
        return d, m.span(1)
    return None, (0, 0)


def effective_as_dated(text: str) -> Span | None:
    """The span of a statement that the agreement takes effect on the date it bears, if there is one."""
    for pos in word_positions(text.lower(), ("date first",)):
        if m := _EFFECTIVE_AS_DATED.search(text, max(0, pos - 60), pos + 40):
            return m.start(), m.end()
    return None


def _stamped(text: str, pos: int) -> bool:
    line = text[max(text.rfind("\n", 0, pos) + 1, pos - 80): pos]
    return bool(_FILING_STAMP.search(line))


def witness_date(text: str, tail_chars: int = 8000) -> tuple[date | None, Span]:
    """'IN WITNESS WHEREOF, the undersigned execute this agreement as of May 11, 2020'."""
    for m in _WITNESS_AS_OF.finditer(text, max(0, len(text) - tail_chars)):
        if d := read_date(m.group(1)):
            return d, (m.start(1), m.end(1))
    return None, (0, 0)


def signature_date(text: str, tail_chars: int = 5000) -> tuple[date | None, Span]:
    """The latest date in the signature blocks (after the last 'IN WITNESS WHEREOF' of the tail, else the tail's
    last 1,500 characters): when the last party signed."""
    start = max(0, len(text) - tail_chars)
    w = [m.end() for m in _WITNESS.finditer(text, start)]
    start = w[-1] if w else max(0, len(text) - 1500)
    best: tuple[date | None, Span] = (None, (0, 0))
    for m in _ANY_DATE_RE.finditer(text, start, min(len(text), start + 3000)):
        if _stamped(text, m.start()):
            continue
        d = read_date(m.group())
        if d and (best[0] is None or d > best[0]):
            best = (d, (m.start(), m.end()))
    return best


def _words(n: int, unit: str) -> str:
    unit = unit.lower().replace("calendar ", "").rstrip("s")
    return f"{n} {unit}{'s' if n != 1 else ''}"


def _sentence_at(text: str, pos: int, limit: int = 600) -> tuple[int, int]:
    s = max(text.rfind(". ", max(0, pos - limit), pos) + 2, max(0, pos - limit))
    e = text.find(". ", pos + 40)  # past a heading such as "2. Term. "
    return s, (min(e + 1, pos + limit) if e >= 0 else min(len(text), pos + limit))


def _term_subjects(text: str, low: str):
    """_TERM_SUBJECT's matches in order, searched only around 'term' and 'this agreement/contract'."""
    last = -1
    for pos in word_positions(low, ("term", "this agreement", "this contract")):
        m = _TERM_SUBJECT.search(text, max(0, pos - 12, last), min(len(text), pos + 120))
        if m and m.start() > last:
            last = m.end()
            yield m


def read_term(text: str, start: date | None) -> tuple[str, Span, date | None, Span]:
    """(term in plain words, its span, expiration date, its span) from the first sentence that speaks of the
    agreement's own duration ("The term of this Agreement ...", "This Agreement shall continue ...", "the
    Initial Term"): a stated end date first, else a fixed period from a known start, else 'perpetual'."""
    low = text.lower()
    event: tuple[str, Span] | None = None  # "until acceptance of all deliverables": a term that ends on an event
    for pos in word_positions(low, ("date:", "date :")):
        if (lm := _EXPIRY_LABEL.search(text, max(0, pos - 14), pos + 40)) and (d := read_date(lm.group(1))):
            return f"until {d.isoformat()}", (lm.start(), lm.end()), d, (lm.start(1), lm.end(1))
    for tm in _term_subjects(text, low):
        if WITHIN_TERM.search(text, max(0, tm.start() - 40), tm.start()):
            continue
        s, e = _sentence_at(text, tm.start())
        sent = text[s:e]
        words, expiry, espan = "", None, (0, 0)
        fm = next((f for rx in (_FIXED, _ANNIVERSARY) for f in rx.finditer(sent)
                   # "so long as this Agreement remains in effect and for a period of one year thereafter" is a tail
                   # after the term; "ends on the date that is five years thereafter" and "shall commence on the
                   # Effective Date and extend for three years thereafter" are the term itself
                   if not _AFTERWARDS.match(sent, f.end()) or f.groupdict().get("lead", "").lower() == "is"
                   or _STARTS.search(sent, 0, f.start())), None)
        if (em := _ENDS_ON.search(sent)) and (d := read_date(em.group(1))) and not _stamped(sent, em.start(1)):
            expiry, espan = d, (s + em.start(1), s + em.end(1))
            words = f"until {d.isoformat()}"
        elif fm and (n := _count(fm.group("n"), fm.group("d"))):
            ref = _FIXED_FROM.search(sent, fm.start())
            unit = fm.groupdict().get("unit") or "years"
            words = f"{_words(n, unit)}" + (f" from the {ref.group('ref')}" if ref else "")
            if start is not None and n < 100:
                expiry, espan = add_years_months(start, n, unit), (s + fm.start(), s + fm.end())
        elif _PERPETUAL.search(sent):
            words = "perpetual, until terminated"
        else:
            if event is None and (um := _UNTIL_EVENT.search(sent)):
                said = f"until {_event_words(um.group(1))}" if um.group(1) else um.group(2)
                event = (said + _renewal(text[s: min(len(text), e + 600)]), (s, e))
            continue
        words += _renewal(text[s: min(len(text), e + 600)])
        return words, (s, e), expiry, espan
    # only when no sentence gives a date, a period or 'perpetual': the term is then stated, as an event, not missing
    if event:
        return event[0], event[1], None, (0, 0)
    if pm := _PERIOD_DEFINED.search(text):
        # '"Service Period" means April. 1st 2019 through to March 30, 2020', "INITIAL DISTRIBUTION PERIOD: April 15,
        # 2000 through October 15, 2000": the period the agreement is for, defined with its last day
        if d := read_date(pm.group("end")):
            return f"until {d.isoformat()}", pm.span(), d, pm.span("end")
    return "", (0, 0), None, (0, 0)


_PERIOD_DEFINED = re.compile(
    rf"\b(?:(?:Initial\s+)?(?:Service|Contract|Agreement|Distribution|Initial\s+Distribution|Engagement|License|Licence)\s+Period|Term)"
    rf"[\"\u201d]?\s*(?:(?:shall\s+)?means?|:)\s+(?:the\s+period\s+(?:from|commencing\s+on)\s+)?(?:(?!\bthrough\b)[^;\n]){{3,60}}?"
    rf"\s+(?:through|until)\s+(?:to\s+)?(?:and\s+including\s+)?(?P<end>{ANY_DATE})", re.I)


# "shall continue in full force and effect until the expiration of the last Addendum"; not "until terminated"
_UNTIL_EVENT = re.compile(r"\b(?:continue|continues|remain|remains|be\s+in\s+effect|be\s+effective|last|run)\b[^.;]{0,60}?"
                          r"\buntil\s+(?!terminated\b)((?:[^.;]|\.(?=\d)){6,400})"
                          # "The Term of this Agreement shall be for the Contract Period"
                          r"|\b(?:shall|will)\s+be\s+(?=for\s+the\s+(?-i:[A-Z]))(for\s+the\s+(?-i:[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3}))", re.I)


def _event_words(tail: str) -> str:
    """The event's own words, to the first break, at most 20 words: what the memo shows for 'Term / expiry'."""
    words = " ".join(re.split(r",\s+(?:unless|provided|subject|except|whichever|at which|in which|and thereafter)\b|\s+unless\b|"
                                 r"\s+provided\b", tail, maxsplit=1)[0].split())
    cut = words.split()
    return " ".join(cut[:20]) + (" ..." if len(cut) > 20 else "")


def _renewal(passage: str) -> str:
    if not _RENEW.search(passage):
        return ""
    out = ", renewing"
    if (rm := _RENEW_PERIOD.search(passage)) and (n := _count(rm.group("n"), rm.group("d"))):
        out += f" for {n}-{rm.group('unit').lower().rstrip('s')} periods"
    if (nm := _NOTICE.search(passage)) and (n := _count(nm.group("n"), nm.group("d"))):
        out += f" unless {_words(n, nm.group('unit'))}' notice"
    return out
