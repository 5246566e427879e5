"""The two seams of the harness: the root policy and the sub-agent reviewer.

One graph, two implementations of each (STYLE.md 4, DESIGN.md "Two policies"):
- offline: `agents.offline.offline_root.OfflineRootPolicy` + `agents.offline.subagents.OfflineSubReviewer`
  (wraps `agents.offline.OfflineReviewer`);
- LLM: `agents.llm.LLMPolicy(settings)` + `agents.llm.LLMSubReviewer(settings)`
  (any OpenAI-compatible endpoint). `agents.run.factory.build_policies(settings)` picks
  one pair from `settings.llm.offline`.

Policies are stateless between calls: everything the root may use is in the
`RootObservation` the graph builds before each step (inventory counts, coverage,
finding briefs, memo status, budget, the previous step's tool results). That is
what makes a killed run resume identically from its checkpoint, and what keeps
the root's context to ids, summaries and counts instead of document text.

This file is a contract with the LLM engineer: change it additively only.
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

from core.types import Assignment, ChecklistItem, Chunk, Document, Finding

# --------------------------------------------------------------------------- tool calls


class ToolCall(BaseModel):
    """One call of a root tool, as the policy decided it (OpenAI tool-call shape)."""

    id: str = Field(description="Call id, unique within the run (e.g. 'step3-1'); echoed in its ToolResult.")
    name: str = Field(description="Tool name, one of agents.tools.ROOT_TOOL_NAMES.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="Arguments, valid against the tool's JSON schema.")


class ToolResult(BaseModel):
    """What the harness answered to one ToolCall; goes into the next observation."""

    call_id: str = Field(description="Id of the ToolCall this answers.")
    name: str = Field(description="Tool name.")
    ok: bool = Field(True, description="False when the call was invalid or failed; `error` says why.")
    data: Any = Field(None, description="Plain-JSON result (ids, counts, bounded snippets); never a whole document.")
    error: str = Field("", description="Why the call failed, when it did.")


# --------------------------------------------------------------------------- observation


class FolderStats(BaseModel):
    """Counts for one folder of the room (folder '' is the top level)."""

    folder: str = Field(description="Folder path inside the room.")
    documents: int = Field(0, description="Documents in the folder (all statuses).")
    parsed: int = Field(0, description="Documents parsed successfully.")
    failed: int = Field(0, description="Documents that failed to parse or were skipped.")
    tokens: int = Field(0, description="Tokens of the parsed documents.")
    reviewed_documents: int = Field(0, description="Parsed documents whose review finished.")
    reviewed_tokens: int = Field(0, description="Tokens of the reviewed documents.")


class Inventory(BaseModel):
    """The room in counts: what the root knows without reading anything."""

    room: str = Field(description="Data room name.")
    documents: int = Field(0, description="Documents in the manifest (all statuses).")
    parsed: int = Field(0, description="Parsed documents (the ones that can be reviewed).")
    failed: int = Field(0, description="Documents that failed to parse.")
    skipped: int = Field(0, description="Documents skipped (too large, unsupported, duplicate...).")
    tokens: int = Field(0, description="Tokens of all parsed documents.")
    pages: int = Field(0, description="Pages of all parsed documents.")
    size_bytes: int = Field(0, description="Bytes of all files.")
    doc_types: dict[str, int] = Field(default_factory=dict, description="Documents per file type.")
    folders: list[FolderStats] = Field(default_factory=list, description="Per-folder counts, sorted by folder.")


class CoverageStats(BaseModel):
    """How much of the parsed room has been reviewed."""

    documents_reviewed: int = Field(0, description="Parsed documents whose every assignment finished.")
    documents_total: int = Field(0, description="Parsed documents.")
    tokens_reviewed: int = Field(0, description="Tokens of reviewed documents.")
    tokens_total: int = Field(0, description="Tokens of parsed documents.")
    documents_failed_review: int = Field(0, description="Documents whose review failed (reported, may be retried).")
    target: float = Field(1.0, description="settings.harness.coverage_target (share of parsed documents).")

    @property
    def documents_ratio(self) -> float:
        return self.documents_reviewed / self.documents_total if self.documents_total else 1.0

    @property
    def tokens_ratio(self) -> float:
        return self.tokens_reviewed / self.tokens_total if self.tokens_total else 1.0


class BatchBrief(BaseModel):
    """A planned batch of documents not yet delegated; delegate it by id."""

    id: str = Field(description="Batch id, e.g. 'b7'; pass it in delegate(batches=[...]).")
    documents: int = Field(description="Documents in the batch.")
    tokens: int = Field(description="Tokens in the batch.")
    folders: list[str] = Field(default_factory=list, description="Folders the batch's documents come from (first 3).")
    split: bool = Field(False, description="True when the batch is one document too long for one sub-agent (it will be split into children).")


class TeamPlan(BaseModel):
    """Team sizing derived from the room's tokens and the sub-agent budget."""

    batch_tokens: int = Field(description="Document tokens one sub-agent gets: sub_context_tokens - sub_prompt_reserve_tokens.")
    sub_agents: int = Field(description="Planned number of root-level sub-agents (batches) for the whole room.")
    concurrency: int = Field(description="Sub-agents that run at once (settings.harness.max_concurrency).")
    pending_batches: int = Field(0, description="Planned batches not yet delegated.")
    wave_batches: int = Field(1, description="Batches to delegate per step (delegate next_pending=N): fills the "
                              "concurrency cap, and delegates the whole room in at most settings.harness.max_waves steps.")
    next_batches: list[BatchBrief] = Field(default_factory=list, description="The next pending batches (bounded list).")


