"""Review run: reviewer settings, checklist, start / stop / resume, and the live coverage panels."""

import html
from datetime import date

import streamlit as st

from agents.run import runner

from app.render import panels, ui
from app.session import auth, services, state
from app.views import run_view

st.title("Review run")
settings = services.settings()
room = ui.require_room(settings)  # calls auth.guard: signed in, and the room is theirs
store = auth.store(settings)  # scoped: a viewer's run start is refused there too (record_run_start)
writable = auth.can_write(settings, room)
rid = state.run_id()
run = store.run(rid) if rid else None
active = run is not None and run_view.is_live(settings, run)
busy = runner.active_run(room, settings)  # one active run per room, whichever tab or CLI started it

with st.expander("Reviewer and checklist", expanded=run is None):
    mode = st.radio("Reviewer", ["Offline reviewer (built in, no network)", "OpenAI-compatible endpoint"],
                    index=0 if settings.llm.offline else 1, horizontal=True)
    offline = mode.startswith("Offline")
    base_url = api_key = root_model = sub_model = ""
    if not offline:
        c = st.columns(2)
        base_url = c[0].text_input("Endpoint (base URL)", settings.llm.base_url, placeholder="http://127.0.0.1:8000/v1")
        api_key = c[1].text_input("API key", type="password", key="api_key",
                                  help="Kept in this browser session only; never written to logs, trajectories or exports.")
        root_model = c[0].text_input("Root model", settings.llm.root_model)
        sub_model = c[1].text_input("Sub-agent model", settings.llm.sub_model)
    as_of = st.date_input("Review as of", value=settings.harness.as_of or date.today(), format="YYYY-MM-DD",
                          help="Provisions of agreements that ended, and sections an amendment deleted, before this "
                               "date are graded info, not red flags, with the reason. A resumed run keeps the date "
                               "it was started with.")
    items = run_view.load_room_checklist(settings, room)
    st.caption("Checklist for this room — untick items to skip them; edit titles, severities and descriptions.")
    edited = st.data_editor(run_view.checklist_frame(items), key="checklist_editor",
                            disabled=["id"] if writable else True, hide_index=True,
                            column_config={"default_severity": st.column_config.SelectboxColumn(
                                "default severity", options=["high", "medium", "low", "info"], required=True)})
    new_items = run_view.apply_edits(items, edited)
    if new_items != items and writable:
        run_view.save_room_checklist(settings, room, new_items)
        st.toast("Checklist saved for this room")

if not writable:
    st.caption("Read only: your role on this room is viewer. Runs are started by its reviewers and admins.")
if busy and busy != rid:
    st.info(f"Run `{busy}` is active on this room; a new run can start once it ends.")
b = st.columns([1, 1, 1, 3])
if b[0].button("Start new run", type="primary", icon=":material/play_arrow:",
               disabled=not writable or bool(busy) or (not offline and not base_url)):
    overrides = run_view.run_overrides(settings, room, offline, base_url, api_key, root_model, sub_model, as_of)
    if not run_view.room_checklist_path(settings, room).exists():
        run_view.save_room_checklist(settings, room, items)
    try:  # checked again by the runner and the worker: another tab may have started one since this page drew
        store.require_write(room)  # refused for a viewer before any worker starts
        new = services.start_run(settings, room, overrides)
        store.record_run_start(new)
        state.set_run(new)
        st.rerun()
    except (runner.RunActive, runner.RoomNotFound) as e:  # another run, or a room still being ingested
        st.error(str(e))
if b[1].button("Stop", icon=":material/stop:", disabled=not active or not writable):
    store.require_write(room)
    services.stop_run(settings, run.id)
    st.rerun()
if b[2].button("Resume", icon=":material/replay:",
               disabled=not writable or run is None or bool(busy) or run.status == "finished"):
    try:
        store.record_run_start(run.id, resumed=True)
        services.resume_run(settings, run.id, run_view.run_overrides(settings, room, offline, base_url, api_key,
                                                                    root_model, sub_model))
        st.rerun()
    except runner.RunActive as e:
        st.error(str(e))

if run is None and rid and services.run_starting(settings, rid):
    @st.fragment(run_every=ui.LIVE_REFRESH_S)
    def wait_for_worker() -> None:
        if store.run(rid) is not None:
            st.rerun()
        st.info(f"Starting run `{rid}` — the worker is loading the room…")

    wait_for_worker()
    st.stop()
if run is None:
    st.info("No run yet for this room. Choose the reviewer, check the checklist, then press **Start new run**. "
            "The offline reviewer needs no endpoint and no network.")
    st.stop()


@st.fragment(run_every=ui.refresh_every(active))
def live_panel() -> None:
    current = store.run(run.id)
    ctx = ui.RunContext(settings, store, room, current)
    st.markdown(f"**Run `{current.id}`** · {ctx.status} · started {current.started_at:%Y-%m-%d %H:%M:%S} UTC")
    if current.error:
        # an endpoint's message is data: escaped HTML, not markdown (which would still autolink a URL in it)
        st.html(f'<div role="alert" style="color:#9B1C1C;white-space:pre-wrap">{html.escape(current.error)}</div>')
    if ctx.status == run_view.INTERRUPTED_WORD:
        st.warning("This run's worker process is gone (killed or crashed) before the run ended. "
                   "Press **Resume** to continue from its last checkpoint; the worker log is in "
                   f"`runs/{current.id}/worker.log`.")
    panels.headline(ctx)
    panels.coverage_map(ctx)
    if active and not ctx.live:
        st.rerun(scope="app")  # the run just ended: redraw the buttons


live_panel()
