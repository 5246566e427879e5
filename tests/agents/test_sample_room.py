"""Offline run on the bundled sample room through the real ingest pipeline and the real
offline reviewer: coverage, planted clauses found with verified quotes, every memo section,
the root's share of tokens."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import date

import pytest

from core.checklist import load_checklist
from core.settings import ASSETS
from core.text import jaccard, normalize_ws

from agents.run.harness import run_review
from agents.memo.markup import plain
from agents.store import open_review_store

MODEL = ASSETS / "reviewer" / "model.zip"


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


def _matches(quote: str, sentences: list[str]) -> bool:
    """The quote is (most of) a planted sentence: containment either way, or most of the shorter one's words
    shared (a clause quoted with its heading, or the first sentence of a two-sentence clause)."""
    q = normalize_ws(quote)
    for s in sentences:
        s = normalize_ws(s)
        a, b = _words(q), _words(s)
        if s in q or q in s or jaccard(q, s) >= 0.5 or (a and b and len(a & b) / min(len(a), len(b)) >= 0.6):
            return True
    return False


@pytest.mark.slow
@pytest.mark.skipif(not MODEL.exists(), reason="offline reviewer weights (assets/reviewer/model.zip) not built yet")
def test_offline_run_on_sample_room(hsettings):
    from agents.offline import OfflineReviewer
    from agents.runtime.room import RoomView
    from ingest.pipeline import ingest_room

    ingest_room(ASSETS / "sample_room", "sample", hsettings)
    truth = json.loads((ASSETS / "sample_room_truth.json").read_text())
    # The day the truth holds on: later, some of the room's fixed terms end and their clauses are rightly not live.
    hsettings.harness.as_of = date.fromisoformat(truth["as_of"])
    store = open_review_store(hsettings)
    stats = asyncio.run(run_review(hsettings, "sample", "sample-run", store=store))

    cov = stats["coverage"]
    assert cov["documents_reviewed"] == cov["documents_total"] > 0  # 100 % of parsed documents
    # a corrupt file failed; an empty one is skipped, reported apart from failures
    assert cov["failed_parse"] + cov["skipped"] >= len(truth["bad_files"])
    assert cov["failed_parse"] >= sum(b["reason_kind"] != "empty" for b in truth["bad_files"])
    findings = [f for f in store.findings("sample-run") if f.verified]
    room = RoomView(hsettings, "sample")
    for f in findings:  # every cited quote is at its span in the document text
        assert room.text(f.citation.document_id)[f.citation.char_start:f.citation.char_end] == f.quote

    def about(c, cats, fs) -> list:
        return [f for f in fs if set(f.items) & set(cats) and f.citation.document_path.startswith(c["path"])
                and _matches(f.quote, c["sentences"])]

    def found(c, fs) -> bool:
        return bool(about(c, [c["category"], *c["also_accept"]], fs))

    # as of the truth's date, only what the truth calls ended or superseded is graded not live
    not_live = {f.citation.document_path for f in findings if f.summary.startswith("Not live")}
    assert not_live and not_live <= {d["path"] for d in truth["documents"] if d["expired"] or d["superseded_by"]}
    planted = [c for c in truth["clauses"] if not c["must_not_flag"]]
    missed = [c for c in planted if not found(c, findings)]
    # the harness loses nothing: a planted clause it missed is one the reviewer misses on the whole document too
    reviewer, items = OfflineReviewer(), load_checklist(hsettings.checklist_path)
    lost = []
    for c in missed:
        for d in room.parsed():
            if d.path.startswith(c["path"]) and found(c, reviewer.review(d, list(room.chunks(d.id)), items)):
                lost.append(c["id"])
    assert not lost, f"planted clauses the reviewer finds but the harness run lost: {lost}"
    assert not missed, f"planted clauses not found with a verified quote: {[c['id'] for c in missed]}"
    memo = store.memo("sample-run")
    assert {i.id for i in items if i.enabled} | {"executive_summary", "consents", "agreements", "scope"} == {s.key for s in memo.sections}
    scope = plain(memo.section("scope").text)
    for bad in truth["bad_files"]:
        assert bad["path"] in scope
    share = stats["tokens"]["root_share"]
    # Reported, not asserted: docs/EVALUATION.md says which traps still fire, and at what severity.
    traps = [c for c in truth["clauses"] if c["must_not_flag"]]
    fired = []
    for c in traps:
        if hits := about(c, c["trap_categories"], findings):
            fired.append(f"{c['id']} ({'/'.join(sorted({f.category + ' ' + f.severity.value for f in hits}))})")
    print(f"sample room: {cov['documents_total']} parsed documents, {len(findings)} verified findings, "
          f"planted clauses found {len(planted) - len(missed)}/{len(planted)}, root share {share:.2%}, "
          f"must-not-flag traps flagged under a trap category {len(fired)}/{len(traps)}: {fired}")
    assert share < 0.06  # target 5 % (measured 4.6 % with an interim model); reported in run.json and by the CLI
