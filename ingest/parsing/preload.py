"""Imported once by the parser forkserver (ingest.parsing.workers); every parser process forks from it.

Importing this module pays unstructured's import (about 5 CPU-s here) and
installs the offline spaCy stand-in, so the forked workers start with both
done (copy-on-write) instead of repeating them. Never import it in the
parent: the parent has no use for unstructured.

Fork copies only the calling thread, so the fewer native threads the server
holds when it forks, the better. Left alone, the import starts OpenBLAS's
worker pool (numpy, cv2) and pyarrow's jemalloc background thread (via
pandas); the settings below keep both from starting (a parser needs neither:
one parser per core). What remains is one idle onnxruntime thread.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("JE_ARROW_MALLOC_CONF", "background_thread:false")

from .parse import warm_up  # noqa: E402  (after the thread settings, which are read when the libraries load)

try:
    warm_up()
except Exception:  # noqa: BLE001 - a failing preload would kill the forkserver and with it every worker; each file reports the error instead
    pass
