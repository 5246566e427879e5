"""One odd entry never aborts a room; identical copies and OS junk; nothing of another room is touched."""

from __future__ import annotations

import io
import zipfile

import pytest

from core.settings import IngestSettings, Settings
from core.types import ParseStatus
from ingest.intake.intake import JUNK_REASON, IntakeError, intake
from ingest.pipeline import ingest_room

pytestmark = pytest.mark.slow

LATIN1_NAME = b"Vertr\xe4ge/" + b"\xe9" * 250 + b".txt"  # a 254-byte name, 504 bytes once decoded to UTF-8
DEEP = "d/" * 2100 + "deep.txt"  # 4,208 bytes: past PATH_MAX (4,096)
LONG_NAME = "long/" + "n" * 300 + ".txt"  # one name over NAME_MAX (255)
GOOD = {
    "readme.txt": b"Index of the data room for Project Falcon.\n",
    "Contracts/supply.txt": b"SUPPLY AGREEMENT\n\nThe Supplier shall deliver the goods monthly.\n",
    "x/y.txt": b"Inside folder x, whose name is also a file entry listed before it.\n",
    "q/y.txt": b"Inside folder q, whose name is also a file entry listed after it.\n",
    "docs/a.txt": b"The visible, shallowest copy of these identical bytes.\n",
}
COPY = GOOD["docs/a.txt"]


def odd_zip(path) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("x", b"a file named like the folder after it")  # clash, file first
        for name, data in GOOD.items():
            zf.writestr(name, data)
        zf.writestr("q", b"a file named like the folder before it")  # clash, folder first
        zf.writestr("Vertr?ge/" + "?" * 250 + ".txt", b"Latin-1 named file")
        zf.writestr(DEEP, b"too deep for the file system")
        zf.writestr(LONG_NAME, b"a name over 255 bytes")
        # identical copies: hidden and deeper ones sort before the visible shallow one by plain path order
        zf.writestr(".hidden/a.txt", COPY)
        zf.writestr(".a.txt", COPY)
        zf.writestr("a/b/c/a.txt", COPY)
        # OS junk
        zf.writestr("__MACOSX/docs/._a.txt", b"\x00\x05\x16\x07 resource fork")
        zf.writestr("docs/._a.txt", b"\x00\x05\x16\x07 resource fork")
        zf.writestr("Contracts/~$supply.docx", b"owner lock file")
        zf.writestr("Contracts/Thumbs.db", b"thumbnail cache")
        zf.writestr("docs/.DS_Store", b"Bud1 finder metadata")
    # a name without the UTF-8 flag and not valid UTF-8 (Latin-1), as old Windows zip tools write them
    data = buf.getvalue().replace(b"Vertr?ge/" + b"?" * 250 + b".txt", LATIN1_NAME)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return data


def _tree(root):
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def rooms(tmp_path_factory):
    base = tmp_path_factory.mktemp("odd")
    settings = Settings(workspace=base / "workspace")
    settings.embedding.model = "hash"
    settings.ingest.workers = 1
    other_src = base / "other"
    other_src.mkdir()
    (other_src / "lease.txt").write_text("LEASE\n\nThe tenant pays rent monthly.\n")
    other = ingest_room(other_src, "other", settings)
    before = _tree(settings.room_dir("other")), {d.id: d for d in other.documents}
    odd_zip(base / "up" / "odd.zip")
    report = ingest_room(base / "up" / "odd.zip", "odd", settings)
    return settings, report, before


def test_each_odd_entry_fails_alone_and_the_rest_is_ingested(rooms):
    settings, report, _ = rooms
    docs = {d.path: d for d in report.documents}
    for path in GOOD:
        assert docs[path].status == ParseStatus.parsed, (path, docs[path].reason)
    latin = next(p for p in docs if p.startswith("Verträge/é"))
    expect = {
        "x": "both a file and a folder", "q": "both a file and a folder",
        latin: "over the file system's limit of 255 bytes", LONG_NAME: "over the file system's limit of 255 bytes",
        DEEP: "2100 folders deep",
    }
    for path, words in expect.items():
        d = docs[path]
        assert d.status == ParseStatus.failed and words in d.reason, (path[:80], d.reason)
        assert str(settings.workspace) not in d.reason and "/tmp" not in d.reason  # never a server path
    assert "'x'" in docs["x"].reason and latin[:40] in docs[latin].reason  # the reason names its entry
    files = settings.room_dir("odd") / "files"
    copies = {".hidden/a.txt": COPY, ".a.txt": COPY, "a/b/c/a.txt": COPY}  # duplicates are kept as files, not parsed
    assert _tree(files) == {**GOOD, **copies}  # nothing of the failed entries
    assert [p.name for p in settings.room_dir("odd").iterdir() if p.name.endswith(".incoming")] == []
    folders = sorted(p.relative_to(files).as_posix() for p in files.rglob("*") if p.is_dir())
    assert folders == [".hidden", "Contracts", "a", "a/b", "a/b/c", "docs", "q", "x"]  # no stray folders


