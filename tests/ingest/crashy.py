"""A parse function for worker-crash tests: kills its own process on files named *crash*.

It must live in an importable module (not the test file) because the pool
spawns fresh interpreters that unpickle it by name.
"""

from __future__ import annotations

import os

from ingest.parse import ParseTask, parse_file


def crash_on_name(task: ParseTask):
    if "crash" in os.path.basename(task.file):
        os._exit(13)  # what a segfault or an OOM kill looks like to the pool
    return parse_file(task)
