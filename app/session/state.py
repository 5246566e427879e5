"""Session context: which room and run the reviewer is looking at.

Only plain data (strings) goes into st.session_state; the room and run are
also mirrored into the URL's query string so a browser reload lands on the
same room and run.
"""

from __future__ import annotations

import streamlit as st

from core.settings import Settings, check_name

from app.session import services
from app.views import run_view

LIVE_REFRESH_S = 1.0  # the same interval as the page's live panels (app.render.ui.LIVE_REFRESH_S)

ROOM = "room"
RUN = "run_id"


def _restore(key: str) -> None:
    """From the URL into the session, if it is a well-formed room name / run id (the URL is user input)."""
    value = st.query_params.get(key)
    if key in st.session_state or not value:
        return
    try:
        check_name("room name" if key == ROOM else "run id", value)
    except ValueError:
        del st.query_params[key]
        return
    st.session_state[key] = value


def set_room(room: str | None) -> None:
    st.session_state[ROOM] = room
    if room:
        st.query_params[ROOM] = room
    elif ROOM in st.query_params:
        del st.query_params[ROOM]


def set_run(run_id: str | None) -> None:
    st.session_state[RUN] = run_id
    if run_id:
        st.query_params[RUN] = run_id
    elif RUN in st.query_params:
        del st.query_params[RUN]


def room() -> str | None:
    _restore(ROOM)
    return st.session_state.get(ROOM)


def run_id() -> str | None:
    _restore(RUN)
    return st.session_state.get(RUN)


def _sync_url() -> None:
    """Page switches drop the query string; put room and run back so a reload restores them."""
    for key in (ROOM, RUN):
        value = st.session_state.get(key)
        if value and st.query_params.get(key) != value:
            st.query_params[key] = value


def sidebar_context(settings: Settings) -> None:
    """Room and run pickers shown on every page."""
    _restore(ROOM)
    _restore(RUN)
    _sync_url()
    from app.session import auth

    rooms = auth.room_names(settings)  # only the rooms this user may see
    current = room()
    if not rooms:
        st.caption("No data room yet — add one on **Data rooms**.")
        return
    if current not in rooms:
        current = rooms[0]
        set_room(current)
    picked = st.selectbox("Data room", rooms, index=rooms.index(current))
    if picked != current:
        set_room(picked)
        set_run(None)
        current = picked
    from app.session import auth

    store = auth.store(settings)
    runs = {r.id: r for r in store.runs(current)}
    rid = run_id()
    if rid and rid not in runs and services.run_starting(settings, rid):
        st.caption(f"Starting a run on {current}…")  # just launched: its worker has not registered it yet
        return
    if not runs:
        st.caption("No review run yet — start one on **Review run**.")
        return
    if rid not in runs:
        rid = next(iter(runs))  # the newest
        set_run(rid)
    labels = {i: run_view.run_label(r, store.actions(i), run_view.status_word(settings, r)) for i, r in runs.items()}
    chosen = st.selectbox("Run", list(runs), index=list(runs).index(rid), format_func=labels.__getitem__,
                          help="Runs of this room by start time, reviewer (offline or the models), your decisions "
                               "on their findings, and status.")
    if chosen != rid:
        set_run(chosen)
    run_status(settings, chosen)


def run_status(settings: Settings, rid: str) -> None:
    """The run's status line, refreshed with the page's live panels while a worker works on it, so the
    sidebar and the page never disagree (both read run_view.status_word)."""
    store = services.review_store(settings)
    info = store.run(rid)
    if info is None:
        return

    @st.fragment(run_every=LIVE_REFRESH_S if run_view.is_live(settings, info) else None)
    def line() -> None:
        now = store.run(rid)
        st.caption(f"Run status: **{run_view.status_word(settings, now)}** · started "
                   f"{now.started_at:%Y-%m-%d %H:%M} UTC")
        if run_view.is_live(settings, info) and not run_view.is_live(settings, now):
            st.rerun(scope="app")  # it just ended: redraw the page's buttons too

    line()