def test_visible_shallowest_copy_is_the_original(rooms):
    _, report, _ = rooms
    docs = {d.path: d for d in report.documents}
    original = docs["docs/a.txt"]
    assert original.status == ParseStatus.parsed and original.duplicate_of is None
    for copy in (".hidden/a.txt", ".a.txt", "a/b/c/a.txt"):
        assert docs[copy].status == ParseStatus.skipped and docs[copy].duplicate_of == original.id, copy
        assert "identical to docs/a.txt" in docs[copy].reason


def test_os_junk_is_skipped_not_failed(rooms):
    _, report, _ = rooms
    docs = {d.path: d for d in report.documents}
    for junk in ("__MACOSX/docs/._a.txt", "docs/._a.txt", "Contracts/~$supply.docx", "Contracts/Thumbs.db", "docs/.DS_Store"):
        assert docs[junk].status == ParseStatus.skipped and docs[junk].reason == JUNK_REASON, (junk, docs[junk])


def test_another_room_is_untouched(rooms):
    settings, _, (files_before, docs_before) = rooms
    from ingest.index.manifest import Manifest

    assert _tree(settings.room_dir("other")) == files_before
    assert {d.id: d for d in Manifest(settings, "other").documents()} == docs_before


def test_junk_in_a_folder_upload(tmp_path):
    src = tmp_path / "src"
    (src / "__MACOSX").mkdir(parents=True)
    (src / "__MACOSX" / "._x.pdf").write_bytes(b"fork")
    (src / "~$draft.docx").write_bytes(b"lock")
    (src / "x.txt").write_bytes(b"text")
    entries = {e.path: e for e in intake(src, tmp_path / "files", IngestSettings())}
    assert entries["__MACOSX/._x.pdf"].reason == entries["~$draft.docx"].reason == JUNK_REASON
    assert not entries["~$draft.docx"].failed and not entries["x.txt"].refused


def test_split_zip_bomb_is_refused_before_extraction(tmp_path):
    """1,000 entries of 1 MiB of zeros: each under the per-entry check, 1 GB from about 1 MB in all."""
    mib = b"\0" * (1024 * 1024)
    with zipfile.ZipFile(tmp_path / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(1000):
            zf.writestr(f"part{i:04}.bin", mib)
    assert (tmp_path / "bomb.zip").stat().st_size < 2 * 1024 * 1024
    target = tmp_path / "room" / "files"
    with pytest.raises(IntakeError, match=r"expands 1,0\d\d times .*zip bomb; nothing was extracted"):
        intake(tmp_path / "bomb.zip", target, IngestSettings())
    assert sorted(p.name for p in (tmp_path / "room").iterdir()) == []  # no files, no staging folder


def test_archive_total_over_the_cap_is_refused(tmp_path):
    with zipfile.ZipFile(tmp_path / "big.zip", "w", zipfile.ZIP_STORED) as zf:
        for i in range(3):
            zf.writestr(f"f{i}.txt", b"a" * 400_000)
    with pytest.raises(IntakeError, match="expands to 1.1 MB, over the limit of 1 MB"):
        intake(tmp_path / "big.zip", tmp_path / "room" / "files", IngestSettings(max_zip_total_mb=1))
    assert not (tmp_path / "room" / "files").exists()


def test_compressible_small_archive_is_not_a_bomb(tmp_path):
    """A whole archive under 16 MB may compress as far as it likes (pages of spaces, empty forms)."""
    with zipfile.ZipFile(tmp_path / "forms.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(10):
            zf.writestr(f"form{i}.txt", b" " * 1_000_000)
    entries = intake(tmp_path / "forms.zip", tmp_path / "files", IngestSettings())
    assert len(entries) == 10 and not any(e.refused for e in entries)
