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
            if _is_heading(text[a:b]):
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


def _keep(text: str, spans: list[tuple[int, int]], a: int, b: int) -> None:
    if b - a >= MIN_UNIT_CHARS and re.search(r"[A-Za-z]{3}", text[a:b]):
        spans.append((a, b))


def _is_heading(piece: str) -> bool:
    """Numbering or a short title: few words, most of them capitalised."""
    if len(piece) >= HEADING_MAX_CHARS or "\n\n" in piece:
        return False
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", piece)
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
    return bool(pieces) and all(_is_heading(p) for p in pieces)
