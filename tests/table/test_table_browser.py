"""The review table in a real headless Chromium, on a room of real CUAD contracts: build the table, verify one
cell, correct another, and find both in the downloaded XLSX (openpyxl). Skipped without ../shared/datasets/cuad-dev."""

from __future__ import annotations

import asyncio
import shutil

import pytest
from openpyxl import load_workbook

from core.settings import REPO_ROOT, EmbeddingSettings, Settings

from agents.store import ReviewStore

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
ROOM = "cuadtable"
CONTRACTS = [
    "AtnInternationalInc_20191108_10-Q_EX-10.1_11878541_EX-10.1_Maintenance Agreement.txt",
    "ConformisInc_20191101_10-Q_EX-10.6_11861402_EX-10.6_Development Agreement.txt",
]
CORRECTED = "Corrected by counsel: the parties are those of the signature page"


def review(workspace, src) -> str:
    from agents.run.harness import run_review
    from ingest.pipeline import ingest_room

    settings = Settings(workspace=workspace, embedding=EmbeddingSettings(model="hash"))
    ingest_room(src, ROOM, settings)
    return asyncio.run(run_review(settings, ROOM))["run_id"]


def test_verify_and_correct_cells_and_find_them_in_the_xlsx(ui, tmp_path):
    from selenium.webdriver.common.keys import Keys

    src = tmp_path / "room" / "Commercial"
    src.mkdir(parents=True)
    for name in CONTRACTS:
        shutil.copy(CUAD_DIR / "txt" / name, src / name)
    run = review(ui.workspace, src.parent)
    store = ReviewStore(Settings(workspace=ui.workspace).db_path())
    docs = {r["path"].rsplit("/", 1)[-1]: r["document_id"] for r in store.run_documents(run)}
    first, second = (docs[n] for n in CONTRACTS)

    ui.open("table", f"room={ROOM}&run_id={run}")
    ui.click("Build the table")
    ui.wait_text("2 of 2 documents")
    # verify the governing law of the first contract
    ui.select("Document", CONTRACTS[0][:40])
    ui.select("Question", "Governing Law")
    ui.wait_text("Governing Law (jurisdiction)")
    ui.click("Verify")
    ui.wait().until(lambda d: (m := store.table_marks(ROOM).get((first, "cuad:Governing Law"))) and m.verified)
    ui.wait_text("Reviewer. verified")
    law = store.answers(run, first, "cuad:Governing Law")[0]
    # correct the parties of the second
    ui.select("Document", CONTRACTS[1][:40])
    ui.select("Question", "Parties")
    ui.wait_text("Parties (parties)")
    box = ui.input("Corrected answer")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(CORRECTED)
    ui.click("Save correction")
    ui.wait().until(lambda d: (m := store.table_marks(ROOM).get((second, "cuad:Parties"))) and m.corrected == CORRECTED)
    ui.wait_text(CORRECTED)
    ui.wait_text("Table activity")
    ui.d.execute_script("document.querySelector('h1').scrollIntoView({block: 'start'});")
    ui.shot("table")

    ui.click("Table (XLSX)")
    wb = load_workbook(wait_download(ui.d.downloads_dir, ".xlsx"))
    ws = wb["Answers"]
    header = [c.value for c in ws[1]]
    rows = {r[0].value.rsplit("/", 1)[-1]: dict(zip(header, r)) for r in ws.iter_rows(min_row=2)}
    verified = rows[CONTRACTS[0]]["Governing Law"]
    assert verified.value == law.display() and law.status.value == "answered"
    assert "Reviewer: verified" in verified.comment.text and law.quotes[0].text.split()[0] in verified.comment.text
    corrected = rows[CONTRACTS[1]]["Parties"]
    assert corrected.value == CORRECTED and "Reviewer: corrected" in corrected.comment.text
    cites = list(wb["Citations"].iter_rows(values_only=True))
    assert any(r[0].endswith(CONTRACTS[1]) and r[1] == "Parties" and r[3] == CORRECTED for r in cites)
