"""Is a provision still live? Expired agreements and sections deleted by a later amendment.

A change-of-control right in an agreement that expired three years ago, or an
exclusivity clause an amendment has deleted, is not a red flag for the deal,
and a memo that lists it as one wastes the reader's attention. Whether a
provision is live is a fact about the room, not about one document: the
expiry may be confirmed by a letter and the deletion made by an amendment that
a different sub-agent read. So this runs once the room has been read, over the
documents' text, and says which findings are not live and why; the harness
then grades them `info` with the reason, keeping the reviewer's right to
restore them.

What is recognised (drafting conventions, not any one room's wording):
- a fixed term that ends by itself: "shall remain in force for a period of three (3) years from the
  Effective Date and shall then expire", with no automatic renewal;
- an explicit end date: "expires on 1 February 2027", also when an amendment extends the term;
- a letter or notice stating that "the <Agreement> ... dated <date> expired/terminated ... on <date>";
- an amendment whose recitals name the agreement ("the Supply Agreement dated 2 February 2021
  (the "Agreement")") and which deletes a section of it ("Section 6.1 (Exclusive Supply) of the
  Agreement is deleted"), in effect on or before the as-of date.
An agreement is matched to a reference by its date and its kind (supply, licence, lease ...),
and, where the reference names them, a shared party.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import date

from core.text import sentence_spans
from core.types import Finding

PREAMBLE_CHARS = 2500
MONTHS = {m.lower(): i for i, m in enumerate(calendar.month_name) if m}
MONTHS.update({m.lower(): i for i, m in enumerate(calendar.month_abbr) if m})
_MONTH = "|".join(sorted((m for m in MONTHS), key=len, reverse=True))
DATE = (rf"(?i:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTH})\.?,?\s+\d{{4}}"
        rf"|(?:{_MONTH})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}}|\d{{4}}-\d{{2}}-\d{{2}})")  # case-blind inside case-aware patterns
_DATE_RE = re.compile(DATE, re.I)
NUMBER_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve".split())}
KINDS = ("supply", "purchase", "distribution", "licen", "lease", "loan", "credit", "facility", "services",
         "employment", "consult", "agency", "reseller", "manufactur", "development", "joint venture",
         "non-disclosure", "confidentiality", "sponsorship", "franchise", "collaboration", "customer", "master")

# "During the term of this Agreement and for two years after": a survival period, not the term.
# "the first Calendar Year of the Term shall ... end on December 31, 2019": a period within the term, not the term.
WITHIN_TERM = re.compile(r"\b(?:during|throughout|for\s+the\s+duration\s+of|prior\s+to\s+the\s+end\s+of|in\s+the\s+course\s+of|"
                     r"within|before|after|upon|following|until|beyond|of)\s+(?:the\s+)?$", re.I)
_SELF_DATE = re.compile(
    rf"\b(?:is\s+dated|dated\s+(?:as\s+of\s+)?|made\s+(?:and\s+entered\s+into\s+)?(?:on|as\s+of)\s+|"
    rf"entered\s+into\s+(?:on|as\s+of)\s+|effective\s+(?:as\s+of|from)\s+)(?:the\s+)?({DATE})", re.I)
_FIXED_TERM = re.compile(
    r"(?:remain\s+in\s+(?:full\s+)?force(?:\s+and\s+effect)?|continue|shall\s+be|have\s+a\s+term)\s+for\s+"
    r"(?:a\s+(?:fixed\s+)?(?:term|period)\s+of\s+)?(?P<n>\w+)(?:\s*\((?P<d>\d+)\))?\s+(?P<unit>years?|months?)\s+"
    r"(?:from|after|commencing\s+on)\s+(?:the\s+)?(?:Effective\s+Date|Commencement\s+Date|date\s+(?:of|hereof))"
    r"[^.;]*?\b(?:expire|terminate)", re.I)
_RENEWS = re.compile(r"automatic(?:ally)?\s+(?:be\s+)?renew|renew(?:s|ed)?\s+automatically|successive\s+(?:renewal\s+)?"
                     r"(?:terms|periods)|shall\s+continue\s+(?:thereafter|in\s+force\s+(?:thereafter|until))", re.I)
_EXPIRES_ON = re.compile(rf"\b(?:expires?|shall\s+expire|terminates?|shall\s+terminate|ends?)\s+on\s+(?:the\s+)?({DATE})", re.I)
_REFERENCE = re.compile(
    rf"(?P<title>(?:[A-Z][\w&'-]*\s+){{0,6}}(?:Agreement|Lease|Licen[cs]e|Contract))\b"
    rf"(?P<between>\s+(?:between|by\s+and\s+between)\s+(?P<parties>[^;]{{3,240}}?))?,?\s+dated\s+(?:as\s+of\s+)?(?:the\s+)?"
    rf"(?P<date>{DATE})")
_ENDED = re.compile(r"\b(?:expired|has\s+terminated|was\s+terminated|terminated)\b", re.I)
_ON_DATE = re.compile(rf"\bon\s+(?:the\s+)?({DATE})", re.I)
_DELETES = re.compile(
    r"\b(?:Section|Clause|Article)\s+(?P<num>\d+(?:\.\d+)*)\s*(?:\((?P<heading>[^)]{1,80})\)\s*)?of\s+the\s+Agreement\s+"
    r"(?:is|shall\s+be)\s+(?:hereby\s+)?(?:deleted|removed|revoked|struck)", re.I)
_WITH_EFFECT = re.compile(rf"with\s+effect\s+from\s+(?:the\s+)?({DATE})", re.I)
_AMENDMENT = re.compile(r"\bamendment\b|\bvariation\b|\bamending\b", re.I)
_SECTION_LINE = re.compile(r"^[ \t]*(?:Section\s+|Clause\s+|Article\s+)?(\d+(?:\.\d+)*)[.)]?[ \t]+\S", re.M)
_PARTY_WORD = re.compile(r"[A-Z][A-Za-z&'-]{2,}")
_GENERIC = {"the", "this", "agreement", "lease", "licence", "license", "contract", "limited", "inc", "ltd", "llc",
            "corporation", "company", "supply", "master", "services", "party", "parties", "and", "dated", "between",
            "amendment", "agreed", "recitals", "whereas", "now", "therefore", "witness", "whereof", "signed", "name", "title"}


def parse_date(text: str) -> date | None:
    """'1 March 2019', 'March 1, 2019', '1st March 2019' or '2019-03-01'; None when it is not a valid date."""
    t = text.strip().replace(",", " ").replace(".", " ")
    try:
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", t):
            return date.fromisoformat(t)
        parts = [re.sub(r"(?<=\d)(st|nd|rd|th)$", "", p) for p in t.split()]
        if parts[0].isdigit():
            day, month, year = int(parts[0]), MONTHS[parts[1].lower()], int(parts[2])
        else:
            month, day, year = MONTHS[parts[0].lower()], int(parts[1]), int(parts[2])
        return date(year, month, day)
    except (KeyError, ValueError, IndexError):
        return None


def add_period(start: date, n: int, unit: str) -> date:
    """The day a term of n years/months from `start` ends (the day before the anniversary)."""
    months = n * (12 if unit.lower().startswith("year") else 1)
    y, m = divmod(start.month - 1 + months, 12)
    year, month = start.year + y, m + 1
    anniversary = date(year, month, min(start.day, calendar.monthrange(year, month)[1]))
    return date.fromordinal(anniversary.toordinal() - 1)


def _fmt(d: date) -> str:
    return f"{d.day} {d:%B %Y}"


def _count(word: str, digits: str | None) -> int | None:
    if digits:
        return int(digits)
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word.lower())


def _kind(title: str) -> str:
    low = title.lower()
    return next((k for k in KINDS if k in low), "")


_KEYWORDS = ("dated", "expire", "terminat", "deleted", "removed", "revoked", "struck", "extended")


def _sentences(text: str):
    """Sentences with hard line wraps undone (TXT and e-mail bodies wrap mid-sentence), of the paragraphs that
    hold a word read_facts looks for: most of a contract holds none, and this is the pass's whole cost."""
    for para in re.split(r"\n\s*\n", text):
        low = para.lower()
        if not any(k in low for k in _KEYWORDS):
            continue
        flat = " ".join(para.split())
        for s, e in sentence_spans(flat):
            yield flat[s:e]


