"""Who the agreement binds: the preamble's named parties with their defined terms, else the signature blocks.

Drafting convention, not any one contract's wording: the preamble says "by and between <name>, <description>
("<Defined Term>"), and <name> ... ("<Defined Term>")". A parenthetical holding a quoted term marks the end
of one party's description; the party's name is the start of the text before it, up to the first
descriptive clause (", a Delaware corporation", ", located at", ", having its office"). Parentheticals that
define the document, a date or the parties collectively ("Agreement", "Effective Date", "Parties") are not
parties. Where a preamble names no defined terms, the signature blocks' company lines are used instead.
"""

from __future__ import annotations

import re

from agents.facts.models import Party, Span

HEAD_CHARS = 6000
TAIL_CHARS = 5000
SEGMENT_CHARS = 2500

_QUOTE_OPEN = "\"\u201c\u201d'\u2018"
_QUOTE_CLOSE = "\"\u201d\u201c'\u2019"
_TERM = re.compile(r"[\"\u201c\u201d]\s*([^\"\u201c\u201d()]{1,60}?)\s*[\"\u201d\u201c]")
# A defined-term marker: a parenthetical with a quoted term, or "hereinafter (referred to as) "X"" without one.
_MARKER = re.compile(
    r"\((?=[^()]{0,200}[\"\u201c\u201d])[^()]{0,300}\)"
    r"|,?\s*\b(?:hereinafter|hereafter|herein\s+after)\b[^\"\u201c\u201d.;]{0,40}[\"\u201c\u201d][^\"\u201c\u201d]{1,60}[\"\u201d\u201c]",
    re.I)
_ANCHOR = re.compile(r"\b(?:by\s+and\s+(?:between|among)|between|among)\b\s*:?", re.I)
_SEGMENT_END = re.compile(
    r"\bW\s*H\s*E\s*R\s*E\s*A\s*S\b|\bRECITALS\b|\bW\s*I\s*T\s*N\s*E\s*S\s*S\s*E\s*T\s*H\b|\bNOW,?\s+THEREFORE\b"
    r"|\bBACKGROUND\b|\bIN\s+CONSIDERATION\s+OF\b|\bthe\s+parties\s+(?:hereto\s+)?(?:hereby\s+)?agree\b"
    r"|\bRecitals\b|\bPreliminary\s+Statements?\b|\bIntroduction\b", re.I)
# Where a party's description starts: the name is what comes before it.
_NAME_END = re.compile(
    r"\s*,?\s+(?:a|an|having|located|with|whose|organi[sz]ed|incorporated|acting|as|its|which|duly|existing|"
    r"residing|domiciled|registered|address|at|c/o|on\s+behalf|for\s+itself|together|on\s+the\s+one|"
    r"on\s+the\s+other|who|that|d/b/a|doing|formerly|under|by\s+its|through)\b"
    r"|,\s+(?=[a-z])|\s*\(|\s*;|\s+\d{2,}|\s*:", )
_LEAD = re.compile(
    r"^(?:[\s,;:.]+|and\b|AND\b|between\b|among\b|by\b|on\s+the\s+(?:one|other)\s+hand\b|\(\s*(?:\d+|[a-z]|[ivx]+)\s*\)"
    r"|\d+\.\s|each\s+of\b|the\s+following\b|parties\b|:)", re.I)
_CORP_SUFFIX = (r"(?:Inc|Incorporated|Corp|Corporation|LLC|L\.L\.C|Ltd|Limited|LP|L\.P|LLP|GmbH|AG|S\.?A|N\.?A|"
                r"PLC|plc|B\.V|BV|N\.V|S\.A\.S|S\.?p\.?A|S\.?\u00e0\s?r\.?l|SE|Co|Company|Trust|Bank|University|"
                r"Fund|Partners|Holdings|Group)")
_SIGNATORY = re.compile(
    rf"(?<![\w&.,'-])((?:The\s+|THE\s+)?[A-Z][\w&.'-]*(?:[ \t]+(?:of[ \t]+|and[ \t]+|&[ \t]+)?[A-Z0-9][\w&.'-]*){{0,6}}"
    rf",?[ \t]+{_CORP_SUFFIX}\.?)(?![\w])")
# Defined terms that name the document, a date, a place or the parties together: never one party.
_NOT_A_PARTY = re.compile(
    r"\b(?:agreement|amendment|contract|schedule|addendum|exhibit|annex|appendix|date|dates|term|parties|party|"
    r"effective|closing|notes?|plan|project|program|products?|services?|territory|premises|property|license|"
    r"licence|lease|order|statement|work|sow|recitals?|transaction|merger|deal|act|code|rules?|policy|"
    r"confidential\s+information|business|field|purpose|affiliates?|signatories|undersigned|assets?|shares?|"
    r"stock|securities|facility|loan|guarant\w*|collateral|each|both)\b", re.I)
_COLLECTIVE = re.compile(r"\b(?:collectively|together|jointly)\b", re.I)
_WORD = re.compile(r"[A-Za-z0-9]+")


def _terms(marker: str) -> list[str]:
    return [t.strip(" ,.;:") for t in _TERM.findall(marker) if t.strip(" ,.;:")]


