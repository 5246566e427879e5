"""The room's manifest: one SQLite file with documents, ordered chunks and a keyword index.

Readers (agents, app) get documents, their text and ordered chunks from here
without touching Chroma. The FTS5 table `chunks_fts` is the keyword half of
RoomStore.search (BM25 ranking, case-insensitive tokens), chosen over
Chroma's case-sensitive `$contains` scan (see docs/BENCHMARKS.md, Ingest).

The room's stage (table `meta`) is the contract between ingest and its readers:
- "ingesting": documents are being copied or parsed; the room is not complete and not reviewable;
- "reviewable": every document is parsed, its text, chunks and keyword index written; some chunks
  may still lack a vector (`chunks.embedded = 0`) and are found by keyword only;
- "embedded": every chunk of the room has its vector in the store.
A chunk is marked embedded only after its vector is written, so a crash leaves a room that says
what is missing, and ingest.vectors.embed_pending finishes it.
"""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path

from core.settings import Settings
from core.types import Chunk, Document, ParseStatus, utcnow

SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    id TEXT PRIMARY KEY, room TEXT, path TEXT NOT NULL, folder TEXT, doc_type TEXT,
    size_bytes INTEGER, sha256 TEXT, pages INTEGER, tokens INTEGER, chars INTEGER,
    status TEXT, reason TEXT, note TEXT, parent_id TEXT, duplicate_of TEXT,
    parse_seconds REAL, ingested_at TEXT
);
CREATE INDEX IF NOT EXISTS documents_path ON documents(path);
CREATE TABLE IF NOT EXISTS chunks (
    id TEXT PRIMARY KEY, document_id TEXT NOT NULL, idx INTEGER, text TEXT,
    page INTEGER, page_end INTEGER, element_types TEXT, char_start INTEGER, char_end INTEGER, tokens INTEGER,
    embedded INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(document_id, idx);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5(text, chunk_id UNINDEXED, document_id UNINDEXED);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""
# Stages in order; see the module docstring. A manifest written before stages existed has none and was
# complete (a document was recorded only once its vectors were stored): it reads as "embedded".
STAGES = ("ingesting", "reviewable", "embedded")
CHUNK_COLS = "id, document_id, idx, text, page, page_end, element_types, char_start, char_end, tokens, embedded"

DOC_FIELDS = [
    "id", "room", "path", "folder", "doc_type", "size_bytes", "sha256", "pages", "tokens", "chars",
    "status", "reason", "note", "parent_id", "duplicate_of", "parse_seconds",
]
FILTER_FIELDS = {"folder", "doc_type", "document_id", "path"}
_FTS_WORD_RE = re.compile(r"\w+", re.UNICODE)
# Words that would make an OR query match nearly every chunk.
STOPWORDS = frozenset(
    "a an and are as at be by can could do does for from has have if in into is it its may might must of on or "
    "shall should so such than that the their them then there these they this those to under upon was were what "
    "when where which who whom why will with would".split()
)


class Manifest:
    """Read/write access to workspace/rooms/<room>/manifest.sqlite."""

    def __init__(self, settings: Settings, room: str):
        self.settings = settings
        self.room = room
        self.dir = settings.room_dir(room)
        self.path = self.dir / "manifest.sqlite"
        self.text_dir = self.dir / "text"
        self.dir.mkdir(parents=True, exist_ok=True)
        with closing(self._connect()) as con, con:
            con.executescript(SCHEMA)
            if "embedded" not in {r[1] for r in con.execute("PRAGMA table_info(chunks)")}:
                # a manifest from before background embedding: all its chunks had vectors
                con.execute("ALTER TABLE chunks ADD COLUMN embedded INTEGER NOT NULL DEFAULT 1")
            con.execute("CREATE INDEX IF NOT EXISTS chunks_pending ON chunks(document_id, idx) WHERE embedded = 0")

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, timeout=30)
        con.row_factory = sqlite3.Row
        return con

    # ---- reading
    def documents(self, status: ParseStatus | str | None = None) -> list[Document]:
        q, args = "SELECT * FROM documents", []
        if status is not None:
            q += " WHERE status = ?"
            args.append(ParseStatus(status).value)
        with closing(self._connect()) as con:
            rows = con.execute(q + " ORDER BY path", args).fetchall()
        return [self._doc(r) for r in rows]

    def document(self, doc_id: str) -> Document | None:
        with closing(self._connect()) as con:
            r = con.execute("SELECT * FROM documents WHERE id = ?", (doc_id,)).fetchone()
        return self._doc(r) if r else None

    def document_text(self, doc_id: str) -> str:
        p = self.text_dir / f"{doc_id}.txt"
        # newline="" keeps "\r" as written, so offsets stay exact.
        if not p.exists():
            return ""
        with p.open(encoding="utf-8", newline="") as f:
            return f.read()

    def chunks(self, document_id: str) -> list[Chunk]:
        with closing(self._connect()) as con:
            rows = con.execute("SELECT * FROM chunks WHERE document_id = ? ORDER BY idx", (document_id,)).fetchall()
        return [self._chunk(r) for r in rows]

    def chunk(self, chunk_id: str) -> Chunk | None:
        with closing(self._connect()) as con:
            r = con.execute("SELECT * FROM chunks WHERE id = ?", (chunk_id,)).fetchone()
        return self._chunk(r) if r else None

    def chunks_by_ids(self, ids: list[str]) -> dict[str, Chunk]:
        if not ids:
            return {}
        with closing(self._connect()) as con:
            rows = con.execute(f"SELECT * FROM chunks WHERE id IN ({','.join('?' * len(ids))})", ids).fetchall()
        return {r["id"]: self._chunk(r) for r in rows}

    def chunk_count(self) -> int:
        with closing(self._connect()) as con:
            return con.execute("SELECT COUNT(*) FROM chunks").fetchone()[0]

    def keyword_search(self, query: str, k: int, where: dict | None = None) -> list[tuple[str, float]]:
        """(chunk id, bm25 score; higher is better) for chunks matching any query word."""
        words = [w for w in _FTS_WORD_RE.findall(query) if w.lower() not in STOPWORDS]
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', "") + '"' for w in words)
        sql = (
            "SELECT f.chunk_id, -bm25(chunks_fts) AS score FROM chunks_fts f "
            "JOIN documents d ON d.id = f.document_id WHERE chunks_fts MATCH ?"
        )
        args: list = [match]
        for key, val in (where or {}).items():
            col = "d.id" if key == "document_id" else f"d.{key}"
            vals = val if isinstance(val, (list, tuple, set)) else [val]
            sql += f" AND {col} IN ({','.join('?' * len(vals))})"
            args.extend(vals)
        sql += " ORDER BY bm25(chunks_fts) LIMIT ?"
        args.append(k)
        with closing(self._connect()) as con:
            return [(r[0], float(r[1])) for r in con.execute(sql, args).fetchall()]

    # ---- stage and vectors
    def stage(self) -> str:
        """'ingesting', 'reviewable' or 'embedded' (see the module docstring)."""
        with closing(self._connect()) as con:
            row = con.execute("SELECT value FROM meta WHERE key = 'stage'").fetchone()
            if row is None or row[0] == "embedded":
                return "embedded"
            if row[0] == "reviewable" and not con.execute("SELECT 1 FROM chunks WHERE embedded = 0 LIMIT 1").fetchone():
                return "embedded"
            return row[0]

    def set_stage(self, stage: str, only_from: str | None = None) -> bool:
        """Set the stage; with `only_from`, only if it is that now (another ingest may have started)."""
        if stage not in STAGES:
            raise ValueError(f"unknown stage {stage!r}")
        with closing(self._connect()) as con, con:
            if only_from is not None:
                row = con.execute("SELECT value FROM meta WHERE key = 'stage'").fetchone()
                if (row[0] if row else "embedded") != only_from:
                    return False
            con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('stage', ?)", (stage,))
        return True

    def embedding_counts(self) -> tuple[int, int]:
        """(chunks with a vector, chunks) over the room."""
        with closing(self._connect()) as con:
            done, total = con.execute("SELECT COALESCE(SUM(embedded), 0), COUNT(*) FROM chunks").fetchone()
        return int(done), int(total)

    def pending_chunks(self, limit: int) -> list[tuple[Document, Chunk]]:
        """Up to `limit` chunks still without a vector, with their documents, in document and chunk order."""
        with closing(self._connect()) as con:
            rows = con.execute(
                "SELECT c.* FROM chunks c WHERE c.embedded = 0 ORDER BY c.document_id, c.idx LIMIT ?", (limit,)
            ).fetchall()
            ids = sorted({r["document_id"] for r in rows})
            docs = {
                r["id"]: self._doc(r)
                for r in con.execute(f"SELECT * FROM documents WHERE id IN ({','.join('?' * len(ids))})", ids)
            } if ids else {}
        return [(docs[r["document_id"]], self._chunk(r)) for r in rows if r["document_id"] in docs]

    def mark_embedded(self, chunk_ids: list[str]) -> None:
        """Record that these chunks' vectors are in the store; also moves the vector version on."""
        with closing(self._connect()) as con, con:
            con.executemany("UPDATE chunks SET embedded = 1 WHERE id = ?", [(i,) for i in chunk_ids])
            self._bump(con)

    def vector_version(self) -> int:
        """A counter moved on by every write to the room's vectors (see ingest.index.store, why)."""
        with closing(self._connect()) as con:
            row = con.execute("SELECT value FROM meta WHERE key = 'vector_version'").fetchone()
        return int(row[0]) if row else 0

    def bump_vector_version(self) -> None:
        with closing(self._connect()) as con, con:
            self._bump(con)

    @staticmethod
    def _bump(con: sqlite3.Connection) -> None:
        con.execute(
            "INSERT INTO meta (key, value) VALUES ('vector_version', '1') "
            "ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)"
        )

    # ---- writing (the pipeline is the only writer)
    def upsert_document(self, doc: Document) -> None:
        with closing(self._connect()) as con, con:
            self._upsert_document(con, doc)

    @staticmethod
    def _upsert_document(con: sqlite3.Connection, doc: Document) -> None:
        row = doc.model_dump(mode="json")
        vals = [row[f] for f in DOC_FIELDS] + [utcnow().isoformat()]
        con.execute(
            f"INSERT OR REPLACE INTO documents ({','.join(DOC_FIELDS)}, ingested_at) VALUES ({','.join('?' * (len(DOC_FIELDS) + 1))})",
            vals,
        )

    def write_parsed(self, doc: Document, text: str, chunks: list[Chunk], embedded: bool = False) -> None:
        """Text file, then chunks (plus their keyword index) and the document row in one transaction (one commit).

        `embedded`: the chunks' vectors are already in the store (otherwise they wait for embed_pending)."""
        self.text_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.text_dir / f".{doc.id}.tmp"
        with tmp.open("w", encoding="utf-8", newline="") as f:
            f.write(text)
        tmp.replace(self.text_dir / f"{doc.id}.txt")
        with closing(self._connect()) as con, con:
            self._delete_chunks(con, doc.id)
            con.executemany(
                f"INSERT INTO chunks ({CHUNK_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (c.id, c.document_id, c.index, c.text, c.page, c.page_end, json.dumps(c.element_types), c.char_start,
                     c.char_end, c.tokens, int(embedded))
                    for c in chunks
                ],
            )
            con.executemany(
                "INSERT INTO chunks_fts (text, chunk_id, document_id) VALUES (?,?,?)", [(c.text, c.id, c.document_id) for c in chunks]
            )
            self._upsert_document(con, doc)

    def delete_document(self, doc_id: str) -> None:
        with closing(self._connect()) as con, con:
            self._delete_chunks(con, doc_id)
            con.execute("DELETE FROM documents WHERE id = ?", (doc_id,))
        (self.text_dir / f"{doc_id}.txt").unlink(missing_ok=True)

    @staticmethod
    def _delete_chunks(con: sqlite3.Connection, doc_id: str) -> None:
        con.execute("DELETE FROM chunks WHERE document_id = ?", (doc_id,))
        con.execute("DELETE FROM chunks_fts WHERE document_id = ?", (doc_id,))

    @staticmethod
    def _doc(r: sqlite3.Row) -> Document:
        return Document(**{f: r[f] for f in DOC_FIELDS})

    @staticmethod
    def _chunk(r: sqlite3.Row) -> Chunk:
        return Chunk(
            id=r["id"], document_id=r["document_id"], index=r["idx"], text=r["text"], page=r["page"], page_end=r["page_end"],
            element_types=json.loads(r["element_types"] or "[]"), char_start=r["char_start"], char_end=r["char_end"], tokens=r["tokens"],
        )


def manifest_exists(settings: Settings, room: str) -> bool:
    return (Path(settings.room_dir(room)) / "manifest.sqlite").exists()
