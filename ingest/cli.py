"""python -m ingest <zip-folder-or-file> [--room NAME] [--add | --update]: ingest and print a summary table.

`python -m ingest --finish-embedding --room NAME` fills in the vectors an interrupted ingest left.

A room name that exists is refused unless --add (the files join the room; nothing in it is removed or
overwritten) or --update (the room becomes the source: re-ingesting the same folder or zip) says otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from core.settings import get_settings

from .intake.intake import IntakeError
from .pipeline import IngestReport, RoomExistsError, ingest_room


class Bar:
    """A one-line progress bar on stderr (redrawn in place when stderr is a terminal)."""

    def __init__(self, stream=sys.stderr, width: int = 30):
        self.stream, self.width, self.t0 = stream, width, time.perf_counter()
        self.tty = stream.isatty()

    def __call__(self, done: int, total: int, current: str) -> None:
        frac = done / total if total else 1.0
        fill = int(frac * self.width)
        line = f"[{'#' * fill}{'.' * (self.width - fill)}] {done}/{total} {time.perf_counter() - self.t0:6.1f}s {current[-50:]}"
        if self.tty:
            self.stream.write("\r" + line.ljust(self.width + 80))
        elif done == total or done % 10 == 0:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")


def summary(report: IngestReport) -> str:
    statuses = ["parsed", "failed", "skipped"]
    rows = [["type", *statuses, "pages", "tokens"]]
    for t in sorted(report.by_type):
        docs = [d for d in report.documents if d.doc_type == t]
        ok = [d for d in docs if d.status.value == "parsed"]
        rows.append([t, *(str(report.by_type[t].get(s, 0)) for s in statuses), str(sum(d.pages for d in ok)), str(sum(d.tokens for d in ok))])
    rows.append(["total", *(str(report.counts.get(s, 0)) for s in statuses), str(report.pages), str(report.tokens)])
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))) for r in rows]
    lines.insert(1, "-" * len(lines[0]))
    lines.insert(len(lines) - 1, "-" * len(lines[0]))
    out = [f"room {report.room}: {len(report.documents)} documents"] + lines
    out.append(
        f"this run: parsed {report.parsed}, failed {report.failed}, skipped {report.skipped}, unchanged {report.unchanged}, "
        f"removed {report.removed}; {report.chunks} chunks; {report.seconds:.1f} s total, "
        f"reviewable after {report.reviewable_seconds:.1f} s, then {report.embed_seconds:.1f} s embedding; "
        f"{report.workers} worker(s)"
    )
    problems = [d for d in report.documents if d.status.value != "parsed"]
    if problems:
        out.append("not parsed:")
        out += [f"  {d.status.value:7} {d.path}: {d.reason}" for d in problems]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m ingest", description=__doc__)
    ap.add_argument("source", type=Path, nargs="?", help="a .zip file, a folder or a single document")
    ap.add_argument("--room", help="room name (default: the source's name without extension)")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--add", action="store_true", help="add the files to an existing room; nothing in it is removed")
    how.add_argument("--update", action="store_true", help="make an existing room the source's copy (files not in it are removed)")
    how.add_argument("--finish-embedding", action="store_true",
                     help="only fill in the vectors of --room that an interrupted ingest left (no source)")
    ap.add_argument("--no-embed", action="store_true",
                    help="return once the room is reviewable (parsed, keyword-indexed); --finish-embedding adds the vectors")
    ap.add_argument("--workers", type=int, help="parser processes (default: settings.ingest.workers)")
    ap.add_argument("--embedding", choices=["minilm", "hash"], help="embedder (default: settings.embedding.model)")
    args = ap.parse_args(argv)
    settings = get_settings()
    bar = Bar()
    if args.workers is not None:
        settings.ingest.workers = args.workers
    if args.embedding:
        settings.embedding.model = args.embedding
    if args.finish_embedding:
        if not args.room or not settings.room_exists(args.room):
            print("error: --finish-embedding needs --room NAME of an existing room", file=sys.stderr)
            return 2
        from .vectors import embed_pending

        n = embed_pending(settings, args.room, lambda done, total: bar(done, total, "chunks embedded"))
        bar.close()
        print(f"room {args.room}: {n} chunk(s) embedded; every chunk now has its vector")
        return 0
    if args.source is None:
        ap.error("a source is needed (or --finish-embedding --room NAME)")
    room = args.room or args.source.stem
    try:
        report = ingest_room(args.source, room, settings, progress=bar, mode="add" if args.add else "sync" if args.update else "new",
                             embed=not args.no_embed)
    except (IntakeError, ValueError) as e:
        bar.close()
        hint = " (--room NAME for a new room, --add to add the files, --update to re-ingest)" if isinstance(e, RoomExistsError) else ""
        print(f"error: {e}{hint}", file=sys.stderr)
        return 2
    bar.close()
    print(summary(report))
    if report.pending_chunks:
        print(f"{report.pending_chunks} chunk(s) still need their vectors (search finds them by keyword until then): "
              f"python -m ingest --finish-embedding --room {room}")
    return 0
