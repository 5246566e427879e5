"""The memo follows the reviewer, in a real headless Chromium, on a room of real CUAD contracts.

Reject one key issue, edit another's summary and severity, note a third, all on the Findings page;
then the Memo page, the downloaded DOCX and the downloaded Markdown must show the edit and the
note and must not show the rejected finding in the executive summary or the sections. A second run
on the same room carries the three decisions over and says so. Screenshots of the findings flow
and the memo go to docs/screenshots/ (the README's). Skipped without ../shared/datasets/cuad-dev.
"""

from __future__ import annotations

import asyncio
import shutil

import pytest
from docx import Document as Docx

from core.settings import REPO_ROOT, EmbeddingSettings, Settings

from agents.memo import SCHEDULE_TITLE
from agents.store import ReviewStore

from app.views import findings_view as fv
from tests.app.test_app_browser import wait_download
from tests.conftest import CUAD_DIR

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.cuad,
    pytest.mark.skipif(not (CUAD_DIR / "txt").exists(), reason="../shared/datasets/cuad-dev is not present"),
    pytest.mark.skipif(not (REPO_ROOT / "assets" / "reviewer" / "model.zip").exists(),
                       reason="offline reviewer weights (assets/reviewer/model.zip) not built yet"),
]
ROOM = "cuad3"
CONTRACTS = [
    "2ThemartComInc_19990826_10-12G_EX-10.10_6700288_EX-10.10_Co-Branding Agreement_ Agency Agreement.txt",
    "AtnInternationalInc_20191108_10-Q_EX-10.1_11878541_EX-10.1_Maintenance Agreement.txt",
    "ConformisInc_20191101_10-Q_EX-10.6_11861402_EX-10.6_Development Agreement.txt",
]
EDITED = "Edited by counsel: consent of the counterparty is needed before closing"
NOTE = "Counsel note: ask the seller for the side letter"


def nav(ui, title: str, heading: str | None = None) -> None:
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By

    def click() -> None:
        ui.retry(lambda: ui.wait().until(lambda d: next(iter(d.find_elements(
            By.XPATH, f'//a[@data-testid="stSidebarNavLink"][.//span[normalize-space(.)="{title}"]]')), None)).click())

    # a click that lands while the page is rerunning can be lost on a loaded machine: click again until the
    # page's heading shows (the heading is the page's own words, so a click that did land is never repeated)
    for _ in range(3 if heading else 1):
        click()
        if heading is None:
            return
        try:
            ui.wait_text(heading, timeout=20)
            return
        except TimeoutException:
            continue
    ui.wait_text(heading)


def review(workspace, src) -> str:
    from agents.run.harness import run_review
    from ingest.pipeline import ingest_room

    settings = Settings(workspace=workspace, embedding=EmbeddingSettings(model="hash"))
    settings.harness.as_of = None
    ingest_room(src, ROOM, settings)
    return asyncio.run(run_review(settings, ROOM))["run_id"]


def body_of(memo_text: str) -> str:
    return memo_text.split(SCHEDULE_TITLE, 1)[0]


def open_finding(ui, f, titles, short) -> None:
    ui.select("Open finding", fv.label(f, titles, short))
    ui.wait_text(f"Summary. {f.summary}")


