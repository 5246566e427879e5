"""Data rooms view-model: room names, the per-file status table, upload staging."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from core.settings import Settings
from core.types import Document, ParseStatus


_ROOM_RE = re.compile(r"[^A-Za-z0-9_.-]+")


def room_name(raw: str) -> str:
    """A safe folder name for a room: letters, digits, '-', '_', '.'; never empty or hidden."""
    name = _ROOM_RE.sub("-", raw.strip()).strip("-.")
    return name[:64] or "room"


def suggested_name(filename: str) -> str:
    return room_name(Path(filename).stem)


def stage_upload(settings: Settings, room: str, filename: str, data: bytes) -> Path:
    """Write an uploaded zip under the workspace (not the room folder, which ingest owns)."""
    up = settings.workspace / "uploads"
    up.mkdir(parents=True, exist_ok=True)
    path = up / f"{room}.zip"
    path.write_bytes(data)
    return path


def file_table(documents: list[Document]) -> pd.DataFrame:
    rows = [
        {
            "file": d.path,
            "type": d.doc_type,
            "status": d.status.value,
            "pages": d.pages,
            "tokens": d.tokens,
            "seconds": round(d.parse_seconds, 2),
            "reason / note": d.reason or d.note,
        }
        for d in sorted(documents, key=lambda d: d.path)
    ]
    return pd.DataFrame(rows, columns=["file", "type", "status", "pages", "tokens", "seconds", "reason / note"])


def failed(documents: list[Document]) -> list[Document]:
    return [d for d in documents if d.status != ParseStatus.parsed]


def totals(documents: list[Document]) -> dict[str, int]:
    parsed = [d for d in documents if d.status == ParseStatus.parsed]
    return {
        "files": len(documents),
        "parsed": len(parsed),
        "failed": sum(d.status == ParseStatus.failed for d in documents),
        "skipped": sum(d.status == ParseStatus.skipped for d in documents),
        "pages": sum(d.pages for d in parsed),
        "tokens": sum(d.tokens for d in parsed),
    }
