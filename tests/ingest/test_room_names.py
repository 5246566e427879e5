"""A room name that exists is refused or explicitly added to; adding never removes or overwrites anything."""

from __future__ import annotations

import io
import zipfile

import pytest

from core.settings import Settings
from core.types import ParseStatus
from ingest.cli import main as cli_main
from ingest.intake.intake import IntakeError
from ingest.index.manifest import Manifest
from ingest.pipeline import RoomExistsError, ingest_room
from ingest.intake.rooms import room_exists

pytestmark = pytest.mark.slow

FIRST = {
    "Contracts/lease.txt": b"LEASE\n\nThe tenant pays rent monthly to the landlord.\n",
    "Contracts/nda.txt": b"NON-DISCLOSURE AGREEMENT\n\nEach party keeps the other's information confidential.\n",
    "schedule": b"Schedule 1: the premises.\n",
}


def _zip(path, files: dict[str, bytes]):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())
    return path


def _tree(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture
def hsettings(tmp_path):
    s = Settings(workspace=tmp_path / "workspace")
    s.embedding.model = "hash"
    s.ingest.workers = 1
    return s


def test_existing_name_is_refused_and_nothing_is_touched(tmp_path, hsettings):
    long = "Project Falcon - Target Co - Data Room - Commercial Contracts - Final Version - "  # 80 characters
    first = ingest_room(_zip(tmp_path / f"{long}A.zip", FIRST), "falcon", hsettings, mode="new")
    files, docs = _tree(hsettings.room_dir("falcon") / "files"), {d.id: d for d in first.documents}
    second = _zip(tmp_path / f"{long}B.zip", {"other.txt": b"A different room's only file.\n"})
    with pytest.raises(RoomExistsError, match="already exists"):
        ingest_room(second, "falcon", hsettings, mode="new")
    assert _tree(hsettings.room_dir("falcon") / "files") == files == FIRST
    assert {d.id: d for d in Manifest(hsettings, "falcon").documents()} == docs
    # the CLI refuses too, and says how to add
    assert cli_main([str(second), "--room", "falcon", "--embedding", "hash", "--workers", "1"]) == 2
    assert _tree(hsettings.room_dir("falcon") / "files") == FIRST


def test_cli_refuses_an_existing_room_by_default(tmp_path, settings, capsys):
    src = _zip(tmp_path / "deal.zip", FIRST)
    assert cli_main([str(src), "--embedding", "hash", "--workers", "1"]) == 0
    before = _tree(settings.room_dir("deal"))
    other = _zip(tmp_path / "b" / "deal.zip", {"x.txt": b"another deal's file\n"})
    assert cli_main([str(other), "--embedding", "hash", "--workers", "1"]) == 2
    assert "a room named 'deal' already exists" in capsys.readouterr().err
    assert _tree(settings.room_dir("deal")) == before


def test_adding_files_never_removes_or_overwrites(tmp_path, hsettings):
    first = ingest_room(_zip(tmp_path / "a.zip", FIRST), "deal", hsettings, mode="new")
    old_docs = {d.id: d for d in first.documents}
    added = {
        "Contracts/lease.txt": FIRST["Contracts/lease.txt"],  # the same file again: unchanged
        "Contracts/nda.txt": b"NON-DISCLOSURE AGREEMENT (amended)\n\nThe term is three years.\n",  # same name, other bytes
        "Contracts/supply.txt": b"SUPPLY AGREEMENT\n\nDeliveries are monthly.\n",  # new
        "schedule/annex.txt": b"Annex to a schedule that is a file in the room\n",  # needs 'schedule' to be a folder
        "Contracts/Thumbs.db": b"junk",
    }
    report = ingest_room(_zip(tmp_path / "b.zip", added), "deal", hsettings, mode="add")
    docs = {d.path: d for d in report.documents}
    # everything the room held is still there, with the same ids and the same bytes
    assert old_docs.keys() <= {d.id for d in report.documents}
    files = _tree(hsettings.room_dir("deal") / "files")
    assert {p: files[p] for p in FIRST} == FIRST
    assert report.removed == 0 and report.unchanged == 1
    renamed = docs["Contracts/nda (2).txt"]
    assert renamed.status == ParseStatus.parsed and "the room already has a different file of this name" in renamed.note
    assert files["Contracts/nda (2).txt"] == added["Contracts/nda.txt"]
    assert docs["Contracts/supply.txt"].status == ParseStatus.parsed
    clash = docs["schedule/annex.txt"]
    assert clash.status == ParseStatus.failed and "clashes with the file 'schedule' already in the room" in clash.reason
    assert docs["Contracts/Thumbs.db"].status == ParseStatus.skipped
    assert not (hsettings.room_dir("deal") / "files.incoming").exists()
    # adding an identical copy under another name makes it a duplicate of the room's file, not a second parse
    again = ingest_room(_zip(tmp_path / "c.zip", {"copy_of_lease.txt": FIRST["Contracts/lease.txt"]}), "deal", hsettings, mode="add")
    copy = {d.path: d for d in again.documents}["copy_of_lease.txt"]
    assert copy.status == ParseStatus.skipped and "identical to Contracts/lease.txt" in copy.reason
    assert again.parsed == 0 and len(again.documents) == len(report.documents) + 1


def test_a_refused_upload_leaves_no_room_behind(tmp_path, hsettings):
    (tmp_path / "fake.zip").write_bytes(b"%PDF-1.4 not a zip at all")
    with pytest.raises(IntakeError, match="fake.zip is not a readable zip archive"):
        ingest_room(tmp_path / "fake.zip", "fresh", hsettings, mode="new")
    assert not room_exists(hsettings, "fresh")
    report = ingest_room(_zip(tmp_path / "ok.zip", FIRST), "fresh", hsettings, mode="new")
    assert report.parsed == 3


def test_a_single_file_is_a_room(tmp_path, hsettings):
    (tmp_path / "memo.txt").write_bytes(b"MEMO\n\nThe board approved the acquisition.\n")
    report = ingest_room(tmp_path / "memo.txt", "memo", hsettings, mode="new")
    assert [(d.path, d.status) for d in report.documents] == [("memo.txt", ParseStatus.parsed)]
