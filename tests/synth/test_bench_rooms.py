"""Benchmark room generator, rubric and scorer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.settings import ASSETS
from core.types import Citation, Finding, Memo, MemoSection, Severity
from synth.cli import main as synth_main
from synth.extract import verify_room
from synth.generate import generate_room
from synth.model import Truth, TruthClause
from synth.rubric import build_rubric
from synth.score import load_run, score_run


@pytest.fixture(scope="module")
def room(tmp_path_factory) -> tuple[Path, Truth]:
    out = tmp_path_factory.mktemp("bench") / "r40"
    return out, generate_room(out, n_docs=40, seed=3)


def _finding(c: TruthClause, severity: Severity | None = None, category: str | None = None) -> Finding:
    path = f"{c.path}::{c.attachment}" if c.attachment else c.path  # ingest names attachments <eml>::<name>
    return Finding(category=category or c.category, severity=severity or c.severity, summary=f"Planted {c.category}.",
                   quote=c.sentences[0], verified=True, agent="test",
                   citation=Citation(document_id=path, document_path=path, chunk_id="x"))


def _perfect(truth: Truth, override: dict[str, Finding | None] | None = None) -> tuple[list[Finding], Memo, str]:
    """What a flawless reviewer returns: every live clause at its true severity, traps left alone.

    `override` replaces (or, with None, drops) the finding for a clause id.
    """
    override = override or {}
    findings = [override.get(c.id, _finding(c)) for c in truth.clauses if not c.must_not_flag]
    findings = [f for f in findings if f is not None]
    sections = [MemoSection(key="findings", title="Findings", text="...", finding_ids=[f.id for f in findings]),
                MemoSection(key="scope", title="Scope and coverage",
                            text="Failed to parse:\n" + "\n".join(f"- {b.path}: {b.reason_kind}" for b in truth.bad_files))]
    md = ["# Memo", "## Findings"]
    for f in findings:
        md += [f"- **{f.severity.value}** - {f.summary} [{f.citation.document_path}, p. 1]", f"  > \u201c{f.quote}\u201d"]
    md += ["## Scope and coverage", "Failed to parse or skipped:"] + [f"- {b.path}: could not be parsed" for b in truth.bad_files]
    return findings, Memo(room=truth.room, run_id="r", sections=sections), "\n".join(md) + "\n"


def test_generation_is_deterministic_and_truthful(room, tmp_path):
    out, truth = room
    again = generate_room(tmp_path / "r40", n_docs=40, seed=3)
    assert again.model_dump(exclude={"room"}) == truth.model_dump(exclude={"room"})
    a = {p.relative_to(out).as_posix(): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    b = {p.relative_to(tmp_path / "r40").as_posix(): p.read_bytes() for p in (tmp_path / "r40").rglob("*") if p.is_file()}
    assert a == b
    assert verify_room(out, truth) == []
    assert 38 <= len(truth.documents) <= 43
    assert {b.reason_kind for b in truth.bad_files} == {"corrupt", "empty"}
    other = generate_room(tmp_path / "s4", n_docs=40, seed=4)
    assert [d.path for d in other.documents] != [d.path for d in truth.documents]


def test_rubric_has_all_three_kinds(room):
    _, truth = room
    rubric = build_rubric(truth)
    kinds = {c.kind for c in rubric.criteria}
    assert kinds == {"flags", "not_flagged", "scope"}
    assert sum(c.kind == "flags" for c in rubric.criteria) == sum(c.key for c in truth.clauses)
    assert sum(c.kind == "not_flagged" for c in rubric.criteria) == sum(c.must_not_flag for c in truth.clauses)


@pytest.mark.parametrize("memo_form", ["object", "markdown"])
def test_perfect_answer_scores_100(room, memo_form):
    _, truth = room
    findings, memo, md = _perfect(truth)
    res = score_run(truth, build_rubric(truth), [f.model_dump(mode="json") for f in findings],
                    memo if memo_form == "object" else md)
    assert res.all_pass, res.report()
    assert res.pass_rate == 1.0 and res.clause_recall == 1.0 and res.citation_correct == 1.0


def test_sample_room_perfect_answer_scores_100():
    truth = Truth.load(ASSETS / "sample_room_truth.json")
    findings, memo, md = _perfect(truth)
    res = score_run(truth, build_rubric(truth), findings, md)
    assert res.all_pass, res.report()


def test_missing_or_uncited_red_flag_fails_its_criterion(room):
    _, truth = room
    rubric = build_rubric(truth)
    findings, memo, md = _perfect(truth)
    key = next(c for c in truth.clauses if c.key)
    dropped, dmemo, dmd = _perfect(truth, {key.id: None})
    for m in (dmemo, dmd):
        assert [c.id for c in score_run(truth, rubric, dropped, m).criteria if not c.passed] == [f"flags:{key.id}"]
    # Found but not cited by the memo: still a failure.
    uncited = memo.model_copy(deep=True)
    uncited.sections[0].finding_ids.remove(_finding(key).id)
    assert [c.id for c in score_run(truth, rubric, findings, uncited).criteria if not c.passed] == [f"flags:{key.id}"]
    # Cited, but two notches below a high red flag.
    high = next(c for c in truth.clauses if c.key and c.severity == Severity.high)
    low, _, lmd = _perfect(truth, {high.id: _finding(high, Severity.low)})
    assert [c.id for c in score_run(truth, rubric, low, lmd).criteria if not c.passed] == [f"flags:{high.id}"]
    # One notch below still counts as flagged.
    med, _, mmd = _perfect(truth, {high.id: _finding(high, Severity.medium)})
    assert score_run(truth, rubric, med, mmd).all_pass


def test_flagging_a_near_miss_fails_the_negative_criterion(room):
    _, truth = room
    rubric = build_rubric(truth)
    findings, memo, _ = _perfect(truth)
    trap = next(c for c in truth.clauses if c.must_not_flag)
    red = _finding(trap, Severity.high, trap.trap_categories[0])
    # A finding the memo does not list (e.g. an unverified quote) is not "listed as a red flag".
    assert score_run(truth, rubric, findings + [red], memo).all_pass
    memo.sections[0].finding_ids.append(red.id)
    res = score_run(truth, rubric, findings + [red], memo)
    assert [c.id for c in res.criteria if not c.passed] == [f"not_flagged:{trap.id}"]
    # Findings-only scoring (no memo): every finding counts; scope cannot pass without a memo.
    no_memo = score_run(truth, rubric, findings + [red])
    assert [c.id for c in no_memo.criteria if not c.passed and c.kind != "scope"] == [f"not_flagged:{trap.id}"]
    assert no_memo.pass_rate_by_kind["scope"] == 0.0
    # Reporting it as information, or under another category, is not a red flag.
    info = _finding(trap, Severity.info, trap.trap_categories[0])
    assert score_run(truth, rubric, findings + [info], memo).all_pass
    # A reviewer who rejected the finding is not held to it.
    rejected = red.model_copy(update={"reviewer_status": "rejected"})
    assert score_run(truth, rubric, findings + [rejected], memo).all_pass


def test_scope_must_name_unreadable_files(room):
    _, truth = room
    findings, _, md = _perfect(truth)
    bad = truth.bad_files[0]
    res = score_run(truth, build_rubric(truth), findings, md.replace(bad.path, "(one file)"))
    assert [c.id for c in res.criteria if not c.passed] == [f"scope:{bad.path}"]


def test_cli_scores_a_run_folder(room, tmp_path, capsys):
    out, truth = room
    truth_path = tmp_path / "r40_truth.json"
    truth.save(truth_path)
    run = tmp_path / "runs" / "run-1"
    run.mkdir(parents=True)
    findings, _, md = _perfect(truth)
    (run / "findings.json").write_text(json.dumps([f.model_dump(mode="json") for f in findings]))
    (run / "memo.md").write_text(md)
    stats = {"wall_seconds": 12.5, "coverage": {"documents_ratio": 0.95, "tokens_ratio": 0.9},
             "tokens": {"total": 1000, "root_share": 0.03}, "assignments": {"leaves": 7}}
    (run / "run.json").write_text(json.dumps(stats))
    assert synth_main(["score", str(truth_path), str(run), "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["all_pass"] and res["sub_agents"] == 7 and res["root_token_share"] == 0.03
    f, m, s = load_run(run)
    assert len(f) == len(findings) and m == md and s == stats


def test_baseline_memo_is_scored_like_the_harness_memo(room):
    """bench/diligence.py's baselines write their own memo; it must be readable by the scorer."""
    from bench.diligence import baseline_memo

    _, truth = room
    findings, _, _ = _perfect(truth)
    md = baseline_memo(findings, [(b.path, "could not be parsed") for b in truth.bad_files])
    assert score_run(truth, build_rubric(truth), findings, md).all_pass
    unverified = [f.model_copy(update={"verified": False}) for f in findings]
    assert score_run(truth, build_rubric(truth), unverified, baseline_memo(unverified, [])).pass_rate_by_kind["flags"] == 0.0


def test_document_matching_rules():
    from synth.score import same_document

    c = TruthClause(id="c1", path="Correspondence/claim.eml", attachment="letter.docx", category="litigation",
                    severity="high", sentences=["x"], variant="litigation/0")
    assert same_document("Correspondence/claim.eml::letter.docx", c)
    assert same_document("Correspondence/claim.eml/letter.docx", c)
    assert not same_document("Correspondence/claim.eml::other.txt", c)
    assert not same_document("Correspondence/other.eml::letter2.docx", c)
    body = c.model_copy(update={"attachment": ""})
    assert same_document("Correspondence/claim.eml", body) and not same_document("Correspondence/claim2.eml", body)
