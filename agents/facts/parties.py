"""Who the agreement binds: the preamble's named parties with their defined terms, else the signature blocks.

Drafting convention, not any one contract's wording: the preamble says "by and between <name>, <description>
("<Defined Term>"), and <name> ... ("<Defined Term>")". A parenthetical holding a quoted term marks the end
of one party's description; the party's name is the start of the text before it, up to the first
descriptive clause (", a Delaware corporation", ", located at", ", having its office"). Parentheticals that
define the document, a date or the parties collectively ("Agreement", "Effective Date", "Parties") are not
parties. Where the preamble yields none, a labelled "Party A:" list or a cover page's "BETWEEN X AND Y" is
read; where it yields fewer than two, the signature blocks' company lines are added.
"""

from __future__ import annotations

import re

from agents.facts.models import Party, Span
from agents.facts.places import COUNTRIES, PROVINCES, US_STATES

HEAD_CHARS = 8000
NEAR_ANCHOR = 700  # a preamble's first defined term follows its "between" closely; a title page's does not
TAIL_CHARS = 5000
SEGMENT_CHARS = 2500

_TERM = re.compile(r"[\"\u201c\u201d\u2018]\s*([^\"\u201c\u201d\u2018\u2019()]{1,60}?)\s*[\"\u201d\u201c\u2019]")
# A defined-term marker: a parenthetical with a quoted term, or "hereinafter (referred to as) "X"" without one.
_MARKER = re.compile(
    r"\((?=[^()]{0,200}[\"\u201c\u201d\u2018])[^()]{0,300}\)"
    r"|,?\s*\b(?:hereinafter|hereafter|herein\s+after)\b[^\"\u201c\u201d.;]{0,40}[\"\u201c\u201d][^\"\u201c\u201d]{1,60}[\"\u201d\u201c]"
    # "(hereinafter IntriCon)": the term without quotes
    r"|\(\s*(?:hereinafter|hereafter)\s+(?:(?:referred\s+to\s+as|called)\s+)?(?:the\s+)?[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3}\s*\)",
    re.I)
_ANCHOR = re.compile(r"\b(?:by\s+and\s+(?:between|among)|between|among|(?:made|entered\s+into|executed)\s+by)\b\s*:?", re.I)
_SEGMENT_END = re.compile(
    r"\bW\s*H\s*E\s*R\s*E\s*A\s*S\b|\bRECITALS\b|\bW\s*I\s*T\s*N\s*E\s*S\s*S\s*E\s*T\s*H\b|\bNOW,?\s+THEREFORE\b"
    r"|\bBACKGROUND\b|\bIN\s+CONSIDERATION\s+OF\b|\bthe\s+parties\s+(?:hereto\s+)?(?:hereby\s+)?agree\b"
    r"|\bRecitals\b|\bPreliminary\s+Statements?\b|\bIntroduction\b", re.I)
# Where a party's description starts: the name is what comes before it.
_NAME_END = re.compile(
    r"\s*,?\s+(?:a|an|having|located|with|whose|organi[sz]ed|incorporated|acting|as|its|which|duly|existing|"
    r"residing|domiciled|registered|address|at|c/o|on\s+behalf|for\s+itself|together|on\s+the\s+one|"
    r"on\s+the\s+other|who|that|d/b/a|doing|formerly|under|by\s+its|through|(?:is|are)\s+an?)\b"
    r"|,\s+(?=[a-z])|\s*\(|\s*;|\s+\d{2,}|\s*:"
    # PDF text glues the article to the place of incorporation: "WebMD, Inc. aGeorgia corporation"
    rf"|\s*,?\s+an?(?=(?:{'|'.join(sorted((*US_STATES, *PROVINCES, *COUNTRIES), key=len, reverse=True))})\b)", )
# words before a name, skipped one at a time by _head_name's match(chunk, pos); no '^', which would hold only at 0
# and leave the "(c)" of "...90067; and (c) Diplomat Group" unskipped, so the address before it read as the name
_LEAD = re.compile(
    r"(?:[\s,;:.\"\u201c\u201d)]+|and\b|AND\b|between\b|among\b|by\b|WHEREAS\b|\{[^{}]{0,10}\}|on\s+the\s+(?:one|other)\s+hand\b|\(\s*(?:\d+|[a-z]|[ivx]+)\s*\)"
    r"|\d+\.\s|each\s+of\b|the\s+following\b|parties\b|:|that\b|know\s+all\s+(?:men|persons)\s+by\s+these\s+presents\b"
    r"|(?:dated\s+)?(?:as\s+of\s+)?(?:January|February|March|April|May|June|July|August|September|October|November|"
    r"December)\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|(?:dated\s+)?(?:as\s+of\s+)?\d{1,2}/\d{1,2}/\d{2,4})", re.I)
