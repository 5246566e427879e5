"""One worker per run: an exclusive lock on runs/<run_id>/worker.lock, held for the worker's lifetime.

The operating system drops the lock when the process ends, SIGKILL included, so a resume started
while the stopped worker is still tearing down (its pid already cleared in the store) waits for it
instead of sharing the checkpoint and the store with it.

A second lock per room (locks/room-<room>.lock), taken by every worker after its run's lock, keeps a
room to one active run however the runs were started (CLI, app, two browser tabs).
"""

from __future__ import annotations

import fcntl
import time
from pathlib import Path
from typing import IO

from core.settings import Settings, check_name


class RunLocked(RuntimeError):
    pass


def acquire(path: Path, timeout_s: float = 60.0) -> IO[bytes]:
    """Take the lock, waiting up to timeout_s for a previous worker to exit; keep the returned file open."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fh = path.open("ab")
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fh
        except BlockingIOError:
            if time.monotonic() >= deadline:
                fh.close()
                raise RunLocked(f"another worker still holds {path} after {timeout_s:.0f} s") from None
            time.sleep(0.05)


def held(path: Path) -> bool:
    """True while some process holds the lock (probes without keeping it)."""
    if not path.exists():
        return False
    with path.open("ab") as fh:
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
        return False


def room_lock_path(settings: Settings, room: str) -> Path:
    return settings.workspace / "locks" / f"room-{check_name('room name', room)}.lock"
