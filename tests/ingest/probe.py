"""Parse functions that report how the parser process was started (importable by the workers, like crashy.py)."""

from __future__ import annotations

import sys
import time

from core.types import ParseStatus
from ingest.parse import ParseTask, parse_file

# A worker that imported unstructured itself has spent seconds of CPU before
# its first task (about 5 CPU-s here); one forked from the preloaded server, almost none.
MAX_STARTUP_CPU_S = 1.0


def preloaded_parse(task: ParseTask):
    """Fail the file unless this worker started with unstructured imported and did not pay the import itself."""
    loaded = "unstructured.partition.pdf" in sys.modules  # before parse_file can import anything
    cpu = time.process_time()  # this process's own CPU time; a forked child starts at zero
    res = parse_file(task)
    if not loaded or cpu > MAX_STARTUP_CPU_S:
        res.status = ParseStatus.failed
        res.reason = f"worker not forked from a preloaded server (preloaded={loaded}, {cpu:.2f} CPU-s before this file)"
    return res
