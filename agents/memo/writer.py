"""Writes memo sections into the review store as the run goes (each change a new version)."""

from __future__ import annotations

from core.types import MemoSection

from agents.runtime.context import HarnessContext
from agents.memo import derive
from agents.runtime.observe import finding_counts
from agents.state import RunState


def write_section(hc: HarnessContext, run_id: str, section: MemoSection) -> tuple[MemoSection, bool]:
    """Store an agent version; a reviewer-edited section gets it as a proposal. Emits memo_section when stored."""
    stored, changed = derive.save(hc.store, run_id, section, hc.items)
    if changed:
        hc.emit(run_id, "memo_section", {"key": stored.key, "version": stored.version, "author": "agent",
                                         "proposal": stored.proposal, "findings": len(stored.finding_ids)})
    return stored, changed


def _followup_docs(state: RunState) -> dict[str, int]:
    out: dict[str, set[str]] = {}
    for a in state.get("assignments", {}).values():
        if a["pass_"] == "followup":
            for item in a["categories"]:
                out.setdefault(item, set()).update(a["document_ids"])
    return {k: len(v) for k, v in out.items()}


def _record_searched(hc: HarnessContext, state: RunState) -> None:
    """The follow-up searches live in the graph's state; the store keeps a copy for re-derivation outside it."""
    searched = state.get("searched", {})
    if searched:
        hc.store.set_searched(state["run_id"], searched, _followup_docs(state))


def draft_item(hc: HarnessContext, state: RunState, item_id: str, final: bool = False) -> MemoSection:
    item = hc.item(item_id)
    if item is None:
        raise KeyError(f"unknown checklist item {item_id!r}")
    _record_searched(hc, state)
    return derive.item_section(hc.store, state["run_id"], item, final=final, titles={i.id: i.title for i in hc.items})


def refresh_harness_sections(hc: HarnessContext, state: RunState, final: bool = False) -> None:
    """Executive summary, consents, agreements and scope follow the data; rewritten when they changed."""
    _record_searched(hc, state)
    for section in derive.harness_sections(hc.store, state["run_id"], hc.items, final=final):
        write_section(hc, state["run_id"], section)


def refresh_item_sections(hc: HarnessContext, state: RunState, final: bool = False,
                          force: frozenset[str] | set[str] = frozenset()) -> dict[str, dict]:
    """The harness keeps item sections in step with the findings: a section it drafted is redrafted when the
    item's findings change; text a policy wrote itself is left alone (the root sees it as stale instead).
    Items with no finding get their section at the end (final=True), when 'not found' has been checked.
    `force`: items whose findings changed in place (regraded), which the id comparison cannot see.
    Returns the graph's memo entries that changed."""
    memo = state.get("memo", {})
    updates: dict[str, dict] = {}
    counts = finding_counts(state)
    for item in hc.enabled_items():
        entry = memo.get(item.id)
        current = counts.get(item.id, 0)
        searched = item.id in state.get("searched", {})
        if entry is not None and not entry.get("drafted", True):
            continue  # the root's own text
        if not current and not final:
            continue  # 'not found' is written once it has been checked, at the end
        if (entry is not None and entry.get("finding_count") == current and entry.get("searched") == searched
                and item.id not in force and not final):
            continue  # nothing new for this item
        stored, _ = write_section(hc, state["run_id"], draft_item(hc, state, item.id, final=final))
        updates[item.id] = memo_state_entry(hc, state, item.id, stored, drafted=True, count=current)
    return updates


def memo_state_entry(hc: HarnessContext, state: RunState, key: str, stored: MemoSection, drafted: bool = True,
                     count: int | None = None) -> dict:
    """What the graph remembers of a section: version, and how many of the item's findings it was written
    against (so 'stale' means new findings arrived, not that the section cites fewer than exist)."""
    if count is None:
        count = finding_counts(state).get(key, 0)
    edited = hc.store.reviewer_edited(state["run_id"], key)
    return {"version": stored.version, "finding_count": count, "edited": edited, "drafted": drafted,
            "searched": key in state.get("searched", {})}
