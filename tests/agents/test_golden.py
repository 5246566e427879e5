"""Golden snapshots of the root tool schemas and the harness's assembled instructions (STYLE.md 10),
and placeholders of every instruction template against what the code passes (STYLE.md 7).

Regenerate after an intended change: UPDATE_GOLDEN=1 python -m pytest tests/agents/test_golden.py
and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.checklist import load_checklist
from core.settings import ASSETS

from agents.root import templates
from agents.root.instructions import delegate_values, followup_values, retry_values
from agents.tools import ROOT_TOOL_NAMES, ROOT_TOOLS, TOOL_MODELS

GOLDEN = Path(__file__).parent / "golden"
ITEMS = load_checklist(ASSETS / "checklist.yaml")


def _check(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing golden file {path}; run with UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), f"{name} changed; review and regenerate with UPDATE_GOLDEN=1"


def test_root_tool_schemas_snapshot():
    assert [t["function"]["name"] for t in ROOT_TOOLS] == ROOT_TOOL_NAMES == [
        "list_documents", "search", "peek", "delegate", "write_memo_section", "finish"]
    for t in ROOT_TOOLS:  # OpenAI "tools" format, self-contained (no $ref), every argument described
        assert t["type"] == "function" and t["function"]["description"]
        params = t["function"]["parameters"]
        assert params["type"] == "object" and "$ref" not in json.dumps(params)
        assert all("description" in p for p in params["properties"].values())
    _check("root_tools.json", json.dumps(ROOT_TOOLS, indent=2, sort_keys=True) + "\n")


# what each template is filled with, exactly as the harness builds it (agents/root/instructions.py)
CASES = {
    "delegate": delegate_values(3, 4200, ["Commercial/Supply", ""], ITEMS[:4]),
    "followup": followup_values(ITEMS[2]),
    "retry": retry_values("SubReviewerError: timed out", ITEMS[:2]),
}


def test_every_instruction_template_is_covered():
    assert {p.stem for p in templates.INSTRUCTIONS_DIR.glob("*.md")} == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_template_placeholders_match_what_the_policy_passes(name):
    assert templates.placeholders(name) == set(CASES[name])
    with pytest.raises(templates.TemplateError):
        templates.render(name, **CASES[name], extra="x")
    missing = dict(CASES[name])
    missing.pop(next(iter(missing)))
    with pytest.raises(templates.TemplateError):
        templates.render(name, **missing)


def test_assembled_instructions_snapshot():
    text = "\n\n".join(f"## {n}\n{templates.render(n, **CASES[n])}" for n in sorted(CASES)) + "\n"
    assert "{" not in text
    _check("instructions.txt", text)


def test_tool_argument_models_reject_unknown_fields():
    from pydantic import ValidationError

    from agents.tools import parse_arguments

    with pytest.raises(ValidationError):
        parse_arguments("peek", {"document_id": "d", "whole_document": True})
    with pytest.raises(KeyError):
        parse_arguments("read_everything", {})
    assert set(TOOL_MODELS) == set(ROOT_TOOL_NAMES)
