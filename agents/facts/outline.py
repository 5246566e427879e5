"""The numbered sections of an agreement, so that a citation can say "§ 9.5" and not only "p. 12".

A contract's outline is its numbered headings in increasing order: "1. DEFINITIONS", "9.5 Assignment.",
"ARTICLE IV", "Section 12.3". Text lines that merely start with a number ("60 days notice", "3 Little West
12th Street", a page number) look the same, so the outline is the longest strictly increasing chain of the
candidates (a stray "60" or a repeated cross-reference breaks the order and drops out), read separately in
the body and in each exhibit or schedule (whose numbering starts again). PDF text sometimes glues a
sub-heading to the previous sentence ("... the other party. 9.5 Assignment."); such "x.y" numbers after a full
stop count as candidates too. A quote is in the last section whose heading comes before it, or the most
specific one whose heading it opens with ("6. COMMERCIAL TERMS 6.1 Exclusive Supply" is § 6.1).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from functools import lru_cache

_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_LINE_HEADING = re.compile(
    r"^[ \t]*(?:(?P<kw>Section|SECTION|Clause|CLAUSE|Article|ARTICLE|\u00a7)[ \t]*)?"
    r"(?:(?P<num>\d{1,2}(?:\.\d{1,3}){0,3})(?P<dot>[.)]?)|(?<=[Ee] )(?P<roman>[IVXL]{1,6})\b\.?)"
    r"(?=[ \t]+[A-Z(\"\u201c]|[ \t]*:|[ \t]*$)", re.M)
# "... the other party. 9.5 Assignment. Neither party ...": a sub-section glued to the sentence before it
_GLUED_HEADING = re.compile(r"(?<=[a-z)][.;:] )(?P<num>\d{1,2}\.\d{1,3}(?:\.\d{1,3})?)\.?(?= [A-Z][a-z])")
_BLOCK = re.compile(r"^[ \t]*(?P<kind>EXHIBIT|SCHEDULE|ANNEX|APPENDIX|ATTACHMENT|Exhibit|Schedule|Annex|Appendix|Attachment)"
                    r"[ \t]+(?P<id>[A-Z0-9]{1,3}(?:[.-]\d{1,2})?)\b[ \t]*(?:[-\u2013\u2014:.][^\n]*)?$", re.M)
BODY_SHARE = 0.3  # exhibits follow the body; a marker before this share of the text is front matter
LIST_GAP = 200  # markers closer than this to the next one are a list of exhibits, not an exhibit
TOP_LEVEL_MAX = 60  # a first-level number above this is an amount, a year or an address, not a heading


@dataclass(frozen=True)
class Heading:
    offset: int
    key: tuple[int, ...]
    label: str  # "§ 9.5", "Article IV", "Exhibit B § 2"


def _roman(s: str) -> int:
    total = 0
    for a, b in zip(s, s[1:] + " "):
        v = _ROMAN[a]
        total += -v if b != " " and _ROMAN[b] > v else v
    return total


def _alone(text: str, start: int, end: int) -> bool:
    nl = text.find("\n", end)
    return not text[end: nl if nl >= 0 else len(text)].strip()


def _line_after(text: str, end: int) -> str:
    m = re.compile(r"\n\s*(\S[^\n]*)").search(text, end, end + 400)
    return m.group(1) if m else ""


def _line_before(text: str, start: int) -> str:
    lines = [ln for ln in text[max(0, start - 400): start].split("\n")[:-1] if ln.strip()]
    return lines[-1].strip() if lines else ""


_BARE = re.compile(r"(?:(?:Section|Article|Clause)\s+)?\d{1,2}(?:\.\d{1,3}){0,3}[.)]?", re.I)


def _wrapped(line: str) -> bool:
    """A line that stops mid-sentence (most words lower case, no closing stop), so the next one continues it;
    a title such as "Term and Termination" does not."""
    words = line.split()
    return bool(re.search(r"[a-z,]$", line)) and sum(w[0].islower() for w in words) > len(words) / 2


def _bare(line: str) -> bool:
    return bool(_BARE.fullmatch(line.strip()))


def _candidates(text: str, lo: int, hi: int) -> list[tuple[int, tuple[int, ...], str]]:
    out = []
    for m in _LINE_HEADING.finditer(text, lo, hi):
        if m.group("roman"):
            if m.group("kw") is None or m.group("kw").lower() != "article":
                continue
            out.append((m.start("roman"), (_roman(m.group("roman")),), f"Article {m.group('roman')}"))
            continue
        num = m.group("num")
        parts = tuple(int(p) for p in num.split("."))
        if _wrapped(_line_before(text, m.start())):
            continue  # "... indemnification under this / Section 3.15. If AT&T fails": a wrapped cross-reference
        alone = _alone(text, m.start(), m.end())
        # a bare "8" with neither keyword nor dot and nothing after it on the line is a page number
        if alone and len(parts) == 1 and not m.group("kw") and not m.group("dot"):
            continue
        # a number alone on its line heads the next line's title ("12.", "TERM"); a column of them ("2.2.",
        # "2.3.", "3.") is a PDF's layout that lost which text each number belongs to
        if alone and (_bare(_line_before(text, m.start())) or _bare(_line_after(text, m.end()))
                      or not re.match(r"[A-Z]", _line_after(text, m.end()))):
            continue
        if parts[0] == 0 or parts[0] > TOP_LEVEL_MAX:
            continue
        label = f"Article {num}" if (m.group("kw") or "").lower() == "article" else f"\u00a7 {num}"
        out.append((m.start("num"), parts, label))
    for m in _GLUED_HEADING.finditer(text, lo, hi):
        parts = tuple(int(p) for p in m.group("num").split("."))
        if 0 < parts[0] <= TOP_LEVEL_MAX:
            out.append((m.start("num"), parts, f"\u00a7 {m.group('num')}"))
    out.sort()
    return out


def _chain(cands: list[tuple[int, tuple[int, ...], str]]) -> list[tuple[int, tuple[int, ...], str]]:
    """The longest strictly increasing chain of heading numbers, in text order (patience sorting)."""
    tails: list[tuple[int, ...]] = []
    tail_idx: list[int] = []
    prev = [-1] * len(cands)
    for i, (_, key, _) in enumerate(cands):
        j = bisect_left(tails, key)
        if j == len(tails):
            tails.append(key)
            tail_idx.append(i)
        else:
            tails[j] = key
            tail_idx[j] = i
        prev[i] = tail_idx[j - 1] if j else -1
    out = []
    i = tail_idx[-1] if tail_idx else -1
    while i >= 0:
        out.append(cands[i])
        i = prev[i]
    return out[::-1]


@lru_cache(maxsize=16)
def outline(text: str) -> tuple[Heading, ...]:
    """The agreement's numbered headings in text order, exhibits' and schedules' labelled with their name."""
    first = _candidates(text, 0, len(text))
    if not first:
        return ()
    # A marker in the first part of the text is a filing label ("EXHIBIT 10.1") or a table of contents' entry,
    # and one followed closely by another is a list of exhibits: neither starts an exhibit's text.
    markers = list(_BLOCK.finditer(text))
    blocks = [m for k, m in enumerate(markers) if m.start() > BODY_SHARE * len(text) and m.start() > first[0][0]
              and not (k + 1 < len(markers) and markers[k + 1].start() - m.start() < LIST_GAP)]
    bounds = [0] + [m.start() for m in blocks] + [len(text)]
    names = [""] + [f"{m.group('kind').capitalize()} {m.group('id')}" for m in blocks]
    out: list[Heading] = []
    for (lo, hi), name in zip(zip(bounds, bounds[1:]), names):
        chain = _chain([c for c in first if lo <= c[0] < hi])
        if name:
            out.append(Heading(lo, (), name))
        out.extend(Heading(o, k, f"{name} {label}" if name else label) for o, k, label in chain)
    return tuple(out)


FAR = 6000  # a quote this far past the last heading found sits where the text lost its numbering
OPENING = 80  # a quote that opens with headings within this many characters is in the most specific of them


def section_label(text: str, start: int, end: int | None = None) -> str:
    """"§ 9.5" (or "Article IV", "Exhibit B § 2") for the quote at [start, end) of `text`; "" before any heading."""
    heads = outline(text)
    if not heads:
        return ""
    offsets = [h.offset for h in heads]
    i = bisect_right(offsets, start) - 1
    touched = [heads[i]] if i >= 0 else []
    stop = min(end if end is not None else start + OPENING, start + OPENING)
    j = i + 1
    while j < len(heads) and heads[j].offset < stop:
        touched.append(heads[j])
        j += 1
    if not touched or (len(touched) == 1 and start - touched[0].offset > FAR):
        return ""
    return max(reversed(touched), key=lambda h: len(h.key)).label
