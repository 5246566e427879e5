"""Split text into the clause units the reviewer scores and quotes.

A unit is a sentence (core.text.sentence_spans) unless it runs past
MAX_UNIT_CHARS, which happens with tables and run-on schedules; those are cut
at line breaks, then at semicolons, so a quote stays a readable clause.
Training (on CUAD txt) and review (on chunks) use this same function, so the
classifier sees at run time the kind of unit it was trained on.
"""

from __future__ import annotations

import re

from core.text import sentence_spans

MAX_UNIT_CHARS = 1200
MIN_UNIT_CHARS = 12
_BREAKS = (re.compile(r"\n\s*"), re.compile(r"(?<=[;,])\s+"))


def _split_long(text: str, s: int, e: int, level: int = 0) -> list[tuple[int, int]]:
    if e - s <= MAX_UNIT_CHARS or level >= len(_BREAKS):
        return [(s, e)]
    out: list[tuple[int, int]] = []
    start = s
    last_cut = s
    for m in _BREAKS[level].finditer(text, s, e):
        # Cut at the last break before the unit grows past the bound.
        if m.start() - start > MAX_UNIT_CHARS and last_cut > start:
            out.append((start, last_cut))
            start = last_cut_next
        last_cut, last_cut_next = m.start(), m.end()
    out.append((start, e))
    result: list[tuple[int, int]] = []
    for a, b in out:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            result.extend(_split_long(text, a, b, level + 1))
    return result


HEADING_MAX_CHARS = 60


def unit_spans(text: str) -> list[tuple[int, int]]:
    """Offsets of clause units in `text`, in order; every span is text[s:e] verbatim.

    A short piece ("14.", "Assignment.") is a heading, not a clause: it is
    joined to the sentence after it, so the quote reads "14. Assignment.
    Neither party may ..." and the classifier sees the heading's words.
    """
    spans: list[tuple[int, int]] = []
    pending: tuple[int, int] | None = None
    for s, e in sentence_spans(text):
        for a, b in _split_long(text, s, e):
            if _is_heading(text[a:b]) and not _ends_wrapped(text, a, b):
                if pending is None:
                    pending = (a, b)
                    continue
                if b - pending[0] < HEADING_MAX_CHARS:
                    pending = (pending[0], b)
                    continue
            if pending is not None and b - pending[0] <= MAX_UNIT_CHARS:
                a = pending[0]
            elif pending is not None:
                _keep(text, spans, *pending)
            pending = None
            _keep(text, spans, a, b)
    if pending is not None:
        _keep(text, spans, *pending)
    return spans


def _ends_wrapped(text: str, a: int, b: int) -> bool:
    """The piece is the last line of a sentence the line above began and left on a word no sentence ends with
    ("... from the proper authorities in the" / "Territory."): the sentence's end, not a heading to join to the
    clause below it."""
    # a word or three closed by a full stop, in running text's case: not "Source:", "B.", "6.1.3." or "CERTEGY INC."
    if not re.fullmatch(r"[A-Za-z][\w'\u2019-]*[a-z][\w'\u2019-]*(?:\s+[\w'\u2019-]+){0,2}\.[\"')\]\u201d]*", text[a:b].strip()):
        return False
    before = text[max(0, a - 400):a]
    lines = before.rstrip().rsplit("\n", 1)
    return len(lines) == 2 and bool(_CONNECTOR_END.search(lines[1].strip()))


def _keep(text: str, spans: list[tuple[int, int]], a: int, b: int) -> None:
    if b - a >= MIN_UNIT_CHARS and re.search(r"[A-Za-z]{3}", text[a:b]):
        spans.append((a, b))


def _is_heading(piece: str) -> bool:
    """Numbering or a short title: few words, most of them capitalised."""
    if len(piece) >= HEADING_MAX_CHARS or "\n\n" in piece:
        return False
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", piece)
    if not words:
        return True
    minor = {"of", "and", "or", "the", "to", "for", "in", "on", "by", "a", "an", "with"}
    major = [w for w in words if w.lower() not in minor]
    return len(words) <= 8 and all(w[0].isupper() for w in major)


