"""A run's artifacts in workspace/runs/<run_id>/: memo.md, memo.docx, findings.json, run.json."""

from __future__ import annotations

import json
from collections import Counter

from core.settings import Settings
from core.types import utcnow

from agents import memo as memo_mod
from agents.store import ReviewStore


def run_stats(store: ReviewStore, run_id: str, reason: str = "") -> dict:
    run = store.run(run_id)
    cov = store.coverage(run_id)
    usage = store.token_usage(run_id)
    findings = store.findings(run_id)
    verified = [f for f in findings if f.verified]
    tree = store.assignment_rows(run_id)
    started = run.started_at if run else utcnow()
    return {
        "run_id": run_id, "room": run.room if run else "", "reason": reason,
        "wall_seconds": round((utcnow() - started).total_seconds(), 2),
        "coverage": {"documents_reviewed": cov.documents_reviewed, "documents_total": cov.documents_total,
                     "documents_ratio": round(cov.documents_ratio, 4), "tokens_reviewed": cov.tokens_reviewed,
                     "tokens_total": cov.tokens_total, "tokens_ratio": round(cov.tokens_ratio, 4),
                     "failed_parse": cov.documents_failed_parse, "failed_review": cov.documents_failed_review},
        "findings": {"verified": len(verified), "unverified": len(findings) - len(verified),
                     "by_severity": dict(Counter(f.severity.value for f in verified)),
                     "by_category": dict(Counter(f.category for f in verified))},
        "tokens": usage.model_dump() | {"total": usage.total, "root_share": round(usage.root_share, 4)},
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
    stats = run_stats(store, run_id, reason)
    (out / "run.json").write_text(json.dumps(stats, indent=1), encoding="utf-8")
    return stats
