"""Full runs of the real LangGraph harness (real manifest, Chroma, store, checkpointer, memo)
with the offline root policy and a scripted sub-reviewer."""

from __future__ import annotations

import asyncio

import pytest

from core.checklist import load_checklist
from core.text import locate_quote

from agents.run.harness import run_review
from agents.policy import RootDecision, RootObservation, ToolCall
from agents.store import open_review_store
from tests.agents.doubles import ScriptedReviewer
from tests.agents.rooms import CLAUSES, contract, write_room

# the real graph on each backend: review store and checkpoints in SQLite files, then in PostgreSQL
pytestmark = pytest.mark.usefixtures("db_backend")

ROOM_DOCS = {
    **{f"Commercial/Supply/c{i}.pdf": contract(f"Supply agreement {i}", ["change_of_control", "anti_assignment", "governing_law"])
       for i in range(4)},
    "IP/licence.docx": contract("Licence", ["exclusivity", "governing_law"]),
    "top.txt": contract("Side letter", ["governing_law"]),
}
FAILED = {"Finance/scan.pdf": "no text layer (OCR disabled)"}


def _room(settings, name="r"):
    return write_room(settings, name, ROOM_DOCS, failed=FAILED)


def test_offline_run_covers_room_writes_every_section_and_excludes_unverified(hsettings, run_offline_root, db_backend):
    hsettings.harness.max_concurrency = 2
    hsettings.harness.sub_context_tokens = hsettings.harness.sub_prompt_reserve_tokens + 800  # ~2 docs per sub-agent
    docs = _room(hsettings)
    reviewer = ScriptedReviewer(hallucinate_paths=("c1",))
    stats, store = run_offline_root(hsettings, "r", reviewer)
    assert store.backend == db_backend
    assert hsettings.checkpoint_path().exists() == (db_backend == "sqlite")  # checkpoints went to the same backend

    assert stats["coverage"]["documents_reviewed"] == stats["coverage"]["documents_total"] == 6
    assert stats["coverage"]["failed_parse"] == 1
    run_id = "run-1"
    assert store.run(run_id).status == "finished"
    findings = store.findings(run_id)
    verified = [f for f in findings if f.verified]
    assert {f.category for f in verified} == {"change_of_control", "anti_assignment", "governing_law", "exclusivity"}
    assert len([f for f in verified if f.category == "governing_law"]) == 6
    # every verified quote is in its document at the cited span
    texts = {d.id: open_review_text(hsettings, d.id) for d in docs if d.status.value == "parsed"}
    for f in verified:
        assert texts[f.citation.document_id][f.citation.char_start:f.citation.char_end] == f.quote
    # the invented quote was kept, marked unverified, and is cited nowhere in the memo
    bad = [f for f in findings if not f.verified]
    assert len(bad) == 1 and "Atlantis" in bad[0].quote
    memo = store.memo(run_id)
    items = load_checklist(hsettings.checklist_path)
    keys = [s.key for s in memo.sections]
    assert keys[:3] == ["executive_summary", "consents", "agreements"] and keys[-1] == "scope"
    assert set(keys[3:-1]) == {i.id for i in items if i.enabled}
    assert all(bad[0].id not in s.finding_ids for s in memo.sections)
    md = (hsettings.run_dir(run_id) / "memo.md").read_text()
    assert "Atlantis" not in md
    # not-found items are checked claims: the memo says what was searched for
    tfc = memo.section("termination_for_convenience")
    assert tfc.text.startswith("Not found. The room was searched for")
    scope = memo.section("scope").text
    assert "Finance/scan.pdf: no text layer (OCR disabled)" in scope
    assert "Every parsed document was reviewed." in scope
    # consents schedule: one row per agreement and trigger, every change-of-control / anti-assignment finding cited
    consent = [f for f in store.findings(run_id, citable=True)
               if {"change_of_control", "anti_assignment"} & set(f.items)]
    assert len(consent) == 8 and set(memo.section("consents").finding_ids) == {f.id for f in consent}
    rows = {(f.citation.document_id, "change_of_control" in f.items) for f in consent}
    assert memo.section("consents").text.count("\n| ") == len(rows)  # the header opens the text
    # several waves; sections were rewritten as findings arrived, every version kept
    assert stats["assignments"]["leaves"] >= 3
    assert len(store.memo_versions(run_id, "executive_summary")) >= 2
    assert len(store.memo_versions(run_id, "governing_law")) >= 2
    # root vs sub tokens are reported; artifacts exist
    t = stats["tokens"]
    assert t["root_in"] > 0 and t["sub_in"] > 0 and 0 < t["root_share"] < 1
    for name in ("memo.md", "memo.docx", "findings.json", "run.json", "trajectory.jsonl"):
        assert (hsettings.run_dir(run_id) / name).exists(), name