def headings_only(text: str) -> bool:
    """True when every piece of the unit is a heading ("5. TERMINATION OF EMPLOYMENT\n\n5.1 Change in Control
    Payment."): a title says what a section is about, not what it provides, so the reviewer quotes it only when
    nothing else stands for its category."""
    pieces = [text[a:b] for s, e in sentence_spans(text) for a, b in _split_long(text, s, e)]
    return bool(pieces) and all(_is_heading(p) or _contents_line(p) for p in pieces)


# a table of contents run together by the PDF text: "4.4 Background Checks 4.5 Clean Up 4.6 Vendor's Audited
# Financial Statements"
_NUMBERED_TITLE = re.compile(r"(?<![\w.])(?=(?:section\s+|article\s+)?\d+(?:\.\d+)+\.?\s+[A-Z])", re.I)


def _contents_line(piece: str) -> bool:
    parts = [x for x in _NUMBERED_TITLE.split(piece) if x.strip()]
    return len(parts) >= 2 and all(_is_heading(x) for x in parts)


# A filing's redaction legend: "[***] = CERTAIN CONFIDENTIAL INFORMATION CONTAINED IN THIS DOCUMENT ... HAS BEEN
# OMITTED BECAUSE ... IT WOULD BE COMPETITIVELY HARMFUL IF PUBLICLY DISCLOSED". It is the filer's note, no term of the
# agreement, yet its words ("competitively harmful") read to the classifier like a non-compete.
_LEGEND = re.compile(r"\bCONFIDENTIAL\s+INFORMATION\s+(?:CONTAINED\s+IN\s+THIS\s+(?:DOCUMENT|EXHIBIT)[^.]{0,80}?\s+)?HAS\s+BEEN\s+OMITTED"
                     r"|\bCONFIDENTIAL\s+TREATMENT\s+(?:HAS\s+BEEN\s+|WAS\s+)?REQUESTED"
                     r"|\bPORTIONS\s+OF\s+THIS\s+(?:EXHIBIT|DOCUMENT|AGREEMENT)[^.]{0,60}?\s+(?:HAVE\s+BEEN\s+|WERE\s+)?OMITTED"
                     r"|\[\s*\*+\s*\]\s*(?:=|INDICATES|DENOTES)"
                     # its second half, where the PDF's paragraph break makes it a unit of its own
                     r"|\bWOULD\s+(?:LIKELY\s+)?CAUSE\s+COMPETITIVE\s+HARM|\bCOMPETITIVELY\s+HARMFUL\s+IF\s+PUBLICLY\s+DISCLOSED", re.I)
_BINDS = re.compile(r"\b(?:shall|will|may|must|agrees?|undertakes?)\b", re.I)


def legend_only(text: str) -> bool:
    """True for a unit that is a redaction legend and binds no one: it is never quoted as a clause."""
    return bool(_LEGEND.search(text)) and not _BINDS.search(text)


# PDF text puts every printed line in its own paragraph: "If a majority of the equity securities of either
# 2TheMart or" is one line of a sentence that goes on below. A quote made of one such line reads as a fragment.
WIDEN_MAX_CHARS = 1000  # how far a quote may grow to reach its sentence's ends
_LINE_BREAK = re.compile(r"\n[ \t]*(?:\n\s*)?")
_SPACES = re.compile(r"[ \t]*")
_STOP_END = re.compile(r"[.;:!?][\"')\]\u201d]*$")
_CONNECTOR_END = re.compile(r"(?:,|\b(?:or|and|of|the|to|a|an|by|in|on|for|with|under|its|any|that|than|which))$", re.I)
# A full stop that ends a name or a reference, not a sentence: the sentence splitter cuts "either 2TheMart or
# i-Escrow, Inc. (except that ..." after "Inc.", and the quote must reach back past it.
_ABBREV_END = re.compile(r"\b(?:Inc|Ltd|Corp|Co|L\.L\.C|L\.P|N\.A|S\.A|B\.V|N\.V|No|Nos|Sec|Art|e\.g|i\.e|U\.S|Mr|Ms|Mrs|Dr)\.$")
_STOP_IN_LINE = re.compile(r"[.;:!?][\"')\]\u201d]*\s+(?=[\"(\u201c]?[A-Z0-9(])")