_CORP_SUFFIX = (r"(?:Inc|Incorporated|Corp|Corporation|LLC|L\.L\.C|Ltd|Limited|LP|L\.P|LLP|GmbH|AG|S\.?A|N\.?A|"
                r"PLC|plc|B\.V|BV|N\.V|S\.A\.S|S\.?p\.?A|S\.?[\u00e0\u00c0a]\s?[rR]\.?[lL]|S\.?R\.?L|SARL|Oy|A/S|SE|Co(?!-)|Company|Trust|Bank|University|"
                r"Fund|Partners|Holdings|Group)")
_SIGNATORY = re.compile(
    rf"(?<![\w&.,'-])((?:The\s+|THE\s+)?[A-Z][\w&.'-]*(?:[ \t]+(?:of[ \t]+|and[ \t]+|&[ \t]+)?[A-Z0-9][\w&.'-]*){{0,6}}"
    rf",?[ \t]+{_CORP_SUFFIX}\.?)(?![\w])")
# Defined terms that name the document, a date, a place or the parties together: never one party.
_NOT_A_PARTY = re.compile(
    r"\b(?:agreement|amendment|contract|schedule|addendum|exhibit|annex|appendix|date|dates|terms?|parties|party|"
    r"effective|closing|notes?|plan|project|program|products?|services?|territory|premises|property|license|"
    r"licence|lease|order|statement|work|sow|recitals?|transaction|merger|deal|act|code|rules?|policy|"
    r"confidential\s+information|business|field|purpose|signatories|undersigned|assets?|shares?|"
    r"notice|stock|securities|facility|loan|guarant\w*|collateral|each|both)\b", re.I)
_DATE_LIKE = re.compile(r"\b(?:January|February|March|April|May|June|July|August|September|October|November|"
                        r"December)\s+\d{1,2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")
_COLLECTIVE = re.compile(r"\b(?:collectively|together|jointly)\b", re.I)
_WORD = re.compile(r"[A-Za-z0-9]+")


def _terms(marker: str) -> list[str]:
    # (hereinafter called "the Company"): the article is not part of the term
    found = [re.sub(r"^(?:the|The)\s+", "", t.strip(" ,.;:")) for t in _TERM.findall(marker) if t.strip(" ,.;:")]
    if not found:
        # a quote misplaced by the filing's typist: "(LeadersOnline")
        bare = marker.strip("()\"\u201c\u201d ,.;")
        bare = re.sub(r"^(?:hereinafter|hereafter)\s+(?:(?:referred\s+to\s+as|called)\s+)?(?:the\s+)?", "", bare, flags=re.I)
        if re.fullmatch(r"[A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3}", bare):
            found = [bare]
    return found


_STRICT_SUFFIX = (r"(?:Inc|Incorporated|Corp|Corporation|LLC|L\.L\.C|Ltd|Limited|LP|L\.P|LLP|GmbH|AG|S\.A|N\.A|PLC|plc|"
                  # "Note 1 Co-Branding one time charge" (a price list's footnote) names no company
                  r"B\.V|N\.V|S\.p\.A|S\.R\.L|SRL|SARL|Company|Co(?!-)|INC|CORP|CORPORATION|LIMITED|COMPANY|CO(?!-))\.?")
_CAP_WORD = r"(?:[A-Z0-9][\w.&'\u2019/-]*|[a-z]+[A-Z][\w.&'-]*|&)"
# A company name that ends right before a marker: "... and its subsidiary SMBC Nikko Securities Inc. ("Nikko")".
_TAIL_NAME = re.compile(
    rf"(?<![\w.&'-])({_CAP_WORD}(?:\s+(?:(?:of|de|du|der|la|the|for)\s+)?{_CAP_WORD})*,?\s+{_STRICT_SUFFIX}|"
    rf"{_CAP_WORD}(?:\s+{_CAP_WORD})*\s+{_STRICT_SUFFIX})[\s,]*$")
