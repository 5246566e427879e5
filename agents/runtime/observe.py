"""Build the root's observation from graph state: ids, counts and briefs, never document text."""

from __future__ import annotations

import math
import time
from collections import Counter

from core.settings import HarnessSettings
from core.types import Finding

from agents.runtime.context import HarnessContext
from agents.policy import (
    BatchBrief,
    Budget,
    CategoryStatus,
    CoverageStats,
    FindingBrief,
    FolderStats,
    Inventory,
    RootObservation,
    StepBrief,
    TeamPlan,
    ToolResult,
)
from agents.state import RunState

BRIEFS_PER_CATEGORY = 3
NEXT_BATCHES = 12


def doc_review_state(state: RunState) -> dict[str, str]:
    """Per document: done / failed / running from the leaves of its latest review pass."""
    out: dict[str, str] = {}
    passes = state.get("doc_passes", {})
    per_doc: dict[str, set[str]] = {}
    for a in state.get("assignments", {}).values():
        if not a["leaf"] or a["pass_"] not in ("review", "retry"):
            continue
        for d in a["document_ids"]:
            if passes.get(d) == a["pass_"]:
                per_doc.setdefault(d, set()).add(a["status"])
    for d, statuses in per_doc.items():
        out[d] = "done" if statuses == {"done"} else "running" if statuses & {"pending", "running"} else "failed"
    return out


def inventory(hc: HarnessContext, review: dict[str, str]) -> Inventory:
    docs = hc.room.documents()
    inv = Inventory(room=hc.room.room, documents=len(docs))
    folders: dict[str, FolderStats] = {}
    for d in docs:
        fs = folders.setdefault(d.folder, FolderStats(folder=d.folder))
        fs.documents += 1
        inv.size_bytes += d.size_bytes
        inv.doc_types[d.doc_type] = inv.doc_types.get(d.doc_type, 0) + 1
        if d.status.value == "parsed":
            inv.parsed += 1
            inv.tokens += d.tokens
            inv.pages += d.pages
            fs.parsed += 1
            fs.tokens += d.tokens
            if review.get(d.id) == "done":
                fs.reviewed_documents += 1
                fs.reviewed_tokens += d.tokens
        else:
            fs.failed += 1
            if d.status.value == "failed":
                inv.failed += 1
            else:
                inv.skipped += 1
    inv.folders = [folders[k] for k in sorted(folders)]
    return inv


def coverage(hc: HarnessContext, review: dict[str, str]) -> CoverageStats:
    cov = CoverageStats(target=hc.settings.harness.coverage_target)
    for d in hc.room.parsed():
        cov.documents_total += 1
        cov.tokens_total += d.tokens
        if review.get(d.id) == "done":
            cov.documents_reviewed += 1
            cov.tokens_reviewed += d.tokens
        elif review.get(d.id) == "failed":
            cov.documents_failed_review += 1
    return cov


def budget(hc: HarnessContext, state: RunState) -> Budget:
    h = hc.settings.harness
    ru, su = state.get("root_usage", {}), state.get("sub_usage", {})
    # the offline reviewer's "tokens" are text read at no cost: capping them would only leave a large room
    # unreviewed (5,000 documents read ~15 M tokens); wall time still bounds such a run
    sub = (su.get("tokens_in", 0) + su.get("tokens_out", 0), su.get("calls", 0)) if hc.reviewer.metered else (0, 0)
    return Budget(
        tokens_used=int(ru.get("tokens_in", 0) + ru.get("tokens_out", 0) + sub[0]),
        tokens_limit=h.max_run_tokens,
        calls_used=int(ru.get("calls", 0) + sub[1]),
        calls_limit=h.max_run_calls,
        seconds_used=round(time.time() - state.get("started_at", time.time()), 1),
        seconds_limit=h.max_run_seconds,
    )


def finding_counts(state: RunState) -> Counter[str]:
    """Verified findings per checklist item, in one pass over the state's ids (40,000 at 5,000 documents)."""
    return Counter(state.get("findings", {}).values())


