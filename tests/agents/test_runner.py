"""The UI's runner: detached worker processes, graceful stop, resume, secrets kept out."""

from __future__ import annotations

import asyncio
import operator
import os
import signal
import time
from typing import Annotated, TypedDict

import pytest
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, StateGraph

from agents import cli
from agents.run import harness, runner
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
def test_start_stop_resume_and_no_secret_anywhere(short_checklist, _workspace, monkeypatch, capsys):
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
    # one active run per room: a second start from the app (another tab) or the CLI is refused, naming it
    with pytest.raises(runner.RunActive, match=run_id):
        runner.start_run("room", overrides, settings=hsettings)
    assert cli.main(["run", "--room", "room", "--run-id", "second"]) == 3
    assert f"already has an active run: {run_id}" in capsys.readouterr().err
    assert runner.effective_status(store.run(run_id), hsettings) == "running"
    assert runner.stop_run(run_id, hsettings)
    _wait(lambda: not runner.is_running(run_id, hsettings), 60, "graceful stop")
    assert store.run(run_id).status == "stopped"
    assert runner.effective_status(store.run(run_id), hsettings) == "stopped"
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


@pytest.mark.slow
def test_a_killed_worker_shows_as_interrupted_and_frees_the_room(short_checklist, monkeypatch):
    hsettings = short_checklist
    monkeypatch.setattr(runner, "WORKER_MODULE", "tests.agents.cli_worker")
    write_room(hsettings, "room", {f"A/c{i}.pdf": contract(f"Agreement {i}", ["governing_law"]) for i in range(4)})
    overrides = {"embedding": {"model": "hash"}, "checklist_path": hsettings.checklist_path,
                 "harness": {"assignment_delay_s": 5.0, "max_concurrency": 1,
                             "sub_context_tokens": 4400, "sub_prompt_reserve_tokens": 4000}}
    run_id = runner.start_run("room", overrides, settings=hsettings)
    store = open_review_store(hsettings)
    _wait(lambda: store.run(run_id) is not None and store.run(run_id).status == "running"
          and runner.is_running(run_id, hsettings), 60, "worker running")
    os.kill(store.run(run_id).pid, signal.SIGKILL)
    _wait(lambda: not runner.is_running(run_id, hsettings), 30, "worker gone")
    assert store.run(run_id).status == "running"  # what the store last heard
    assert runner.effective_status(store.run(run_id), hsettings) == "interrupted"
    assert runner.active_run("room", hsettings) is None  # the room is free for a new run or a resume


class _S(TypedDict):
    log: Annotated[list[str], operator.add]


def _toy_graph(saver, interrupt: bool):
    g = StateGraph(_S)
    for name in ("review", "integrate", "finalize"):
        g.add_node(name, lambda s, name=name: {"log": [name]})
    g.add_edge(START, "review")
    g.add_edge("review", "integrate")
    g.add_conditional_edges("integrate", lambda s: "finalize", ["finalize"])
    g.add_edge("finalize", END)
    return g.compile(checkpointer=saver, interrupt_before=["integrate"] if interrupt else None)


def test_first_resume_of_a_stop_that_lost_its_route_reaches_the_end(settings, monkeypatch):
    """Regression (the resumed run "produced no stats" under load): a stop that lands as a node returns leaves
    the node's writes and its CancelledError saved but not its route. The worker that resumes sees a pending
    task, so it streams; LangGraph applies the writes and ends the thread at once. The harness must notice
    that end on this first resume (it used to look for it only when a thread was already over)."""
    settings.checkpoint_path().parent.mkdir(parents=True, exist_ok=True)
    cfg = {"configurable": {"thread_id": "t"}}

    async def scenario() -> list[str]:
        async with AsyncSqliteSaver.from_conn_string(str(settings.checkpoint_path())) as saver:
            stopped = _toy_graph(saver, interrupt=True)
            await stopped.ainvoke({"log": []}, cfg)  # the stop arrives as integrate runs
            task = (await stopped.aget_state(cfg)).tasks[0]
            snap = await stopped.aget_state(cfg)
            await saver.aput_writes(snap.config, [("log", ["integrate"])], task.id)  # what the stopped worker left
            await saver.aput_writes(snap.config, [("__error__", asyncio.CancelledError())], task.id)
        monkeypatch.setattr(harness, "build_graph", lambda saver: _toy_graph(saver, interrupt=False))
        await harness._stream(settings, None, "t", "room", cfg, None)  # one resume
        async with AsyncSqliteSaver.from_conn_string(str(settings.checkpoint_path())) as saver:
            return (await _toy_graph(saver, interrupt=False).aget_state(cfg)).values["log"]

    log = asyncio.run(scenario())
    assert log[-1] == "finalize" and log.count("finalize") == 1, log
