"""AppTest of every page on a temporary workspace with the real ingest, store and harness.

A small room (text, markdown, HTML contracts from the sample room plus one
broken PDF) is ingested and reviewed offline once per session; each test gets
its own copy of that workspace.
"""

from __future__ import annotations

import asyncio
import json
import io
import shutil
import time
import zipfile
from datetime import date

import pytest
from streamlit.testing.v1 import AppTest

from core.settings import REPO_ROOT, EmbeddingSettings, Settings

from agents.store import ReviewStore

SAMPLE = REPO_ROOT / "assets" / "sample_room"
# The offline reviewer's weights are built by scripts/train_reviewer.py; without them no run can finish.
needs_reviewer = pytest.mark.skipif(not (REPO_ROOT / "assets" / "reviewer" / "model.zip").exists(),
                                    reason="offline reviewer weights (assets/reviewer/model.zip) not built yet")
MAIN = str(REPO_ROOT / "app" / "main.py")
ROOM = "mini"
MINI_FILES = [
    "IP/Licences/Patent_Licence_Harrowgate_University.txt",
    "Corporate/NDAs/Mutual_NDA_Bellweather_Instruments.txt",
    "Corporate/Board_Minutes_2025-09-18.md",
    "Commercial/Customers/Supply_Agreement_Westmark_Foods_2019.txt",
    "Commercial/Customers/Customer_Agreement_Pelham_Retail.html",
    "Employment/Retention_Bonus_Letter_P_Natarajan.txt",
]


def mini_room(dest):
    for rel in MINI_FILES:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE / rel, dest / rel)
    (dest / "Finance").mkdir(exist_ok=True)
    (dest / "Finance" / "corrupt.pdf").write_bytes(b"%PDF-1.4\nthis is not really a pdf\n")
    return dest


def mini_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for rel in MINI_FILES:
            z.write(SAMPLE / rel, rel)
        z.writestr("Finance/corrupt.pdf", b"%PDF-1.4\nthis is not really a pdf\n")
    return buf.getvalue()


@pytest.fixture(scope="session")
def reviewed_workspace(tmp_path_factory):
    """Ingest the mini room and run the offline review once; returns (workspace, run id)."""
    from agents.run.harness import run_review
    from ingest.pipeline import ingest_room

    ws = tmp_path_factory.mktemp("reviewed") / "workspace"
    s = Settings(workspace=ws, embedding=EmbeddingSettings(model="hash"))
    src = mini_room(tmp_path_factory.mktemp("src"))
    ingest_room(src, ROOM, s)
    stats = asyncio.run(run_review(s, ROOM))
    return ws, stats["run_id"]


@pytest.fixture
def reviewed(reviewed_workspace, _workspace, settings):
    ws, run_id = reviewed_workspace
    shutil.copytree(ws, _workspace, dirs_exist_ok=True)
    return settings, run_id


def app(room=None, run_id=None) -> AppTest:
    at = AppTest.from_file(MAIN, default_timeout=60)
    if room:
        at.session_state["room"] = room
    if run_id:
        at.session_state["run_id"] = run_id
    return at


def texts(at) -> str:
    parts = [e.value for kind in ("markdown", "info", "caption", "error", "warning", "title", "subheader")
             for e in getattr(at, kind)]
    return "\n".join(str(p) for p in parts)


def test_rooms_empty_state_says_what_to_do(settings):
    at = app().run()
    assert not at.exception
    assert "No data room yet" in texts(at)
    assert [p.label for p in at.radio] == ["Source"]


def test_rooms_upload_zip_ingests_with_failed_reasons(settings):
    at = app().run()
    at.file_uploader[0].set_value(("mini.zip", mini_zip(), "application/zip"))
    at.run()
    name = next(t for t in at.text_input if t.label == "Room name")
    assert name.value == "mini"
    next(b for b in at.button if b.label == "Ingest").click()
    at.run()
    saw_progress = bool(at.get("progress"))
    deadline = time.monotonic() + 120
    # The ingest process reports to a status file; each run() redraws from it and the manifest.
    while at.get("progress") and time.monotonic() < deadline:
        time.sleep(0.2)
        at.run()
    assert saw_progress and not at.get("progress")
    assert not at.exception
    body = texts(at)
    assert "Room “mini”" in body
    table = next(d for d in at.dataframe if "file" in d.value.columns).value
    assert set(table["file"]) >= {"Corporate/Board_Minutes_2025-09-18.md", "Finance/corrupt.pdf"}
    assert table.set_index("file").loc["Finance/corrupt.pdf", "status"] == "failed"
    assert "Finance/corrupt.pdf** (failed): corrupt PDF" in body  # listed with its reason
    assert at.session_state["room"] == "mini"


