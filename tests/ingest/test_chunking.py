"""Chunk offsets index the document text exactly; titles start chunks; bounds hold."""

from __future__ import annotations

import random

from ingest.parsing.chunking import SEPARATOR, Element, build_text, chunk_spans


def _check(text, chunks, max_chars):
    assert [c.index for c in chunks] == list(range(len(chunks)))
    for c in chunks:
        assert text[c.char_start : c.char_end] == c.text
        assert len(c.text) <= max_chars
        assert c.text == c.text.strip()
    # chunks cover every element's text, in order, without overlap
    assert all(a.char_end <= b.char_start for a, b in zip(chunks, chunks[1:]))


def test_text_is_elements_joined_by_blank_line():
    els = [Element(text=" Title ", category="Title"), Element(text="   "), Element(text="Body text.", page=2)]
    text, spans = build_text(els)
    assert text == "Title" + SEPARATOR + "Body text."
    assert [(s.start, s.end, s.page) for s in spans] == [(0, 5, 1), (7, 17, 2)]


def test_titles_start_chunks_and_short_sections_merge():
    els = [
        Element(text="1. Definitions", category="Title"),
        Element(text="Short.", category="NarrativeText"),
        Element(text="2. Assignment", category="Title"),
        Element(text="A" * 400, category="NarrativeText", page=2),
        Element(text="3. Term", category="Title", page=3),
        Element(text="The term is five years.", category="NarrativeText", page=3),
    ]
    text, spans = build_text(els)
    chunks = chunk_spans("d", text, spans, max_chars=2000, new_after=1500, combine_under=300)
    _check(text, chunks, 2000)
    # the short first section merged into the second; the third starts at its title
    assert len(chunks) == 2
    assert chunks[0].text.startswith("1. Definitions") and "2. Assignment" in chunks[0].text
    assert chunks[1].text.startswith("3. Term")
    assert (chunks[0].page, chunks[0].page_end) == (1, 2)
    assert chunks[0].element_types == ["Title", "NarrativeText"]


def test_long_elements_split_at_whitespace_within_bounds():
    rng = random.Random(3)
    words = ["clause", "party", "shall", "agreement", "consent", "x" * 30]
    els = []
    for i in range(40):
        body = " ".join(rng.choice(words) for _ in range(rng.randint(1, 700)))
        els.append(Element(text=body, category=rng.choice(["Title", "NarrativeText", "ListItem"]), page=i // 5 + 1))
    els.append(Element(text="y" * 5000))  # no whitespace at all: hard cuts
    text, spans = build_text(els)
    for max_chars, new_after, combine in [(2000, 1500, 300), (500, 400, 100), (120, 100, 0)]:
        chunks = chunk_spans("d", text, spans, max_chars, new_after, combine)
        _check(text, chunks, max_chars)
        covered = "".join(text[c.char_start : c.char_end] for c in chunks)
        assert "".join(covered.split()) == "".join(text.split())


def test_chunk_ids_are_stable():
    text, spans = build_text([Element(text="Same text.")])
    a = chunk_spans("doc", text, spans)
    b = chunk_spans("doc", text, spans)
    assert a[0].id == b[0].id and a[0].id != chunk_spans("other", text, spans)[0].id


def test_nul_characters_never_reach_the_text():
    # a PDF's text layer can carry NUL; PostgreSQL (team mode) refuses it in a quote, and it means nothing to a reader
    text, spans = build_text([Element(text="Gov\x00erning law.\x00", category="NarrativeText", page=1),
                              Element(text="\x00", category="NarrativeText", page=1)])
    assert text == "Governing law." and len(spans) == 1
