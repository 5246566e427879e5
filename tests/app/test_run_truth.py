"""Status, labels, binding and folder-ingest rules of the app, on real stores, locks, files and processes
(the browser checks of the same are in test_run_status_browser.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timezone

import pytest

from core.settings import REPO_ROOT, Settings
from core.types import Assignment

from agents.run import worker_lock
from agents.store import open_review_store
from agents.store.models import DocumentReview, ReviewerAction
from app import launch
from app.background import jobs
from app.views import coverage, run_view
from tests.agents.rooms import contract, write_room


def _room_with_run(settings: Settings, status: str = "running", deep: bool = False) -> str:
    folder = "Deals/2024/Project Falcon/Commercial" if deep else "A"
    docs = write_room(settings, "room", {f"{folder}/c{i}.pdf": contract(f"Agreement {i}", ["governing_law"])
                                         for i in range(3)})
    store = open_review_store(settings)
    store.create_run("r-1", "room", settings, docs, status=status)
    for i, d in enumerate(docs):
        store.put_assignment("r-1", Assignment(id=f"a{i}", agent=f"sub-{i}", document_ids=[d.id]), None, "review", True)
        store.start_assignment("r-1", f"a{i}")
    return "r-1"


def test_a_run_without_its_worker_reads_interrupted(settings):
    settings.embedding.model = "hash"
    rid = _room_with_run(settings)
    run = open_review_store(settings).run(rid)
    assert run.status == "running"  # what the store last heard (a SIGKILL leaves it so)
    assert run_view.status_word(settings, run) == "interrupted — resume"
    assert not run_view.is_live(settings, run)
    with worker_lock.acquire(settings.run_dir(rid) / "worker.lock", 1):  # a live worker holds its lock
        assert run_view.status_word(settings, run) == "running" and run_view.is_live(settings, run)
    assert run_view.status_word(settings, run.model_copy(update={"status": "stopped"})) == "stopped"


def test_coverage_text_has_no_percentage_before_the_room_is_known():
    assert run_view.coverage_text(0, 0) == ("—", None)  # not "0/0 ↑100 %"
    assert run_view.coverage_text(3, 12) == ("3/12", "25%")


def test_run_label_names_time_reviewer_and_decisions():
    from agents.store.models import RunInfo

    at = datetime(2026, 12, 4, 18, 5, tzinfo=timezone.utc)
    off = RunInfo(id="x-1", room="x", status="finished", started_at=at, settings={"llm": {"base_url": ""}})
    llm = off.model_copy(update={"settings": {"llm": {"base_url": "http://h/v1", "root_model": "big",
                                                      "sub_model": "small"}}})

    def act(fid: str, kind: str) -> ReviewerAction:
        return ReviewerAction(id=0, run_id="x-1", finding_id=fid, action=kind, author="r", at=at)

    acts = [act("f1", "accepted"), act("f1", "rejected"), act("f2", "accepted"), act("f3", "edited"),
            act("f3", "note")]
    assert run_view.run_label(off, acts, "finished") == (
        "2026-12-04 18:05 UTC · offline · 1 accepted, 1 rejected, 1 edited, 1 note · finished")
    assert run_view.run_label(llm, [], "interrupted — resume") == (
        "2026-12-04 18:05 UTC · big / small · no decisions · interrupted — resume")


def test_coverage_map_draws_documents_at_every_depth_and_folders_sum_what_is_beneath():
    cells = [DocumentReview(document_id=f"d{i}", path=f"a/b/c/d/doc{i}.pdf", folder="a/b/c/d", doc_type="pdf",
                            pages=2, tokens=100, status="reviewed" if i else "unreviewed", findings=i)
             for i in range(3)]
    fig = coverage.treemap(cells, "deep")
    tm = fig.data[0]
    assert tm.maxdepth == -1
    by_id = dict(zip(tm.ids, tm.customdata))
    assert set(by_id) >= {"d0", "d1", "d2", "dir:a", "dir:a/b/c/d"}
    pages, tokens, findings, status = by_id["dir:a/b"][2:6]
    assert (pages, tokens, findings) == (6, 300, 3) and status == "folder · 2/3 documents reviewed"


def test_folder_ingest_is_off_unless_a_root_allows_it_and_never_leaves_the_root(settings, tmp_path):
    inside = tmp_path / "rooms" / "deal"
    inside.mkdir(parents=True)
    outside = tmp_path / "secret"
    outside.mkdir()
    (inside / "escape").symlink_to(outside)
    with pytest.raises(jobs.SourceNotAllowed, match="off"):
        jobs.check_source(settings, inside)
    settings.app.folder_ingest_root = tmp_path / "rooms"
    assert jobs.check_source(settings, inside) == inside.resolve()
    for bad in (outside, inside / "escape", inside / ".." / ".." / "secret", tmp_path / "rooms" / ".." / "secret"):
        with pytest.raises(jobs.SourceNotAllowed, match="Only folders inside"):
            jobs.check_source(settings, bad)
    with pytest.raises(jobs.SourceNotAllowed):
        jobs.start_ingest(settings, outside, "r")
    assert not (settings.workspace / "jobs").exists()  # refused before anything was started or written
    with pytest.raises(ValueError, match="invalid room name"):
        jobs.start_ingest(settings, inside, "../x")


def test_binding_rules(settings):
    assert launch.binding_problem("127.0.0.1", settings) is None
    assert launch.binding_problem("::1", settings) is None and launch.binding_problem("localhost", settings) is None
    for host in ("0.0.0.0", "::", "", None, "10.1.2.3", "example.org"):
        assert "no sign-in" in launch.binding_problem(host, settings), host
    settings.app.allow_unauthenticated_remote = True
    assert launch.binding_problem("0.0.0.0", settings) is None
    assert "Usage statistics are on" in launch.runtime_problem("127.0.0.1", True, settings)


def test_launcher_refuses_a_remote_address_without_the_override(tmp_path):
    env = {**os.environ, "DATAROOM_APP__HOST": "0.0.0.0", "DATAROOM_WORKSPACE": str(tmp_path / "ws")}
    env.pop("DATAROOM_APP__ALLOW_UNAUTHENTICATED_REMOTE", None)
    p = subprocess.run([sys.executable, str(REPO_ROOT / "app" / "launch.py")], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "no sign-in" in p.stderr
    assert launch.streamlit_argv(Settings())[-6:] == ["--server.port", "8501", "--server.headless", "true",
                                                      "--browser.gatherUsageStats", "false"]
