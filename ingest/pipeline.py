"""ingest_room: intake → type detection → parallel parsing → keyword index (reviewable) → embedding (embedded).

Parsing runs in worker processes forked from a forkserver that imported
unstructured once (ingest.parsing.workers), started as soon as intake finds work;
files go to the workers largest first, so no big file is left for the end.
With ingest.ray_address set the same files go to Ray tasks instead
(ingest.distributed.ray_exec): only the executor differs.
Every write happens in the parent, so the manifest and the store have one
writer.

The room is reviewable (manifest stage "reviewable") as soon as every
document is parsed and keyword-indexed; its vectors are filled in after that
(ingest.vectors.embed_pending), so embedding never holds review up and never
takes a core from the parsers. See ingest.index.manifest for the stages.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import time
from collections import Counter, deque
from concurrent.futures import ALL_COMPLETED, FIRST_COMPLETED, Future, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Callable, Literal

from pydantic import BaseModel, Field

from core.settings import Settings, get_settings
from core.text import count_tokens
from core.types import Document, ParseStatus

from .intake.filetypes import detect, ext_type
from .intake.intake import IntakeError, intake, original_rank
from .index.manifest import Manifest, manifest_exists
from .parsing import workers as worker_pool
from .parsing.parse import CRASHED_REASON, ParseResult, ParseTask, parse_file
from .intake.rooms import room_exists
from .index.store import RoomStore, open_store
from .vectors import Rate, embed_pending

Progress = Callable[[int, int, str], None]
# (stage, done, total, estimated seconds left in the stage or None): stages in STAGE_ORDER; done/total count
# documents while parsing and chunks while embedding (0/0 where there is nothing to count).
StageProgress = Callable[[str, int, int, "float | None"], None]
STAGE_ORDER = ("copying", "parsing", "indexing", "embedding", "ready")
MAX_ATTACHMENT_DEPTH = 3
# Parsed documents are written to the manifest (text, chunks, keyword index) in groups, one transaction per
# document: a group is written when it reaches FLUSH_CHUNKS or FLUSH_SECONDS after the last write, so the
# manifest (which the UI reads) trails the parsers by seconds and the parent's CPU stays with the parsers.
FLUSH_CHUNKS = 1000
FLUSH_SECONDS = 2.0
_ROOM_RE = re.compile(r"^[\w][\w .-]{0,99}$", re.UNICODE)
# new: the room must not exist yet (what a person naming a room means). add: the upload joins the room and
# nothing in it is removed or overwritten. sync: the room becomes the upload (re-ingesting the same source:
# changed files re-parsed, files gone from it removed).
IngestMode = Literal["new", "add", "sync"]


class RoomExistsError(IntakeError):
    """A new room was asked for under the name of an existing one."""


class IngestReport(BaseModel):
    """What one ingest_room call did."""

    room: str = Field(description="Data room name.")
    documents: list[Document] = Field(description="Every document of the room after this ingest, by path.")
    counts: dict[str, int] = Field(description="Documents by status: parsed / failed / skipped.")
    by_type: dict[str, dict[str, int]] = Field(default_factory=dict, description="doc_type -> status -> count.")
    parsed: int = Field(0, description="Documents parsed in this run (unchanged ones are not re-parsed).")
    failed: int = Field(0, description="Documents that failed in this run.")
    skipped: int = Field(0, description="Entries skipped in this run (refused, duplicate, unsupported).")
    unchanged: int = Field(0, description="Documents kept as they were: same path, same bytes.")
    removed: int = Field(0, description="Documents dropped because their file is no longer in the upload.")
    chunks: int = Field(0, description="Chunks written in this run.")
    pages: int = Field(0, description="Pages of the room's parsed documents.")
    tokens: int = Field(0, description="Tokens of the room's parsed documents.")
    seconds: float = Field(0.0, description="Wall time of the whole ingest.")
    parse_seconds: float = Field(0.0, description="Sum of per-file parse times (across workers).")
    embed_seconds: float = Field(0.0, description="Time spent embedding and storing vectors, after the room was reviewable.")
    reviewable_seconds: float = Field(0.0, description="Wall time from the start until the room was reviewable (parsed and keyword-indexed).")
    embedded_chunks: int = Field(0, description="Chunks given a vector in this run (new ones, and any an interrupted run left).")
    pending_chunks: int = Field(0, description="Chunks of the room still without a vector when this call returned (0 when embed=True).")
    workers: int = Field(1, description="Parser processes used.")


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for buf in iter(lambda: f.read(1 << 20), b""):
            h.update(buf)
    return h.hexdigest()


class _Run:
    """State of one ingest: the manifest, store, work queue and tallies."""

    def __init__(self, settings: Settings, room: str, progress: Progress | None, parse_fn,
                 on_stage: StageProgress | None = None):
        self.s = settings
        self.room = room
        self.progress = progress
        self.on_stage = on_stage
        self.rate: Rate | None = None
        self.parse_fn = parse_fn
        self.man = Manifest(settings, room)
        self._store: RoomStore | None = None
        self.by_hash: dict[str, Document] = {}
        self.work: deque[tuple[Document, str, int]] = deque()
        self.tally: Counter = Counter()
        self.total = 0
        self.done = 0
        self.chunks = 0
        self.parse_seconds = 0.0
        self.embed_seconds = 0.0
        self._pending: list[tuple[Document, ParseResult]] = []
        self._pending_chunks = 0
        self._flushed_at = time.monotonic()

    @property
    def store(self) -> RoomStore:
        # Opened on first use, so the Chroma import overlaps the workers' start-up.
        if self._store is None:
            self._store = open_store(self.s, self.room)
        return self._store

    # ---- bookkeeping
    def _tick(self, current: str) -> None:
        if self.progress:
            self.progress(self.done, self.total, current)
        if self.on_stage and self.total:
            self.on_stage("parsing", self.done, self.total, self.rate.eta(self.done, self.total) if self.rate else None)

    def _remove(self, doc: Document) -> None:
        for child in [d for d in self.man.documents() if d.parent_id == doc.id]:
            self._remove(child)
        self.store.delete_document(doc.id)
        self.man.delete_document(doc.id)

    def _record(self, doc: Document) -> None:
        self.man.upsert_document(doc)
        self.tally[doc.status.value] += 1

    def plan(self, doc: Document, file: str | None, supported: bool, reason: str, depth: int = 0) -> None:
        """Queue a new/changed document for parsing, or record why it is not parsed."""
        if doc.status != ParseStatus.parsed:
            self._record(doc)
            return
        first = self.by_hash.get(doc.sha256)
        if first is not None and first.id != doc.id:
            doc.status, doc.duplicate_of = ParseStatus.skipped, first.id
            doc.reason = f"identical to {first.path} (same sha256); not parsed twice"
            self._record(doc)
            return
        if not supported:
            # A lying extension is the file's fault (failed); an unknown type is just out of scope (skipped).
            doc.status = ParseStatus.failed if reason.startswith("wrong extension") else ParseStatus.skipped
            doc.reason = reason
            self._record(doc)
            return
        self.by_hash[doc.sha256] = doc
        self.work.append((doc, file or "", depth))
        self.total += 1

    # ---- results
    def task(self, doc: Document, file: str) -> ParseTask:
        ing = self.s.ingest
        return ParseTask(
            file=file, document_id=doc.id, doc_type=doc.doc_type,
            attachments_dir=str(self.man.dir / "attachments" / doc.id), ocr_fallback=ing.ocr_fallback,
            max_chars=ing.chunk_max_chars, new_after=ing.chunk_new_after_chars,
            combine_under=ing.chunk_combine_under_chars, timeout_s=ing.file_timeout_s,
        )

    def flush(self) -> None:
        """Record the parsed documents waiting to be written: text, chunks and keyword index (vectors come later)."""
        for doc, res in self._pending:
            self.man.write_parsed(doc, res.text, res.chunks)
        self._pending, self._pending_chunks = [], 0
        self._flushed_at = time.monotonic()

    def finish(self, doc: Document, res: ParseResult, depth: int) -> None:
        self.done += 1
        self.parse_seconds += res.seconds
        doc.parse_seconds = round(res.seconds, 4)
        doc.status, doc.reason, doc.pages = res.status, res.reason, res.pages
        if res.status == ParseStatus.parsed:
            doc.chars, doc.tokens = len(res.text), count_tokens(res.text)
            self._pending.append((doc, res))
            self._pending_chunks += len(res.chunks)
            self.chunks += len(res.chunks)
            self.tally["parsed"] += 1
            if self._pending_chunks >= FLUSH_CHUNKS or time.monotonic() - self._flushed_at >= FLUSH_SECONDS:
                self.flush()
        else:
            self._record(doc)
        for att in res.attachments if depth < MAX_ATTACHMENT_DEPTH else []:
            p = Path(att.file)
            det = detect(p)
            child = Document(
                room=self.room, path=f"{doc.path}::{att.name}", folder=doc.folder, doc_type=det.doc_type,
                size_bytes=p.stat().st_size, sha256=_sha256(p), parent_id=doc.id,
                note=det.reason if det.supported else "",
            )
            self.plan(child, att.file, det.supported, det.reason, depth + 1)
        self._tick(doc.path)


def _executor(settings: Settings, workers: int):
    """The local forkserver pool, or Ray tasks when ingest.ray_address is set (same submit/shutdown surface)."""
    if settings.ingest.ray_address:
        from .distributed import ray_exec  # imported only here: `import ray` costs a second and the default never needs it

        return ray_exec.pool(settings.ingest)
    return worker_pool.pool(workers)


def _worker_count(settings: Settings, files: int) -> int:
    if settings.ingest.ray_address:
        from .distributed import ray_exec

        return max(1, min(ray_exec.worker_count(settings.ingest), files or 1))
    return max(1, min(settings.ingest.worker_count(), files or 1))


def _parse_all(run: _Run, workers: int) -> None:
    """Parse everything queued (attachments join the queue as they appear).

    A worker that dies (segfault, OOM kill) breaks the whole pool and every
    in-flight future; we then re-run those files one at a time in a fresh
    pool, so the one that kills its worker again is failed alone.
    """
    # Largest first (size as the cost estimate): the last file to finish is then a small one.
    run.work = deque(sorted(run.work, key=lambda item: (-item[0].size_bytes, item[0].path)))
    suspects: deque = deque()
    ex = _executor(run.s, workers)
    in_flight: dict[Future, tuple[Document, str, int]] = {}
    try:
        while run.work or suspects or in_flight:
            solo = bool(suspects)
            limit = 1 if solo else workers * 2
            source = suspects if solo else run.work
            broken = False
            while source and len(in_flight) < limit:
                item = source.popleft()
                try:
                    in_flight[ex.submit(run.parse_fn, run.task(item[0], item[1]))] = item
                except BrokenProcessPool:  # a worker died since the last wait: the pool takes nothing more
                    source.appendleft(item)
                    broken = True
                    break
            # a broken pool finishes every future it holds (with BrokenProcessPool): collect them all
            done, _ = wait(list(in_flight), return_when=ALL_COMPLETED if broken else FIRST_COMPLETED)
            # in submission order: when several finish while we were storing the previous one, the set
            # `done` has no order, and results (progress, manifest rows) should not depend on a race
            for fut in [f for f in in_flight if f in done]:
                doc, file, depth = in_flight.pop(fut)
                try:
                    res = fut.result()
                except BrokenProcessPool:
                    broken = True
                    if solo:
                        res = ParseResult(document_id=doc.id, status=ParseStatus.failed, reason=CRASHED_REASON)
                    else:
                        suspects.append((doc, file, depth))
                        continue
                run.finish(doc, res, depth)
            if broken:
                for fut, item in list(in_flight.items()):
                    suspects.append(item)
                in_flight.clear()
                ex.shutdown(wait=True, cancel_futures=True)
                ex = _executor(run.s, workers)
    finally:
        ex.shutdown(wait=True, cancel_futures=True)


def ingest_room(
    source: Path, room: str, settings: Settings | None = None, progress: Progress | None = None, *,
    parse_fn=parse_file, mode: IngestMode = "sync", on_stage: StageProgress | None = None, embed: bool = True,
) -> IngestReport:
    """Ingest a zip, folder or single file as data room `room`. Unchanged files (same path and bytes) are not re-parsed.

    `mode` (see IngestMode): "new" raises RoomExistsError when the room exists; "add" never removes anything.
    `parse_fn` must be a picklable module-level function with parse_file's signature (tests pass one).
    `on_stage` hears each stage (STAGE_ORDER) with its counts and an estimate of the time left in it.
    `embed=False` returns once the room is reviewable, leaving its vectors to ingest.vectors.embed_pending.
    """
    t0 = time.perf_counter()
    settings = settings or get_settings()
    if not _ROOM_RE.match(room):
        raise ValueError(f"room name {room!r}: use letters, digits, space, '.', '_' or '-' (max 100)")
    if mode == "new" and room_exists(settings, room):
        raise RoomExistsError(f"a room named {room!r} already exists: choose another name, or add the files to it")
    if on_stage:
        on_stage("copying", 0, 0, None)
    if manifest_exists(settings, room):  # a new room gets its stage with its manifest, after intake
        Manifest(settings, room).set_stage("ingesting")
    try:
        entries = intake(Path(source), settings.room_dir(room) / "files", settings.ingest, add=mode == "add")
    except IntakeError:
        if mode == "new":  # leave no half-made room behind to block the name
            shutil.rmtree(settings.room_dir(room), ignore_errors=True)
        raise
    run = _Run(settings, room, progress, parse_fn, on_stage)
    run.man.set_stage("ingesting")
    existing = {d.path: d for d in run.man.documents() if d.parent_id is None}
    if mode == "add":  # a new copy of a file already in the room is its duplicate
        for d in existing.values():
            if d.status == ParseStatus.parsed:
                run.by_hash.setdefault(d.sha256, d)
    changed = any(not e.refused and (e.path not in existing or existing[e.path].sha256 != e.sha256) for e in entries)
    if changed and not settings.ingest.ray_address:  # Ray workers import unstructured themselves
        worker_pool.start()  # unstructured imports in the forkserver while we sniff types and open Chroma
    unchanged = removed = 0
    for e in sorted(entries, key=lambda e: original_rank(e.path)):  # of identical copies, the first is the original
        if e.refused:
            status = ParseStatus.failed if e.failed else ParseStatus.skipped
            doc = Document(room=room, path=e.path, doc_type=ext_type(e.path), size_bytes=e.size_bytes, status=status, reason=e.reason)
            old = existing.pop(e.path, None)
            if old and old.id != doc.id:
                run._remove(old)
            run.plan(doc, None, False, e.reason)
            continue
        old = existing.pop(e.path, None)
        if old and old.sha256 == e.sha256:
            unchanged += 1
            if old.status == ParseStatus.parsed:
                run.by_hash.setdefault(old.sha256, old)
            continue
        if old:
            run._remove(old)
        det = detect(Path(e.file))
        note = "; ".join(x for x in (e.note, det.reason if det.supported else "") if x)
        doc = Document(room=room, path=e.path, doc_type=det.doc_type, size_bytes=e.size_bytes, sha256=e.sha256, note=note)
        run.plan(doc, e.file, det.supported, det.reason)
    for old in existing.values() if mode != "add" else ():  # files gone from the upload
        run._remove(old)
        removed += 1
    run.store  # opened before parsing (while the forkserver imports), and so that every ingested room has its collection
    workers = _worker_count(settings, len(run.work))
    run.rate = Rate()
    run._tick("")
    if run.work:
        _parse_all(run, workers)
    if on_stage:
        on_stage("indexing", 0, 0, None)
    run.flush()
    run.man.set_stage("reviewable")
    reviewable_s = time.perf_counter() - t0
    embedded = 0
    if embed:
        t_embed = time.perf_counter()
        rates: dict[str, Rate] = {}

        def embedding(done: int, total: int) -> None:
            if on_stage:  # the rate counts from the chunks already embedded when this stage began
                on_stage("embedding", done, total, rates.setdefault("r", Rate(done)).eta(done, total))

        embedded = embed_pending(settings, room, embedding, store=run.store)
        run.embed_seconds = time.perf_counter() - t_embed
    if on_stage:
        on_stage("ready" if embed else "embedding", *run.man.embedding_counts(), None)
    docs = run.man.documents()
    parsed_docs = [d for d in docs if d.status == ParseStatus.parsed]
    by_type: dict[str, dict[str, int]] = {}
    for d in docs:
        by_type.setdefault(d.doc_type, {}).setdefault(d.status.value, 0)
        by_type[d.doc_type][d.status.value] += 1
    return IngestReport(
        room=room, documents=docs, counts=dict(Counter(d.status.value for d in docs)), by_type=by_type,
        parsed=run.tally["parsed"], failed=run.tally["failed"], skipped=run.tally["skipped"], unchanged=unchanged,
        removed=removed, chunks=run.chunks, pages=sum(d.pages for d in parsed_docs), tokens=sum(d.tokens for d in parsed_docs),
        seconds=round(time.perf_counter() - t0, 3), parse_seconds=round(run.parse_seconds, 3),
        embed_seconds=round(run.embed_seconds, 3), workers=workers, reviewable_seconds=round(reviewable_s, 3),
        embedded_chunks=embedded, pending_chunks=(lambda d, t: t - d)(*run.man.embedding_counts()),
    )
