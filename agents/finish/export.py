"""A run's artifacts in workspace/runs/<run_id>/: memo.md, memo.docx, findings.json, run.json."""

from __future__ import annotations

import json
from collections import Counter

from pydantic import BaseModel, Field

from core.settings import Settings
from core.types import utcnow

from agents import memo as memo_mod
from agents.offline.offline_root import recorded_fallbacks
from agents.store import ReviewStore


class RunScore(BaseModel):
    """The run's quality score as recorded in run.json["score"]; `python -m agents export --min-score` filters on it."""

    kind: str = Field(description="'rubric_pass_rate' (recorded from a truth/rubric scorer, e.g. `python -m synth "
                                  "score`) or 'verified_coverage' (computed at the end of every run).")
    value: float = Field(ge=0.0, le=1.0, description="The score, 0-1; higher is better.")
    detail: dict = Field(default_factory=dict, description="What it was computed from.")


def verified_coverage(cov_ratio: float, verified: int, unverified: int) -> RunScore:
    """The score a run has without a rubric: share of parsed documents reviewed x share of findings whose quote
    was found in the source. It cannot tell a missed clause from a clean document (only a rubric can); it does
    mark runs that left the room half-read or whose sub-agents quoted text that is not there."""
    share = verified / (verified + unverified) if verified + unverified else 1.0
    return RunScore(kind="verified_coverage", value=round(cov_ratio * share, 4),
                    detail={"documents_ratio": round(cov_ratio, 4), "verified_share": round(share, 4)})


def record_score(settings: Settings, store: ReviewStore, run_id: str, score: RunScore) -> dict:
    """Replace the run's score in the store and in run.json (e.g. a rubric pass rate scored after the run)."""
    run = store.run(run_id)
    if run is None:
        raise KeyError(f"no run {run_id}")
    stats = {**run.stats, "score": score.model_dump()}
    store.set_run_stats(run_id, stats)
    path = settings.run_dir(run_id) / "run.json"
    if path.exists():
        path.write_text(json.dumps({**json.loads(path.read_text(encoding="utf-8")), "score": score.model_dump()},
                                   indent=1), encoding="utf-8")
    return stats


def run_score(stats: dict) -> RunScore | None:
    """The score recorded in a run's stats, if any."""
    raw = stats.get("score")
    return RunScore.model_validate(raw) if isinstance(raw, dict) else None


def run_stats(store: ReviewStore, run_id: str, reason: str = "", findings: list | None = None) -> dict:
    run = store.run(run_id)
    cov = store.coverage(run_id)
    usage = store.token_usage(run_id)
    findings = store.findings(run_id) if findings is None else findings
    verified = [f for f in findings if f.verified]
    tree = store.assignment_rows(run_id)
    started = run.started_at if run else utcnow()
    # a score recorded from a rubric outlives a later export of the same run (a resumed or re-finalised one)
    score = run_score(run.stats) if run else None
    if score is None or score.kind == "verified_coverage":
        score = verified_coverage(cov.documents_ratio, len(verified), len(findings) - len(verified))
    return {
        "run_id": run_id, "room": run.room if run else "", "reason": reason,
        "wall_seconds": round((utcnow() - started).total_seconds(), 2),
        "coverage": {"documents_reviewed": cov.documents_reviewed, "documents_total": cov.documents_total,
                     "documents_ratio": round(cov.documents_ratio, 4), "tokens_reviewed": cov.tokens_reviewed,
                     "tokens_total": cov.tokens_total, "tokens_ratio": round(cov.tokens_ratio, 4),
                     "failed_parse": cov.documents_failed_parse, "skipped": cov.documents_skipped,
                     "failed_review": cov.documents_failed_review},
        "findings": {"verified": len(verified), "unverified": len(findings) - len(verified),
                     "by_severity": dict(Counter(f.severity.value for f in verified)),
                     "by_category": dict(Counter(f.category for f in verified))},
        "score": score.model_dump(),
        "tokens": usage.model_dump() | {"total": usage.total, "root_share": round(usage.root_share, 4)},
        # steps the root model could not drive and the built-in planner decided (agents.nodes.root)
        "root_fallbacks": recorded_fallbacks(store, run_id),
        "assignments": {"total": len(tree), "leaves": sum(r["leaf"] for r in tree),
                        "failed": sum(r["status"] == "failed" for r in tree if r["leaf"]),
                        "max_depth": max((r["depth"] for r in tree), default=0)},
    }


def export_run(settings: Settings, store: ReviewStore, run_id: str, reason: str = "") -> dict:
    out = settings.run_dir(run_id)
    out.mkdir(parents=True, exist_ok=True)
    memo = store.memo(run_id)
    findings = store.findings(run_id)
    by_id = {f.id: f for f in findings}
    (out / "memo.md").write_text(memo_mod.to_markdown(memo, by_id), encoding="utf-8")
    memo_mod.to_docx(memo, out / "memo.docx", by_id)
    (out / "findings.json").write_text(
        json.dumps([f.model_dump(mode="json") for f in findings], indent=1, ensure_ascii=False), encoding="utf-8")
    stats = run_stats(store, run_id, reason, findings)
    (out / "run.json").write_text(json.dumps(stats, indent=1), encoding="utf-8")
    return stats
