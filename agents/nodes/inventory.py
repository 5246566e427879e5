"""Inventory and team plan: the room in counts, and batches sized from tokens and the sub-agent budget."""

from __future__ import annotations

import time

from langchain_core.runnables import RunnableConfig

from agents.runtime.context import ctx
from agents.runtime.plan import batch_budget, plan_batches
from agents.state import RunState


async def node(state: RunState, config: RunnableConfig) -> dict:
    if state.get("plan"):
        return {}  # resumed run: the plan is part of the checkpoint
    hc = ctx()
    h = hc.settings.harness
    batches = plan_batches(hc.room.parsed(), h)
    plan = {"batch_tokens": batch_budget(h), "sub_agents": len(batches), "batches": batches}
    cov = hc.store.coverage(state["run_id"])
    hc.emit(state["run_id"], "coverage", {
        "documents_reviewed": 0, "documents_total": cov.documents_total, "tokens_reviewed": 0,
        "tokens_total": cov.tokens_total, "sub_agents_planned": len(batches), "batch_tokens": plan["batch_tokens"],
    })
    return {"plan": plan, "started_at": time.time(), "step": 0, "finished": False}
