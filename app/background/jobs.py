"""Ingest jobs off the script thread, in their own process.

A widget click reruns (and may stop) the Streamlit script, so ingest runs in a
detached `python -m app.background.ingest_job` process that reports progress to a small
JSON file; pages only read that file. The job outlives the browser session and
even the server, so a reload finds it still running.

Why a process and not a thread: ingest parses in spawned worker processes,
and spawn re-imports the parent's __main__, which inside `streamlit run` is
the app script itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.settings import REPO_ROOT, Settings, check_name


def status_path(settings: Settings, room: str) -> Path:
    return settings.workspace / "jobs" / f"ingest-{check_name('room name', room)}.json"


def write_status(path: Path, data: dict[str, Any]) -> None:
    """Atomic replace, so a reader never sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    os.replace(tmp, path)


def _alive(pid: int | None) -> bool:
    if not pid:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@dataclass
class IngestStatus:
    room: str
    state: str = "running"  # running / finished / failed
    done: int = 0
    total: int = 0
    current: str = ""
    error: str = ""
    pid: int | None = None
    started: float = 0.0
    finished: float | None = None
    recent: list[str] = field(default_factory=list)
    stage: str = ""  # ingest.pipeline.STAGE_ORDER: copying / parsing / indexing / embedding / ready
    stage_done: int = 0  # documents while parsing, chunks while embedding
    stage_total: int = 0
    eta_s: float | None = None  # estimated seconds left in the stage, from the rate measured so far

    @property
    def running(self) -> bool:
        return self.state == "running" and _alive(self.pid)


def read_status(settings: Settings, room: str) -> IngestStatus | None:
    path = status_path(settings, room)
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    st = IngestStatus(**data)
    if st.state == "running" and not _alive(st.pid):
        st.state, st.error = "failed", st.error or "the ingest process ended without finishing (see jobs/*.log)"
    return st


class SourceNotAllowed(ValueError):
    """A folder outside the configured ingest root (or folder ingest is off)."""


def folder_ingest_root(settings: Settings) -> Path | None:
    """The folder that 'Folder on this machine' may read from (symlinks resolved), or None when it is off."""
    root = settings.app.folder_ingest_root
    return Path(root).expanduser().resolve() if root else None


def check_source(settings: Settings, source: Path | str) -> Path:
    """The source resolved (symlinks followed), if the app may ingest it: a zip it staged under the workspace's
    uploads, or a folder inside folder_ingest_root. A link or '..' cannot lead outside that root."""
    path = Path(source).expanduser().resolve()
    uploads = (settings.workspace / "uploads").resolve()
    if path.parent == uploads and path.suffix == ".zip" and path.is_file():
        return path
    root = folder_ingest_root(settings)
    if root is None:
        raise SourceNotAllowed("Ingesting a folder on this machine is off; upload a zip, or ask the operator to set "
                               "DATAROOM_APP__FOLDER_INGEST_ROOT.")
    if not path.is_relative_to(root):
        raise SourceNotAllowed(f"Only folders inside {root} can be ingested.")
    if not path.is_dir():
        raise SourceNotAllowed(f"Not a folder: {path}")
    return path


def ingest_env(settings: Settings, environ: dict[str, str] | None = None) -> dict[str, str]:
    """The ingest job's environment: this one less the model endpoint's key. The job calls no model, and a
    process that never held the key cannot write it anywhere: chromadb's HNSW files were seen carrying freed
    heap memory (an earlier request's "authorization: Bearer ..." header in length.bin) when the same
    process had called a model before indexing."""
    env = {k: v for k, v in (os.environ if environ is None else environ).items()
           if not (k.upper().endswith("API_KEY") or k.upper().startswith("DATAROOM_LLM__"))}
    env["DATAROOM_WORKSPACE"] = str(settings.workspace.resolve())
    return env


def start_ingest(settings: Settings, source: Path | None, room: str, mode: str = "new") -> IngestStatus:
    """Launch the ingest process unless one is already running for the room (SourceNotAllowed for a source
    the app may not read, ValueError for an invalid room name). Mode "embed" (no source) only fills in the
    vectors an interrupted ingest left (ingest.vectors.embed_pending)."""
    source = Path(".") if mode == "embed" else check_source(settings, source)
    path = status_path(settings, room)  # validates the room name before anything is written
    current = read_status(settings, room)
    if current is not None and current.running:
        return current
    path.parent.mkdir(parents=True, exist_ok=True)
    env = ingest_env(settings)
    with (path.with_suffix(".log")).open("ab") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.background.ingest_job", str(Path(source).resolve()), room, str(path), mode],
            cwd=str(REPO_ROOT), env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    status = IngestStatus(room=room, pid=proc.pid, started=time.time())
    write_status(path, status.__dict__)
    return status


def resume_embedding(settings: Settings, room: str) -> IngestStatus | None:
    """Start filling in a reviewable room's missing vectors when no job is doing it (after a crash or a
    restart); the job that was embedding it is gone. Returns the job started, else None."""
    from ingest.index.manifest import Manifest, manifest_exists

    if not manifest_exists(settings, room):
        return None
    man = Manifest(settings, room)
    if man.stage() != "reviewable":
        return None
    current = read_status(settings, room)
    if current is not None and current.running:
        return None
    return start_ingest(settings, None, room, "embed")
