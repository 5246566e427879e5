"""Load plain-text documents into a room's real manifest and Chroma store, skipping file parsing.

For tests and benchmarks of the harness, where what matters is the room the
agents see, not how its files were partitioned: documents become one chunk
per blank-line separated paragraph (offsets into the text, as ingest
guarantees), embedded with settings.embedding.model ('hash' keeps it instant).
"""

from __future__ import annotations

import hashlib
import multiprocessing

from pydantic import SecretStr

from core.settings import Settings
from core.text import count_tokens
from core.types import Chunk, Document


def paragraphs_to_chunks(doc_id: str, text: str, chunk_chars: int = 1500) -> list[Chunk]:
    """Paragraphs merged up to `chunk_chars`; each chunk is exactly text[char_start:char_end]."""
    spans, pos = [], 0
    for para in text.split("\n\n"):
        start = text.index(para, pos)
        pos = start + len(para)
        if para.strip():
            spans.append([start, pos])
    merged: list[list[int]] = []
    for s, e in spans:
        if merged and e - merged[-1][0] <= chunk_chars:
            merged[-1][1] = e
        else:
            merged.append([s, e])
    return [Chunk(document_id=doc_id, index=i, text=text[s:e], page=1, page_end=1, char_start=s, char_end=e,
                  tokens=count_tokens(text[s:e])) for i, (s, e) in enumerate(merged)]


def load_text_room(settings: Settings, room: str, texts: dict[str, str], chunk_chars: int = 1500) -> list[Document]:
    """Write `texts` ({room path: text}) as parsed documents of `room`; returns the documents."""
    from ingest.index.embed import get_embedder
    from ingest.index.manifest import Manifest
    from ingest.index.store import RoomStore

    manifest = Manifest(settings, room)
    store = RoomStore(settings, room, embedder=get_embedder(settings))
    docs = []
    for path, text in texts.items():
        raw = text.encode("utf-8")
        doc = Document(room=room, path=path, doc_type="txt", size_bytes=len(raw),
                       sha256=hashlib.sha256(raw).hexdigest(), pages=1, tokens=count_tokens(text), chars=len(text))
        chunks = paragraphs_to_chunks(doc.id, text, chunk_chars)
        manifest.write_parsed(doc, text, chunks)
        store.add(doc, chunks, store.embedder.embed([c.text for c in chunks]))
        docs.append(doc)
    return docs


def _load_in_child(settings: Settings, room: str, texts: dict[str, str], chunk_chars: int) -> list[dict]:
    docs = load_text_room(settings, room, texts, chunk_chars)
    return [d.model_dump(mode="json") for d in docs]


def load_text_room_keyless(settings: Settings, room: str, texts: dict[str, str],
                           chunk_chars: int = 1500) -> list[Document]:
    """load_text_room in a fresh process that never held the model endpoint's key.

    Chroma's HNSW persistence writes freed heap into length.bin; indexing in a process that has sent
    model requests can leave an "authorization: Bearer ..." header in the workspace (the app's ingest job
    is a keyless process for the same reason, app/background/jobs.py).
    """
    keyless = settings.model_copy(update={"llm": settings.llm.model_copy(update={"api_key": SecretStr("")})})
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        dumped = pool.apply(_load_in_child, (keyless, room, texts, chunk_chars))
    return [Document.model_validate(d) for d in dumped]
