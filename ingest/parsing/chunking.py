"""Document text and title-aware chunks with exact character offsets.

Document text is the elements' texts joined by "\\n\\n" (a blank line reads
as a paragraph break to people and to models). Every chunk is a contiguous
slice of that text, so `doc_text[c.char_start:c.char_end] == c.text` holds by
construction and any quote found in a chunk maps back to the document.

We chunk over unstructured's elements ourselves instead of calling
`chunk_by_title`, whose output texts are re-joined and re-split so that their
offsets would have to be searched for afterwards; the rules are the same:
a Title starts a new chunk unless the current one is shorter than
`combine_under`, a chunk closes once it passes `new_after` characters and
never exceeds `max_chars` (oversized elements are split at whitespace).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from core.text import count_tokens
from core.types import Chunk

SEPARATOR = "\n\n"


class Element(BaseModel):
    """The parts of an unstructured element that ingest keeps."""

    text: str = Field(description="The element's text.")
    category: str = Field("Text", description="unstructured category: Title, NarrativeText, Table, ...")
    page: int = Field(1, description="1-based page (slide, sheet) number.")


class Span(BaseModel):
    start: int
    end: int
    category: str
    page: int


def build_text(elements: list[Element]) -> tuple[str, list[Span]]:
    """Join non-blank element texts with SEPARATOR; return the text and each element's span."""
    parts: list[str] = []
    spans: list[Span] = []
    pos = 0
    for el in elements:
        # NUL never means anything in a document's text, and PostgreSQL (team mode) cannot store it in a quote
        t = el.text.replace("\x00", "").strip()
        if not t:
            continue
        if parts:
            parts.append(SEPARATOR)
            pos += len(SEPARATOR)
        parts.append(t)
        spans.append(Span(start=pos, end=pos + len(t), category=el.category, page=el.page))
        pos += len(t)
    return "".join(parts), spans


def _split_long(span: Span, text: str, max_chars: int) -> list[Span]:
    """Cut a span longer than max_chars at whitespace (hard cut when there is none)."""
    out: list[Span] = []
    s = span.start
    while span.end - s > max_chars:
        limit = s + max_chars
        cut = max(text.rfind(" ", s + 1, limit), text.rfind("\n", s + 1, limit))
        if cut <= s:
            cut = limit
        end = cut
        while end > s and text[end - 1].isspace():
            end -= 1
        out.append(Span(start=s, end=end, category=span.category, page=span.page))
        s = cut
        while s < span.end and text[s].isspace():
            s += 1
    if s < span.end:
        out.append(Span(start=s, end=span.end, category=span.category, page=span.page))
    return out


def chunk_spans(
    document_id: str,
    text: str,
    spans: list[Span],
    max_chars: int = 2000,
    new_after: int = 1500,
    combine_under: int = 300,
) -> list[Chunk]:
    pieces = [p for sp in spans for p in _split_long(sp, text, max_chars)]
    groups: list[list[Span]] = []
    cur: list[Span] = []
    for p in pieces:
        if cur:
            length = cur[-1].end - cur[0].start
            if (
                (p.category == "Title" and length >= combine_under)
                or p.end - cur[0].start > max_chars
                or length >= new_after
            ):
                groups.append(cur)
                cur = []
        cur.append(p)
    if cur:
        groups.append(cur)
    chunks: list[Chunk] = []
    for i, g in enumerate(groups):
        start, end = g[0].start, g[-1].end
        body = text[start:end]
        types = list(dict.fromkeys(p.category for p in g))
        chunks.append(
            Chunk(
                document_id=document_id,
                index=i,
                text=body,
                page=g[0].page,
                page_end=max(p.page for p in g),
                element_types=types,
                char_start=start,
                char_end=end,
                tokens=count_tokens(body),
            )
        )
    return chunks