# the last resort: a run of capitalised words (two or more) closing the text before the marker, after a comma or
# "the" ("..., the undersigned, the Integrity Short Term Government Fund, (the "Fund")")
# (words without digits: "Fairfax, VA 22150 ("Reseller")" is an address)
_NAME_WORD = r"[A-Z][A-Za-z&'\u2019.-]+"
_TAIL_CAPS = re.compile(rf"(?:^|[,(]\s*|\bthe\s+)({_NAME_WORD}(?:\s+(?:(?:of|and|&|for)\s+)?{_NAME_WORD}){{1,8}})[\s,]*$")
_PIECE_SPLIT = re.compile(r";\s*(?:and\s+)?|,\s+and\s+|\bon\s+the\s+(?:one|other)\s+hand\b[,\s]*(?:and\s+)?", re.I)
_WEAK_SPLIT = re.compile(r"\s+(?:and|AND)\s+(?=[A-Z])")
_STARTS_NAME = re.compile(r"(?:[A-Z]|[a-z]+[A-Z]|\d+\s*[A-Z&])")
_CONNECTORS = {"of", "and", "&", "de", "du", "der", "la", "the", "for", "und", "et", "y"}


def _head_name(chunk: str, base: int) -> tuple[str, Span, bool]:
    """The name at the start of `chunk` (after connectors); the flag says it started there without skipping words."""
    start = 0
    while m := _LEAD.match(chunk, start):
        if m.end() == start:
            break
        start = m.end()
    direct = bool(_STARTS_NAME.match(chunk, start))
    if not direct:
        cap = re.compile(r"(?<![\w])(?:[A-Z]|[a-z]+[A-Z])").search(chunk, start)
        if cap is None:
            return "", (0, 0), False
        start = cap.start()
    rest = chunk[start:]
    cut = _NAME_END.search(rest, 1)
    name = (rest[: cut.start()] if cut else rest).rstrip(" ,;:")
    if name.endswith((" and", " AND")):
        name = name[:-4].rstrip(" ,")
    return name, (base + start, base + start + len(name)), direct


def _clean_name(chunk: str, offset: int) -> tuple[str, Span]:
    """The party's name in `chunk` (the text between the previous marker and this one): the start of the last
    piece after a "; and" / ", and" that starts with a capitalised name, else a company name ending right
    before the marker, else the first capitalised words."""
    for split in (_PIECE_SPLIT, _WEAK_SPLIT):
        for c in reversed([0] + [m.end() for m in split.finditer(chunk)]):
            name, span, direct = _head_name(chunk[c:], offset + c)
            if direct and _is_name(name):
                return name, span
    if tm := _TAIL_NAME.search(chunk):
        return tm.group(1), (offset + tm.start(1), offset + tm.end(1))
    name, span, _ = _head_name(chunk, offset)
    if not _is_name(name) and (tm := _TAIL_CAPS.search(chunk)):
        return tm.group(1), (offset + tm.start(1), offset + tm.end(1))
    return name, span


def _is_name(name: str) -> bool:
    """Mostly capitalised words, not a date, not a sentence."""
    words = name.split()
    if not words or len(words) > 14 or len(name) > 140 or _DATE_LIKE.search(name) or name.count("(") != name.count(")"):
        return False
    if re.match(r"(?:Agreement|Schedule|Exhibit|Section|Article|Annex|Appendix|Provisions|Summary|Recitals?)\b", name):
        return False  # "Agreement Summary and the General Provisions": the document's parts, not a party
    content = [w for w in words if w.lower() not in _CONNECTORS]
    caps = sum(1 for w in content if w[:1].isupper() or w[:1].isdigit() or re.match(r"[a-z]+[A-Z]", w))
    return bool(content) and caps >= 0.6 * len(content) and any(c.isupper() for c in name)


def _segment(text: str) -> tuple[int, int] | None:
    """(start, end) of the preamble's party list: after the first 'between'/'among' followed closely by a
    defined-term marker (a title page's "between X and Y" is not), else after the first one followed by any,
    before the recitals begin."""
    head = text[:HEAD_CHARS]
    fallback = None
    for a in _ANCHOR.finditer(head):
        end_m = _SEGMENT_END.search(text, a.end(), min(len(text), a.end() + SEGMENT_CHARS))
        end = end_m.start() if end_m else min(len(text), a.end() + SEGMENT_CHARS)
        first = next((m for m in _MARKER.finditer(text, a.end(), end) if _party_terms(m.group())), None)
        if first is None:
            continue
        if first.start() - a.end() <= NEAR_ANCHOR:
            # "... Conflict Among Agreements 16 ... is by and among UTC": the anchor closest to the term is the one
            closer = [b for b in _ANCHOR.finditer(text, a.end(), first.start())]
            start = closer[-1].end() if closer else a.end()
            return start, end
        fallback = fallback or (a.end(), end)
    return fallback or _unanchored(text)


