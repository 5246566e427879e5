"""A scripted sub-reviewer for harness tests (STYLE.md 8): finds the planted CLAUSES verbatim.

It is a test double for the sub-agent model only; the graph, store, checkpointer,
verification and memo around it are the real ones.
"""

from __future__ import annotations

import asyncio

from core.types import Assignment, ChecklistItem, Chunk, Citation, Document, Finding, Severity

from agents.policy import SubResult, SubReviewerError
from tests.agents.rooms import CLAUSES


class ScriptedReviewer:
    name = "scripted"
    metered = True  # stands in for a model that bills its tokens, so run budgets apply

    def __init__(self, fail_paths: tuple[str, ...] = (), fail_times: int = 10**9, hallucinate_paths: tuple[str, ...] = (),
                 delay_s: float = 0.0):
        self.fail_paths, self.fail_times = fail_paths, fail_times
        self.hallucinate_paths = hallucinate_paths
        self.delay_s = delay_s
        self.calls: list[tuple[str, str, tuple[int, int] | None, int]] = []  # (assignment, doc path, range, chunks)
        self.failures = 0
        self.active = self.max_active = 0  # concurrent review() calls, measured

    async def review(self, assignment: Assignment, document: Document, chunks: list[Chunk],
                     items: list[ChecklistItem]) -> SubResult:
        self.calls.append((assignment.id, document.path, assignment.chunk_range, len(chunks)))
        self.active += 1
        self.max_active = max(self.max_active, self.active)
        try:
            if self.delay_s:
                await asyncio.sleep(self.delay_s)
        finally:
            self.active -= 1
        if any(p in document.path for p in self.fail_paths) and self.failures < self.fail_times:
            self.failures += 1
            raise SubReviewerError(f"scripted failure on {document.path}")
        wanted = {i.id for i in items}
        findings = []
        for c in chunks:
            for key, clause in CLAUSES.items():
                pos = c.text.find(clause)
                if key in wanted and pos >= 0:
                    findings.append(Finding(
                        category=key, severity=Severity.high if key == "change_of_control" else Severity.medium,
                        summary=f"{key.replace('_', ' ')} clause in {document.path}", quote=clause,
                        citation=Citation(document_id=document.id, document_path=document.path, page=c.page,
                                          chunk_id=c.id, char_start=c.char_start + pos,
                                          char_end=c.char_start + pos + len(clause)),
                        verified=True, agent="scripted"))
            if any(p in document.path for p in self.hallucinate_paths) and "governing_law" in wanted:
                findings.append(Finding(
                    category="governing_law", severity=Severity.low, summary="invented clause",
                    quote="This Agreement is governed by the laws of Atlantis.",
                    citation=Citation(document_id=document.id, document_path=document.path, chunk_id=c.id),
                    verified=True, agent="scripted"))
        tokens = sum(c.tokens for c in chunks)
        return SubResult(findings=findings, report=f"{len(findings)} finding(s)", tokens_in=tokens + 500,
                         tokens_out=50 * len(findings) + 20, calls=1, seconds=self.delay_s)
