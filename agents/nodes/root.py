"""One root step: observe (ids and counts), let the policy decide tool calls, run them.

A root that never stalls: when the root model's output is unusable after its
retries, or it spends STALL_STEPS steps in a row without progress while work
is pending (listing or searching, never delegating), the built-in planner
(agents.offline.offline_root) makes that step's decision and the run goes on. The
fallback is recorded where a reader looks: the step's tool calls (ids
'planner-stepN-i'), its trajectory record, a `root_fallback` event, and
run.json's root_fallbacks.
"""

from __future__ import annotations

import json
import time

from langchain_core.runnables import RunnableConfig

from agents.runtime.context import ctx
from agents.runtime.observe import observe
from agents.offline.offline_root import OfflineRootPolicy, describe_fallback, planner_decision
from agents.policy import RootDecision, RootObservation
from agents.root.root_tools import StepEffects, judge_finish, run_tool
from agents.state import RunState

HISTORY_STEPS = 4
MAX_ROOT_STEPS = 500  # a policy that never calls finish() still ends
STALL_STEPS = 3  # steps in a row without progress (this one included) before the planner decides; < HISTORY_STEPS


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
    fallback: dict | None = None
    try:
        decision = await hc.policy.decide(obs)
    except (RuntimeError, ValueError, TimeoutError, OSError) as e:
        if isinstance(hc.policy, OfflineRootPolicy):
            # the built-in planner itself failed: nothing to fall back on; the run ends with the reason kept
            hc.emit(run_id, "error", {"where": "root", "step": step, "error": str(e)[:500]})
            return {"finished": True, "finish_reason": f"error: root policy failed: {e}"[:500], "step": step + 1}
        decision = await planner_decision(hc, obs, spent=e)
        fallback = {"step": step, "why": "unusable", "detail": str(e)[:300]}
    if not decision.seconds:
        decision.seconds = time.monotonic() - t0
    fx = StepEffects(refusals=state.get("finish_refusals", 0))
    for call in decision.tool_calls:
        run_tool(hc, state, call, fx)
    if not decision.tool_calls:  # a model that stops calling tools means finish(), under the same judgement
        fx.finish_call, fx.finish_reason = "", "no tool calls"
    if fallback is None and _stalled(state, obs, fx):
        planned = await planner_decision(hc, obs)
        for call in planned.tool_calls:
            run_tool(hc, state, call, fx)
        fallback = {"step": step, "why": "stalled",
                    "detail": f"{STALL_STEPS} steps without progress while work was pending; this step: "
                              + ", ".join(dict.fromkeys(c.name for c in decision.tool_calls))}
        decision = decision.model_copy(update={"tool_calls": decision.tool_calls + planned.tool_calls})
    judge_finish(hc, state, fx, obs.followup_pending)
    if step + 1 >= MAX_ROOT_STEPS and not fx.finished:
        fx.finished, fx.finish_reason = True, "root step limit"
    if fallback is not None:
        fallback["note"] = describe_fallback(state, fx, decision, fallback)
        hc.emit(run_id, "root_fallback", fallback)
    _record(hc, state, obs.model_dump(mode="json", exclude_defaults=True), decision, fx, step, fallback)
    results = [r.model_dump(mode="json") for r in fx.results]
    by_id = {r["call_id"]: r for r in results}
    history = list(state.get("history", []))[-(HISTORY_STEPS - 1):] + [{
        "step": step, "calls": _briefs(decision.tool_calls, by_id), "progress": _progressed(obs, fx)}]
    return {
        "step": step + 1, "last_results": results, "history": history, "assignments": fx.assignments,
        "dispatch": fx.dispatch, "doc_passes": fx.doc_passes, "delegate_calls": fx.delegate_calls,
        "searched": fx.searched, "memo": fx.memo, "finished": fx.finished, "finish_reason": fx.finish_reason,
        "finish_refusals": fx.refusals + int(fx.refused_now),
        "root_usage": {"tokens_in": decision.tokens_in, "tokens_out": decision.tokens_out,
                       "calls": decision.calls, "seconds": decision.seconds},
    }


def _progressed(obs: RootObservation, fx: StepEffects) -> bool:
    """Whether the step moved the run on for its phase: delegating while documents are pending, searching
    or delegating while items await a follow-up, writing the memo or finishing afterwards."""
    delegated = bool(fx.dispatch or fx.delegate_calls)
    if obs.phase == "review":
        return delegated
    if obs.phase == "followup":
        return delegated or bool(fx.searched) or fx.finished
    return delegated or bool(fx.memo) or fx.finished


def _stalled(state: RunState, obs: RootObservation, fx: StepEffects) -> bool:
    """This step and the STALL_STEPS - 1 before it made no progress (a root model listing documents forever).

    A step that asks to finish is not a stall: finish() has its own judgement (refused while work is left,
    then let go, with the scope section saying what was not done)."""
    if fx.finish_call is not None or _progressed(obs, fx):
        return False
    before = list(state.get("history", []))[-(STALL_STEPS - 1):]
    return len(before) == STALL_STEPS - 1 and not any(h.get("progress", True) for h in before)


def _record(hc, state: RunState, obs: dict, decision: RootDecision, fx: StepEffects, step: int,
            fallback: dict | None) -> None:
    run_id = state["run_id"]
    calls = [c.model_dump(mode="json") for c in decision.tool_calls]
    hc.store.record_root_step(run_id, step, decision.tokens_in, decision.tokens_out, decision.calls,
                              decision.seconds, calls)
    rec = {
        "type": "root_step", "run_id": run_id, "step": step, "policy": hc.policy.name, "observation": obs,
        "messages": decision.messages, "content": decision.content, "tool_calls": calls,
        "results": [r.model_dump(mode="json") for r in fx.results], "tokens_in": decision.tokens_in,
        "tokens_out": decision.tokens_out, "calls": decision.calls, "seconds": round(decision.seconds, 4),
        "decided_by": "planner" if fallback and fallback["why"] == "unusable" else (
            "model+planner" if fallback else hc.policy.name),
    }
    for k in ("parse_form", "mode", "tokens_estimated", "errors"):  # what only the LLM path knows
        if hasattr(decision, k):
            rec[k] = getattr(decision, k)
    if fallback is not None:
        rec["fallback"] = fallback
    hc.trajectory.write(rec)
    hc.emit(run_id, "root_step", {"step": step, "tools": [c.name for c in decision.tool_calls],
                                  "tokens_in": decision.tokens_in, "tokens_out": decision.tokens_out,
                                  "delegated": len(fx.dispatch)})