def open_review_text(settings, doc_id):
    from agents.runtime.room import RoomView

    return RoomView(settings, "r").text(doc_id)


def test_failed_sub_agent_is_reported_retried_and_run_completes(short_checklist, run_offline_root):
    hsettings = short_checklist
    _room(hsettings)
    reviewer = ScriptedReviewer(fail_paths=("c2",), fail_times=1)
    stats, store = run_offline_root(hsettings, "r", reviewer)
    # the failure came back to the root as a delegate result, and the document was retried once
    first = [e for e in store.events_since("run-1") if e.kind == "assignment_finished" and e.data["status"] == "failed"]
    assert len(first) == 1 and "scripted failure" in first[0].data["error"]
    tree = store.assignment_tree("run-1")
    assert any(n.pass_ == "retry" and n.assignment.status.value == "done" for n in tree)
    assert stats["coverage"]["documents_reviewed"] == 6
    assert any("c2.pdf" in f.citation.document_path for f in store.findings("run-1", category="change_of_control"))


def test_permanent_failure_is_reported_in_scope_and_run_completes(short_checklist, run_offline_root):
    hsettings = short_checklist
    _room(hsettings)
    stats, store = run_offline_root(hsettings, "r", ScriptedReviewer(fail_paths=("c3",)))
    assert store.run("run-1").status == "finished"
    assert stats["coverage"]["documents_reviewed"] == 5 and stats["coverage"]["failed_review"] == 1
    status = {d.path: d for d in store.document_status("run-1")}
    assert status["Commercial/Supply/c3.pdf"].status == "failed"
    assert status["Finance/scan.pdf"].status == "failed" and "OCR" in status["Finance/scan.pdf"].reason
    scope = store.memo("run-1").section("scope").text
    assert "Not reviewed:" in scope and "Commercial/Supply/c3.pdf (review failed)" in scope
    # the root saw the failure as a result
    steps = [r for r in _trajectory(hsettings) if r["type"] == "root_step"]
    delegate_results = [res for s in steps for res in s["observation"].get("last_results", []) if res["name"] == "delegate"]
    assert any(r["data"]["failed_count"] for r in delegate_results)


def _trajectory(settings, run_id="run-1"):
    from agents.runtime.trajectory import trajectory_for

    return trajectory_for(settings, run_id).read()


