"""Safe extraction: nothing escapes the room, bombs and oversize files are refused and recorded."""

from __future__ import annotations

import io
import os
import zipfile

import pytest

from core.settings import IngestSettings
from ingest.intake.intake import IntakeError, clean_path, intake

from .builders import build_room_zip


@pytest.fixture
def cfg():
    return IngestSettings(max_file_mb=1)


def _files_under(root):
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file() or p.is_symlink())


def test_zip_refusals_are_recorded_and_nothing_escapes(tmp_path, cfg):
    z = build_room_zip(tmp_path / "up" / "room.zip")
    before = _files_under(tmp_path)
    target = tmp_path / "ws" / "rooms" / "r" / "files"
    entries = {e.path: e for e in intake(z, target, cfg)}
    refused = {p: e.reason for p, e in entries.items() if e.refused}
    assert "zip-slip" in refused["../escape.txt"]
    assert "zip-slip" in refused["Bad/../../escape2.txt"]
    assert "absolute path" in refused["/etc/absolute.txt"]
    assert "symlink" in refused["Bad/link_to_passwd"]
    assert "zip bomb" in refused["Bad/bomb.txt"]
    assert "over the limit of 1 MB" in refused["Bad/big.txt"]
    # only the room folder gained files; no symlink was created anywhere
    after = _files_under(tmp_path)
    new = [p for p in after if p not in before]
    assert new and all(p.startswith("ws/rooms/r/files/") for p in new)
    assert not any(p.is_symlink() for p in tmp_path.rglob("*"))
    assert not (tmp_path / "escape.txt").exists() and not (tmp_path / "ws" / "escape.txt").exists()
    # non-UTF-8 name decoded (cp1252), duplicate name kept under a new name
    assert "Bad/Müller_Vertrag.txt" in entries and not entries["Bad/Müller_Vertrag.txt"].refused
    assert entries["Bad/dupname (2).txt"].note.startswith("renamed")
    assert (target / "Bad/dupname.txt").read_bytes() == b"first copy of the name"
    assert (target / "Bad/dupname (2).txt").read_bytes() == b"second entry with the same name"
    for e in entries.values():
        if not e.refused:
            assert os.path.realpath(e.file).startswith(os.path.realpath(target))


def test_total_size_limit_refuses_the_archive(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(3):
            zf.writestr(f"f{i}.txt", b"a" * 400_000)
    (tmp_path / "z.zip").write_bytes(buf.getvalue())
    with pytest.raises(IntakeError, match="over the limit of 1 MB; nothing was extracted"):
        intake(tmp_path / "z.zip", tmp_path / "files", IngestSettings(max_zip_total_mb=1))
    assert not (tmp_path / "files").exists() and not (tmp_path / "files.incoming").exists()


def test_too_many_entries_and_not_a_zip(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for i in range(5):
            zf.writestr(f"f{i}.txt", b"x")
    (tmp_path / "z.zip").write_bytes(buf.getvalue())
    with pytest.raises(IntakeError, match="over the limit of 3"):
        intake(tmp_path / "z.zip", tmp_path / "files", IngestSettings(max_zip_entries=3))
    (tmp_path / "n.zip").write_bytes(b"not a zip")
    with pytest.raises(IntakeError, match="n.zip is not a readable zip archive"):
        intake(tmp_path / "n.zip", tmp_path / "files", IngestSettings())


def test_folder_source_keeps_structure_refuses_symlinks(tmp_path, cfg):
    src = tmp_path / "src"
    (src / "A" / "B").mkdir(parents=True)
    (src / "A" / "B" / "deep.txt").write_text("deep file")
    (src / "top.txt").write_text("top file")
    os.symlink("/etc/passwd", src / "A" / "passwd_link")
    os.symlink(src / "A", src / "dirlink")
    (src / os.fsdecode(b"caf\xe9.txt")).write_bytes(b"latin-1 named file")
    (src / "big.bin").write_bytes(b"\0" * (1024 * 1024 + 1))
    entries = {e.path: e for e in intake(src, tmp_path / "room" / "files", cfg)}
    assert not entries["A/B/deep.txt"].refused
    assert (tmp_path / "room/files/A/B/deep.txt").read_text() == "deep file"
    assert "symlink" in entries["A/passwd_link"].reason
    assert "symlinked folder" in entries["dirlink"].reason
    assert "café.txt" in entries
    assert "over the limit" in entries["big.bin"].reason
    assert not any(p.is_symlink() for p in (tmp_path / "room").rglob("*"))


@pytest.mark.parametrize(
    "name,ok",
    [("a/b.pdf", True), ("a\\b.pdf", True), ("./a/./b.pdf", True), ("../x", False), ("a/../../x", False), ("/x", False), ("C:/x", False), ("", False)],
)
def test_clean_path(name, ok):
    rel, reason = clean_path(name)
    assert (rel is not None) == ok, reason
    if ok:
        assert rel == "a/b.pdf"
