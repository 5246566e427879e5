"""Sub-agents: review leaf assignments (documents, or a chunk range of one), verify every quote.

Runs as a review lane (a Send task working through its share of the wave, see
agents.runtime.lanes); an assignment's documents are reviewed concurrently, every model
call (across the whole wave) bounded by the configured cap. What goes back to
the root is ids, counts and a short report; the sub-agent's transcript goes to
the trajectory only. A finished assignment found in the store (a resumed run)
is reused, never executed twice; a failed one is tried again, since a resume is
what follows a failing endpoint. Each executed assignment is counted by the
run's circuit breaker (agents.runtime.breaker), which stops every lane once it opens.
"""

from __future__ import annotations

import asyncio
import time

from langchain_core.runnables import RunnableConfig

from core.types import Assignment, AssignmentStatus, Finding

from agents.finish import lifecycle_pass
from agents.runtime.context import HarnessContext, ctx
from agents.runtime.lanes import LanePool
from agents.memo.derive import parties_of
from agents.offline.reviewer import complete_sentences, restate
from agents.offline.fact_findings import FACT_CATEGORIES
from agents.passages import join_same_passages
from agents.policy import SubResult, SubReviewerError
from agents.state import AssignmentRecord, LaneTask, WaveResult
from agents.verify import verify_all


def _assignment(a: AssignmentRecord) -> Assignment:
    return Assignment(id=a["id"], agent=a["agent"], document_ids=a["document_ids"],
                      chunk_range=tuple(a["chunk_range"]) if a["chunk_range"] else None,
                      instructions=a["instructions"], categories=a["categories"], depth=a["depth"])


async def _review_one(hc: HarnessContext, assignment: Assignment, a: AssignmentRecord, doc_id: str,
                      items: list, on_start) -> tuple[list[Finding], SubResult]:
    """One document of the assignment: a model call (or offline review) holding one slot of the global cap."""
    doc = hc.room.document(doc_id)
    if doc is None:
        raise SubReviewerError(f"document {doc_id} is not in the room")
    chunks = list(hc.room.chunks(doc_id))
    if a["chunk_range"]:
        chunks = chunks[a["chunk_range"][0]:a["chunk_range"][1]]
    by, agent = hc.reviewer, a["agent"]
    async with hc.semaphore:
        on_start()
        try:
            res = await hc.reviewer.review(assignment, doc, chunks, items)
        except SubReviewerError as e:
            if not _unusable(e) or not hc.settings.harness.sub_fallback_offline or hc.reviewer.name == "offline":
                raise
            # the model answered but never with a usable review: the document is still reviewed, and says by whom
            by, agent = hc.builtin_reviewer(), f"{a['agent']} (built-in reviewer)"
            res = await by.review(assignment, doc, chunks, items)
            why = f"the sub model's reply was unusable ({str(e)[:200]})"
            res.report = f"reviewed by the built-in reviewer: {why}. {res.report}"
            res.transcript = [{"tokens_in": res.tokens_in, "tokens_out": 0, "seconds": round(res.seconds, 4),
                               "reviewer": by.name, "fallback": why, "findings": len(res.findings)}]
    # verification is local CPU work: done after the slot is released, so the next call goes out sooner
    text = hc.room.text(doc_id)
    lifecycle_pass.note_document(hc, doc_id, doc.path, text)
    findings, all_chunks = res.findings, list(hc.room.chunks(doc_id))
    if by.name == "offline":  # its summaries name the parties as the agreement defines them
        findings = complete_sentences(findings, text, all_chunks, items)
        findings = restate(findings, items, parties_of(hc.store, doc_id))
    found = []
    for f in verify_all(findings, text, all_chunks):
        if f.citation.document_id != doc_id:
            f = f.model_copy(update={"verified": False})  # a quote must come from the document under review
        found.append(f.model_copy(update={"agent": agent}))
    facts = {i.id for i in items if set(i.cuad_categories) & set(FACT_CATEGORIES)}
    return join_same_passages(found, keep_apart=facts), res


