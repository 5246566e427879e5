"""Domain types shared by every layer.

Ids are derived from content in validators so that a citation made in one
run still points at the same thing after a re-ingest or a resumed run.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timezone
from enum import Enum
from typing import Literal

from pydantic import BaseModel, Field, model_validator


def stable_id(*parts: str, length: int = 16) -> str:
    """Short hex digest of the parts; the separator keeps ("ab","c") != ("a","bc")."""
    h = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()
    return h[:length]


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class ParseStatus(str, Enum):
    parsed = "parsed"
    failed = "failed"
    skipped = "skipped"


class Severity(str, Enum):
    high = "high"
    medium = "medium"
    low = "low"
    info = "info"


SEVERITY_ORDER = {Severity.high: 0, Severity.medium: 1, Severity.low: 2, Severity.info: 3}


class ReviewerStatus(str, Enum):
    open = "open"
    accepted = "accepted"
    rejected = "rejected"
    edited = "edited"


class Document(BaseModel):
    """One input file of a data room (or an attachment extracted from one)."""

    id: str = Field("", description="Stable id: hash of the room-relative path and the file's sha256.")
    room: str = Field(description="Name of the data room the file belongs to.")
    path: str = Field(description="Path inside the room, '/'-separated, e.g. 'Commercial/Supply/acme.pdf'.")
    folder: str = Field("", description="Folder part of `path` ('' for the room's top level).")
    doc_type: str = Field(description="Lower-case file type from content sniffing or extension: pdf, docx, eml, ...")
    size_bytes: int = Field(0, description="Size of the file on disk.")
    sha256: str = Field("", description="Hex sha256 of the file's bytes; equal hashes mean identical files.")
    pages: int = Field(0, description="Number of pages (1 for formats without pages).")
    tokens: int = Field(0, description="Token count of the extracted text (core.tokens.count_tokens).")
    chars: int = Field(0, description="Length of the extracted text in characters.")
    status: ParseStatus = Field(ParseStatus.parsed, description="parsed, failed or skipped.")
    reason: str = Field("", description="Why a file failed or was skipped; empty when parsed.")
    note: str = Field("", description="Remark on a file that was still processed, e.g. a renamed duplicate entry or a wrong extension.")
    parent_id: str | None = Field(None, description="For an e-mail attachment: the id of the e-mail it came from.")
    duplicate_of: str | None = Field(None, description="Id of an identical (same sha256) document met earlier.")
    parse_seconds: float = Field(0.0, description="Wall time spent partitioning and chunking this file.")

    @model_validator(mode="after")
    def _derive(self) -> "Document":
        if not self.id:
            self.id = stable_id(self.room, self.path, self.sha256)
        if not self.folder and "/" in self.path:
            self.folder = self.path.rsplit("/", 1)[0]
        return self


class Chunk(BaseModel):
    """A contiguous span of a document's extracted text."""

    id: str = Field("", description="Stable id: hash of document id, char span and text.")
    document_id: str = Field(description="Id of the Document this chunk belongs to.")
    index: int = Field(description="Position of the chunk in its document, from 0.")
    text: str = Field(description="Exactly document_text[char_start:char_end].")
    page: int = Field(1, description="Page on which the chunk starts (1-based).")
    page_end: int = Field(1, description="Page on which the chunk ends (1-based).")
    element_types: list[str] = Field(default_factory=list, description="unstructured element categories in the chunk.")
    char_start: int = Field(description="Offset of the chunk's first character in the document text.")
    char_end: int = Field(description="Offset one past the chunk's last character in the document text.")
    tokens: int = Field(0, description="Token count of `text`.")

    @model_validator(mode="after")
    def _derive(self) -> "Chunk":
        if not self.id:
            self.id = stable_id(self.document_id, str(self.char_start), str(self.char_end), self.text)
        return self


class Citation(BaseModel):
    """Where a quote sits: document, page, chunk and the exact character span."""

    document_id: str = Field(description="Cited document's id.")
    document_path: str = Field("", description="Cited document's path in the room, for display.")
    page: int = Field(1, description="Page of the quote (1-based).")
    chunk_id: str = Field(description="Id of the chunk the quote was taken from.")
    char_start: int = Field(-1, description="Start of the quote in the document text; -1 until located.")
    char_end: int = Field(-1, description="End of the quote in the document text; -1 until located.")
    section: str = Field("", description="The numbered section the quote sits in ('§ 9.5', 'Exhibit B § 2'), read "
                         "from the document's headings when the quote is located; '' where none is found.")


