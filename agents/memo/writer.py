"""Writes memo sections into the review store as the run goes (each change a new version)."""

from __future__ import annotations

from core.types import MemoSection

from agents import memo
from agents.context import HarnessContext
from agents.observe import finding_counts
from agents.state import RunState


def write_section(hc: HarnessContext, run_id: str, section: MemoSection) -> tuple[MemoSection, bool]:
    """Store an agent version; a reviewer-edited section gets it as a proposal. Emits memo_section when stored."""
    stored, changed = hc.store.save_agent_section(run_id, section, memo.position(section.key, hc.items))
    if changed:
        hc.emit(run_id, "memo_section", {"key": stored.key, "version": stored.version, "author": "agent",
                                         "proposal": stored.proposal, "findings": len(stored.finding_ids)})
    return stored, changed


def _followup_docs(state: RunState, item_id: str) -> int:
    return len({d for a in state.get("assignments", {}).values()
                if a["pass_"] == "followup" and item_id in a["categories"] for d in a["document_ids"]})


def draft_item(hc: HarnessContext, state: RunState, item_id: str) -> MemoSection:
    item = hc.item(item_id)
    if item is None:
        raise KeyError(f"unknown checklist item {item_id!r}")
    run_id = state["run_id"]
    findings = hc.store.findings(run_id, category=item_id, citable=True, limit=memo.ITEM_LIMIT)
    return memo.item_section(item, findings, state.get("searched", {}).get(item_id), _followup_docs(state, item_id),
                             tally=hc.store.finding_tally(run_id, category=item_id))


def refresh_harness_sections(hc: HarnessContext, state: RunState, final: bool = False) -> None:
    """Executive summary, consents table and scope follow the data; rewritten when it changed. While the run
    goes on they hold the most severe rows and counts (each wave rewrites them); `final` writes them whole."""
    run_id = state["run_id"]
    tally = hc.store.finding_tally(run_id)
    cov = hc.store.coverage(run_id)
    high = hc.store.findings(run_id, severity="high", citable=True, limit=memo.KEY_ISSUES)
    write_section(hc, run_id, memo.executive_summary(high, hc.enabled_items(), cov, state.get("searched", {}), tally))
    limit = None if final else memo.CONSENT_LIMIT
    consents = memo.citable([f for c in memo.CONSENT_CATEGORIES
                             for f in hc.store.findings(run_id, category=c, citable=True, limit=limit)])[:limit]
    write_section(hc, run_id, memo.consents_section(consents, sum(tally.total(c) for c in memo.CONSENT_CATEGORIES)))
    write_section(hc, run_id, memo.scope_section(cov, hc.store.document_status(run_id), state.get("searched", {}),
                                                 hc.items, limit=None if final else memo.SCOPE_LIMIT))


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
                and item.id not in force):
            continue  # nothing new for this item
        stored, _ = write_section(hc, state["run_id"], draft_item(hc, state, item.id))
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
