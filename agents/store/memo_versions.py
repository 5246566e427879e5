"""Memo versions in the review store: agent versions, reviewer edits, pending agent proposals."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from core.types import Memo, MemoAuthor, MemoSection, utcnow

from agents.store.backend import Conflict


def _dt(value: str) -> datetime:
    return datetime.fromisoformat(value)


def _lock_key(run_id: str, key: str) -> str:
    return f"memo:{run_id}:{key}"


class MemoVersionsMixin:
    """Needs `_q`, `_db`, `_transaction`, `run` and `add_event` from ReviewStore."""

    def _versions(self, run_id: str, key: str) -> list[MemoSection]:
        rows = self._q("SELECT * FROM memo_versions WHERE run_id=? AND key=? ORDER BY version", (run_id, key))
        return [self._section(r) for r in rows]

    def _latest(self, run_id: str, key: str, current_only: bool = False) -> MemoSection | None:
        """The newest version (or the newest non-proposal one) without reading the others: a long run
        stores a section hundreds of times, and reading every version on each write made writes quadratic."""
        rows = self._q("SELECT * FROM memo_versions WHERE run_id=? AND key=?" + (" AND proposal=0" if current_only else "")
                       + " ORDER BY version DESC LIMIT 1", (run_id, key))
        return self._section(rows[0]) if rows else None

    def reviewer_edited(self, run_id: str, key: str) -> bool:
        """Whether a reviewer ever wrote this section (an edit, a restore or an accepted proposal)."""
        return bool(self._q("SELECT 1 FROM memo_versions WHERE run_id=? AND key=? AND author='reviewer' LIMIT 1",
                            (run_id, key)))

    @staticmethod
    def _section(r: sqlite3.Row) -> MemoSection:
        return MemoSection(
            key=r["key"], title=r["title"], text=r["text"], finding_ids=json.loads(r["finding_ids"]),
            version=r["version"], author=MemoAuthor(r["author"]), editor=r["editor"] or "", created_at=_dt(r["created_at"]),
            proposal=bool(r["proposal"]),
        )

    def _insert_section(self, run_id: str, s: MemoSection, position: int) -> MemoSection:
        self._q(
            "INSERT INTO memo_versions (run_id, key, title, position, text, finding_ids, version, author, proposal,"
            " created_at, editor) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
            (run_id, s.key, s.title, position, s.text, json.dumps(s.finding_ids), s.version, s.author.value,
             int(s.proposal), s.created_at.isoformat(), s.editor),
        )
        return s

    def save_agent_section(self, run_id: str, section: MemoSection, position: int) -> tuple[MemoSection, bool]:
        """Store the agent's version of a section; (stored section, whether anything new was stored).

        Unchanged text is not a new version. If a reviewer edited the section, the agent's text
        becomes a pending proposal and the reviewer's text stays current."""
        with self._transaction():
            self._db.lock(_lock_key(run_id, section.key))  # the run's worker and the app write the same sections
            last = self._latest(run_id, section.key)
            current = last if last is None or not last.proposal else self._latest(run_id, section.key, current_only=True)
            edited = current is not None and current.author == MemoAuthor.reviewer
            same_as = last if edited and last and last.proposal else current
            if same_as is not None and same_as.text == section.text and same_as.finding_ids == section.finding_ids:
                return same_as, False
            stored = section.model_copy(update={
                "version": (last.version + 1) if last else 1, "author": MemoAuthor.agent,
                "proposal": edited, "created_at": utcnow(),
            })
            return self._insert_section(run_id, stored, position), True

    def save_reviewer_edit(self, run_id: str, key: str, text: str, author: str,
                           expected_version: int | None = None) -> MemoSection:
        """A reviewer's edit (or a restore of an old version): a new current version the agent will not overwrite.

        `expected_version` is the version of the section the reviewer was shown: if another version became
        current since (a colleague's save, the agent's revision of an unedited section), Conflict is raised
        and nothing is stored. A pending agent proposal is no conflict: it never replaced what they saw."""
        with self._transaction():
            self._db.lock(_lock_key(run_id, key))
            base = self._latest(run_id, key)
            if base is None:
                raise KeyError(f"run {run_id} has no memo section {key!r}")
            current = base if not base.proposal else self._latest(run_id, key, current_only=True)
            if expected_version is not None and current is not None and current.version != expected_version:
                by = "the agent" if current.author == MemoAuthor.agent else current.editor
                raise Conflict("section", by, current.version)
            pos = self._q("SELECT position FROM memo_versions WHERE run_id=? AND key=? LIMIT 1", (run_id, key))[0][0]
            s = MemoSection(key=key, title=base.title, text=text, finding_ids=base.finding_ids,
                            version=base.version + 1, author=MemoAuthor.reviewer, editor=author, proposal=False)
            self._insert_section(run_id, s, pos)
        self.add_event(run_id, "memo_section", {"key": key, "version": s.version, "author": "reviewer", "by": author})
        return s

    def memo(self, run_id: str) -> Memo:
        """Latest current (non-proposal) version of every section, in display order."""
        run = self.run(run_id)
        rows = self._q(
            "SELECT m.* FROM memo_versions m JOIN (SELECT key, MAX(version) AS v FROM memo_versions"
            " WHERE run_id=? AND proposal=0 GROUP BY key) l ON m.key=l.key AND m.version=l.v"
            " WHERE m.run_id=? ORDER BY m.position", (run_id, run_id),
        )
        return Memo(room=run.room if run else "", run_id=run_id, sections=[self._section(r) for r in rows])

    def memo_versions(self, run_id: str, key: str) -> list[MemoSection]:
        """Every version of a section, oldest first, proposals included (flagged)."""
        return self._versions(run_id, key)

    def memo_proposal(self, run_id: str, key: str) -> MemoSection | None:
        """The agent's pending revision of a reviewer-edited section, if it is newer than the edit."""
        last = self._latest(run_id, key)
        return last if last is not None and last.proposal else None

    def accept_proposal(self, run_id: str, key: str, author: str) -> MemoSection:
        """The reviewer takes the agent's pending revision: it becomes the reviewer's current version."""
        prop = self.memo_proposal(run_id, key)
        if prop is None:
            raise KeyError(f"run {run_id}: no pending agent proposal for {key!r}")
        return self.save_reviewer_edit(run_id, key, prop.text, author)
