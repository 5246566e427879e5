"""CPU a parser process spends before its first file: forked from the preloaded server vs. a plain spawn.

    python bench/worker_startup.py [--files 4]

Moved out of the test suite (it asserted CPU seconds, which a loaded machine
breaks). Ingests --files small text files on 2 workers with a parse function
that records, in each worker, its own CPU time (user + system) when its first
file arrives and whether unstructured was already imported; then does the same
in plain spawned processes that import unstructured themselves, which is what a
worker would cost without the preloaded server.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.settings import Settings  # noqa: E402
from ingest.parsing.parse import ParseTask, parse_file  # noqa: E402
from ingest.pipeline import ingest_room  # noqa: E402

_FIRST: list[tuple[float, bool]] = []


def recording_parse(task: ParseTask):
    """parse_file, reporting (CPU-s before the first file, preloaded?) in the result's reason."""
    if not _FIRST:
        _FIRST.append((time.process_time(), "unstructured.partition.pdf" in sys.modules))
    res = parse_file(task)
    res.reason = json.dumps({"pid": os.getpid(), "cpu_s": _FIRST[0][0], "preloaded": _FIRST[0][1]})
    return res


def _plain_import(q) -> None:
    import unstructured.partition.auto  # noqa: F401 - what a worker without the preload pays
    import unstructured.partition.pdf  # noqa: F401

    q.put(time.process_time())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--files", type=int, default=4)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        src.mkdir()
        for i in range(args.files):
            (src / f"note{i}.txt").write_text(f"Note {i}.\n\nThe licence may not be assigned without consent.\n")
        s = Settings(workspace=Path(tmp) / "ws")
        s.ingest.workers = 2
        s.embedding.model = "hash"
        report = ingest_room(src, "bench", s, parse_fn=recording_parse)
    per_worker = {}
    for d in report.documents:
        r = json.loads(d.reason)
        per_worker[r["pid"]] = (r["cpu_s"], r["preloaded"])
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_plain_import, args=(q,))
    p.start()
    plain = q.get()
    p.join()
    for pid, (cpu, pre) in sorted(per_worker.items()):
        print(f"preloaded worker {pid}: {cpu:.2f} CPU-s before its first file (unstructured imported: {pre})")
    print(f"plain spawned process (re-imports this script's modules, then unstructured): {plain:.2f} CPU-s")


if __name__ == "__main__":
    main()
