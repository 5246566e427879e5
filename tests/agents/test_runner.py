"""The UI's runner: detached worker processes, graceful stop, resume, secrets kept out."""

from __future__ import annotations

import time

import pytest

from agents import runner
from agents.store import open_review_store
from tests.agents.rooms import contract, write_room

SECRET = "sk-test-secret-0123456789"


def _wait(cond, timeout=120.0, what="", log=None):
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() >= deadline:
            tail = log.read_text(encoding="utf-8", errors="replace")[-4000:] if log and log.exists() else ""
            raise AssertionError(f"timed out waiting for {what}\n--- worker.log ---\n{tail}")
        time.sleep(0.1)


@pytest.mark.slow
def test_start_stop_resume_and_no_secret_anywhere(short_checklist, _workspace, monkeypatch):
    hsettings = short_checklist
    monkeypatch.setattr(runner, "WORKER_MODULE", "tests.agents.cli_worker")  # the CLI, scripted sub-agent model
    keys = ["change_of_control", "anti_assignment", "governing_law"]
    write_room(hsettings, "room", {f"A/c{i}.pdf": contract(f"Agreement {i}", keys) for i in range(8)})
    overrides = {"embedding": {"model": "hash"}, "llm": {"api_key": SECRET}, "checklist_path": hsettings.checklist_path,
                 "harness": {"assignment_delay_s": 0.3, "max_concurrency": 1,
                             "sub_context_tokens": 4400, "sub_prompt_reserve_tokens": 4000}}
    run_id = runner.start_run("room", overrides, settings=hsettings)
    store = open_review_store(hsettings)
    assert store.run(run_id).status in ("starting", "running")
    _wait(lambda: runner.is_running(run_id, hsettings), 30, "worker start")
    pid = store.run(run_id).pid
    with open(f"/proc/{pid}/cmdline", "rb") as fh:
        assert SECRET.encode() not in fh.read()  # never in argv
    _wait(lambda: any(e.kind == "assignment_finished" for e in store.events_since(run_id)), 60, "first assignment")
    assert runner.stop_run(run_id, hsettings)
    _wait(lambda: not runner.is_running(run_id, hsettings), 60, "graceful stop")
    assert store.run(run_id).status == "stopped"
    done_before = store.coverage(run_id).documents_reviewed
    assert done_before < 8

    runner.resume_run(run_id, {"llm": {"api_key": SECRET}}, settings=hsettings)
    log = hsettings.run_dir(run_id) / "worker.log"
    _wait(lambda: store.run(run_id).status in ("finished", "failed"), 180, "resumed run to finish", log)
    assert store.run(run_id).status == "finished", (store.run(run_id).error, log.read_text()[-4000:])
    assert store.coverage(run_id).documents_ratio == 1.0
    _wait(lambda: not runner.is_running(run_id, hsettings), 60, "worker exit")  # it exports, then exits
    assert not runner.stop_run(run_id, hsettings)

    run_dir = hsettings.run_dir(run_id)
    for path in [*run_dir.iterdir(), hsettings.db_path(), hsettings.checkpoint_path()]:
        assert SECRET.encode() not in path.read_bytes(), path
    assert (run_dir / "memo.docx").exists() and (run_dir / "worker.log").exists()
