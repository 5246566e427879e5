"""One Chroma collection per data room, plus hybrid search over it.

We always supply embeddings (ingest.index.embed) and create collections with
`embedding_function=None`, so Chroma never loads, or downloads, its default
ONNX model. Keyword search runs on the manifest's FTS5 index; the two ranked
lists are fused by reciprocal rank (RRF, k=60), which needs no score scaling
between cosine distances and BM25.

Chroma holds vectors and metadata only. Chunk text lives in the manifest, which
every search already reads for the hits: storing it twice cost a third of the
ingest parent's CPU (Chroma indexes stored documents for its own full-text
search, which we do not use).
"""

from __future__ import annotations

import re
from typing import Literal

import numpy as np
from pydantic import BaseModel, Field

from core.settings import Settings
from core.types import Chunk, Document, stable_id

from .embed import Embedder, get_embedder
from .manifest import FILTER_FIELDS, Manifest

RRF_K = 60
_NAME_RE = re.compile(r"[^a-zA-Z0-9_-]+")


class SearchHit(BaseModel):
    """One search result."""

    chunk: Chunk = Field(description="The matching chunk (text and offsets into the document text).")
    score: float = Field(description="Fused reciprocal-rank score; higher is better. Comparable within one query only.")
    document_path: str = Field(description="Path of the chunk's document in the room.")
    match: Literal["semantic", "keyword", "both"] = Field(description="Which retriever(s) returned the chunk.")
    semantic_score: float | None = Field(None, description="Cosine similarity from Chroma, when semantic matched.")
    keyword_score: float | None = Field(None, description="BM25 score from the FTS5 index, when keyword matched.")


class SearchHits(list):
    """search()'s hits (a list of SearchHit), with how much of the room the semantic half could see.

    While a room is still being embedded, chunks without a vector are found by keyword only."""

    def __init__(self, hits=(), *, embedded: int = 0, chunks: int = 0):
        super().__init__(hits)
        self.embedded, self.chunks = embedded, chunks

    @property
    def partial(self) -> bool:
        return self.embedded < self.chunks

    def note(self) -> str:
        """Plain words for a reader of the results; empty when the vector index is complete."""
        if not self.partial:
            return ""
        return (f"Meaning-based search covered {self.embedded:,} of {self.chunks:,} passages (the rest are still "
                "being indexed); those are found by their words only.")


# Chroma's embedded index lives in each process's memory, loaded on the process's first use of a collection;
# another process's later writes never reach it (its queries then miss them, or fail with "Nothing found on
# disk" / "Error finding id"; chromadb 1.5). With embedding in the background the writer (an ingest job) and
# the readers (the app, run workers) are different processes, so each process notes the room's vector
# version (manifest) when its index loaded, and a store whose room has moved on since opens a new client.
# Keyed by (chroma folder, collection); -1: reload on next use.
_LOADED: dict[tuple[str, str], int] = {}


def _shared_system_client():
    from chromadb.api.shared_system_client import SharedSystemClient

    return SharedSystemClient


def chromadb_errors() -> tuple[type[BaseException], ...]:
    from chromadb.errors import ChromaError

    return (ChromaError,)


def collection_name(room: str) -> str:
    # Chroma names: 3-512 chars of [a-zA-Z0-9._-], alphanumeric at both ends.
    return f"room-{_NAME_RE.sub('-', room)[:40].strip('-') or 'x'}-{stable_id(room, length=8)}"


def make_client(settings: Settings):
    import chromadb
    from chromadb.config import Settings as ChromaClientSettings

    cs = ChromaClientSettings(anonymized_telemetry=False)
    if settings.chroma.mode == "http":
        return chromadb.HttpClient(host=settings.chroma.host, port=settings.chroma.port, settings=cs)
    settings.chroma_dir().mkdir(parents=True, exist_ok=True)
    return chromadb.PersistentClient(path=str(settings.chroma_dir()), settings=cs)