def _parties(text: str) -> set[str]:
    return {w.lower() for w in _PARTY_WORD.findall(text) if w.lower() not in _GENERIC}


@dataclass
class AgreementFacts:
    """What one document says about itself and about other agreements."""

    document_id: str
    path: str
    dated: date | None = None
    latest_date: date | None = None  # the latest date in the preamble: a letter's own date
    kind: str = ""
    parties: set[str] = field(default_factory=set)
    ends: date | None = None
    is_amendment: bool = False
    refers_to: list[tuple[str, date, set[str]]] = field(default_factory=list)  # (kind, date, parties) of recitals
    ended: list[tuple[str, date, set[str], date | None]] = field(default_factory=list)  # letters: (kind, dated, parties, on)
    deletes: list[tuple[str, str, date | None]] = field(default_factory=list)  # (section, heading, effective)
    extends_to: date | None = None


def read_facts(document_id: str, path: str, text: str) -> AgreementFacts:
    head = text[:PREAMBLE_CHARS]
    first_line = next((ln.strip() for ln in head.splitlines() if ln.strip()), "")
    f = AgreementFacts(document_id=document_id, path=path, kind=_kind(first_line) or _kind(path),
                       parties=_parties(head), is_amendment=bool(_AMENDMENT.search(first_line) or _AMENDMENT.search(path)))
    m = _SELF_DATE.search(head)
    f.dated = parse_date(m.group(1)) if m else None
    f.latest_date = max((d for d in map(parse_date, _DATE_RE.findall(head)) if d), default=None)
    renews = bool(_RENEWS.search(text))
    # one pass over the sentences; cheap substring tests first, since most sentences of a room say none of this
    for sent in _sentences(text):
        low = sent.lower()
        if "dated" in low:
            _references(f, sent, low)
        if f.is_amendment:
            if "agreement" in low and any(w in low for w in ("deleted", "removed", "revoked", "struck")):
                for dm in _DELETES.finditer(sent):
                    eff = _WITH_EFFECT.search(sent)
                    f.deletes.append((dm.group("num"), (dm.group("heading") or "").strip(),
                                      parse_date(eff.group(1)) if eff else None))
            if "term" in low and "extended" in low and (em := _EXPIRES_ON.search(sent)):
                f.extends_to = parse_date(em.group(1))
        elif not renews and f.ends is None and ("expire" in low or "terminat" in low):
            _own_term(f, sent)
    return f


