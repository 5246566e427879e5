"""scripts/finding_text_stats.py: the measure docs/EVALUATION.md quotes for finding text, on a hand-made run."""

from __future__ import annotations

import importlib.util
import json

from core.settings import REPO_ROOT

_spec = importlib.util.spec_from_file_location("finding_text_stats", REPO_ROOT / "scripts" / "finding_text_stats.py")
stats = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(stats)


def _f(summary, quote, severity="medium", section=""):
    return {"category": "audit_rights", "also": [], "severity": severity, "summary": summary, "quote": quote,
            "citation": {"section": section}}


def test_run_stats_count_fallback_placeholders_fragments_and_sections(tmp_path):
    run = tmp_path / "run-1"
    run.mkdir()
    (run / "findings.json").write_text(json.dumps([
        _f("Cisco may audit Distributor's books and records.", "7.2 Cisco may audit the books of Distributor.", section="§ 7.2"),
        _f("The agreement gives a right to audit books and records.", "records of the Distributor relating to"),
        _f("The agreement gives a right to audit books and records.", "whatever", severity="info"),
        _f("Distributor may not compete.", "Distributor shall not compete in the Territory.", section="§ 3"),
    ]))
    assert stats.run_stats(run) == {"run": "run-1", "findings": 3, "fallback": 1 / 3, "placeholder": 1 / 3,
                                    "fragment_quotes": 1 / 3, "with_section": 2 / 3}
    assert not stats.fragment("(a) Either party may terminate.") and stats.fragment("either 2TheMart or")
