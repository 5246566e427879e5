"""The harness's view of an ingested room: manifest (documents, text, chunks) and search.

One adapter over the ingest layer's contract (docs/ARCHITECTURE.md) so nodes
never touch ingest internals, and so text is cached per document while a run
reviews it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from core.settings import Settings
from core.types import Chunk, Document, ParseStatus


class RoomView:
    def __init__(self, settings: Settings, room: str):
        from ingest.index.manifest import Manifest  # imported here: agents import ingest only where needed

        self.settings = settings
        self.room = room
        self.manifest = Manifest(settings, room)
        self._search = None
        self._docs: dict[str, Document] | None = None
        self._parsed: list[Document] = []
        self.text = lru_cache(maxsize=64)(self._text)
        self.chunks = lru_cache(maxsize=64)(self._chunks)

    def _by_id(self) -> dict[str, Document]:
        # the manifest does not change during a run (ingest and review are separate steps)
        if self._docs is None:
            self._docs = {d.id: d for d in sorted(self.manifest.documents(), key=lambda d: d.path)}
            self._parsed = [d for d in self._docs.values() if d.status == ParseStatus.parsed]
        return self._docs

    def documents(self) -> list[Document]:
        return list(self._by_id().values())

    def parsed(self) -> list[Document]:
        self._by_id()
        return list(self._parsed)

    def document(self, document_id: str) -> Document | None:
        return self._by_id().get(document_id)

    def _text(self, document_id: str) -> str:
        return self.manifest.document_text(document_id)

    def _chunks(self, document_id: str) -> tuple[Chunk, ...]:
        return tuple(sorted(self.manifest.chunks(document_id), key=lambda c: c.index))

    def chunk(self, chunk_id: str) -> Chunk | None:
        return self.manifest.chunk(chunk_id)

    def search(self, query: str, k: int, filters: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Hits as plain dicts: chunk id/index, document id/path, page, score and a short snippet."""
        from agents.tools import SNIPPET_CHARS
        from ingest.index.store import open_store

        if self._search is None:
            self._search = open_store(self.settings, self.room)
        where = {k2: v for k2, v in (filters or {}).items() if v is not None} or None
        out = []
        for hit in self._search.search(query, k, where=where):
            chunk: Chunk = hit.chunk
            out.append({
                "chunk_id": chunk.id, "document_id": chunk.document_id,
                "path": hit.document_path, "page": chunk.page,
                "score": round(float(hit.score), 4), "snippet": " ".join(chunk.text.split())[:SNIPPET_CHARS],
            })
        return out
