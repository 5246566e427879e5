"""A parse function for worker-crash tests: kills its own process on files named *crash*.

It must live in an importable module (not the test file) because the pool
spawns fresh interpreters that unpickle it by name.
"""

from __future__ import annotations

import os

from ingest.parsing.parse import ParseTask, parse_file


def crash_on_name(task: ParseTask):
    if "crash" in os.path.basename(task.file):
        os._exit(13)  # what a segfault or an OOM kill looks like to the pool
    return parse_file(task)


def slow_parse(task: ParseTask):
    """parse_file with a partitioner that sleeps 5 s first: the per-file time limit must cut it off.

    A sleep is interrupted cleanly by SIGALRM; a real parser can swallow the timeout in places
    (pdfminer catches broad exceptions), which would make a timing test flaky.
    """
    import time

    from ingest.parsing import parse

    real = parse._partition

    def slow(*a, **kw):
        time.sleep(5)
        return real(*a, **kw)

    parse._partition = slow
    try:
        return parse_file(task)
    finally:
        parse._partition = real
