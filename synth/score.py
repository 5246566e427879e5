"""Score a run against a synthetic room's truth and rubric.

Input is plain data, so the scorer does not depend on harness internals:
a list of findings (`core.types.Finding` or its dict), the memo (`Memo` or
the markdown of memo.md), and the run's stats dict (run.json). Every check
is a structured comparison; nothing is judged by a model.

Matching rules (documented because they decide every number):
- a finding is *about* a truth clause when its document is the clause's file
  (for an e-mail, the e-mail itself or its attachment), its category is the
  clause's or an accepted alternative, and its quote overlaps a planted
  sentence (one contains the other, or >= 60 % of the quote's words are in it);
- rejected findings (reviewer_status 'rejected') are ignored;
- a memo *cites* a finding when its id is in a section's finding_ids (Memo), or,
  for markdown, when the memo names the finding's document and contains the
  start of its quote or its id;
- a near-miss is *flagged* when a finding about it (under a trap category)
  has severity high or medium and the memo cites it (without a memo: any such finding).
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, Field

from core.text import normalize_ws
from core.types import SEVERITY_ORDER, Finding, Memo, ReviewerStatus
from synth.model import Criterion, Rubric, Truth, TruthClause

_WORD = re.compile(r"\w+")


class CriterionResult(BaseModel):
    id: str = Field(description="Criterion id.")
    kind: str = Field(description="flags / not_flagged / scope.")
    text: str = Field(description="The criterion in words.")
    passed: bool = Field(description="Whether the run meets it.")
    evidence: str = Field("", description="Finding id(s) or memo text that decided it.")


class ScoreResult(BaseModel):
    room: str = Field(description="Room name.")
    criteria: list[CriterionResult] = Field(default_factory=list, description="One result per rubric criterion.")
    pass_rate: float = Field(0.0, description="Share of criteria passed.")
    all_pass: bool = Field(False, description="True when every criterion passed.")
    pass_rate_by_kind: dict[str, float] = Field(default_factory=dict, description="Pass rate per criterion kind.")
    clause_recall: float = Field(0.0, description="Share of planted (non-trap) clauses some finding is about.")
    recall_by_category: dict[str, float] = Field(default_factory=dict, description="clause_recall per checklist item.")
    findings: int = Field(0, description="Findings considered (not rejected).")
    findings_on_truth: float = Field(0.0, description="Share of findings about some planted clause (others may be legitimate unplanted text).")
    citation_correct: float = Field(0.0, description="Of findings whose document and category match a planted clause there, the share whose quote is the planted text.")
    verified_share: float = Field(0.0, description="Share of findings marked verified (quote found in the source).")
    coverage_documents: float | None = Field(None, description="Reviewed / parsed documents, from run stats.")
    coverage_tokens: float | None = Field(None, description="Reviewed / total tokens, from run stats.")
    root_token_share: float | None = Field(None, description="Root agent's share of all tokens, from run stats.")
    sub_agents: int | None = Field(None, description="Leaf sub-agent assignments, from run stats.")
    tokens_total: int | None = Field(None, description="All tokens of the run, from run stats.")
    wall_seconds: float | None = Field(None, description="Run wall time, from run stats.")

    def report(self) -> str:
        lines = [f"room {self.room}: {sum(c.passed for c in self.criteria)}/{len(self.criteria)} criteria "
                 f"({self.pass_rate:.1%}), all pass: {self.all_pass}",
                 "by kind: " + ", ".join(f"{k} {v:.1%}" for k, v in self.pass_rate_by_kind.items()),
                 f"clause recall {self.clause_recall:.1%}; findings {self.findings}, on truth {self.findings_on_truth:.1%}; "
                 f"citation correct {self.citation_correct:.1%}; verified {self.verified_share:.1%}"]
        if self.coverage_documents is not None:
            lines.append(f"coverage: documents {self.coverage_documents:.1%}, tokens {self.coverage_tokens or 0:.1%}; "
                         f"root token share {self.root_token_share or 0:.2%}; sub-agents {self.sub_agents}; "
                         f"tokens {self.tokens_total}; wall {self.wall_seconds}s")
        lines += [f"  {'PASS' if c.passed else 'FAIL'} {c.text}" for c in self.criteria if not c.passed]
        return "\n".join(lines)


def _norm_path(p: str) -> str:
    return p.replace("\\", "/").lstrip("./")


def same_document(finding_path: str, clause: TruthClause) -> bool:
    fp = _norm_path(finding_path)
    if fp == clause.path:
        return True
    # Attachments: ingest may name them <eml>/<name>, <eml>#<name>, <eml>::<name> or just <name>.
    if clause.path.endswith(".eml") and fp.startswith(clause.path):
        return not clause.attachment or fp.endswith(clause.attachment)
    return bool(clause.attachment) and PurePosixPath(fp).name == clause.attachment


def quote_overlaps(quote: str, sentences: list[str]) -> bool:
    q = normalize_ws(quote).lower()
    if not q:
        return False
    qw = _WORD.findall(q)
    for s in sentences:
        sn = normalize_ws(s).lower()
        if q in sn or sn in q:
            return True
        sw = set(_WORD.findall(sn))
        if len(qw) >= 5 and sum(w in sw for w in qw) / len(qw) >= 0.6:
            return True
    return False


def _about(f: Finding, path: str, c: TruthClause, categories: list[str]) -> bool:
    # one passage is one finding, listed under every item it answers (Finding.also)
    return bool(set(f.items) & set(categories)) and same_document(path, c) and quote_overlaps(f.quote, c.sentences)


class _MemoView:
    """The memo, normalised once: a 1,000-document room's memo.md runs to megabytes."""

    def __init__(self, memo: Memo | str | None):
        self.memo = memo
        self.text = normalize_ws(memo) if isinstance(memo, str) else ""
        self.ids = {i for s in memo.sections for i in s.finding_ids} if isinstance(memo, Memo) else set()

    def cites(self, f: Finding, path: str) -> bool:
        if self.memo is None:
            return True  # findings-only scoring
        if isinstance(self.memo, Memo):
            return f.id in self.ids
        if f.id in self.text:
            return True
        return path in self.text and normalize_ws(f.quote)[:80] in self.text


