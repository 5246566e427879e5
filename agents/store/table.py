"""The review table in the store: answers per run, reviewer marks per room, a room's own questions.

Answers belong to a run (derived from its findings and the documents' facts). Reviewer marks (verified,
flagged, a corrected answer, a note, the colleague a row is assigned to) belong to the room, keyed by
document id (a hash of room, path and bytes) and column, so a later run of the room shows them again,
like finding decisions (agents/store/decisions.py). Each mark records the answer it was made on: when a
new run answers differently, the mark says so instead of vouching for a value nobody checked. Every mark
is also a row of the run's activity log (`actions`, finding id `table:<document>|<column>`).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from core.types import utcnow

from agents.table.answers import Answer, AnswerStatus, Quote
from agents.table.columns import AnswerType, Column, ColumnSource

ROW = ""  # column id of a mark on the whole row (an assignment)
ACTION_PREFIX = "table:"


class TableMark(BaseModel):
    """A reviewer's mark on a cell (or, with column_id '', on a row)."""

    document_id: str = Field(description="Row.")
    column_id: str = Field(description="Column; '' for the whole row.")
    verified: bool = Field(False, description="The reviewer checked the answer against its passage.")
    flagged: bool = Field(False, description="The reviewer wants it looked at again.")
    corrected: str | None = Field(None, description="The reviewer's own answer, which replaces the derived one.")
    assignee: str = Field("", description="Colleague the row is assigned to.")
    note: str = Field("", description="Reviewer's note.")
    value_seen: str = Field("", description="The derived answer when the mark was made.")
    run_id: str = Field(description="Run the mark was made in.")
    author: str = Field(description="Who made it.")
    at: datetime = Field(description="When (UTC).")


def action_id(document_id: str, column_id: str) -> str:
    return f"{ACTION_PREFIX}{document_id}|{column_id}"


def parse_action_id(finding_id: str) -> tuple[str, str] | None:
    if not finding_id.startswith(ACTION_PREFIX):
        return None
    doc, _, col = finding_id[len(ACTION_PREFIX):].partition("|")
    return doc, col


