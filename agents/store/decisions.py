"""What outlives a run: reviewer decisions carried to the next run of a room, and the memo's inputs.

A reviewer's decision (accept, reject, an edited summary or severity, a note)
is kept per room by the passage it was made on: document id (a hash of the
room, path and file bytes) and the quote's character span. A later run that
reports the same passage gets the decision back, marked as carried over, so a
re-run never shows the reviewer's work as gone. Decisions made by the harness
itself (author 'agent:...', e.g. the lifecycle regrading) are not carried:
the next run makes them again from the room.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from core.types import Finding, ReviewerStatus, utcnow

AGENT_AUTHOR = "agent:"


class DecisionsMixin:
    """Needs `_q`, `_db`, `_lock` and `_transaction` from ReviewStore."""

    def _record_decision(self, r: sqlite3.Row, new: dict[str, Any], author: str) -> None:
        """Upsert the room's decision on this passage (called inside set_finding_review's transaction)."""
        if author.startswith(AGENT_AUTHOR) or r["char_start"] is None or r["char_start"] < 0:
            return
        room = self._db.execute("SELECT room FROM runs WHERE id=?", (r["run_id"],)).fetchone()
        if room is None:
            return
        edited = int(new["summary"] != r["summary"] or new["severity"] != r["severity"] or
                     new["reviewer_status"] == ReviewerStatus.edited.value)
        prior = self._db.execute(
            "SELECT edited FROM decisions WHERE room=? AND document_id=? AND char_start=? AND char_end=?",
            (room[0], r["document_id"], r["char_start"], r["char_end"])).fetchone()
        edited = int(edited or bool(prior and prior[0]))
        self._db.execute(
            "INSERT OR REPLACE INTO decisions VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (room[0], r["document_id"], r["char_start"], r["char_end"], r["run_id"], r["id"], new["reviewer_status"],
             new["reviewer_note"], new["summary"], new["severity"], edited, author, utcnow().isoformat()))

    def _carry_decisions(self, run_id: str, findings: list[Finding]) -> None:
        """Apply the room's earlier decisions to newly stored findings (inside add_findings' transaction)."""
        room = self._db.execute("SELECT room FROM runs WHERE id=?", (run_id,)).fetchone()
        if room is None or not findings:
            return
        for f in findings:
            c = f.citation
            d = self._db.execute(
                "SELECT * FROM decisions WHERE room=? AND document_id=? AND char_start=? AND char_end=? AND run_id!=?",
                (room[0], c.document_id, c.char_start, c.char_end, run_id)).fetchone()
            if d is None:
                continue
            extra = {**f.extra, "carried_from": d["run_id"]}
            summary = d["summary"] if d["edited"] and d["summary"] else f.summary
            severity = d["severity"] if d["edited"] and d["severity"] else f.severity.value
            self._db.execute(
                "UPDATE findings SET reviewer_status=?, reviewer_note=?, summary=?, severity=?, extra_json=?"
                " WHERE run_id=? AND id=?",
                (d["reviewer_status"], d["reviewer_note"] or "", summary, severity, json.dumps(extra), run_id, f.id))
            old = {"reviewer_status": f.reviewer_status.value, "reviewer_note": f.reviewer_note,
                   "summary": f.summary, "severity": f.severity.value}
            new = {"reviewer_status": d["reviewer_status"], "reviewer_note": d["reviewer_note"] or "",
                   "summary": summary, "severity": severity, "carried_from": d["run_id"]}
            self._db.execute(
                "INSERT INTO actions (run_id, finding_id, action, old_json, new_json, author, at) VALUES (?,?,?,?,?,?,?)",
                (run_id, f.id, "carried over", json.dumps(old), json.dumps(new), d["author"], utcnow().isoformat()))

    def decisions(self, room: str) -> int:
        """How many passages of the room carry a reviewer decision."""
        return self._q("SELECT COUNT(*) FROM decisions WHERE room=?", (room,))[0][0]

    # ------------------------------------------------------------------ memo inputs
    def set_searched(self, run_id: str, searched: dict[str, str], documents: dict[str, int] | None = None) -> None:
        """The follow-up searches of a run (item -> query), so a memo re-derived outside the graph (after a
        reviewer's decision) can still say 'searched for and not found'."""
        documents = documents or {}
        with self._transaction():
            for item, query in searched.items():
                self._db.execute("INSERT OR REPLACE INTO run_searched VALUES (?,?,?,?)",
                                 (run_id, item, query, documents.get(item, 0)))

    def searched(self, run_id: str) -> tuple[dict[str, str], dict[str, int]]:
        rows = self._q("SELECT item, query, documents FROM run_searched WHERE run_id=? ORDER BY item", (run_id,))
        return {r[0]: r[1] for r in rows}, {r[0]: r[2] for r in rows}

    def document_facts(self, document_ids: list[str], version: str | None = None) -> dict[str, dict]:
        """Cached agreement facts (agents.facts) by document id: of the extractor `version` only, or as last
        read by any version (None: what a memo shows between an upgrade and the document's next review)."""
        out: dict[str, dict] = {}
        for i in range(0, len(document_ids), 500):
            part = document_ids[i:i + 500]
            cond = "" if version is None else "version=? AND "
            rows = self._q(f"SELECT document_id, facts_json FROM document_facts WHERE {cond}document_id IN"
                           f" ({','.join('?' * len(part))})", (*([version] if version else []), *part))
            out.update({r[0]: json.loads(r[1]) for r in rows})
        return out

    def put_document_facts(self, document_id: str, version: str, facts: dict) -> None:
        self._q("INSERT OR REPLACE INTO document_facts VALUES (?,?,?)", (document_id, version, json.dumps(facts)))