def scope_text(memo: Memo | str | None) -> str:
    if memo is None:
        return ""
    if isinstance(memo, Memo):
        s = memo.section("scope")
        return s.text if s else "\n".join(x.text for x in memo.sections)
    m = re.search(r"^(#+)[^\n]*scope[^\n]*\n(.*?)(?=^#{1,%d} |\Z)" % 6, memo, re.I | re.M | re.S)
    return m.group(2) if m else memo


def _coerce(findings: list[Finding | dict], documents: dict[str, str] | None) -> list[tuple[Finding, str]]:
    out = []
    for raw in findings:
        f = raw if isinstance(raw, Finding) else Finding.model_validate(raw)
        if f.reviewer_status == ReviewerStatus.rejected:
            continue
        path = f.citation.document_path or (documents or {}).get(f.citation.document_id, "")
        out.append((f, path))
    return out


def _base(path: str) -> str:
    """The room file a finding's document belongs to: an attachment's e-mail, else the path itself."""
    fp = _norm_path(path)
    return fp[: fp.index(".eml") + 4] if ".eml" in fp else fp


class _Index:
    """Findings by room file, so scoring a 5,000-document room is not findings x clauses."""

    def __init__(self, fs: list[tuple[Finding, str]]):
        self.by_file: dict[str, list[tuple[Finding, str]]] = {}
        self.loose: list[tuple[Finding, str]] = []  # bare attachment names: cannot be placed by path
        for f, p in fs:
            (self.by_file.setdefault(_base(p), []) if "/" in p or ".eml" in p else self.loose).append((f, p))

    def near(self, c: TruthClause) -> list[tuple[Finding, str]]:
        return self.by_file.get(c.path, []) + (self.loose if c.attachment else [])


