"""Team sizing and recursion are functions of tokens and the sub-agent budget."""

from __future__ import annotations

import math

from core.settings import HarnessSettings
from core.types import Chunk, Document

from agents.runtime.plan import batch_budget, plan_batches, record, split_document


def _docs(n: int, tokens: int, folders: int = 3) -> list[Document]:
    return [Document(room="r", path=f"F{i % folders}/d{i}.pdf", doc_type="pdf", sha256=str(i), tokens=tokens)
            for i in range(n)]


def test_team_size_is_proportional_to_room_tokens():
    h = HarnessSettings()
    small, large = plan_batches(_docs(10, 3000), h), plan_batches(_docs(5000, 3000), h)
    budget = batch_budget(h)
    assert budget == h.sub_context_tokens - h.sub_prompt_reserve_tokens
    # every batch fits one sub-agent's budget, every document is in exactly one batch
    for plan, n in ((small, 10), (large, 5000)):
        assert all(b["tokens"] <= budget for b in plan)
        ids = [d for b in plan for d in b["document_ids"]]
        assert len(ids) == len(set(ids)) == n
    # the team follows the room's tokens: between tokens/budget and 25 % above it (plus folder breaks)
    for plan, n in ((small, 10), (large, 5000)):
        need = math.ceil(n * 3000 / budget)
        assert need <= len(plan) <= need * 1.25 + 3, (n, len(plan), need)
    assert len(small) <= 3 and len(large) >= 750
    # and it follows the budget, not a constant: half the budget -> about twice the team
    h2 = HarnessSettings(sub_context_tokens=h.sub_prompt_reserve_tokens + budget // 2)
    assert 1.8 <= len(plan_batches(_docs(5000, 3000), h2)) / len(large) <= 2.2


def test_long_document_gets_its_own_batch_marked_split():
    h = HarnessSettings(sub_context_tokens=5000, sub_prompt_reserve_tokens=1000)
    docs = _docs(4, 500, folders=1) + [Document(room="r", path="F0/long.pdf", doc_type="pdf", sha256="L", tokens=40_000)]
    batches = plan_batches(docs, h)
    long = [b for b in batches if b["split"]]
    assert len(long) == 1 and long[0]["document_ids"] == [docs[-1].id]


def _chunks(n: int, tokens: int) -> list[Chunk]:
    return [Chunk(document_id="d", index=i, text=f"chunk {i}", char_start=i * 10, char_end=i * 10 + 7, tokens=tokens)
            for i in range(n)]


def test_split_is_bounded_by_max_depth_and_covers_every_chunk():
    chunks = _chunks(200, 500)  # 100k tokens
    for max_depth in (1, 2, 3):
        h = HarnessSettings(sub_context_tokens=5000, sub_prompt_reserve_tokens=1000, max_depth=max_depth, max_concurrency=4)
        parent = record("sub-1", "review", ["d"], None, [], "", 0, None, 100_000, leaf=True)
        tree = split_document(parent, chunks, h)
        assert not parent["leaf"] and parent["children"]
        assert max(r["depth"] for r in tree) <= max_depth
        leaves = [r for r in tree if r["leaf"]]
        assert all(r["tokens"] <= batch_budget(h) for r in leaves)
        covered = sorted(i for r in leaves for i in range(*r["chunk_range"]))
        assert covered == list(range(200))  # every chunk reviewed exactly once
        assert len({r["id"] for r in tree}) == len(tree)  # stable, distinct ids
    # depth 0 means no recursion
    h0 = HarnessSettings(sub_context_tokens=5000, sub_prompt_reserve_tokens=1000, max_depth=0)
    assert split_document(record("sub-1", "review", ["d"], None, [], "", 0, None, 1, True), chunks, h0) == []