_AGREEMENT_WORD = re.compile(r"\b(?:AGREEMENT|Agreement)\b\)?[\s,]*")


def _wrapped(before: str) -> bool:
    line = before[before.rfind("\n") + 1:].rstrip()
    return len(line) >= 60 and not line.endswith((".", ":", ";", "!", "?"))


def _unanchored(text: str) -> tuple[int, int] | None:
    """'... RIGHTS AGREEMENT  Synchron, a California corporation (the "Investor"), and ...': no 'between', the list
    starts after the title's last word."""
    # an unquoted "(hereafter the Water Meter)" in the body defines a thing; only a preamble's anchor vouches for one
    first = next((m for m in _MARKER.finditer(text, 0, HEAD_CHARS) if _party_terms(m.group()) and re.search(
        "[\"\u201c\u201d\u2018]", m.group())), None)
    if first is None:
        return None
    lo = max(0, first.start() - NEAR_ANCHOR)
    words = list(_AGREEMENT_WORD.finditer(text, lo, first.start()))
    # a blank line after a long line that stops mid-sentence is a PDF's line wrap, not a new paragraph
    # ("... the undersigned, the Integrity Short Term\n\nGovernment Fund, (the "Fund")")
    paragraphs = [p for p in re.finditer(r"\n\s*\n", text[lo: first.start()])
                  if not _wrapped(text[:lo + p.start()])]
    start = max(words[-1].end() if words else lo, lo + paragraphs[-1].end() if paragraphs else lo)
    end_m = _SEGMENT_END.search(text, first.end(), min(len(text), first.end() + SEGMENT_CHARS))
    return start, (end_m.start() if end_m else min(len(text), first.end() + SEGMENT_CHARS))


_ABBREV = {"inc", "corp", "ltd", "co", "no", "st", "ave", "dr", "mr", "ms", "mrs", "jr", "sr", "blvd", "rd", "llc",
           "n", "s", "a", "p", "o", "u", "l", "v", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "m", "q", "r",
           "t", "w", "x", "y", "z", "ste", "fl", "dept", "bldg", "plc", "mt", "ft", "nos", "vs", "com",
           # an address abroad: "Aleea Malinului, Nr. 11, Bl. D, Scara C, Apt. 43"
           "nr", "bl", "apt", "str", "hwy", "pkwy", "av", "avda"}


def _sentence_end(text: str, start: int, end: int) -> int:
    """The first full stop in [start, end) that ends a sentence (not 'Inc.', 'N.A.', 'St.')."""
    for m in re.finditer(r"\.\s+(?=[A-Z])", text[start:end]):
        word = re.search(r"([A-Za-z]+)$", text[start: start + m.start()])
        if word and word.group(1).lower() not in _ABBREV:
            return start + m.start() + 1
    return end


def _party_terms(marker: str) -> list[str]:
    return [t for t in _terms(marker) if _is_term(t)]


# "Service Provider", "Collateral Agent": a role noun at the end makes a party's term of words _NOT_A_PARTY would refuse
_ROLE_END = re.compile(r"\b(?:provider|agent|sponsor|manager|operator|contractor|consultant|licensee|licensor|supplier|customer|"
                       r"vendor|distributor|owner|investor|purchaser|seller|buyer|servicer|adviser|advisor|administrator)s?$", re.I)


def _is_term(term: str) -> bool:
    return bool(term) and term[0].isalnum() and (not _NOT_A_PARTY.search(term) or bool(_ROLE_END.search(term))) and len(term) <= 50