def _unusable(e: SubReviewerError) -> bool:
    """The endpoint answered, but with no valid review (as opposed to an HTTP error or a timeout)."""
    return "unusable output" in str(e) or "OutputInvalid" in str(e)


async def _review_documents(hc: HarnessContext, run_id: str, a: AssignmentRecord,
                            on_start) -> tuple[list[Finding], SubResult, dict[str, str]]:
    """Review every document of the assignment concurrently, each call bounded by the run's global cap
    (settings.harness.max_concurrency), so a sub-agent with several small documents does not serialise
    its calls; results are assembled in document order. The first failure cancels the others and fails
    the assignment (the root may retry it), as before. The third value: the documents the built-in reviewer
    took over, with why."""
    total = SubResult()
    builtin: dict[str, str] = {}
    found: list[Finding] = []
    items = [i for i in hc.enabled_items() if not a["categories"] or i.id in a["categories"]]
    assignment = _assignment(a)
    if hc.settings.harness.assignment_delay_s:
        async with hc.semaphore:  # a simulated slow sub-agent occupies a slot, like a real call would
            on_start()
            await asyncio.sleep(hc.settings.harness.assignment_delay_s)
    tasks: list[asyncio.Task] = []
    try:
        async with asyncio.TaskGroup() as tg:
            tasks = [tg.create_task(_review_one(hc, assignment, a, d, items, on_start)) for d in a["document_ids"]]
    except BaseExceptionGroup as eg:
        error: BaseException | None = _first_error(eg)
    else:
        error = None
    for doc_id, task in zip(a["document_ids"], tasks):
        if task.cancelled() or task.exception() is not None:
            continue
        doc_found, res = task.result()
        found += doc_found
        builtin.update({doc_id: t["fallback"] for t in res.transcript if t.get("fallback")})
        for k in ("tokens_in", "tokens_out", "calls", "seconds"):
            setattr(total, k, getattr(total, k) + getattr(res, k))
        total.report = (total.report + f" {hc.room.document(doc_id).path}: {res.report}").strip()
        base = {"type": "sub_call", "run_id": run_id, "assignment_id": a["id"], "agent": a["agent"],
                "reviewer": hc.reviewer.name, "document_id": doc_id, "chunk_range": a["chunk_range"]}
        # a model-backed reviewer hands one record per call (messages, response, tokens, latency);
        # the offline one makes no model call, so its review is one record of what it read and found.
        # Calls that completed are recorded even when a sibling failed the assignment.
        for t in res.transcript or [{"tokens_in": res.tokens_in, "tokens_out": res.tokens_out,
                                     "seconds": round(res.seconds, 4), "findings": len(res.findings),
                                     "report": res.report}]:
            hc.trajectory.write({**base, **t})
    if error is not None:
        raise error
    return found, total, builtin


def _first_error(eg: BaseExceptionGroup) -> BaseException:
    """The TaskGroup's first real error (cancellations of its siblings are a consequence, not a cause)."""
    for e in eg.exceptions:
        if isinstance(e, BaseExceptionGroup):
            return _first_error(e)
        if not isinstance(e, asyncio.CancelledError):
            return e
    return eg.exceptions[0]


async def node(task: LaneTask, config: RunnableConfig) -> dict:
    """One lane: its share of the wave, then whatever the busiest lane has not started."""
    hc = ctx()
    pool = hc.lanes.setdefault(task["wave"], LanePool())
    pool.join(task["lane"], task["assignments"])
    out: dict = {"results": [], "assignments": {}, "findings": {}}
    try:
        while (a := pool.next(task["lane"])) is not None:
            if hc.breaker is not None:
                hc.breaker.check()  # another lane opened it: start nothing more
            upd = await _run_assignment(hc, task["run_id"], dict(a))
            out["results"] += upd["results"]
            out["assignments"].update(upd["assignments"])
            out["findings"].update(upd["findings"])
            res = upd["results"][0]
            if hc.breaker is not None and not res["reused"]:
                hc.breaker.record(res["status"] == "done", res["error"])
                hc.breaker.check()
    finally:
        if pool.leave():
            hc.lanes.pop(task["wave"], None)
    return out


