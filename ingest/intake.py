"""Safe intake: copy a folder or extract a zip into workspace/rooms/<room>/files.

Nothing is ever written outside the target folder: every entry's target is
resolved and checked to lie inside it, and entries that try otherwise
(zip-slip, absolute paths, symlinks) are refused and recorded, never
followed. Zip bombs are refused by compression ratio and by total declared
size, and extraction stops at the declared size even if a header lies.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import zipfile
import zlib
from pathlib import Path, PurePosixPath

from pydantic import BaseModel, Field

from core.settings import IngestSettings

MB = 1024 * 1024
# Small files legitimately compress far past any ratio limit (a page of
# spaces); a bomb is only a bomb once it is big.
BOMB_MIN_BYTES = 1 * MB
_COPY_BUF = 1024 * 1024


class IntakeError(ValueError):
    """The whole upload is refused (not a zip, too many entries)."""


class IntakeEntry(BaseModel):
    """One input file as found in the upload."""

    path: str = Field(description="Room-relative '/'-separated path after sanitising.")
    file: str | None = Field(None, description="Absolute path of the written copy; None when refused.")
    size_bytes: int = Field(0, description="Size (declared size for a refused zip entry).")
    sha256: str = Field("", description="Hash of the bytes written; empty when refused.")
    refused: bool = Field(False, description="True when the entry was not written.")
    reason: str = Field("", description="Why it was refused.")
    note: str = Field("", description="E.g. renamed because of a duplicate or undecodable name.")


def decode_zip_name(info: zipfile.ZipInfo) -> str:
    """Entry names without the UTF-8 flag are usually UTF-8 anyway, else cp1252 (Windows)."""
    if info.flag_bits & 0x800:
        return info.filename
    raw = info.filename.encode("cp437")  # zipfile decoded the raw bytes as cp437
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def decode_fs_name(name: str) -> str:
    """A folder file name that is not valid UTF-8 arrives with surrogate escapes."""
    raw = os.fsencode(name)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def clean_path(name: str) -> tuple[str | None, str]:
    """Room-relative posix path, or (None, reason) when the name must be refused."""
    n = name.replace("\\", "/")
    if n.startswith("/") or (len(n) > 1 and n[1] == ":"):
        return None, f"absolute path entry refused: {name!r}"
    parts = [p for p in n.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        return None, f"entry path escapes the room (zip-slip) refused: {name!r}"
    parts = ["".join(ch if ch.isprintable() else "_" for ch in p) for p in parts]
    if not parts:
        return None, f"empty entry name refused: {name!r}"
    return "/".join(parts), ""


def _inside(root: Path, rel: str) -> Path:
    target = (root / rel).resolve()
    if not target.is_relative_to(root.resolve()):
        raise IntakeError(f"{rel!r} resolves outside the room")  # guarded by clean_path; belt and braces
    return target


class _Names:
    """Unique, case-insensitively distinct names; the second 'a.pdf' becomes 'a (2).pdf'."""

    def __init__(self):
        self.seen: set[str] = set()

    def take(self, rel: str) -> tuple[str, str]:
        if rel.lower() not in self.seen:
            self.seen.add(rel.lower())
            return rel, ""
        p = PurePosixPath(rel)
        i = 2
        while True:
            cand = str(p.with_name(f"{p.stem} ({i}){p.suffix}"))
            if cand.lower() not in self.seen:
                self.seen.add(cand.lower())
                return cand, f"renamed from {rel!r}: another entry has the same name"
            i += 1


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
                raise IntakeError(f"entry expands past its declared size ({limit} bytes)")
            h.update(buf)
            out.write(buf)
    return n, h.hexdigest()


def extract_zip(source: Path, target: Path, cfg: IngestSettings) -> list[IntakeEntry]:
    try:
        zf = zipfile.ZipFile(source)
    except zipfile.BadZipFile as e:
        raise IntakeError(f"{source.name} is not a readable zip archive: {e}") from e
    entries: list[IntakeEntry] = []
    names = _Names()
    max_file = int(cfg.max_file_mb * MB)
    with zf:
        infos = [i for i in zf.infolist() if not i.is_dir()]
        if len(infos) > cfg.max_zip_entries:
            raise IntakeError(f"zip has {len(infos)} entries, over the limit of {cfg.max_zip_entries}")
        total = sum(i.file_size for i in infos)
        too_big = total > cfg.max_zip_total_mb * MB
        for info in infos:
            raw_name = decode_zip_name(info)
            rel, reason = clean_path(raw_name)
            shown = rel or raw_name
            mode = info.external_attr >> 16
            if not reason and info.create_system == 3 and stat.S_ISLNK(mode):
                reason = "symlink entry refused"
            elif not reason and too_big:
                reason = f"archive expands to {total / MB:.0f} MB, over the limit of {cfg.max_zip_total_mb:g} MB (zip bomb?)"
            elif not reason and info.flag_bits & 0x1:
                reason = "encrypted zip entry: a password is required"
            elif not reason and info.file_size > BOMB_MIN_BYTES and info.file_size / max(info.compress_size, 1) > cfg.max_zip_ratio:
                ratio = info.file_size / max(info.compress_size, 1)
                reason = f"compression ratio {ratio:.0f}:1 exceeds the limit of {cfg.max_zip_ratio:g}:1 (zip bomb?)"
            elif not reason and info.file_size > max_file:
                reason = f"file is {info.file_size / MB:.1f} MB, over the limit of {cfg.max_file_mb:g} MB"
            if reason:
                entries.append(IntakeEntry(path=shown, size_bytes=info.file_size, refused=True, reason=reason))
                continue
            rel, note = names.take(rel)
            dst = _inside(target, rel)
            try:
                with zf.open(info) as src:
                    size, digest = _copy_stream(src, dst, info.file_size)
            except (zipfile.BadZipFile, zlib.error, EOFError, IntakeError) as e:
                dst.unlink(missing_ok=True)
                entries.append(IntakeEntry(path=rel, size_bytes=info.file_size, refused=True, reason=f"corrupt zip entry: {e}"))
                continue
            entries.append(IntakeEntry(path=rel, file=str(dst), size_bytes=size, sha256=digest, note=note))
    return entries


def copy_folder(source: Path, target: Path, cfg: IngestSettings) -> list[IntakeEntry]:
    entries: list[IntakeEntry] = []
    names = _Names()
    max_file = int(cfg.max_file_mb * MB)
    src_root = source.resolve()
    for dirpath, dirnames, filenames in os.walk(src_root, followlinks=False):
        dirnames.sort()
        here = Path(dirpath)
        for d in list(dirnames):
            if (here / d).is_symlink():
                dirnames.remove(d)
                rel_d = (here / d).relative_to(src_root).as_posix()
                entries.append(IntakeEntry(path=decode_fs_name(rel_d), refused=True, reason="symlinked folder refused"))
        for fn in sorted(filenames):
            p = here / fn
            rel_raw = decode_fs_name(p.relative_to(src_root).as_posix())
            rel, reason = clean_path(rel_raw)
            st = p.lstat()
            if stat.S_ISLNK(st.st_mode):
                reason = "symlink refused"
            elif not stat.S_ISREG(st.st_mode):
                reason = "not a regular file"
            elif st.st_size > max_file:
                reason = f"file is {st.st_size / MB:.1f} MB, over the limit of {cfg.max_file_mb:g} MB"
            if reason:
                entries.append(IntakeEntry(path=rel or rel_raw, size_bytes=st.st_size, refused=True, reason=reason))
                continue
            rel, note = names.take(rel)
            if rel != rel_raw and not note:
                note = "file name was not valid UTF-8 and was re-encoded" if rel_raw != p.relative_to(src_root).as_posix() else note
            dst = _inside(target, rel)
            with p.open("rb") as src:
                size, digest = _copy_stream(src, dst, st.st_size + _COPY_BUF)
            shutil.copystat(p, dst, follow_symlinks=False)
            entries.append(IntakeEntry(path=rel, file=str(dst), size_bytes=size, sha256=digest, note=note))
    return entries


def intake(source: Path, target: Path, cfg: IngestSettings) -> list[IntakeEntry]:
    """Lay the upload out under `target` (replacing what was there); return every entry."""
    source = Path(source)
    if not source.exists():
        raise IntakeError(f"{source} does not exist")
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(target.name + ".incoming")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    if source.is_dir():
        entries = copy_folder(source, staging, cfg)
    elif zipfile.is_zipfile(source):
        entries = extract_zip(source, staging, cfg)
    else:
        shutil.rmtree(staging, ignore_errors=True)
        raise IntakeError(f"{source.name} is neither a folder nor a zip archive")
    # Swap in the new tree only once it is complete; paths in entries move with it.
    shutil.rmtree(target, ignore_errors=True)
    staging.rename(target)
    for e in entries:
        if e.file:
            e.file = str(target / e.path)
    return entries
