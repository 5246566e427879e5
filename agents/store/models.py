"""Schema of the review store (SQLite) and the read models it returns to the app."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from core.types import Assignment

SCHEMA = """
PRAGMA journal_mode=WAL;
CREATE TABLE IF NOT EXISTS runs (
    id TEXT PRIMARY KEY, room TEXT NOT NULL, status TEXT NOT NULL, settings_json TEXT NOT NULL,
    pid INTEGER, started_at TEXT NOT NULL, finished_at TEXT, error TEXT DEFAULT '', stats_json TEXT DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS run_documents (
    run_id TEXT NOT NULL, document_id TEXT NOT NULL, path TEXT NOT NULL, folder TEXT NOT NULL, doc_type TEXT,
    pages INTEGER, tokens INTEGER, status TEXT NOT NULL, reason TEXT DEFAULT '',
    PRIMARY KEY (run_id, document_id)
);
CREATE TABLE IF NOT EXISTS assignments (
    run_id TEXT NOT NULL, id TEXT NOT NULL, parent_id TEXT, agent TEXT NOT NULL, depth INTEGER NOT NULL,
    pass TEXT NOT NULL, leaf INTEGER NOT NULL, document_ids TEXT NOT NULL, chunk_range TEXT, categories TEXT,
    instructions TEXT, status TEXT NOT NULL, error TEXT DEFAULT '', tokens_in INTEGER DEFAULT 0,
    tokens_out INTEGER DEFAULT 0, calls INTEGER DEFAULT 0, seconds REAL DEFAULT 0, report TEXT DEFAULT '',
    executions INTEGER DEFAULT 0, created_at TEXT NOT NULL, finished_at TEXT,
    PRIMARY KEY (run_id, id)
);
CREATE TABLE IF NOT EXISTS findings (
    run_id TEXT NOT NULL, id TEXT NOT NULL, category TEXT NOT NULL, severity TEXT NOT NULL, summary TEXT NOT NULL,
    quote TEXT NOT NULL, document_id TEXT NOT NULL, document_path TEXT, folder TEXT, page INTEGER,
    chunk_id TEXT, char_start INTEGER, char_end INTEGER, verified INTEGER NOT NULL,
    reviewer_status TEXT NOT NULL DEFAULT 'open', reviewer_note TEXT DEFAULT '', agent TEXT, confidence REAL,
    extra_json TEXT DEFAULT '{}', assignment_id TEXT, created_at TEXT NOT NULL, also_json TEXT DEFAULT '[]',
    PRIMARY KEY (run_id, id)
);
CREATE TABLE IF NOT EXISTS actions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, finding_id TEXT NOT NULL, action TEXT NOT NULL,
    old_json TEXT NOT NULL, new_json TEXT NOT NULL, author TEXT NOT NULL, at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS memo_versions (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, key TEXT NOT NULL, title TEXT NOT NULL,
    position INTEGER NOT NULL, text TEXT NOT NULL, finding_ids TEXT NOT NULL, version INTEGER NOT NULL,
    author TEXT NOT NULL, proposal INTEGER NOT NULL DEFAULT 0, created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS findings_by_category ON findings (run_id, category);
CREATE INDEX IF NOT EXISTS memo_by_key ON memo_versions (run_id, key, version);
CREATE TABLE IF NOT EXISTS root_steps (
    run_id TEXT NOT NULL, step INTEGER NOT NULL, tokens_in INTEGER, tokens_out INTEGER, calls INTEGER,
    seconds REAL, tool_calls TEXT, PRIMARY KEY (run_id, step)
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL, at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_run ON events (run_id, id);
CREATE TABLE IF NOT EXISTS decisions (
    room TEXT NOT NULL, document_id TEXT NOT NULL, char_start INTEGER NOT NULL, char_end INTEGER NOT NULL,
    run_id TEXT NOT NULL, finding_id TEXT NOT NULL, reviewer_status TEXT NOT NULL, reviewer_note TEXT DEFAULT '',
    summary TEXT, severity TEXT, edited INTEGER NOT NULL DEFAULT 0, author TEXT NOT NULL, at TEXT NOT NULL,
    PRIMARY KEY (room, document_id, char_start, char_end)
);
CREATE TABLE IF NOT EXISTS run_searched (
    run_id TEXT NOT NULL, item TEXT NOT NULL, query TEXT NOT NULL, documents INTEGER DEFAULT 0,
    PRIMARY KEY (run_id, item)
);
CREATE TABLE IF NOT EXISTS document_facts (
    document_id TEXT PRIMARY KEY, version TEXT NOT NULL, facts_json TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS room_access (
    room TEXT NOT NULL, member TEXT NOT NULL, role TEXT NOT NULL, granted_by TEXT NOT NULL, at TEXT NOT NULL,
    PRIMARY KEY (room, member)
);
CREATE TABLE IF NOT EXISTS access_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT, room TEXT NOT NULL, member TEXT NOT NULL, role TEXT NOT NULL,
    granted_by TEXT NOT NULL, at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS table_answers (
    run_id TEXT NOT NULL, document_id TEXT NOT NULL, column_id TEXT NOT NULL, status TEXT NOT NULL,
    value TEXT NOT NULL, quotes_json TEXT NOT NULL DEFAULT '[]', confidence REAL DEFAULT 0,
    PRIMARY KEY (run_id, document_id, column_id)
);
CREATE TABLE IF NOT EXISTS table_builds (
    run_id TEXT PRIMARY KEY, columns_json TEXT NOT NULL, built_at TEXT NOT NULL, documents INTEGER DEFAULT 0
);
CREATE TABLE IF NOT EXISTS table_marks (
    room TEXT NOT NULL, document_id TEXT NOT NULL, column_id TEXT NOT NULL, verified INTEGER NOT NULL DEFAULT 0,
    flagged INTEGER NOT NULL DEFAULT 0, corrected TEXT, assignee TEXT DEFAULT '', note TEXT DEFAULT '',
    value_seen TEXT DEFAULT '', run_id TEXT NOT NULL, author TEXT NOT NULL, at TEXT NOT NULL,
    PRIMARY KEY (room, document_id, column_id)
);
CREATE TABLE IF NOT EXISTS table_columns (
    room TEXT NOT NULL, id TEXT NOT NULL, title TEXT NOT NULL, type TEXT NOT NULL, description TEXT DEFAULT '',
    author TEXT NOT NULL, at TEXT NOT NULL, position INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (room, id)
);
"""
# Columns added after a store was first created: (table, column, declaration).
MIGRATIONS = [("findings", "also_json", "TEXT DEFAULT '[]'"),
              ("memo_versions", "editor", "TEXT DEFAULT ''"),  # who wrote a reviewer version (signed-in e-mail)
              # bumped by every reviewer decision: a save naming an older one is a conflict, not an overwrite
              ("findings", "version", "INTEGER NOT NULL DEFAULT 0"),
              ("findings", "section", "TEXT DEFAULT ''")]  # the cited section ("§ 9.5"), read when the quote is located
# Created after the migrations, since they may name an added column.
INDEXES = """
CREATE INDEX IF NOT EXISTS findings_by_span ON findings (run_id, document_id, char_start, char_end);
"""


class RunInfo(BaseModel):
    """One run as the store knows it."""

    id: str = Field(description="Run id (also the LangGraph thread id).")
    room: str = Field(description="Data room reviewed.")
    status: str = Field(description="running / stopping / stopped / finished / failed.")
    settings: dict[str, Any] = Field(default_factory=dict, description="Settings snapshot, secrets removed.")
    pid: int | None = Field(None, description="Process id of the run's worker, while it runs.")
    started_at: datetime = Field(description="When the run was created (UTC).")
    finished_at: datetime | None = Field(None, description="When it finished or stopped (UTC).")
    error: str = Field("", description="Why it failed, when it did.")
    stats: dict[str, Any] = Field(default_factory=dict, description="Final stats (coverage, tokens, wall time).")


class DocumentReview(BaseModel):
    """Review status of one document in a run (the coverage map's cell)."""

    document_id: str = Field(description="Document id.")
    path: str = Field(description="Path in the room.")
    folder: str = Field(description="Folder in the room.")
    doc_type: str = Field("", description="File type.")
    pages: int = Field(0, description="Pages.")
    tokens: int = Field(0, description="Tokens.")
    status: str = Field(description="unreviewed / in_review / reviewed / flagged / failed / skipped (not parsed by "
                        "design: duplicate, junk, empty, unsupported).")
    reason: str = Field("", description="Parse failure or review failure reason.")
    findings: int = Field(0, description="Verified findings citing the document.")
    high: int = Field(0, description="Verified high-severity findings citing the document.")


class FolderCoverage(BaseModel):
    folder: str = Field(description="Folder path ('' = top level).")
    documents_reviewed: int = Field(0, description="Reviewed parsed documents in the folder.")
    documents_total: int = Field(0, description="Parsed documents in the folder.")
    tokens_reviewed: int = Field(0, description="Tokens of reviewed documents.")
    tokens_total: int = Field(0, description="Tokens of parsed documents.")
    failed_parse: int = Field(0, description="Documents that failed to parse (skipped files are not failures).")


class Coverage(BaseModel):
    """Documents and tokens reviewed / total, overall and per folder."""

    documents_reviewed: int = Field(0, description="Parsed documents whose review finished.")
    documents_total: int = Field(0, description="Parsed documents.")
    tokens_reviewed: int = Field(0, description="Tokens of reviewed documents.")
    tokens_total: int = Field(0, description="Tokens of parsed documents.")
    documents_in_review: int = Field(0, description="Documents with an assignment running.")
    documents_failed_review: int = Field(0, description="Documents whose review failed.")
    documents_failed_parse: int = Field(0, description="Documents that failed to parse.")
    documents_skipped: int = Field(0, description="Files not parsed by design: duplicates, OS junk, unsupported "
                                   "types, refused links and oversized files.")
    by_folder: list[FolderCoverage] = Field(default_factory=list, description="Per folder, sorted.")

    @property
    def documents_ratio(self) -> float:
        return self.documents_reviewed / self.documents_total if self.documents_total else 1.0

    @property
    def tokens_ratio(self) -> float:
        return self.tokens_reviewed / self.tokens_total if self.tokens_total else 1.0


class TokenUsage(BaseModel):
    """Tokens and calls of the root vs the sub-agents."""

    root_in: int = Field(0, description="Root prompt tokens.")
    root_out: int = Field(0, description="Root completion tokens.")
    root_calls: int = Field(0, description="Root model calls (steps).")
    sub_in: int = Field(0, description="Sub-agent prompt tokens.")
    sub_out: int = Field(0, description="Sub-agent completion tokens.")
    sub_calls: int = Field(0, description="Sub-agent model calls.")

    @property
    def total(self) -> int:
        return self.root_in + self.root_out + self.sub_in + self.sub_out

    @property
    def root_share(self) -> float:
        return (self.root_in + self.root_out) / self.total if self.total else 0.0


@dataclass(frozen=True)
class FindingTally:
    """Citable findings counted by (category, severity), and the number of documents they are in."""

    counts: dict[tuple[str, str], int] = field(default_factory=dict)
    documents: int = 0
    findings: int = 0  # distinct findings: one answering two items counts once here, under each item in `counts`
    high_findings: int = 0

    def total(self, category: str | None = None, severity: str | None = None) -> int:
        return sum(n for (c, s), n in self.counts.items()
                   if (category is None or c == category) and (severity is None or s == severity))

    def categories(self) -> set[str]:
        return {c for (c, _), n in self.counts.items() if n}


class AssignmentNode(BaseModel):
    """An assignment with its children: the agent tree (root -> sub-agents -> children)."""

    assignment: Assignment = Field(description="The assignment.")
    parent_id: str | None = Field(None, description="Parent assignment id (None for root-delegated).")
    pass_: str = Field("review", alias="pass", description="review / retry / followup:<item>.")
    executions: int = Field(0, description="Times the sub-agent actually ran (1 for a finished leaf).")
    findings: int = Field(0, description="Findings it reported.")
    children: list["AssignmentNode"] = Field(default_factory=list, description="Child assignments.")

    model_config = {"populate_by_name": True}


class ReviewerAction(BaseModel):
    """A reviewer's action on a finding, with old and new values."""

    id: int = Field(description="Autoincrement id.")
    run_id: str = Field(description="Run id.")
    finding_id: str = Field(description="Finding acted on.")
    action: str = Field(description="accepted / rejected / edited / note.")
    old: dict[str, Any] = Field(default_factory=dict, description="Values before.")
    new: dict[str, Any] = Field(default_factory=dict, description="Values after.")
    author: str = Field(description="Who acted.")
    at: datetime = Field(description="When (UTC).")


def reading_key(item_id: str) -> str:
    """The `extra` key under which a finding keeps the sentence of another item's reading of its passage."""
    return f"summary:{item_id}"


def with_reading(extra: dict[str, str], item_id: str, summary: str, severity: str) -> dict[str, str]:
    """`extra` plus the sentence one reading wrote for its item, when the finding is filed under another: the memo's
    section for that item says what the passage means for it ("liability is capped"), not for the item it is filed
    under ("must indemnify"). An informational reading is not kept: beside a graded one it is most often a
    look-alike ("The agreement runs for 30 days" for a change-of-control clause's notice period)."""
    if not summary or reading_key(item_id) in extra or severity == "info":
        return extra
    # and its grade for that item: "Customer may terminate without paying a termination fee" is low under
    # termination fees even when the passage is filed, high, under termination for convenience
    return {**extra, reading_key(item_id): summary, reading_severity_key(item_id): severity}


def reading_severity_key(item_id: str) -> str:
    """The `extra` key of the severity another item's reading gave the passage."""
    return f"severity:{item_id}"


def joined_extra(keep: dict[str, str], other: dict[str, str]) -> dict[str, str]:
    """The facts of two readings of one passage: the kept reading's (its conditions go with its sentence), with
    the CUAD labels of both."""
    extra = {**other, **keep}
    cuad = [c for x in (keep, other) for c in x.get("cuad", "").split("; ") if c]
    if cuad:
        extra["cuad"] = "; ".join(dict.fromkeys(cuad))
    return extra
