"""Parsing as Ray tasks, for rooms larger than one machine's cores (ingest.ray_address).

Ray replaces only the executor: each file is still parsed by the same
`parse_file` (or the parse_fn a test passes) from the same `ParseTask`, and
the parent still writes every manifest row, chunk and vector, so a room
ingested through Ray is the room the local pool makes.

`RayPool` has the two methods ingest.pipeline uses on a ProcessPoolExecutor
(`submit` returning a concurrent.futures.Future, `shutdown`), so the
pipeline's scheduling loop is the same code for both. What differs is a
crash: a Ray worker that dies fails its own task only (max_retries=0: a file
that kills its parser would kill the retry too), so it is recorded at once
with the local pool's reason instead of the pool's re-run-alone dance.

Files are passed by path: the workspace (the room's files and its
attachments folder) must be at the same path on every Ray node (one
machine, or a shared mount). Embedding (`embed_batches`) sends chunk texts
and gets vectors back; the parent writes them to the store in order.
"""

from __future__ import annotations

import os
from concurrent.futures import Future

from core.settings import EmbeddingSettings, IngestSettings
from core.types import ParseStatus

from ..parsing.parse import CRASHED_REASON, ParseResult, ParseTask, warm_up

_warmed = False  # per Ray worker process: workers are reused across tasks
_remote = None  # the ray.remote wrappers, made once per driver
_remote_embed = None


def _run(parse_fn, task: ParseTask) -> ParseResult:
    global _warmed
    if not _warmed:  # the imports a forkserver worker inherits; paid once per Ray worker, not per file
        warm_up()
        _warmed = True
    return parse_fn(task)


class RayAuthRequired(ValueError):
    """The cluster would be joined without token authentication; the message says what to set."""


def require_token_auth(allow_unauthenticated: bool) -> None:
    # Ray 2.58's GCS, raylets and workers listen on every interface whatever --node-ip-address says
    # (checked with `ss -ltnp`), and a Ray cluster runs any code sent to it: a token is the only guard.
    if os.environ.get("RAY_AUTH_MODE", "").strip().lower() == "token" or allow_unauthenticated:
        return
    raise RayAuthRequired(
        "refusing to use a Ray cluster without token authentication: start every node and this process with "
        "RAY_AUTH_MODE=token and the cluster's token in RAY_AUTH_TOKEN_PATH (or RAY_AUTH_TOKEN), see docs/SCALING.md; "
        "DATAROOM_INGEST__RAY_ALLOW_UNAUTHENTICATED=1 overrides this when a firewall guards the cluster"
    )


def connect(ingest: IngestSettings, address: str | None = None) -> None:
    """Join the cluster at ingest.ray_address once per process (a second ingest reuses the connection)."""
    require_token_auth(ingest.ray_allow_unauthenticated)
    # The driver sends no usage statistics (the app makes no outbound connection); the cluster's own
    # setting is its `ray start`'s (--disable-usage-stats, see docs/SCALING.md).
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    import ray

    if not ray.is_initialized():
        ray.init(address=address or ingest.ray_address, log_to_driver=False, logging_level="ERROR")


def disconnect() -> None:
    import ray

    global _remote, _remote_embed
    if ray.is_initialized():
        ray.shutdown()
    _remote = _remote_embed = None


def worker_count(ingest: IngestSettings) -> int:
    """Tasks to keep running: ingest.workers when set, else the cluster's CPUs (each parse task takes one)."""
    connect(ingest)
    if ingest.workers > 0:
        return ingest.workers
    import ray

    return max(1, int(ray.cluster_resources().get("CPU", 1)))


class RayPool:
    """submit/shutdown over Ray tasks, one CPU each."""

    def __init__(self, ingest: IngestSettings):
        global _remote
        connect(ingest)
        import ray

        if _remote is None:
            _remote = ray.remote(num_cpus=1, max_retries=0)(_run)
        self._ray = ray
        self._refs: dict[Future, object] = {}

    def submit(self, parse_fn, task: ParseTask) -> Future:
        ref = _remote.remote(parse_fn, task)
        out: Future = Future()
        self._refs[out] = ref
        ref.future().add_done_callback(lambda f: self._settle(out, f, task))
        return out

    def _settle(self, out: Future, f: Future, task: ParseTask) -> None:
        from ray.exceptions import OutOfMemoryError, WorkerCrashedError

        self._refs.pop(out, None)
        try:
            out.set_result(f.result())
        except (WorkerCrashedError, OutOfMemoryError):
            # the worker died under this file (segfault, kill, Ray's memory monitor): the file's failure
            out.set_result(ParseResult(document_id=task.document_id, status=ParseStatus.failed, reason=CRASHED_REASON))
        except Exception as e:  # noqa: BLE001 - handed to the pipeline's fut.result(): a cluster fault aborts the ingest loudly
            out.set_exception(e)

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        # The connection stays open (like the forkserver) for the next ingest; only unfinished work is dropped.
        if cancel_futures:
            for ref in list(self._refs.values()):
                self._ray.cancel(ref)
        self._refs.clear()


def pool(ingest: IngestSettings) -> RayPool:
    return RayPool(ingest)


def _embed(embedding: EmbeddingSettings, texts: list[str]):
    from ..index.embed import _cached  # the per-process embedder cache that get_embedder uses

    e = embedding
    return _cached(e.model, e.runtime, e.batch_size, e.threads, e.onnx_threads).embed(texts)




def embed_batches(ingest: IngestSettings, embedding: EmbeddingSettings, batches: list[list[str]]) -> list:
    """Vectors of each batch of texts, one Ray task per batch (results in the batches' order).

    Each worker loads the embedder once (the same settings, so the same model and runtime as the parent).
    A failure here raises: the chunks stay unembedded and `python -m ingest --finish-embedding` resumes.
    """
    global _remote_embed
    connect(ingest)
    import ray

    if _remote_embed is None:
        _remote_embed = ray.remote(num_cpus=1, max_retries=0)(_embed)
    return ray.get([_remote_embed.remote(embedding, texts) for texts in batches])
