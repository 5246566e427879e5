"""Two reviewers saving the same memo section or finding at once: one wins, the other is told, nothing is lost.

Each writer is a thread with its own store (its own database connection, as two app processes or two
sessions' servers have), started together at a barrier; on both backends.
"""

from __future__ import annotations

import threading

import pytest

from core.types import Citation, Document, Finding, MemoSection, Severity

from agents.store import Conflict, open_review_store
from agents.store.access import Principal, ScopedStore

pytestmark = pytest.mark.usefixtures("db_backend")

WRITERS = 8
ROUNDS = 3
QUOTE = "Neither party may assign this Agreement without consent."


def _setup(settings):
    s = open_review_store(settings)
    doc = Document(room="r", path="A/x.pdf", doc_type="pdf", sha256="1", tokens=100)
    s.create_run("run", "r", settings, [doc])
    s.save_agent_section("run", MemoSection(key="anti_assignment", title="Anti-assignment", text="draft"), 1)
    f = Finding(category="anti_assignment", severity=Severity.medium, summary="needs consent", quote=QUOTE, verified=True,
                citation=Citation(document_id=doc.id, document_path=doc.path, chunk_id="c", char_start=0,
                                  char_end=len(QUOTE)))
    s.add_findings("run", [f], "a1")
    return s, f.id


def test_a_stale_save_is_refused_with_who_saved_and_nothing_changes(settings):
    s, fid = _setup(settings)
    seen = s.memo("run").section("anti_assignment").version
    s.save_reviewer_edit("run", "anti_assignment", "Alice's text", "alice@firm.example", expected_version=seen)
    with pytest.raises(Conflict) as e:
        s.save_reviewer_edit("run", "anti_assignment", "Bob's text", "bob@firm.example", expected_version=seen)
    assert str(e.value).startswith("alice@firm.example saved this section while you were editing; reload to see "
                                   "their version")
    assert s.memo("run").section("anti_assignment").text == "Alice's text"
    # the agent's revision of an unedited section is a conflict too, named as the agent's
    s.save_agent_section("run", MemoSection(key="governing_law", title="Governing law", text="v1"), 2)
    v = s.memo("run").section("governing_law").version
    s.save_agent_section("run", MemoSection(key="governing_law", title="Governing law", text="v2"), 2)
    with pytest.raises(Conflict, match="^The agent saved this section while you were editing; reload to see its"):
        s.save_reviewer_edit("run", "governing_law", "mine", "bob@firm.example", expected_version=v)
    # ... but a pending agent proposal beside a reviewer's text is not: it never replaced what the reviewer saw
    cur = s.memo("run").section("anti_assignment").version
    s.save_agent_section("run", MemoSection(key="anti_assignment", title="Anti-assignment", text="draft 2"), 1)
    assert s.save_reviewer_edit("run", "anti_assignment", "Alice again", "alice@firm.example",
                                expected_version=cur).text == "Alice again"

    f, version = s.finding_for_edit(fid, "run")
    s.set_finding_review(fid, "accepted", "", "alice@firm.example", run_id="run", expected_version=version)
    with pytest.raises(Conflict, match="^alice@firm.example saved this finding while you were editing"):
        s.set_finding_review(fid, "rejected", "no", "bob@firm.example", run_id="run", expected_version=version)
    assert s.finding(fid, "run").reviewer_status.value == "accepted"
    assert [a.author for a in s.actions("run")] == ["alice@firm.example"]
    _, v = s.finding_for_edit(fid, "run")  # the harness's own regrade (agents/finish/lifecycle_pass.py) is the agent's
    s.set_finding_review(fid, "accepted", "", "agent:lifecycle", severity="info", run_id="run")
    with pytest.raises(Conflict, match="^The agent saved this finding while you were editing; reload to see its"):
        s.set_finding_review(fid, "rejected", "no", "bob@firm.example", run_id="run", expected_version=v)
    s.set_finding_review(fid, "accepted", "", "alice@firm.example", severity="medium", run_id="run")
    version += 2
    # through the signed-in user's scoped store as the pages call it
    bob = ScopedStore(s, Principal("bob@firm.example", admin=True))
    with pytest.raises(Conflict):
        bob.set_finding_review(fid, "rejected", "no", "ignored", run_id="run", expected_version=version)
    got, v2 = bob.finding_for_edit(fid, "run")
    assert v2 == version + 1 and got.reviewer_status.value == "accepted"
    bob.set_finding_review(fid, "rejected", "no", "ignored", run_id="run", expected_version=v2)
    assert s.actions("run")[-1].author == "bob@firm.example"


