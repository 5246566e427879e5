"""One root step: observe (ids and counts), let the policy decide tool calls, run them."""

from __future__ import annotations

import json
import time

from langchain_core.runnables import RunnableConfig

from agents.context import ctx
from agents.observe import observe
from agents.policy import RootDecision
from agents.root_tools import StepEffects, judge_finish, run_tool
from agents.state import RunState

HISTORY_STEPS = 4
MAX_ROOT_STEPS = 500  # a policy that never calls finish() still ends


def _briefs(calls: list, by_id: dict[str, dict]) -> list[str]:
    """One line per tool used in the step (not per call), so history stays small however wide a step is."""
    lines = []
    for name in dict.fromkeys(c.name for c in calls):
        mine = [c for c in calls if c.name == name]
        res = [by_id.get(c.id) for c in mine]
        errors = [r["error"][:60] for r in res if r is not None and not r.get("ok")]
        pending = sum(r is None for r in res)
        first = json.dumps(mine[0].arguments, sort_keys=True)[:40]
        lines.append(f"{name} x{len(mine)} ({first}...): {len(mine) - len(errors) - pending} ok"
                     + (f", {pending} sent to sub-agents" if pending else "")
                     + (f", {len(errors)} error(s): {errors[0]}" if errors else ""))
    return lines


async def node(state: RunState, config: RunnableConfig) -> dict:
    hc = ctx()
    run_id = state["run_id"]
    step = state.get("step", 0)
    obs = observe(hc, state)
    t0 = time.monotonic()
    try:
        decision = await hc.policy.decide(obs)
    except (RuntimeError, ValueError, TimeoutError, OSError) as e:
        # a root that cannot decide ends the run with what it has; the reason is kept, not swallowed
        hc.emit(run_id, "error", {"where": "root", "step": step, "error": str(e)[:500]})
        return {"finished": True, "finish_reason": f"error: root policy failed: {e}"[:500], "step": step + 1}
    if not decision.seconds:
        decision.seconds = time.monotonic() - t0
    fx = StepEffects(refusals=state.get("finish_refusals", 0))
    for call in decision.tool_calls:
        run_tool(hc, state, call, fx)
    if not decision.tool_calls:  # a model that stops calling tools means finish(), under the same judgement
        fx.finish_call, fx.finish_reason = "", "no tool calls"
    judge_finish(hc, state, fx, obs.followup_pending)
    if step + 1 >= MAX_ROOT_STEPS and not fx.finished:
        fx.finished, fx.finish_reason = True, "root step limit"
    _record(hc, state, obs.model_dump(mode="json", exclude_defaults=True), decision, fx, step)
    results = [r.model_dump(mode="json") for r in fx.results]
    by_id = {r["call_id"]: r for r in results}
    history = list(state.get("history", []))[-(HISTORY_STEPS - 1):] + [{
        "step": step, "calls": _briefs(decision.tool_calls, by_id)}]
    return {
        "step": step + 1, "last_results": results, "history": history, "assignments": fx.assignments,
        "dispatch": fx.dispatch, "doc_passes": fx.doc_passes, "delegate_calls": fx.delegate_calls,
        "searched": fx.searched, "memo": fx.memo, "finished": fx.finished, "finish_reason": fx.finish_reason,
        "finish_refusals": fx.refusals + int(fx.refused_now),
        "root_usage": {"tokens_in": decision.tokens_in, "tokens_out": decision.tokens_out,
                       "calls": decision.calls, "seconds": decision.seconds},
    }


def _record(hc, state: RunState, obs: dict, decision: RootDecision, fx: StepEffects, step: int) -> None:
    run_id = state["run_id"]
    calls = [c.model_dump(mode="json") for c in decision.tool_calls]
    hc.store.record_root_step(run_id, step, decision.tokens_in, decision.tokens_out, decision.calls,
                              decision.seconds, calls)
    hc.trajectory.write({
        "type": "root_step", "run_id": run_id, "step": step, "policy": hc.policy.name, "observation": obs,
        "messages": decision.messages, "content": decision.content, "tool_calls": calls,
        "results": [r.model_dump(mode="json") for r in fx.results], "tokens_in": decision.tokens_in,
        "tokens_out": decision.tokens_out, "calls": decision.calls, "seconds": round(decision.seconds, 4),
    })
    hc.emit(run_id, "root_step", {"step": step, "tools": [c.name for c in decision.tool_calls],
                                  "tokens_in": decision.tokens_in, "tokens_out": decision.tokens_out,
                                  "delegated": len(fx.dispatch)})
