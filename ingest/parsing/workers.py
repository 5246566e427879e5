"""Parser processes, forked from a forkserver that has imported unstructured once.

Why not `spawn`: every spawned worker imports unstructured itself (about
5 CPU-s, most of it unstructured_inference's ONNX/matplotlib stack that the
"fast" strategy never uses), so 2 workers paid it twice on 2 cores. Why not
`fork` from the parent: the parent runs chromadb's and onnxruntime's
threads, and forking a threaded process can copy a held lock into the child.
The forkserver is a fresh single-threaded interpreter that imports
`ingest.parsing.preload` and then forks each worker (copy-on-write).

`start()` is called as soon as intake knows there is something to parse, so
the import runs while the parent opens Chroma and sniffs file types. The
forkserver lives as long as the parent process (a second ingest in the same
app starts parsing at once); `stop()` ends it and reaps it.
"""

from __future__ import annotations

import multiprocessing as mp
from concurrent.futures import ProcessPoolExecutor

from .parse import warm_up

PRELOAD = ["ingest.parsing.preload"]


def _context():
    if "forkserver" not in mp.get_all_start_methods():  # Windows
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)  # only read when the server (re)starts
    return ctx


def start() -> None:
    """Start the forkserver (and so the unstructured import) now; returns at once."""
    ctx = _context()
    if ctx.get_start_method() == "forkserver":
        from multiprocessing import forkserver

        forkserver.ensure_running()


def pool(workers: int) -> ProcessPoolExecutor:
    # The initializer is a no-op after the preload; it still matters under spawn.
    return ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=warm_up)


def stop() -> None:
    """Stop and reap the forkserver (frees its memory; CPU accounting then includes it and its workers).

    Uses the stdlib's private ForkServer._stop, which its own tests use; absent, nothing is done.
    """
    from multiprocessing import forkserver

    stop_fn = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop_fn is not None:
        stop_fn()