def _chroma_where(where: dict | None) -> dict | None:
    if not where:
        return None
    bad = set(where) - FILTER_FIELDS
    if bad:
        raise ValueError(f"unknown filter field(s) {sorted(bad)}; allowed: {sorted(FILTER_FIELDS)}")
    clauses = [{k: {"$in": list(v)}} if isinstance(v, (list, tuple, set)) else {k: v} for k, v in where.items()]
    return clauses[0] if len(clauses) == 1 else {"$and": clauses}


# HNSW search breadth. Chroma's default (100) missed 4 of the exact 16 nearest chunks over the 24 checklist
# queries on the 275-chunk sample room, and which ones it missed changed from one process to the next; at 400
# it returned the exact neighbours there. The cost did not show: 2.3-2.9 ms a query at either setting on the
# 9,668-chunk 1,000-document room (hash embedder, timed ad hoc on 2026-12-04).
SEARCH_EF = 400
_TIE_SLACK = 8  # results asked beyond k, so a tie at the k-th place is broken by chunk id


class RoomStore:
    """The data room's vectors (Chroma) and keyword index (manifest FTS5) behind one search()."""

    def __init__(self, settings: Settings, room: str, client=None, embedder: Embedder | None = None):
        self.settings = settings
        self.room = room
        self.client = client or make_client(settings)
        self.manifest = Manifest(settings, room)
        self._embedder = embedder
        self._open_collection()

    def _open_collection(self) -> None:
        self.collection = self.client.get_or_create_collection(
            name=collection_name(self.room),
            embedding_function=None,
            metadata={"hnsw:space": "cosine", "room": self.room},
        )
        hnsw = (self.collection.configuration or {}).get("hnsw") or {}
        if hnsw.get("ef_search", 0) < SEARCH_EF:  # a store made before SEARCH_EF, or a new one
            self.collection.modify(configuration={"hnsw": {"ef_search": SEARCH_EF}})

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = get_embedder(self.settings)
        return self._embedder

    def add(self, doc: Document, chunks: list[Chunk], embeddings) -> None:
        self.add_many([(doc, chunks)], embeddings)

    def add_many(self, docs: list[tuple[Document, list[Chunk]]], embeddings) -> None:
        """Upsert several documents' chunks; `embeddings` row i belongs to the i-th chunk in that order."""
        self.add_rows([(doc, c) for doc, chunks in docs for c in chunks], embeddings)

    def add_rows(self, rows: list[tuple[Document, Chunk]], embeddings) -> None:
        """Upsert (document, chunk) rows with their vectors, then mark those chunks embedded in the manifest."""
        if not rows:
            return
        self._refresh_if_stale()
        batch = max(1, min(len(rows), self._max_batch()))
        for s in range(0, len(rows), batch):
            part = rows[s : s + batch]
            self.collection.upsert(
                ids=[c.id for _, c in part],
                embeddings=np.asarray(embeddings[s : s + batch], dtype=np.float32),
                metadatas=[
                    {
                        "document_id": doc.id, "path": doc.path, "folder": doc.folder, "doc_type": doc.doc_type,
                        "page": c.page, "page_end": c.page_end, "chunk_index": c.index,
                        "char_start": c.char_start, "char_end": c.char_end,
                    }
                    for doc, c in part
                ],
            )
        self.manifest.mark_embedded([c.id for _, c in rows])
        self._wrote()

    def _max_batch(self) -> int:
        try:
            return int(self.client.get_max_batch_size())
        except (AttributeError, NotImplementedError):
            return 1000

    def delete_document(self, doc_id: str) -> None:
        self._refresh_if_stale()
        self.collection.delete(where={"document_id": doc_id})
        self.manifest.bump_vector_version()
        self._wrote()

    # ---- keeping this process's view of Chroma current (see _LOADED)
    def _key(self) -> tuple[str, str]:
        return (str(self.settings.chroma_dir()), self.collection.name)

    def _refresh_if_stale(self) -> None:
        """Open a new Chroma client when another process has written this room's vectors since ours loaded."""
        if self.settings.chroma.mode == "http":
            return
        seen = _LOADED.get(self._key())
        if seen is None or seen == self.manifest.vector_version():
            return  # never loaded here (it loads, current, on first use), or current
        path = str(self.settings.chroma_dir())
        # chromadb keeps one System per folder per process (a private class attribute); dropping it from that
        # cache, without stopping it, lets the next client load from disk while older holders keep theirs.
        cache = getattr(_shared_system_client(), "_identifier_to_system", None)
        if isinstance(cache, dict):
            cache.pop(path, None)
        for key in [k for k in _LOADED if k[0] == path]:
            del _LOADED[key]  # every collection of the old System is reloaded on its next use
        self.client = make_client(self.settings)
        self._open_collection()

    def _wrote(self) -> None:
        # The writing process's own index holds what it wrote (and loaded, current, if this was its first use).
        if self.settings.chroma.mode != "http":
            _LOADED[self._key()] = self.manifest.vector_version()

    def coverage(self) -> tuple[int, int]:
        """(chunks with a vector, chunks) of the room, from the manifest."""
        return self.manifest.embedding_counts()

    def count(self) -> int:
        return self.collection.count()

    def semantic(self, query: str, k: int, where: dict | None = None) -> list[tuple[str, float]]:
        self._refresh_if_stale()
        if self.collection.count() == 0:
            return []
        q = [float(x) for x in self.embedder.embed([query])[0]]
        for attempt in range(2):
            key = self._key()
            if self.settings.chroma.mode != "http" and key not in _LOADED:
                _LOADED[key] = self.manifest.vector_version()  # read before the index loads: a racing write reads as stale
            try:
                res = self.collection.query(
                    query_embeddings=[q], n_results=k + _TIE_SLACK, where=_chroma_where(where), include=["distances"]
                )
                break
            except chromadb_errors():  # an index that loaded while another process was writing
                if self.settings.chroma.mode == "http" or attempt:
                    raise
                _LOADED[key] = -1
                self._refresh_if_stale()
        hits = [(i, 1.0 - float(d)) for i, d in zip(res["ids"][0], res["distances"][0])]
        # chunks of identical text tie; the index returns either, differently in each process that loads it
        return sorted(hits, key=lambda h: (-round(h[1], 6), h[0]))[:k]

    def search(self, query: str, k: int = 8, where: dict | None = None) -> list[SearchHit]:
        """Semantic + keyword, fused; `where` filters on folder / doc_type / document_id / path (value or list)."""
        _chroma_where(where)  # validate once for both retrievers
        embedded, total = self.coverage()
        sem = self.semantic(query, k * 2, where)
        kw = self.manifest.keyword_search(query, k * 2, where)
        fused: dict[str, float] = {}
        for ranked in (sem, kw):
            for rank, (cid, _) in enumerate(ranked):
                fused[cid] = fused.get(cid, 0.0) + 1.0 / (RRF_K + rank + 1)
        sem_s, kw_s = dict(sem), dict(kw)
        top = sorted(fused, key=lambda c: -fused[c])[:k]
        chunks = self.manifest.chunks_by_ids(top)
        paths = {d.id: d.path for d in self.manifest.documents()} if top else {}
        hits = SearchHits(embedded=embedded, chunks=total)
        for cid in top:
            if cid not in chunks:
                continue  # store and manifest briefly disagree during a re-ingest
            c = chunks[cid]
            match = "both" if cid in sem_s and cid in kw_s else ("semantic" if cid in sem_s else "keyword")
            hits.append(
                SearchHit(
                    chunk=c, score=fused[cid], document_path=paths.get(c.document_id, ""), match=match,
                    semantic_score=sem_s.get(cid), keyword_score=kw_s.get(cid),
                )
            )
        return hits


def open_store(settings: Settings, room: str) -> RoomStore:
    """The room's store; Chroma embedded in the workspace, or a server when settings.chroma.mode == 'http'."""
    return RoomStore(settings, room)