def _references(f: AgreementFacts, sent: str, low: str) -> None:
    """'the Supply Agreement dated 2 February 2021 (the "Agreement")' in an amendment's recitals; in a letter,
    'the ... Agreement ... dated 1 March 2019 expired ... on 28 February 2022'."""
    for ref in _REFERENCE.finditer(sent):
        d = parse_date(ref.group("date"))
        if d is None:
            continue
        kind, parties = _kind(ref.group("title")), _parties(ref.group("parties") or "")
        if f.is_amendment:
            if '(the "agreement")' in low.replace("\u201c", '"').replace("\u201d", '"'):
                f.refers_to.append((kind, d, parties))
            continue
        tail = sent[ref.end():]
        if ended := _ENDED.search(tail):
            om = _ON_DATE.search(tail, ended.end())
            f.ended.append((kind, d, parties, parse_date(om.group(1)) if om else None))


def _own_term(f: AgreementFacts, sent: str) -> None:
    """A fixed term read off the agreement's own duration clause (callers skip auto-renewing agreements)."""
    m = _FIXED_TERM.search(sent)
    n = _count(m.group("n"), m.group("d")) if m else None
    if n and f.dated:
        f.ends = add_period(f.dated, n, m.group("unit"))
        return
    em = _EXPIRES_ON.search(sent)
    # the subject that ends is the agreement or its term, not a period of it ("the first Calendar Year of the Term
    # shall begin on the Effective Date and end on December 31, 2019")
    subj = [s for s in re.finditer(r"\b(?:this\s+Agreement|the\s+Term|Initial\s+Term)\b", sent[:em.start()] if em else "", re.I)
            if not WITHIN_TERM.search(sent, max(0, s.start() - 40), s.start())]
    if em and subj and (d := parse_date(em.group(1))):
        f.ends = d


