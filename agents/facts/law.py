"""The governing law and the agreement's title.

Governing law is one regex scan for the drafting forms "governed by (and construed in accordance with) the
laws of the State of X", "the laws of X shall govern" and "subject to X law"; the title is the first heading
line before the preamble that names a kind of instrument, else the "This <Title> Agreement" of the preamble.
"""

from __future__ import annotations

import re

from agents.facts.models import Span

_PLACE = r"(?P<place>[A-Z][\w.'-]*(?:\s+(?:and\s+(?=Wales|Tobago|Herzegovina)|of\s+(?=[A-Z]))?[A-Z][\w.'-]*){0,3})"
_PREFIX = (r"(?:the\s+)?(?:internal\s+|substantive\s+|domestic\s+)?laws?\s*(?:\([^)]{0,40}\)\s*)?(?:of|in)\s+(?:and\s+"
           r"(?:enforced|interpreted)\s+in\s+)?(?:the\s+)?(?:State|Commonwealth|Province|Republic|Kingdom|Canton|"
           r"Emirate|Federal\s+Republic|People'?s\s+Republic)?\s*(?:of\s+)?")
_GOVERNED = re.compile(
    rf"\b(?:govern(?:ed|s)?|constru(?:ed|e)|interpreted|subject\s+to|in\s+accordance\s+with)\b[^.;]{{0,160}}?"
    rf"{_PREFIX}{_PLACE}", re.I)
_LAWS_GOVERN = re.compile(rf"{_PREFIX}{_PLACE}[^.;]{{0,40}}\bshall\s+govern", re.I)
_ADJ_LAW = re.compile(r"\bgoverned\s+by\s+(?P<place>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+law\b")
# Words a capitalised run can take after the jurisdiction that are not part of it.
_TRAIL = re.compile(r"(?:\s+(?:State|Law|Laws|USA|U\.S\.A\.?|United|Without|Excluding|Applicable|As|In|And|Other|"
                    r"Including|Except|Regardless|Irrespective|Notwithstanding|Government|Federal|The))+$", re.I)
_NOT_PLACE = re.compile(r"^(?:United\s+States(?:\s+of\s+America)?|USA|U\.S\.?|America|Such|Any|Each|This|That|These|"
                        r"Its|Their|Which|Applicable|Agreement|Federal|Party|Parties|Company|Laws?)$", re.I)

_TITLE_WORDS = re.compile(r"\b(?:AGREEMENT|CONTRACT|AMENDMENT|ADDENDUM|LICEN[CS]E|LEASE|MEMORANDUM|POWER\s+OF\s+ATTORNEY|"
                          r"UNDERTAKING|DEED|TERMS\s+AND\s+CONDITIONS|JOINT\s+VENTURE|ARRANGEMENT)\b", re.I)
_NOT_TITLE = re.compile(r"^(?:exhibit|source|confidential|certain|\[|\*|page|table\s+of\s+contents|execution|redacted|"
                        r"portions|this\s+exhibit|omitted)", re.I)
_THIS_TITLE = re.compile(r"\bThis\s+((?:[A-Z][\w&/,'-]*\s+){0,8}?(?:Agreement|Contract|Amendment|Addendum|License|Licence|"
                         r"Lease))\b")


def _tidy(place: str) -> str:
    place = _TRAIL.sub("", place.strip(" .,"))
    return place.strip(" .,")


def governing_law(text: str) -> tuple[str, Span]:
    """The jurisdiction whose law governs, and the span of its name; ('', (0, 0)) when none is stated.
    The first statement near a "govern" word wins: boilerplate names the agreement's own law first."""
    hits = []
    for rx in (_GOVERNED, _LAWS_GOVERN, _ADJ_LAW):
        for m in rx.finditer(text):
            place = _tidy(m.group("place"))
            if place and not _NOT_PLACE.match(place) and "govern" in text[max(0, m.start() - 200): m.end() + 60].lower():
                hits.append((m.start(), place, (m.start("place"), m.start("place") + len(place))))
                break
    if not hits:
        return "", (0, 0)
    _, place, span = min(hits)
    return place, span


def title(text: str, preamble_start: int | None) -> tuple[str, Span]:
    """The first short heading line before the preamble naming a kind of instrument."""
    limit = preamble_start if preamble_start is not None else 3000
    pos = 0
    for line in text[: max(limit, 0)].splitlines(keepends=True):
        s = line.strip()
        if 3 < len(s) <= 120 and _TITLE_WORDS.search(s) and not _NOT_TITLE.match(s) and not s.endswith(","):
            # a heading line: mostly capitalised words, no sentence inside it
            words = s.split()
            caps = sum(1 for w in words if w[:1].isupper() or not w[:1].isalpha())
            if caps >= 0.7 * len(words) and not re.search(r"[a-z]\.\s", s):
                start = pos + line.index(s)
                return s, (start, start + len(s))
        pos += len(line)
    if m := _THIS_TITLE.search(text, 0, min(len(text), (preamble_start or 0) + 3000)):
        return m.group(1), (m.start(1), m.end(1))
    return "", (0, 0)
