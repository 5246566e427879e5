"""The offline sub-agent: the built-in reviewer (agents.offline) behind the SubReviewer protocol."""

from __future__ import annotations

import asyncio
import time
from collections import Counter

from core.text import count_tokens
from core.types import Assignment, ChecklistItem, Chunk, Document

from agents.policy import SubResult


def report_line(findings_by_category: Counter, chunks: int, tokens: int) -> str:
    if not findings_by_category:
        return f"read {chunks} chunk(s), {tokens} tokens; nothing matched the checklist"
    top = ", ".join(f"{c} x{n}" for c, n in findings_by_category.most_common(6))
    return f"read {chunks} chunk(s), {tokens} tokens; found {top}"


class OfflineSubReviewer:
    """Runs the deterministic reviewer in a worker thread so a wave's sub-agents overlap with the event loop."""

    name = "offline"
    metered = False

    def __init__(self, reviewer=None):
        if reviewer is None:
            from agents.offline import OfflineReviewer

            reviewer = OfflineReviewer()
        self.reviewer = reviewer

    async def review(
        self, assignment: Assignment, document: Document, chunks: list[Chunk], items: list[ChecklistItem]
    ) -> SubResult:
        t0 = time.monotonic()
        findings = await asyncio.to_thread(self.reviewer.review, document, chunks, items)
        # what it is handed as text: the chunks and the root's instructions (as an LLM sub-agent's prompt would be)
        tokens = sum(c.tokens or count_tokens(c.text) for c in chunks) + count_tokens(assignment.instructions)
        return SubResult(
            findings=findings, report=report_line(Counter(f.category for f in findings), len(chunks), tokens),
            tokens_in=tokens, tokens_out=0, calls=1, seconds=time.monotonic() - t0,
        )