def test_long_document_is_split_into_children_and_findings_merged(short_checklist, run_offline_root):
    hsettings = short_checklist
    hsettings.harness.sub_context_tokens = 1400
    hsettings.harness.sub_prompt_reserve_tokens = 1000  # 400 tokens per sub-agent
    hsettings.harness.max_depth = 2
    hsettings.harness.max_concurrency = 3
    long = contract("Master agreement", ["change_of_control", "anti_assignment", "governing_law", "exclusivity"] * 3,
                    filler_paragraphs=3)
    write_room(hsettings, "r", {"Commercial/master.pdf": long, "Commercial/short.pdf": contract("NDA", ["governing_law"], 0)})
    reviewer = ScriptedReviewer()
    stats, store = run_offline_root(hsettings, "r", reviewer)
    tree = store.assignment_tree("run-1")
    master = next(n for n in tree if n.pass_ == "review" and len(n.children) > 0)
    depths = []

    def walk(n):
        depths.append(n.assignment.depth)
        for c in n.children:
            walk(c)
    walk(master)
    assert max(depths) <= 2 and len(master.children) >= 2
    # with no recursion allowed, the same document is one over-budget sub-agent, reported as overflow
    hsettings.harness.max_depth = 0
    root = SecondLookRoot("unused")
    asyncio.run(run_review(hsettings, "r", "flat", policy=root, reviewer=ScriptedReviewer(), store=store))
    first = root.seen[1].last_results[0]
    assert first.name == "delegate" and first.data["over_budget"]
    assert master.assignment.status.value == "done" and "merged" in master.assignment.report
    leaves = [c for c in _leaves(master)]
    assert all(lf.executions == 1 for lf in leaves)
    # findings from different children, all merged into the run (same clause text -> one id per position)
    found = store.findings("run-1", category="change_of_control")
    assert len({f.citation.chunk_id for f in found}) >= 1
    assert stats["coverage"]["documents_reviewed"] == 2
    # every chunk of the long document was read exactly once in the review pass
    master_calls = [c for c in reviewer.calls if c[1] == "Commercial/master.pdf" and c[2] is not None]
    ranges = sorted(c[2] for c in master_calls if any(c[0] == lf.assignment.id for lf in leaves))
    assert ranges[0][0] == 0 and all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))


def _leaves(node):
    if not node.children:
        return [node]
    return [x for c in node.children for x in _leaves(c)]


class SecondLookRoot:
    """Scripted root: delegates everything, then asks for a second look at a clause already found."""

    name = "scripted-root"

    def __init__(self, chunk_id: str):
        self.chunk_id = chunk_id
        self.seen: list[RootObservation] = []

    async def decide(self, obs: RootObservation) -> RootDecision:
        self.seen.append(obs)
        if obs.step == 0:
            calls = [ToolCall(id="c1", name="delegate", arguments={"batches": [b.id for b in obs.plan.next_batches]})]
        elif obs.step == 1:
            calls = [ToolCall(id="c2", name="delegate",
                              arguments={"chunk_ids": [self.chunk_id], "categories": ["change_of_control"]})]
        else:
            calls = [ToolCall(id="c3", name="finish", arguments={"reason": "done"})]
        return RootDecision(tool_calls=calls, tokens_in=10, tokens_out=5, calls=1)


def test_duplicate_findings_across_sub_agents_are_merged(hsettings):
    docs = _room(hsettings)
    from agents.runtime.room import RoomView

    c0 = next(d for d in docs if d.path.endswith("c0.pdf"))
    chunk = next(c for c in RoomView(hsettings, "r").chunks(c0.id) if CLAUSES["change_of_control"] in c.text)
    root = SecondLookRoot(chunk.id)
    store = open_review_store(hsettings)
    streamed: list[dict] = []
    asyncio.run(run_review(hsettings, "r", "dup", policy=root, reviewer=ScriptedReviewer(), store=store,
                           on_event=streamed.append))
    # progress is streamed (LangGraph "custom" + "updates" modes) as well as stored for the app
    custom = {e["data"]["event"] for e in streamed if e["mode"] == "custom"}
    assert {"root_step", "assignment_started", "assignment_finished", "finding", "coverage", "memo_section",
            "run_finished"} <= custom
    assert {"inventory", "root", "review", "integrate", "finalize"} <= {
        k for e in streamed if e["mode"] == "updates" for k in e["data"]}
    assert {e.kind for e in store.events_since("dup")} >= custom
    coc = [f for f in store.findings("dup", category="change_of_control") if f.citation.document_id == c0.id]
    assert len(coc) == 1  # found by the first-pass sub-agent and by the second look: one finding
    second = root.seen[2].last_results[0]
    assert second.name == "delegate" and second.data["findings"] == 1
    assert second.data["by_category"] == {"change_of_control": 1}
    tree = store.assignment_tree("dup")
    assert [n.pass_ for n in tree].count("followup") == 1
    assert locate_quote(coc[0].quote, RoomView(hsettings, "r").text(c0.id)) is not None


