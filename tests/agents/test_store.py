"""The review store the app reads through: reviewer edits, proposals, actions, events, statuses."""

from __future__ import annotations

import pytest

from core.types import Citation, Document, Finding, MemoAuthor, MemoSection, ParseStatus, Severity

from agents.store import ReviewStore, open_review_store, settings_snapshot


# the same tests on the default SQLite file and on a PostgreSQL database (tests/conftest.py db_backend)
pytestmark = pytest.mark.usefixtures("db_backend")


def _store(settings) -> ReviewStore:
    s = open_review_store(settings)
    docs = [Document(room="r", path="A/x.pdf", doc_type="pdf", sha256="1", tokens=100),
            Document(room="r", path="B/y.pdf", doc_type="pdf", sha256="2", status=ParseStatus.failed, reason="encrypted")]
    s.create_run("run", "r", settings, docs)
    return s


def _finding(doc_id: str, quote="Neither party may assign.", severity=Severity.medium) -> Finding:
    return Finding(category="anti_assignment", severity=severity, summary="needs consent", quote=quote,
                   citation=Citation(document_id=doc_id, document_path="A/x.pdf", chunk_id="c", char_start=0,
                                     char_end=len(quote)), verified=True)


def test_reviewer_edit_is_never_overwritten_agent_revision_becomes_proposal(settings):
    s = _store(settings)
    v1, changed = s.save_agent_section("run", MemoSection(key="anti_assignment", title="Anti-assignment", text="draft 1"), 12)
    assert changed and v1.version == 1
    assert s.save_agent_section("run", MemoSection(key="anti_assignment", title="Anti-assignment", text="draft 1"), 12)[1] is False
    edit = s.save_reviewer_edit("run", "anti_assignment", "lawyer's text", author="alice")
    assert edit.author == MemoAuthor.reviewer and edit.version == 2
    prop, changed = s.save_agent_section("run", MemoSection(key="anti_assignment", title="Anti-assignment", text="draft 2"), 12)
    assert changed and prop.proposal and prop.version == 3
    # the reviewer's text stays current; the agent's is offered alongside
    assert s.memo("run").section("anti_assignment").text == "lawyer's text"
    assert s.memo_proposal("run", "anti_assignment").text == "draft 2"
    # the same proposal again is not a new version; all versions are kept
    assert s.save_agent_section("run", MemoSection(key="anti_assignment", title="Anti-assignment", text="draft 2"), 12)[1] is False
    assert [v.text for v in s.memo_versions("run", "anti_assignment")] == ["draft 1", "lawyer's text", "draft 2"]
    # each version says who wrote it: the agent, or the person who saved it (their sign-in e-mail in team mode)
    assert [v.editor for v in s.memo_versions("run", "anti_assignment")] == ["", "alice", ""]
    # accepting the proposal is a reviewer edit with its text; the proposal is then no longer pending
    s.accept_proposal("run", "anti_assignment", author="alice")
    assert s.memo("run").section("anti_assignment").text == "draft 2"
    assert s.memo("run").section("anti_assignment").author == MemoAuthor.reviewer
    assert s.memo_proposal("run", "anti_assignment") is None
    with pytest.raises(KeyError):
        s.save_reviewer_edit("run", "no_such_section", "x", author="alice")


def test_finding_review_actions_are_recorded_with_old_and_new_values(settings):
    s = _store(settings)
    doc_id = s.run_documents("run")[0]["document_id"]
    f = _finding(doc_id)
    assert s.add_findings("run", [f, f], "a1") == [f.id]  # duplicate in one batch merged
    assert s.add_findings("run", [f], "a2") == []  # and across sub-agents
    s.set_finding_review(f.id, "accepted", "checked", author="alice")
    s.set_finding_review(f.id, "edited", "narrower", author="bob", summary="consent of Acme needed", severity="high")
    got = s.finding(f.id, "run")
    assert got.reviewer_status.value == "edited" and got.summary == "consent of Acme needed" and got.severity == Severity.high
    acts = s.actions("run")
    assert [(a.action, a.author) for a in acts] == [("accepted", "alice"), ("edited", "bob")]
    assert acts[1].old["summary"] == "needs consent" and acts[1].new["severity"] == "high"
    assert s.findings("run", reviewer_status="edited", severity="high")[0].id == f.id
    assert s.findings("run", folder="A", verified=True)[0].id == f.id
    assert s.findings("run", folder="B") == []
    with pytest.raises(KeyError):
        s.set_finding_review("nope", "accepted", "", author="alice")


