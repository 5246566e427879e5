"""The governing law and the agreement's title.

Governing law is one regex scan for the drafting forms "governed by (and construed in accordance with) the
laws of the State of X", "the laws of X shall govern" and "subject to X law"; the title is the first heading
line before the preamble that names a kind of instrument, else the "This <Title> Agreement" of the preamble.
"""

from __future__ import annotations

import re

from agents.facts.models import Span
from agents.facts.places import GENERIC, NATIONAL, place_at
from agents.facts.scan import word_positions

# Keywords are case-blind (ALL CAPS clauses are common), the place itself must be capitalised.
_PLACE = (r"(?P<place>(?-i:[A-Z][A-Za-z.'\u2019-]*(?:[ \t]+(?:and[ \t]+(?=Wales|WALES|Tobago)|AND[ \t]+(?=WALES)|of[ \t]+"
          r"(?=[A-Z])|OF[ \t]+(?=[A-Z]))?[A-Z][A-Za-z.'\u2019-]*){0,3}))")
# "the laws of": where the place's name starts. PDF text may glue the name on ("laws ofCalifornia").
_LAWS_OF = re.compile(
    r"(?:\b|(?<=the)|(?<=by))laws?(?:\s*,[^,;.]{0,60},)?\s*(?:\([^)]{0,40}\)\s*)?\s*"
    r"(?:of|in)(?:\s+and\s+(?:enforced|interpreted)\s+in)?(?=(?-i:[^a-z])|the|$)\s*", re.I)
# A place not in agents.facts.places: a capitalised run after "the State of".
_RUN = re.compile(
    r"(?:the\s+)?(?:State|Commonwealth|Province|Republic|Kingdom|Canton|Emirate|Federal\s+Republic|People'?s\s+Republic)?"
    rf"\s*(?:of\s+)?{_PLACE}", re.I)
_AND_STATE = re.compile(r"\s*(?:,\s*)?(?:and|&)\s*(?:the\s+)?(?:laws?\s+)?(?:of\s*)?", re.I)
_ADJ_LAW = re.compile(r"\bgoverned\s+by\s+(?:the\s+)?(?P<place>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+law\b")
_GOVERN_WORD = re.compile(r"govern|constru|interpret", re.I)
# "a corporation organized under the laws of Delaware": where a party is incorporated, not which law governs.
_STATUS = re.compile(r"(?:organi[sz]ed|existing|incorporated|formed|standing|registered|chartered|established|"
                     r"constituted)\s+(?:and\s+\w+\s+)?(?:\w+\s+)?(?:under|pursuant\s+to)\s+(?:the\s+)?$", re.I)
# Words a capitalised run can take after the jurisdiction that are not part of it.
_TRAIL = re.compile(r"(?:\s+(?:State|Law|Laws|USA|U\.S\.A\.?|United|Without|Excluding|Applicable|As|In|And|Other|"
                    r"Including|Except|Regardless|Irrespective|Notwithstanding|Government|Federal|The|Shall|Will|"
                    r"Govern|Governs|Applies|Apply|Without|Its|To|Which|That))+$", re.I)
_NOT_PLACE = re.compile(r"^(?:United\s+States(?:\s+of\s+America)?|USA|U\.S\.?|America|Such|Any|Each|This|That|These|"
                        r"Its|Their|Which|Applicable|Agreement|Federal|Party|Parties|Company|Laws?|Another|Other|"
                        r"Said|Another|The|Either|All|Your|Our|A|An)$", re.I)


_TITLE_WORDS = re.compile(r"\b(?:AGREEMENT|CONTRACT|AMENDMENT|ADDENDUM|LICEN[CS]E|LEASE|MEMORANDUM|POWER\s+OF\s+ATTORNEY|"
                          r"UNDERTAKING|DEED|TERMS\s+AND\s+CONDITIONS|JOINT\s+VENTURE|ARRANGEMENT)\b", re.I)
_NOT_TITLE = re.compile(r"^(?:exhibit|source|confidential|certain|\[|\*|page|table\s+of\s+contents|execution|redacted|"
                        r"portions|this\s+exhibit|omitted)", re.I)
