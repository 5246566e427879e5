"""Upload: distinct names for distinct uploads, errors in plain words at once, documents as well as zips,
the new room selected at once, and an existing room only ever added to."""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from streamlit.testing.v1 import AppTest

from core.settings import REPO_ROOT

from app.views import rooms_view

MAIN = str(REPO_ROOT / "app" / "main.py")
LEASE = b"LEASE AGREEMENT\n\nThe tenant shall pay the rent monthly in advance.\n"
NDA = b"NON-DISCLOSURE AGREEMENT\n\nEach party shall keep the other's information confidential.\n"


def _zip(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_long_names_that_differ_late_stay_distinct():
    stem = "Project Falcon - Target Co - Data Room - Commercial Contracts - Final"  # 68 characters
    a, b = rooms_view.suggested_name(f"{stem} A.zip"), rooms_view.suggested_name(f"{stem} B.zip")
    assert a != b and a.endswith("A") and b.endswith("B")
    longer = "x" * 150
    c, d = rooms_view.room_name(longer + "1"), rooms_view.room_name(longer + "2")
    assert c != d and len(c) == len(d) == rooms_view.MAX_ROOM_NAME
    assert rooms_view.suggested_name("deal.zip", {"deal", "deal-2"}) == "deal-3"


def test_upload_checks_say_what_is_wrong_in_plain_words(settings):
    with pytest.raises(rooms_view.UploadRefused, match="report.zip is not a zip archive"):
        rooms_view.check_upload(settings, [("report.zip", b"%PDF-1.4 a PDF renamed .zip")])
    with pytest.raises(rooms_view.UploadRefused, match="either one zip of the room or documents"):
        rooms_view.check_upload(settings, [("a.zip", _zip({"x.txt": b"x"})), ("b.pdf", b"%PDF")])
    bomb = io.BytesIO()
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(40):
            zf.writestr(f"part{i}.bin", b"\0" * (1024 * 1024))
    with pytest.raises(rooms_view.UploadRefused, match="zip bomb"):
        rooms_view.check_upload(settings, [("bomb.zip", bomb.getvalue())])
    rooms_view.check_upload(settings, [("lease.txt", LEASE), ("nda.txt", NDA)])  # documents are fine


def test_documents_are_staged_as_one_zip(settings):
    path = rooms_view.stage_upload(settings, "deal", [("lease.txt", LEASE), ("C:\\Users\\me\\nda.txt", NDA)])
    with zipfile.ZipFile(path) as zf:
        assert sorted(zf.namelist()) == ["lease.txt", "nda.txt"]
        assert zf.read("nda.txt") == NDA


def test_an_existing_room_is_only_added_to_when_asked(settings):
    from ingest.pipeline import ingest_room

    assert rooms_view.ingest_mode(settings, "deal", add=False) == "new"
    src = settings.workspace.parent / "src"
    src.mkdir(parents=True)
    (src / "lease.txt").write_bytes(LEASE)
    ingest_room(src, "deal", settings)
    with pytest.raises(rooms_view.UploadRefused, match="already exists"):
        rooms_view.ingest_mode(settings, "deal", add=False)
    assert rooms_view.ingest_mode(settings, "deal", add=True) == "add"


def _app() -> AppTest:
    return AppTest.from_file(MAIN, default_timeout=60)


def _ingest_button(at):
    return next(b for b in at.button if b.label == "Ingest")


def _wait_ingest(at, timeout: float = 180):
    deadline = time.monotonic() + timeout
    while at.get("progress") and time.monotonic() < deadline:
        time.sleep(0.2)  # the ingest process reports through its status file
        at.run()


def test_a_renamed_non_zip_is_refused_on_the_page_at_once(settings):
    at = _app().run()
    at.file_uploader[0].set_value(("contract.zip", b"%PDF-1.4 not a zip archive", "application/zip"))
    at.run()
    _ingest_button(at).click()
    at.run()  # the same run that handled the click shows the error; no job was started
    assert not at.exception
    assert at.error and "contract.zip is not a zip archive" in at.error[0].value
    assert not (settings.workspace / "jobs").exists()


def test_single_document_becomes_a_room_selected_at_once_then_added_to(settings):
    at = _app().run()
    at.file_uploader[0].set_value(("Lease 2024.txt", LEASE, "text/plain"))
    at.run()
    assert next(t for t in at.text_input if t.label == "Room name").value == "Lease-2024"
    _ingest_button(at).click()
    at.run()
    assert at.session_state["room"] == "Lease-2024"  # selected before its ingest has finished
    _wait_ingest(at)
    assert not at.exception and at.session_state["room"] == "Lease-2024"
    table = next(d for d in at.dataframe if "file" in d.value.columns).value
    assert table.set_index("file").loc["Lease 2024.txt", "status"] == "parsed"
    # the same name again: refused unless the box to add is ticked; adding keeps the room's file
    at.file_uploader[0].set_value([("Lease 2024.txt", LEASE + b"Amended.\n", "text/plain"), ("nda.txt", NDA, "text/plain")])
    at.run()
    next(t for t in at.text_input if t.label == "Room name").set_value("Lease-2024")
    at.run()
    _ingest_button(at).click()
    at.run()
    assert at.error and "already exists" in at.error[0].value
    at.checkbox[0].check()
    at.run()
    _ingest_button(at).click()
    at.run()
    _wait_ingest(at)
    assert not at.exception
    table = next(d for d in at.dataframe if "file" in d.value.columns).value.set_index("file")
    assert set(table.index) == {"Lease 2024.txt", "Lease 2024 (2).txt", "nda.txt"}
    assert (table["status"] == "parsed").all()
    files = settings.room_dir("Lease-2024") / "files"
    assert (files / "Lease 2024.txt").read_bytes() == LEASE


def test_stage_words_and_an_interrupted_embedding_resumes_from_the_page(settings):
    from app.background import jobs
    from ingest.index.manifest import Manifest
    from ingest.pipeline import ingest_room

    job = jobs.IngestStatus(room="r", stage="parsing", stage_done=4, stage_total=31, eta_s=41.0)
    assert rooms_view.stage_line(job) == (4 / 31, "Reading documents: 4 of 31 · about 40 s left (estimate)")
    job.stage, job.stage_done, job.stage_total, job.eta_s = "embedding", 64, 275, 130.0
    frac, line = rooms_view.stage_line(job)
    assert line.startswith("Ready for review.") and "64 of 275 passages" in line and "about 2 min left (estimate)" in line
    assert rooms_view.stage_line(jobs.IngestStatus(room="r"))[1] == "Copying the files…"
    # a room left reviewable with no vectors (as a crash while embedding leaves it): opening its page resumes it
    src = settings.workspace.parent / "src"
    src.mkdir(parents=True)
    (src / "lease.txt").write_bytes(LEASE)
    (src / "nda.txt").write_bytes(NDA)
    report = ingest_room(src, "deal", settings, embed=False)
    assert report.pending_chunks > 0 and rooms_view.reviewable(settings, "deal")
    at = _app()
    at.session_state["room"] = "deal"
    at.switch_page("pages/rooms.py").run()
    assert not at.exception
    assert jobs.read_status(settings, "deal") is not None  # the page started the embedding job
    deadline = time.monotonic() + 180
    while Manifest(settings, "deal").stage() != "embedded" and time.monotonic() < deadline:
        time.sleep(0.5)
    assert Manifest(settings, "deal").embedding_counts() == (report.chunks, report.chunks)
    assert jobs.resume_embedding(settings, "deal") is None  # nothing left: no second job