def test_sub_agents_run_in_parallel_up_to_the_cap(short_checklist, run_offline_root):
    hsettings = short_checklist
    hsettings.harness.max_concurrency = 3
    hsettings.harness.sub_context_tokens = hsettings.harness.sub_prompt_reserve_tokens + 450  # one doc per sub-agent
    write_room(hsettings, "r", {f"A/c{i}.pdf": contract(f"Agreement {i}", ["governing_law"]) for i in range(7)})
    reviewer = ScriptedReviewer(delay_s=0.15)
    stats, _ = run_offline_root(hsettings, "r", reviewer)
    assert stats["assignments"]["leaves"] >= 7
    assert reviewer.max_active == 3  # measured overlap, never above the cap


def test_budget_stops_delegation_and_scope_says_what_was_not_reviewed(short_checklist, run_offline_root):
    hsettings = short_checklist
    hsettings.harness.max_concurrency = 1
    hsettings.harness.sub_context_tokens = hsettings.harness.sub_prompt_reserve_tokens + 450
    write_room(hsettings, "r", {f"A/c{i}.pdf": contract(f"Agreement {i}", ["governing_law"]) for i in range(6)})
    hsettings.harness.max_run_tokens = 1500  # about two sub-agents' worth with the scripted reviewer
    stats, store = run_offline_root(hsettings, "r", ScriptedReviewer())
    assert store.run("run-1").status == "finished"
    reviewed = stats["coverage"]["documents_reviewed"]
    assert 1 <= reviewed < 6
    scope = store.memo("run-1").section("scope").text
    assert "Not reviewed:" in scope and scope.count("\n- A/c") >= 6 - reviewed
    assert store.memo("run-1").section("executive_summary").text.startswith(f"Reviewed {reviewed} of 6")


def test_offline_reviewer_bills_nothing_so_run_caps_leave_its_coverage_whole(short_checklist, run_offline_root):
    from agents.offline.subagents import OfflineSubReviewer

    hsettings = short_checklist
    hsettings.harness.sub_context_tokens = hsettings.harness.sub_prompt_reserve_tokens + 450
    write_room(hsettings, "r", {f"A/c{i}.pdf": contract(f"Agreement {i}", ["governing_law"]) for i in range(6)})
    # caps a metered reviewer would hit after one or two sub-agents (the case of a 5,000-document offline room)
    hsettings.harness.max_run_tokens, hsettings.harness.max_run_calls = 1500, 3
    stats, store = run_offline_root(hsettings, "r", OfflineSubReviewer())
    assert stats["coverage"]["documents_reviewed"] == 6
    assert stats["tokens"]["sub_in"] > 1500  # the text read is still counted and shown, only not capped


class ImpatientRoot:
    """Scripted root that wants to finish at once."""

    name = "impatient"

    def __init__(self):
        self.seen: list[RootObservation] = []

    async def decide(self, obs: RootObservation) -> RootDecision:
        self.seen.append(obs)
        return RootDecision(tool_calls=[ToolCall(id=f"f{obs.step}", name="finish", arguments={})], calls=1)


def test_early_finish_is_refused_then_let_go_and_memo_still_has_every_section(short_checklist):
    hsettings = short_checklist
    _room(hsettings)
    root = ImpatientRoot()
    store = open_review_store(hsettings)
    stats = asyncio.run(run_review(hsettings, "r", "early", policy=root, reviewer=ScriptedReviewer(), store=store))
    refusals = [r for o in root.seen for r in o.last_results if r.name == "finish" and not r.ok]
    assert len(refusals) == 2 and "finish refused: 6 document(s) never delegated" in refusals[0].error
    assert len(root.seen) == 3 and store.run("early").status == "finished"
    assert stats["coverage"]["documents_reviewed"] == 0
    keys = {s.key for s in store.memo("early").sections}
    assert {"change_of_control", "non_compete", "scope", "executive_summary", "consents"} <= keys
    assert "Not reviewed:" in store.memo("early").section("scope").text
