"""The table as the reviewer left it: each cell's derived answer with the reviewer's mark over it.

A corrected answer replaces the derived one everywhere it is read (the page, the exports, the memo's
per-agreement table). A mark made in an earlier run of the room is shown as carried over, and a mark
made on a different derived answer than today's says so, so "verified" never vouches for an unchecked value.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agents.store import ReviewStore
from agents.store.table import ROW, TableMark
from agents.table.answers import Answer, AnswerStatus
from agents.table.build import table_documents
from agents.table.columns import Column


def effective(answer: Answer | None, mark: TableMark | None) -> str:
    """What the cell says: the reviewer's correction, else the derived answer."""
    if mark is not None and mark.corrected is not None:
        return mark.corrected
    return answer.display() if answer is not None else ""


def mark_words(answer: Answer | None, mark: TableMark | None, run_id: str) -> str:
    """The reviewer's mark in plain words ('' when none)."""
    if mark is None:
        return ""
    words = [w for w, on in (("corrected", mark.corrected is not None), ("verified", mark.verified),
                             ("flagged", mark.flagged)) if on]
    if not words and not mark.note:
        return ""
    if mark.note:
        words.append(f"note: {mark.note}")
    line = ", ".join(words)
    if answer is not None and mark.value_seen != answer.value and (mark.verified or mark.corrected is not None):
        line += " (the derived answer changed since)"
    if mark.run_id != run_id:
        line += " (carried over from an earlier run)"
    return line


@dataclass
class Grid:
    """Everything the page and the exports read, loaded once."""

    run_id: str
    documents: list[tuple[str, str]]  # (document id, path), by path
    columns: list[Column]
    answers: dict[tuple[str, str], Answer] = field(default_factory=dict)
    marks: dict[tuple[str, str], TableMark] = field(default_factory=dict)

    def cell(self, document_id: str, column_id: str) -> str:
        return effective(self.answers.get((document_id, column_id)), self.marks.get((document_id, column_id)))

    def mark(self, document_id: str, column_id: str) -> str:
        return mark_words(self.answers.get((document_id, column_id)), self.marks.get((document_id, column_id)),
                          self.run_id)

    def assignee(self, document_id: str) -> str:
        m = self.marks.get((document_id, ROW))
        return m.assignee if m else ""


def load_grid(store: ReviewStore, run_id: str, with_quotes: bool = True) -> Grid | None:
    """The run's table with the room's marks; None before the table was built."""
    built = store.table_built(run_id)
    run = store.run(run_id)
    if built is None or run is None:
        return None
    columns, _ = built
    if with_quotes:
        answers = {(a.document_id, a.column_id): a for a in store.answers(run_id)}
    else:
        status = {s.value: s for s in AnswerStatus}
        # model_construct: these come from the store, which validated them on the way in
        answers = {(d, c): Answer.model_construct(document_id=d, column_id=c, status=status[s], value=v, quotes=[],
                                                  confidence=0.0)
                   for d, c, s, v in store.answer_values(run_id)}
    return Grid(run_id=run_id, documents=table_documents(store, run_id), columns=columns, answers=answers,
                marks=store.table_marks(run.room))


# The memo's agreement fields and the columns that answer them.
AGREEMENT_FIELDS = {"title": "cuad:Document Name", "parties": "cuad:Parties", "dated": "cuad:Agreement Date",
                    "effective": "cuad:Effective Date", "expiration": "cuad:Expiration Date",
                    "law": "cuad:Governing Law"}


def agreement_answers(store: ReviewStore, run_id: str) -> dict[str, dict[str, str]]:
    """Per document, the memo's agreement fields as the table answers them: the reviewer's correction, else the
    derived answer where one was found (names and titles only when corrected: the memo reads the facts' structured
    parties and cleaned title). Empty before the table is built and nothing was corrected."""
    run = store.run(run_id)
    if run is None:
        return {}
    field_of = {c: f for f, c in AGREEMENT_FIELDS.items()}
    out: dict[str, dict[str, str]] = {}
    for doc, col, status, value in store.answer_values(run_id, list(field_of)):
        if status == AnswerStatus.answered.value and value and field_of[col] not in ("parties", "title"):
            out.setdefault(doc, {})[field_of[col]] = value
    for (doc, col), m in store.table_marks(run.room).items():
        if col in field_of and m.corrected is not None:
            out.setdefault(doc, {})[field_of[col]] = m.corrected
    return out
