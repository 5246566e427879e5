"""Team sizing and recursion: how many sub-agents, which documents each, how long documents split.

Pure functions of the room's token counts and the sub-agent budget, so a
10-document room and a 5,000-document room get proportionate teams, and the
same room always gets the same plan (assignment ids are stable across resumes).
"""

from __future__ import annotations

import math

from core.settings import HarnessSettings
from core.types import Chunk, Document, stable_id

from agents.state import AssignmentRecord


def batch_budget(h: HarnessSettings) -> int:
    """Document tokens one sub-agent may read: its context minus instructions and output."""
    return max(1, h.sub_context_tokens - h.sub_prompt_reserve_tokens)


def plan_batches(documents: list[Document], h: HarnessSettings) -> list[dict]:
    """Greedy packing of parsed documents, folder by folder, into batches of at most one budget.

    A document longer than the budget gets a batch of its own (split=True) and is split into
    child sub-agents when delegated.
    """
    budget = batch_budget(h)
    batches: list[dict] = []
    current: list[Document] = []
    tokens = 0

    def close() -> None:
        nonlocal current, tokens
        if current:
            batches.append(_batch(len(batches), current, tokens, split=False))
        current, tokens = [], 0

    for d in sorted(documents, key=lambda d: (d.folder, d.path)):
        t = max(1, d.tokens)
        if t > budget:
            close()
            batches.append(_batch(len(batches), [d], t, split=True))
            continue
        if current and (tokens + t > budget or current[-1].folder != d.folder and tokens + t > budget // 2):
            close()
        current.append(d)
        tokens += t
    close()
    return batches


def _batch(i: int, docs: list[Document], tokens: int, split: bool) -> dict:
    return {
        "id": f"b{i + 1}", "document_ids": [d.id for d in docs], "tokens": tokens,
        "folders": sorted({d.folder for d in docs}), "split": split,
    }


def assignment_id(pass_: str, document_ids: list[str], chunk_range: list[int] | None, categories: list[str]) -> str:
    rng = f"{chunk_range[0]}:{chunk_range[1]}" if chunk_range else "all"
    return "a" + stable_id(pass_, ",".join(document_ids), rng, ",".join(sorted(categories)), length=12)


def record(
    agent: str, pass_: str, document_ids: list[str], chunk_range: list[int] | None, categories: list[str],
    instructions: str, depth: int, parent_id: str | None, tokens: int, leaf: bool,
) -> AssignmentRecord:
    return AssignmentRecord(
        id=assignment_id(pass_, document_ids, chunk_range, categories), agent=agent, parent_id=parent_id,
        pass_=pass_, leaf=leaf, document_ids=list(document_ids), chunk_range=chunk_range,
        categories=list(categories), instructions=instructions, depth=depth, status="pending", error="",
        tokens=tokens, children=[],
    )


def _pack(chunks: list[Chunk], lo: int, hi: int, budget: int) -> list[tuple[int, int]]:
    """Contiguous chunk ranges of at most `budget` tokens (a single oversized chunk stands alone)."""
    ranges, start, tokens = [], lo, 0
    for i in range(lo, hi):
        t = max(1, chunks[i].tokens)
        if i > start and tokens + t > budget:
            ranges.append((start, i))
            start, tokens = i, 0
        tokens += t
    ranges.append((start, hi))
    return ranges


def _equal_parts(chunks: list[Chunk], lo: int, hi: int, parts: int) -> list[tuple[int, int]]:
    """`parts` contiguous ranges of roughly equal tokens."""
    total = sum(max(1, c.tokens) for c in chunks[lo:hi])
    target = total / parts
    ranges, start, acc = [], lo, 0
    for i in range(lo, hi):
        acc += max(1, chunks[i].tokens)
        if acc >= target * (len(ranges) + 1) and i + 1 < hi and len(ranges) < parts - 1:
            ranges.append((start, i + 1))
            start = i + 1
    ranges.append((start, hi))
    return ranges


def split_document(
    parent: AssignmentRecord, chunks: list[Chunk], h: HarnessSettings, fanout: int | None = None
) -> list[AssignmentRecord]:
    """Split a too-long assignment of one document into child assignments, recursively.

    Depth is bounded by max_depth: above the last level each node splits into at most `fanout`
    children; at the last level the range is packed into as many budget-sized children as needed,
    so every token is still reviewed. Returns every descendant (parents before children); the
    parent record is updated in place with its children and leaf=False.
    """
    budget = batch_budget(h)
    fanout = fanout or max(2, h.max_concurrency)
    doc_id = parent["document_ids"][0]
    lo, hi = parent["chunk_range"] or (0, len(chunks))
    tokens = sum(max(1, c.tokens) for c in chunks[lo:hi])
    depth = parent["depth"]
    if tokens <= budget or hi - lo <= 1 or depth >= h.max_depth:
        return []
    last_level = depth + 1 >= h.max_depth
    ranges = _pack(chunks, lo, hi, budget) if last_level else _equal_parts(
        chunks, lo, hi, min(fanout, math.ceil(tokens / budget), hi - lo))
    out: list[AssignmentRecord] = []
    parent["leaf"] = False
    for j, (a, b) in enumerate(ranges):
        child = record(
            agent=f"{parent['agent']}/child-{j + 1}", pass_=parent["pass_"], document_ids=[doc_id],
            chunk_range=[a, b], categories=parent["categories"], instructions=parent["instructions"],
            depth=depth + 1, parent_id=parent["id"], tokens=sum(max(1, c.tokens) for c in chunks[a:b]), leaf=True,
        )
        parent["children"].append(child["id"])
        out.append(child)
        out.extend(split_document(child, chunks, h, fanout))
    return out
