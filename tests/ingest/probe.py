"""Parse functions that report how the parser process was started (importable by the workers, like crashy.py)."""

from __future__ import annotations

import sys
import time

from core.types import ParseStatus
from ingest.parse import ParseTask, parse_file

# A worker that imported unstructured itself has spent seconds of CPU before
# its first task (about 5 CPU-s here); one forked from the preloaded server, almost none.
MAX_STARTUP_CPU_S = 1.0


_STARTUP: list[float] = []  # this worker's CPU time when its first task arrived


def preloaded_parse(task: ParseTask):
    """Fail the file unless this worker started with unstructured imported and did not pay the import itself."""
    loaded = "unstructured.partition.pdf" in sys.modules  # before parse_file can import anything
    if not _STARTUP:
        # this process's own CPU time before its first task (a forked child starts at zero); later tasks
        # would also count the files this worker parsed, and a first .txt can pull in a lazy import
        _STARTUP.append(time.process_time())
    cpu = _STARTUP[0]
    res = parse_file(task)
    if not loaded or cpu > MAX_STARTUP_CPU_S:
        res.status = ParseStatus.failed
        res.reason = f"worker not forked from a preloaded server (preloaded={loaded}, {cpu:.2f} CPU-s before this file)"
    return res
