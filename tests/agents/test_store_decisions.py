"""Decisions outlive runs; one passage is one finding; a note alone is logged as a note."""

from __future__ import annotations

import pytest

from core.types import Citation, Document, Finding, Severity

from agents.store import ReviewStore, open_review_store

# the same tests on the default SQLite file and on a PostgreSQL database (tests/conftest.py db_backend)
pytestmark = pytest.mark.usefixtures("db_backend")

QUOTE = "Neither party may assign this Agreement without the prior written consent of the other party."


def _store(settings) -> tuple[ReviewStore, str]:
    s = open_review_store(settings)
    doc = Document(room="r", path="A/x.pdf", doc_type="pdf", sha256="1", tokens=100)
    s.create_run("run1", "r", settings, [doc])
    return s, doc.id


def _finding(doc_id: str, category="anti_assignment", quote=QUOTE, start=100, severity=Severity.medium) -> Finding:
    return Finding(category=category, severity=severity, summary="Neither party may assign without consent.",
                   quote=quote, verified=True, citation=Citation(document_id=doc_id, document_path="A/x.pdf",
                                                                 chunk_id="c", char_start=start,
                                                                 char_end=start + len(quote)))


def test_one_passage_is_one_finding_carrying_every_item(settings):
    s, doc = _store(settings)
    first = _finding(doc).model_copy(update={"extra": {"cuad": "Anti-Assignment", "conditions": "consent_required"}})
    assert s.add_findings("run1", [first], "a1") == [first.id]
    # the same passage reported for another item (a follow-up pass) joins the first, at the higher severity and
    # under the more severe reading, whose sentence it then carries
    again = _finding(doc, category="change_of_control", severity=Severity.high).model_copy(
        update={"summary": "A change of control needs the other party's consent.",
                "extra": {"cuad": "Change Of Control", "conditions": "termination_right"}})
    assert s.add_findings("run1", [again], "a2") == []
    [f] = s.findings("run1")
    assert f.id == first.id and f.items == ["change_of_control", "anti_assignment"] and f.severity == Severity.high
    assert f.summary == "A change of control needs the other party's consent."
    # and its facts: the severe reading's conditions, both readings' CUAD labels
    assert f.extra["conditions"] == "termination_right"
    assert set(f.extra["cuad"].split("; ")) == {"Change Of Control", "Anti-Assignment"}
    # it is listed and counted under both items
    assert [x.id for x in s.findings("run1", category="change_of_control")] == [first.id]
    assert s.finding_tally("run1").categories() == {"anti_assignment", "change_of_control"}
    assert s.finding_tally("run1", category="change_of_control").total() == 1
    # another passage of the same document is a finding of its own
    other = _finding(doc, quote="Either party may terminate on thirty days' notice.", start=900)
    assert s.add_findings("run1", [other], "a3") == [other.id]
    # a less severe reading of it only adds its item
    low = _finding(doc, category="exclusivity", severity=Severity.low)
    assert s.add_findings("run1", [low], "a4") == []
    [f] = [x for x in s.findings("run1") if x.id == first.id]
    assert f.items == ["change_of_control", "anti_assignment", "exclusivity"] and f.summary == again.summary


def test_a_note_alone_is_logged_as_a_note(settings):
    s, doc = _store(settings)
    f = _finding(doc)
    s.add_findings("run1", [f], "a1")
    s.set_finding_review(f.id, "accepted", "", "alice", run_id="run1")
    s.set_finding_review(f.id, "accepted", "check schedule 3", "alice", run_id="run1")
    assert [a.action for a in s.actions("run1")] == ["accepted", "note"]


