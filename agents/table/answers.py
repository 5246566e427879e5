"""Typed answers: one per document and column, each with the passage(s) it stands on, or "not found".

Pure functions over what a review already produced: the document's agreement facts (agents.facts,
cached per document by the harness), the run's citable findings of the document, and its text. Nothing
is invented: a value is read from a quoted passage whose span indexes the document text, a yes/no
column says "yes" only on a finding, and a reviewer's own question without a model gets the best
passages of the document and says it needs a model to answer.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from enum import Enum

from pydantic import BaseModel, Field

from core.types import Finding

from agents.table.columns import AnswerType, Column, ColumnSource

MAX_QUOTES = 3
PASSAGES_ONLY = "passages only — needs a model to answer"
NOT_FOUND = "not found"
_FACT_QUOTE_MAX = 1500  # a preamble-long span is cut to the names it lists


class AnswerStatus(str, Enum):
    answered = "answered"
    not_found = "not found"
    passages_only = "passages only"


class Quote(BaseModel):
    """A verbatim passage of the document behind an answer."""

    text: str = Field(description="The passage, verbatim.")
    start: int = Field(description="Start offset in the document text.")
    end: int = Field(description="End offset in the document text.")
    page: int = Field(1, description="Page it is on (1 when unknown).")
    verified: bool = Field(description="The document text at [start, end) is this passage.")
    finding_id: str = Field("", description="The finding it comes from ('' for a fact or a search hit).")


class Answer(BaseModel):
    """One cell of the table."""

    document_id: str = Field(description="Row: the document.")
    column_id: str = Field(description="Column: the question.")
    status: AnswerStatus = Field(description="answered / not found / passages only.")
    value: str = Field("", description="The typed answer: 'yes'/'no', an ISO date, a duration, parties, a "
                                       "jurisdiction, an amount, a text; '' when not found or passages only.")
    quotes: list[Quote] = Field(default_factory=list, description="The passages it stands on.")
    confidence: float = Field(0.0, description="The reviewer's confidence (1.0 for a fact read from the text).")

    @property
    def verified(self) -> bool:
        """Every quote behind the answer was found at its span."""
        return bool(self.quotes) and all(q.verified for q in self.quotes)

    def display(self) -> str:
        """How a cell reads to a lawyer."""
        if self.status is AnswerStatus.passages_only:
            return PASSAGES_ONLY
        if self.status is AnswerStatus.not_found:
            return "No (not found)" if self.value == "no" else NOT_FOUND
        shown = {"yes": "Yes", "no": "No"}.get(self.value, self.value)
        # an answer whose passage was not found in the document is never shown as if it were
        return shown if self.verified or not self.quotes else f"{shown} (quote not verified)"


# ---------------------------------------------------------------- quotes
def span_quote(text: str, span: Iterable[int] | None, finding_id: str = "", page: int = 1) -> Quote | None:
    """The passage at `span` of the text, or None for an empty or impossible span."""
    s, e = tuple(span or (0, 0))[:2] or (0, 0)
    if not (0 <= s < e <= len(text)):
        return None
    return Quote(text=text[s:e], start=s, end=e, page=page, verified=True, finding_id=finding_id)


def finding_quote(f: Finding, text: str | None) -> Quote:
    """A finding's quote, checked against the document text when there is one."""
    c = f.citation
    ok = f.verified
    if text is not None:
        ok = 0 <= c.char_start < c.char_end <= len(text) and text[c.char_start:c.char_end].split() == f.quote.split()
    return Quote(text=f.quote, start=c.char_start, end=c.char_end, page=c.page, verified=ok, finding_id=f.id)


# ---------------------------------------------------------------- durations and amounts
_NUM_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
              "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "thirty": 30, "forty-five": 45,
              "forty five": 45, "sixty": 60, "ninety": 90, "a": 1, "an": 1, "one hundred twenty": 120,
              "one hundred eighty": 180}
_UNIT = {"day": "D", "business day": "D", "week": "W", "month": "M", "year": "Y"}
_DURATION = re.compile(
    r"(?i)\b(?P<n>\d{1,3}|one hundred (?:twenty|eighty)|forty[- ]five|" + "|".join(sorted(
        (w for w in _NUM_WORDS if " " not in w and "-" not in w), key=len, reverse=True)) +
    r")(?:\s*\((?P<d>\d{1,3})\))?[\s-]+(?P<u>business day|day|week|month|year)s?\b")