@needs_reviewer
def test_run_page_offline_run_reaches_full_coverage(settings):
    from ingest.pipeline import ingest_room

    ingest_room(mini_room(settings.workspace.parent / "src"), ROOM, settings)
    at = app(room=ROOM).run()
    at.switch_page("pages/run.py").run()
    assert not at.exception
    assert "No run yet" in texts(at)
    next(d for d in at.date_input if d.label == "Review as of").set_value(date(2025, 12, 31))
    next(b for b in at.button if b.label == "Start new run").click()
    at.run()
    run_id = at.session_state["run_id"]
    # the worker's environment, as kept for a resume
    assert json.loads((settings.run_dir(run_id) / "overrides.json").read_text())["DATAROOM_HARNESS__AS_OF"] == "2025-12-31"
    store = ReviewStore(settings.db_path())
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        run = store.run(run_id)
        if run is not None and run.status not in ("starting", "running", "stopping"):
            break
        time.sleep(0.5)  # waiting on a separate worker process; the store is the only signal
    assert store.run(run_id).status == "finished", (settings.run_dir(run_id) / "worker.log").read_text()[-3000:]
    at.run()
    assert not at.exception
    metrics = {m.label: m.value for m in at.metric}
    cov = store.coverage(run_id)
    assert metrics["Documents covered"] == f"{cov.documents_total}/{cov.documents_total}"
    assert metrics["Failed to parse"] == "1"
    assert any(c.type == "plotly_chart" for c in at.main.children.values()) or at.get("plotly_chart")


@needs_reviewer
def test_findings_page_accept_reject_edit_and_log(reviewed):
    settings, run_id = reviewed
    store = ReviewStore(settings.db_path())
    findings = store.findings(run_id)
    assert len(findings) >= 2
    at = app(ROOM, run_id).run()
    at.switch_page("pages/findings.py").run()
    assert not at.exception
    # before the reviewer acts the log holds at most the harness's own regrades (agent:lifecycle)
    assert "No reviewer actions yet" in texts(at) or all(a.author.startswith("agent:") for a in store.actions(run_id))
    pick = next(s for s in at.selectbox if s.label == "Open finding")
    pick.set_value(findings[0].id).run()
    assert any("<mark" in h.value for h in at.get("html"))
    next(b for b in at.button if b.label == "Accept").click().run()
    pick = next(s for s in at.selectbox if s.label == "Open finding")
    pick.set_value(findings[1].id).run()
    next(b for b in at.button if b.label == "Reject").click().run()
    assert store.finding(findings[0].id, run_id).reviewer_status.value == "accepted"
    assert store.finding(findings[1].id, run_id).reviewer_status.value == "rejected"
    at.text_area[0].set_value("Edited summary by the reviewer.")
    next(t for t in at.text_input if t.label == "Note").set_value("Check with the client.")
    next(s for s in at.selectbox if s.label == "Severity").set_value("low")
    next(b for b in at.button if b.label == "Save edit").click().run()
    f1 = store.finding(findings[1].id, run_id)
    assert (f1.reviewer_status.value, f1.summary, f1.severity.value, f1.reviewer_note) == (
        "edited", "Edited summary by the reviewer.", "low", "Check with the client.")
    log = next(d for d in at.dataframe if "author" in d.value.columns).value
    mine = log[~log["author"].str.startswith("agent:")]  # the harness's lifecycle regrades are logged too
    assert list(mine["action"]) == ["edited", "rejected", "accepted"]
    assert set(mine["author"]) == {settings.app.author}
    labels = [d.label for d in at.get("download_button")]
    assert "Findings (XLSX)" in labels and "Findings (CSV)" in labels
    # filters narrow the table
    next(m for m in at.multiselect if m.label == "Reviewer status").set_value(["accepted"]).run()
    table = next(d for d in at.dataframe if "summary" in d.value.columns).value
    assert list(table["id"]) == [findings[0].id]


