"""Command line: generate the sample room or benchmark rooms, verify them, build rubrics, score runs.

    python -m synth sample --out assets/sample_room            # + assets/sample_room_truth.json
    python -m synth room --out /tmp/r1000 --docs 1000 --seed 1  # + /tmp/r1000_truth.json, /tmp/r1000_rubric.json
    python -m synth verify assets/sample_room assets/sample_room_truth.json
    python -m synth rubric assets/sample_room_truth.json
    python -m synth score assets/sample_room_truth.json workspace/runs/<run_id>
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


def _truth_path(out: Path, given: str | None) -> Path:
    return Path(given) if given else out.parent / f"{out.name}_truth.json"


def cmd_sample(a: argparse.Namespace) -> int:
    from synth.sample import generate_sample

    out = Path(a.out)
    t0 = time.perf_counter()
    truth = generate_sample(out, seed=a.seed)
    tp = _truth_path(out, a.truth)
    truth.save(tp)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"wrote {len(truth.documents)} files ({size / 1e6:.2f} MB), {len(truth.clauses)} clauses, "
          f"{len(truth.bad_files)} bad files to {out} in {time.perf_counter() - t0:.1f}s; truth: {tp}")
    return 0


def cmd_room(a: argparse.Namespace) -> int:
    from synth.generate import generate_room
    from synth.rubric import build_rubric

    out = Path(a.out)
    t0 = time.perf_counter()
    truth = generate_room(out, n_docs=a.docs, seed=a.seed, room=a.room or out.name)
    tp = _truth_path(out, a.truth)
    truth.save(tp)
    rubric = build_rubric(truth)
    rp = tp.with_name(tp.name.replace("_truth.json", "_rubric.json")) if tp.name.endswith("_truth.json") else tp.with_suffix(".rubric.json")
    rubric.save(rp)
    print(f"wrote {len(truth.documents)} files, {len(truth.clauses)} clauses, {len(rubric.criteria)} criteria to {out} "
          f"in {time.perf_counter() - t0:.1f}s; truth: {tp}; rubric: {rp}")
    return 0


def cmd_rubric(a: argparse.Namespace) -> int:
    from synth.model import Truth
    from synth.rubric import build_rubric

    rubric = build_rubric(Truth.load(a.truth))
    if a.out:
        rubric.save(Path(a.out))
    else:
        json.dump(rubric.model_dump(mode="json"), sys.stdout, indent=1)
        print()
    return 0


def cmd_verify(a: argparse.Namespace) -> int:
    from synth.extract import verify_room
    from synth.model import Truth

    problems = verify_room(Path(a.room), Truth.load(a.truth))
    for p in problems:
        print(p)
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


def cmd_score(a: argparse.Namespace) -> int:
    from synth.model import Truth
    from synth.rubric import build_rubric
    from synth.score import load_run, score_run

    truth = Truth.load(a.truth)
    findings, memo, stats = load_run(Path(a.run))
    result = score_run(truth, build_rubric(truth), findings, memo, stats)
    if a.json:
        print(json.dumps(result.model_dump(mode="json"), indent=1))
    else:
        print(result.report())
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m synth", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample", help="write the bundled sample data room and its ground truth")
    s.add_argument("--out", default="assets/sample_room", help="folder to (re)create")
    s.add_argument("--seed", type=int, default=7)
    s.add_argument("--truth", help="truth file (default: <out>_truth.json beside the folder)")
    s.set_defaults(fn=cmd_sample)
    r = sub.add_parser("room", help="generate a benchmark room of any size")
    r.add_argument("--out", required=True)
    r.add_argument("--docs", type=int, default=100)
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--room", help="room name (default: the folder name)")
    r.add_argument("--truth", help="truth file (default: <out>_truth.json); the rubric goes beside it")
    r.set_defaults(fn=cmd_room)
    b = sub.add_parser("rubric", help="print or write the rubric of a truth file")
    b.add_argument("truth")
    b.add_argument("--out")
    b.set_defaults(fn=cmd_rubric)
    v = sub.add_parser("verify", help="check that every planted sentence is in its file's extracted text")
    v.add_argument("room")
    v.add_argument("truth")
    v.set_defaults(fn=cmd_verify)
    c = sub.add_parser("score", help="score a run folder (findings.json, memo.md, stats.json) against a truth file")
    c.add_argument("truth")
    c.add_argument("run", help="workspace/runs/<run_id>")
    c.add_argument("--json", action="store_true")
    c.set_defaults(fn=cmd_score)
    a = p.parse_args(argv)
    return a.fn(a)
