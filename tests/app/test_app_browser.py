"""End to end in a real headless Chromium: upload the sample room, ingest, run offline,
review findings, edit the memo, download the DOCX, reload, and find it all still there.
Screenshots of each page go to docs/screenshots/."""

from __future__ import annotations

import sys
import time
import zipfile

import pytest
from docx import Document as Docx

from core.settings import REPO_ROOT, Settings

from agents.store import ReviewStore

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not (REPO_ROOT / "assets" / "reviewer" / "model.zip").exists(),
                       reason="offline reviewer weights (assets/reviewer/model.zip) not built yet"),
]
SAMPLE = REPO_ROOT / "assets" / "sample_room"
NOTE = "Reviewer note: consent strategy agreed with the client."


def zip_sample(dest):
    path = dest / "sample_room.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(SAMPLE.rglob("*")):
            if f.is_file():
                z.write(f, f.relative_to(SAMPLE).as_posix())
    return path


def wait_download(folder, suffix: str, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = [p for p in folder.iterdir() if p.name.endswith(suffix)]
        if done:
            return done[0]
        time.sleep(0.25)  # the browser writes the file; polling the folder is the only signal
    raise TimeoutError(f"no {suffix} downloaded into {folder}")


def nav(ui, title: str) -> None:
    from selenium.webdriver.common.by import By

    link = ui.wait().until(lambda d: next(iter(d.find_elements(
        By.XPATH, f'//a[@data-testid="stSidebarNavLink"][.//span[normalize-space(.)="{title}"]]')), None))
    link.click()


def test_end_to_end_in_browser(ui, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    browser = ui.d
    ui.open()
    ui.wait_text("Upload a zip of the data room")

    # Data rooms: upload the zip, name the room, ingest, watch it finish.
    upload = ui.wait().until(lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, 'input[type="file"]')), None))
    upload.send_keys(str(zip_sample(tmp_path)))
    ui.wait().until(lambda d: ui.input("Room name").get_attribute("value") == "sample_room")
    name = ui.input("Room name")
    name.send_keys(Keys.CONTROL, "a")
    name.send_keys("sample", Keys.TAB)
    ui.wait().until(lambda d: ui.input("Room name").get_attribute("value") == "sample")
    ui.click("Ingest")
    t0 = time.monotonic()
    ui.wait_text("Next: start a review run", timeout=240)
    print(f"ingest {time.monotonic() - t0:.0f}s", file=sys.stderr)
    body = ui.body()
    assert "Room “sample”" in body and "not parsed — reasons" in body
    ui.shot("data-rooms")

    # Review run: start the offline reviewer and watch coverage reach 100 %.
    nav(ui, "Review run")
    ui.click("Start new run")
    t0 = time.monotonic()
    ui.wait_text("· finished ·", timeout=240)
    print(f"run {time.monotonic() - t0:.0f}s", file=sys.stderr)
    ui.wait_text("100%")
    settings = Settings(workspace=ui.workspace)
    store = ReviewStore(settings.db_path())
    run = store.runs("sample")[0]
    cov = store.coverage(run.id)
    assert cov.documents_reviewed == cov.documents_total > 0
    assert f"{cov.documents_total}/{cov.documents_total}" in ui.body()
    ui.shot("review-run")

    # Findings: accept one, reject another; both are persisted with author and time.
    nav(ui, "Findings")
    ui.wait_text("review progress:")
    ui.choose("Open finding", 0)
    ui.click_until("Accept", "1 accepted")
    ui.wait_text("Activity log")
    ui.choose("Open finding", 1)
    ui.click_until("Reject", "1 rejected")
    statuses = sorted(f.reviewer_status.value for f in store.findings(run.id) if f.reviewer_status.value != "open")
    assert statuses == ["accepted", "rejected"]
    # the reviewer's two decisions, beside the harness's own regrades of expired provisions (agent:lifecycle)
    assert [a.author for a in store.actions(run.id) if not a.author.startswith("agent:")] == [settings.app.author] * 2
    ui.shot("findings")

    # Memo: edit the first section; the edit is saved as a reviewer version.
    nav(ui, "Memo")
    ui.wait_text("Diligence memo")
    ui.expand("Edit section")
    def append_note():
        box = ui.input("Markdown", tag="textarea")
        ui._click(box)  # raises while the expander is still opening; retried
        box.send_keys(Keys.CONTROL, Keys.END)
        box.send_keys(Keys.ENTER, Keys.ENTER, NOTE)

    ui.retry(append_note)
    ui.click("Save")
    ui.wait_text(f"reviewer edit by {settings.app.author}")  # the version says who saved it
    edited = ui.wait().until(lambda d: [s for s in store.memo(run.id).sections if s.author.value == "reviewer"])
    assert len(edited) == 1 and edited[0].text.endswith(NOTE) and edited[0].editor == settings.app.author
    ui.wait_text(NOTE)
    ui.shot("memo")

    # DOCX download, checked with python-docx.
    ui.click("Memo (DOCX)")
    docx_path = wait_download(browser.downloads_dir, ".docx")
    doc = Docx(str(docx_path))
    paras = [p.text for p in doc.paragraphs]
    assert paras[0] == "Due diligence memo — sample"
    assert any(NOTE in p for p in paras)
    assert edited[0].title in paras

    # Trace.
    nav(ui, "Trace")
    ui.wait_text("Agent tree")
    ui.wait_text("Root trajectory")
    ui.shot("trace")

    # Reload each page: everything is still there (room and run come back from the URL).
    nav(ui, "Findings")
    ui.wait_text("review progress:")
    ui.wait().until(lambda d: "run_id=" in d.current_url, "the run id never reached the URL")
    browser.refresh()
    ui.wait_text("1 accepted · 1 rejected")
    nav(ui, "Memo")
    ui.wait_text(NOTE)
    ui.wait().until(lambda d: "run_id=" in d.current_url, "the run id never reached the URL")
    browser.refresh()
    ui.wait_text(NOTE)
    ui.wait_text("reviewer edit")
    nav(ui, "Review run")
    ui.wait_text("· finished ·")
    ui.wait().until(lambda d: "run_id=" in d.current_url, "the run id never reached the URL")
    browser.refresh()
    ui.wait_text("· finished ·")
    ui.wait_text(f"{cov.documents_total}/{cov.documents_total}")
