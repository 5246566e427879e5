"""Build small rooms straight into the real manifest and Chroma store (no file parsing: fast).

The harness reads rooms only through ingest.index.manifest.Manifest and ingest.index.store; these
helpers write through the same classes the ingest pipeline uses, with the
dependency-free hashing embedder so no model is loaded.
"""

from __future__ import annotations

import hashlib

from core.settings import Settings
from core.types import Document, ParseStatus
from ingest.parsing.chunking import Element, build_text, chunk_spans
from ingest.index.manifest import Manifest
from ingest.index.store import open_store

CLAUSES = {
    "change_of_control": "Either party may terminate this Agreement upon written notice if the other party undergoes "
                         "a change of control, including a merger or the sale of all or substantially all of its assets.",
    "anti_assignment": "Neither party may assign this Agreement or any of its rights hereunder without the prior "
                       "written consent of the other party, and any purported assignment without such consent is void.",
    "governing_law": "This Agreement shall be governed by and construed in accordance with the laws of the State of "
                     "New York, without regard to its conflict of laws principles.",
    "exclusivity": "During the Term, Customer shall purchase all of its requirements for the Products exclusively "
                   "from Supplier and shall not purchase such products from any third party.",
}
FILLER = ("The parties shall cooperate in good faith to carry out the purposes of this Agreement. Invoices are "
          "payable within thirty days of receipt. Each party shall maintain accurate records of its activities. ")


def contract(title: str, clauses: list[str], filler_paragraphs: int = 2) -> list[Element]:
    els = [Element(text=title, category="Title")]
    for n, key in enumerate(clauses):
        els.append(Element(text=f"{n + 1}. Section {n + 1}", category="Title", page=1 + n // 3))
        els.append(Element(text=FILLER * filler_paragraphs, category="NarrativeText", page=1 + n // 3))
        els.append(Element(text=CLAUSES[key], category="NarrativeText", page=1 + n // 3))
    return els


def write_room(settings: Settings, room: str, docs: dict[str, list[Element]],
               failed: dict[str, str] | None = None) -> list[Document]:
    """Write parsed documents (path -> elements) and failed ones (path -> reason) into the room."""
    manifest = Manifest(settings, room)
    store = open_store(settings, room)
    out = []
    for path, elements in docs.items():
        text, spans = build_text(elements)
        sha = hashlib.sha256(text.encode()).hexdigest()
        doc = Document(room=room, path=path, doc_type=path.rsplit(".", 1)[-1], sha256=sha, size_bytes=len(text))
        chunks = chunk_spans(doc.id, text, spans, max_chars=settings.ingest.chunk_max_chars,
                             new_after=settings.ingest.chunk_new_after_chars,
                             combine_under=settings.ingest.chunk_combine_under_chars)
        doc = doc.model_copy(update={"tokens": sum(c.tokens for c in chunks), "chars": len(text),
                                     "pages": max((c.page_end for c in chunks), default=1)})
        manifest.write_parsed(doc, text, chunks)
        store.add(doc, chunks, store.embedder.embed([c.text for c in chunks]))
        out.append(doc)
    for path, reason in (failed or {}).items():
        doc = Document(room=room, path=path, doc_type=path.rsplit(".", 1)[-1], sha256=path,
                       status=ParseStatus.failed, reason=reason)
        manifest.upsert_document(doc)
        out.append(doc)
    return out