_RENEW = re.compile(r"(?i)renew|extend|successive|additional")
_NOTICE = re.compile(r"(?i)notice|notif|\bprior\b|in advance|before the (?:end|expir)")
_MONEY = re.compile(r"(?i)(?:US\s?)?(?:\$|USD|EUR|€|£|GBP)\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|thousand))?"
                    r"|\b\d[\d,]*(?:\.\d+)?\s?(?:million|billion)?\s?(?:dollars|euros|pounds)\b")


def durations(text: str) -> list[tuple[str, int, int]]:
    """('1 year (P1Y)', start, end) for each length of time the text states, in order."""
    out = []
    for m in _DURATION.finditer(text):
        raw = m.group("d") or m.group("n")
        n = int(raw) if raw.isdigit() else _NUM_WORDS.get(raw.lower().replace("-", " "), _NUM_WORDS.get(raw.lower()))
        if not n:
            continue
        unit = m.group("u").lower()
        words = f"{n} {unit}{'s' if n != 1 else ''}"
        out.append((f"{words} (P{n}{_UNIT[unit]})", m.start(), m.end()))
    return out


_SENTENCE = re.compile(r"[^.;]+[.;]?")


def renewal_term(text: str) -> tuple[str, int, int] | None:
    """(length of a renewal, start, end of the sentence stating it): the first duration in a sentence that renews
    or extends which is not a notice period."""
    for sentence in _SENTENCE.finditer(text):
        if _RENEW.search(sentence.group()):
            for value, _, e in durations(sentence.group()):
                tail = sentence.group()[e:e + 40]
                if not _NOTICE.search(tail) and "prior" not in tail.lower():
                    return value, *_trimmed(sentence)
    return None


def notice_period(text: str) -> tuple[str, int, int] | None:
    """(notice needed to stop a renewal, start, end of its sentence): a duration next to 'notice' in a sentence
    about renewal or the term."""
    for sentence in _SENTENCE.finditer(text):
        body = sentence.group()
        if not (_RENEW.search(body) or re.search(r"(?i)\bterm\b|expir", body)):
            continue
        for value, s, e in durations(body):
            # "ninety (90) days prior to", "upon 30 days' written notice", "notice of at least 60 days"
            if _NOTICE.search(body[e:e + 30]) or re.search(r"(?i)notice\W+(?:\w+\W+){0,3}$", body[max(0, s - 40):s]):
                return value, *_trimmed(sentence)
    return None


def _trimmed(sentence: re.Match) -> tuple[int, int]:
    lead = len(sentence.group()) - len(sentence.group().lstrip())
    return sentence.start() + lead, sentence.end()


def amount(text: str) -> str:
    m = _MONEY.search(text)
    return " ".join(m.group().split()) if m else ""


# ---------------------------------------------------------------- findings by column
def finding_cuad(f: Finding, item_cuad: dict[str, list[str]]) -> set[str]:
    """CUAD categories a finding answers: those the reviewer tagged on it (else all of its item's), and all of
    the categories of the other items the same passage answers (`also`)."""
    tagged = [c.strip() for c in f.extra.get("cuad", "").split(";") if c.strip()]
    out = set(tagged or item_cuad.get(f.category, []))
    for other in f.also:
        if other != f.category:
            out.update(item_cuad.get(other, []))
    return out


def findings_for(column: Column, findings: list[Finding], item_cuad: dict[str, list[str]]) -> list[Finding]:
    """The citable findings that answer a column, most confident first."""
    if column.source is ColumnSource.checklist:
        hit = [f for f in findings if column.item in f.items]
    elif column.source is ColumnSource.cuad:
        hit = [f for f in findings if column.cuad in finding_cuad(f, item_cuad)]
    else:
        hit = [f for f in findings if column.id in f.extra.get("columns", "").split(";")]
    return sorted(hit, key=lambda f: (-f.confidence, f.citation.char_start))


# ---------------------------------------------------------------- facts
def _party_value(parties: list[dict]) -> str:
    """'Cisco Systems, Inc. (“Cisco”); Ingram Micro Inc. (“Distributor”, “Ingram”)': each name with the defined
    terms the agreement gives it."""
    out = []
    for p in parties:
        name = (p.get("name") or "").strip()
        terms = [t.strip() for t in [p.get("role") or "", *(p.get("aliases") or [])] if t and t.strip() != name]
        terms = list(dict.fromkeys(t for t in terms if t))
        quoted = ", ".join(f"“{t}”" for t in terms)
        if name:
            out.append(f"{name} ({quoted})" if quoted else name)
        elif quoted:
            out.append(quoted)
    return "; ".join(out)


