"""Safe intake: copy a folder, a single file or a zip's entries into workspace/rooms/<room>/files.

Nothing is ever written outside the target folder: every entry's target is
resolved and checked to lie inside it, and entries that try otherwise
(zip-slip, absolute paths, symlinks) are refused and recorded, never
followed. Zip bombs are refused per entry by compression ratio, and as a
whole archive by total size and total ratio before anything is extracted;
extraction stops at the declared size even if a header lies.

One odd entry never aborts the upload: a name the file system cannot hold, a
path too deep for it, a file and a folder of the same name, or a write that
fails becomes that entry's refusal, with a reason that names the entry by its
room-relative path (never a server path). Only a problem with the whole
upload (not a zip, too many entries, a bomb) raises IntakeError. The upload is
laid out in a staging folder that never outlives the call.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from pydantic import BaseModel, Field

from core.settings import IngestSettings

from .entry_names import (  # noqa: F401  (decode_zip_name, decode_fs_name, original_rank: this module's API too)
    JUNK_REASON, FsLimits, Names, clashes, clean_path, decode_fs_name, decode_zip_name, is_junk, original_rank, shown,
)

MB = 1024 * 1024
# Small files legitimately compress far past any ratio limit (a page of
# spaces); a bomb is only a bomb once it is big.
BOMB_MIN_BYTES = 1 * MB
# The same holds for a whole archive of small files, but 1,000 entries of 1 MiB of zeros are 1 GB from 1 MB: over
# this total the archive's ratio (all uncompressed / all compressed) must be within the limit too.
ARCHIVE_BOMB_MIN_BYTES = 16 * MB
_COPY_BUF = 1024 * 1024


class IntakeError(ValueError):
    """The whole upload is refused (not a zip, too many entries, a zip bomb)."""


class IntakeEntry(BaseModel):
    """One input file as found in the upload."""

    path: str = Field(description="Room-relative '/'-separated path after sanitising.")
    file: str | None = Field(None, description="Absolute path of the written copy; None when refused.")
    size_bytes: int = Field(0, description="Size (declared size for a refused zip entry).")
    sha256: str = Field("", description="Hash of the bytes written; empty when refused.")
    refused: bool = Field(False, description="True when the entry was not written.")
    failed: bool = Field(
        False,
        description="For a refused entry: True when it is a file of the room that could not be taken (name too long "
        "for the file system, clashing paths, unreadable); False when it is left out by policy (junk, link, size).",
    )
    reason: str = Field("", description="Why it was refused.")
    note: str = Field("", description="E.g. renamed because of a duplicate or undecodable name.")



def _inside(root: Path, rel: str) -> Path:
    target = (root / rel).resolve()
    if not target.is_relative_to(root.resolve()):
        raise IntakeError(f"{rel!r} resolves outside the room")  # guarded by clean_path; belt and braces
    return target


class _Overflow(Exception):
    pass


def _copy_stream(src, dst: Path, limit: int) -> tuple[int, str]:
    h = hashlib.sha256()
    n = 0
    dst.parent.mkdir(parents=True, exist_ok=True)
    with dst.open("wb") as out:
        while True:
            buf = src.read(_COPY_BUF)
            if not buf:
                break
            n += len(buf)
            if n > limit:
                raise _Overflow(f"entry expands past its declared size ({limit} bytes)")
            h.update(buf)
            out.write(buf)
    return n, h.hexdigest()


@dataclass
class _Item:
    """An entry that passed the checks on its name and size, waiting to be written."""

    rel: str
    note: str
    size: int
    open: Callable[[], BinaryIO]
    limit: int
    source: Path | None = None  # a folder's file: its times are copied too


def _failed(rel: str, size: int, reason: str, note: str = "") -> IntakeEntry:
    return IntakeEntry(path=rel, size_bytes=size, refused=True, failed=True, reason=reason, note=note)


def _write_all(items: list[_Item], root: Path) -> list[IntakeEntry]:
    """Write each item below root; an item that cannot be written is failed alone."""
    limits = FsLimits(root)
    clash = clashes([it.rel for it in items])
    out: list[IntakeEntry] = []
    for it in items:
        problem = clash.get(it.rel) or limits.problem(it.rel)
        if problem:
            out.append(_failed(it.rel, it.size, problem, it.note))
            continue
        dst = _inside(root, it.rel)
        try:
            with it.open() as src:
                size, digest = _copy_stream(src, dst, it.limit)
            if it.source is not None:
                shutil.copystat(it.source, dst, follow_symlinks=False)
        except (zipfile.BadZipFile, zlib.error, EOFError, _Overflow, NotImplementedError) as e:
            _discard(dst)
            out.append(_failed(it.rel, it.size, f"corrupt zip entry {shown(it.rel)!r}: {e}", it.note))
            continue
        except OSError as e:  # the message would carry the server path: keep only what went wrong
            _discard(dst)
            out.append(_failed(it.rel, it.size, f"{shown(it.rel)!r} could not be copied into the room: {_os_reason(e)}", it.note))
            continue
        out.append(IntakeEntry(path=it.rel, file=str(dst), size_bytes=size, sha256=digest, note=it.note))
    _prune_empty_folders(root)
    return out


def _os_reason(e: OSError) -> str:
    return os.strerror(e.errno) if e.errno else type(e).__name__


def _discard(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError:
        pass  # it was never created (the name or the path is what failed); the staging folder goes anyway


def _prune_empty_folders(root: Path) -> None:
    """Folders left by entries that failed half-way; a room holds only folders with files."""
    for here, _, _ in os.walk(root, topdown=False):
        if here != str(root) and not os.listdir(here):
            os.rmdir(here)


def extract_zip(source: Path, target: Path, cfg: IngestSettings) -> list[IntakeEntry]:
    try:
        zf = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as e:
        raise IntakeError(f"{source.name} is not a readable zip archive: {e}") from e
    refused: list[IntakeEntry] = []
    items: list[_Item] = []
    names = Names()
    max_file = int(cfg.max_file_mb * MB)
    with zf:
        infos = [i for i in zf.infolist() if not i.is_dir()]
        if len(infos) > cfg.max_zip_entries:
            raise IntakeError(f"zip has {len(infos)} entries, over the limit of {cfg.max_zip_entries}")
        check_archive(infos, cfg)
        for info in infos:
            raw_name = decode_zip_name(info)
            rel, reason = clean_path(raw_name)
            mode = info.external_attr >> 16
            if not reason and info.create_system == 3 and stat.S_ISLNK(mode):
                reason = "symlink entry refused"
            elif not reason and is_junk(rel):
                reason = JUNK_REASON
            elif not reason and info.flag_bits & 0x1:
                reason = "encrypted zip entry: a password is required"
            elif not reason and info.file_size > BOMB_MIN_BYTES and info.file_size / max(info.compress_size, 1) > cfg.max_zip_ratio:
                ratio = info.file_size / max(info.compress_size, 1)
                reason = f"compression ratio {ratio:.0f}:1 exceeds the limit of {cfg.max_zip_ratio:g}:1 (zip bomb?)"
            elif not reason and info.file_size > max_file:
                reason = f"file is {info.file_size / MB:.1f} MB, over the limit of {cfg.max_file_mb:g} MB"
            if reason:
                refused.append(IntakeEntry(path=rel or raw_name, size_bytes=info.file_size, refused=True, reason=reason))
                continue
            rel, note = names.take(rel)
            items.append(_Item(rel, note, info.file_size, (lambda info=info: zf.open(info)), info.file_size))
        return refused + _write_all(items, target)


def check_archive(infos: list[zipfile.ZipInfo], cfg: IngestSettings) -> None:
    """Refuse the whole archive before anything is written: over the total size, or a bomb split over entries."""
    total = sum(i.file_size for i in infos)
    packed = sum(i.compress_size for i in infos)
    if total > cfg.max_zip_total_mb * MB:
        raise IntakeError(
            f"the archive expands to {total / MB:,.1f} MB, over the limit of {cfg.max_zip_total_mb:g} MB; nothing was extracted"
        )
    ratio = total / max(packed, 1)
    if total > ARCHIVE_BOMB_MIN_BYTES and ratio > cfg.max_zip_ratio:
        raise IntakeError(
            f"the archive expands {ratio:,.0f} times ({total / MB:,.0f} MB from {packed / MB:,.1f} MB compressed), over the "
            f"limit of {cfg.max_zip_ratio:g} times: refused as a likely zip bomb; nothing was extracted"
        )


def _folder_files(src_root: Path, refused: list[IntakeEntry]) -> Iterator[tuple[Path, str]]:
    """(file, raw room-relative name) below a folder, sorted; symlinked and unreadable folders are recorded."""

    def unreadable(e: OSError) -> None:
        rel = Path(e.filename).relative_to(src_root).as_posix() if e.filename else "."
        refused.append(_failed(decode_fs_name(rel), 0, f"folder {shown(decode_fs_name(rel))!r} could not be read: {_os_reason(e)}"))

    for dirpath, dirnames, filenames in os.walk(src_root, followlinks=False, onerror=unreadable):
        dirnames.sort()
        here = Path(dirpath)
        for d in list(dirnames):
            if (here / d).is_symlink():
                dirnames.remove(d)
                rel_d = (here / d).relative_to(src_root).as_posix()
                refused.append(IntakeEntry(path=decode_fs_name(rel_d), refused=True, reason="symlinked folder refused"))
        for fn in sorted(filenames):
            p = here / fn
            yield p, p.relative_to(src_root).as_posix()


def copy_files(files: Iterator[tuple[Path, str]], target: Path, cfg: IngestSettings, refused: list[IntakeEntry]) -> list[IntakeEntry]:
    """Copy (file, room-relative name) pairs below target; refusals go to `refused` (which is returned first)."""
    items: list[_Item] = []
    names = Names()
    max_file = int(cfg.max_file_mb * MB)
    for p, raw in files:
        rel_raw = decode_fs_name(raw)
        rel, reason = clean_path(rel_raw)
        try:
            st = p.lstat()
        except OSError as e:
            refused.append(_failed(rel or rel_raw, 0, f"{shown(rel or rel_raw)!r} could not be read: {_os_reason(e)}"))
            continue
        if reason:
            pass  # the name itself is refused
        elif stat.S_ISLNK(st.st_mode):
            reason = "symlink refused"
        elif not stat.S_ISREG(st.st_mode):
            reason = "not a regular file"
        elif is_junk(rel):
            reason = JUNK_REASON
        elif st.st_size > max_file:
            reason = f"file is {st.st_size / MB:.1f} MB, over the limit of {cfg.max_file_mb:g} MB"
        if reason:
            refused.append(IntakeEntry(path=rel or rel_raw, size_bytes=st.st_size, refused=True, reason=reason))
            continue
        rel, note = names.take(rel)
        if not note and rel_raw != raw:
            note = "file name was not valid UTF-8 and was re-encoded"
        items.append(_Item(rel, note, st.st_size, (lambda p=p: p.open("rb")), st.st_size + _COPY_BUF, source=p))
    return refused + _write_all(items, target)


def copy_folder(source: Path, target: Path, cfg: IngestSettings) -> list[IntakeEntry]:
    refused: list[IntakeEntry] = []
    return copy_files(_folder_files(source.resolve(), refused), target, cfg, refused)


def intake(source: Path, target: Path, cfg: IngestSettings, *, add: bool = False) -> list[IntakeEntry]:
    """Lay the upload out under `target` and return every entry.

    A folder keeps its structure; a `.zip` is extracted; any other single file is a room of one file.
    `add=False`: the upload replaces what was under target. `add=True`: the upload joins it and nothing
    already there is removed or overwritten (see merge_into).
    """
    source = Path(source)
    if not source.exists():
        raise IntakeError(f"{source.name} does not exist")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(target.name + ".incoming")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    try:
        if source.is_dir():
            entries = copy_folder(source, staging, cfg)
        elif source.suffix.lower() == ".zip":
            entries = extract_zip(source, staging, cfg)
        elif source.is_file():
            entries = copy_files(iter([(source, source.name)]), staging, cfg, [])
        else:
            raise IntakeError(f"{source.name} is neither a folder, a zip nor a file")
        if add and target.exists():
            merge_into(staging, target, entries)
        else:
            # Swap in the new tree only once it is complete; paths in entries move with it.
            shutil.rmtree(target, ignore_errors=True)
            staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    for e in entries:
        if e.file:
            e.file = str(target / e.path)
    return entries


def _file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for buf in iter(lambda: f.read(_COPY_BUF), b""):
            h.update(buf)
    return h.hexdigest()


def merge_into(staging: Path, target: Path, entries: list[IntakeEntry]) -> None:
    """Move the staged entries into a room's existing files without removing or overwriting any of them.

    An entry whose path the room already holds with the same bytes stays as it is (the pipeline then
    finds it unchanged); with other bytes it takes a free name ('a (2).pdf'), as does a refused entry
    (its record must not replace the room's file's). An entry that would need a file of the room to be
    a folder, or the reverse, fails alone.
    """
    files: set[str] = set()
    folders: set[str] = set()
    for here, dirs, names in os.walk(target):
        rel_here = Path(here).relative_to(target).as_posix()
        prefix = "" if rel_here == "." else rel_here + "/"
        files.update(prefix + n for n in names)
        folders.update(prefix + d for d in dirs)
    fresh = Names(files | folders | {e.path for e in entries})
    limits = FsLimits(target)
    for i, e in enumerate(entries):
        taken = e.path in files or e.path in folders
        if e.refused:
            if taken:
                e.path, e.note = _renamed(fresh, e.path)
            continue
        parts = e.path.split("/")
        blocker = next(("/".join(parts[:k]) for k in range(1, len(parts)) if "/".join(parts[:k]) in files), None)
        if blocker is not None or e.path in folders:
            what = f"the file {shown(blocker)!r}" if blocker else f"the folder {shown(e.path)!r}"
            entries[i] = _failed(e.path, e.size_bytes, f"{shown(e.path)!r} clashes with {what} already in the room", e.note)
            continue
        src = staging / e.path
        if e.path in files:
            if _file_sha256(target / e.path) == e.sha256:
                continue  # the room has this very file: nothing to move
            e.path, e.note = _renamed(fresh, e.path)
            problem = limits.problem(e.path)
            if problem:
                entries[i] = _failed(e.path, e.size_bytes, problem, e.note)
                continue
        dst = target / e.path
        try:
            dst.parent.mkdir(parents=True, exist_ok=True)
            os.replace(src, dst)
        except OSError as err:
            entries[i] = _failed(e.path, e.size_bytes, f"{shown(e.path)!r} could not be added to the room: {_os_reason(err)}", e.note)
            continue
        files.add(e.path)
        folders.update("/".join(parts[:k]) for k in range(1, len(parts)))


def _renamed(fresh: Names, rel: str) -> tuple[str, str]:
    new, _ = fresh.take(rel)
    return new, f"renamed from {shown(rel)!r}: the room already has a different file of this name"
