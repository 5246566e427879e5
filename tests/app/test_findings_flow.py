"""The findings review flow: the pure helpers behind "Accept & next", the table's columns,
the log's "note", escaping of untrusted text; then the page itself through AppTest on a
really ingested and reviewed room."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from core.types import Citation, Finding, ReviewerStatus, Severity

from agents.store.models import ReviewerAction

from app.views import findings_view as fv
from app.views.passage import passage_html

PLANTS = ["![x](http://127.0.0.1:9/p.png)", '<img src="http://127.0.0.1:9/q.png">', "[link](javascript:alert(1))"]
PLANTED = " ".join(PLANTS)


def _f(fid: str, status: str = "open", path: str = "Commercial/acme.txt", **kw) -> Finding:
    return Finding(id=fid, category=kw.pop("cat", "change_of_control"), severity=kw.pop("sev", Severity.high),
                   summary=kw.pop("summary", "Counterparty may terminate on a change of control."), quote="may terminate",
                   citation=Citation(document_id="d-" + path, document_path=path, page=2, chunk_id="c1",
                                     char_start=10, char_end=23),
                   verified=True, reviewer_status=ReviewerStatus(status), **kw)


def test_next_open_moves_forward_wraps_and_skips_decided():
    fs = [_f("a"), _f("b", "accepted"), _f("c"), _f("d", "rejected"), _f("e")]
    assert fv.next_open(fs, "a") == "c"  # b is decided
    assert fv.next_open(fs, "c") == "e"
    assert fv.next_open(fs, "e") == "a"  # wraps round to the first open one
    assert fv.next_open(fs, "b") == "c"  # from a decided finding too
    # the acted-on finding may already read as decided, or have left a filtered view
    assert fv.next_open([_f("a", "accepted"), _f("c")], "a") == "c"
    assert fv.next_open(fs, "zz") == "a"
    assert fv.next_open([_f("a")], "a") is None  # the only open one was just decided
    assert fv.next_open([_f("a", "accepted"), _f("b", "edited")], "a") is None
    assert fv.next_open([], None) is None


def test_short_paths_tell_deep_documents_apart():
    paths = ["Deals/2019/Acme/Contracts/Supply Agreement.pdf", "Deals/2019/Bolt/Contracts/Supply Agreement.pdf",
             "Deals/2020/Acme/Contracts/Supply Agreement.pdf", "Corporate/Minutes.md", "top.txt",
             "x/a.pdf", "y/x/a.pdf"]
    short = fv.short_paths(paths)
    assert short["Corporate/Minutes.md"] == "Minutes.md" and short["top.txt"] == "top.txt"
    assert short["Deals/2019/Bolt/Contracts/Supply Agreement.pdf"] == "…/Bolt/Contracts/Supply Agreement.pdf"
    assert short["Deals/2019/Acme/Contracts/Supply Agreement.pdf"] == "…/2019/Acme/Contracts/Supply Agreement.pdf"
    assert short["Deals/2020/Acme/Contracts/Supply Agreement.pdf"] == "…/2020/Acme/Contracts/Supply Agreement.pdf"
    assert short["x/a.pdf"] == "x/a.pdf" and short["y/x/a.pdf"] == "y/x/a.pdf"
    assert len(set(short.values())) == len(paths)
    # the table's column cuts long names in the middle, unless two would then read the same
    fitted = fv.fit({"a": "Patent_Licence_Harrowgate_University.txt", "b": "short.txt",
                     "c": "Supply_Agreement_Westmark_Foods_2019_signed.txt", "d": "Supply_Agreement_Westmark_Foods_2020_signed.txt"})
    assert fitted["a"] == "Patent_Licen…te_University.txt" and len(fitted["a"]) == fv.FILE_CHARS
    assert fitted["b"] == "short.txt"
    assert (fitted["c"], fitted["d"]) == ("Supply_Agree…s_2019_signed.txt", "Supply_Agree…s_2020_signed.txt")
    same = fv.fit({"a": "Agreement_with_a_long_name_ACME_v1_signed_final.pdf",
                   "b": "Agreement_with_a_long_name_BOLT_v1_signed_final.pdf"})
    assert same == {"a": "Agreement_with_a_long_name_ACME_v1_signed_final.pdf",
                    "b": "Agreement_with_a_long_name_BOLT_v1_signed_final.pdf"}  # cut, both would read the same


def test_table_puts_status_and_file_first_and_shows_confidence_and_all_items():
    fs = [_f("a", path="Deals/A/Contract.pdf", confidence=0.83, also=["termination_convenience"]),
          _f("b", "accepted", path="Deals/B/Contract.pdf", confidence=0.4)]
    titles = {"change_of_control": "Change of control", "termination_convenience": "Termination for convenience"}
    df = fv.table(fs, titles)
    assert list(df.columns[:7]) == ["review", "severity", "file", "category", "summary", "page", "confidence"]
    assert list(df["file"]) == ["…/A/Contract.pdf", "…/B/Contract.pdf"]  # not two identical "Contract.pdf"
    assert list(df["confidence"]) == [0.83, 0.4]
    assert df["category"][0] == "Change of control (also: Termination for convenience)"
    assert list(df["id"]) == ["a", "b"] and list(df["review"]) == ["open", "accepted"]
    label = fv.label(fs[0], titles, fv.short_paths([f.citation.document_path for f in fs]))
    assert label.startswith("[HIGH] open · Change of control — …/A/Contract.pdf p. 2")
    # filtering by an item finds the finding that answers it as well
    assert [f.id for f in fv.apply(fs, fv.Filters(categories={"termination_convenience"}))] == ["a"]
    assert "termination_convenience" in fv.options(fs)["categories"]


def _action(action: str, old: dict, new: dict) -> ReviewerAction:
    return ReviewerAction(id=1, run_id="r", finding_id="a", action=action, old=old, new=new, author="me",
                          at=datetime(2026, 1, 1, tzinfo=timezone.utc))


def test_a_note_alone_is_logged_as_a_note():
    base = {"reviewer_status": "accepted", "reviewer_note": "", "summary": "s", "severity": "high"}
    note = dict(base, reviewer_note="Ask the seller.")
    assert fv.action_name(_action("note", base, note)) == "note"
    # a store that logged the unchanged status still reads as a note
    assert fv.action_name(_action("accepted", base, note)) == "note"
    assert fv.action_name(_action("edited", base, dict(note, severity="low"))) == "edited"
    assert fv.action_name(_action("rejected", base, dict(base, reviewer_status="rejected"))) == "rejected"
    log = fv.activity([_action("accepted", base, note)], {"a": _f("a")}, {})
    assert list(log["action"]) == ["note"] and "reviewer_note:  → Ask the seller." in log["changed"][0]


def test_a_review_table_mark_reads_as_its_cell_in_the_log():
    from agents.store.table import action_id

    f = _f("a")
    mark = _action("verified", {}, {"mark": "verified"}).model_copy(
        update={"finding_id": action_id(f.citation.document_id, "governing_law")})
    log = fv.activity([mark], {"a": f}, {"governing_law": "Governing law"})
    assert list(log["finding"]) == [f"review table: Governing law — {f.citation.document_path}"]


def test_untrusted_text_is_escaped_in_the_detail_and_the_passage():
    f = _f("a", path=f"Deals/{PLANTED}.txt", summary=f"Summary {PLANTED}", reviewer_note=f"Note {PLANTED}",
           agent=f"sub-1 {PLANTED}", also=["termination_convenience"], extra={"carried_from": "run-1234567890"})
    carried = fv.carried_line("run-1234567890", datetime(2026, 12, 1, 9, 30, tzinfo=timezone.utc))
    assert carried == "carried over from run of 2026-12-01 09:30 UTC (run-1234)"
    out = fv.detail_html(f, {"change_of_control": "Change of control"}, carried)
    assert "<img" not in out and "<a" not in out and "&lt;img src=&quot;http://127.0.0.1:9/q.png&quot;&gt;" in out
    assert out.count("![x](http://127.0.0.1:9/p.png)") == 4  # path, summary, note, agent: literal, as data
    assert "model confidence 100%" in out and "Also answers: termination_convenience" in out and carried in out
    text = f"Intro. Customer may terminate {PLANTED} on a change of control. More text follows here."
    start = text.index("Customer")
    html = passage_html(text, start, text.index(" on a change"))
    assert "<img" not in html and "<a " not in html and "&lt;img" in html and PLANTS[0] in html
    # the fallback for a citation without a span escapes too
    assert "<img" not in passage_html(text, -1, -1) and "&lt;img" in passage_html(text, -1, -1)


# ---------------------------------------------------------------------------- the page (AppTest)
from streamlit.testing.v1 import AppTest  # noqa: E402

from core.settings import REPO_ROOT  # noqa: E402

from tests.app import planted_room  # noqa: E402

MAIN = str(REPO_ROOT / "app" / "main.py")
needs_reviewer = pytest.mark.skipif(not (REPO_ROOT / "assets" / "reviewer" / "model.zip").exists(),
                                    reason="offline reviewer weights (assets/reviewer/model.zip) not built yet")


@pytest.fixture(scope="module")
def planted_workspace(tmp_path_factory):
    ws = tmp_path_factory.mktemp("planted") / "workspace"
    return ws, planted_room.ingest_and_review(tmp_path_factory.mktemp("src"), ws)


@pytest.fixture
def planted(planted_workspace, _workspace, settings):
    import shutil

    ws, run_id = planted_workspace
    shutil.copytree(ws, _workspace, dirs_exist_ok=True)
    return settings, run_id


def _page(run_id: str) -> AppTest:
    at = AppTest.from_file(MAIN, default_timeout=60)
    at.session_state["room"] = planted_room.ROOM
    at.session_state["run_id"] = run_id
    at.run()
    return at.switch_page("pages/findings.py").run()


def _pick(at):
    return next(s for s in at.selectbox if s.label == "Open finding")


def _click(at, label: str):
    next(b for b in at.button if b.label == label).click().run()
    assert not at.exception


def _htmls(at) -> str:
    return "\n".join(h.value for h in at.get("html"))


@needs_reviewer
def test_accept_and_next_reject_and_next_skip_and_the_progress_line(planted):
    from agents.store import ReviewStore

    settings, run_id = planted
    store = ReviewStore(settings.db_path())
    fs = store.findings(run_id)
    assert len(fs) >= 5
    at = _page(run_id)
    assert not at.exception
    _pick(at).set_value(fs[0].id).run()
    _click(at, "Accept & next")
    assert store.finding(fs[0].id, run_id).reviewer_status.value == "accepted"
    assert _pick(at).value == fs[1].id
    assert "review progress: 1 accepted · 0 rejected · 0 edited" in "\n".join(c.value for c in at.caption)
    # in a view of open findings only, the decided one leaves the view and the next open one opens
    next(m for m in at.multiselect if m.label == "Reviewer status").set_value(["open"]).run()
    assert _pick(at).value == fs[1].id
    _click(at, "Reject & next")
    assert store.finding(fs[1].id, run_id).reviewer_status.value == "rejected"
    assert _pick(at).value == fs[2].id and fs[1].id not in _pick(at).options
    assert "1 accepted · 1 rejected · 0 edited" in "\n".join(c.value for c in at.caption)
    _click(at, "Next open")  # a skip decides nothing
    assert _pick(at).value == fs[3].id and store.finding(fs[2].id, run_id).reviewer_status.value == "open"
    buttons = {b.label: b for b in at.button}
    assert {"Accept & next", "Reject & next", "Next open", "Accept", "Reject"} <= set(buttons)


@needs_reviewer
def test_severity_edit_relabels_the_picker_and_a_note_is_logged_as_a_note(planted):
    from agents.store import ReviewStore

    from app.session import services

    settings, run_id = planted
    store = ReviewStore(settings.db_path())
    titles = services.titles(settings)
    f = next(f for f in store.findings(run_id) if f.severity.value != "low")
    at = _page(run_id)
    _pick(at).set_value(f.id).run()
    next(t for t in at.text_input if t.label == "Note").set_value("Ask the seller for the waiver.")
    _click(at, "Save edit")
    log = next(d for d in at.dataframe if "author" in d.value.columns).value
    assert list(log[log["author"] == settings.app.author]["action"]) == ["note"]
    assert "Reviewer note.</b> Ask the seller for the waiver." in _htmls(at)
    next(s for s in at.selectbox if s.label == "Severity").set_value("low")
    _click(at, "Save edit")
    assert store.finding(f.id, run_id).severity.value == "low"
    pick = _pick(at)
    assert pick.value == f.id
    # the options the picker is sent, as the browser shows them
    assert [o for o in pick.options if o.startswith("[LOW] edited · ")] == [
        fv.label(store.finding(f.id, run_id), titles, fv.short_paths([x.citation.document_path for x in store.findings(run_id)]))]
    log = next(d for d in at.dataframe if "author" in d.value.columns).value
    assert list(log[log["author"] == settings.app.author]["action"]) == ["edited", "note"]


@needs_reviewer
def test_untrusted_text_reaches_the_page_as_escaped_html_only_and_decisions_say_they_were_carried(planted):
    import asyncio

    from agents.run.harness import run_review
    from agents.store import ReviewStore

    settings, run_id = planted
    store = ReviewStore(settings.db_path())
    f = next(f for f in store.findings(run_id) if f.citation.document_path == planted_room.PLANTED_PATH
             and planted_room.IMG_HTML in f.quote)
    store.set_finding_review(f.id, "accepted", f"Note {planted_room.PLANTED}", "reviewer", run_id=run_id)
    second = asyncio.run(run_review(settings, planted_room.ROOM))["run_id"]
    carried = store.finding(f.id, second)
    assert carried.reviewer_status.value == "accepted" and carried.extra.get("carried_from") == run_id
    at = _page(second)
    _pick(at).set_value(f.id).run()
    assert not at.exception
    html = _htmls(at)
    assert f"carried over from run of {store.run(run_id).started_at:%Y-%m-%d %H:%M} UTC" in html
    assert "<img" not in html and "<a " not in html and "&lt;img src=&quot;http://127.0.0.1:9/q.png&quot;&gt;" in html
    assert planted_room.IMG_MD in html and planted_room.LINK_MD in html  # literal, inside escaped HTML
    # nothing untrusted goes through markdown on this page
    markdown = "\n".join(m.value for m in at.markdown)
    assert "127.0.0.1" not in markdown and "javascript" not in markdown


@needs_reviewer
def test_the_trace_page_shows_planted_paths_as_table_data_only(planted):
    settings, run_id = planted
    at = AppTest.from_file(MAIN, default_timeout=60)
    at.session_state["room"] = planted_room.ROOM
    at.session_state["run_id"] = run_id
    at.run()
    at.switch_page("pages/trace.py").run()
    assert not at.exception
    tree = next(d for d in at.dataframe if "documents" in d.value.columns).value
    assert tree["documents"].str.contains(planted_room.PLANTED_PATH, regex=False).any()
    rendered = "\n".join(str(e.value) for kind in ("markdown", "caption", "info", "html") for e in at.get(kind))
    assert "127.0.0.1:9" not in rendered and "javascript" not in rendered