# Page furniture a sentence runs across in PDF text: a page number, "Page 3 of 12", a filing's "Source: ..." footer,
# a confidentiality legend. The quote keeps it (it is verbatim) but reads on past it.
_FURNITURE = re.compile(r"^\s*(?:\d{1,4}|[-\u2013]\s*\d{1,4}\s*[-\u2013]|page\s+\d{1,4}(?:\s+of\s+\d{1,4})?|source:\s.{1,150}|"
                        r"(?:proprietary\s+and\s+)?confidential(?:\s+(?:information|treatment\s+requested))?)\s*$", re.I)
FURNITURE_LINES = 3  # at most this many furniture lines in a row between two lines of one sentence


def reading_text(quote: str) -> str:
    """The quote as one line of text to read (the quote itself stays verbatim): without the page furniture lines
    it runs across ("... in each calendar quarter after the / Source: ACME, S-1/A, 4/27/2000 / Effective Date
    ..."), a word the printed line broke at its hyphen whole again ("Paid-/For Development"), an omission marked."""
    kept = "\n".join(line for line in quote.split("\n") if not _FURNITURE.match(line) or not line.strip())
    # PDF text writes a word's hyphen as U+2010 or U+2011 ("non\u2010exclusive"), which no reading takes for "-"
    kept = re.sub(r"(?<=\w)[\u2010\u2011](?=\s*\w)", "-", kept)
    kept = re.sub(r"\b([Nn]on|NON)-[ \t]+(?=[A-Za-z])", r"\1-", kept)  # "non\u2010 exclusive", its line broken after the hyphen
    # and puts zero-width spaces before cross-references ("Section \u200b8.5"), which split "§ 8.5" from its number
    kept = re.sub(r"[\u200b\u200c\u200d\u2060\ufeff]", "", kept)
    # and may write a semicolon as U+037E, the Greek question mark that looks like one and ends no clause for a reader
    kept = kept.replace("\u037e", ";")
    # a form filled in by hand: "upon ____________ (______30________) days": the figure written in the blank is the term
    kept = re.sub(r"\(\s*_+\s*(\d[\d,.]*)\s*_*\s*\)", r"(\1)", kept)
    kept = re.sub(r"_{2,}\s*(?=\(\d)", "", kept)
    kept = re.sub(r"(?<=\w)-[ \t]*\n\s*(?=[A-Za-z])", "-", kept)
    # a page's redaction note run into the sentence: "an option to negotiate an *** Portions of this page have been
    # omitted pursuant to a request for Confidential Treatment and filed separately with the Commission."
    kept = re.sub(r"\*{3}\s*Portions\s+of\s+this\s+(?:page|exhibit|document)\s+have\s+been\s+omitted[^.]{0,160}\.", "<omitted>", kept, flags=re.I)
    return " ".join(kept.replace("<omitted>", " \u2026 ").split())


def _ends_sentence(before: str) -> bool:
    return bool(_STOP_END.search(before)) and not _ABBREV_END.search(before)


def wrapped_line(line: str) -> bool:
    """A line that stops mid-sentence: no full stop, and neither a title ("Term and Termination", "ARTICLE IV")
    nor a heading, unless it ends on a word no sentence ends with ("... of either 2TheMart or")."""
    line = line.strip()
    if not line or _ends_sentence(line):
        return False
    if _ABBREV_END.search(line):
        return True
    # an upper-case line is a title when short; a disclaimer in capitals runs over many long lines
    return bool(_CONNECTOR_END.search(line)) or (not _is_heading(line) and (len(line) >= 40 or line != line.upper()))


def _last_stop(line: str) -> int | None:
    """Offset just past the last sentence end inside `line`, abbreviations aside."""
    ends = [m.end() for m in _STOP_IN_LINE.finditer(line) if not _ABBREV_END.search(line[: m.start() + 1])]
    return ends[-1] if ends else None


