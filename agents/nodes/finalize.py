"""End of run: final memo sections, exports (memo.md, memo.docx, findings.json, run.json), status."""

from __future__ import annotations

from langchain_core.runnables import RunnableConfig

from agents.finish import lifecycle_pass
from agents.runtime.context import ctx
from agents.finish.export import export_run
from agents.memo.writer import refresh_harness_sections, refresh_item_sections
from agents.state import RunState


async def node(state: RunState, config: RunnableConfig) -> dict:
    hc = ctx()
    regraded = lifecycle_pass.apply(hc, state["run_id"])  # the room is read: expired/deleted provisions are known
    memo = refresh_item_sections(hc, state, final=True, force=regraded)
    refresh_harness_sections(hc, state, final=True)
    stats = export_run(hc.settings, hc.store, state["run_id"], state.get("finish_reason", ""))
    status = "failed" if state.get("finish_reason", "").startswith("error") else "finished"
    hc.store.set_run_status(state["run_id"], status, error=state.get("finish_reason", "") if status == "failed" else "",
                            stats=stats)
    hc.emit(state["run_id"], "run_finished", {"status": status, **{k: stats[k] for k in ("coverage", "tokens")}})
    return {"finished": True, "memo": memo}