def preamble_parties(text: str) -> tuple[list[Party], Span]:
    """Parties named in the preamble with their defined terms, and the span of the passage read."""
    seg = _segment(text)
    if seg is None:
        return [], (0, 0)
    s, e = seg
    parties: list[Party] = []
    prev = s
    for m in _MARKER.finditer(text, s, e):
        if parties and _sentence_end(text, prev, m.start()) < m.start():
            break  # the preamble's sentence is over; later terms define other things
        chunk = text[prev: m.start()]
        prev = m.end()
        terms = _party_terms(m.group())
        if not terms:
            continue
        if parties and not chunk.strip(" ,;"):
            # ("Deutsche Bank") (the "Remarketing Agents"): a second term right after the first names the same party
            _add_alias(parties[-1], terms)
            continue
        name, span = _clean_name(chunk, m.start() - len(chunk))
        if not _is_name(name) and terms[0].lower() in _ROLE_WORDS and re.search(r"\bset (?:forth|out) below\b|\bnamed below\b|"
                                                                        r"\bidentified below\b", chunk, re.I):
            # a form: "and the company set forth below ("Company")"; its name is in the cover block (_named_roles)
            parties.append(Party(name=terms[0], role="", span=(m.start(), m.end())))
            continue
        if not _is_name(name) or _is_term_only(name, parties) or _known(name, terms, parties):
            # "Tiger ... and collectively with GA, the "Agent"": a collective term is an alias of the parties it joins
            if _COLLECTIVE.search(m.group()) and parties:
                _add_alias(parties[-1], terms)
                _join_collective(parties, m.group(), terms)
            continue
        parties.append(Party(name=name, role=terms[0], aliases=terms[1:], span=span))
        _join_collective(parties, m.group(), terms[1:])
    return parties, (s, prev if parties else e)


_JOINED = re.compile(r"\b(?:collectively|together|jointly)\s+with\s+([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*){0,3})")


def _join_collective(parties: list[Party], marker: str, terms: list[str]) -> None:
    """'("Tiger" and collectively with GA, the "Agent")': "Agent" is also GA's, so the term names both parties
    together and never Tiger alone (agents.offline.clauses.clause_parts.index_parties)."""
    joined = _JOINED.search(marker)
    if not joined or not terms:
        return
    for other in parties[:-1]:
        if joined.group(1).strip(" .,") in (other.role, *other.aliases):
            _add_alias(other, terms)


def _known(name: str, terms: list[str], parties: list[Party]) -> bool:
    """A party restated later in the preamble ("1. PARTIES: a) BOSCH TECHNOLOGIES, LLC ("BOSCH")")."""
    key = _key(name)
    return any(_key(p.name) == key or p.role == terms[0] for p in parties)


def _key(s: str) -> str:
    return " ".join(_WORD.findall(s.lower()))


def _is_term_only(name: str, parties: list[Party]) -> bool:
    """A chunk that only repeats an earlier defined term ("Anixa and OntoChem") names no new party."""
    known = {t.lower() for p in parties for t in (p.role, *p.aliases) if t}
    words = [w for w in re.split(r"\s+(?:and|or|&)\s+|,\s*", name) if w]
    return bool(known) and all(w.strip().lower() in known for w in words)


def _add_alias(p: Party, terms: list[str]) -> None:
    for t in terms:
        if t != p.role and t not in p.aliases:
            p.aliases.append(t)


_SIGNATURE_WORDS = re.compile(r"^(?:(?:Title|Name|By|Its|Authori[sz]ed|Signatory|Signature|Date|Witness|Attest|Print(?:ed)?|"
                              r"Accepted|Agreed)\b[:\s]*)+", re.I)


_SENTENCE_BREAK = re.compile(r"\b(?!(?:Inc|Co|Corp|Ltd|Bros|Jr|Sr|St|Mt|No)\.)[A-Za-z]{2,}\.\s+\S|(?:^|\s)\d+\.\s")


def _form_label(name: str) -> bool:
    """"Owner's Company (Registration Number)": a blank form's field label, not a signatory; and a "name" that runs
    over a sentence or a numbered heading ("CAUSED BY THE PRODUCTS. 13. Indemnification. Company")."""
    m = re.match(r"(?:the\s+)?([A-Za-z]+)['\u2019]s\s", name, re.I)
    return bool(m and m.group(1).lower() in _ROLE_WORDS) or bool(_SENTENCE_BREAK.search(name))


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
        name = _SIGNATURE_WORDS.sub("", m.group(1)).strip()
        key = " ".join(_WORD.findall(name.lower()))
        if key in seen or name.upper().startswith(("IN WITNESS", "BY ")) or _form_label(name):
            continue
        if any(f" {k} " in f" {key} " or f" {key} " in f" {k} " for k in seen):
            continue  # "Contracts Administrator NCC Escrow International Limited" is NCC again, in a notice block
        seen.add(key)
        start = m.end(1) - len(name)
        out.append(Party(name=name, span=(start, m.end(1))))
    return out, ((out[0].span[0], out[-1].span[1]) if out else (0, 0))