def _first_stop(piece: str) -> int | None:
    for m in re.finditer(r"[.;:!?](?=[\"')\]\u201d]*(?:\s|$))", piece):
        if not _ABBREV_END.search(piece[: m.end()]):
            return m.end()
    return None


_ITEM_START = re.compile(r"\(?(?:\d{1,2}|[a-z]|[ivx]{1,5})\)\s")


def whole_sentence(text: str, s: int, e: int) -> tuple[int, int]:
    """[s, e) grown to the ends of its sentence across wrapped lines: back to the previous full stop when the
    line above stops mid-sentence (or the unit was cut after "Inc."), on to the next full stop when the unit
    does. Text with real paragraphs (a line that ends a sentence, a short title) is left as it is."""
    seg = text[s:e]
    s, e = s + len(seg) - len(seg.lstrip()), s + len(seg.rstrip())  # a unit can carry its paragraph break
    if s >= e:
        return s, e
    lo, hi = s, e
    skipped, resume = 0, s
    while lo > 0 and s - lo < WIDEN_MAX_CHARS:
        before = text[:lo].rstrip()
        crossed = "\n" in text[len(before): lo]
        line_start = before.rfind("\n") + 1
        line = before[line_start:]
        if before and crossed and _FURNITURE.match(line) and skipped < FURNITURE_LINES and line_start > 0:
            resume = lo if not skipped else resume
            skipped += 1
            lo = line_start  # a footer between two lines of the sentence: on to the line above it
            continue
        if lo == s and before.endswith(":") and _ITEM_START.match(text, s):
            # "... to use VS for Preferred Services where: (1) Sponsor is not in agreement, (2) ...": an item reads
            # only with the lead its colon ends; back to where that lead's sentence starts
            opens = max(before.rfind(". "), before.rfind(".\n"), before.rfind("\n\n"), before.rfind(";")) + 1
            if s - opens <= WIDEN_MAX_CHARS:
                lo = opens + len(before[opens:]) - len(before[opens:].lstrip())
            break
        if not before or _ends_sentence(before) or (crossed and not wrapped_line(line)):
            lo = resume if skipped else lo  # the line above the footer ends its own sentence: start after the footer
            break
        skipped = 0
        if not crossed and not _ABBREV_END.search(before):
            break  # a long sentence cut at a comma: the unit is already a readable clause
        stop = _last_stop(line)
        if stop is not None:
            lo = line_start + stop
            break
        lo = line_start
    while hi < len(text) and hi - e < WIDEN_MAX_CHARS:
        line_start = text.rfind("\n", 0, hi) + 1
        if not wrapped_line(text[line_start:hi]):
            break
        m = _LINE_BREAK.match(text, hi)
        if m is None:
            # the unit stops after an abbreviation inside its line: on to the sentence's real end
            if not _ABBREV_END.search(text[:hi]):
                break
            m = _SPACES.match(text, hi)
        if m.end() >= len(text):
            break  # the chunk ends here; the sentence's end is beyond what this quote can cite
        nxt_end = text.find("\n", m.end())
        nxt_end = len(text) if nxt_end < 0 else nxt_end
        for _ in range(FURNITURE_LINES):  # a footer between two lines of the sentence: read on past it
            if not _FURNITURE.match(text[m.end(): nxt_end]):
                break
            after = _LINE_BREAK.match(text, nxt_end)
            if after is None or after.end() >= len(text):
                break
            m, nxt_end = after, (text.find("\n", after.end()) if "\n" in text[after.end():] else len(text))
        if _FURNITURE.match(text[m.end(): nxt_end]):
            break  # the sentence's text does not come back before the end: stop before the footer
        stop = _first_stop(text[m.end(): nxt_end])
        hi = m.end() + stop if stop is not None else nxt_end
        if stop is not None:
            break
    while lo < hi and text[lo].isspace():
        lo += 1
    while hi > lo and text[hi - 1].isspace():
        hi -= 1
    return lo, hi