class FindingBrief(BaseModel):
    """A finding as the root sees it: no quote text beyond a short summary."""

    id: str = Field(description="Finding id (content-derived; cite it in write_memo_section).")
    category: str = Field(description="Checklist item id.")
    severity: str = Field(description="high / medium / low / info.")
    document_id: str = Field(description="Cited document id.")
    document_path: str = Field("", description="Cited document path, for the memo's citation.")
    page: int = Field(1, description="Cited page.")
    summary: str = Field(description="The finding's one-line summary (truncated).")


class CategoryStatus(BaseModel):
    """Per checklist item: what was found, whether it was searched for, memo state."""

    category: str = Field(description="Checklist item id.")
    title: str = Field("", description="Checklist item title (left empty by the harness: static, it is in the checklist).")
    findings: list[FindingBrief] = Field(
        default_factory=list,
        description="Verified findings (bounded, most severe first); given where memo_stale, i.e. where you have text to revise.",
    )
    finding_count: int = Field(0, description="All verified findings of the item (the list may be truncated).")
    searched: bool = Field(False, description="True once the follow-up pass searched the store for this item.")
    memo_version: int = Field(0, description="Latest memo section version (0 = not written yet).")
    memo_stale: bool = Field(
        True, description="True when you wrote this section's text yourself and findings arrived since. Sections you "
        "leave to the harness are drafted and kept current by it (write_memo_section without text)."
    )
    reviewer_edited: bool = Field(False, description="True when a human edited the section (agent writes become proposals).")


class Budget(BaseModel):
    """What the run has used and may still use (settings.harness.max_run_*)."""

    tokens_used: int = Field(0, description="Metered tokens used so far by root and sub-agents.")
    tokens_limit: int = Field(0, description="settings.harness.max_run_tokens.")
    calls_used: int = Field(0, description="Metered model calls so far (root steps + sub-agent calls).")
    calls_limit: int = Field(0, description="settings.harness.max_run_calls.")
    seconds_used: float = Field(0.0, description="Wall time so far.")
    seconds_limit: float = Field(0.0, description="settings.harness.max_run_seconds.")

    @property
    def exhausted(self) -> bool:
        return (
            self.tokens_used >= self.tokens_limit
            or self.calls_used >= self.calls_limit
            or self.seconds_used >= self.seconds_limit
        )


