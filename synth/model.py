"""Plain data the generator produces: the ground truth of a room and its rubric.

These are the only things the scorer reads besides a run's findings and memo,
so they are pydantic models with described fields and load from JSON.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field

from core.types import Severity


# Every generated document is dated 2025 or earlier, and on this date only the agreements the truth calls
# expired have ended. Later, live fixed-term agreements start to run out (the sample room's customer
# agreement with Pelham Retail on 16 May 2026), and a review as of that day rightly grades their clauses
# as not live, which the truth does not: so rooms are reviewed and scored as of this date.
ROOM_AS_OF = date(2025, 12, 31)


class TruthClause(BaseModel):
    """One planted clause (or near-miss) and where it sits."""

    id: str = Field(description="Stable id within the room, e.g. 'c012'.")
    path: str = Field(description="Room-relative path of the file holding the clause.")
    attachment: str = Field("", description="For an e-mail: file name of the attachment holding it ('' = the body).")
    category: str = Field(description="Checklist item id the clause belongs to.")
    severity: Severity = Field(description="Severity a correct reviewer assigns.")
    sentences: list[str] = Field(description="The planted sentence(s), verbatim as they appear in the file's text.")
    variant: str = Field(description="Which phrasing of the clause bank was used, e.g. 'change_of_control/3'.")
    key: bool = Field(False, description="True when the rubric asserts the memo flags this clause.")
    must_not_flag: bool = Field(False, description="A near-miss: must not be reported as a red flag.")
    trap_categories: list[str] = Field(default_factory=list, description="Categories under which a near-miss must not be flagged.")
    also_accept: list[str] = Field(default_factory=list, description="Other categories under which a finding still counts as a hit.")
    note: str = Field("", description="Why the clause is (or is not) a problem, for a human reading the truth file.")


class BadFile(BaseModel):
    """A file that cannot be reviewed; the memo's scope section must say so."""

    path: str = Field(description="Room-relative path.")
    reason_kind: Literal["corrupt", "empty", "unsupported", "encrypted"] = Field(description="Why it cannot be parsed.")


class TruthDocument(BaseModel):
    """One generated file."""

    path: str = Field(description="Room-relative path.")
    family: str = Field(description="Contract family or document kind: supply, lease, email, register, ...")
    fmt: str = Field(description="File format (extension without the dot).")
    title: str = Field(description="Document title as printed.")
    counterparty: str = Field("", description="The other party's name, when there is one.")
    expired: bool = Field(False, description="True when the agreement's term has ended.")
    superseded_by: str = Field("", description="Path of an amendment that replaces provisions of this document.")


class Truth(BaseModel):
    """Ground truth of a generated room."""

    room: str = Field(description="Room name.")
    seed: int = Field(description="Seed the room was generated from.")
    target: str = Field(description="Name of the fictional target company.")
    as_of: date | None = Field(None, description="Date the truth holds on (which agreements are live): review the room as of it.")
    documents: list[TruthDocument] = Field(default_factory=list, description="Every generated file, bad ones included.")
    clauses: list[TruthClause] = Field(default_factory=list, description="Planted clauses and near-misses.")
    bad_files: list[BadFile] = Field(default_factory=list, description="Files that cannot be parsed.")

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path | str) -> "Truth":
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))


CriterionKind = Literal["flags", "not_flagged", "scope"]


class Criterion(BaseModel):
    """One rubric line, checkable against a run's findings and memo without judgement."""

    id: str = Field(description="Stable id, e.g. 'flags:c012'.")
    kind: CriterionKind = Field(description="flags: memo flags and cites it; not_flagged: a near-miss is not a red flag; scope: a bad file is named in the scope section.")
    text: str = Field(description="The criterion in words, for the report.")
    path: str = Field(description="Document the criterion is about.")
    clause_id: str = Field("", description="TruthClause id (flags / not_flagged).")
    categories: list[str] = Field(default_factory=list, description="Accepted (flags) or forbidden (not_flagged) categories.")
    min_severity: Severity | None = Field(None, description="flags: the finding must be at least this severe.")
    forbidden_severities: list[Severity] = Field(default_factory=list, description="not_flagged: severities that count as a red flag.")


class Rubric(BaseModel):
    room: str = Field(description="Room name.")
    criteria: list[Criterion] = Field(default_factory=list, description="All criteria of the room.")

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path | str) -> "Rubric":
        return cls.model_validate_json(Path(path).read_text(encoding="utf-8"))