def _find(facts: list[AgreementFacts], src: AgreementFacts, kind: str, dated: date, parties: set[str]) -> list[AgreementFacts]:
    """The agreements a reference names: same date and kind; where several remain, those sharing most party names."""
    cands = [t for t in facts if t is not src and not t.is_amendment and not t.ended and t.dated == dated
             and not (kind and t.kind and kind != t.kind)]
    if len(cands) <= 1:
        return cands
    overlap = {t.document_id: len((parties or src.parties) & t.parties) for t in cands}
    best = max(overlap.values())
    return [t for t in cands if overlap[t.document_id] == best] if best else []


@dataclass
class NotLive:
    """Why a document's provisions (or one section of it) no longer bind."""

    reason: str
    section: str = ""  # empty: the whole agreement


def room_status(facts: list[AgreementFacts], as_of: date) -> dict[str, list[NotLive]]:
    """document id -> what of it is not live on `as_of`.

    An amendment's new end date replaces the agreement's own; a letter stating that the agreement
    ended is the most direct evidence and is applied last."""
    out: dict[str, list[NotLive]] = {}
    ends = {f.document_id: (f.ends, f"its fixed term ended on {_fmt(f.ends)} and the room holds no renewal or extension"
                            if f.ends else "") for f in facts}
    for amend in (f for f in facts if f.is_amendment and f.refers_to):
        for t in (t for kind, dated, parties in amend.refers_to for t in _find(facts, amend, kind, dated, parties)):
            if amend.extends_to:
                ends[t.document_id] = (amend.extends_to, f"extended by {amend.path} to {_fmt(amend.extends_to)}")
            for section, heading, effective in amend.deletes:
                if effective is None or effective <= as_of:
                    label = f"Section {section}" + (f" ({heading})" if heading else "")
                    out.setdefault(t.document_id, []).append(
                        NotLive(f"{label} was deleted by {amend.path}"
                                + (f" with effect from {_fmt(effective)}" if effective else ""), section=section))
    for src in facts:
        for kind, dated, parties, on in src.ended:
            when = on or src.latest_date
            for t in _find(facts, src, kind, dated, parties) if when and when <= as_of else []:
                ends[t.document_id] = (when, f"{src.path} states that it ended on {_fmt(when)}")
    for doc_id, (end, why) in ends.items():
        if end and end < as_of:
            out.setdefault(doc_id, []).insert(0, NotLive(f"the agreement is no longer in force: {why}"))
    return out


def section_at(text: str, offset: int) -> str:
    """Number of the numbered section ('6.1') whose heading line comes last before `offset`."""
    best = ""
    for m in _SECTION_LINE.finditer(text):
        if m.start() > offset:
            break
        best = m.group(1)
    return best


def _within(section: str, deleted: str) -> bool:
    return section == deleted or section.startswith(deleted + ".")


def quote_section(text: str, start: int, end: int) -> str:
    """The section a quote belongs to: the most specific one it touches, so a quote that opens with its
    parent heading ("6. COMMERCIAL TERMS 6.1 Exclusive Supply. ...") counts as 6.1."""
    touched = [section_at(text, start)] + [m.group(1) for m in _SECTION_LINE.finditer(text, start, end)]
    touched = [t for t in touched if t]
    return max(touched, key=lambda t: t.count("."), default="")


def not_live_reason(f: Finding, text: str, status: list[NotLive]) -> str:
    """The reason a finding's provision is not live, or '' when it is."""
    section = None
    for s in status:
        if not s.section:
            return s.reason
        if section is None:
            section = quote_section(text, f.citation.char_start, f.citation.char_end)
        if _within(section, s.section):
            return s.reason
    return ""
