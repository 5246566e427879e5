"""All graph state in one place (STYLE.md 1): typed dicts with reducers.

The state holds ids, counts and short briefs only; full findings live in the
review store, document text in the manifest. Everything here is plain JSON so
the SQLite checkpointer can persist it and a killed run resumes from it.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict


def merge_dicts(left: dict[str, Any] | None, right: dict[str, Any] | None) -> dict[str, Any]:
    """Key-wise merge, right wins: parallel sub-agents each add their own keys."""
    out = dict(left or {})
    out.update(right or {})
    return out


def add_usage(left: dict[str, float] | None, right: dict[str, float] | None) -> dict[str, float]:
    out = dict(left or {})
    for k, v in (right or {}).items():
        out[k] = out.get(k, 0) + v
    return out


CLEAR = "__clear__"


def wave_results(left: list[dict] | None, right: list[dict] | str | None) -> list[dict]:
    """Results of the current wave of sub-agents; integrate clears them with CLEAR once consumed."""
    if right == CLEAR:
        return []
    return list(left or []) + list(right or [])


class AssignmentRecord(TypedDict):
    """One node of the agent tree as the graph tracks it (the store has the full row)."""

    id: str
    agent: str
    parent_id: str | None
    pass_: str  # review / retry / followup
    leaf: bool
    document_ids: list[str]
    chunk_range: list[int] | None
    categories: list[str]
    instructions: str
    depth: int
    status: str  # pending / running / done / failed
    error: str
    tokens: int
    children: list[str]


class LaneTask(TypedDict):
    """Payload of one Send("review", ...): a lane's share of the wave's leaf assignments (agents.runtime.lanes)."""

    run_id: str
    wave: str  # run id + root step: the lanes of one wave share a pool
    lane: int
    assignments: list[AssignmentRecord]


class WaveResult(TypedDict):
    """What one sub-agent hands back to the root: ids, counts and a short report; never a transcript."""

    assignment_id: str
    agent: str
    status: str
    error: str
    report: str
    document_ids: list[str]
    finding_ids: list[str]
    unverified: int
    tokens_in: int
    tokens_out: int
    calls: int
    seconds: float
    reused: bool  # True when a finished assignment's stored result was reused after a resume


class RunState(TypedDict, total=False):
    run_id: str
    room: str
    started_at: float
    step: int
    plan: dict[str, Any]  # TeamPlan fields + "batches": [{id, document_ids, tokens, folders, split}]
    assignments: Annotated[dict[str, AssignmentRecord], merge_dicts]
    doc_passes: Annotated[dict[str, str], merge_dicts]  # document id -> latest review pass delegated
    dispatch: list[AssignmentRecord]  # leaves to Send in the next superstep (root sets, integrate clears)
    results: Annotated[list[WaveResult], wave_results]
    # verified finding id -> checklist item: the checkpointer writes the whole state at every superstep, so
    # 40,000 findings of a 5,000-document room stay ids here; briefs are read from the review store
    findings: Annotated[dict[str, str], merge_dicts]
    unverified: Annotated[int, operator.add]  # added by integrate, once per assignment of a wave
    searched: Annotated[dict[str, str], merge_dicts]  # checklist item -> follow-up query
    memo: Annotated[dict[str, dict[str, Any]], merge_dicts]  # item id -> {version, finding_count, edited, drafted, searched}
    delegate_calls: dict[str, dict[str, Any]]  # this step's delegate call id -> {"roots": [ids], "refused": n}
    last_results: list[dict[str, Any]]  # ToolResult dumps for the next observation
    history: list[dict[str, Any]]  # StepBrief dumps, bounded
    root_usage: Annotated[dict[str, float], add_usage]
    sub_usage: Annotated[dict[str, float], add_usage]
    finished: bool
    finish_refusals: int  # finish() calls refused while coverage or follow-up was incomplete
    finish_reason: str
