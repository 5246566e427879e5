"""Findings for what an agreement says about itself: its title, its parties and its dates.

CUAD asks for these as categories (Document Name, Parties, Agreement Date, Effective Date) but they are not
clauses a classifier ranks: agents.facts reads them from the preamble, the signature blocks and "dated as of"
clauses. The reviewer files them under the checklist item that lists these categories, one finding per
passage (a preamble that names the parties and the date is one finding carrying both), quoting the clause
unit the value was read from, verbatim. Only a review that holds the document's opening chunk reads them: a
sub-agent given a slice of a long document has no preamble to read.
"""

from __future__ import annotations

from datetime import date

from agents.facts import AgreementFacts, extract_facts
from agents.offline.units import unit_spans
from core.types import Chunk

FACT_CATEGORIES = ("Document Name", "Parties", "Agreement Date", "Effective Date")
# An opening chunk starts within this many characters of the document's first one (a cover page's blank lines).
_OPENING = 200


def document_text(chunks: list[Chunk]) -> str | None:
    """The document's text as far as `chunks` hold it (gaps between chunks as line breaks), or None when the
    opening chunk is not among them."""
    if not chunks:
        return None
    ordered = sorted(chunks, key=lambda c: c.char_start)
    if ordered[0].index != 0 and ordered[0].char_start > _OPENING:
        return None
    parts: list[str] = []
    at = 0
    for c in ordered:
        if c.char_start > at:
            parts.append("\n" * (c.char_start - at))
        elif c.char_start < at:  # overlapping chunks: keep what is past the end already written
            parts.append(c.text[at - c.char_start:])
            at = max(at, c.char_end)
            continue
        parts.append(c.text)
        at = c.char_start + len(c.text)
    return "".join(parts)


def _long_date(iso: str) -> str:
    d = date.fromisoformat(iso)
    return f"{d.day} {d.strftime('%B')} {d.year}"


def _party(p) -> str:
    if p.name and p.role and p.role != p.name:
        return f"{p.name} (“{p.role}”)"
    return p.name or p.role


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def read_facts(facts: AgreementFacts) -> list[tuple[str, tuple[int, int], str]]:
    """(CUAD category, span in the document text, the fact in plain words) for each fact found."""
    out = []
    if facts.title and facts.title_span != (0, 0):
        out.append(("Document Name", facts.title_span, f"The document is titled “{facts.title}”"))
    named = [_party(p) for p in facts.parties if _party(p)]
    if named and facts.parties_span != (0, 0):
        span = facts.parties_span
        first = next((p.span for p in facts.parties if p.span != (0, 0)), None)
        if first and not span[0] <= first[0] < span[1]:
            span = first
        out.append(("Parties", span, f"The parties are {_join(named)}"))
    if facts.agreement_date and facts.agreement_date_span != (0, 0):
        out.append(("Agreement Date", facts.agreement_date_span,
                    f"The agreement is dated {_long_date(facts.agreement_date)}"))
    if facts.effective_date and facts.effective_date_span != (0, 0):
        out.append(("Effective Date", facts.effective_date_span,
                    f"The agreement is effective from {_long_date(facts.effective_date)}"))
    return out


def fact_passages(chunks: list[Chunk], categories: list[str]) -> list[tuple[Chunk, int, int, list[str], str]]:
    """(chunk, start, end in the chunk's text, CUAD categories, summary) per passage that states one of
    `categories`: the clause unit holding the fact's first character, so the quote is a readable clause."""
    text = document_text(chunks)
    if text is None:
        return []
    wanted = [f for f in read_facts(extract_facts(text)) if f[0] in categories]
    by_unit: dict[tuple[str, int, int], tuple[Chunk, list[str], list[str]]] = {}
    for cat, (s, _e), words in wanted:
        chunk = next((c for c in chunks if c.char_start <= s < c.char_start + len(c.text)), None)
        if chunk is None:
            continue
        at = s - chunk.char_start
        unit = next(((a, b) for a, b in unit_spans(chunk.text) if a <= at < b), None)
        if unit is None:
            continue
        key = (chunk.id, *unit)
        _, cats, says = by_unit.setdefault(key, (chunk, [], []))
        cats.append(cat)
        says.append(words)
    return [(chunk, a, b, cats, "; ".join([says[0], *(w[0].lower() + w[1:] for w in says[1:])]) + ".")
            for (_, a, b), (chunk, cats, says) in by_unit.items()]
