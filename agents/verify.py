"""Quote verification: the memo cites only findings whose quote is in the source and backs the claim.

Every finding from every sub-agent (offline or LLM) passes through
`verify_finding` before it is stored; a quote that cannot be located is kept,
marked unverified, and never counted as a finding of the memo. Being in the
source is not enough: a small model asked for a clause that is not there
writes "the document does not contain X" and quotes any line that is
("Effective Date"). So a quote must also share a content word with its
summary (`quote_backs_claim`), and a summary that only claims absence is a
"not found" answer, never a finding (`claims_absence`). Both apply to summaries
a model wrote (extra["summary_by"] == "model", set by agents.llm.sub): the
offline reviewer's summaries are labels of the item it classified the quote
as ("The agreement sets its term, renewal and notice periods"), not claims
about the quote's words: 20 of 263 and 21 of 217 of its findings on the two halves
of 15 CUAD contracts each share no word with that label (python -m
devtools.claim_check --half dev|held), which says nothing about those findings.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from agents.facts.outline import section_label
from core.text import locate_quote
from core.types import Chunk, Finding


def _chunk_at(chunks: list[Chunk], offset: int) -> Chunk | None:
    starts = [c.char_start for c in chunks]
    i = bisect_right(starts, offset) - 1
    if 0 <= i < len(chunks) and chunks[i].char_start <= offset < max(chunks[i].char_end, chunks[i].char_start + 1):
        return chunks[i]
    return None


def _page_at(chunk: Chunk, offset: int, document_text: str) -> int:
    """Page of an offset inside a chunk: form feeds mark page breaks when the text has them."""
    if chunk.page_end <= chunk.page:
        return chunk.page
    breaks = document_text.count("\f", chunk.char_start, offset)
    return min(chunk.page + breaks, chunk.page_end)


_WORD = re.compile(r"[a-z][a-z0-9]{2,}")
# function words and words every contract has: sharing "agreement" or "party" says nothing about the claim
_STOP = frozenset("""
the and for are but not nor yet with from into onto upon than then that this these those there their them they
its his her our your you she him who whom which what when where why how any all each both either neither such
other some more most less least only own same very can could may might must shall should will would has have
had having was were been being does did doing done also just about above after again against below between
during before under over further once here hereof herein hereto hereunder thereof therein thereto whereas
per via out off own any one two three its it's agreement agreements party parties document documents contract
contracts clause clauses section sections provision provisions article said hereby
""".split())
_ABSENCE = re.compile(
    r"\b(?:document|agreement|contract|text|chunk|section|it|this)\s+(?:does|did)\s*(?:not|n't)\s+"
    r"(?:contain|include|mention|address|have|specify|provide|reference|discuss|state|say)"
    r"|\bno\s+(?:mention|reference|information|evidence|indication)\s+(?:of|about|regarding|to)\b"
    r"|\bthere\s+(?:is|are|was|were)\s+no\s+(?:[\w-]+\s+){0,4}?(?:clause|provision|mention|reference|language|"
    r"information|section|term)s?\b"
    r"|\b(?:clause|provision|information|item|language)s?\s+(?:is|are|was|were)\s+not\s+(?:found|present|included|"
    r"mentioned|specified|addressed|identified|stated)"
    r"|\bnot\s+(?:found|mentioned|present|specified|addressed|identified)\s+in\s+(?:the|this)\b"
    r"|\bis\s+silent\s+(?:on|about|as\s+to|regarding)\b"
    r"|^\W*(?:not\s+found|none|n/?a|not\s+applicable|no\s+such\s+clause)\W*$",
    re.I,
)


def content_words(text: str) -> set[str]:
    """Lower-cased words that carry meaning, cut to 5 letters so 'assign' meets 'assignment'."""
    return {w[:5] for w in _WORD.findall(text.lower()) if w not in _STOP}


def quote_backs_claim(quote: str, summary: str) -> bool:
    """True when the quote shares a content word with the summary's claim (or the summary has none to share)."""
    claim = content_words(summary)
    return not claim or bool(claim & content_words(quote))


def claims_absence(text: str) -> bool:
    """True when the text says the item is not in the document ('the document does not contain X')."""
    return bool(_ABSENCE.search(text or ""))


def claim_problem(finding: Finding) -> str:
    """Why a model-written finding's quote does not back its summary ('' when it does, or not model-written)."""
    if finding.extra.get("summary_by") != "model":
        return ""
    if claims_absence(finding.summary):
        return "the summary says the item is absent: a 'not found' answer, not a finding"
    if not quote_backs_claim(finding.quote, finding.summary):
        return "the quote shares no content word with the summary"
    return ""


def verify_finding(finding: Finding, document_text: str, chunks: list[Chunk] | None = None) -> Finding:
    """Locate the quote in the cited document; fix the citation's span, chunk and page from the located span.

    The cited span is tried first (a sub-agent that gave one is usually right), then the cited
    chunk's start as a hint, then the whole text. Returns a new Finding; `verified` says whether it was found
    and backs the summary (a quote that shares no content word with its summary, or a summary claiming the
    item is absent, is kept unverified whatever the text holds).
    """
    why = claim_problem(finding)
    if why:
        return finding.model_copy(update={"verified": False, "extra": {**finding.extra, "unverified": why}})
    c = finding.citation
    ordered = sorted(chunks or [], key=lambda ch: ch.char_start)
    hint = c.char_start if c.char_start >= 0 else 0
    if c.char_start < 0:
        cited = next((ch for ch in ordered if ch.id == c.chunk_id), None)
        hint = cited.char_start if cited else 0
    span = locate_quote(finding.quote, document_text, start_hint=hint)
    if span is None:
        return finding.model_copy(update={"verified": False})
    start, end = span
    citation = c.model_copy(update={"char_start": start, "char_end": end,
                                    "section": section_label(document_text, start, end)})
    chunk = _chunk_at(ordered, start) if ordered else None
    if chunk is not None:
        citation.chunk_id = chunk.id
        citation.page = _page_at(chunk, start, document_text)
    return finding.model_copy(update={"verified": True, "citation": citation})


def verify_all(findings: list[Finding], document_text: str, chunks: list[Chunk]) -> list[Finding]:
    return [verify_finding(f, document_text, chunks) for f in findings]