@needs_reviewer
def test_memo_page_edit_versions_restore(reviewed):
    settings, run_id = reviewed
    store = ReviewStore(settings.db_path())
    memo = store.memo(run_id)
    assert memo.sections
    first = memo.sections[0]
    at = app(ROOM, run_id).run()
    at.switch_page("pages/memo.py").run()
    assert not at.exception
    assert first.title in texts(at)
    editor = next(t for t in at.text_area if t.key == f"edit_{first.key}_v{first.version}")
    editor.set_value(first.text + "\n\nReviewer: confirmed with the seller.").run()
    current = store.memo(run_id).section(first.key)
    assert current.author.value == "reviewer" and current.text.endswith("confirmed with the seller.")
    assert "confirmed with the seller." in texts(at)
    versions = next(s for s in at.selectbox if s.key == f"ver_{first.key}_v{current.version}")
    assert versions.value.version == first.version
    assert any("+Reviewer: confirmed with the seller." in c.value for c in at.code)
    next(b for b in at.button if b.label == f"Restore v{first.version}").click().run()
    restored = store.memo(run_id).section(first.key)
    assert restored.text == first.text and restored.version == current.version + 1
    labels = [d.label for d in at.get("download_button")]
    assert "Memo (DOCX)" in labels and "Memo (Markdown)" in labels


@needs_reviewer
def test_memo_and_findings_pages_refuse_a_stale_save_and_say_who_saved_meanwhile(reviewed):
    """A colleague saves the section (or decides the finding) while this reviewer has the old version open:
    this reviewer's save is refused with the colleague's name, and the colleague's version is what is kept."""
    settings, run_id = reviewed
    store = ReviewStore(settings.db_path())
    first = store.memo(run_id).sections[0]
    at = app(ROOM, run_id).run()
    at.switch_page("pages/memo.py").run()
    editor = next(t for t in at.text_area if t.key == f"edit_{first.key}_v{first.version}")
    store.save_reviewer_edit(run_id, first.key, "Alice's text.", "alice@firm.example", expected_version=first.version)
    editor.set_value("Bob's text.").run()
    assert not at.exception
    assert store.memo(run_id).section(first.key).text == "Alice's text."
    shown = " ".join(h.value for h in at.get("html"))
    assert "alice@firm.example saved this section while you were editing; reload to see their version" in shown
    assert any(c.value == "Bob's text." for c in at.code)  # offered to copy, not lost
    assert any(t.key == f"edit_{first.key}_v{first.version + 1}" and t.value == "Alice's text." for t in at.text_area)

    f = store.findings(run_id)[0]
    at.switch_page("pages/findings.py").run()
    next(s for s in at.selectbox if s.label == "Open finding").set_value(f.id).run()
    store.set_finding_review(f.id, "rejected", "not material", "alice@firm.example", run_id=run_id)
    next(b for b in at.button if b.label == "Accept").click().run()
    assert not at.exception
    assert store.finding(f.id, run_id).reviewer_status.value == "rejected"
    shown = " ".join(h.value for h in at.get("html"))
    assert "alice@firm.example saved this finding while you were editing; reload to see their version" in shown
    next(b for b in at.button if b.label == "Accept").click().run()  # now over the version shown: saved
    assert store.finding(f.id, run_id).reviewer_status.value == "accepted"
    assert [a.author for a in store.actions(run_id) if a.finding_id == f.id][-2:] == [
        "alice@firm.example", settings.app.author]


@needs_reviewer
def test_trace_page_shows_agent_tree_and_root_steps(reviewed):
    settings, run_id = reviewed
    at = app(ROOM, run_id).run()
    at.switch_page("pages/trace.py").run()
    assert not at.exception
    tree = next(d for d in at.dataframe if "agent" in d.value.columns).value
    assert len(tree) >= 1 and (tree["status"].str.contains("done")).all()
    steps = next(d for d in at.dataframe if "step" in d.value.columns).value
    assert len(steps) >= 2
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["Run status"] == "finished"


def test_pages_without_a_run_say_what_to_do(settings):
    from ingest.pipeline import ingest_room

    ingest_room(mini_room(settings.workspace.parent / "src"), ROOM, settings)
    for page in ("pages/findings.py", "pages/memo.py", "pages/trace.py"):
        at = app(room=ROOM).run()
        at.switch_page(page).run()
        assert not at.exception, page
        assert "No review run for" in texts(at), page


def test_rooms_bad_zip_shows_the_reason(settings):
    at = app().run()
    at.file_uploader[0].set_value(("broken.zip", b"this is not a zip archive", "application/zip"))
    at.run()
    next(b for b in at.button if b.label == "Ingest").click()
    at.run()
    deadline = time.monotonic() + 60
    while not at.error and time.monotonic() < deadline:
        time.sleep(0.2)  # the ingest process reports through its status file
        at.run()
    assert not at.exception
    assert at.error and "Ingest of broken failed" in at.error[0].value