def _clean_name(chunk: str, offset: int) -> tuple[str, Span]:
    """The party's name at the start of `chunk` (text between the previous marker and this one)."""
    start = 0
    while m := _LEAD.match(chunk, start):
        if m.end() == start:
            break
        start = m.end()
    # "a joint venture comprised of GA Retail, Inc." / "issued by BTDS": the name starts at a capital.
    if start < len(chunk) and not chunk[start].isupper() and not chunk[start].isdigit():
        cap = re.search(r"(?<![\w])[A-Z0-9]", chunk[start:])
        if cap is None:
            return "", (0, 0)
        start += cap.start()
    rest = chunk[start:]
    cut = _NAME_END.search(rest, 1)
    name = rest[: cut.start()] if cut else rest
    name = name.rstrip(" ,;:")
    # a trailing corporate suffix keeps its full stop ("Inc."), a sentence end does not reach here
    if name.endswith(" and") or name.endswith(" AND"):
        name = name[:-4].rstrip(" ,")
    end = start + len(name)
    return name, (offset + start, offset + end)


def _is_name(name: str) -> bool:
    words = _WORD.findall(name)
    return bool(words) and len(words) <= 16 and any(w[0].isupper() for w in words) and len(name) <= 160


def _segment(text: str) -> tuple[int, int] | None:
    """(start, end) of the preamble's party list: after the first 'between'/'among' whose text holds a defined-term
    marker before the recitals begin."""
    head = text[:HEAD_CHARS]
    for a in _ANCHOR.finditer(head):
        end_m = _SEGMENT_END.search(head, a.end(), min(len(head), a.end() + SEGMENT_CHARS))
        end = end_m.start() if end_m else min(len(head), a.end() + SEGMENT_CHARS)
        if any(_party_terms(m.group()) for m in _MARKER.finditer(head, a.end(), end)):
            return a.end(), end
    return None


def _party_terms(marker: str) -> list[str]:
    return [t for t in _terms(marker) if _is_term(t)]


def _is_term(term: str) -> bool:
    return bool(term) and term[0].isalnum() and not _NOT_A_PARTY.search(term) and len(term) <= 50


def preamble_parties(text: str) -> tuple[list[Party], Span]:
    """Parties named in the preamble with their defined terms, and the span of the passage read."""
    seg = _segment(text)
    if seg is None:
        return [], (0, 0)
    s, e = seg
    parties: list[Party] = []
    prev = s
    for m in _MARKER.finditer(text, s, e):
        chunk = text[prev: m.start()]
        prev = m.end()
        terms = _party_terms(m.group())
        if not terms:
            continue
        name, span = _clean_name(chunk, m.start() - len(chunk))
        collective = _COLLECTIVE.search(m.group())
        if not _is_name(name) or _is_term_only(name, parties):
            # "Tiger ... and collectively with GA, the "Agent"": a collective term is an alias of the parties it joins
            if collective and parties:
                _add_alias(parties[-1], terms)
            continue
        parties.append(Party(name=name, role=terms[0], aliases=terms[1:], span=span))
    return parties, (s, prev if parties else e)


def _is_term_only(name: str, parties: list[Party]) -> bool:
    """A chunk that only repeats an earlier defined term ("Anixa and OntoChem") names no new party."""
    known = {t.lower() for p in parties for t in (p.role, *p.aliases) if t}
    words = [w for w in re.split(r"\s+(?:and|or|&)\s+|,\s*", name) if w]
    return bool(known) and all(w.strip().lower() in known for w in words)


def _add_alias(p: Party, terms: list[str]) -> None:
    for t in terms:
        if t != p.role and t not in p.aliases:
            p.aliases.append(t)


def signature_parties(text: str) -> tuple[list[Party], Span]:
    """Company names from the signature blocks: lines naming an entity near the end, after 'IN WITNESS WHEREOF'
    where the text has one."""
    start = max(0, len(text) - TAIL_CHARS)
    w = text.rfind("IN WITNESS WHEREOF", start) if "IN WITNESS WHEREOF" in text[start:] else -1
    if w < 0:
        low = text.lower()
        w = low.rfind("in witness whereof")
        w = w if w >= 0 else start
    out: list[Party] = []
    seen: set[str] = set()
    for m in _SIGNATORY.finditer(text, w, min(len(text), w + TAIL_CHARS)):
        name = m.group(1).strip()
        key = " ".join(_WORD.findall(name.lower()))
        if key in seen or name.upper().startswith(("IN WITNESS", "BY ")):
            continue
        seen.add(key)
        out.append(Party(name=name, span=(m.start(1), m.start(1) + len(name))))
    return out, ((out[0].span[0], out[-1].span[1]) if out else (0, 0))


def find_parties(text: str) -> tuple[list[Party], Span]:
    parties, span = preamble_parties(text)
    if len(parties) >= 2:
        return parties, span
    sig, sig_span = signature_parties(text)
    have = {w for p in parties for w in _WORD.findall(p.name.lower())}
    extra = [p for p in sig if not set(_WORD.findall(p.name.lower())) & have]
    merged = parties + extra
    if not merged:
        return [], (0, 0)
    return merged, (span if parties else sig_span)
