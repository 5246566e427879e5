"""Shared constants and builders of the LLM-path tests (imported by name: pytest puts this folder on sys.path)."""

from __future__ import annotations

import hashlib

from core.text import count_tokens
from core.types import Assignment, Chunk, Document

ROOT_MODEL = "fake-root-1"
SUB_MODEL = "fake-sub-1"
API_KEY = "sk-test-SECRET-4f9a1c"


def make_document(text: str, path: str = "Commercial/supply.txt", room: str = "r") -> tuple[Document, list[Chunk]]:
    """A document whose chunks are its blank-line separated paragraphs, offsets into `text`."""
    doc = Document(room=room, path=path, doc_type="txt", sha256=hashlib.sha256(text.encode()).hexdigest(), pages=1,
                   tokens=count_tokens(text), chars=len(text))
    chunks, pos = [], 0
    for i, para in enumerate(p for p in text.split("\n\n")):
        start = text.index(para, pos)
        end = start + len(para)
        pos = end
        chunks.append(Chunk(document_id=doc.id, index=i, text=para, page=1 + i // 3, page_end=1 + i // 3,
                            char_start=start, char_end=end, tokens=count_tokens(para)))
    return doc, chunks


def make_assignment(doc: Document, agent: str = "sub-1", **kw) -> Assignment:
    return Assignment(id=f"a-{doc.id}", agent=agent, document_ids=[doc.id], **kw)


SUPPLY_TEXT = (
    "SUPPLY AGREEMENT between Acme Corp. and Widget Ltd.\n\n"
    "1. Term. This Agreement runs for three years from the Effective Date.\n\n"
    "2. Assignment. Neither party may assign this Agreement without the prior written consent of the other party. "
    "A change of control of Widget Ltd. shall be deemed an assignment.\n\n"
    "3. Termination. Acme may terminate this Agreement for convenience on ninety days' notice.\n\n"
    "4. Governing law. This Agreement is governed by the laws of Delaware."
)

KEYWORDS = {"anti_assignment": ["assign"], "termination_for_convenience": ["for convenience"],
            "governing_law": ["governed by"]}
