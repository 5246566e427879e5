"""Session context: which room and run the reviewer is looking at.

Only plain data (strings) goes into st.session_state; the room and run are
also mirrored into the URL's query string so a browser reload lands on the
same room and run.
"""

from __future__ import annotations

import streamlit as st

from core.settings import Settings

from app import services

ROOM = "room"
RUN = "run_id"


def _restore(key: str) -> None:
    if key not in st.session_state and st.query_params.get(key):
        st.session_state[key] = st.query_params[key]


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
    rooms = services.room_names(settings)
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
    runs = services.run_ids(settings, current)
    rid = run_id()
    if rid and rid not in runs and services.run_starting(settings, rid):
        runs = [rid, *runs]  # just launched: its worker has not registered it yet
    if not runs:
        st.caption("No review run yet — start one on **Review run**.")
        return
    if rid not in runs:
        rid = runs[0]
        set_run(rid)
    chosen = st.selectbox("Run", runs, index=runs.index(rid))
    if chosen != rid:
        set_run(chosen)
    info = services.review_store(settings).run(chosen)
    if info is not None:
        st.caption(f"Run status: **{info.status}** · started {info.started_at:%Y-%m-%d %H:%M} UTC")
