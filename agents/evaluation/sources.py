"""Documents and chunks for evaluation: through the real ingest pipeline, or from CUAD txt.

`pdf` is the real path (ingest.pipeline.ingest_room on the contracts folder,
chunks from the manifest), and the one reported. `txt` chunks the labelled
plain text locally at paragraph breaks; it is for fast tests of properties
that do not depend on PDF extraction (e.g. every quote is verbatim).
"""

from __future__ import annotations

import re
from pathlib import Path

from agents.evaluation.labels import LabelledContract
from core.settings import Settings
from core.text import count_tokens
from core.types import Chunk, Document, stable_id

TXT_CHUNK_CHARS = 1500
# txt has no page breaks; pages for speed figures are estimated at this density.
CHARS_PER_PAGE = 3000


class IngestUnavailable(RuntimeError):
    """The ingest pipeline (ingest.pipeline.ingest_room) is not importable in this checkout."""


def chunk_text(document_id: str, text: str, target: int = TXT_CHUNK_CHARS) -> list[Chunk]:
    """Contiguous chunks of `text`, cut at the first blank line after `target` characters."""
    chunks: list[Chunk] = []
    start = 0
    while start < len(text):
        end = len(text)
        if end - start > target:
            m = re.compile(r"\n\s*\n").search(text, start + target)
            end = m.end() if m and m.end() - start <= 2 * target else min(len(text), start + 2 * target)
        piece = text[start:end]
        if piece.strip():
            chunks.append(Chunk(document_id=document_id, index=len(chunks), text=piece, char_start=start,
                                char_end=end, tokens=count_tokens(piece), page=1, page_end=1))
        start = end
    return chunks


def txt_documents(contracts: list[LabelledContract], room: str = "cuad-txt"):
    """(contract, Document, chunks, document text) per contract, from its txt file."""
    for con in contracts:
        text = con.text()
        doc = Document(room=room, path=con.txt_path.name, doc_type="txt", sha256=stable_id(text, length=64),
                       chars=len(text), tokens=count_tokens(text),
                       pages=max(1, round(len(text) / CHARS_PER_PAGE)))
        yield con, doc, chunk_text(doc.id, text), text


def _match_key(path: str) -> str:
    return Path(path).name.lower()


def pdf_documents(contracts: list[LabelledContract], contracts_dir: Path, settings: Settings, room: str = "cuad-eval",
                  progress=None):
    """Ingest `contracts_dir` with the real pipeline; yield (contract, Document, chunks, text) for labelled files."""
    try:
        from ingest.index.manifest import Manifest
        from ingest.pipeline import ingest_room
    except ImportError as exc:  # the ingest layer is written by another engineer
        raise IngestUnavailable(f"ingest pipeline not available: {exc}") from exc
    report = ingest_room(Path(contracts_dir), room, settings, progress=progress)
    manifest = Manifest(settings, room)
    by_key = {}
    for doc in manifest.documents():
        by_key.setdefault(_match_key(doc.path), doc)
    for con in contracts:
        doc = by_key.get(_match_key(str(con.pdf_path))) or by_key.get(con.name.lower())
        if doc is None:
            continue
        yield con, doc, manifest.chunks(doc.id), manifest.document_text(doc.id)
    return report