def test_memo_follows_the_reviewers_decisions_and_they_survive_a_new_run(ui, tmp_path):
    from app.session import services

    src = tmp_path / "room" / "Commercial"
    src.mkdir(parents=True)
    for name in CONTRACTS:
        shutil.copy(CUAD_DIR / "txt" / name, src / name)
    run1 = review(ui.workspace, src.parent)
    settings = Settings(workspace=ui.workspace)
    store = ReviewStore(settings.db_path())
    titles = services.titles(settings)
    exec1 = store.memo(run1).section("executive_summary")
    issues = [store.finding(i, run1) for i in exec1.finding_ids]
    assert len(issues) >= 3, exec1.text
    rejected, edited = issues[0], issues[1]
    noted = next(f for f in store.findings(run1) if f.id not in (rejected.id, edited.id) and f.severity.value == "medium")
    assert rejected.summary in exec1.text
    short = fv.short_paths([f.citation.document_path for f in store.findings(run1)])

    ui.d.set_window_size(1366, 900)
    ui.open("", f"room={ROOM}&run_id={run1}")
    nav(ui, "Findings")
    ui.wait_text("review progress:")
    # reject the first key issue
    open_finding(ui, rejected, titles, short)
    ui.click_until("Reject", "1 rejected")
    # edit the second one's summary and severity
    open_finding(ui, edited, titles, short)
    ui.replace_text("Summary", EDITED, tag="textarea")
    ui.select("Severity", "medium" if edited.severity.value != "medium" else "low")
    ui.click("Save edit")
    ui.wait_text("1 edited")
    new_severity = store.finding(edited.id, run1).severity.value
    assert new_severity != edited.severity.value and store.finding(edited.id, run1).summary == EDITED
    # a note on a third
    open_finding(ui, noted, titles, short)
    ui.replace_text("Note", NOTE)
    ui.click("Save edit")
    ui.wait().until(lambda d: store.finding(noted.id, run1).reviewer_note == NOTE)
    ui.shot("findings")

    # The memo page: the edit and the note are in, the rejected finding is out.
    nav(ui, "Memo", "Diligence memo")
    ui.wait_text(EDITED)
    ui.wait_text(NOTE)
    page = ui.body()
    assert f"{new_severity.capitalize()} — {EDITED}" in page  # its section states the new severity
    assert rejected.quote[:60] not in page and rejected.summary not in body_of(page).split("Key issues", 1)[1]
    ui.d.execute_script("""const h = [...document.querySelectorAll('h3, h2')].find(e => e.textContent.includes(
        'Executive summary')); if (h) h.scrollIntoView({block: 'start'});""")
    ui.shot("memo")

    # The downloads carry the same state.
    ui.click("Memo (DOCX)")
    doc = Docx(str(wait_download(ui.d.downloads_dir, ".docx")))
    paras = "\n".join([p.text for p in doc.paragraphs] + [c.text for t in doc.tables for r in t.rows for c in r.cells])
    ui.click("Memo (Markdown)")
    md = wait_download(ui.d.downloads_dir, ".md").read_text(encoding="utf-8")
    for text in (paras, md):
        body = body_of(text)
        assert EDITED in body and NOTE in body
        assert rejected.quote[:60] not in text and rejected.id not in text
        assert rejected.summary not in body.split("Key issues", 1)[1].split("Consents and notices", 1)[0]
    assert f"**{new_severity.capitalize()}** — Edited by counsel" in md

    # A second run on the room: every decision is carried over, and the page says so.
    nav(ui, "Review run")
    ui.click("Start new run")
    ui.wait().until(lambda d: len(store.runs(ROOM)) == 2, "the second run never started")
    run2 = store.runs(ROOM)[0].id
    ui.wait().until(lambda d: store.run(run2).status in ("finished", "failed"), "the second run never finished")
    assert store.run(run2).status == "finished"
    by_span = {(f.citation.document_id, f.citation.char_start): f for f in store.findings(run2)}
    for before, status in ((rejected, "rejected"), (edited, "edited"), (noted, "open")):
        after = by_span[(before.citation.document_id, before.citation.char_start)]
        assert after.reviewer_status.value == status and after.extra["carried_from"] == run1
    assert by_span[(edited.citation.document_id, edited.citation.char_start)].summary == EDITED
    assert by_span[(noted.citation.document_id, noted.citation.char_start)].reviewer_note == NOTE
    memo2 = "\n".join(s.text for s in store.memo(run2).sections)
    assert EDITED in memo2 and NOTE in memo2 and rejected.quote[:60] not in memo2
    ui.open("", f"room={ROOM}&run_id={run2}")
    nav(ui, "Findings")
    ui.wait_text("review progress:")
    open_finding(ui, by_span[(noted.citation.document_id, noted.citation.char_start)], titles, short)
    ui.wait_text("carried over")