class StepBrief(BaseModel):
    """One earlier root step in a line: keeps history bounded."""

    step: int = Field(description="Step number.")
    calls: list[str] = Field(default_factory=list, description="'tool(short args) -> short outcome' per call.")


class RootObservation(BaseModel):
    """Everything the root policy sees before one step."""

    run_id: str = Field(description="Run id.")
    step: int = Field(description="Root step number, from 0.")
    phase: Literal["review", "followup", "memo", "done"] = Field(
        "review",
        description="review: delegate until coverage target; followup: items with no findings get a second look; "
        "memo: write stale sections; done: nothing left but finish().",
    )
    inventory: Inventory = Field(description="The room in counts.")
    coverage: CoverageStats = Field(description="Review coverage so far.")
    plan: TeamPlan = Field(description="Team sizing and the pending batches.")
    categories: list[CategoryStatus] = Field(default_factory=list, description="Per checklist item, in checklist order.")
    unfound: list[str] = Field(
        default_factory=list, description="Enabled items with no verified finding (filled once the review phase is over)."
    )
    followup_pending: list[str] = Field(
        default_factory=list, description="Unfound items not yet searched in the follow-up pass (filled after the review phase)."
    )
    running_assignments: int = Field(0, description="Assignments delegated and not yet finished.")
    failed_assignments: list[str] = Field(default_factory=list, description="'assignment id: error' for failed sub-agents.")
    retryable_documents: list[str] = Field(
        default_factory=list, description="Documents whose first review failed and that were not retried yet (delegate them again)."
    )
    budget: Budget = Field(description="Usage and limits.")
    last_results: list[ToolResult] = Field(default_factory=list, description="Results of the previous step's tool calls.")
    history: list[StepBrief] = Field(default_factory=list, description="Earlier steps, one line per call (bounded).")


class RootDecision(BaseModel):
    """The root policy's answer for one step."""

    tool_calls: list[ToolCall] = Field(default_factory=list, description="Tool calls to run, in order; empty means finish().")
    content: str = Field("", description="The model's text (reasoning note), recorded in the trajectory.")
    tokens_in: int = Field(0, description="Prompt tokens of this step (from `usage`; 0 offline).")
    tokens_out: int = Field(0, description="Completion tokens of this step.")
    calls: int = Field(0, description="Model calls made for this step (retries included).")
    seconds: float = Field(0.0, description="Wall time of the decision.")
    messages: list[dict[str, Any]] = Field(
        default_factory=list, description="Chat messages sent (for trajectory.jsonl and training export); no secrets."
    )


@runtime_checkable
class RootPolicy(Protocol):
    """Decides the root's next tool calls from an observation."""

    name: str

    async def decide(self, observation: RootObservation) -> RootDecision: ...


# --------------------------------------------------------------------------- sub-agents


class SubResult(BaseModel):
    """What a sub-agent hands back: findings and a short report, never its transcript."""

    findings: list[Finding] = Field(default_factory=list, description="Findings with verbatim quotes (verified again by the harness).")
    report: str = Field("", description="A few lines for the root: what was read, what was found or not.")
    tokens_in: int = Field(0, description="Prompt tokens used (for offline: tokens of text read).")
    tokens_out: int = Field(0, description="Completion tokens used (0 offline).")
    calls: int = Field(0, description="Model calls made (retries included).")
    seconds: float = Field(0.0, description="Wall time.")
    transcript: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Per model call: messages, response, tokens, latency. Written to trajectory.jsonl only; "
        "the harness never passes it to the root.",
    )


@runtime_checkable
class SubReviewer(Protocol):
    """Reviews one assignment: a document (or a chunk range of it) against checklist items."""

    name: str
    # False where tokens are text read by a built-in model, not billed: the run's token and call caps skip them
    metered: bool

    async def review(
        self, assignment: Assignment, document: Document, chunks: list[Chunk], items: list[ChecklistItem]
    ) -> SubResult: ...


class SubReviewerError(RuntimeError):
    """A sub-reviewer could not review its assignment (raise it; the harness reports it to the root)."""
