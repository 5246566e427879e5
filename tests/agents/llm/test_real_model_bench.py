"""bench/real_model.py end to end against the local OpenAI-compatible server (the real-model run itself is
opt-in: scripts/real_model.sh, CI_REAL_MODEL=1): the sample room's first five files ingested with the real
pipeline, the real graph, and a report whose figures are those of the run."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from llm_helpers import API_KEY, ROOT_MODEL, SUB_MODEL

from agents.tools import ROOT_TOOLS
from devtools import scripted
from devtools.synthroom import KEYWORDS

BENCH = Path(__file__).resolve().parents[3] / "bench" / "real_model.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("real_model_bench", BENCH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.slow
def test_the_bench_reviews_five_sample_files_and_reports_the_run(fake, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DATAROOM_LLM__API_KEY", API_KEY)
    root = scripted.ScriptedRoot()
    fake.expect_tools(ROOT_MODEL, ROOT_TOOLS)
    fake.respond_with(ROOT_MODEL, root)
    fake.response_formats = {"text", "json_object"}  # llama-cpp-python's answer to json_schema: a 500
    fake.respond_with(SUB_MODEL, scripted.ScriptedReviewer(KEYWORDS))
    bench = load_bench()
    out = tmp_path / "report.json"
    rc = bench.main(["--endpoint", fake.base_url, "--model", ROOT_MODEL, "--sub-model", SUB_MODEL,
                     "--work", str(tmp_path / "work"), "--json", str(out)])
    printed = capsys.readouterr().out
    report = json.loads(out.read_text(encoding="utf-8"))

    assert rc == 0 and report["ok"] and printed.rstrip().endswith("OK")
    assert report["documents"] == [p.relative_to(bench.SAMPLE).as_posix() for p in bench.first_files(bench.SAMPLE, 5)]
    cov = report["coverage"]
    assert cov["documents_reviewed"] == cov["documents_total"] >= 4  # a file skipped by design is not counted
    assert report["root"]["steps"] == report["root"]["model"] >= 2 and not report["root"]["notes"]
    forms = {f["role"]: f for f in report["forms"]}
    assert forms["root"]["accepted"] == {"native tools": report["root"]["steps"]}
    assert forms["root"]["read_as"] == {"native tool_calls": report["root"]["steps"]}
    assert forms["sub"]["requests"]["json_schema"] == 1 and "json_object" in forms["sub"]["accepted"]
    f = report["findings"]
    assert f["total"] >= 1 and f["verified_but_not_at_span"] == []
    assert f["verified_share"] == round(f["verified"] / f["total"], 3)
    assert report["tokens"]["sub_calls"] == sum(forms["sub"]["requests"].values())
    assert f"root steps {report['root']['steps']}: model drove {report['root']['steps']}" in printed
    assert "request form: sub model fake-sub-1: json_object" in printed
    fake.assert_clean()
