"""The offline root policy: deterministic, no model.

inventory -> plan team -> delegate every planned batch in waves (each fills the
concurrency cap) -> integrate (the harness redrafts memo sections as findings
arrive) -> retry failed documents once -> follow-up (for each item with no
finding, the harness searches and delegates the top hits for a second look) ->
finish (the harness writes the last sections, 'not found' ones included).

Its "tokens" are the size of what it read (the observation) and wrote (its tool
calls), so the root's share of a run is measured the same way for both policies.
"""

from __future__ import annotations

import json
import time

from core.text import count_tokens
from core.types import ChecklistItem

from agents.policy import RootDecision, RootObservation, ToolCall


def followup_query(item: ChecklistItem) -> str:
    return f"{item.title}: {item.description}"


async def planner_decision(hc, obs: RootObservation, spent: Exception | None = None) -> RootDecision:
    """The built-in planner's decision for a step the root model could not drive.

    Call ids are 'planner-stepN-i', so the step's recorded tool calls say who decided. `spent`: the root
    model's error, whose failed attempts are the step's tokens and calls (the planner costs no model call).
    """
    planner = OfflineRootPolicy(hc.enabled_items(), followup_k=hc.settings.harness.followup_k)
    d = await planner.decide(obs)
    calls = [c.model_copy(update={"id": f"planner-step{obs.step}-{i + 1}"}) for i, c in enumerate(d.tool_calls)]
    return d.model_copy(update={
        "tool_calls": calls, "content": f"built-in planner ({d.content})",
        "tokens_in": int(getattr(spent, "tokens_in", 0)), "tokens_out": int(getattr(spent, "tokens_out", 0)),
        "calls": int(getattr(spent, "calls", 0)),
    })


def describe_fallback(state: dict, fx, decision: RootDecision, fallback: dict) -> str:
    """One line for the run's record: 'root model could not drive step 3 (...); built-in planner delegated ...'."""
    why = {"unusable": "its output was unusable after retries",
           "stalled": "it repeated steps without progress"}[fallback["why"]]
    mine = [c for c in decision.tool_calls if c.id.startswith("planner-")]
    new_docs = set(fx.doc_passes)
    batches = [b["id"] for b in state.get("plan", {}).get("batches", []) if new_docs & set(b["document_ids"])]
    did = []
    if batches:
        did.append(f"delegated batch {', '.join(batches[:10])}" + (f" (+{len(batches) - 10})" if len(batches) > 10 else ""))
    elif fx.dispatch:
        did.append(f"delegated {len(fx.dispatch)} assignment(s)")
    if fx.searched:
        did.append(f"searched for {', '.join(sorted(fx.searched)[:10])}")
    if any(c.name == "finish" for c in mine):
        did.append("finished" if fx.finished else "asked to finish")
    return f"root model could not drive step {fallback['step']} ({why}); built-in planner " + (
        "; ".join(did) or "had nothing to do")


def recorded_fallbacks(store, run_id: str, limit: int = 20) -> dict:
    """For run.json: the steps the built-in planner decided and the memo sections a model could not write."""
    notes, memo_kept, steps, after = [], [], 0, 0
    while True:
        events = store.events_since(run_id, after, limit=2000)
        if not events:
            break
        after = events[-1].id
        for e in events:
            if e.kind == "root_fallback":
                steps += 1
                if len(notes) < limit:
                    notes.append(str(e.data.get("note", "")))
            elif e.kind == "memo_fallback" and len(memo_kept) < limit:
                memo_kept.append(f"{e.data.get('key')}: {e.data.get('why')}")
    return {"planner_steps": steps, "notes": notes, "memo_sections_kept": memo_kept}


class OfflineRootPolicy:
    name = "offline-root"

    def __init__(self, items: list[ChecklistItem], followup_k: int = 5):
        self.items = [i for i in items if i.enabled]
        self.by_id = {i.id: i for i in self.items}
        self.followup_k = followup_k

    async def decide(self, obs: RootObservation) -> RootDecision:
        t0 = time.monotonic()
        calls = self._calls(obs)
        tool_calls = [ToolCall(id=f"s{obs.step}-{n + 1}", name=name, arguments=args) for n, (name, args) in enumerate(calls)]
        return RootDecision(
            tool_calls=tool_calls, content=f"phase {obs.phase}",
            tokens_in=count_tokens(obs.model_dump_json(exclude_defaults=True)),
            tokens_out=count_tokens(json.dumps([c.model_dump() for c in tool_calls])),
            calls=1, seconds=time.monotonic() - t0,
        )

    def _calls(self, obs: RootObservation) -> list[tuple[str, dict]]:
        cov = obs.coverage
        searched = len(obs.followup_pending) + sum(c.searched for c in obs.categories)
        reason = f"coverage {cov.documents_reviewed}/{cov.documents_total} documents; {searched} item(s) searched for"
        if obs.phase == "review":
            return self._retries(obs) + self._wave(obs)
        if obs.phase == "followup":
            # a second look for every item with no finding, one delegate each: the harness searches and hands
            # the hits to sub-agents without them passing through this context; finish() in the same step lets
            # the run end once they are back (the harness drafts every section, 'not found' included)
            return [("delegate", {"query": followup_query(self.by_id[c]), "k": self.followup_k, "categories": [c]})
                    for c in obs.followup_pending if c in self.by_id] + [("finish", {"reason": reason})]
        return [("finish", {"reason": reason})]  # memo (nothing the offline root wrote itself) or done

    def _wave(self, obs: RootObservation) -> list[tuple[str, dict]]:
        # a wave fills the concurrency cap (more in a large room, see observe.wave_size), so the memo is
        # rewritten as each wave's findings arrive; instructions are left to the per-assignment defaults
        return [("delegate", {"next_pending": obs.plan.wave_batches})] if obs.plan.pending_batches else []

    def _retries(self, obs: RootObservation) -> list[tuple[str, dict]]:
        """Each document whose review failed is delegated once more, on its own."""
        return [("delegate", {"document_ids": [d]}) for d in obs.retryable_documents]
