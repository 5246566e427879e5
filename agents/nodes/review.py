"""One sub-agent: review a leaf assignment (documents, or a chunk range of one), verify every quote.

Runs as a Send task, concurrently with its wave up to the configured cap. What
goes back to the root is ids, counts and a short report; the sub-agent's
transcript goes to the trajectory only. A finished assignment found in the
store (a resumed run) is reused, never executed twice.
"""

from __future__ import annotations

import asyncio
import time

from langchain_core.runnables import RunnableConfig

from core.types import Assignment, AssignmentStatus, Finding

from agents.context import HarnessContext, ctx
from agents.policy import SubResult, SubReviewerError
from agents.state import AssignmentRecord, ReviewTask, WaveResult
from agents.verify import verify_all


def brief(f: Finding) -> dict:
    return {"id": f.id, "category": f.category, "severity": f.severity.value, "document_id": f.citation.document_id,
            "document_path": f.citation.document_path, "page": f.citation.page, "summary": f.summary[:100]}


def _assignment(a: AssignmentRecord) -> Assignment:
    return Assignment(id=a["id"], agent=a["agent"], document_ids=a["document_ids"],
                      chunk_range=tuple(a["chunk_range"]) if a["chunk_range"] else None,
                      instructions=a["instructions"], categories=a["categories"], depth=a["depth"])


async def _review_documents(hc: HarnessContext, run_id: str, a: AssignmentRecord) -> tuple[list[Finding], SubResult]:
    """Call the sub-reviewer per document of the assignment; verify quotes against the document text."""
    total = SubResult()
    found: list[Finding] = []
    items = [i for i in hc.enabled_items() if not a["categories"] or i.id in a["categories"]]
    assignment = _assignment(a)
    for doc_id in a["document_ids"]:
        doc = hc.room.document(doc_id)
        if doc is None:
            raise SubReviewerError(f"document {doc_id} is not in the room")
        chunks = list(hc.room.chunks(doc_id))
        if a["chunk_range"]:
            chunks = chunks[a["chunk_range"][0]:a["chunk_range"][1]]
        res = await hc.reviewer.review(assignment, doc, chunks, items)
        text = hc.room.text(doc_id)
        for f in verify_all(res.findings, text, list(hc.room.chunks(doc_id))):
            if f.citation.document_id != doc_id:
                f = f.model_copy(update={"verified": False})  # a quote must come from the document under review
            found.append(f.model_copy(update={"agent": a["agent"]}))
        for k in ("tokens_in", "tokens_out", "calls", "seconds"):
            setattr(total, k, getattr(total, k) + getattr(res, k))
        total.report = (total.report + f" {doc.path}: {res.report}").strip()
        base = {"type": "sub_call", "run_id": run_id, "assignment_id": a["id"], "agent": a["agent"],
                "reviewer": hc.reviewer.name, "document_id": doc_id, "chunk_range": a["chunk_range"]}
        # a model-backed reviewer hands one record per call (messages, response, tokens, latency);
        # the offline one makes no model call, so its review is one record of what it read and found
        for t in res.transcript or [{"tokens_in": res.tokens_in, "tokens_out": res.tokens_out,
                                     "seconds": round(res.seconds, 4), "findings": len(res.findings),
                                     "report": res.report}]:
            hc.trajectory.write({**base, **t})
    return found, total


async def node(task: ReviewTask, config: RunnableConfig) -> dict:
    hc = ctx()
    run_id, a = task["run_id"], dict(task["assignment"])
    stored = hc.store.assignment(run_id, a["id"])
    if stored is not None and stored.status in (AssignmentStatus.done, AssignmentStatus.failed):
        findings = hc.store.findings(run_id, assignment_id=a["id"])
        return _update(a, stored.status.value, stored.error, stored.report, findings, stored.tokens_in,
                       stored.tokens_out, 0, stored.seconds, reused=True)
    async with hc.semaphore:
        hc.store.start_assignment(run_id, a["id"])
        hc.emit(run_id, "assignment_started", {"assignment_id": a["id"], "agent": a["agent"],
                                               "documents": a["document_ids"], "depth": a["depth"]})
        t0 = time.monotonic()
        status, error = "done", ""
        findings: list[Finding] = []
        res = SubResult()
        try:
            if hc.settings.harness.assignment_delay_s:
                await asyncio.sleep(hc.settings.harness.assignment_delay_s)
            findings, res = await _review_documents(hc, run_id, a)
        except (SubReviewerError, TimeoutError, OSError, ValueError) as e:
            status, error = "failed", f"{type(e).__name__}: {e}"[:500]
        seconds = time.monotonic() - t0
    new = set(hc.store.add_findings(run_id, findings, a["id"]))
    report = error or res.report[:400] or "no findings"
    done = Assignment(**{**_assignment(a).model_dump(), "status": AssignmentStatus(status), "error": error,
                         "tokens_in": res.tokens_in, "tokens_out": res.tokens_out, "seconds": seconds,
                         "report": report})
    hc.store.finish_assignment(run_id, done, calls=res.calls)
    for f in findings:
        if f.id in new:
            hc.emit(run_id, "finding", {"finding_id": f.id, "category": f.category, "severity": f.severity.value,
                                        "verified": f.verified, "document_id": f.citation.document_id,
                                        "agent": a["agent"]})
    hc.emit(run_id, "assignment_finished", {"assignment_id": a["id"], "agent": a["agent"], "status": status,
                                            "error": error, "findings": sum(f.verified for f in findings),
                                            "tokens_in": res.tokens_in, "tokens_out": res.tokens_out,
                                            "seconds": round(seconds, 3)})
    return _update(a, status, error, report, findings, res.tokens_in, res.tokens_out, res.calls, seconds, reused=False)


def _update(a: dict, status: str, error: str, report: str, findings: list[Finding], tin: int, tout: int,
            calls: int, seconds: float, reused: bool) -> dict:
    verified = [f for f in findings if f.verified]
    result = WaveResult(assignment_id=a["id"], agent=a["agent"], status=status, error=error, report=report,
                        document_ids=a["document_ids"], finding_ids=[f.id for f in verified],
                        unverified=len(findings) - len(verified), tokens_in=tin, tokens_out=tout,
                        seconds=round(seconds, 3), reused=reused)
    return {
        "results": [result],
        "assignments": {a["id"]: {**a, "status": status, "error": error}},
        "findings": {f.id: brief(f) for f in verified},
        # a reused result is one whose writes the checkpoint lost, so it is counted here once
        "unverified": len(findings) - len(verified),
        "sub_usage": {"tokens_in": tin, "tokens_out": tout, "calls": calls},
    }
