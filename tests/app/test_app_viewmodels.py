"""The app's plain-Python helpers: escaping, coverage cells, filters, diffs, exports."""

from __future__ import annotations

import io
from datetime import date

import openpyxl
import pandas as pd
from docx import Document as Docx

from core.types import Citation, Finding, Memo, MemoSection, ReviewerStatus, Severity

from agents.store.models import DocumentReview

from app.views import coverage, exports, memo_view, rooms_view, run_view
from app.views import findings_view as fv
from app.views.passage import passage_html


def _finding(cat="change_of_control", sev=Severity.high, path="Commercial/acme.txt", quote="may terminate", **kw):
    return Finding(category=cat, severity=sev, summary=kw.pop("summary", "Counterparty may terminate on a change of control."),
                   quote=quote, citation=Citation(document_id=kw.pop("doc", "d1"), document_path=path, page=2,
                                                  chunk_id="c1", char_start=10, char_end=23), verified=True, **kw)


def test_passage_escapes_document_text_and_marks_the_quote():
    text = "Intro <script>alert(1)</script> and then: the Supplier may terminate this Agreement & leave."
    start = text.index("may terminate")
    out = passage_html(text, start, start + len("may terminate"))
    assert "<script>" not in out and "&lt;script&gt;" in out
    assert "&amp; leave" in out
    assert out.count("<mark") == 1 and ">may terminate</mark>" in out


def test_passage_window_keeps_whole_words():
    text = "alpha beta gamma delta epsilon zeta eta theta"
    start = text.index("delta")
    out = passage_html(text, start, start + 5, context=8)
    assert "… " in out and " …" in out and "gamma" in out and "bet" not in out.replace("beta", "")


def test_coverage_cells_and_treemap():
    docs = [
        DocumentReview(document_id="a", path="Commercial/Supply/a.pdf", folder="Commercial/Supply", pages=3, tokens=900,
                       status="flagged", findings=2, high=1),
        DocumentReview(document_id="b", path="Corporate/b.docx", folder="Corporate", pages=1, tokens=300, status="in_review"),
        DocumentReview(document_id="c", path="broken.pdf", folder="", pages=0, tokens=0, status="failed", reason="encrypted"),
        DocumentReview(document_id="d", path="Corporate/d.txt", folder="Corporate", tokens=50, status="failed",
                       reason="review failed"),
    ]
    assert [coverage.cell_status(d) for d in docs] == ["flagged", "in review", "failed to parse", "review failed"]
    fig = coverage.treemap(docs, "sample")
    tm = fig.data[0]
    ids = list(tm.ids)
    # folders are nested: Commercial → Commercial/Supply → document
    assert tm.parents[ids.index("dir:Commercial/Supply")] == "dir:Commercial"
    assert tm.parents[ids.index("a")] == "dir:Commercial/Supply"
    assert tm.parents[ids.index("c")] == coverage.ROOT_ID
    assert tm.values[ids.index("c")] == 1  # a failed file is still visible
    assert tm.customdata[ids.index("a")][4] == 2
    sel = {"selection": {"points": [{"customdata": list(tm.customdata[ids.index("b")])}]}}
    assert coverage.selected_document(sel) == "b"
    assert coverage.selected_document({"selection": {"points": []}}) is None
    # what Streamlit reports for a treemap click (checked in a browser): the tile's id
    assert coverage.selected_document({"selection": {"points": [{"id": "a", "label": "a.pdf", "point_number": 3}]}}) == "a"
    assert coverage.selected_document({"selection": {"points": [{"id": "dir:Corporate"}]}}) is None


def test_filters_and_table():
    fs = [_finding(), _finding(cat="exclusivity", sev=Severity.low, path="Corporate/x.txt", doc="d2", quote="exclusive"),
          _finding(cat="non_compete", sev=Severity.medium, path="top.txt", doc="d3", quote="shall not compete",
                   reviewer_status=ReviewerStatus.accepted)]
    opts = fv.options(fs)
    assert opts["severities"] == ["high", "medium", "low"]
    assert opts["folders"] == ["", "Commercial", "Corporate"]
    assert [f.category for f in fv.apply(fs, fv.Filters(severities={"high", "low"}))] == ["change_of_control", "exclusivity"]
    assert [f.category for f in fv.apply(fs, fv.Filters(folders={""}))] == ["non_compete"]
    assert [f.category for f in fv.apply(fs, fv.Filters(statuses={"accepted"}))] == ["non_compete"]
    assert fv.apply(fs, fv.Filters(verified=False)) == []
    df = fv.table(fs, {"change_of_control": "Change of control"})
    assert list(df["category"])[0] == "Change of control" and list(df["id"]) == [f.id for f in fs]
    assert fv.status_after_edit(fs[0], fs[0].summary, "high") == "open"
    assert fv.status_after_edit(fs[0], "Other summary", "high") == "edited"
    assert fv.md_escape("*bold* [x](y)") == r"\*bold\* \[x\]\(y\)"


