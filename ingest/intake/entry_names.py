"""Entry names: decoding, sanitising, OS junk, which copy is the original, and the file system's limits.

Pure functions of a name (plus the file system's limits, read once per folder), so intake can decide an
entry's fate before writing anything.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path, PurePosixPath

JUNK_REASON = "operating-system junk file"
# Files an OS leaves behind (Finder metadata, thumbnail caches, Office lock files): never documents of the room.
_JUNK_NAMES = {"thumbs.db", ".ds_store", "desktop.ini"}
_JUNK_PREFIXES = ("._", "~$")
_JUNK_FOLDERS = {"__MACOSX"}


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
        return None, f"absolute path entry refused: {shown(name)!r}"
    parts = [p for p in n.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        return None, f"entry path escapes the room (zip-slip) refused: {shown(name)!r}"
    parts = ["".join(ch if ch.isprintable() else "_" for ch in p) for p in parts]
    if not parts:
        return None, f"empty entry name refused: {name!r}"
    return "/".join(parts), ""


def shown(rel: str, limit: int = 120) -> str:
    """A path short enough to quote in a reason (a 4,000-byte path is not read by anyone)."""
    return rel if len(rel) <= limit else f"{rel[: limit // 2]}…{rel[-(limit // 2 - 1):]}"


def is_junk(rel: str) -> bool:
    parts = rel.split("/")
    name = parts[-1]
    return any(p in _JUNK_FOLDERS for p in parts[:-1]) or name.startswith(_JUNK_PREFIXES) or name.lower() in _JUNK_NAMES


def original_rank(path: str) -> tuple[bool, int, str]:
    """Order among identical copies: the first is the original, the rest its duplicates.

    A visible file before a hidden one (a '.x' name or folder is usually a stray copy), a shallow one before
    a deep one (the deeper copy is usually a backup or an attachment folder), then by path.
    """
    parts = path.split("/")
    return (any(p.startswith(".") for p in parts), len(parts), path)

class Names:
    """Unique, case-insensitively distinct names; the second 'a.pdf' becomes 'a (2).pdf'."""

    def __init__(self, taken: set[str] | None = None):
        self.seen: set[str] = {t.lower() for t in taken or ()}

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
                return cand, f"renamed from {shown(rel)!r}: another entry has the same name"
            i += 1


class FsLimits:
    """The file system's limits on one name and on a whole path, as bytes left below `root`."""

    def __init__(self, root: Path):
        try:
            self.name_max, path_max = os.pathconf(root, "PC_NAME_MAX"), os.pathconf(root, "PC_PATH_MAX")
        except (OSError, ValueError):  # no pathconf (Windows) or no answer: the common Linux values
            self.name_max, path_max = 255, 4096
        # PATH_MAX counts the terminating NUL; the room-relative part follows root and a separator
        self.rel_max = path_max - 2 - len(os.fsencode(str(root)))

    def problem(self, rel: str) -> str:
        """Why `rel` cannot be written below root ('' when it can)."""
        try:
            parts = [os.fsencode(p) for p in rel.split("/")]
        except UnicodeEncodeError:
            return f"{shown(rel)!r}: the name cannot be encoded for the file system"
        for part in parts:
            if len(part) > self.name_max:
                return (f"{shown(rel)!r}: a name in it is {len(part)} bytes, over the file system's limit of "
                        f"{self.name_max} bytes per name")
        size = sum(len(p) for p in parts) + len(parts) - 1
        if size > self.rel_max:
            return (f"{shown(rel)!r}: the path is {size} bytes long ({len(parts) - 1} folders deep), over the "
                    f"{self.rel_max} bytes the file system allows inside the room")
        return ""


def clashes(paths: list[str]) -> dict[str, str]:
    """Files whose name is also a folder of other entries ('x' and 'x/y.txt'): the folder wins, in any order."""
    folders = {p.rsplit("/", i)[0] for p in paths for i in range(1, p.count("/") + 1)}
    return {p: f"{shown(p)!r} is both a file and a folder in the upload; the folder's files were kept" for p in paths if p in folders}
