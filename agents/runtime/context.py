"""What nodes need but the checkpoint must not hold: services, policies, the checklist.

Passed as LangGraph's run context (`context=`), read in nodes with `ctx()`.
Rebuilt identically on resume from the run's settings and room.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from langgraph.config import get_stream_writer
from langgraph.runtime import get_runtime

from core.settings import Settings
from core.types import ChecklistItem

from agents.runtime.breaker import CircuitBreaker
from agents.runtime.lanes import LanePool
from agents.policy import RootPolicy, SubReviewer
from agents.runtime.room import RoomView
from agents.store import ReviewStore
from agents.runtime.trajectory import Trajectory


@dataclass
class HarnessContext:
    settings: Settings
    store: ReviewStore
    room: RoomView
    policy: RootPolicy
    reviewer: SubReviewer
    items: list[ChecklistItem]
    trajectory: Trajectory
    semaphore: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(8))
    started: float = field(default_factory=time.monotonic)
    lanes: dict[str, LanePool] = field(default_factory=dict)  # wave id -> its lanes' pending assignments
    # document id -> lifecycle facts (agents.facts.lifecycle), read while the document's review call is in flight
    # so the end-of-run pass does not read the whole room again; a resumed run reads what is missing
    facts: dict[str, Any] = field(default_factory=dict)
    breaker: CircuitBreaker | None = None  # stops a run whose sub-agent reviews keep failing (agents.runtime.breaker)
    _builtin: SubReviewer | None = None

    def builtin_reviewer(self) -> SubReviewer:
        """The built-in reviewer, for a document whose model sub-agent gave no usable review."""
        if self._builtin is None:
            from agents.offline.subagents import OfflineSubReviewer

            self._builtin = OfflineSubReviewer()
        return self._builtin

    def item(self, item_id: str) -> ChecklistItem | None:
        return next((i for i in self.items if i.id == item_id), None)

    def enabled_items(self) -> list[ChecklistItem]:
        return [i for i in self.items if i.enabled]

    def emit(self, run_id: str, kind: str, data: dict) -> None:
        """Store the event for the app and stream it (custom mode) for the CLI."""
        ev = self.store.add_event(run_id, kind, data)
        try:
            get_stream_writer()({"event": kind, "id": ev.id, **data})
        except RuntimeError:
            pass  # called outside a graph run (e.g. from the CLI's finaliser): stored is enough


def ctx() -> HarnessContext:
    return get_runtime(HarnessContext).context
