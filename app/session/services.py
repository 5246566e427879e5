"""Shared clients for the pages, built once per server process (st.cache_resource).

Cached per workspace path, so tests that each use their own workspace never
share a store.
"""

from __future__ import annotations

import streamlit as st

from core.checklist import load_checklist
from core.settings import Settings, get_settings
from core.types import ChecklistItem

from agents.store import ReviewStore


def settings() -> Settings:
    return get_settings()


@st.cache_resource(show_spinner=False)
def _store(target: str, runs_dir: str) -> ReviewStore:
    return ReviewStore(target, runs_dir)


def review_store(s: Settings) -> ReviewStore:
    """The workspace's SQLite store, or PostgreSQL when `database.url` is set (team mode)."""
    return _store(s.database.dsn() or str(s.db_path()), str(s.runs_dir()))


def room_names(s: Settings) -> list[str]:
    """Rooms with a manifest, then rooms whose first ingest is running (so a new room is selectable at once)."""
    from ingest.intake.rooms import list_rooms

    from app.background import jobs

    names = [r if isinstance(r, str) else r.name for r in list_rooms(s)]
    for p in sorted((s.workspace / "jobs").glob("ingest-*.json")):
        room = p.stem.removeprefix("ingest-")
        if room not in names and (job := jobs.read_status(s, room)) is not None and job.running:
            names.append(room)
    return names


def run_ids(s: Settings, room: str) -> list[str]:
    return [r.id for r in review_store(s).runs(room)]


def checklist(s: Settings) -> list[ChecklistItem]:
    return load_checklist(s.checklist_path)


def titles(s: Settings) -> dict[str, str]:
    """Checklist item id → title, plus the memo's fixed sections."""
    return {i.id: i.title for i in checklist(s)}


@st.cache_data(show_spinner=False, max_entries=64)
def _document_text(workspace: str, room: str, document_id: str) -> str:
    from ingest.index.manifest import Manifest

    # Document ids hash the file's bytes, so a cached text can never be stale.
    return Manifest(settings(), room).document_text(document_id)


def document_text(s: Settings, room: str, document_id: str) -> str:
    return _document_text(str(s.workspace), room, document_id)


def documents(s: Settings, room: str):
    from ingest.index.manifest import Manifest

    return Manifest(s, room).documents()


def start_run(s: Settings, room: str, overrides: dict) -> str:
    from agents.run import runner

    return runner.start_run(room, overrides, settings=s)


def stop_run(s: Settings, run_id: str) -> bool:
    from agents.run import runner

    return runner.stop_run(run_id, settings=s)


def resume_run(s: Settings, run_id: str, overrides: dict) -> int:
    from agents.run import runner

    return runner.resume_run(run_id, overrides, settings=s)


def run_alive(s: Settings, run_id: str) -> bool:
    """The worker process exists; a run whose worker died is not live whatever its status says."""
    from agents.run import runner

    return runner.is_running(run_id, settings=s)


def run_starting(s: Settings, run_id: str) -> bool:
    """Launched (the runner made its folder) but not yet in the store."""
    return s.run_dir(run_id).is_dir() and review_store(s).run(run_id) is None
