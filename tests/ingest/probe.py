"""Parse functions that report how the parser process was started (importable by the workers, like crashy.py)."""

from __future__ import annotations

import sys

from core.types import ParseStatus
from ingest.parsing.parse import ParseTask, parse_file

_FIRST: list[bool] = []  # whether unstructured's PDF partitioner was imported when this worker's first task arrived


def preloaded_parse(task: ParseTask):
    """Fail the file unless this worker started with unstructured imported (forked from the preloaded server).

    Looked at before parse_file can import anything, and on the worker's first task only: a later task would
    see the import its own earlier files caused. How much CPU a preloaded worker saves is a measurement, not
    a test (it depends on the machine's load): `python bench/worker_startup.py`."""
    if not _FIRST:
        _FIRST.append("unstructured.partition.pdf" in sys.modules)
    res = parse_file(task)
    if not _FIRST[0]:
        res.status = ParseStatus.failed
        res.reason = "worker not forked from a preloaded server (unstructured was not imported before its first file)"
    return res
