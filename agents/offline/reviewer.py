"""The built-in reviewer: used by the sub-agents when no LLM endpoint is configured.

Per chunk, the text is cut into clause units; the trained classifier scores
each unit for every CUAD category it knows, the item's clause patterns gate
the score, and a unit at or over the category's cross-validated threshold
becomes a finding. Checklist items without a CUAD category are found by their
patterns alone. Every quote is a unit taken verbatim from the chunk and
checked with core.text.locate_quote before it is marked verified.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
from pydantic import BaseModel, Field

from agents.offline.clauses.conditions import detect, severity_for, summarize
from agents.offline.fact_findings import FACT_CATEGORIES, fact_passages
from agents.offline.lead_in import grow_lead_in
from agents.offline.model import DEFAULT_MODEL_PATH, MIN_PROB, ReviewerModel, document_scores, top_units
from agents.offline.patterns import ITEM_PATTERNS, excluded, gate
from agents.offline.units import headings_only, legend_only, unit_spans, whole_sentence
from core.text import count_tokens, locate_quote
from core.types import ChecklistItem, Chunk, Citation, Document, Finding, Severity

AGENT = "offline"
MAX_QUOTES_PER_ITEM = 3


class ReviewStats(BaseModel):
    """What one review call read and how long it took."""

    chunks: int = Field(0, description="Chunks read.")
    units: int = Field(0, description="Clause units scored.")
    tokens: int = Field(0, description="Tokens read (sum over chunks).")
    chars: int = Field(0, description="Characters read.")
    pages: int = Field(0, description="Distinct pages the chunks span.")
    findings: int = Field(0, description="Findings returned.")
    seconds: float = Field(0.0, description="Wall time of the call.")
    cpu_seconds: float = Field(0.0, description="CPU time of the call (this process); the speed measure on a shared machine.")


class _Unit:
    __slots__ = ("chunk", "start", "end", "text")

    def __init__(self, chunk: Chunk, start: int, end: int):
        self.chunk, self.start, self.end = chunk, start, end
        self.text = chunk.text[start:end]


class OfflineReviewer:
    """Deterministic CPU reviewer with the LLM sub-agent's interface."""

    def __init__(self, model_path: Path | str | None = None, max_quotes_per_item: int = MAX_QUOTES_PER_ITEM,
                 model: ReviewerModel | None = None):
        self.model = model or _load_cached(Path(model_path or DEFAULT_MODEL_PATH))
        self.max_quotes = max_quotes_per_item
        self.last_stats = ReviewStats()

    def review(self, document: Document, chunks: list[Chunk], items: list[ChecklistItem]) -> list[Finding]:
        t0, c0 = time.perf_counter(), time.process_time()
        units = [_Unit(c, s, e) for c in chunks for s, e in unit_spans(c.text) if not legend_only(c.text[s:e])]
        texts = [u.text for u in units]
        probs = self.model.gated_probs(texts)
        cat_index = {c: j for j, c in enumerate(self.model.categories)}
        doc_text_hint = "\n".join(c.text for c in chunks)
        findings: list[Finding] = []
        for item in items:
            if not item.enabled:
                continue
            cols = [cat_index[c] for c in item.cuad_categories if c in cat_index]
            facts = [c for c in item.cuad_categories if c in FACT_CATEGORIES]
            if facts:
                findings += self._fact_findings(document, item, chunks, facts)
            if cols:
                picked = self._classified(item, units, probs, cols)
            else:
                picked = self._pattern_only(item, units, doc_text_hint)
            for unit, conf, cuad in picked:
                f = self._finding(document, item, unit, conf, cuad)
                if f is not None:
                    findings.append(f)
        self.last_stats = ReviewStats(
            chunks=len(chunks), units=len(units), tokens=sum(c.tokens or count_tokens(c.text) for c in chunks),
            chars=sum(len(c.text) for c in chunks),
            pages=len({p for c in chunks for p in range(c.page, max(c.page, c.page_end) + 1)}),
            findings=len(findings), seconds=time.perf_counter() - t0, cpu_seconds=time.process_time() - c0,
        )
        return findings

    # -- selection ---------------------------------------------------------
    def _classified(self, item, units, probs, cols) -> list[tuple[_Unit, float, list[str]]]:
        if not units:
            return []
        cats = self.model.categories
        # No threshold sits under MIN_PROB: gated_probs has zeroed those scores already.
        th = np.array([max(MIN_PROB, self.model.thresholds.get(cats[j], 1.01)) for j in cols])
        sub = probs[:, cols]
        # Rank by how far a unit clears its category's threshold, so categories
        # with different base rates compete fairly for the item's quote slots.
        ratio = sub / th[None, :]
        # A category the document holds (document_scores, the decision the thresholds were chosen
        # for) is quoted by the units that decide it: every unit that clears the threshold alone,
        # else the fewest of its DOC_TOP_K best whose noisy-or does. Quoting all of the best units
        # would add weak neighbours (a reviewer reads them as noise) to one clear clause.
        cleared = document_scores(sub) >= th
        top = top_units(sub)
        top_p = np.take_along_axis(sub, top, axis=0)
        enough = 1.0 - np.cumprod(1.0 - top_p, axis=0) >= th[None, :]
        needed = np.where(enough.any(axis=0), np.argmax(enough, axis=0) + 1, len(top))
        decides = (top_p > 0) & cleared[None, :] & (np.arange(len(top))[:, None] < needed[None, :])
        stands = ratio >= 1.0
        np.put_along_axis(stands, top, np.take_along_axis(stands, top, axis=0) | decides, axis=0)
        # A unit of headings only says what a section is about, not what it provides: it is quoted only
        # when nothing else stands for its category (the category is still reported).
        title = np.zeros((len(units), 1), dtype=bool)
        for i in np.nonzero(stands.any(axis=1))[0]:
            title[i] = headings_only(units[i].text)
        stands[title & (stands & ~title).any(axis=0)] = False
        best = np.where(stands, ratio, 0.0).max(axis=1)
        order = sorted((i for i in range(len(units)) if stands[i].any()), key=lambda i: (-best[i], i))
        out = []
        for i in order[: self.max_quotes]:
            hit = [cats[j] for k, j in enumerate(cols) if stands[i, k]]
            out.append((units[i], float(sub[i][stands[i]].max()), hit))
        pats = ITEM_PATTERNS.get(item.id)
        if pats is not None and pats.strong and len(out) < self.max_quotes:
            # Unambiguous wording reports even where the classifier (few examples) is unsure.
            taken = {id(u) for u, _, _ in out}
            for i, u in enumerate(units):
                if len(out) >= self.max_quotes:
                    break
                if id(u) not in taken and gate(item.id, u.text) and any(p.search(u.text) for p in pats.strong):
                    # Tag the category the classifier leans to (an employee non-solicit is not one
                    # of customers); all of the item's when it has no opinion.
                    k = int(np.argmax(ratio[i]))
                    lean = [cats[cols[k]]] if ratio[i, k] > 0 else [cats[j] for j in cols]
                    out.append((u, 0.6, lean))
        return out

    def _pattern_only(self, item, units, doc_text) -> list[tuple[_Unit, float, list[str]]]:
        pats = ITEM_PATTERNS.get(item.id)
        if pats is None or not pats.strong:
            return []
        if pats.context and not any(p.search(doc_text) for p in pats.context):
            return []
        scored = []
        for i, u in enumerate(units):
            n = sum(1 for p in pats.strong if p.search(u.text))
            if n and not excluded(item.id, u.text) and not headings_only(u.text):
                scored.append((-n, i))
        scored.sort()
        return [(units[i], min(0.95, 0.6 + 0.1 * -n), []) for n, i in scored[: self.max_quotes]]

    def _fact_findings(self, document, item, chunks, categories) -> list[Finding]:
        out = []
        for chunk, a, b, cats, summary in fact_passages(chunks, categories):
            f = self._finding(document, item, _Unit(chunk, a, b), 0.9, cats)
            if f is not None:
                out.append(f.model_copy(update={"summary": summary, "severity": Severity.info}))
        return out

    def _finding(self, document, item, unit: _Unit, conf: float, cuad: list[str]) -> Finding | None:
        # the classifier scored one printed line of the PDF; the lawyer reads, and the summary is written from,
        # the whole sentence it belongs to
        unit = _Unit(unit.chunk, *whole_sentence(unit.chunk.text, unit.start, unit.end))
        if excluded(item.id, flat(unit.text)):
            return None  # the line said "the exclusive"; its sentence says "the exclusive property of Erchonia"
        loc = locate_quote(unit.text, unit.chunk.text, start_hint=unit.start)
        if loc is None:
            return None  # cannot happen for a verbatim unit; never report an unverifiable quote
        conditions = detect(unit.text)
        severity, _ = severity_for(item, unit.text)
        extra = {"cuad": "; ".join(cuad)} if cuad else {}
        if conditions:
            extra["conditions"] = ", ".join(conditions)
        return Finding(
            category=item.id,
            severity=severity,
            summary=summarize(item, unit.text, conditions, cuad),
            quote=unit.text,
            citation=Citation(
                document_id=document.id, document_path=document.path, page=_page_of(unit),
                chunk_id=unit.chunk.id, char_start=unit.chunk.char_start + loc[0],
                char_end=unit.chunk.char_start + loc[1],
            ),
            verified=True,
            agent=AGENT,
            confidence=round(min(1.0, max(0.0, conf)), 4),
            extra=extra,
        )