def _brief(f: Finding) -> FindingBrief:
    return FindingBrief(id=f.id, category=f.category, severity=f.severity.value, document_id=f.citation.document_id,
                        document_path=f.citation.document_path, page=f.citation.page, summary=f.summary[:100])


def categories(hc: HarnessContext, state: RunState) -> list[CategoryStatus]:
    counts = finding_counts(state)
    out = []
    memo = state.get("memo", {})
    for item in hc.enabled_items():
        n = counts.get(item.id, 0)
        m = memo.get(item.id, {})
        # stale only where the root wrote the text itself and findings arrived since (state findings only
        # grow, so a count tells): sections the harness drafts it keeps current on its own
        stale = bool(m) and not m.get("drafted", True) and m.get("finding_count", 0) != n
        # briefs only where the root has something to write: a written section needs counts, not ids
        briefs = [_brief(f) for f in hc.store.findings(state["run_id"], category=item.id, verified=True,
                                                     limit=BRIEFS_PER_CATEGORY)] if stale else []
        out.append(CategoryStatus(
            category=item.id, findings=briefs,
            finding_count=n, searched=item.id in state.get("searched", {}), memo_version=m.get("version", 0),
            memo_stale=stale, reviewer_edited=bool(m.get("edited")),
        ))
    return out


def phase(cov: CoverageStats, plan: TeamPlan, cats: list[CategoryStatus], followup: list[str],
          failed_retryable: int, exhausted: bool) -> str:
    if not exhausted and cov.documents_ratio < cov.target and (plan.pending_batches or failed_retryable):
        return "review"
    if not exhausted and followup:
        return "followup"
    if any(c.memo_stale for c in cats):
        return "memo"
    return "done"


def wave_size(h: HarnessSettings, batches: int) -> int:
    """Batches per wave: at least the concurrency cap, more in a large room so it takes at most max_waves."""
    return max(1, h.max_concurrency, math.ceil(batches / h.max_waves))


def observe(hc: HarnessContext, state: RunState) -> RootObservation:
    review = doc_review_state(state)
    cov = coverage(hc, review)
    p = state.get("plan", {})
    passes = state.get("doc_passes", {})
    pending = [b for b in p.get("batches", []) if any(d not in passes for d in b["document_ids"])]
    plan = TeamPlan(
        batch_tokens=p.get("batch_tokens", 0), sub_agents=p.get("sub_agents", 0),
        concurrency=hc.settings.harness.max_concurrency, pending_batches=len(pending),
        wave_batches=wave_size(hc.settings.harness, len(p.get("batches", []))),
        next_batches=[BatchBrief(id=b["id"], documents=len(b["document_ids"]), tokens=b["tokens"],
                                 folders=b["folders"][:3], split=b["split"]) for b in pending[:NEXT_BATCHES]],
    )
    cats = categories(hc, state)
    unfound = [c.category for c in cats if c.finding_count == 0]
    followup = [c for c in unfound if c not in state.get("searched", {})]
    failed = [a for a in state.get("assignments", {}).values()
              if a["status"] == "failed" and any(review.get(d) == "failed" for d in a["document_ids"])]
    retryable = [d for d, s in review.items() if s == "failed" and state.get("doc_passes", {}).get(d) == "review"]
    b = budget(hc, state)
    ph = phase(cov, plan, cats, followup, len(retryable), b.exhausted)
    if ph == "review":  # 'not found yet' means nothing while documents are still unread: keep it out of context
        unfound, followup = [], []
    return RootObservation(
        run_id=state["run_id"], step=state.get("step", 0), phase=ph,  # type: ignore[arg-type]
        inventory=inventory(hc, review), coverage=cov, plan=plan, categories=cats, unfound=unfound,
        followup_pending=followup, running_assignments=sum(1 for s in review.values() if s == "running"),
        failed_assignments=[f"{a['id']}: {a['error']}" for a in failed][:20], retryable_documents=retryable[:50],
        budget=b,
        last_results=[ToolResult(**r) for r in state.get("last_results", [])],
        history=[StepBrief(**h) for h in state.get("history", [])],
    )
