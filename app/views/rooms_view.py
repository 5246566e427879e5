"""Data rooms view-model: room names, upload checks and staging, the per-file status table."""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from pathlib import Path

import pandas as pd

from core.settings import Settings
from core.types import Document, ParseStatus
from ingest.intake.filetypes import EXT_TYPES
from ingest.intake.intake import IntakeError, check_archive


_ROOM_RE = re.compile(r"[^A-Za-z0-9_.-]+")
MAX_ROOM_NAME = 100  # ingest.pipeline's limit
# What the uploader accepts: a zip of a room, or documents of the types ingest parses.
UPLOAD_TYPES = ["zip", *sorted(EXT_TYPES)]


def room_name(raw: str) -> str:
    """A safe folder name for a room: letters, digits, '-', '_', '.'; never empty or hidden.

    A name over the limit keeps its start and gets a hash of the whole name, so two long names that
    differ only at the end stay two rooms (cutting them made both the same room).
    """
    name = _ROOM_RE.sub("-", raw.strip()).strip("-.")
    if len(name) > MAX_ROOM_NAME:
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]
        name = f"{name[: MAX_ROOM_NAME - 9].rstrip('-.')}-{digest}"
    return name or "room"


def suggested_name(filename: str, taken: list[str] | set[str] = ()) -> str:
    """The room name for an upload, never one that is taken: 'deal' is taken, so 'deal-2'."""
    base = room_name(Path(filename).stem)
    name, i = base, 2
    while name in taken:
        name = f"{base[: MAX_ROOM_NAME - 1 - len(str(i))]}-{i}"
        i += 1
    return name


class UploadRefused(ValueError):
    """The upload cannot be ingested; the message is for the person who uploaded it."""


def check_upload(settings: Settings, files: list[tuple[str, bytes]]) -> None:
    """Refuse, in plain words and before any job starts, what would fail as a whole (UploadRefused)."""
    if not files:
        raise UploadRefused("Choose a zip of the data room, or one or more documents.")
    zips = [(n, data) for n, data in files if n.lower().endswith(".zip")]
    if zips and len(files) > 1:
        raise UploadRefused("Upload either one zip of the room or documents, not both: a zip is not expanded inside an upload.")
    for n, data in zips:
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                infos = [i for i in zf.infolist() if not i.is_dir()]
            if len(infos) > settings.ingest.max_zip_entries:
                raise UploadRefused(f"{n} holds {len(infos):,} files, over the limit of {settings.ingest.max_zip_entries:,}; "
                                    "split the room into several zips and add them one after the other.")
            check_archive(infos, settings.ingest)
        except zipfile.BadZipFile:
            raise UploadRefused(f"{n} is not a zip archive (its content is something else, or the file is damaged). "
                                "Upload the room as a real .zip, or upload the documents themselves.") from None
        except IntakeError as e:
            raise UploadRefused(f"{n} was refused: {e}.") from None


def stage_upload(settings: Settings, room: str, files: list[tuple[str, bytes]]) -> Path:
    """Write the upload under the workspace (not the room folder, which ingest owns) as one zip.

    A zip is written as it is; documents are stored in a new zip by their base names (the browser sends
    no folders), so one or several files travel the same way a room does.
    """
    up = settings.workspace / "uploads"
    up.mkdir(parents=True, exist_ok=True)
    path = up / f"{room}.zip"
    if len(files) == 1 and files[0][0].lower().endswith(".zip"):
        path.write_bytes(files[0][1])
        return path
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as zf:  # documents are mostly compressed already
        for name, data in files:
            zf.writestr(Path(name.replace("\\", "/")).name or "upload", data)
    return path


def room_taken(settings: Settings, room: str) -> bool:
    """Whether a room of this name holds anything (then a new upload may only be added to it)."""
    from ingest.intake.rooms import room_exists

    return bool(room) and room_exists(settings, room)


def ingest_mode(settings: Settings, room: str, add: bool) -> str:
    """'new' for a new room; 'add' only when the person said to add to the existing one (UploadRefused otherwise)."""
    if not room_taken(settings, room):
        return "new"
    if not add:
        raise UploadRefused(f"A room named “{room}” already exists. Choose another name, or tick “Add the files to "
                            f"{room}” (nothing in it is removed or replaced).")
    return "add"


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


def _about(seconds: float | None) -> str:
    if seconds is None:
        return ""
    if seconds < 60:
        return f" · about {max(5, round(seconds / 5) * 5):.0f} s left (estimate)"
    return f" · about {round(seconds / 60):.0f} min left (estimate)"


def stage_line(job) -> tuple[float, str]:
    """(fraction of the stage done, plain words) for a running ingest job's progress bar (app.background.jobs.IngestStatus)."""
    done, total = job.stage_done, job.stage_total
    frac = min(done / total, 1.0) if total else 0.0
    if job.stage == "parsing":
        return frac, f"Reading documents: {done:,} of {total:,}{_about(job.eta_s)}"
    if job.stage == "indexing":
        return 1.0, "Indexing the text for search…"
    if job.stage == "embedding":
        return frac, (f"Ready for review. Indexing meaning for search: {done:,} of {total:,} passages"
                      f"{_about(job.eta_s)}; until then, search finds passages by their words")
    if job.stage == "ready":
        return 1.0, "Ready"
    return 0.0, "Copying the files…"


def reviewable(settings: Settings, room: str) -> bool:
    """Whether the room's documents are all parsed and searchable by keyword (review may start)."""
    from ingest.intake.rooms import is_reviewable

    return is_reviewable(settings, room)
