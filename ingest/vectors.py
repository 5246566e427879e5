"""Background embedding: fill a reviewable room's vector index, resumably.

A room is reviewable once its documents are parsed and keyword-indexed (the
manifest's stage "reviewable"); its chunks then wait with `embedded = 0`.
embed_pending embeds them in batches: each batch's vectors are written to the
store first and only then marked embedded in the manifest, so a crash at any
point leaves chunks that say they lack a vector, and the next call (the app
starts one when it finds such a room with no job running; `python -m ingest
--finish-embedding ROOM`) picks up where it stopped. Upserts are idempotent,
so a batch written but not marked is only embedded twice.

One embedder per room at a time: a lock file in the room folder (flock, freed
by the OS when the holder dies, so a crash never leaves it held).
"""

from __future__ import annotations

import fcntl
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from core.settings import Settings

from .index.manifest import Manifest

# Chunks per store write: small enough that progress moves every few seconds at ~25 chunks/s and a crash
# loses little, large enough that Chroma's cost per call stays small (about 1,000-chunk upserts were cheapest
# per chunk, but a batch this size is written in well under the time it takes to embed it).
BATCH = 64
EmbedProgress = Callable[[int, int], None]  # (chunks embedded, chunks in the room)


@contextmanager
def embedding_lock(settings: Settings, room: str) -> Iterator[None]:
    """Held while a process embeds this room; blocks until another embedder of the room has finished."""
    path = settings.room_dir(room) / ".embedding.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def embed_pending(settings: Settings, room: str, progress: EmbedProgress | None = None, store=None) -> int:
    """Embed every chunk of `room` that has no vector yet; returns how many this call embedded.

    Marks the room "embedded" when none is left, unless another ingest has meanwhile set it back to
    "ingesting" (that ingest embeds its own chunks when it gets there).
    """
    from .index.embed import get_embedder
    from .index.store import open_store

    man = Manifest(settings, room)
    n = 0
    with embedding_lock(settings, room):
        store = store or open_store(settings, room)
        done, total = man.embedding_counts()
        if progress:
            progress(done, total)
        ray_address = settings.ingest.ray_address
        # On Ray, several batches go out at once (one task each); they are written back in order, batch by batch.
        group = _ray_group(settings) if ray_address else 1
        while pending := man.pending_chunks(BATCH * group):
            batches = [pending[i:i + BATCH] for i in range(0, len(pending), BATCH)]
            texts = [[c.text for _, c in b] for b in batches]
            if ray_address:
                from .distributed import ray_exec

                all_vecs = ray_exec.embed_batches(settings.ingest, settings.embedding, texts)
            else:
                all_vecs = [get_embedder(settings).embed(t) for t in texts]
            for batch, vecs in zip(batches, all_vecs):
                store.add_rows(batch, vecs)  # writes the vectors, then marks the chunks embedded
                n += len(batch)
                if progress:
                    done, total = man.embedding_counts()
                    progress(done, total)
        man.set_stage("embedded", only_from="reviewable")
    return n


def _ray_group(settings: Settings) -> int:
    from .distributed import ray_exec

    return 2 * ray_exec.worker_count(settings.ingest)  # every worker busy, and the next batch queued behind it


class Rate:
    """Time left from the rate measured so far in this stage (an estimate: None until there is a rate)."""

    def __init__(self, done: int = 0):
        self.t0, self.done0 = time.monotonic(), done

    def eta(self, done: int, total: int) -> float | None:
        elapsed, progressed = time.monotonic() - self.t0, done - self.done0
        if progressed <= 0 or elapsed < 1.0:
            return None
        return max(0.0, (total - done) * elapsed / progressed)
