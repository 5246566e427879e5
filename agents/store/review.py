"""The review store: runs, assignments, findings, reviewer actions, memo versions, events.

SQLite at `settings.db_path()` (WAL mode, so the app reads while a run's worker
process writes), or PostgreSQL when `settings.database.url` is set (team mode;
agents/store/backend.py holds the differences). The app reads ONLY through these methods. Reviewer edits are
versions that the agent never overwrites: a later agent revision of an edited
section is stored as a pending proposal (`MemoSection.proposal`).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from core.settings import Settings
from core.types import (
    SEVERITY_ORDER,
    Assignment,
    AssignmentStatus,
    Citation,
    Document,
    Event,
    Finding,
    ParseStatus,
    ReviewerStatus,
    Severity,
    utcnow,
)

from agents.store.access import AccessMixin
from agents.store.backend import Conflict, PostgresBackend, SQLiteBackend, is_postgres_url
from agents.store.coverage import CoverageMixin
from agents.store.decisions import AGENT_AUTHOR, DecisionsMixin
from agents.store.memo_versions import MemoVersionsMixin
from agents.store.table import TableMixin
from agents.store.models import (
    INDEXES, MIGRATIONS, SCHEMA, AssignmentNode, FindingTally, ReviewerAction, RunInfo, TokenUsage, joined_extra, with_reading,
)

_SECRET_KEYS = {"api_key", "url"}  # database.url may hold a password (llm.base_url is kept)


def settings_snapshot(settings: Settings) -> dict[str, Any]:
    """Settings as plain JSON with every secret removed (not masked: removed)."""

    def scrub(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: scrub(v) for k, v in node.items() if k not in _SECRET_KEYS}
        return node

    return scrub(settings.model_dump(mode="json"))


def _now() -> str:
    return utcnow().isoformat()


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


class ReviewStore(MemoVersionsMixin, CoverageMixin, DecisionsMixin, TableMixin, AccessMixin):
    """`target` is the SQLite file (the default) or a PostgreSQL URL (team mode, `database.url`); the
    mixins' SQL is the same for both (agents/store/backend.py translates it)."""

    def __init__(self, target: Path | str, runs_dir: Path | str | None = None):
        postgres = is_postgres_url(str(target))
        self.path = None if postgres else Path(target)
        if runs_dir is None and self.path is None:
            raise ValueError("a store on PostgreSQL needs the workspace's runs folder (runs_dir)")
        self.runs_dir = Path(runs_dir) if runs_dir is not None else self.path.parent / "runs"
        self._lock = threading.RLock()  # one connection per store, shared by the app's sessions and a run's lanes
        self._db: SQLiteBackend | PostgresBackend = PostgresBackend(str(target)) if postgres else SQLiteBackend(target)
        with self._lock:
            self._db.migrate(SCHEMA, MIGRATIONS, INDEXES)

    @property
    def backend(self) -> str:
        """'sqlite' or 'postgres'."""
        return self._db.name

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _q(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        with self._lock:
            return self._db.execute(sql, tuple(params)).fetchall()

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """BEGIN ... COMMIT, or nothing when already inside one (`batch`): the outer one commits."""
        with self._lock, self._db.transaction():
            yield

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Group several writes (a sub-agent's findings, its status, its events) into one transaction: one
        WAL commit instead of one per statement. Readers see all of them or none."""
        with self._transaction():
            yield

    def _tx(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self._transaction():
            for sql, params in statements:
                self._db.execute(sql, params)

    # ------------------------------------------------------------------ runs
    def create_run(self, run_id: str, room: str, settings: Settings, documents: list[Document],
                   status: str = "running") -> None:
        """Register a run (idempotent) and snapshot the room's inventory, so the app needs only the store."""
        snap = json.dumps(settings_snapshot(settings))
        stmts = [
            ("INSERT OR IGNORE INTO runs (id, room, status, settings_json, started_at) VALUES (?,?,?,?,?)",
             (run_id, room, status, snap, _now())),
            ("UPDATE runs SET status=?, settings_json=?, finished_at=NULL WHERE id=?", (status, snap, run_id)),
        ]
        for d in documents:
            st = d.status.value if isinstance(d.status, ParseStatus) else str(d.status)
            stmts.append((
                "INSERT OR IGNORE INTO run_documents VALUES (?,?,?,?,?,?,?,?,?)",
                (run_id, d.id, d.path, d.folder, d.doc_type, d.pages, d.tokens, st, d.reason),
            ))
        self._tx(stmts)

    def set_run_status(self, run_id: str, status: str, error: str = "", stats: dict | None = None) -> None:
        finished = _now() if status in ("finished", "stopped", "failed") else None
        self._q(
            "UPDATE runs SET status=?, error=?, finished_at=?, stats_json=COALESCE(?, stats_json) WHERE id=?",
            (status, error, finished, json.dumps(stats) if stats is not None else None, run_id),
        )

    def set_run_stats(self, run_id: str, stats: dict) -> None:
        """Replace the run's stats only (status and times stay), e.g. to record a score after the run."""
        self._q("UPDATE runs SET stats_json=? WHERE id=?", (json.dumps(stats), run_id))

    def set_run_pid(self, run_id: str, pid: int | None) -> None:
        self._q("UPDATE runs SET pid=? WHERE id=?", (pid, run_id))

    def run(self, run_id: str) -> RunInfo | None:
        rows = self._q("SELECT * FROM runs WHERE id=?", (run_id,))
        return self._run_info(rows[0]) if rows else None

    def runs(self, room: str | None = None) -> list[RunInfo]:
        sql, params = "SELECT * FROM runs", ()
        if room is not None:
            sql, params = sql + " WHERE room=?", (room,)
        return [self._run_info(r) for r in self._q(sql + " ORDER BY started_at DESC", params)]

    @staticmethod
    def _run_info(r: sqlite3.Row) -> RunInfo:
        return RunInfo(
            id=r["id"], room=r["room"], status=r["status"], settings=json.loads(r["settings_json"]), pid=r["pid"],
            started_at=_dt(r["started_at"]), finished_at=_dt(r["finished_at"]), error=r["error"] or "",
            stats=json.loads(r["stats_json"] or "{}"),
        )

    def run_documents(self, run_id: str) -> list[sqlite3.Row]:
        return self._q("SELECT * FROM run_documents WHERE run_id=? ORDER BY path", (run_id,))

    # ------------------------------------------------------------------ assignments
    def put_assignment(
        self, run_id: str, a: Assignment, parent_id: str | None, pass_: str, leaf: bool
    ) -> None:
        """Record a planned assignment once; later calls keep the stored status."""
        self._q(
            "INSERT OR IGNORE INTO assignments (run_id, id, parent_id, agent, depth, pass, leaf, document_ids,"
            " chunk_range, categories, instructions, status, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (run_id, a.id, parent_id, a.agent, a.depth, pass_, int(leaf), json.dumps(a.document_ids),
             json.dumps(a.chunk_range), json.dumps(a.categories), a.instructions, a.status.value, _now()),
        )

    def start_assignment(self, run_id: str, assignment_id: str) -> None:
        """Mark running and count one execution (the kill test proves each finished leaf ran once)."""
        self._q(
            "UPDATE assignments SET status='running', executions=executions+1 WHERE run_id=? AND id=?",
            (run_id, assignment_id),
        )

    def finish_assignment(self, run_id: str, a: Assignment, calls: int = 0) -> None:
        self._q(
            "UPDATE assignments SET status=?, error=?, tokens_in=?, tokens_out=?, calls=?, seconds=?, report=?,"
            " finished_at=? WHERE run_id=? AND id=?",
            (a.status.value, a.error, a.tokens_in, a.tokens_out, calls, a.seconds, a.report, _now(), run_id, a.id),
        )

    def assignment(self, run_id: str, assignment_id: str) -> Assignment | None:
        rows = self._q("SELECT * FROM assignments WHERE run_id=? AND id=?", (run_id, assignment_id))
        return self._assignment(rows[0]) if rows else None

    def assignment_rows(self, run_id: str) -> list[sqlite3.Row]:
        return self._q("SELECT * FROM assignments WHERE run_id=? ORDER BY created_at, id", (run_id,))

    @staticmethod
    def _assignment(r: sqlite3.Row) -> Assignment:
        cr = json.loads(r["chunk_range"]) if r["chunk_range"] else None
        return Assignment(
            id=r["id"], agent=r["agent"], document_ids=json.loads(r["document_ids"]),
            chunk_range=tuple(cr) if cr else None, instructions=r["instructions"] or "",
            categories=json.loads(r["categories"] or "[]"), depth=r["depth"], status=AssignmentStatus(r["status"]),
            error=r["error"] or "", tokens_in=r["tokens_in"], tokens_out=r["tokens_out"], seconds=r["seconds"],
            report=r["report"] or "",
        )

    def assignment_tree(self, run_id: str) -> list[AssignmentNode]:
        rows = self.assignment_rows(run_id)
        counts = {r["assignment_id"]: r["n"] for r in self._q(
            "SELECT assignment_id, COUNT(*) AS n FROM findings WHERE run_id=? GROUP BY assignment_id", (run_id,))}
        nodes = {
            r["id"]: AssignmentNode(assignment=self._assignment(r), parent_id=r["parent_id"], pass_=r["pass"],
                                    executions=r["executions"], findings=counts.get(r["id"], 0))
            for r in rows
        }
        roots: list[AssignmentNode] = []
        for node in nodes.values():
            parent = nodes.get(node.parent_id) if node.parent_id else None
            (parent.children if parent else roots).append(node)
        return roots

    # ------------------------------------------------------------------ findings
    def add_findings(self, run_id: str, findings: list[Finding], assignment_id: str | None) -> list[str]:
        """Insert findings; returns the new ids. One passage is one finding: a duplicate id (same category,
        document, quote) is merged into the first, and a finding on a passage already stored under another
        item adds that item to the stored finding's `also` (and its severity, if higher). A new finding on a
        passage the reviewer decided in an earlier run of the room carries that decision."""
        new: list[str] = []
        if not findings:
            return new
        with self._transaction():
            # only the cited documents' folders, by primary key: reading all run_documents per call
            # made every sub-agent's write O(room size)
            folders = {d: r[0] for d in {f.citation.document_id for f in findings} for r in self._db.execute(
                "SELECT folder FROM run_documents WHERE run_id=? AND document_id=?", (run_id, d)).fetchall()}
            stored: list[Finding] = []
            for f in findings:
                c = f.citation
                if self._merge_same_passage(run_id, f):
                    continue
                cur = self._db.execute(
                    "INSERT OR IGNORE INTO findings (run_id, id, category, severity, summary, quote, document_id,"
                    " document_path, folder, page, chunk_id, char_start, char_end, verified, reviewer_status,"
                    " reviewer_note, agent, confidence, extra_json, assignment_id, created_at, also_json, section)"
                    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (run_id, f.id, f.category, f.severity.value, f.summary, f.quote, c.document_id,
                     c.document_path, folders.get(c.document_id, ""), c.page, c.chunk_id, c.char_start,
                     c.char_end, int(f.verified), f.reviewer_status.value, f.reviewer_note, f.agent,
                     f.confidence, json.dumps(f.extra), assignment_id, _now(), json.dumps(f.also), c.section),
                )
                if cur.rowcount:
                    new.append(f.id)
                    stored.append(f)
            self._carry_decisions(run_id, stored)
        return new

    def _merge_same_passage(self, run_id: str, f: Finding) -> bool:
        """True when `f`'s passage is already a finding of the run under another id: its items join that one."""
        c = f.citation
        if c.char_start < 0:
            return False
        row = self._db.execute(
            "SELECT id, category, severity, also_json, verified, quote, extra_json, summary FROM findings WHERE run_id=? AND document_id=?"
            " AND char_start=? AND char_end=? AND id!=? LIMIT 1",
            (run_id, c.document_id, c.char_start, c.char_end, f.id)).fetchone()
        if row is None or bool(row["verified"]) != f.verified or row["quote"].split() != f.quote.split():
            return False
        also = json.loads(row["also_json"] or "[]")
        if SEVERITY_ORDER[f.severity] < SEVERITY_ORDER[Severity(row["severity"])]:
            # the passage is filed under its most severe reading and says that reading: a limitation clause
            # with a carve-out reads "the limits do not apply to ...", not "the agreement limits liability"
            items = [f.category] + [i for i in [row["category"], *also, *f.also] if i != f.category]
            # its facts too (conditions, counterparty): the first reading's would contradict the sentence shown
            extra = joined_extra(f.extra, json.loads(row["extra_json"] or "{}"))
            if row["category"] != f.category:
                extra = with_reading(extra, row["category"], row["summary"], row["severity"])
            self._db.execute("UPDATE findings SET category=?, also_json=?, severity=?, summary=?, extra_json=? "
                             "WHERE run_id=? AND id=?",
                             (f.category, json.dumps(list(dict.fromkeys(items[1:]))), f.severity.value, f.summary,
                              json.dumps(extra), run_id, row["id"]))
            return True
        add = [i for i in f.items if i != row["category"] and i not in also]
        if add:
            extra = json.loads(row["extra_json"] or "{}")
            if f.category != row["category"]:
                extra = with_reading(extra, f.category, f.summary, f.severity.value)
            self._db.execute("UPDATE findings SET also_json=?, extra_json=? WHERE run_id=? AND id=?",
                             (json.dumps(also + add), json.dumps(extra), run_id, row["id"]))
        return True

    def findings(
        self,
        run_id: str,
        *,
        category: str | None = None,
        severity: str | None = None,
        document_id: str | None = None,
        folder: str | None = None,
        verified: bool | None = None,
        reviewer_status: str | None = None,
        assignment_id: str | None = None,
        citable: bool = False,
        limit: int | None = None,
    ) -> list[Finding]:
        """Findings of a run, filtered; most severe first, then by document path.
        `citable`: only what the memo may cite (verified, not rejected by the reviewer)."""
        where, params = self._finding_filter(run_id, citable, category=category)
        for col, val in (("severity", severity), ("document_id", document_id),
                         ("folder", folder), ("reviewer_status", reviewer_status), ("assignment_id", assignment_id)):
            if val is not None:
                where.append(f"{col}=?")
                params.append(val)
        if verified is not None:
            where.append("verified=?")
            params.append(int(verified))
        rows = self._q(
            "SELECT * FROM findings WHERE " + " AND ".join(where) +
            " ORDER BY CASE severity WHEN 'high' THEN 0 WHEN 'medium' THEN 1 WHEN 'low' THEN 2 ELSE 3 END,"
            " document_path, char_start" + (f" LIMIT {int(limit)}" if limit is not None else ""), params,
        )
        return [self._finding(r) for r in rows]

    @staticmethod
    def _finding_filter(run_id: str, citable: bool, category: str | None = None) -> tuple[list[str], list[Any]]:
        """`category` matches a finding filed under the item or answering it as well (`also`)."""
        where, params = ["run_id=?"], [run_id]
        if category is not None:
            where.append("(category=? OR also_json LIKE ?)")
            params += [category, f'%{json.dumps(category)}%']
        if citable:
            where.append("verified=1 AND reviewer_status!='rejected'")
        return where, params

    def finding_tally(self, run_id: str, category: str | None = None) -> FindingTally:
        """Counts of the citable findings by category and severity, and how many documents they are in:
        what a memo section states without reading every finding (a 5,000-document room has 40,000)."""
        where, params = self._finding_filter(run_id, True, category=category)
        cond = " AND ".join(where)
        rows = self._q(f"SELECT category, also_json, severity, COUNT(*) FROM findings WHERE {cond}"
                       " GROUP BY category, also_json, severity", params)
        counts: dict[tuple[str, str], int] = {}
        for cat, also, sev, n in rows:  # a finding counts under each item it answers
            for item in dict.fromkeys([cat, *json.loads(also or "[]")]):
                if category is None or item == category:
                    counts[(item, sev)] = counts.get((item, sev), 0) + n
        docs, n, high = self._q(f"SELECT COUNT(DISTINCT document_id), COUNT(*), COALESCE(SUM(CASE WHEN severity='high' THEN 1 ELSE 0 END), 0)"
                                f" FROM findings WHERE {cond}", params)[0]
        return FindingTally(counts=counts, documents=docs, findings=n, high_findings=high)

    def rejected_count(self, run_id: str) -> int:
        return self._q("SELECT COUNT(*) FROM findings WHERE run_id=? AND reviewer_status='rejected'", (run_id,))[0][0]

    def items_by_document(self, run_id: str) -> dict[str, set[str]]:
        """Per document, the checklist items its citable findings answer (the agreements matrix)."""
        out: dict[str, set[str]] = {}
        where, params = self._finding_filter(run_id, True)
        for doc, cat, also in self._q(f"SELECT DISTINCT document_id, category, also_json FROM findings WHERE "
                                      f"{' AND '.join(where)}", params):
            out.setdefault(doc, set()).update([cat, *json.loads(also or "[]")])
        return out

    def finding(self, finding_id: str, run_id: str | None = None) -> Finding | None:
        rows = self._finding_rows(finding_id, run_id)
        return self._finding(rows[0]) if rows else None

    def _finding_rows(self, finding_id: str, run_id: str | None) -> list[sqlite3.Row]:
        if run_id is not None:
            return self._q("SELECT * FROM findings WHERE id=? AND run_id=?", (finding_id, run_id))
        return self._q("SELECT * FROM findings WHERE id=? ORDER BY created_at DESC LIMIT 1", (finding_id,))

    @staticmethod
    def _finding(r: sqlite3.Row) -> Finding:
        return Finding(
            id=r["id"], category=r["category"], severity=Severity(r["severity"]), summary=r["summary"],
            quote=r["quote"], verified=bool(r["verified"]), reviewer_status=ReviewerStatus(r["reviewer_status"]),
            reviewer_note=r["reviewer_note"] or "", agent=r["agent"] or "", confidence=r["confidence"] or 0.0,
            extra=json.loads(r["extra_json"] or "{}"), also=json.loads(r["also_json"] or "[]"),
            citation=Citation(document_id=r["document_id"], document_path=r["document_path"] or "",
                              page=r["page"] or 1, chunk_id=r["chunk_id"] or "",
                              char_start=r["char_start"], char_end=r["char_end"], section=r["section"] or ""),
        )

    def finding_for_edit(self, finding_id: str, run_id: str) -> tuple[Finding, int] | None:
        """The finding and its version, read together: what a page shows and passes back as
        `expected_version` when the reviewer decides, so a decision made meanwhile is not overwritten."""
        rows = self._finding_rows(finding_id, run_id)
        return (self._finding(rows[0]), int(rows[0]["version"])) if rows else None

    def set_finding_review(
        self,
        finding_id: str,
        status: str,
        note: str,
        author: str,
        summary: str | None = None,
        severity: str | None = None,
        run_id: str | None = None,
        expected_version: int | None = None,
    ) -> Finding:
        """Record a reviewer's decision; every change is kept as an action (old/new values, author, time).

        Without run_id the finding's most recent run is meant (ids are content-derived, so the
        same finding can appear in several runs of a room). `expected_version` is the version the
        reviewer saw (`finding_for_edit`): if someone decided since, Conflict is raised and nothing changes."""
        found = self._finding_rows(finding_id, run_id)
        if not found:
            raise KeyError(f"no finding {finding_id}")
        with self._transaction():
            # read again inside the transaction (locked on PostgreSQL): the check and the write see one state
            r = self._db.execute("SELECT * FROM findings WHERE run_id=? AND id=?" + self._db.for_update,
                                 (found[0]["run_id"], finding_id)).fetchone()
            if expected_version is not None and r["version"] != expected_version:
                last = self._db.execute("SELECT author FROM actions WHERE run_id=? AND finding_id=? ORDER BY id DESC"
                                        " LIMIT 1", (r["run_id"], finding_id)).fetchone()
                by = last["author"] if last else ""
                raise Conflict("finding", "the agent" if by.startswith(AGENT_AUTHOR) else by, r["version"])
            old = {"reviewer_status": r["reviewer_status"], "reviewer_note": r["reviewer_note"] or "",
                   "summary": r["summary"], "severity": r["severity"]}
            new = {"reviewer_status": ReviewerStatus(status).value, "reviewer_note": note,
                   "summary": summary if summary is not None else r["summary"],
                   "severity": Severity(severity).value if severity is not None else r["severity"]}
            if new == old:
                return self._finding(r)
            # a note alone is logged as a note, not as the decision the finding already had
            action = "note" if all(new[k] == old[k] for k in new if k != "reviewer_note") else new["reviewer_status"]
            self._db.execute(
                "UPDATE findings SET reviewer_status=?, reviewer_note=?, summary=?, severity=?, version=version+1"
                " WHERE run_id=? AND id=?",
                (new["reviewer_status"], note, new["summary"], new["severity"], r["run_id"], finding_id))
            self._db.execute(
                "INSERT INTO actions (run_id, finding_id, action, old_json, new_json, author, at) VALUES (?,?,?,?,?,?,?)",
                (r["run_id"], finding_id, action, json.dumps(old), json.dumps(new), author, _now()))
            self._record_decision(r, new, author)
        return self.finding(finding_id, r["run_id"])  # type: ignore[return-value]

    def actions(self, run_id: str) -> list[ReviewerAction]:
        return [
            ReviewerAction(id=r["id"], run_id=r["run_id"], finding_id=r["finding_id"], action=r["action"],
                           old=json.loads(r["old_json"]), new=json.loads(r["new_json"]), author=r["author"],
                           at=_dt(r["at"]))
            for r in self._q("SELECT * FROM actions WHERE run_id=? ORDER BY id", (run_id,))
        ]

    # ------------------------------------------------------------------ events
    def add_event(self, run_id: str, kind: str, data: dict[str, Any]) -> Event:
        ev = Event(run_id=run_id, kind=kind, data=data)
        with self._lock:
            rows = self._db.execute(
                "INSERT INTO events (run_id, kind, data, at) VALUES (?,?,?,?) RETURNING id",
                (run_id, kind, json.dumps(data, default=str), ev.at.isoformat()),
            ).fetchall()
            ev.id = int(rows[0][0])
        return ev

    def builtin_reviewed(self, run_id: str) -> dict[str, str]:
        """Documents whose review the built-in reviewer took over from an unusable sub model (id -> why), from
        the finished assignments' events: a review of a failed assignment is not counted (it is done again)."""
        out: dict[str, str] = {}
        for r in self._q("SELECT data FROM events WHERE run_id=? AND kind='assignment_finished' ORDER BY id", (run_id,)):
            data = json.loads(r["data"])
            if data.get("status") == "done":
                out.update(data.get("builtin_reviewed") or {})
        return out

    def events_since(self, run_id: str, after_id: int = 0, limit: int = 1000) -> list[Event]:
        rows = self._q("SELECT * FROM events WHERE run_id=? AND id>? ORDER BY id LIMIT ?", (run_id, after_id, limit))
        return [Event(id=r["id"], run_id=r["run_id"], kind=r["kind"], data=json.loads(r["data"]), at=_dt(r["at"]))
                for r in rows]

    # ------------------------------------------------------------------ trajectory
    def trajectory(self, run_id: str, offset: int = 0, limit: int = 500) -> list[dict[str, Any]]:
        """Trajectory records (root steps, sub-agent calls) from workspace/runs/<run_id>/trajectory.jsonl."""
        path = self.runs_dir / run_id / "trajectory.jsonl"
        if not path.exists():
            return []
        out = []
        with path.open(encoding="utf-8") as fh:
            for i, line in enumerate(fh):
                if i < offset or not line.strip():
                    continue
                if len(out) >= limit:
                    break
                out.append(json.loads(line))
        return out

    # ------------------------------------------------------------------ root usage
    def record_root_step(self, run_id: str, step: int, tokens_in: int, tokens_out: int, calls: int,
                         seconds: float, tool_calls: list[dict]) -> None:
        self._q("INSERT OR REPLACE INTO root_steps VALUES (?,?,?,?,?,?,?)",
                (run_id, step, tokens_in, tokens_out, calls, seconds, json.dumps(tool_calls)))

    def token_usage(self, run_id: str) -> TokenUsage:
        root = self._q("SELECT COALESCE(SUM(tokens_in),0), COALESCE(SUM(tokens_out),0), COALESCE(SUM(calls),0)"
                       " FROM root_steps WHERE run_id=?", (run_id,))[0]
        sub = self._q("SELECT COALESCE(SUM(tokens_in),0), COALESCE(SUM(tokens_out),0), COALESCE(SUM(calls),0)"
                      " FROM assignments WHERE run_id=? AND leaf=1", (run_id,))[0]
        return TokenUsage(root_in=root[0], root_out=root[1], root_calls=root[2],
                          sub_in=sub[0], sub_out=sub[1], sub_calls=sub[2])

def open_review_store(settings: Settings) -> ReviewStore:
    """The installation's review store: PostgreSQL when `database.url` is set, else the workspace's SQLite."""
    return ReviewStore(settings.database.dsn() or settings.db_path(), settings.runs_dir())
