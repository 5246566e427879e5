"""`python -m app.background.ingest_job SOURCE ROOM STATUS_JSON [MODE]`: ingest_room with progress written to a file.

MODE is ingest.pipeline's IngestMode, "new" when absent: a job never replaces a room unless told to; or
"embed": only fill in the vectors an interrupted ingest left (SOURCE is ignored).

Launched by app.background.jobs; plain Python (no streamlit), so parser workers spawned
from here re-import only this module.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from core.settings import get_settings

from app.background.jobs import IngestStatus, write_status

WRITE_EVERY_S = 0.2


class _Reporter:
    def __init__(self, status: IngestStatus, path: Path):
        self.status, self.path, self.last = status, path, 0.0

    def __call__(self, done: int, total: int, current: str) -> None:
        s = self.status
        s.done, s.total, s.current = done, total, current
        if current:
            s.recent = [*s.recent[-7:], current]
        now = time.monotonic()
        self._write(done == total)

    def stage(self, stage: str, done: int, total: int, eta: float | None) -> None:
        s = self.status
        changed = stage != s.stage
        s.stage, s.stage_done, s.stage_total, s.eta_s = stage, done, total, eta
        self._write(changed or done == total)

    def _write(self, now_anyway: bool) -> None:
        now = time.monotonic()
        if now - self.last >= WRITE_EVERY_S or now_anyway:
            self.last = now
            write_status(self.path, self.status.__dict__)


def main(argv: list[str]) -> int:
    from ingest.pipeline import ingest_room
    from ingest.vectors import Rate, embed_pending

    source, room, path = Path(argv[0]), argv[1], Path(argv[2])
    mode = argv[3] if len(argv) > 3 else "new"
    status = IngestStatus(room=room, pid=__import__("os").getpid(), started=time.time())
    write_status(path, status.__dict__)
    rep = _Reporter(status, path)
    try:
        if mode == "embed":
            rate: list[Rate] = []

            def embedding(done: int, total: int) -> None:
                rate[:] = rate or [Rate(done)]
                rep.stage("embedding", done, total, rate[0].eta(done, total))

            embed_pending(get_settings(), room, embedding)
            rep.stage("ready", status.stage_done, status.stage_total, None)
            report = None
        else:
            report = ingest_room(source, room, get_settings(), progress=rep, mode=mode, on_stage=rep.stage)
    except ValueError as e:  # IntakeError (not a zip, a zip bomb, the room exists) or a bad name: already plain words
        status.state, status.error = "failed", str(e)
        code = 1
    except OSError as e:  # its message would show a server path: only what went wrong (the log has the rest)
        status.state, status.error = "failed", f"a file could not be read or written ({e.strerror or type(e).__name__})"
        code = 1
    else:
        status.state = "finished"
        if report is not None:
            status.done = status.total = len(report.documents)
        code = 0
    status.finished = time.time()
    write_status(path, status.__dict__)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
