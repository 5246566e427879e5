"""Independent text extraction for checking a generated room against its truth.

Deliberately not the ingest pipeline (unstructured): the generator's own
check should not share the code it is meant to test. Each format is read
with its plain library: pypdf, python-docx, BeautifulSoup, email, openpyxl,
python-pptx.
"""

from __future__ import annotations

import io
from email import policy
from email.parser import BytesParser
from pathlib import Path

from core.text import locate_quote
from synth.model import Truth


def _docx_text(data: bytes) -> str:
    import docx

    d = docx.Document(io.BytesIO(data))
    parts = [p.text for p in d.paragraphs]
    for t in d.tables:
        parts.extend(" | ".join(c.text for c in row.cells) for row in t.rows)
    return "\n".join(parts)


def eml_parts(data: bytes) -> dict[str, str]:
    """'' -> the body text; attachment file name -> its text."""
    msg = BytesParser(policy=policy.default).parsebytes(data)
    body = msg.get_body(preferencelist=("plain", "html"))
    out = {"": body.get_content() if body else ""}
    for part in msg.iter_attachments():
        name = part.get_filename() or "attachment"
        payload = part.get_payload(decode=True) or b""
        out[name] = _docx_text(payload) if name.endswith(".docx") else payload.decode("utf-8", "replace")
    return out


def file_text(path: Path) -> str:
    """All extractable text of a file (an e-mail's body and attachments joined)."""
    ext = path.suffix.lower().lstrip(".")
    data = path.read_bytes()
    if ext in ("txt", "md", "csv"):
        return data.decode("utf-8")
    if ext == "html":
        from bs4 import BeautifulSoup

        return BeautifulSoup(data, "html.parser").get_text("\n")
    if ext == "docx":
        return _docx_text(data)
    if ext == "pdf":
        from pypdf import PdfReader

        return "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages)
    if ext == "eml":
        return "\n\n".join(eml_parts(data).values())
    if ext == "xlsx":
        import openpyxl

        wb = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
        return "\n".join(" | ".join("" if v is None else str(v) for v in row) for ws in wb for row in ws.iter_rows(values_only=True))
    if ext == "pptx":
        from pptx import Presentation

        prs = Presentation(io.BytesIO(data))
        return "\n".join(sh.text_frame.text for s in prs.slides for sh in s.shapes if sh.has_text_frame)
    raise ValueError(f"no extractor for .{ext} ({path})")


def verify_room(room_dir: Path, truth: Truth) -> list[str]:
    """Problems found: missing files, planted sentences not in the extracted text, bad files that parse."""
    problems: list[str] = []
    paths = {d.path for d in truth.documents}
    on_disk = {p.relative_to(room_dir).as_posix() for p in room_dir.rglob("*") if p.is_file()}
    problems += [f"missing file {p}" for p in sorted(paths - on_disk)]
    problems += [f"file not in truth {p}" for p in sorted(on_disk - paths)]
    bad = {b.path for b in truth.bad_files}
    texts: dict[tuple[str, str], str] = {}
    for c in truth.clauses:
        if c.path in bad:
            problems.append(f"{c.id}: planted in bad file {c.path}")
            continue
        key = (c.path, c.attachment)
        if key not in texts:
            f = room_dir / c.path
            texts[key] = eml_parts(f.read_bytes()).get(c.attachment, "") if f.suffix == ".eml" else file_text(f)
        for s in c.sentences:
            if locate_quote(s, texts[key]) is None:
                problems.append(f"{c.id}: sentence not found in {c.path} {c.attachment}: {s[:60]!r}")
    return problems
