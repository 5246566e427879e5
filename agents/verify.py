"""Quote verification: the memo cites only findings whose quote is in the source.

Every finding from every sub-agent (offline or LLM) passes through
`verify_finding` before it is stored; a quote that cannot be located is kept,
marked unverified, and never counted as a finding of the memo.
"""

from __future__ import annotations

from bisect import bisect_right

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


def verify_finding(finding: Finding, document_text: str, chunks: list[Chunk] | None = None) -> Finding:
    """Locate the quote in the cited document; fix the citation's span, chunk and page from the located span.

    The cited span is tried first (a sub-agent that gave one is usually right), then the cited
    chunk's start as a hint, then the whole text. Returns a new Finding; `verified` says whether it was found.
    """
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
    citation = c.model_copy(update={"char_start": start, "char_end": end})
    chunk = _chunk_at(ordered, start) if ordered else None
    if chunk is not None:
        citation.chunk_id = chunk.id
        citation.page = _page_at(chunk, start, document_text)
    return finding.model_copy(update={"verified": True, "citation": citation})


def verify_all(findings: list[Finding], document_text: str, chunks: list[Chunk]) -> list[Finding]:
    return [verify_finding(f, document_text, chunks) for f in findings]
