"""Per-room access in the review store: what an admin, a reviewer, a viewer and a stranger may do.

The refusals are the store's (ScopedStore over the real SQLite ReviewStore), not the page's: a viewer
who calls the store directly still cannot accept a finding or edit the memo.
"""

from __future__ import annotations

import pytest

from core.types import Citation, Document, Finding, MemoSection, Severity

from agents.memo import derive
from agents.store import ReviewStore, open_review_store
from agents.store.access import NO_ACCESS, AccessDenied, Principal, ScopedStore

# the same tests on the default SQLite file and on a PostgreSQL database (tests/conftest.py db_backend)
pytestmark = pytest.mark.usefixtures("db_backend")


ADMIN = Principal("a@firm.example", admin=True)
B = Principal("b@firm.example")
C = Principal("c@firm.example")
QUOTE = "Neither party may assign this Agreement without consent."


def _store(settings) -> tuple[ReviewStore, str]:
    s = open_review_store(settings)
    for room, run in (("deal", "run1"), ("other", "run2")):
        s.create_run(run, room, settings, [Document(room=room, path="A/x.pdf", doc_type="pdf", sha256=room, tokens=100)])
    doc_id = s.run_documents("run1")[0]["document_id"]
    f = Finding(category="anti_assignment", severity=Severity.medium, summary="needs consent", quote=QUOTE, verified=True,
                citation=Citation(document_id=doc_id, document_path="A/x.pdf", chunk_id="c", char_start=0,
                                  char_end=len(QUOTE)))
    s.add_findings("run1", [f], "a1")
    s.save_agent_section("run1", MemoSection(key="anti_assignment", title="Anti-assignment", text="draft"), 1)
    return s, f.id


def test_viewer_reads_but_every_write_is_refused_in_the_store(settings):
    s, fid = _store(settings)
    s.grant("deal", "B@Firm.example ", "viewer", by=ADMIN)  # e-mails compare without case or spaces
    b = ScopedStore(s, B)
    assert b.visible_rooms(["deal", "other"]) == ["deal"]
    assert b.role("deal") == "viewer"
    assert [f.id for f in b.findings("run1")] == [fid] and b.memo("run1").section("anti_assignment").text == "draft"
    assert [r.id for r in b.runs("deal")] == ["run1"]
    with pytest.raises(AccessDenied, match="viewer"):
        b.set_finding_review(fid, "accepted", "", "b@firm.example", run_id="run1")
    with pytest.raises(AccessDenied, match="viewer"):
        b.set_finding_review(fid, "rejected", "", "anyone")  # no run id: the store finds the finding's room itself
    with pytest.raises(AccessDenied, match="viewer"):
        b.save_reviewer_edit("run1", "anti_assignment", "my text", "b@firm.example")
    with pytest.raises(AccessDenied, match="viewer"):  # the app's decision path, through the scoped store
        derive.review_finding(b, "run1", [], fid, "accepted", "", "b@firm.example")
    with pytest.raises(AccessDenied):
        b.record_run_start("run1")
    # nothing was written
    assert s.finding(fid, "run1").reviewer_status.value == "open" and s.actions("run1") == []
    assert s.memo("run1").section("anti_assignment").text == "draft"


def test_stranger_learns_nothing_and_gets_the_same_answer_for_a_room_that_does_not_exist(settings):
    s, fid = _store(settings)
    s.grant("deal", B.user, "viewer", by=ADMIN)
    c = ScopedStore(s, C)
    assert c.visible_rooms(["deal", "other"]) == []
    for call in (lambda: c.findings("run1"), lambda: c.run("run1"), lambda: c.memo("run1"), lambda: c.runs("deal"),
                 lambda: c.finding(fid), lambda: c.actions("run1"), lambda: c.coverage("run1"),
                 lambda: c.run("no-such-run"), lambda: c.runs("no-such-room")):
        with pytest.raises(AccessDenied) as e:
            call()
        assert str(e.value) == NO_ACCESS and "deal" not in str(e.value)
    with pytest.raises(AccessDenied):
        c.grants("deal")
    with pytest.raises(AccessDenied):  # only admins grant
        c.grant("deal", C.user, "reviewer")
    with pytest.raises(AccessDenied):  # the bare store's internals are not reachable through the scoped one
        c.create_run("x", "deal", settings, [])
    with pytest.raises(AccessDenied):
        c.runs()  # every run of every room


def test_reviewer_decisions_and_edits_are_attributed_to_the_signed_in_user(settings):
    s, fid = _store(settings)
    s.grant("deal", B.user, "reviewer", by=ADMIN)
    b = ScopedStore(s, B)
    # the page passes whatever name it has; the store writes the signed-in user's e-mail
    b.set_finding_review(fid, "accepted", "checked", "reviewer", run_id="run1")
    b.save_reviewer_edit("run1", "anti_assignment", "counsel's text", "reviewer")
    b.record_run_start("run1")
    assert [a.author for a in s.actions("run1")] == [B.user]
    events = s.events_since("run1")
    assert {"memo_section": B.user, "run_started": B.user} == {e.kind: e.data["by"] for e in events
                                                               if e.kind in ("memo_section", "run_started")}
    assert b.role("other") is None
    with pytest.raises(AccessDenied):
        b.findings("run2")


def test_admin_sees_every_room_grants_and_revokes(settings):
    s, _ = _store(settings)
    a = ScopedStore(s, ADMIN)
    assert a.visible_rooms(["deal", "other"]) == ["deal", "other"] and a.role("other") == "admin"
    a.grant("deal", B.user, "reviewer")
    a.grant("deal", B.user, "viewer")  # a second grant replaces the first
    assert a.grants("deal") == {B.user: "viewer"}
    a.revoke("deal", B.user)
    assert a.grants("deal") == {} and ScopedStore(s, B).visible_rooms(["deal"]) == []
    with pytest.raises(ValueError):
        a.grant("deal", B.user, "owner")
    log = s._q("SELECT member, role, granted_by FROM access_log ORDER BY id")
    assert [tuple(r) for r in log] == [(B.user, "reviewer", ADMIN.user), (B.user, "viewer", ADMIN.user),
                                       (B.user, "", ADMIN.user)]
