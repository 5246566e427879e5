"""Small rendering helpers shared by the pages (the only app module besides pages that draws)."""

from __future__ import annotations

import html
from dataclasses import dataclass

import streamlit as st

from core.settings import Settings

from agents.store import ReviewStore
from agents.store.models import RunInfo

from app.session import auth, services, state
from app.views import run_view
from app.views.palette import REVIEWER_COLORS, SEVERITY_COLORS, text_style

LIVE_REFRESH_S = state.LIVE_REFRESH_S
ACTIVE = ("starting", "running", "stopping")


@dataclass
class RunContext:
    settings: Settings
    store: ReviewStore
    room: str
    run: RunInfo

    @property
    def live(self) -> bool:
        """A worker is working on it (a status the store still holds for a killed worker does not count)."""
        return run_view.is_live(self.settings, self.run)

    @property
    def status(self) -> str:
        return run_view.status_word(self.settings, self.run)


def badge(text: str, color: str) -> str:
    """A coloured pill for st.html; the text is escaped, the markup is ours."""
    return (f'<span style="background:{color};color:#fff;border-radius:0.6rem;padding:0.05rem 0.5rem;'
            f'font-size:0.8rem;font-weight:600">{html.escape(text)}</span>')


def text(message: str, error: bool = False) -> None:
    """Untrusted text (a file name, a parser's reason, an error naming a file) shown literally: escaped HTML,
    never markdown, where Streamlit would link a bare URL or draw an icon even from escaped text."""
    style = ' style="color:#b03a2e"' if error else ""
    st.html(f"<div{style}>{html.escape(message)}</div>")


def severity_badge(sev: str) -> str:
    return badge(sev, SEVERITY_COLORS.get(sev, "#777"))


def reviewer_badge(status: str) -> str:
    return badge(status, REVIEWER_COLORS.get(status, "#777"))


def require_room(settings: Settings) -> str:
    auth.guard(settings)  # signed in, and a room in the URL that is not theirs stops here with "no access"
    room = state.room()
    if not room or room not in auth.room_names(settings):
        st.info("No data room selected. Go to **Data rooms**, upload a zip or choose a folder, and ingest it.")
        st.page_link("pages/rooms.py", label="Open Data rooms", icon=":material/folder_open:")
        st.stop()
    return room


def require_run() -> RunContext:
    """The selected room and run, or an empty state that says what to do next (and stop)."""
    settings = services.settings()
    room = require_room(settings)
    store = auth.store(settings)
    rid = state.run_id()
    run = store.run(rid) if rid and services.review_store(settings).run(rid) else None
    if run is None or run.room != room:
        st.info(f"No review run for **{html.escape(room)}** yet. Start one on **Review run**.")
        st.page_link("pages/run.py", label="Open Review run", icon=":material/play_circle:")
        st.stop()
    return RunContext(settings, store, room, run)


def compact(n: int) -> str:
    """12,345 -> '12.3k', so headline numbers fit their tiles."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 10_000:
        return f"{n / 1000:.1f}k"
    return f"{n:,}"


def styled(df, **columns: dict[str, str]):
    """Colour the text of the named columns from palette dicts (severity, status)."""
    style = df.style.format(precision=2, thousands=",")
    for col, colors in columns.items():
        if col in df.columns and len(df):
            style = style.map(text_style(colors), subset=[col])
    return style


def refresh_every(live: bool) -> float | None:
    """Fragment refresh interval: live panels poll the store while a run is going."""
    return LIVE_REFRESH_S if live else None
