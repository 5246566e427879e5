"""Fan-in after a wave of sub-agents: merge children into parents, answer the delegate calls, refresh the memo.

Failures and overflow come back to the root as results (counts, ids, errors),
never dropped; the root decides whether to retry.
"""

from __future__ import annotations

from collections import Counter

from langchain_core.runnables import RunnableConfig

from core.types import Assignment, AssignmentStatus

from agents.runtime.context import ctx
from agents.memo.writer import refresh_harness_sections, refresh_item_sections
from agents.runtime.plan import batch_budget
from agents.policy import ToolResult
from agents.state import CLEAR, AssignmentRecord, RunState, WaveResult

MAX_REPORTS = 3


def _settle_parents(assignments: dict[str, AssignmentRecord]) -> dict[str, AssignmentRecord]:
    """A parent is done when every child is; failed when one failed. Deepest first, so grandparents follow."""
    out: dict[str, AssignmentRecord] = {}
    merged = dict(assignments)
    for rec in sorted((r for r in merged.values() if not r["leaf"]), key=lambda r: -r["depth"]):
        if rec["status"] in ("done", "failed"):
            continue
        statuses = {merged[c]["status"] for c in rec["children"]}
        if statuses <= {"done", "failed"}:
            failed = [merged[c] for c in rec["children"] if merged[c]["status"] == "failed"]
            err = "; ".join(f"{c['agent']}: {c['error']}" for c in failed)[:500]
            new = {**rec, "status": "failed" if failed else "done", "error": err,
                   "tokens": sum(merged[c]["tokens"] for c in rec["children"])}
            merged[rec["id"]] = out[rec["id"]] = new  # type: ignore[assignment]
    return out


def _dedup(results: list[WaveResult]) -> dict[str, WaveResult]:
    """One result per assignment. Two arise only after a resume: a lane that had finished (its writes saved)
    reported an assignment it took from another lane, and that lane, re-run, reports it again as reused."""
    out: dict[str, WaveResult] = {}
    for r in results:
        if r["assignment_id"] not in out or out[r["assignment_id"]]["reused"]:
            out[r["assignment_id"]] = r
    return out


def _leaves(root_id: str, assignments: dict[str, AssignmentRecord]) -> list[str]:
    rec = assignments[root_id]
    if rec["leaf"]:
        return [root_id]
    return [x for c in rec["children"] for x in _leaves(c, assignments)]


async def node(state: RunState, config: RunnableConfig) -> dict:
    hc = ctx()
    run_id = state["run_id"]
    results = _dedup(state.get("results", []))
    parents = _settle_parents(state.get("assignments", {}))
    merged = {**state.get("assignments", {}), **parents}
    for p in parents.values():
        children = [results.get(x) for x in _leaves(p["id"], merged)]
        hc.store.finish_assignment(run_id, Assignment(
            id=p["id"], agent=p["agent"], document_ids=p["document_ids"], depth=p["depth"],
            status=AssignmentStatus(p["status"]), error=p["error"],
            report=f"merged {len(p['children'])} child sub-agent(s): "
                   f"{sum(len(c['finding_ids']) for c in children if c)} finding(s)"))
    tool_results = list(state.get("last_results", []))
    budget = batch_budget(hc.settings.harness)
    findings = state.get("findings", {})
    for call_id, info in state.get("delegate_calls", {}).items():
        leaves = [results[x] for r in info["roots"] for x in _leaves(r, merged) if x in results]
        ids = sorted({f for lf in leaves for f in lf["finding_ids"]})
        # overflow: a leaf longer than one sub-agent's budget (max_depth reached, or one huge chunk) is reported
        over = [merged[lf["assignment_id"]]["agent"] for lf in leaves if merged[lf["assignment_id"]]["tokens"] > budget]
        failed = [lf for lf in leaves if lf["status"] == "failed"]
        data = {
            "assignments": len(info["roots"]), "sub_agents": len(leaves),
            "done": sum(lf["status"] == "done" for lf in leaves), "refused_documents": info.get("refused", 0),
            "failed": [{"assignment_id": lf["assignment_id"], "agent": lf["agent"], "documents": lf["document_ids"],
                        "error": lf["error"]} for lf in failed[:10]],
            "failed_count": len(failed), "findings": len(ids), "unverified": sum(lf["unverified"] for lf in leaves),
            "by_category": dict(Counter(findings[f] for f in ids if f in findings)),
            "reports": [f"{lf['agent']}: {lf['report'][:100]}" for lf in leaves if lf["finding_ids"] or lf["error"]][:MAX_REPORTS],
            "reused_after_resume": sum(lf["reused"] for lf in leaves),
            "over_budget": over[:10],
        }
        data = {k: v for k, v in data.items() if v not in (0, [], {})}  # the root's context: only what says something
        tool_results.append(ToolResult(call_id=call_id, name="delegate", ok=not failed, data=data,
                                       error=f"{len(failed)} sub-agent(s) failed" if failed else "").model_dump(mode="json"))
    memo = refresh_item_sections(hc, state)  # sections rewritten as findings arrive
    refresh_harness_sections(hc, state)
    cov = hc.store.coverage(run_id)
    hc.emit(run_id, "coverage", {"documents_reviewed": cov.documents_reviewed, "documents_total": cov.documents_total,
                                 "tokens_reviewed": cov.tokens_reviewed, "tokens_total": cov.tokens_total})
    usage = hc.store.token_usage(run_id)
    hc.emit(run_id, "tokens", usage.model_dump() | {"root_share": round(usage.root_share, 4)})
    return {"assignments": parents, "dispatch": [], "results": CLEAR, "delegate_calls": {}, "last_results": tool_results,
            "memo": memo, "unverified": sum(r["unverified"] for r in results.values()),
            "sub_usage": {k: sum(r.get(k, 0) for r in results.values()) for k in ("tokens_in", "tokens_out", "calls")}}