class TableMixin:
    """Needs `_q`, `_db` and `_transaction` from ReviewStore."""

    # ------------------------------------------------------------------ answers
    def put_answers(self, run_id: str, answers: list[Answer], columns: list[Column]) -> None:
        """Replace the run's table with these answers (one build of the table)."""
        with self._transaction():
            self._db.execute("DELETE FROM table_answers WHERE run_id=?", (run_id,))
            self._db.executemany(
                "INSERT OR REPLACE INTO table_answers VALUES (?,?,?,?,?,?,?)",
                [(run_id, a.document_id, a.column_id, a.status.value, a.value,
                  json.dumps([q.model_dump() for q in a.quotes]), a.confidence) for a in answers])
            self._db.execute("INSERT OR REPLACE INTO table_builds VALUES (?,?,?,?)",
                             (run_id, json.dumps([c.model_dump(mode="json") for c in columns]),
                              utcnow().isoformat(), len({a.document_id for a in answers})))

    def put_column_answers(self, run_id: str, answers: list[Answer]) -> None:
        """Store (or replace) some cells of an already built table, e.g. one question answered by the model."""
        with self._transaction():
            self._db.executemany(
                "INSERT OR REPLACE INTO table_answers VALUES (?,?,?,?,?,?,?)",
                [(run_id, a.document_id, a.column_id, a.status.value, a.value,
                  json.dumps([q.model_dump() for q in a.quotes]), a.confidence) for a in answers])

    def table_built(self, run_id: str) -> tuple[list[Column], datetime] | None:
        """The columns of the run's last table build and when it was built; None before the first."""
        rows = self._q("SELECT columns_json, built_at FROM table_builds WHERE run_id=?", (run_id,))
        if not rows:
            return None
        return [Column.model_validate(c) for c in json.loads(rows[0][0])], datetime.fromisoformat(rows[0][1])

    def answers(self, run_id: str, document_id: str | None = None, column_id: str | None = None) -> list[Answer]:
        where, params = ["run_id=?"], [run_id]
        for col, val in (("document_id", document_id), ("column_id", column_id)):
            if val is not None:
                where.append(f"{col}=?")
                params.append(val)
        return [Answer(document_id=r[0], column_id=r[1], status=AnswerStatus(r[2]), value=r[3],
                       quotes=[Quote.model_validate(q) for q in json.loads(r[4])], confidence=r[5] or 0.0)
                for r in self._q("SELECT document_id, column_id, status, value, quotes_json, confidence FROM "
                                 f"table_answers WHERE {' AND '.join(where)}", params)]

    def answer_values(self, run_id: str, column_ids: list[str] | None = None) -> list[tuple[str, str, str, str]]:
        """(document id, column id, status, value) of every cell (of the named columns): what the page's grid
        needs, without quotes."""
        cond, params = "", [run_id]
        if column_ids is not None:
            cond = f" AND column_id IN ({','.join('?' * len(column_ids))})"
            params += column_ids
        with self._lock:  # plain tuples: row objects cost most of the time on a 65,000-cell table
            return self._db.tuples(
                f"SELECT document_id, column_id, status, value FROM table_answers WHERE run_id=?{cond}", params)

    # ------------------------------------------------------------------ marks
    def table_marks(self, room: str) -> dict[tuple[str, str], TableMark]:
        return {(r["document_id"], r["column_id"]): self._mark(r)
                for r in self._q("SELECT * FROM table_marks WHERE room=?", (room,))}

    @staticmethod
    def _mark(r) -> TableMark:
        return TableMark(document_id=r["document_id"], column_id=r["column_id"], verified=bool(r["verified"]),
                         flagged=bool(r["flagged"]), corrected=r["corrected"], assignee=r["assignee"] or "",
                         note=r["note"] or "", value_seen=r["value_seen"] or "", run_id=r["run_id"],
                         author=r["author"], at=datetime.fromisoformat(r["at"]))

    def set_table_mark(self, run_id: str, document_id: str, column_id: str, author: str, *,
                       verified: bool | None = None, flagged: bool | None = None, corrected: str | None = None,
                       clear_correction: bool = False, assignee: str | None = None,
                       note: str | None = None) -> TableMark:
        """Change a cell's (or with column_id ROW, a row's) mark; what is not given stays. The change is logged
        in the run's activity log with old and new values. Returns the mark as stored."""
        room = self._q("SELECT room FROM runs WHERE id=?", (run_id,))
        if not room:
            raise KeyError(f"no run {run_id}")
        room = room[0][0]
        seen = self._q("SELECT value FROM table_answers WHERE run_id=? AND document_id=? AND column_id=?",
                       (run_id, document_id, column_id))
        with self._transaction():
            row = self._db.execute("SELECT * FROM table_marks WHERE room=? AND document_id=? AND column_id=?",
                                   (room, document_id, column_id)).fetchone()
            old = self._mark(row).model_dump(include=_FIELDS) if row else {
                "verified": False, "flagged": False, "corrected": None, "assignee": "", "note": ""}
            new = dict(old)
            for key, val in (("verified", verified), ("flagged", flagged), ("assignee", assignee), ("note", note)):
                if val is not None:
                    new[key] = val.strip() if isinstance(val, str) else val
            if clear_correction:
                new["corrected"] = None
            elif corrected is not None:
                new["corrected"] = " ".join(corrected.split()) or None
            if new == old and row is not None:
                return self._mark(row)
            now = utcnow().isoformat()
            self._db.execute(
                "INSERT OR REPLACE INTO table_marks VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                (room, document_id, column_id, int(new["verified"]), int(new["flagged"]), new["corrected"],
                 new["assignee"], new["note"], seen[0][0] if seen else "", run_id, author, now))
            changed = [k for k in new if new[k] != old[k]]
            self._db.execute(
                "INSERT INTO actions (run_id, finding_id, action, old_json, new_json, author, at) VALUES (?,?,?,?,?,?,?)",
                (run_id, action_id(document_id, column_id), _action_name(changed, new),
                 json.dumps({k: old[k] for k in changed}), json.dumps({k: new[k] for k in changed}), author, now))
        return self.table_marks(room)[(document_id, column_id)]

    # ------------------------------------------------------------------ the room's own questions
    def add_table_column(self, room: str, column: Column, author: str) -> Column:
        """Add a reviewer's question to the room (once: the same words are the same column)."""
        if column.source is not ColumnSource.custom:
            raise ValueError("only a reviewer's own question is stored per room")
        n = self._q("SELECT COUNT(*) FROM table_columns WHERE room=?", (room,))[0][0]
        self._q("INSERT OR IGNORE INTO table_columns VALUES (?,?,?,?,?,?,?,?)",
                (room, column.id, column.title, column.type.value, column.description, author,
                 utcnow().isoformat(), n))
        return column

    def table_columns(self, room: str) -> list[Column]:
        return [Column(id=r["id"], title=r["title"], type=AnswerType(r["type"]), description=r["description"],
                       source=ColumnSource.custom)
                for r in self._q("SELECT * FROM table_columns WHERE room=? ORDER BY position", (room,))]

    def remove_table_column(self, room: str, column_id: str) -> None:
        self._q("DELETE FROM table_columns WHERE room=? AND id=?", (room, column_id))


_FIELDS = {"verified", "flagged", "corrected", "assignee", "note"}


def _action_name(changed: list[str], new: dict[str, Any]) -> str:
    """The activity log's word for a mark: what the reviewer did, in the log's vocabulary."""
    if "corrected" in changed:
        return "corrected" if new["corrected"] is not None else "correction removed"
    if "verified" in changed:
        return "verified" if new["verified"] else "unverified"
    if "flagged" in changed:
        return "flagged" if new["flagged"] else "unflagged"
    if "assignee" in changed:
        return "assigned" if new["assignee"] else "unassigned"
    return "note"