def _race(settings, write) -> list[str]:
    """Run `write(store, writer)` in WRITERS threads, each with its own store, released at once."""
    stores = [open_review_store(settings) for _ in range(WRITERS)]
    barrier = threading.Barrier(WRITERS)
    results: list[str] = [""] * WRITERS
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            barrier.wait()
            results[i] = write(stores[i], i)
        except BaseException as e:  # re-raised in the test thread below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for st in stores:
        st.close()
    if errors:
        raise errors[0]
    return results


def test_eight_writers_on_one_section_and_one_finding_lose_no_update(settings):
    s, fid = _setup(settings)
    seen = s.memo("run").section("anti_assignment").version
    _, fseen = s.finding_for_edit(fid, "run")

    def same_version(store, i):  # all eight saw the same version: exactly one save may land
        out = []
        for what, call in (("memo", lambda: store.save_reviewer_edit("run", "anti_assignment", f"text {i}",
                                                                     f"user{i}@firm.example", expected_version=seen)),
                           ("finding", lambda: store.set_finding_review(fid, "edited", f"note {i}", f"user{i}@firm.example",
                                                                        run_id="run", expected_version=fseen))):
            try:
                call()
                out.append(f"{what}:saved")
            except Conflict as e:
                assert "saved this" in str(e) and "reload to see" in str(e)
                out.append(f"{what}:conflict")
        return " ".join(out)

    results = " ".join(_race(settings, same_version)).split()
    assert results.count("memo:saved") == 1 and results.count("memo:conflict") == WRITERS - 1
    assert results.count("finding:saved") == 1 and results.count("finding:conflict") == WRITERS - 1
    assert len(s.memo_versions("run", "anti_assignment")) == 2
    assert len(s.actions("run")) == 1

    def read_modify_write(store, i):  # each adds its line, reloading after a conflict as the message says
        for r in range(ROUNDS):
            while True:
                sec = store.memo("run").section("anti_assignment")
                try:
                    store.save_reviewer_edit("run", "anti_assignment", sec.text + f"\nw{i}r{r}", f"user{i}",
                                             expected_version=sec.version)
                    break
                except Conflict:
                    continue
            while True:
                f, version = store.finding_for_edit(fid, "run")
                try:
                    store.set_finding_review(fid, "edited", f.reviewer_note + f" w{i}r{r}", f"user{i}", run_id="run",
                                             expected_version=version)
                    break
                except Conflict:
                    continue
        return ""

    _race(settings, read_modify_write)
    text = s.memo("run").section("anti_assignment").text
    note = s.finding(fid, "run").reviewer_note
    for i in range(WRITERS):
        for r in range(ROUNDS):
            assert f"\nw{i}r{r}" in text and f" w{i}r{r}" in note  # no update lost
    assert len(s.memo_versions("run", "anti_assignment")) == 2 + WRITERS * ROUNDS
    assert len(s.actions("run")) == 1 + WRITERS * ROUNDS
    assert len({v.version for v in s.memo_versions("run", "anti_assignment")}) == 2 + WRITERS * ROUNDS


def test_a_store_made_before_finding_versions_gains_the_column_with_its_findings_kept(settings):
    s, fid = _setup(settings)
    s._q("ALTER TABLE findings DROP COLUMN version")  # as a store from before this change has it
    s.close()
    again = open_review_store(settings)
    f, version = again.finding_for_edit(fid, "run")
    assert version == 0 and f.summary == "needs consent"
    again.set_finding_review(fid, "accepted", "", "alice@firm.example", run_id="run", expected_version=0)
    assert again.finding_for_edit(fid, "run")[1] == 1
