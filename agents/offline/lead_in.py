"""A quote that stops at a colon, grown over the list it introduces.

"Neither party may assign ... without consent, except:" reads as the opposite of the clause when its
"(a) to an affiliate; or (b) to a buyer of its business" is left out; "IBM is liable for no more than:" says
nothing of the cap its items set. The reviewer quotes sentence by sentence and a colon ends a sentence, so
the list is grown back on here, verbatim from the document text, when it ends within a bound:
- inline ("... thereby: Sections 2.4, 2.7 and 9."): on to the sentence's full stop, within the paragraph;
- set out as items ("(a) ...; and" / "b. ...."): item by item while each starts with an enumerator of the
  first item's kind, up to the item that ends with a full stop.
A list that runs past the bound is cut after its last whole item (at the semicolon that ends it); a nested list, a table or a list that does not end in sight leaves the quote as it was.
"""

from __future__ import annotations

import re

from agents.offline.units import wrapped_line

LIST_MAX_CHARS = 900  # what a list may add: about a third of a page, so the quote stays a passage, not a schedule
_ENUMERATOR = re.compile(r"\s*(?P<e>\((?:[a-z]{1,2}|[ivx]{1,6}|\d{1,2}|[A-Z])\)|(?:[a-z]|[ivx]{1,6}|\d{1,2}|[A-Z])[.)])\s+")
_PARAGRAPH = re.compile(r"\n[ \t]*\n\s*")
_FULL_STOP = re.compile(r"(?<!\bInc)(?<!\bLtd)(?<!\bCorp)(?<!\bCo)(?<!\bNo)(?<!\bU\.S)(?<!\bi\.e)(?<!\be\.g)\.[\"')\]\u201d]*(?=\s|$)")
_ITEM_END = re.compile(r"(?:;|;\s*(?:and|or|and/or)|\.[\"')\]\u201d]*)\s*$", re.I)
_FOOTER = re.compile(r"\s*(?:source:|proprietary and confidential|page \d)", re.I)


def _kind(enumerator: str, first: bool = False) -> str:
    """The family of an enumerator: "(a)" and "(b)" are one list, "(i)" and "1." are others. "(i)" opens a
    list of roman numerals; later in a list, "(i)", "(v)" and "(x)" are read as the list reads them (_same)."""
    core = enumerator.strip("().")
    shape = ("(" if enumerator.startswith("(") else "") + (")" if enumerator.endswith(")") else ".")
    if re.fullmatch(r"[ivx]+", core) and (first or core not in ("v", "x", "i")):
        return ("roman" if core != "i" or first else "lower") + shape
    return ("digit" if core.isdigit() else "lower" if core.islower() else "upper") + shape


def _same(kind: str, enumerator: str) -> bool:
    core, own = enumerator.strip("().").lower(), _kind(enumerator)
    return own == kind or (core in ("i", "v", "x") and kind.startswith(("roman", "lower")) and own[5:] == kind[5:])


def _paragraphs(window: str) -> list[tuple[int, int]]:
    """Paragraphs of `window` as a reader sees them: PDF text puts each printed line in a paragraph of its own,
    so a line that stops mid-sentence is joined to the next unless that one opens an item."""
    out: list[tuple[int, int]] = []
    at = 0
    for brk in [*_PARAGRAPH.finditer(window), None]:
        a, b = at, (brk.start() if brk else len(window))
        at = brk.end() if brk else len(window)
        while a < b and window[a].isspace():
            a += 1
        if a >= b:
            continue
        last_line = window[out[-1][0]:out[-1][1]].rsplit("\n", 1)[-1] if out else ""
        if out and wrapped_line(last_line) and not _ENUMERATOR.match(window, a) and not _FOOTER.match(window, a):
            out[-1] = (out[-1][0], b)
        else:
            out.append((a, b))
    return out


def grow_lead_in(text: str, s: int, e: int) -> int:
    """The end of the quote text[s:e] with the list its colon introduces; e when there is none to take."""
    quote = text[s:e].rstrip()
    if not quote.endswith(":"):
        return e
    end = s + len(quote)
    window = text[end:end + LIST_MAX_CHARS]
    spans = _paragraphs(window)
    if not spans:
        return e
    a0, b0 = spans[0]
    first = _ENUMERATOR.match(window, a0)
    if "\n" not in window[:a0]:
        # the list runs on in the colon's own paragraph: "(a) to an affiliate; or (b) to a buyer ...".
        body = window[a0:b0]
        num = re.match(r"(\d+(?:\.\d+)+)\s", body)
        own = re.match(r"\s*(\d+(?:\.\d+)*)\.?\s", quote)
        if num and not (own and num.group(1).startswith(own.group(1) + ".")):
            return e  # "13.1 Distributor Obligations.": the next section's heading, not the colon's list
        # "4.2 Termination. ... upon any of the following events: 4.2.1 The failure of either party ...": the section's
        # own sub-numbers are its items; the first is taken
        stop = _FULL_STOP.search(body)
        if stop is None or _FOOTER.search(body[:stop.start()]):
            return e
        return end + a0 + stop.end()
    if first is None:
        return e  # a table or a heading follows, not items
    kind, last = _kind(first.group("e"), first=True), None
    for a, b in spans:
        item = _ENUMERATOR.match(window, a)
        if item is None or not _same(kind, item.group("e")) or b >= len(window):
            break  # the list is over, or its item runs past the bound
        body = window[a:b]
        if body.endswith(":") or _FOOTER.search(body) or not _ITEM_END.search(body):
            break  # a nested list, page furniture inside the item, or an item that does not end
        if not body.endswith(";") and not re.search(r"\b(?:and|or|and/or)$", body):
            return end + b  # the item that ends with a full stop ends the list
        last = a + body.rindex(";") + 1  # a list cut here ends on its item's semicolon, not on "and"
    return end + last if last is not None else e