_TITLE_PAGE = re.compile(
    rf"\b(?:BETWEEN|AMONG|[Bb]etween|[Aa]mong)\s*:?\s+(?P<a>{_CAP_WORD}(?:[ \t]+{_CAP_WORD})*,?[ \t]+{_STRICT_SUFFIX})"
    rf"\s*,?\s+(?:AND|and|&)\s+(?P<b>{_CAP_WORD}(?:[ \t]+{_CAP_WORD})*,?[ \t]+{_STRICT_SUFFIX})(?![\w])")


# "Party A: Shenzhen Example Co., Ltd.": a labelled list, common in translated contracts. Other labels
# ("Supplier Name: ...", "Attention: ...") fill cover sheets and notice blocks with names that are not a party list.
_LABELLED = re.compile(
    rf"(?m)^[ \t]*(?P<role>Party\s+[A-Z])[ \t]*[:\uff1a][ \t]*"
    rf"(?P<name>{_CAP_WORD}(?:[ \t]+(?:(?:of|de|the|for)[ \t]+)?{_CAP_WORD}){{0,8}},?[ \t]+{_STRICT_SUFFIX})")


def labelled_parties(text: str) -> tuple[list[Party], Span]:
    found = [Party(name=m.group("name"), role=m.group("role"), span=(m.start("name"), m.end("name")))
             for m in _LABELLED.finditer(text, 0, HEAD_CHARS)]
    return (found, (found[0].span[0], found[-1].span[1])) if len(found) >= 2 else ([], (0, 0))


def title_page_parties(text: str) -> tuple[list[Party], Span]:
    """'INTELLECTUAL PROPERTY AGREEMENT BETWEEN EQUIFAX INC. AND CERTEGY INC.': a cover naming two companies."""
    m = _TITLE_PAGE.search(text, 0, HEAD_CHARS)
    if m is None:
        return [], (0, 0)
    return ([Party(name=m.group(g), span=(m.start(g), m.end(g))) for g in ("a", "b")], (m.start("a"), m.end("b")))


def find_parties(text: str) -> tuple[list[Party], Span]:
    """Preamble parties; where the preamble yields fewer than two, a title page's, else the signature blocks' added.
    A "name" that is only a defined term ("The Company") becomes the name the agreement gives it, else a role."""
    parties, span = _find_parties(text)
    return _defined_later(_named_roles(parties, text), text), span


def _defined_later(parties: list[Party], text: str) -> list[Party]:
    """A party the preamble gave no term, defined in the definitions instead ('"LKPL" means Link Plus Corporation,
    a Delaware corporation'): the term is its role, as the clauses call it by that."""
    out = []
    for p in parties:
        words = p.name.split()
        if not p.role and len(words) >= 2:
            head = r"\s+".join(re.escape(w) for w in words[:2])
            m = re.search(r'["\u201c]([A-Z][\w&.-]{1,30})["\u201d]\s+(?:shall\s+)?means?\s+(?:the\s+)?' + head, text)
            if m and m.group(1).lower() not in _NOT_ROLES:
                p = p.model_copy(update={"role": m.group(1)})
        out.append(p)
    return out


def _find_parties(text: str) -> tuple[list[Party], Span]:
    parties, span = preamble_parties(text)
    if len(parties) >= 2:
        return parties, span
    if not parties:
        for fallback in (labelled_parties, title_page_parties):
            found, found_span = fallback(text)
            if found:
                return found, found_span
    sig, sig_span = signature_parties(text)
    have = {w for p in parties for w in _WORD.findall(p.name.lower())}
    extra = [p for p in sig if not set(_WORD.findall(p.name.lower())) & have]
    merged = parties + extra
    if not merged:
        return [], (0, 0)
    return merged, (span if parties else sig_span)


# Terms a definition may give a name that are no party's term for itself
_NOT_ROLES = {"agreement", "affiliate", "affiliates", "party", "parties", "territory", "products", "product"}

