"""Run (or resume) one review: build the context, open the checkpointer, stream the graph."""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import Callable
from datetime import datetime, timezone

from core.checklist import load_checklist
from core.settings import Settings
from ingest.intake.rooms import is_reviewable

from agents.runtime.breaker import CircuitBreaker
from agents.run.checkpoints import open_checkpointer
from agents.runtime.context import HarnessContext
from agents.run.factory import build_policies
from agents.graph import build_graph
from agents.runtime.lanes import lane_count
from agents.policy import RootPolicy, SubReviewer
from agents.runtime.room import RoomView
from agents.store import ReviewStore, open_review_store
from agents.runtime.trajectory import trajectory_for

RECURSION_LIMIT = 10_000
MAX_FORKS = 3  # restarts from a fork point in one worker; more means the same node keeps failing


class RoomNotFound(ValueError):
    """The room was never ingested: reviewing it would make an empty run that looks finished."""


class RoomNotReady(RoomNotFound):
    """The room is still being ingested: a review now would miss the documents not yet parsed."""


def require_reviewable(settings: Settings, room: str) -> None:
    if not settings.room_exists(room):  # also refuses a name that is no room name (e.g. "../x")
        raise RoomNotFound(f"no data room {room!r} in {settings.workspace}")
    if not is_reviewable(settings, room):
        raise RoomNotReady(f"data room {room!r} is still being ingested: a review can start once every document "
                           "is parsed (the Rooms page shows its progress)")


def new_run_id(room: str) -> str:
    return f"{room}-{datetime.now(timezone.utc):%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


async def run_review(
    settings: Settings,
    room: str,
    run_id: str | None = None,
    *,
    resume: bool = False,
    policy: RootPolicy | None = None,
    reviewer: SubReviewer | None = None,
    store: ReviewStore | None = None,
    on_event: Callable[[dict], None] | None = None,
) -> dict:
    """Run the graph to the end (or resume thread `run_id`); returns the run's stats (run.json)."""
    run_id = run_id or new_run_id(room)
    require_reviewable(settings, room)
    settings.run_dir(run_id)  # a run id that is no safe folder name fails here, before anything is written
    store = store or open_review_store(settings)
    items = load_checklist(settings.checklist_path)
    room_view = RoomView(settings, room)
    if policy is None or reviewer is None:
        p, r = build_policies(settings, items)
        policy, reviewer = policy or p, reviewer or r
    resumed = store.run(run_id) is not None and bool(store.run_documents(run_id))
    store.create_run(run_id, room, settings, room_view.documents())
    store.set_run_pid(run_id, os.getpid())
    store.add_event(run_id, "run_started", {"room": room, "policy": policy.name, "reviewer": reviewer.name,
                                            "resumed": resumed})
    hc = HarnessContext(
        settings=settings, store=store, room=room_view, policy=policy, reviewer=reviewer, items=items,
        trajectory=trajectory_for(settings, run_id),
        semaphore=asyncio.Semaphore(max(1, settings.harness.max_concurrency)),
        breaker=CircuitBreaker(settings.harness, settings.llm.sub_base_url or settings.llm.base_url),
    )
    # model calls are capped by hc.semaphore; LangGraph runs every review lane of a wave at once
    config = {"configurable": {"thread_id": run_id}, "recursion_limit": RECURSION_LIMIT,
              "max_concurrency": lane_count(settings.harness)}
    try:
        await _stream(settings, hc, run_id, room, config, on_event)
    finally:
        hc.trajectory.close()
    run = store.run(run_id)
    return run.stats if run else {}


async def _stream(settings: Settings, hc: HarnessContext, run_id: str, room: str, config: dict,
                  on_event: Callable[[dict], None] | None) -> None:
    async with open_checkpointer(settings) as saver:
        graph = build_graph(saver)
        snapshot = await graph.aget_state(config)
        # a fresh thread starts from the input; an interrupted one resumes (input None); a finished one is left
        # alone. `next` alone is not enough: a task whose writes were saved just before a kill is not in `next`
        # but still in `tasks`, and resuming applies its writes and goes on
        run_graph = not snapshot.values or bool(snapshot.next) or bool(snapshot.tasks)
        pending = None if snapshot.values else {"run_id": run_id, "room": room}
        at = config
        for _ in range(MAX_FORKS + 1):
            if run_graph:
                async for mode, chunk in graph.astream(pending, at, context=hc,
                                                       stream_mode=["updates", "custom"], durability="sync"):
                    if on_event is not None:
                        on_event({"mode": mode, "data": chunk})
            # Checked after streaming too, not only before: resuming a stop that landed as a node returned
            # applies that node's saved writes and ends the thread at once (its route was never saved), so
            # the resumed run ended without reaching finalize and had no stats (test_runner under load).
            fork = await _fork_point(graph, config)  # the thread's newest checkpoints, not `at`'s past
            if fork is None:
                return
            at, run_graph, pending = fork, True, None
        raise RuntimeError(f"run {run_id}: the thread still ends through a failed task after {MAX_FORKS} restarts")


async def _fork_point(graph, config: dict) -> dict | None:
    """Where to pick up a thread that ended through a failed task; None for one that really finished.

    A stop (SIGTERM cancels the run) that lands as a node returns can leave that
    node's state writes saved beside its CancelledError, but not its route to the
    next node: resuming applies the writes and the thread ends without reaching
    finalize (seen with LangGraph 1.2: integrate's writes kept, its edge to root
    lost). The end is then not trusted: the run goes on from the newest checkpoint
    whose next tasks never failed, re-running the failed node (nodes are
    idempotent: a finished assignment is read back from the store, never redone).
    """
    # newest first; a finished run's history can be large (the whole state per superstep), so read two first
    head = [s async for s in graph.aget_state_history(config, limit=2)]
    if len(head) < 2 or not any(t.error for t in head[1].tasks):
        return None
    async for snap in graph.aget_state_history(config):
        if snap.next and not any(t.error for t in snap.tasks):
            return snap.config
    return None
