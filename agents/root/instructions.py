"""Default instructions for a sub-agent when the root gave none (templates in agents/prompts/instructions/).

The harness fills them per assignment, so a root (offline or LLM) can delegate
with ids alone and keep its own output small.
"""

from __future__ import annotations

from core.types import ChecklistItem, Document

from agents.root import templates


def delegate_values(documents: int, tokens: int, folders: list[str], items: list[ChecklistItem]) -> dict:
    return {"documents": documents, "tokens": tokens,
            "folders": ", ".join(f or "(top level)" for f in folders) or "the room",
            "categories": ", ".join(i.id for i in items)}


def followup_values(item: ChecklistItem) -> dict:
    return {"title": item.title, "category": item.id}


def retry_values(error: str, items: list[ChecklistItem]) -> dict:
    return {"error": error[:160] or "unknown error", "categories": ", ".join(i.id for i in items)}


def default_instructions(pass_: str, docs: list[Document], tokens: int, items: list[ChecklistItem],
                         error: str = "") -> str:
    """Instructions for one root-level assignment of the given pass, reviewing `items`."""
    if pass_ == "followup" and len(items) == 1:
        return templates.render("followup", **followup_values(items[0]))
    if pass_ == "retry":
        return templates.render("retry", **retry_values(error, items))
    return templates.render("delegate", **delegate_values(len(docs), tokens, sorted({d.folder for d in docs}), items))