def test_exports_round_trip():
    fs = [_finding(), _finding(cat="exclusivity", sev=Severity.low, doc="d2", quote="exclusive")]
    csv = pd.read_csv(io.BytesIO(exports.findings_csv(fs)))
    assert list(csv["category"]) == ["change_of_control", "exclusivity"]
    wb = openpyxl.load_workbook(io.BytesIO(exports.findings_xlsx(fs)))
    ws = wb["Findings"]
    assert ws["B1"].value == "category" and ws["B2"].value == "change_of_control" and ws.max_row == 3
    memo = Memo(room="sample", run_id="r1", sections=[
        MemoSection(key="change_of_control", title="Change of control", text=f"- **High** — see [F:{fs[0].id}]",
                    finding_ids=[fs[0].id])])
    md = exports.memo_markdown(memo, fs).decode()
    assert "## Change of control" in md and "[Commercial/acme.txt, p. 2]" in md
    doc = Docx(io.BytesIO(exports.memo_docx(memo, fs)))
    texts = [p.text for p in doc.paragraphs]
    assert "Change of control" in texts and any("[Commercial/acme.txt, p. 2]" in t for t in texts)


def test_memo_diff_and_links():
    f = _finding()
    s = MemoSection(key="k", title="T", text="line one\nline two", finding_ids=[f.id, "missing"])
    d = memo_view.diff("line one\nline two", "line one\nline 2", "v1", "v2")
    assert "-line two" in d and "+line 2" in d
    assert memo_view.diff("a", "a", "x", "y") == "(no difference)"
    assert memo_view.linked_findings(s, {f.id: f}) == [(f.id, f"high · {f.summary} · p. 2")]


def test_room_names_and_checklist_edits(settings):
    assert rooms_view.room_name("  My Room/../x ") == "My-Room-..-x"
    assert rooms_view.room_name("../..") == "room"
    assert rooms_view.suggested_name("sample_room.zip") == "sample_room"
    items = run_view.load_room_checklist(settings, "r")
    frame = run_view.checklist_frame(items)
    frame.loc[0, "enabled"] = False
    frame.loc[0, "default_severity"] = "low"
    edited = run_view.apply_edits(items, frame)
    assert edited[0].enabled is False and edited[0].default_severity == Severity.low
    assert edited[0].severity_rules == items[0].severity_rules
    run_view.save_room_checklist(settings, "r", edited)
    assert run_view.load_room_checklist(settings, "r")[0].enabled is False
    ov = run_view.run_overrides(settings, "r", False, "http://127.0.0.1:9/v1", "sk-secret", "m1", "")
    assert ov["llm"]["base_url"] == "http://127.0.0.1:9/v1" and ov["llm"]["api_key"].get_secret_value() == "sk-secret"
    assert "sk-secret" not in repr(ov)  # a SecretStr never prints its value
    assert ov["llm"]["sub_model"] == settings.llm.sub_model
    assert ov["checklist_path"] == str(run_view.room_checklist_path(settings, "r"))
    assert run_view.run_overrides(settings, "r", True, "http://x", "k", "", "")["llm"] == {"base_url": ""}
    assert "harness" not in ov  # no date given (a resume): the run keeps the one it started with
    dated = run_view.run_overrides(settings, "r", True, "", "", "", "", date(2025, 12, 31))
    assert dated["harness"] == {"as_of": "2025-12-31"}


def test_ingest_status_of_a_dead_process_reads_as_failed(settings):
    import subprocess
    import sys

    from app.background import jobs

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    path = jobs.status_path(settings, "r")
    jobs.write_status(path, jobs.IngestStatus(room="r", pid=proc.pid, done=1, total=3).__dict__)
    st = jobs.read_status(settings, "r")
    assert not st.running and st.state == "failed" and "ended without finishing" in st.error
    assert jobs.read_status(settings, "other") is None


def test_the_review_date_reaches_the_worker_settings(settings, monkeypatch):
    from agents.run.runner import _flatten
    from core.settings import Settings

    env = _flatten(run_view.run_overrides(settings, "r", True, "", "", "", "", date(2025, 12, 31)))
    assert env["DATAROOM_HARNESS__AS_OF"] == "2025-12-31"
    monkeypatch.setenv("DATAROOM_HARNESS__AS_OF", env["DATAROOM_HARNESS__AS_OF"])
    assert Settings().harness.as_of == date(2025, 12, 31)  # what the worker process reads


def test_a_memo_version_is_labelled_with_who_saved_it():
    from datetime import datetime, timezone

    from core.types import MemoAuthor, MemoSection

    from app.views import memo_view

    at = datetime(2026, 12, 5, 9, 0, tzinfo=timezone.utc)
    edit = MemoSection(key="k", title="K", text="t", version=3, author=MemoAuthor.reviewer, editor="alice@firm.test",
                       created_at=at)
    assert memo_view.version_label(edit) == "v3 · reviewer alice@firm.test · 2026-12-05 09:00:00 UTC"
    draft = edit.model_copy(update={"author": MemoAuthor.agent, "editor": "", "version": 2})
    assert memo_view.version_label(draft) == "v2 · agent · 2026-12-05 09:00:00 UTC"


def test_the_ingest_job_never_holds_the_model_key(tmp_path):
    from app.background.jobs import ingest_env
    from core.settings import Settings

    env = ingest_env(Settings(workspace=tmp_path), {"PATH": "/usr/bin", "DATAROOM_LLM__API_KEY": "sk-x",
                                                   "DATAROOM_LLM__BASE_URL": "http://h/v1", "OPENAI_API_KEY": "sk-y",
                                                   "DATAROOM_EMBEDDING__MODEL": "hash"})
    assert env == {"PATH": "/usr/bin", "DATAROOM_EMBEDDING__MODEL": "hash", "DATAROOM_WORKSPACE": str(tmp_path.resolve())}
