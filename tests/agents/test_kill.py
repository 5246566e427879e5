"""Kill test: a run SIGKILLed mid-way and resumed ends with the same findings as an uninterrupted
run, and no assignment that had finished before the kill is executed again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest
from pydantic import SecretStr

from core.checklist import load_checklist, save_checklist
from core.settings import REPO_ROOT

from agents.store import open_review_store
from tests.agents.doubles import ScriptedReviewer
from tests.agents.rooms import contract, write_room

KILL_AFTER = 4
KEEP = ("change_of_control", "anti_assignment", "governing_law", "non_compete")  # assignment_finished events seen in the store before the kill


def _env(ws, checklist) -> dict:
    return {**os.environ, "DATAROOM_WORKSPACE": str(ws), "DATAROOM_CHECKLIST_PATH": str(checklist), "DATAROOM_EMBEDDING__MODEL": "hash",
            "DATAROOM_HARNESS__MAX_CONCURRENCY": "2", "DATAROOM_HARNESS__SUB_CONTEXT_TOKENS": "4500",
            "DATAROOM_HARNESS__SUB_PROMPT_RESERVE_TOKENS": "4000", "DATAROOM_HARNESS__ASSIGNMENT_DELAY_S": "0.4",
            "PYTHONPATH": str(REPO_ROOT)}


def _worker(ws, checklist, run_id):
    return subprocess.Popen([sys.executable, "-m", "tests.agents.kill_worker", "r", run_id], cwd=str(REPO_ROOT),
                            env=_env(ws, checklist), stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def _finding_set(store, run_id):
    return {(f.id, f.category, f.severity.value, f.quote, f.citation.document_id, f.citation.char_start,
             f.citation.char_end, f.verified) for f in store.findings(run_id)}


@pytest.mark.slow
@pytest.mark.parametrize("kill_on,count", [("assignment_finished", KILL_AFTER), ("tokens", 1)],
                         ids=["mid-wave", "end-of-integrate"])
def test_sigkill_mid_run_then_resume_matches_uninterrupted_run(hsettings, run_offline_root, _workspace, kill_on, count):
    _kill_and_resume(hsettings, run_offline_root, _workspace, kill_on, count)


@pytest.mark.slow
def test_sigkill_mid_run_then_resume_from_the_postgres_checkpoint(hsettings, run_offline_root, _workspace,
                                                                  postgres_server, monkeypatch):
    """The same kill on team mode: review store and LangGraph checkpoints on PostgreSQL (the worker reads
    DATAROOM_DATABASE__URL from its environment, as the app's workers do)."""
    url = postgres_server.new_database()
    monkeypatch.setenv("DATAROOM_DATABASE__URL", url)
    hsettings.database.url = SecretStr(url)
    store = _kill_and_resume(hsettings, run_offline_root, _workspace, "assignment_finished", KILL_AFTER)
    assert store.backend == "postgres"
    import psycopg

    with psycopg.connect(url) as conn:  # the run resumed from checkpoints kept in PostgreSQL ...
        assert conn.execute("SELECT COUNT(*) FROM checkpoints WHERE thread_id='killed'").fetchone()[0] > 0
    assert not hsettings.checkpoint_path().exists() and not hsettings.db_path().exists()  # ... and nothing in SQLite


def _kill_and_resume(hsettings, run_offline_root, _workspace, kill_on, count):
    # a short checklist keeps the follow-up pass (not what is tested here) small
    checklist = _workspace.parent / "checklist.yaml"
    items = [i for i in load_checklist(hsettings.checklist_path) if i.id in KEEP]
    save_checklist(items, checklist)
    hsettings.checklist_path = checklist
    for k, v in {"max_concurrency": 2, "sub_context_tokens": 4500, "sub_prompt_reserve_tokens": 4000}.items():
        setattr(hsettings.harness, k, v)
    keys = ["change_of_control", "anti_assignment", "governing_law"]
    docs = {f"F{i % 3}/c{i}.pdf": contract(f"Agreement {i}", keys[: 1 + i % 3]) for i in range(12)}
    write_room(hsettings, "r", docs)
    _, ref_store = run_offline_root(hsettings, "r", ScriptedReviewer(), run_id="ref")  # uninterrupted reference
    leaves_ref = [r for r in ref_store.assignment_rows("ref") if r["leaf"] and r["pass"] == "review"]
    assert len(leaves_ref) >= 8  # enough sub-agents for a kill in the middle

    proc = _worker(_workspace, checklist, "killed")
    store = open_review_store(hsettings)
    deadline = time.monotonic() + 120
    while True:
        seen = [e for e in store.events_since("killed", 0, limit=100000) if e.kind == kill_on]
        if len(seen) >= count:
            break
        assert proc.poll() is None, proc.stdout.read().decode()
        if time.monotonic() > deadline:  # a guard against waiting forever, not a speed requirement
            pytest.fail("the worker never reached the kill point in 120 s")
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    finished_before = {r["id"] for r in store.assignment_rows("killed") if r["leaf"] and r["status"] == "done"}
    assert store.run("killed").status == "running"  # killed: nobody marked it
    assert 1 <= len(finished_before) < len(leaves_ref)

    resumed = _worker(_workspace, checklist, "killed")
    out, _ = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, out.decode()
    assert store.run("killed").status == "finished", (out.decode()[-2000:], " ".join(
        e.kind + ("" if e.kind != "run_started" else str(e.data)) for e in store.events_since("killed", 0, limit=100000)))
    assert _finding_set(store, "killed") == _finding_set(ref_store, "ref")
    rows = {r["id"]: r for r in store.assignment_rows("killed")}
    # the same team reviewed the room (ids are content-derived, so they match across runs)
    assert {i for i, r in rows.items() if r["leaf"] and r["pass"] == "review"} == {r["id"] for r in leaves_ref}
    for a in finished_before:
        assert rows[a]["executions"] == 1, a  # finished before the kill: never run again
    started = Counter(e.data["assignment_id"] for e in store.events_since("killed", 0, limit=100000)
                      if e.kind == "assignment_started")
    assert all(started[a] == 1 for a in finished_before)
    assert all(r["status"] == "done" for r in rows.values())
    assert store.coverage("killed").documents_ratio == 1.0
    return store
