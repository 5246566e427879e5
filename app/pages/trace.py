"""Trace: the agent tree (root → sub-agents → children) and the root's trajectory steps.

Paths, agent names, reports and tool results are untrusted (documents, models): they are shown
as dataframe cells and st.code only, never markdown (which links bare URLs whatever the escaping).
"""

import json

import streamlit as st

from agents.runtime.trajectory import trajectory_for

from app.render import ui
from app.views import trace_view
from app.views.palette import ASSIGNMENT_COLORS

st.title("Trace")
ctx = ui.require_run()  # calls auth.guard: signed in, and the room is theirs; ctx.store is scoped to them


@st.fragment(run_every=ui.refresh_every(ctx.live))
def trace_panel() -> None:
    run = ctx.store.run(ctx.run.id)
    usage = ctx.store.token_usage(ctx.run.id)
    roots = ctx.store.assignment_tree(ctx.run.id)
    agents = trace_view.count_agents(roots)
    m = st.columns(5)
    m[0].metric("Run status", run.status)
    m[1].metric("Root steps", usage.root_calls)
    m[2].metric("Sub-agents active", agents.get("running", 0))
    m[3].metric("Sub-agents finished", agents.get("done", 0) + agents.get("failed", 0))
    m[4].metric("Root share of tokens", f"{usage.root_share:.1%}")
    st.subheader("Agent tree")
    if not roots:
        st.info("No sub-agents yet. The root agent delegates documents once it has inventoried the room.")
    else:
        paths = {r["document_id"]: r["path"] for r in ctx.store.run_documents(ctx.run.id)}
        st.caption(f"root · {usage.root_calls} steps · {usage.root_in + usage.root_out:,} tokens")
        st.dataframe(ui.styled(trace_view.tree_rows(roots, paths), status=ASSIGNMENT_COLORS), hide_index=True)
    st.subheader("Root trajectory")
    records = trajectory_for(ctx.settings, ctx.run.id).read()
    steps = trace_view.root_steps(records)
    if steps.empty:
        st.caption("No root steps recorded yet.")
        return
    caption = trace_view.drive_caption(records)
    if caption:
        st.caption(caption)
    fallbacks = trace_view.fallback_rows(records)
    if not fallbacks.empty:
        st.dataframe(fallbacks, hide_index=True)
    forms = trace_view.form_rows(records)
    if not forms.empty:
        st.caption("How each model was asked (the best form its server accepted) and how its replies were read")
        st.dataframe(forms, hide_index=True)
    st.dataframe(steps, hide_index=True)
    pick = st.selectbox("Inspect step", steps["step"].tolist(), index=None, placeholder="Choose a step")
    if pick is not None:
        rec = next(r for r in records if r.get("type") == "root_step" and r.get("step") == pick)
        st.code(json.dumps({k: rec.get(k) for k in ("tool_calls", "results", "content")}, indent=2, default=str)[:20000],
                language="json")


trace_panel()
