"""Upload in a real browser: a single PDF and a zip each become a room that is selected at once with its
stages on the page; a file that is not a zip but is named .zip is refused on the page, in plain words."""

from __future__ import annotations

import shutil
import zipfile

from core.settings import ASSETS

PDF = ASSETS / "sample_room" / "Real Estate" / "Lease_Headquarters_Fresh_Pond_Parkway.pdf"
STAGE_WORDS = ("Copying the files", "Reading documents:", "Indexing the text", "Ready for review")


def _upload(ui, path) -> None:
    from selenium.webdriver.common.by import By

    ui.open()
    ui.expand("Add a data room")
    box = ui.wait().until(lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, 'input[type="file"]')), None),
                          "no file input")
    box.send_keys(str(path))
    # the room name is suggested from the file once the browser has sent it
    ui.wait().until(lambda d: ui.input("Room name").get_attribute("value"), "the upload never arrived")
    ui.wait_idle()


def _sidebar_room(ui) -> str:
    from selenium.webdriver.common.by import By

    css = 'section[data-testid="stSidebar"] input[aria-label="Data room"]'
    return ui.wait().until(lambda d: next(iter(d.find_elements(By.CSS_SELECTOR, css)), None),
                           "no room picker").get_attribute("value")


def test_a_renamed_non_zip_shows_its_error_on_the_page(ui, tmp_path):
    fake = tmp_path / "Closing Set.zip"
    shutil.copy(PDF, fake)  # a PDF under a .zip name
    _upload(ui, fake)
    ui.click("Ingest")
    ui.wait_text("Closing Set.zip is not a zip archive")
    assert "Upload the room as a real .zip" in ui.body()


def test_a_single_pdf_and_a_zip_are_selected_at_once_with_their_stages(ui, tmp_path):
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By

    _upload(ui, PDF)
    ui.click("Ingest")
    ui.wait_text("Room “Lease_Headquarters_Fresh_Pond_Parkway”", timeout=180)
    assert "Lease_Headquarters_Fresh_Pond_Parkway" in _sidebar_room(ui)
    ui.wait_text("Parsed\n1")  # the file table itself is a canvas: its metrics say the PDF was parsed
    assert "Failed / skipped\n0" in ui.body()

    room_zip = tmp_path / "Project Heron.zip"
    with zipfile.ZipFile(room_zip, "w", zipfile.ZIP_DEFLATED) as zf:
        for f in sorted(p for p in (ASSETS / "sample_room").rglob("*") if p.is_file()):
            zf.write(f, f.relative_to(ASSETS / "sample_room").as_posix())
    _upload(ui, room_zip)
    # selected at once: the picker names the new room while its ingest is still running, with its stage. A rerun the
    # upload set off can swallow the click (seen once on a slow machine: the form still there, no stage, the old room
    # selected); only then is it clicked again
    for attempt in range(3):
        ui.click("Ingest")
        try:
            ui.wait(30).until(lambda d: "Project-Heron" in _sidebar_room(ui))
            break
        except TimeoutException:
            if attempt == 2 or any(w in ui.body() for w in STAGE_WORDS):
                raise AssertionError("the new room was not selected") from None
    ui.wait().until(lambda d: any(w in ui.body() for w in STAGE_WORDS), "no ingest stage on the page")
    seen = {w for w in STAGE_WORDS if w in ui.body()}
    progress = ui.d.find_elements(By.CSS_SELECTOR, '[data-testid="stProgress"]')
    assert progress or "Room “Project-Heron”" in ui.body()
    ui.shot("ingest-stages")
    ui.wait_text("Room “Project-Heron”", timeout=300)
    ui.wait_text("Next: start a review run")
    assert seen, "a stage of the ingest was shown"
