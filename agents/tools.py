"""The root agent's tools as data: one pydantic model of arguments per tool.

`ROOT_TOOLS` (OpenAI "tools" format) is generated from these models, so the
LLM policy, the argument validation in the root node and the golden snapshot
(tests/agents/golden/root_tools.json) use the same definitions.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

PEEK_MAX_CHARS = 1500  # a peek is a glance at a span, never a way to read a document through the root
LIST_MAX = 200
SEARCH_MAX_K = 50
SNIPPET_CHARS = 100


class _Args(BaseModel):
    model_config = ConfigDict(extra="forbid")


class DocumentFilters(_Args):
    doc_type: str | None = Field(None, description="Only documents of this file type, e.g. 'pdf'.")
    status: str | None = Field(None, description="Only documents with this parse status: parsed, failed or skipped.")
    review: str | None = Field(None, description="Only documents with this review status: unreviewed, in_review, reviewed, failed.")


class ListDocumentsArgs(_Args):
    """List documents of the room (ids, paths, types, pages, tokens, statuses), paginated."""

    folder: str = Field("", description="Folder path; '' lists the whole room. Sub-folders are included.")
    filters: DocumentFilters = Field(default_factory=DocumentFilters, description="Optional filters.")
    offset: int = Field(0, ge=0, description="Skip this many documents (pagination).")
    limit: int = Field(50, ge=1, le=LIST_MAX, description=f"At most this many documents (<= {LIST_MAX}).")


class SearchFilters(_Args):
    folder: str | None = Field(None, description="Only chunks of documents in this folder.")
    doc_type: str | None = Field(None, description="Only chunks of documents of this file type.")
    document_id: str | None = Field(None, description="Only chunks of this document.")


class SearchArgs(_Args):
    """Semantic + keyword search over the room's chunks; returns ids, pages, scores and short snippets."""

    query: str = Field(description="What to look for, e.g. 'terminate upon change of control'.")
    k: int = Field(10, ge=1, le=SEARCH_MAX_K, description=f"Number of hits (<= {SEARCH_MAX_K}).")
    filters: SearchFilters = Field(default_factory=SearchFilters, description="Optional filters.")
    for_category: str | None = Field(
        None, description="Checklist item id this search is a follow-up for; the memo then says it was searched for."
    )


class PeekArgs(_Args):
    """Read a bounded span of one document's text (at most PEEK_MAX_CHARS characters)."""

    document_id: str = Field(description="Document id.")
    start: int = Field(0, ge=0, description="First character offset.")
    end: int = Field(PEEK_MAX_CHARS, ge=0, description=f"End offset; clipped to start + {PEEK_MAX_CHARS}.")


class DelegateArgs(_Args):
    """Hand documents to sub-agents for review. Each batch or document becomes one sub-agent; documents too
    long for one sub-agent are split across child sub-agents automatically. Findings come back as results."""

    batches: list[str] = Field(default_factory=list, description="Planned batch ids from the observation's plan (preferred).")
    all_pending: bool = Field(
        False, description="Delegate every planned batch not yet delegated (the plan's pending_batches, listed or not) "
        "in this one call; only with instructions/categories."
    )
    next_pending: int = Field(
        0, ge=0, description="Delegate the next N planned batches not yet delegated, in plan order (N = the plan's "
        "wave_batches fills one wave); only with instructions/categories."
    )
    document_ids: list[str] = Field(default_factory=list, description="Documents to review, grouped into sub-agents by the harness.")
    chunk_range: list[int] | None = Field(
        None, min_length=2, max_length=2, description="[start, end) chunk indexes; only with exactly one document id."
    )
    chunk_ids: list[str] = Field(
        default_factory=list, description="Chunk ids (e.g. search hits) for a second look; contiguous chunks of a document go to one sub-agent."
    )
    query: str | None = Field(
        None, description="Follow-up second look without reading hits yourself: search the room for this and delegate "
        "the top k hits' chunks (give categories); marks those items as searched for."
    )
    k: int = Field(5, ge=1, le=SEARCH_MAX_K, description="Hits to delegate with `query`.")
    instructions: str = Field("", description="What to look for, in a sentence or two.")
    categories: list[str] = Field(default_factory=list, description="Checklist item ids to review for; empty means all enabled items.")


class WriteMemoSectionArgs(_Args):
    """Write (or rewrite) one memo section citing findings by id. Omit text to let the harness draft it
    from the cited findings. A section a human edited is not overwritten: your text is stored as a proposal."""

    category: str = Field(description="Checklist item id, or 'executive_summary'.")
    text: str = Field("", description="Markdown body; cite findings as [F:<finding id>]. Empty: drafted from finding_ids.")
    finding_ids: list[str] = Field(default_factory=list, description="Findings the section cites.")


class FinishArgs(_Args):
    """End the run: the harness writes the final memo, scope and coverage section and exports."""

    reason: str = Field("", description="Why the review is complete (e.g. 'coverage 100%, follow-up done').")


TOOL_MODELS: dict[str, type[_Args]] = {
    "list_documents": ListDocumentsArgs,
    "search": SearchArgs,
    "peek": PeekArgs,
    "delegate": DelegateArgs,
    "write_memo_section": WriteMemoSectionArgs,
    "finish": FinishArgs,
}
ROOT_TOOL_NAMES: list[str] = list(TOOL_MODELS)


def _inline(schema: dict[str, Any]) -> dict[str, Any]:
    """Resolve $defs and drop pydantic's titles: some OpenAI-compatible servers reject $ref."""
    defs = schema.pop("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, dict):
            if "$ref" in node:
                target = defs[node["$ref"].rsplit("/", 1)[-1]]
                merged = {**walk(dict(target)), **{k: walk(v) for k, v in node.items() if k != "$ref"}}
                return merged
            return {k: walk(v) for k, v in node.items() if k != "title"}
        if isinstance(node, list):
            return [walk(v) for v in node]
        return node

    out = walk(schema)
    out.pop("description", None)  # the description lives at the function level
    return out


def tool_schema(name: str) -> dict[str, Any]:
    model = TOOL_MODELS[name]
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": " ".join((model.__doc__ or "").split()),
            "parameters": _inline(model.model_json_schema()),
        },
    }


ROOT_TOOLS: list[dict[str, Any]] = [tool_schema(n) for n in ROOT_TOOL_NAMES]


def parse_arguments(name: str, arguments: dict[str, Any]) -> _Args:
    """Validate a tool call's arguments; raises KeyError (unknown tool) or pydantic.ValidationError."""
    return TOOL_MODELS[name].model_validate(arguments)
