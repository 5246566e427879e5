"""Review lanes: a wave's leaf assignments run on a fixed number of long-lived tasks.

One LangGraph task per assignment made a 1,000-assignment wave cost time that
grows with the square of the tasks in flight (the runner waits on every pending
future after each completion). A wave is therefore dealt to at most
2 x max_concurrency lanes, largest first onto the least-loaded lane, and each
lane works through its share; a lane that runs dry takes the smallest pending
assignment of the busiest other lane, so a slow call does not leave the rest
idle. The pool is in-process (run context), never checkpointed: a resumed lane
rebuilds it from its own share and reuses what the store already has.
"""

from __future__ import annotations

from collections import deque

from core.settings import HarnessSettings

from agents.state import AssignmentRecord


def lane_count(h: HarnessSettings) -> int:
    """Model calls are capped at max_concurrency (the harness's semaphore); twice as many lanes, so that a
    sub-agent storing its results after its call released the slot does not hold back the next call."""
    return 2 * max(1, h.max_concurrency)


def deal(leaves: list[AssignmentRecord], lanes: int) -> list[list[AssignmentRecord]]:
    """Longest-processing-time split by token estimate; each share largest first; no empty shares."""
    n = max(1, min(lanes, len(leaves)))
    shares: list[list[AssignmentRecord]] = [[] for _ in range(n)]
    load = [0] * n
    for a in sorted(leaves, key=lambda a: -a["tokens"]):  # stable: equal sizes keep dispatch order
        i = min(range(n), key=load.__getitem__)
        shares[i].append(a)
        load[i] += max(1, a["tokens"])
    return [s for s in shares if s]


class LanePool:
    """The pending assignments of one wave's lanes, shared so that idle lanes help busy ones."""

    def __init__(self) -> None:
        self.shares: dict[int, deque[AssignmentRecord]] = {}
        self.active = 0

    def join(self, lane: int, share: list[AssignmentRecord]) -> None:
        self.shares[lane] = deque(share)
        self.active += 1

    def next(self, lane: int) -> AssignmentRecord | None:
        own = self.shares.get(lane)
        if own:
            return own.popleft()
        busiest = max(self.shares.values(), key=len, default=None)
        return busiest.pop() if busiest else None

    def leave(self) -> bool:
        """True when the last lane of the wave has left (the pool can go)."""
        self.active -= 1
        return self.active <= 0
