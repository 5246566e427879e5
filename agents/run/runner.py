"""Runs for the UI: each review is a detached `python -m agents run` subprocess.

Detached (own session) so Streamlit reruns, reloads or restarts never kill it.
Settings overrides travel as DATAROOM_* environment variables, so an API key is
never in argv (visible in `ps`), in logs, in trajectories or in the store.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import Any

from core.settings import REPO_ROOT, Settings, check_name, get_settings

from agents.run import worker_lock
from agents.run.harness import RoomNotFound, new_run_id, require_reviewable  # noqa: F401  (RoomNotFound: for callers)
from agents.store import open_review_store

WORKER_MODULE = "agents"  # `python -m agents run ...`; tests point it at a worker with a scripted sub-agent model


def _flatten(overrides: dict[str, Any], prefix: str = "DATAROOM_") -> dict[str, str]:
    env: dict[str, str] = {}
    for k, v in overrides.items():
        name = f"{prefix}{k.upper()}"
        if isinstance(v, dict):
            env.update(_flatten(v, name + "__"))
        elif hasattr(v, "get_secret_value"):
            env[name] = v.get_secret_value()
        elif v is not None:
            env[name] = str(v)
    return env


def _spawn(settings: Settings, run_id: str, room: str, env_overrides: dict[str, str], resume: bool) -> int:
    log_dir = settings.run_dir(run_id)
    log_dir.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, **env_overrides, "DATAROOM_WORKSPACE": str(settings.workspace.resolve())}
    argv = [sys.executable, "-m", WORKER_MODULE, "run", "--room", room, "--run-id", run_id]
    if resume:
        argv.append("--resume")
    with (log_dir / "worker.log").open("ab") as log:
        proc = subprocess.Popen(argv, cwd=str(REPO_ROOT), env=env, stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    return proc.pid


class RunActive(RuntimeError):
    """A run (or its room) already has a live worker; the message names the run."""


ACTIVE = ("starting", "running", "stopping")
INTERRUPTED = "interrupted"


def active_run(room: str, settings: Settings | None = None, exclude: str | None = None) -> str | None:
    """Id of the room's run whose worker is alive (or is being started), if any."""
    settings = settings or get_settings()
    for r in open_review_store(settings).runs(room):
        if r.id != exclude and r.status in ACTIVE and is_running(r.id, settings):
            return r.id
    return None


def effective_status(run, settings: Settings | None = None) -> str:
    """The run's status as it really is: a run whose store says it is active but whose worker is gone
    (killed, crashed: its worker lock is free) is 'interrupted', and can be resumed."""
    if run.status in ACTIVE and not is_running(run.id, settings):
        return INTERRUPTED
    return run.status


def start_run(room: str, overrides: dict[str, Any] | None = None, settings: Settings | None = None) -> str:
    """Start a review of `room` in the background; returns its run id at once.

    overrides: nested settings, e.g. {"llm": {"base_url": ..., "api_key": ...}, "harness": {...},
    "checklist_path": "..."}; they reach the worker through its environment only."""
    settings = settings or get_settings()
    check_name("room name", room)
    require_reviewable(settings, room)
    store = open_review_store(settings)
    other = active_run(room, settings)
    if other is not None:
        raise RunActive(f"room {room!r} already has an active run: {other}; stop it or wait for it to finish")
    run_id = new_run_id(room)
    env = _flatten(overrides or {})
    store.create_run(run_id, room, settings, [], status="starting")  # visible to the app before the worker is up
    pid = _spawn(settings, run_id, room, env, resume=False)
    store.set_run_pid(run_id, pid)
    _remember(settings, run_id, env)
    return run_id


def _remember(settings: Settings, run_id: str, env: dict[str, str]) -> None:
    """Keep non-secret overrides for resume (secrets must be given again by the caller)."""
    import json

    safe = {k: v for k, v in env.items() if "API_KEY" not in k}
    (settings.run_dir(run_id) / "overrides.json").write_text(json.dumps(safe), encoding="utf-8")


def resume_run(run_id: str, overrides: dict[str, Any] | None = None, settings: Settings | None = None) -> int:
    """Resume a stopped or killed run from its checkpoint; returns the worker's pid."""
    import json

    settings = settings or get_settings()
    store = open_review_store(settings)
    run = store.run(run_id)
    if run is None:
        raise KeyError(f"no run {run_id}")
    if is_running(run_id, settings):
        raise RunActive(f"run {run_id} is still running")
    other = active_run(run.room, settings, exclude=run_id)
    if other is not None:
        raise RunActive(f"room {run.room!r} already has an active run: {other}; stop it or wait for it to finish")
    saved = settings.run_dir(run_id) / "overrides.json"
    env = json.loads(saved.read_text(encoding="utf-8")) if saved.exists() else {}
    env.update(_flatten(overrides or {}))
    store.set_run_status(run_id, "starting")
    pid = _spawn(settings, run_id, run.room, env, resume=True)
    store.set_run_pid(run_id, pid)
    return pid


def is_running(run_id: str, settings: Settings | None = None) -> bool:
    """A worker process holds the run: its lock is taken (until the process has really exited), or its pid is live."""
    settings = settings or get_settings()
    if worker_lock.held(settings.run_dir(run_id) / "worker.lock"):
        return True
    run = open_review_store(settings).run(run_id)
    if run is None or run.pid is None:
        return False
    try:
        os.kill(run.pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return _not_zombie(run.pid)


def _not_zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def stop_run(run_id: str, settings: Settings | None = None) -> bool:
    """Ask the worker to stop (SIGTERM): it marks the run 'stopped' and exits; resumable. False if not running."""
    settings = settings or get_settings()
    run = open_review_store(settings).run(run_id)
    if run is None or run.pid is None or not is_running(run_id, settings):
        return False
    os.kill(run.pid, signal.SIGTERM)
    return True
