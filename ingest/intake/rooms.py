"""Data rooms present in the workspace."""

from __future__ import annotations

from pydantic import BaseModel, Field

from core.settings import Settings
from core.types import ParseStatus

from ..index.manifest import Manifest


class RoomInfo(BaseModel):
    """A data room as the UI lists it."""

    name: str = Field(description="Room name (folder under workspace/rooms).")
    documents: int = Field(description="Documents in the manifest.")
    parsed: int = Field(description="Documents parsed.")
    failed: int = Field(description="Documents that failed.")
    skipped: int = Field(description="Entries skipped.")
    tokens: int = Field(description="Tokens in parsed documents.")
    stage: str = Field("embedded", description="ingest.index.manifest stage: ingesting / reviewable / embedded.")


def room_exists(settings: Settings, room: str) -> bool:
    """Whether a room named `room` holds anything: files, an intake under way, or documents in its manifest.

    An empty manifest alone does not count: readers (Manifest) create one on first look, and a page that
    looks at a room whose ingest has just been launched must not make that ingest find its name taken.
    """
    d = settings.room_dir(room)
    if (d / "files").exists() or (d / "files.incoming").exists():
        return True
    return (d / "manifest.sqlite").exists() and bool(Manifest(settings, room).documents())


def room_stage(settings: Settings, room: str) -> str | None:
    """The room's stage (ingest.index.manifest): 'ingesting' (not complete: do not review yet), 'reviewable'
    (every document parsed and keyword-indexed; vectors still filling in) or 'embedded'; None: no such room."""
    if not settings.room_exists(room):
        return None
    return Manifest(settings, room).stage()


def is_reviewable(settings: Settings, room: str) -> bool:
    """What a review run should require of a room: all its documents are in the manifest with their text."""
    return room_stage(settings, room) in ("reviewable", "embedded")


def list_rooms(settings: Settings) -> list[RoomInfo]:
    """Rooms that have a manifest, by name."""
    root = settings.rooms_dir()
    if not root.exists():
        return []
    out = []
    for d in sorted(p for p in root.iterdir() if (p / "manifest.sqlite").exists()):
        man = Manifest(settings, d.name)
        docs = man.documents()
        by = {s: sum(1 for x in docs if x.status == s) for s in ParseStatus}
        out.append(
            RoomInfo(
                name=d.name, documents=len(docs), parsed=by[ParseStatus.parsed], failed=by[ParseStatus.failed],
                skipped=by[ParseStatus.skipped], tokens=sum(x.tokens for x in docs if x.status == ParseStatus.parsed),
                stage=man.stage(),
            )
        )
    return out