def _parties_span(facts: dict) -> tuple[int, int]:
    s, e = facts.get("parties_span") or (0, 0)
    if e - s <= _FACT_QUOTE_MAX:
        return s, e
    spans = [tuple(p.get("span") or (0, 0)) for p in facts.get("parties", [])]
    spans = [sp for sp in spans if sp[1] > sp[0]]
    return (min(a for a, _ in spans), max(b for _, b in spans)) if spans else (s, s + _FACT_QUOTE_MAX)


def _fact(column: Column, facts: dict, text: str) -> tuple[str, Quote | None] | None:
    """(value, quote) of a column the agreement facts answer; None for a column they do not."""
    name = column.cuad
    if name == "Parties":
        return _party_value(facts.get("parties", [])), span_quote(text, _parties_span(facts))
    key = {"Document Name": "title", "Agreement Date": "agreement_date", "Effective Date": "effective_date",
           "Expiration Date": "expiration", "Governing Law": "governing_law"}.get(name)
    if key is None:
        return None
    span = facts.get(f"{key}_span")
    return (" ".join(str(facts.get(key) or "").split()), span_quote(text, span))


TERM_WINDOW = 800  # characters after the term clause that its renewal and notice sentences are looked for in


def _duration_answer(column: Column, facts: dict, text: str, found: list[Finding]) -> tuple[str, list[Quote], float]:
    """Renewal term / notice period: read from the findings that answer the column, else from the sentences that
    follow the term clause the facts found; the quote is the finding, or the sentence that states it."""
    reader = renewal_term if column.cuad == "Renewal Term" else notice_period
    for f in found:
        hit = reader(f.quote)
        if hit:
            return hit[0], [finding_quote(f, text or None)], f.confidence
    ts, te = tuple(facts.get("term_span") or (0, 0))
    if 0 <= ts < te <= len(text):
        hit = reader(text[ts:te + TERM_WINDOW])
        if hit:
            q = span_quote(text, (ts + hit[1], ts + hit[2]))
            return hit[0], [q] if q else [], 0.5
    return "", [], 0.0


def answer_document(document_id: str, text: str, facts: dict | None, findings: list[Finding],
                    columns: list[Column], item_cuad: dict[str, list[str]],
                    search: Callable[[Column], list[Quote]] | None = None) -> list[Answer]:
    """Every column's answer for one document. `findings`: the document's citable findings; `facts`: its
    agents.facts.AgreementFacts as a dict (None before they were read); `search`: a reviewer's question ->
    the document's best passages (offline custom columns)."""
    facts = facts or {}
    out = []
    for col in columns:
        found = findings_for(col, findings, item_cuad)
        quotes = [finding_quote(f, text or None) for f in found[:MAX_QUOTES]]
        conf = max((f.confidence for f in found), default=0.0)
        value, status = "", AnswerStatus.answered
        if col.source is ColumnSource.custom and not found:
            quotes = search(col) if search else []
            status = AnswerStatus.passages_only
            conf = 0.0
        elif col.type in (AnswerType.parties, AnswerType.date, AnswerType.jurisdiction) or col.cuad == "Document Name":
            got = _fact(col, facts, text)
            if got is not None:
                value, q = got
                quotes, conf = ([q] if q and value else []), 1.0 if value else 0.0
        elif col.type is AnswerType.duration:
            value, quotes, conf = _duration_answer(col, facts, text, found)
        elif col.type is AnswerType.yes_no:
            value = "yes" if found else "no"
        elif col.type is AnswerType.amount:
            value = next((a for f in found if (a := amount(f.quote))), "")
        else:
            value = found[0].quote if found else ""
        if status is AnswerStatus.answered and (not value or (col.type is AnswerType.yes_no and not found)):
            status = AnswerStatus.not_found
            if col.type is not AnswerType.yes_no:
                value, quotes = "", []
        out.append(Answer(document_id=document_id, column_id=col.id, status=status, value=value,
                          quotes=quotes, confidence=round(conf, 4)))
    return out
