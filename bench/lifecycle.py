"""How well agents.facts.lifecycle tells expired agreements and deleted sections, against a synthetic room's truth.

    python bench/lifecycle.py --docs 1000 --seed 1 --work /tmp/lifecycle [--as-of 2025-12-31]

Generates the room (synth.generate; with a kept --work folder the ingest skips unchanged files, so a
diligence sweep's --work can be reused), ingests it with the hash embedder, reads every parsed
document's facts and compares: documents found not in force vs. the truth's expired agreements, and
documents with a deleted section vs. those holding a clause the truth marks superseded.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.facts.lifecycle import read_facts, room_status  # noqa: E402
from core.settings import Settings  # noqa: E402
from core.types import ParseStatus  # noqa: E402
from ingest.index.manifest import Manifest  # noqa: E402
from ingest.pipeline import ingest_room  # noqa: E402
from synth.generate import generate_room  # noqa: E402


def _line(name: str, truth: set[str], got: set[str]) -> str:
    return (f"{name}: truth {len(truth)}, found {len(got)}, correct {len(truth & got)}, "
            f"missed {sorted(truth - got)[:3]}, wrong {sorted(got - truth)[:3]}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--docs", type=int, default=1000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--work", type=Path, required=True)
    p.add_argument("--as-of", type=date.fromisoformat, help="default: the date the room's truth holds on (truth.as_of)")
    a = p.parse_args(argv)
    room = f"dil{a.docs}"  # the room name bench/diligence.py uses, so its --work folder is reused as is
    settings = Settings(workspace=a.work / f"ws-{room}", embedding={"model": "hash"})
    truth = generate_room(a.work / room, n_docs=a.docs, seed=a.seed, room=room)
    ingest_room(a.work / room, room, settings)
    man = Manifest(settings, room)
    docs = man.documents(ParseStatus.parsed)
    t0 = time.perf_counter()
    as_of = a.as_of or truth.as_of or date.today()
    status = room_status([read_facts(d.id, d.path, man.document_text(d.id)) for d in docs], as_of)
    seconds = time.perf_counter() - t0
    path = {d.id: d.path for d in docs}
    expired = {d.path for d in truth.documents if d.expired}
    # synth.contract notes a clause an amendment deletes this way (the truth has no separate flag for it)
    superseded = {c.path for c in truth.clauses if c.note.startswith("Deleted by a later amendment")}
    print(f"{room}: {len(docs)} parsed documents as of {as_of}, facts and status in {seconds:.2f} s (text reads included)")
    print(_line("expired agreements", expired, {path[k] for k, v in status.items() if any(not s.section for s in v)}))
    print(_line("deleted sections", superseded, {path[k] for k, v in status.items() if any(s.section for s in v)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