def test_decisions_are_carried_to_the_next_run_of_the_room(settings):
    s, doc = _store(settings)
    rejected, edited, noted = (_finding(doc, quote=f"Clause {n}: " + QUOTE, start=100 + 200 * n) for n in range(3))
    s.add_findings("run1", [rejected, edited, noted], "a1")
    s.set_finding_review(rejected.id, "rejected", "boilerplate", "alice", run_id="run1")
    s.set_finding_review(edited.id, "edited", "", "bob", run_id="run1", summary="Consent of Acme needed.",
                         severity="high")
    s.set_finding_review(noted.id, "open", "ask the seller", "carol", run_id="run1")
    # a harness regrading is no reviewer decision
    s.set_finding_review(noted.id, "open", "ask the seller", "agent:lifecycle", run_id="run1", severity="info")
    assert s.decisions("r") == 3

    s.create_run("run2", "r", settings, [Document(room="r", path="A/x.pdf", doc_type="pdf", sha256="1")])
    fresh = [_finding(doc, quote=f"Clause {n}: " + QUOTE, start=100 + 200 * n) for n in range(3)]
    fresh.append(_finding(doc, quote="A passage nobody decided on.", start=5000))
    s.add_findings("run2", fresh, "b1")
    got = {f.citation.char_start: f for f in s.findings("run2")}
    assert got[100].reviewer_status.value == "rejected" and got[100].reviewer_note == "boilerplate"
    assert got[300].reviewer_status.value == "edited" and got[300].summary == "Consent of Acme needed."
    assert got[300].severity == Severity.high
    assert got[500].reviewer_note == "ask the seller" and got[500].severity == Severity.medium
    assert all(got[k].extra["carried_from"] == "run1" for k in (100, 300, 500))
    assert got[5000].reviewer_status.value == "open" and "carried_from" not in got[5000].extra
    acts = s.actions("run2")
    assert [a.action for a in acts] == ["carried over"] * 3 and {a.author for a in acts} == {"alice", "bob", "carol"}
    # another room's decisions never reach this one
    s.create_run("run3", "other", settings, [])
    s.add_findings("run3", [_finding(doc)], "c1")
    assert s.findings("run3")[0].reviewer_status.value == "open"


def test_a_decision_re_derives_the_memo_at_once(settings):
    """Reject, edit, note: the stored memo follows immediately, and a reviewer-edited section gets a proposal."""
    from core.checklist import load_checklist

    from agents.memo import derive

    items = load_checklist(settings.checklist_path)
    s, doc = _store(settings)
    coc = _finding(doc, category="change_of_control", severity=Severity.high,
                   quote="Supplier may terminate this Agreement upon a change of control of Customer.")
    coc = coc.model_copy(update={"summary": "Supplier may terminate on a change of control of Customer."})
    assign = _finding(doc, start=900)
    s.add_findings("run1", [coc, assign], "a1")
    s.set_run_status("run1", "finished")
    derive.rederive(s, "run1", items)  # the final memo as the harness leaves it
    for key in ("change_of_control", "anti_assignment"):
        derive.save(s, "run1", derive.item_section(s, "run1", next(i for i in items if i.id == key), final=True), items)
    assert "Supplier may terminate" in s.memo("run1").section("executive_summary").text

    _, changed = derive.review_finding(s, "run1", items, coc.id, "rejected", "", "alice")
    memo = s.memo("run1")
    assert {"executive_summary", "consents", "change_of_control"} <= set(changed)
    assert all(coc.id not in sec.finding_ids for sec in memo.sections)
    assert "Supplier may terminate" not in "\n".join(sec.text for sec in memo.sections)

    s.save_reviewer_edit("run1", "anti_assignment", "My own words on assignment.", "alice")
    derive.review_finding(s, "run1", items, assign.id, "edited", "Check the side letter.", "alice",
                          summary="Acme's consent is needed to assign.", severity="high")
    memo = s.memo("run1")
    assert "Acme's consent is needed to assign." in memo.section("executive_summary").text
    assert "Check the side letter." in memo.section("executive_summary").text
    # the reviewer's own text stays; the new draft waits as a proposal
    assert memo.section("anti_assignment").text == "My own words on assignment."
    assert "Acme's consent is needed to assign." in s.memo_proposal("run1", "anti_assignment").text