def flat(text: str) -> str:
    """A quote as the look-alike patterns are written: single spaces, and a word a PDF line break hyphenated
    joined again ("non- exclusive" is "non-exclusive")."""
    return re.sub(r"(?<=\w)- (?=\w)", "-", " ".join(text.split()))


def _page_of(unit: _Unit) -> int:
    # Chunks know their first and last page only; interpolate by position.
    c = unit.chunk
    if c.page_end <= c.page or not c.text:
        return c.page
    return c.page + int((c.page_end - c.page + 1) * unit.start / len(c.text))


_MODELS: dict[Path, ReviewerModel] = {}


def _load_cached(path: Path) -> ReviewerModel:
    # Many sub-agents share one reviewer model; load it once per process.
    if path not in _MODELS:
        _MODELS[path] = ReviewerModel.load(path)
    return _MODELS[path]


def restate(findings: list[Finding], items: list[ChecklistItem], parties: list) -> list[Finding]:
    """The reviewer's findings with summaries that name the agreement's own parties ("Distributor", "Cisco"):
    a sub-agent reading a slice of a long document has no preamble, so the harness, which has read the
    document's facts, restates them. `parties`: agents.facts.Party (name, role, aliases)."""
    if not parties:
        return findings
    by_id = {i.id: i for i in items}
    out = []
    for f in findings:
        item = by_id.get(f.category)
        # a fact's summary states the value read (a date, the parties), not a clause to restate
        facts = item is not None and any(c in FACT_CATEGORIES for c in item.cuad_categories)
        out.append(f if item is None or facts else f.model_copy(update={"summary": summarize(item, f.quote, [], [], parties)}))
    return out


