"""A small agreement and a store holding one run of it, built from real parts (SQLite store, agents.facts)."""

from __future__ import annotations

from core.settings import Settings
from core.types import Assignment, AssignmentStatus, Citation, Document, Finding, ParseStatus

from agents.facts import extract_facts
from agents.memo.derive import facts_version
from agents.store import ReviewStore, open_review_store

AGREEMENT = """SUPPLY AGREEMENT

This Supply Agreement (the "Agreement") is made and entered into as of March 3, 2019 (the "Effective Date") by and
between Acme Widgets, Inc., a Delaware corporation ("Supplier"), and Beta Stores LLC, a New York limited liability
company ("Buyer").

1. Term. This Agreement shall commence on the Effective Date and continue for a period of three (3) years. It shall
renew automatically for successive one (1) year periods unless either party gives written notice of non-renewal at
least ninety (90) days prior to the end of the then-current term.

2. Assignment. Neither party may assign this Agreement without the prior written consent of the other party; a
change of control of Buyer shall be deemed an assignment.

3. Governing Law. This Agreement shall be governed by the laws of the State of New York.

IN WITNESS WHEREOF, the parties have executed this Agreement as of the date first written above.
"""
CLAUSE = "Neither party may assign this Agreement without the prior written consent of the other party"


def document(text: str = AGREEMENT, path: str = "Commercial/Acme supply agreement.txt", room: str = "room-a") -> Document:
    return Document(room=room, path=path, folder=path.rsplit("/", 1)[0], doc_type="txt", pages=1,
                    tokens=len(text.split()), status=ParseStatus.parsed)


def assignment_finding(doc: Document, text: str = AGREEMENT) -> Finding:
    start = text.index(CLAUSE)
    return Finding(category="anti_assignment", severity="medium", summary="Assignment needs the other's consent.",
                   quote=CLAUSE, verified=True, confidence=0.91, extra={"cuad": "Anti-Assignment"},
                   citation=Citation(document_id=doc.id, document_path=doc.path, page=1, chunk_id="c0",
                                     char_start=start, char_end=start + len(CLAUSE)))


def store_with_run(settings: Settings, run_id: str = "run-1", room: str = "room-a",
                   docs: list[tuple[Document, str]] | None = None) -> ReviewStore:
    store = open_review_store(settings)
    docs = docs or [(document(), AGREEMENT)]
    store.create_run(run_id, room, settings, [d for d, _ in docs], status="finished")
    for d, text in docs:
        a = Assignment(id=f"a-{d.id}", agent="offline", document_ids=[d.id], status=AssignmentStatus.done)
        store.put_assignment(run_id, a, None, "review", True)
        store.finish_assignment(run_id, a)
        store.put_document_facts(d.id, facts_version(), extract_facts(text).model_dump(mode="json"))
        store.add_findings(run_id, [assignment_finding(d, text)] if "assign" in text else [], None)
    return store
