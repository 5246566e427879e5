"""Trajectories are recorded per root step and sub-agent call, and export as chat-format training data."""

from __future__ import annotations

import json

from agents.cli import main
from agents.tools import ROOT_TOOL_NAMES
from agents.runtime.trajectory import trajectory_for
from tests.agents.doubles import ScriptedReviewer
from tests.agents.rooms import contract, write_room


def test_trajectory_and_training_export(short_checklist, run_offline_root, tmp_path, monkeypatch):
    hsettings = short_checklist
    write_room(hsettings, "r", {f"A/c{i}.pdf": contract(f"Agreement {i}", ["governing_law"]) for i in range(3)})
    stats, store = run_offline_root(hsettings, "r", ScriptedReviewer(), run_id="good")
    steps = [r for r in trajectory_for(hsettings, "good").read() if r["type"] == "root_step"]
    assert [r["step"] for r in store.trajectory("good") if r["type"] == "root_step"] == [s["step"] for s in steps]
    assert [s["step"] for s in steps] == list(range(len(steps)))
    assert all("observation" in s and "tokens_in" in s and "seconds" in s for s in steps)
    assert steps[-1]["tool_calls"][-1]["name"] == "finish"
    subs = [r for r in trajectory_for(hsettings, "good").read() if r["type"] == "sub_call"]
    assert len(subs) == stats["tokens"]["sub_calls"] and all("seconds" in r and "tokens_in" in r for r in subs)
    # the root's context is ids and counts, never document text
    blob = json.dumps([s["observation"] for s in steps])
    assert "Invoices are payable within thirty days" not in blob

    # a run below the coverage bar is not exported
    store.set_run_status("good", "finished")
    out = tmp_path / "train.jsonl"
    monkeypatch.setenv("DATAROOM_WORKSPACE", str(hsettings.workspace))
    assert main(["export", "--min-coverage", "0.99", "--out", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == len(steps)
    for ex in lines:
        roles = [m["role"] for m in ex["messages"]]
        assert roles[:2] == ["system", "user"] and roles[-1] == "assistant"
        for call in ex["messages"][-1].get("tool_calls", []):
            assert call["type"] == "function" and call["function"]["name"] in ROOT_TOOL_NAMES
            json.loads(call["function"]["arguments"])
        assert {t["function"]["name"] for t in ex["tools"]} == set(ROOT_TOOL_NAMES)
    assert main(["export", "--min-coverage", "1.01", "--out", str(out)]) == 0
    assert out.read_text() == ""


def test_export_filters_by_recorded_score(short_checklist, run_offline_root, tmp_path, monkeypatch):
    hsettings = short_checklist
    write_room(hsettings, "r", {f"A/c{i}.pdf": contract(f"Agreement {i}", ["governing_law"]) for i in range(3)})
    for run_id in ("high", "low"):
        stats, store = run_offline_root(hsettings, "r", ScriptedReviewer(), run_id=run_id)
        store.set_run_status(run_id, "finished")
        # every run ends with the score it has without a rubric: coverage x verified share of its findings
        assert stats["score"]["kind"] == "verified_coverage"
        assert stats["score"]["value"] == stats["coverage"]["documents_ratio"] == 1.0
        on_disk = json.loads((hsettings.run_dir(run_id) / "run.json").read_text())
        assert on_disk["score"] == stats["score"]
    monkeypatch.setenv("DATAROOM_WORKSPACE", str(hsettings.workspace))
    # a rubric pass rate scored after the run replaces it, in the store and in run.json
    assert main(["score", "low", "0.4"]) == 0
    assert store.run("low").stats["score"] == {"kind": "rubric_pass_rate", "value": 0.4, "detail": {}}
    assert json.loads((hsettings.run_dir("low") / "run.json").read_text())["score"]["value"] == 0.4
    assert store.run("low").status == "finished"
    assert main(["score", "nope", "0.4"]) == 1 and main(["score", "low", "1.5"]) == 1

    def exported(*flags: str) -> int:
        out = tmp_path / "train.jsonl"
        assert main(["export", "--min-coverage", "0.99", "--out", str(out), *flags]) == 0
        return len(out.read_text().splitlines())

    per_run = exported("--min-score", "0.5")
    assert per_run > 0  # "high" only
    assert exported() == exported("--min-score", "0.4") == 2 * per_run
    assert exported("--min-score", "1.01") == 0
