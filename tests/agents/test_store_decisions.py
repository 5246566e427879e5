"""Decisions outlive runs; one passage is one finding; a note alone is logged as a note."""

from __future__ import annotations

from core.types import Citation, Document, Finding, Severity

from agents.store import ReviewStore

QUOTE = "Neither party may assign this Agreement without the prior written consent of the other party."


def _store(settings) -> tuple[ReviewStore, str]:
    s = ReviewStore(settings.db_path())
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
    first = _finding(doc)
    assert s.add_findings("run1", [first], "a1") == [first.id]
    # the same passage reported for another item (a follow-up pass) joins the first, at the higher severity
    again = _finding(doc, category="change_of_control", severity=Severity.high)
    assert s.add_findings("run1", [again], "a2") == []
    [f] = s.findings("run1")
    assert f.id == first.id and f.items == ["anti_assignment", "change_of_control"] and f.severity == Severity.high
    # it is listed and counted under both items
    assert [x.id for x in s.findings("run1", category="change_of_control")] == [first.id]
    assert s.finding_tally("run1").categories() == {"anti_assignment", "change_of_control"}
    assert s.finding_tally("run1", category="change_of_control").total() == 1
    # another passage of the same document is a finding of its own
    other = _finding(doc, quote="Either party may terminate on thirty days' notice.", start=900)
    assert s.add_findings("run1", [other], "a3") == [other.id]


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