# Words that say what kind of party it is, never who: "the Company", "COMPANY:" over a signature line.
_ROLE_WORDS = frozenset(
    "company corporation partnership trust bank firm entity employer employee executive consultant contractor "
    "licensor licensee seller buyer purchaser vendor supplier customer client distributor reseller manufacturer "
    "lender borrower landlord tenant lessor lessee franchisor franchisee owner investor member agent".split())


def _role_word(name: str) -> str:
    """'Company' for "The Company" / "COMPANY" / "the Company:"; '' for a real name."""
    words = re.sub(r"^(?:the|The|THE)\s+", "", name.strip(" ,.;:\"\u201c\u201d")).split()
    return words[0].title() if len(words) == 1 and words[0].lower() in _ROLE_WORDS else ""


def _defined_name(text: str, term: str) -> tuple[str, Span] | None:
    """The name the preamble gives a defined term: 'Acme Holdings, Inc. (the "Company")' -> 'Acme Holdings, Inc.'."""
    q = "[\"\u201c\u201d\u2018\u2019]"
    rx = re.compile(rf"\((?:[^()]{{0,60}}?\b)?(?:the\s+)?{q}{re.escape(term)}{q}[^()]{{0,60}}\)", re.I)
    m = rx.search(text, 0, HEAD_CHARS)
    if m is None:
        return None
    lo = max(0, m.start() - 300)
    # the name starts after "between", a paragraph break or the previous party's parenthetical, whichever is last
    cuts = [c.end() for c in re.finditer(r"\n\s*\n|\)", text[lo: m.start()])]
    anchors = list(_ANCHOR.finditer(text, lo, m.start()))
    start = max([lo + c for c in cuts] + [a.end() for a in anchors] + [lo])
    name, span = _clean_name(text[start: m.start()], start)
    return (name, span) if _is_name(name) and not _role_word(name) else None


def _labelled_name(text: str, term: str) -> tuple[str, Span] | None:
    """A form's cover block: 'the company set forth below ("Company") ... Company: Bravatek Solutions, Inc.'."""
    rx = re.compile(rf"(?<![\w-]){re.escape(term)}[ \t]*:[ \t]*(?P<name>{_CAP_WORD}(?:[ \t]+(?:(?:of|de|the|for)[ \t]+)?"
                    rf"{_CAP_WORD}){{0,8}},?[ \t]+{_STRICT_SUFFIX})")
    m = rx.search(text, 0, HEAD_CHARS)
    return (m.group("name"), (m.start("name"), m.end("name"))) if m else None


# Glue PDF text leaves in a name: "theTOWN OF X", "EmdeonCorporation", "SOFTWARECORPORATION".
_GLUED_ARTICLE = re.compile(r"^(?:the|The)(?=[A-Z]{2})")
_GLUED_SUFFIX = re.compile(r"(?<=[a-z])(?=(?:Corporation|Company|Incorporated|Limited)\b)|"
                           r"(?<=[A-Z]{3})(?=(?:CORPORATION|COMPANY|INCORPORATED|LIMITED)\b)")


# A full stop after a suffix that is no abbreviation ("Erchonia Corporation. ("Erchonia")", "Axiometric, LLC. a
# Maryland ...") ends the drafter's sentence or is a slip; "Inc." and "Corp." keep theirs.
_STRAY_STOP = re.compile(r"\b(LLC|LLP|LP|Corporation|Company|Incorporated|Limited|CORPORATION|COMPANY|INCORPORATED|LIMITED)\.$")


def _unglue(name: str) -> str:
    return _STRAY_STOP.sub(r"\1", _GLUED_SUFFIX.sub(" ", _GLUED_ARTICLE.sub("", name)))


def _named_roles(parties: list[Party], text: str) -> list[Party]:
    out: list[Party] = []
    for p in parties:
        p = p.model_copy(update={"name": _unglue(p.name)})
        word = _role_word(p.name)
        if not word:
            out.append(p)
            continue
        if any(word.lower() in {t.lower() for t in (q.role, *q.aliases) if t} for q in parties if q is not p):
            continue  # another party already is "the Company"
        if found := _defined_name(text, word) or _labelled_name(text, word):
            out.append(Party(name=found[0], role=word, aliases=[a for a in p.aliases if a != word], span=found[1]))
        else:
            out.append(Party(name="", role=p.role or word, aliases=p.aliases, span=p.span))
    return out