def test_events_since_and_document_status_and_snapshot_without_secrets(settings):
    settings = settings.model_copy(deep=True)
    from pydantic import SecretStr

    settings.llm.api_key = SecretStr("sk-very-secret")
    s = open_review_store(settings)
    s.create_run("run", "r", settings, [Document(room="r", path="A/x.pdf", doc_type="pdf", sha256="1", tokens=10)])
    e1 = s.add_event("run", "coverage", {"documents_reviewed": 0})
    e2 = s.add_event("run", "finding", {"finding_id": "f"})
    assert [e.id for e in s.events_since("run", 0)] == [e1.id, e2.id]
    assert [e.kind for e in s.events_since("run", e1.id)] == ["finding"]
    settings.database.url = SecretStr("postgresql://u:db-password@h/db")
    s.create_run("run2", "r", settings, [])
    if s.backend == "sqlite":
        assert "sk-very-secret" not in (settings.db_path()).read_bytes().decode("latin-1")
    stored = " ".join(r[0] for r in s._q("SELECT settings_json FROM runs"))
    assert "sk-very-secret" not in stored and "db-password" not in stored
    assert "api_key" not in s.run("run").settings["llm"]
    assert "api_key" not in settings_snapshot(settings)["llm"]
    assert [d.status for d in s.document_status("run")] == ["unreviewed"]


def test_tally_and_citable_limit_count_in_sql_what_the_memo_states(settings):
    s = _store(settings)
    fs = [_finding("x", quote=f"Neither party may assign clause {n}.", severity=sev)
          for n, sev in enumerate([Severity.low, Severity.high, Severity.medium, Severity.high])]
    s.add_findings("run", fs, None)
    s.set_finding_review(fs[3].id, "rejected", "duplicate", "alice", run_id="run")
    tally = s.finding_tally("run", category="anti_assignment")
    assert tally.total() == 3 and tally.total(severity="high") == 1 and tally.documents == 1
    assert tally.categories() == {"anti_assignment"} and s.finding_tally("run", category="exclusivity").total() == 0
    top = s.findings("run", category="anti_assignment", citable=True, limit=2)
    assert [f.severity for f in top] == [Severity.high, Severity.medium]  # rejected one is not citable


def test_section_writes_read_only_the_latest_versions(settings):
    s = _store(settings)
    for n in range(5):
        s.save_agent_section("run", MemoSection(key="k", title="K", text=f"draft {n}"), 12)
    assert not s.reviewer_edited("run", "k")
    s.save_reviewer_edit("run", "k", "mine", author="bob")
    assert s.reviewer_edited("run", "k")
    prop, _ = s.save_agent_section("run", MemoSection(key="k", title="K", text="draft 5"), 12)
    assert prop.proposal and prop.version == 7 and s.memo("run").section("k").text == "mine"
    assert s.save_agent_section("run", MemoSection(key="k", title="K", text="draft 5"), 12)[1] is False


def test_a_passage_stored_twice_under_two_items_keeps_each_readings_sentence(settings):
    s = _store(settings)
    doc_id = s.run_documents("run")[0]["document_id"]
    first = _finding(doc_id)
    second = first.model_copy(update={"id": "f2", "category": "change_of_control", "summary": "a sale needs consent"})
    s.add_findings("run", [first], "a1")
    s.add_findings("run", [second], "a2")
    [one] = s.findings("run")
    assert one.category == "anti_assignment" and one.also == ["change_of_control"]
    assert one.extra["summary:change_of_control"] == "a sale needs consent"
    # a more severe reading takes the passage over; the first reading's sentence stays for its item
    third = first.model_copy(update={"id": "f3", "category": "termination_for_convenience", "severity": Severity.high,
                                     "summary": "may terminate"})
    s.add_findings("run", [third], "a3")
    [one] = s.findings("run")
    assert one.category == "termination_for_convenience" and one.summary == "may terminate"
    assert one.extra["summary:anti_assignment"] == "needs consent"