class Finding(BaseModel):
    """One diligence observation backed by a verbatim quote."""

    id: str = Field("", description="Stable id: hash of category, document and normalised quote.")
    category: str = Field(description="Checklist item id, e.g. 'change_of_control'.")
    also: list[str] = Field(default_factory=list, description="Other checklist items the same passage answers: one "
                            "passage is one finding, listed under each of its items, never filed twice.")
    severity: Severity = Field(Severity.info, description="high / medium / low / info, from the checklist's rules.")
    summary: str = Field(description="One or two sentences a lawyer can read in the memo.")
    quote: str = Field(description="Verbatim text from the cited source.")
    citation: Citation = Field(description="Where the quote is.")
    verified: bool = Field(False, description="True only once the quote was found verbatim in the cited source.")
    reviewer_status: ReviewerStatus = Field(ReviewerStatus.open, description="The human reviewer's decision.")
    reviewer_note: str = Field("", description="Free-text note by the human reviewer.")
    agent: str = Field("", description="Which agent produced it, e.g. 'sub-3/child-1' or 'offline'.")
    confidence: float = Field(1.0, ge=0.0, le=1.0, description="Reviewer's confidence in the classification.")
    extra: dict[str, str] = Field(default_factory=dict, description="Item-specific facts: counterparty, trigger, action; "
                                  "'carried_from': the run whose reviewer decision this finding carries.")

    @property
    def items(self) -> list[str]:
        """Every checklist item the finding answers, its own first."""
        return [self.category, *(c for c in self.also if c != self.category)]

    @model_validator(mode="after")
    def _derive(self) -> "Finding":
        if not self.id:
            norm = " ".join(self.quote.split()).lower()
            self.id = stable_id(self.category, self.citation.document_id, norm)
        return self


class AssignmentStatus(str, Enum):
    pending = "pending"
    running = "running"
    done = "done"
    failed = "failed"


class Assignment(BaseModel):
    """A unit of delegated review: documents (or a chunk range of one) for one sub-agent."""

    id: str = Field(description="Stable id: derived from the documents, chunk range and pass.")
    agent: str = Field(description="Name of the sub-agent, e.g. 'sub-3' or 'sub-3/child-1'.")
    document_ids: list[str] = Field(description="Documents to review.")
    chunk_range: tuple[int, int] | None = Field(None, description="Half-open chunk index range when one long document is split.")
    instructions: str = Field("", description="What the root asked this sub-agent to look for.")
    categories: list[str] = Field(default_factory=list, description="Checklist item ids to review for (all if empty).")
    depth: int = Field(0, description="Recursion depth: 0 for root-delegated, 1 for a child, ...")
    status: AssignmentStatus = Field(AssignmentStatus.pending, description="pending / running / done / failed.")
    error: str = Field("", description="Why it failed, when it did.")
    tokens_in: int = Field(0, description="Prompt tokens the sub-agent used.")
    tokens_out: int = Field(0, description="Completion tokens the sub-agent used.")
    seconds: float = Field(0.0, description="Wall time of the assignment.")
    report: str = Field("", description="The sub-agent's short report back to the root.")


class ChecklistItem(BaseModel):
    """One line of the diligence checklist (assets/checklist.yaml)."""

    id: str = Field(description="Snake-case id, e.g. 'change_of_control'.")
    title: str = Field(description="Heading used in the memo.")
    description: str = Field(description="What the clause is, in a reviewer's words.")
    red_flag: str = Field(description="What makes it a problem for the buyer.")
    severity_rules: list[dict[str, str]] = Field(
        default_factory=list,
        description="Ordered rules {'if': <condition id or phrase>, 'severity': high|medium|low|info}; first match wins.",
    )
    default_severity: Severity = Field(Severity.medium, description="Severity when no rule matches.")
    cuad_categories: list[str] = Field(default_factory=list, description="CUAD categories this item maps to.")
    enabled: bool = Field(True, description="Whether the item is reviewed in a run.")


class MemoAuthor(str, Enum):
    agent = "agent"
    reviewer = "reviewer"


class MemoSection(BaseModel):
    """A section of the diligence memo: executive summary, one per checklist item, consents, scope."""

    key: str = Field(description="'executive_summary', a checklist item id, 'consents' or 'scope'.")
    title: str = Field(description="Heading shown in the memo.")
    text: str = Field(description="Markdown body of the section.")
    finding_ids: list[str] = Field(default_factory=list, description="Findings the section cites.")
    version: int = Field(1, description="Monotonic version number of this section.")
    author: MemoAuthor = Field(MemoAuthor.agent, description="Who wrote this version.")
    editor: str = Field("", description="For a reviewer version: the person who saved it (their e-mail when signed in).")
    created_at: datetime = Field(default_factory=utcnow, description="When this version was written (UTC).")
    proposal: bool = Field(
        False, description="True for an agent revision offered alongside a reviewer-edited section (not applied)."
    )


class Memo(BaseModel):
    """The memo: the latest version of each section, in display order."""

    room: str = Field(description="Data room the memo is about.")
    run_id: str = Field(description="Run that produced it.")
    sections: list[MemoSection] = Field(default_factory=list, description="Sections in display order.")

    def section(self, key: str) -> MemoSection | None:
        return next((s for s in self.sections if s.key == key), None)


EventKind = Literal[
    "run_started",
    "assignment_started",
    "assignment_finished",
    "finding",
    "memo_section",
    "coverage",
    "tokens",
    "root_step",
    "run_finished",
    "findings_regraded",
    "error",
]


class Event(BaseModel):
    """Progress the engine reports; the UI reads these, never the engine's internals."""

    run_id: str = Field(description="Run the event belongs to.")
    kind: str = Field(description="One of EventKind.")
    data: dict = Field(default_factory=dict, description="Kind-specific payload (plain JSON).")
    at: datetime = Field(default_factory=utcnow, description="When it happened (UTC).")
    id: int = Field(0, description="The review store's autoincrement id (0 until stored); pass it to events_since.")