# a filing's redaction legend ("THIS AGREEMENT. THE REDACTED PROVISIONS ARE IDENTIFIED BY THREE ASTERISKS AND") and a
# table of contents' line ("7   GENERAL TERMS AND CONDITIONS FOR MAINTENANCE AND SUPPORT   12") name no instrument
_LEGEND_LINE = re.compile(r"\b(?:redacted|omitted|confidential\s+treatment|asterisks?)\b", re.I)
_SENTENCE_CASE_TITLE = re.compile(r"[A-Z][\w&/' -]{2,60}?\s(?i:agreement|contract|licen[cs]e|lease|amendment)")
_CONTENTS_LINE = re.compile(r"^\d+(?:\.\d+)*\s+.*\s\d{1,3}$")
_CAPS_PREAMBLE = re.compile(r"((?:[A-Z][A-Z&/'-]*\s+){1,8}(?:AGREEMENT|CONTRACT|AMENDMENT|ADDENDUM|LICEN[CS]E|LEASE)),?\s+"
                            r"(?:dated|made|entered|by\s+and|between|among|is\s+made)\b")
_THIS_TITLE = re.compile(r"\bThis\s+((?:[A-Z][\w&/,'-]*\s+){0,8}?(?:Agreement|Contract|Amendment|Addendum|License|Licence|"
                         r"Lease))\b|\bTHIS\s+((?:[A-Z][A-Z&/,'-]*\s+){0,8}?(?:AGREEMENT|CONTRACT|AMENDMENT|ADDENDUM|LICEN[CS]E|LEASE))\b")
# the preamble's own first line, "THIS PRODUCT SALE AND MARKETING AGREEMENT (this "Agreement") is made this 12th day of
# ...": the instrument's name is the words before its definition, not the line
_PREAMBLE_LINE = re.compile(r"^(?:THIS|This)\s+.{0,120}?\s*(?:\(\s*(?:this|the|hereinafter)\b|,\s+dated|,?\s+(?:is|are)\s+"
                            r"(?:made|entered)|,?\s+made\s+(?:and|as|this|on|effective)|,?\s+entered\s+into)")


def _tidy(place: str) -> str:
    """A capitalised run cut to the place: no trailing clause words, no section number glued on ("Ruritania.9.5"),
    camel-case glue split ("NewRuritania"); '' when only a word like "State" is left."""
    place = re.split(r"\.(?=\s*\d)", place)[0]
    place = re.sub(r"(?<=[a-z])(?=[A-Z][a-z])", " ", place)
    place = _TRAIL.sub("", place.strip(" .,")).strip(" .,")
    place = place.title() if place.isupper() and len(place) > 3 else place
    return "" if GENERIC.match(place) else place


def _candidates(text: str):
    """(match start, place, span) of each "laws of <place>" / "governed by <place> law", searched only around
    govern/construe words (a plain scan of a 100-page contract for "laws of" costs several times more). Windows
    are merged so no match is cut at an edge."""
    windows: list[list[int]] = []
    for pos in word_positions(text.lower(), ("govern", "constru", "interpret")):
        lo, hi = max(0, pos - 120), min(len(text), pos + 260)
        if windows and lo <= windows[-1][1]:
            windows[-1][1] = hi
        else:
            windows.append([lo, hi])
    seen: set[int] = set()
    for lo, hi in windows:
        for rx in (_LAWS_OF, _ADJ_LAW):
            for m in rx.finditer(text, lo, min(len(text), hi + 100)):
                if m.start() >= hi or m.start() in seen:
                    continue
                seen.add(m.start())
                at = m.end() if rx is _LAWS_OF else m.start("place")
                if known := place_at(text, at):
                    yield m.start(), known[0], (known[1], known[2])
                    # "the laws of the United States and the State of New York": the state is named too
                    if known[0] in NATIONAL and (more := _AND_STATE.match(text, known[2])) and \
                            (state := place_at(text, more.end())):
                        yield m.start(), state[0], (state[1], state[2])
                elif run := (_RUN.match(text, at) if rx is _LAWS_OF else m):
                    place = _tidy(run.group("place"))
                    if place:
                        yield m.start(), place, (run.start("place"), run.start("place") + len(place))


def governing_law(text: str) -> tuple[str, Span]:
    """The jurisdiction whose law governs, and the span of its name; ('', (0, 0)) when none is stated.
    Every "laws of <place>" near a govern/construe word is a candidate, except where a party is organised under
    them; the first near "govern" wins, else the first near "construe"/"interpret"; a country that has states or
    provinces ("United States") only when none of them is named."""
    best: dict[int, tuple[int, str, Span]] = {}
    for start, place, span in _candidates(text):
        if _STATUS.search(text, max(0, start - 70), start):
            continue
        window = text[max(0, start - 250): span[1] + 120]
        words = {w.lower()[:6] for w in _GOVERN_WORD.findall(window)}
        if not words:
            continue
        national = place in NATIONAL or bool(re.match(r"United\s+States|USA\b|U\.S\.", place, re.I))
        if _NOT_PLACE.match(place) and not national:
            continue
        rank = (0 if "govern" in words else 1) + (2 if national else 0)
        if rank not in best or start < best[rank][0]:
            best[rank] = (start, place, span)
    if not best:
        return "", (0, 0)
    _, place, span = best[min(best)]
    return place, span


