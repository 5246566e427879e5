"""One worker per run: the lock a worker holds for its lifetime keeps a resume from overlapping it."""

from __future__ import annotations

import argparse
import asyncio

import pytest

from agents import cli
from agents.run import runner, worker_lock
from agents.store import open_review_store


def test_lock_is_exclusive_and_released_with_the_file(tmp_path):
    path = tmp_path / "run" / "worker.lock"
    assert not worker_lock.held(path)
    fh = worker_lock.acquire(path, timeout_s=1)
    assert worker_lock.held(path)
    with pytest.raises(worker_lock.RunLocked, match="another worker"):
        worker_lock.acquire(path, timeout_s=0.2)
    fh.close()  # what process exit does, SIGKILL included
    assert not worker_lock.held(path)
    worker_lock.acquire(path, timeout_s=0.2).close()


def test_a_run_whose_worker_still_holds_the_lock_is_running_and_a_second_worker_gives_up(hsettings, monkeypatch):
    store = open_review_store(hsettings)
    store.create_run("r1", "room", hsettings, [], status="stopped")
    hsettings.room_dir("room").mkdir(parents=True, exist_ok=True)
    (hsettings.room_dir("room") / "manifest.sqlite").touch()  # an ingested room: the lock is what refuses
    held = worker_lock.acquire(hsettings.run_dir("r1") / "worker.lock", timeout_s=1)  # a worker tearing down
    try:
        assert runner.is_running("r1", hsettings)  # although the store has no pid for it
        with pytest.raises(RuntimeError, match="still running"):
            runner.resume_run("r1", settings=hsettings)
        store.set_run_status("r1", "starting")  # as the runner leaves it for the worker it spawns
        monkeypatch.setattr(cli, "LOCK_WAIT_S", 0.3)
        args = argparse.Namespace(room="room", run_id="r1", resume=True, endpoint=None, root_model=None,
                                  sub_model=None, quiet=True)
        assert asyncio.run(cli._run(args)) == 3
    finally:
        held.close()
    run = store.run("r1")
    assert run.status == "failed" and "another worker" in run.error
    assert any(e.kind == "error" and "another worker" in e.data["error"] for e in store.events_since("r1"))
    assert not runner.is_running("r1", hsettings)