def _check(cr: Criterion, clauses: dict[str, TruthClause], fs: "_Index", memo: _MemoView, scope: str) -> CriterionResult:
    base = {"id": cr.id, "kind": cr.kind, "text": cr.text}
    if cr.kind == "scope":
        name = PurePosixPath(cr.path).name
        ok = cr.path in scope or name in scope
        return CriterionResult(**base, passed=ok, evidence=name if ok else "")
    c = clauses[cr.clause_id]
    about = [(f, p) for f, p in fs.near(c) if _about(f, p, c, cr.categories)]
    if cr.kind == "flags":
        limit = SEVERITY_ORDER[cr.min_severity] if cr.min_severity else 3
        hits = [f for f, p in about if SEVERITY_ORDER[f.severity] <= limit and memo.cites(f, p)]
        return CriterionResult(**base, passed=bool(hits), evidence=",".join(f.id for f in hits))
    bad = [f for f, p in about if f.severity in cr.forbidden_severities and memo.cites(f, p)]
    return CriterionResult(**base, passed=not bad, evidence=",".join(f.id for f in bad))


def _stat(stats: dict, *keys: str):
    cur = stats
    for k in keys:
        if not isinstance(cur, dict) or k not in cur:
            return None
        cur = cur[k]
    return cur


def score_run(truth: Truth, rubric: Rubric, findings: list[Finding | dict], memo: Memo | str | None = None,
              stats: dict | None = None, documents: dict[str, str] | None = None) -> ScoreResult:
    """Score one run. `documents` maps document id -> room path for findings without citation.document_path."""
    clauses = {c.id: c for c in truth.clauses}
    fs = _coerce(findings, documents)
    index = _Index(fs)
    view, scope = _MemoView(memo), normalize_ws(scope_text(memo))
    results = [_check(cr, clauses, index, view, scope) for cr in rubric.criteria]
    kinds = sorted({r.kind for r in results})
    positives = [c for c in truth.clauses if not c.must_not_flag]
    found, hit_ids, right_doc_ids = set(), set(), set()
    for c in positives:
        accepted = (c.category, *c.also_accept)
        for f, p in index.near(c):
            if set(f.items) & set(accepted) and same_document(p, c):
                right_doc_ids.add(id(f))
                if quote_overlaps(f.quote, c.sentences):
                    found.add(c.id)
                    hit_ids.add(id(f))
    cats = sorted({c.category for c in positives})
    stats = stats or {}
    tokens = _stat(stats, "tokens") or {}
    ratio = lambda a, b: a / b if b else 0.0  # noqa: E731
    return ScoreResult(
        room=truth.room, criteria=results,
        pass_rate=ratio(sum(r.passed for r in results), len(results)),
        all_pass=all(r.passed for r in results),
        pass_rate_by_kind={k: ratio(sum(r.passed for r in results if r.kind == k), sum(r.kind == k for r in results)) for k in kinds},
        clause_recall=ratio(len(found), len(positives)),
        recall_by_category={k: ratio(sum(c.id in found for c in positives if c.category == k), sum(c.category == k for c in positives)) for k in cats},
        findings=len(fs), findings_on_truth=ratio(len(hit_ids), len(fs)),
        citation_correct=ratio(len(hit_ids), len(right_doc_ids)),
        verified_share=ratio(sum(f.verified for f, _ in fs), len(fs)),
        coverage_documents=_stat(stats, "coverage", "documents_ratio"),
        coverage_tokens=_stat(stats, "coverage", "tokens_ratio"),
        root_token_share=tokens.get("root_share"),
        sub_agents=_stat(stats, "assignments", "leaves"),
        tokens_total=tokens.get("total"),
        wall_seconds=stats.get("wall_seconds"),
    )


def load_run(run_dir: Path) -> tuple[list[dict], str | None, dict]:
    """findings.json, memo.md and run.json of workspace/runs/<run_id>/ (memo and stats optional)."""
    findings = json.loads((run_dir / "findings.json").read_text(encoding="utf-8"))
    memo_p, stats_p = run_dir / "memo.md", run_dir / "run.json"
    memo = memo_p.read_text(encoding="utf-8") if memo_p.exists() else None
    stats = json.loads(stats_p.read_text(encoding="utf-8")) if stats_p.exists() else {}
    return findings, memo, stats