_TITLE_DATE = re.compile(r",?\s+(?:dated|made|effective)\s+(?:as\s+of\s+)?(?:[A-Za-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}"
                         r"|\d{1,2}(?:st|nd|rd|th)?\s+(?:day\s+of\s+)?[A-Za-z]+,?\s+\d{4}|\d{1,2}/\d{1,2}/\d{2,4})\s*$", re.I)


_TITLE_TERM = re.compile(r"\s*\((?:the|this)\s+[\"\u201c\u201d]?[A-Z][\w ]{0,30}?[\"\u201c\u201d]?\)\s*$")


# a filing's redaction mark set beside the heading: "Sales, ... and Supply Agreement {***}"
_REDACTION = re.compile(r"\s*[\[{(]\s*\*+\s*[\]})]\s*$")


def title(text: str, preamble_start: int | None) -> tuple[str, Span]:
    """The first short heading line before the preamble naming a kind of instrument (without a redaction mark)."""
    name, (start, end) = _title(text, preamble_start)
    bare = _REDACTION.sub("", name)
    return (bare, (start, start + len(bare))) if bare else (name, (start, end))


def _title(text: str, preamble_start: int | None) -> tuple[str, Span]:
    limit = preamble_start if preamble_start is not None else 3000
    pos = 0
    prev, prev_start = "", 0
    for line in text[: max(limit, 0)].splitlines(keepends=True):
        s = line.strip()
        if _PREAMBLE_LINE.match(s):
            break  # the preamble itself: its "THIS ... AGREEMENT" is read below
        if head := _CAPS_PREAMBLE.match(s):
            # "STRATEGIC ALLIANCE AGREEMENT, dated as of December 20, 2019 (..., this "Agreement"), by and among": the
            # preamble opens with the instrument's name in capitals
            start = pos + line.index(s)
            return head.group(1), (start, start + len(head.group(1)))
        if 3 < len(s) <= 120 and _TITLE_WORDS.search(s) and not _NOT_TITLE.match(s) and not s.endswith(",") \
                and not _LEGEND_LINE.search(s) and not _CONTENTS_LINE.match(s):
            # a heading line: mostly capitalised words, no sentence inside it
            words = s.split()
            # "e-business", "iPhone": a brand's lower-case prefix is still a capitalised word of a heading
            caps = sum(1 for w in words if w[:1].isupper() or not w[:1].isalpha() or re.match(r"[a-z]{1,2}-[A-Za-z]|[a-z]+[A-Z]", w))
            if caps >= 0.7 * len(words) and not re.search(r"[a-z]\.\s", s):
                start = pos + line.index(s)
                # "AFFILIATE AGREEMENT DATED JULY 15, 2005": the date is the agreement's date, not its name
                s = _TITLE_DATE.sub("", s) or s
                # 'PROMOTION AGREEMENT (the "Agreement")': the term the heading defines is not part of the name
                s = _TITLE_TERM.sub("", s) or s
                if _TITLE_WORDS.fullmatch(s) and prev and prev.isupper() and len(prev) <= 80 and not _TITLE_WORDS.search(prev) \
                        and not _NOT_TITLE.match(prev) and not _LEGEND_LINE.search(prev):
                    # "CONSTRUCTION AND MAINTENANCE" / "AGREEMENT": a heading set over two lines
                    return f"{prev} {s}", (prev_start, start + len(s))
                return s, (start, start + len(s))
        if s:
            prev, prev_start = s, pos + line.index(s)
        pos += len(line)
    # a heading in sentence case among the first lines: "Maintenance and support contract"
    for k, m in enumerate(re.finditer(r"^[ \t]*(\S[^\n]*?)[ \t]*$", text[: max(limit, 0)], re.M)):
        if k >= 8:
            break
        piece = re.split(r"\s{3,}", m.group(1))[0]  # PDF text sets a heading's lines side by side, wide apart
        if _SENTENCE_CASE_TITLE.fullmatch(piece) and not _NOT_TITLE.match(piece) and not _LEGEND_LINE.search(piece):
            return piece, (m.start(1), m.start(1) + len(piece))
    found = [(m, 1 if m.group(1) else 2) for m in _THIS_TITLE.finditer(text, 0, min(len(text), (preamble_start or 0) + 3000))]
    if not found:
        return "", (0, 0)
    # "THIS AGREEMENT" names no kind of instrument; a later "This Supply Agreement" does
    m, g = min(found, key=lambda f: len(f[0].group(f[1]).split()) < 2)
    return m.group(g), (m.start(g), m.end(g))
