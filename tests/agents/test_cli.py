"""python -m agents run: artifacts and the printed summary (sub-agent model injected as a scripted double)."""

from __future__ import annotations

import json

import pytest

from core.checklist import load_checklist

from agents import cli
from agents.run import harness
from agents.offline.offline_root import OfflineRootPolicy
from agents.store import open_review_store
from tests.agents.doubles import ScriptedReviewer
from tests.agents.rooms import contract, write_room


def test_cli_run_writes_artifacts_and_prints_summary(short_checklist, monkeypatch, capsys):
    s = short_checklist
    write_room(s, "r", {f"A/c{i}.pdf": contract(f"Agreement {i}", ["change_of_control", "governing_law"]) for i in range(3)},
               failed={"B/bad.pdf": "corrupt PDF"})
    monkeypatch.setenv("DATAROOM_CHECKLIST_PATH", str(s.checklist_path))
    monkeypatch.setenv("DATAROOM_EMBEDDING__MODEL", "hash")
    from core.settings import get_settings

    get_settings.cache_clear()
    monkeypatch.setattr(harness, "build_policies", lambda settings, items: (
        OfflineRootPolicy(load_checklist(settings.checklist_path)), ScriptedReviewer()))
    assert cli.main(["run", "--room", "r", "--run-id", "cli-1"]) == 0
    out = capsys.readouterr().out
    assert "coverage: 3/3 parsed documents (100.0%)" in out and "1 failed to parse" in out
    assert "findings (verified): 6 — high 3, medium 3, low 0, info 0" in out
    assert "tokens: root" in out and "root share" in out and "wall time:" in out
    run_dir = s.run_dir("cli-1")
    stats = json.loads((run_dir / "run.json").read_text())
    assert stats["coverage"]["documents_ratio"] == 1.0
    findings = json.loads((run_dir / "findings.json").read_text())
    assert len([f for f in findings if f["verified"]]) == 6
    assert (run_dir / "memo.md").read_text().startswith("# Due diligence memo — r")
    # running it again on the finished thread redoes nothing and reports the same
    assert cli.main(["run", "--room", "r", "--run-id", "cli-1", "--resume"]) == 0
    assert "coverage: 3/3" in capsys.readouterr().out


def test_cli_endpoint_flags_select_the_llm_settings(monkeypatch):
    args = cli.argparse.Namespace(endpoint="http://127.0.0.1:9/v1", root_model="big", sub_model="small")
    s = cli._settings(args)
    assert not s.llm.offline and s.llm.root_model == "big" and s.llm.sub_model == "small"


def test_cli_refuses_unsafe_names_and_missing_rooms(short_checklist, monkeypatch, capsys, tmp_path):
    s = short_checklist
    monkeypatch.setenv("DATAROOM_EMBEDDING__MODEL", "hash")
    from core.settings import get_settings

    get_settings.cache_clear()
    before = {p for p in tmp_path.rglob("*")}
    for argv in (["run", "--room", "../../x"], ["run", "--room", "r/../../x"], ["run", "--room", ".."],
                 ["run", "--room", "ok", "--run-id", "../../escape"], ["run", "--room", "ok", "--run-id", "a/b"]):
        assert cli.main(argv) == 2, argv
        assert "invalid" in capsys.readouterr().err
    assert {p for p in tmp_path.rglob("*")} == before  # nothing written, inside the workspace or out
    assert not (tmp_path.parent / "x").exists()

    assert cli.main(["run", "--room", "nosuch", "--run-id", "n-1"]) == 2  # not an empty "finished" run
    assert "no data room 'nosuch'" in capsys.readouterr().err
    assert open_review_store(get_settings()).run("n-1") is None
    assert not s.room_dir("nosuch").exists()


def test_a_room_still_being_ingested_is_not_reviewed(short_checklist, monkeypatch, capsys):
    # a review started mid-ingest would cover only the documents parsed so far and finish looking complete
    from agents.run import runner
    from core.settings import get_settings
    from ingest.index.manifest import Manifest

    s = short_checklist
    write_room(s, "half", {"A/c0.pdf": contract("Agreement 0", ["governing_law"])})
    monkeypatch.setenv("DATAROOM_CHECKLIST_PATH", str(s.checklist_path))
    get_settings.cache_clear()
    Manifest(get_settings(), "half").set_stage("ingesting")
    assert cli.main(["run", "--room", "half", "--run-id", "h-1"]) == 2
    assert "still being ingested" in capsys.readouterr().err
    with pytest.raises(runner.RoomNotFound, match="still being ingested"):
        runner.start_run("half", settings=get_settings())
    assert open_review_store(get_settings()).runs() == []
    Manifest(get_settings(), "half").set_stage("reviewable")
    harness.require_reviewable(get_settings(), "half")
