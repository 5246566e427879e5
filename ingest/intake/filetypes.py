"""File type by content (libmagic), with the extension only as a hint.

Policy for a lying extension: when the content is a type we know, the file is
parsed as what it really is (a DOCX named .pdf is a docx); when the content is
nothing we know, the file fails with a reason that names both.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

# Types we partition, by extension.
EXT_TYPES = {
    "pdf": "pdf",
    "docx": "docx",
    "doc": "doc",
    "html": "html",
    "htm": "html",
    "txt": "txt",
    "text": "txt",
    "md": "md",
    "markdown": "md",
    "eml": "eml",
    "msg": "msg",
    "xlsx": "xlsx",
    "xls": "xls",
    "csv": "csv",
    "pptx": "pptx",
    "ppt": "ppt",
}
SUPPORTED = set(EXT_TYPES.values())

MIME_TYPES = {
    "application/pdf": "pdf",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
    "application/msword": "doc",
    "application/vnd.ms-excel": "xls",
    "application/vnd.ms-powerpoint": "ppt",
    "application/vnd.ms-outlook": "msg",
    "text/html": "html",
    "message/rfc822": "eml",
    "text/csv": "csv",
}
# OLE2 compound files (legacy Office, Outlook .msg) look alike to libmagic;
# the extension decides among these.
OLE_MIMES = {"application/x-ole-storage", "application/CDFV2", "application/vnd.ms-office"}
OLE_TYPES = {"doc", "xls", "ppt", "msg"}
# Plain-text families whose exact type only the extension can tell.
TEXT_TYPES = {"txt", "md", "csv", "html", "eml"}
ARCHIVE_MIMES = {"application/zip", "application/x-7z-compressed", "application/x-rar", "application/gzip", "application/x-tar"}


class Detected(BaseModel):
    """Outcome of type detection for one file."""

    doc_type: str = Field(description="Type to parse the file as; the extension when refused.")
    mime: str = Field(description="libmagic's MIME type for the content.")
    supported: bool = Field(description="Whether we can try to parse it.")
    reason: str = Field("", description="Why the file is refused, or a note on a mismatched extension.")


def ext_type(name: str) -> str:
    suffix = Path(name).suffix.lower().lstrip(".")
    return EXT_TYPES.get(suffix, suffix or "unknown")


def detect(path: Path) -> Detected:
    import magic

    ext = ext_type(path.name)
    mime = magic.from_file(str(path), mime=True)
    if mime in MIME_TYPES:
        content = MIME_TYPES[mime]
        # libmagic calls some CSV "text/csv" and some HTML fragments text/plain; trust
        # the extension within the text family.
        if content in TEXT_TYPES and ext in TEXT_TYPES:
            content = ext
        note = "" if content == ext else f"extension says {ext} but content is {content} ({mime}); parsed as {content}"
        return Detected(doc_type=content, mime=mime, supported=True, reason=note)
    if mime in OLE_MIMES:
        if ext in OLE_TYPES:
            return Detected(doc_type=ext, mime=mime, supported=True)
        return Detected(doc_type=ext, mime=mime, supported=False, reason=f"OLE2 compound file ({mime}) with extension .{ext}; cannot tell its type")
    if mime.startswith("text/"):
        if ext in TEXT_TYPES:
            return Detected(doc_type=ext, mime=mime, supported=True)
        if ext in SUPPORTED:
            return Detected(doc_type=ext, mime=mime, supported=False, reason=f"wrong extension: .{ext} file whose content is plain text ({mime})")
        return Detected(doc_type="txt", mime=mime, supported=True, reason=f"unknown extension .{ext}; parsed as text")
    if mime == "inode/x-empty":
        return Detected(doc_type=ext, mime=mime, supported=False, reason="empty file (0 bytes)")
    if mime in ("application/zip", "application/octet-stream") and ext in ("docx", "xlsx", "pptx"):
        # some writers' OOXML is sniffed as a bare zip; the partitioner will say if it is not one
        return Detected(doc_type=ext, mime=mime, supported=True)
    if mime in ARCHIVE_MIMES:
        return Detected(doc_type="archive", mime=mime, supported=False, reason=f"nested archive ({mime}) is not expanded; upload it as its own room")
    if ext in SUPPORTED:
        return Detected(doc_type=ext, mime=mime, supported=False, reason=f"wrong extension: .{ext} file whose content is {mime}")
    return Detected(doc_type=ext, mime=mime, supported=False, reason=f"unsupported file type ({mime})")