async def _run_assignment(hc: HarnessContext, run_id: str, a: dict) -> dict:
    stored = hc.store.assignment(run_id, a["id"])
    # a failed one is tried again: a run is resumed once the endpoint that failed it works again
    if stored is not None and stored.status == AssignmentStatus.done:
        findings = hc.store.findings(run_id, assignment_id=a["id"])
        return _update(a, stored.status.value, stored.error, stored.report, findings, stored.tokens_in,
                       stored.tokens_out, 0, stored.seconds, reused=True)
    started: list[float] = []

    def on_start() -> None:
        """Marked running when its first call gets a slot (not while it waits for one)."""
        if started:
            return
        started.append(time.monotonic())
        with hc.store.batch():
            hc.store.start_assignment(run_id, a["id"])
            hc.emit(run_id, "assignment_started", {"assignment_id": a["id"], "agent": a["agent"],
                                                   "documents": a["document_ids"], "depth": a["depth"]})

    status, error = "done", ""
    findings: list[Finding] = []
    res = SubResult()
    builtin: dict[str, str] = {}
    try:
        findings, res, builtin = await _review_documents(hc, run_id, a, on_start)
    except (SubReviewerError, TimeoutError, OSError, ValueError) as e:
        status, error = "failed", f"{type(e).__name__}: {e}"[:500]
    on_start()  # an assignment with no document still counts one execution
    seconds = time.monotonic() - started[0]
    report = error or res.report[:400] or "no findings"
    done = Assignment(**{**_assignment(a).model_dump(), "status": AssignmentStatus(status), "error": error,
                         "tokens_in": res.tokens_in, "tokens_out": res.tokens_out, "seconds": seconds,
                         "report": report})
    # findings, status and events in one transaction: one commit per sub-agent, and a killed run never
    # leaves findings of an assignment that is not marked done (or the reverse)
    with hc.store.batch():
        new = set(hc.store.add_findings(run_id, findings, a["id"]))
        hc.store.finish_assignment(run_id, done, calls=res.calls)
        for f in findings:
            if f.id in new:
                hc.emit(run_id, "finding", {"finding_id": f.id, "category": f.category, "severity": f.severity.value,
                                            "verified": f.verified, "document_id": f.citation.document_id,
                                            "agent": a["agent"]})
        hc.emit(run_id, "assignment_finished", {"assignment_id": a["id"], "agent": a["agent"], "status": status,
                                                "error": error, "findings": sum(f.verified for f in findings),
                                                "tokens_in": res.tokens_in, "tokens_out": res.tokens_out,
                                                "seconds": round(seconds, 3), "builtin_reviewed": builtin})
    return _update(a, status, error, report, findings, res.tokens_in, res.tokens_out, res.calls, seconds, reused=False)


def _update(a: dict, status: str, error: str, report: str, findings: list[Finding], tin: int, tout: int,
            calls: int, seconds: float, reused: bool) -> dict:
    verified = [f for f in findings if f.verified]
    result = WaveResult(assignment_id=a["id"], agent=a["agent"], status=status, error=error, report=report,
                        document_ids=a["document_ids"], finding_ids=[f.id for f in verified],
                        unverified=len(findings) - len(verified), tokens_in=tin, tokens_out=tout, calls=calls,
                        seconds=round(seconds, 3), reused=reused)
    # counters (unverified, sub_usage) are added by integrate, once per assignment: after a resume, a lane
    # may report again (as reused) an assignment that another lane had taken from it and reported
    return {
        "results": [result],
        "assignments": {a["id"]: {**a, "status": status, "error": error}},
        "findings": {f.id: f.category for f in verified},
    }
