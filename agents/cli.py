"""python -m agents run | export | score.

run: review a room (offline reviewer unless an endpoint is given), write memo.md, memo.docx,
findings.json and run.json into workspace/runs/<run_id>/, print coverage, findings by severity,
root vs sub-agent tokens and wall time. SIGTERM (runner.stop_run) stops gracefully: status
'stopped', resumable with --resume. Exit codes: 0 finished; 1 failed, or reviews failed and left coverage
below the target; 2 bad arguments (invalid or missing room, unknown run); 3 the run or the room is busy
(another worker holds it); 4 stopped by the circuit breaker (the endpoint keeps failing; resumable).
export: finished runs' trajectories as chat-format training data, filtered by coverage and/or score.
score: record a run's score (rubric pass rate) in run.json, for `export --min-score`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
from pathlib import Path

from core.settings import Settings, check_name, get_settings

from agents.run import worker_lock
from agents.runtime.breaker import CircuitOpen
from agents.run.harness import RoomNotReady, new_run_id, require_reviewable, run_review
from agents.run.runner import active_run
from agents.store import open_review_store

LOCK_WAIT_S = 60.0  # how long a resumed worker waits for the stopped one to finish exiting
# a process that exits drops its locks one after the other: the room's may outlive the run's by an instant
ROOM_LOCK_WAIT_S = 2.0


def _settings(args: argparse.Namespace) -> Settings:
    base = get_settings()
    llm = {}
    if args.endpoint:
        llm["base_url"] = args.endpoint
    if args.root_model:
        llm["root_model"] = args.root_model
    if args.sub_model:
        llm["sub_model"] = args.sub_model
    if not llm:
        return base
    return base.model_copy(update={"llm": base.llm.model_copy(update=llm)})


def _print_event(ev: dict) -> None:
    if ev["mode"] != "custom":
        return
    d = ev["data"]
    kind = d.get("event")
    if kind == "coverage":
        print(f"  coverage {d['documents_reviewed']}/{d['documents_total']} documents", flush=True)
    elif kind == "assignment_finished" and d.get("status") == "failed":
        print(f"  {d['agent']} failed: {d['error']}", flush=True)
    elif kind == "root_step":
        print(f"  root step {d['step']}: {', '.join(d['tools']) or 'finish'}", flush=True)
    elif kind == "root_fallback" and d.get("note"):
        print(f"  {d['note']}", flush=True)


def summary(stats: dict) -> str:
    c, f, t = stats["coverage"], stats["findings"], stats["tokens"]
    sev = ", ".join(f"{k} {f['by_severity'].get(k, 0)}" for k in ("high", "medium", "low", "info"))
    return "\n".join([
        f"run {stats['run_id']} ({stats['room']}): {stats.get('reason', '')}",
        f"coverage: {c['documents_reviewed']}/{c['documents_total']} parsed documents ({c['documents_ratio']:.1%}), "
        f"{c['tokens_reviewed']:,}/{c['tokens_total']:,} tokens ({c['tokens_ratio']:.1%}); "
        f"{c['failed_parse']} failed to parse, {c['failed_review']} failed review",
        f"findings (verified): {f['verified']} — {sev}; unverified quotes excluded: {f['unverified']}",
        f"tokens: root {t['root_in'] + t['root_out']:,} vs sub-agents {t['sub_in'] + t['sub_out']:,} "
        f"(root share {t['root_share']:.2%}); calls root {t['root_calls']}, sub {t['sub_calls']}",
        f"wall time: {stats['wall_seconds']:.1f} s",
    ])


def model_lines(settings: Settings, run_id: str) -> list[str]:
    """Who drove the root steps (the model or the built-in planner, with the planner's notes) and the request
    form each endpoint ended up with; nothing for a run without a model."""
    from agents.llm.report import summary_lines
    from agents.runtime.trajectory import trajectory_for

    return summary_lines(trajectory_for(settings, run_id).read())


def _refuse(store, run_id: str, message: str, code: int) -> int:
    """Say why the run cannot go on; a run the app registered ("starting") is marked failed with the reason."""
    print(message, file=sys.stderr)
    run = store.run(run_id)
    if run is not None and run.status == "starting":
        store.add_event(run_id, "error", {"where": "worker", "error": message})
        store.set_run_status(run_id, "failed", error=message)
    return code


def outcome(stats: dict, settings: Settings, status: str) -> tuple[int, str]:
    """Exit code and verdict of a run that ended: non-zero when it failed, or when reviews failed and left
    coverage below the target (a run with nothing reviewed is no success)."""
    c = stats.get("coverage", {})
    if status == "failed":
        return 1, f"run failed: {stats.get('reason', '')}".strip()
    if c.get("failed_review", 0) and c.get("documents_ratio", 1.0) < settings.harness.coverage_target:
        return 1, (f"coverage {c['documents_ratio']:.1%} is below the target {settings.harness.coverage_target:.0%}: "
                   f"{c['failed_review']} document(s) failed review; resume the run to retry them")
    return 0, ""


async def _run(args: argparse.Namespace) -> int:
    settings = _settings(args)
    try:
        check_name("room name", args.room)
        run_id = check_name("run id", args.run_id) if args.run_id else new_run_id(args.room)
    except ValueError as e:
        print(str(e), file=sys.stderr)
        return 2
    store = open_review_store(settings)
    known = store.run(run_id)
    if args.resume and known is None:
        print(f"no run {run_id} to resume", file=sys.stderr)
        return 2
    if known is not None and known.room != args.room:
        return _refuse(store, run_id, f"run {run_id} reviews room {known.room!r}, not {args.room!r}", 2)
    if not settings.room_exists(args.room):
        return _refuse(store, run_id, f"no data room {args.room!r} in {settings.workspace} "
                                      f"(ingest it first: python -m ingest PATH --room {args.room!r})", 2)
    try:
        require_reviewable(settings, args.room)
    except RoomNotReady as e:
        return _refuse(store, run_id, str(e), 2)
    try:
        lock = worker_lock.acquire(settings.run_dir(run_id) / "worker.lock", LOCK_WAIT_S)
    except worker_lock.RunLocked as e:
        return _refuse(store, run_id, str(e), 3)
    try:  # the run's own previous worker has exited (its worker.lock is ours), so a holder is another run
        room_lock = worker_lock.acquire(worker_lock.room_lock_path(settings, args.room), ROOM_LOCK_WAIT_S)
    except worker_lock.RunLocked:
        lock.close()
        other = active_run(args.room, settings, exclude=run_id)
        return _refuse(store, run_id, f"room {args.room!r} already has an active run: {other or 'another worker'}; "
                                      "stop it or wait for it to finish", 3)
    try:
        return await _locked_run(args, settings, store, run_id)
    finally:  # closed here, not left to the garbage collector: an in-process caller may run again at once
        room_lock.close()
        lock.close()


async def _locked_run(args: argparse.Namespace, settings: Settings, store, run_id: str) -> int:
    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    stopping = {"flag": False}

    def _stop() -> None:
        stopping["flag"] = True
        store.set_run_status(run_id, "stopping")
        if task is not None:
            task.cancel()

    loop.add_signal_handler(signal.SIGTERM, _stop)
    print(f"run {run_id}: room {args.room}", flush=True)
    try:
        stats = await run_review(settings, args.room, run_id, resume=args.resume, store=store,
                                 on_event=None if args.quiet else _print_event)
    except asyncio.CancelledError:
        if not stopping["flag"]:
            raise
        store.set_run_status(run_id, "stopped")
        store.add_event(run_id, "run_finished", {"status": "stopped"})
        print(f"run {run_id} stopped; resume with --run-id {run_id} --resume", flush=True)
        return 0
    except CircuitOpen as e:  # recorded here, so that the finally below does not bury it as a traceback
        store.set_run_status(run_id, "failed", error=str(e)[:1000])
        store.add_event(run_id, "run_finished", {"status": "failed", "error": str(e)[:1000]})
        print(f"run {run_id} failed. {e}\nresume with --run-id {run_id} --resume", file=sys.stderr, flush=True)
        return 4
    finally:
        store.set_run_pid(run_id, None)
        err = sys.exc_info()[1]
        if err is not None and not isinstance(err, (asyncio.CancelledError, CircuitOpen)):
            # recorded, not swallowed: the traceback still goes to the worker log
            store.set_run_status(run_id, "failed", error=f"{type(err).__name__}: {err}"[:500])
            store.add_event(run_id, "error", {"where": "worker", "error": f"{type(err).__name__}: {err}"[:500]})
    if not stats:
        print(f"run {run_id} produced no stats", file=sys.stderr)
        return 1
    run = store.run(run_id)
    if run is not None and run.status == "running":
        store.set_run_status(run_id, "finished", stats=stats)  # resumed a thread that had already finished
    print(summary(stats))
    for line in model_lines(settings, run_id):
        print(line)
    print(f"artifacts: {settings.run_dir(run_id)}")
    code, verdict = outcome(stats, settings, store.run(run_id).status if store.run(run_id) else "failed")
    if verdict:
        print(verdict, file=sys.stderr)
    return code


def _export(args: argparse.Namespace) -> int:
    from agents.finish.export import run_score
    from agents.runtime.trajectory import root_examples, sub_examples, trajectory_for

    settings = get_settings()
    store = open_review_store(settings)
    system = "You are the root agent of a due-diligence review. Work on the data room through the tools."
    n = 0
    with Path(args.out).open("w", encoding="utf-8") as fh:
        for run in store.runs():
            cov = store.coverage(run.id)
            if run.status != "finished" or cov.documents_ratio < args.min_coverage:
                continue
            score = run_score(run.stats)
            if args.min_score is not None and (score is None or score.value < args.min_score):
                continue  # a run with no recorded score does not pass a score filter
            records = trajectory_for(settings, run.id).read()
            steps = [r for r in records if r.get("type") == "root_step"]
            calls = [r for r in records if r.get("type") == "sub_call"]
            for ex in root_examples(steps, system) + (sub_examples(calls) if args.with_subagents else []):
                fh.write(json.dumps(ex, ensure_ascii=False) + "\n")
                n += 1
    print(f"wrote {n} example(s) to {args.out}")
    return 0


def _score(args: argparse.Namespace) -> int:
    from agents.finish.export import RunScore, record_score

    settings = get_settings()
    store = open_review_store(settings)
    try:
        stats = record_score(settings, store, args.run_id, RunScore(kind=args.kind, value=args.value))
    except (KeyError, ValueError) as e:  # unknown run, or a value outside 0-1
        print(str(e), file=sys.stderr)
        return 1
    print(f"run {args.run_id}: score {stats['score']['kind']} = {stats['score']['value']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m agents")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="review a data room")
    r.add_argument("--room", required=True)
    r.add_argument("--run-id")
    r.add_argument("--resume", action="store_true")
    r.add_argument("--endpoint", help="OpenAI-compatible base URL (the key comes from DATAROOM_LLM__API_KEY)")
    r.add_argument("--root-model")
    r.add_argument("--sub-model")
    r.add_argument("--quiet", action="store_true")
    e = sub.add_parser("export", help="export finished runs' trajectories as chat-format training data")
    e.add_argument("--min-coverage", type=float, default=0.99)
    e.add_argument("--out", required=True)
    e.add_argument("--min-score", type=float, default=None,
                   help="only runs whose run.json score (rubric pass rate, or verified_coverage) is at least this")
    e.add_argument("--with-subagents", action="store_true", help="also export sub-agent calls that used a model")
    sc = sub.add_parser("score", help="record a run's score (e.g. the rubric pass rate from `python -m synth score`)")
    sc.add_argument("run_id")
    sc.add_argument("value", type=float, help="0-1")
    sc.add_argument("--kind", default="rubric_pass_rate")
    args = ap.parse_args(argv)
    if args.cmd == "run":
        return asyncio.run(_run(args))
    if args.cmd == "score":
        return _score(args)
    return _export(args)