def complete_sentences(findings: list[Finding], text: str, chunks: list[Chunk],
                       items: list[ChecklistItem]) -> list[Finding]:
    """Quotes the reviewer had to stop at the edge of its chunk, grown to their whole sentence in the document
    text (the reviewer reads chunks; a sentence such as "... except that either Party may assign (a) to an
    Affiliate ... or (b) to a buyer of its business" can run on into the next one, and cut there it reads as the
    opposite), and quotes that stop at a colon grown over the list it introduces (agents.offline.lead_in). The
    grown quote is read again: severity and sentence follow it, and a look-alike is dropped."""
    edges = {c.char_start for c in chunks} | {c.char_end for c in chunks}
    by_id = {i.id: i for i in items}
    out = []
    for f in findings:
        c, item = f.citation, by_id.get(f.category)
        facts = item is not None and any(k in FACT_CATEGORIES for k in item.cuad_categories)
        if item is None or facts or c.char_start < 0:
            out.append(f)
            continue
        s, e = c.char_start, c.char_end
        if {s, e} & edges:
            s, e = whole_sentence(text, s, e)
            s, e = min(s, c.char_start), max(e, c.char_end)
        e = grow_lead_in(text, s, e)  # "except:" with the "(a) ...; or (b) ..." it introduces
        if (s, e) == (c.char_start, c.char_end):
            out.append(f)
            continue
        quote = text[s:e]
        if excluded(item.id, flat(quote)):
            continue
        severity, _ = severity_for(item, quote)
        conditions = detect(quote)
        extra = {k: v for k, v in f.extra.items() if k != "conditions"}
        if conditions:
            extra["conditions"] = ", ".join(conditions)
        out.append(Finding.model_validate(f.model_dump() | {
            "id": "", "quote": quote, "severity": severity, "summary": summarize(item, quote, conditions, []),
            "extra": extra, "citation": c.model_dump() | {"char_start": s, "char_end": e}}))
    return out
