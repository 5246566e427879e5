"""Review lanes (agents.runtime.lanes): a wave runs on at most 2 x max_concurrency graph tasks, balanced by work
stealing, and every assignment runs exactly once."""

from __future__ import annotations

import asyncio
from agents.runtime.lanes import LanePool, deal
from agents.nodes.integrate import _dedup
from tests.agents.doubles import ScriptedReviewer
from tests.agents.rooms import contract, write_room


def _rec(i: int, tokens: int) -> dict:
    return {"id": f"a{i}", "tokens": tokens}


def test_deal_balances_token_load_and_keeps_largest_first():
    leaves = [_rec(i, t) for i, t in enumerate([900, 100, 500, 500, 400, 100, 100, 300])]
    shares = deal(leaves, 3)
    loads = sorted(sum(a["tokens"] for a in s) for s in shares)
    assert loads == [900, 1000, 1000]  # LPT: no share above the largest single item plus the rest's mean
    for s in shares:
        assert [a["tokens"] for a in s] == sorted((a["tokens"] for a in s), reverse=True)
    assert sorted(a["id"] for s in shares for a in s) == sorted(a["id"] for a in leaves)
    assert len(deal(leaves[:2], 16)) == 2  # never an empty lane
    assert deal([], 4) == []


def test_idle_lane_takes_the_smallest_pending_assignment_of_the_busiest_lane():
    pool = LanePool()
    pool.join(0, [_rec(1, 50), _rec(2, 40), _rec(3, 30)])
    pool.join(1, [_rec(4, 60)])
    assert pool.next(1)["id"] == "a4"
    assert pool.next(1)["id"] == "a3"  # own share empty: the tail of lane 0
    assert [pool.next(0)["id"], pool.next(0)["id"], pool.next(0)] == ["a1", "a2", None]
    assert pool.next(1) is None
    assert not pool.leave() and pool.leave()


def test_integrate_counts_an_assignment_reported_twice_after_a_resume_once():
    base = {"agent": "s", "status": "done", "error": "", "report": "", "document_ids": ["d"], "finding_ids": ["f"],
            "unverified": 1, "tokens_in": 10, "tokens_out": 2, "calls": 1, "seconds": 0.1}
    ran = {**base, "assignment_id": "a1", "reused": False}
    again = {**ran, "reused": True, "calls": 0}
    assert _dedup([again, ran]) == {"a1": ran}
    assert _dedup([ran, again]) == {"a1": ran}


def test_wave_larger_than_the_lanes_runs_each_assignment_once_and_idle_lanes_take_a_held_up_lanes_share(
        short_checklist, run_offline_root):
    s = short_checklist
    s.harness.max_concurrency = 2  # 4 lanes, 2 model calls at a time
    s.harness.max_waves = 1  # the offline root delegates the whole room in one wave
    s.harness.sub_context_tokens = s.harness.sub_prompt_reserve_tokens + 200  # one document per sub-agent
    write_room(s, "r", {f"A/c{i:02d}.pdf": contract(f"Agreement {i}", ["governing_law"]) for i in range(20)})
    loop_time = {}

    class HeldUp(ScriptedReviewer):
        async def review(self, assignment, document, chunks, items):
            name = document.path.rsplit("/", 1)[-1]
            first = name not in loop_time
            loop_time.setdefault(name, [asyncio.get_running_loop().time()])
            if name == "c00.pdf" and first:
                await asyncio.sleep(2.0)  # holds one of the two slots while the other 19 need 19 x 0.05 s
            try:
                return await super().review(assignment, document, chunks, items)
            finally:
                loop_time[name].append(asyncio.get_running_loop().time())

    reviewer = HeldUp(delay_s=0.05)
    stats, store = run_offline_root(s, "r", reviewer)
    assert stats["coverage"]["documents_reviewed"] == 20
    review_pass = [e for e in store.events_since("run-1", 0, limit=100000) if e.kind == "assignment_finished"]
    assert len({e.data["assignment_id"] for e in review_pass}) == len(review_pass)  # none executed twice
    first_pass = reviewer.calls[:20]  # the review wave, before any follow-up second look
    assert len({a for a, _, _, _ in first_pass}) == len({p for _, p, _, _ in first_pass}) == 20
    assert reviewer.max_active == 2  # the model-call cap holds with 4 lanes
    # equal documents are dealt round-robin, so c04, c08, c12, c16 share c00's lane; other lanes took them
    # instead of waiting for c00 (without stealing they would start after it ends)
    held_end = loop_time["c00.pdf"][1]  # [first start, first end, later follow-up times...]
    assert all(loop_time[f"c{i:02d}.pdf"][0] < held_end for i in (4, 8, 12, 16))
