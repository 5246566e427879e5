"""Parse one file in a worker process: partition, document text, chunks, attachments.

Everything here runs in a spawned child (ingest.pipeline), so inputs and
outputs are plain pydantic data; the parent writes the manifest and store.
"""

from __future__ import annotations

import email
import email.policy
import re
import shutil
import signal
import threading
import time
from pathlib import Path

from pydantic import BaseModel, Field

from core.types import Chunk, ParseStatus

from .chunking import Element, build_text, chunk_spans


class ParseTask(BaseModel):
    """One file to parse, with the settings the worker needs."""

    file: str = Field(description="Absolute path of the file on disk.")
    document_id: str = Field(description="Id of the Document being parsed.")
    doc_type: str = Field(description="Detected type (ingest.intake.filetypes).")
    attachments_dir: str = Field(description="Where e-mail attachments are written (inside the room folder).")
    ocr_fallback: bool = Field(False, description="Try OCR when a PDF has no text layer.")
    max_chars: int = Field(2000, description="Chunk hard bound.")
    new_after: int = Field(1500, description="Chunk soft bound.")
    combine_under: int = Field(300, description="Merge title sections shorter than this.")
    timeout_s: float = Field(300.0, description="Per-file time limit.")


class Attachment(BaseModel):
    name: str = Field(description="Sanitised file name of the attachment.")
    file: str = Field(description="Absolute path where the attachment's bytes were written.")


class ParseResult(BaseModel):
    document_id: str
    status: ParseStatus
    reason: str = ""
    pages: int = 0
    text: str = ""
    chunks: list[Chunk] = Field(default_factory=list)
    attachments: list[Attachment] = Field(default_factory=list)
    seconds: float = 0.0


# The reason recorded for a file whose parser process died under it (local pool or Ray worker alike).
CRASHED_REASON = "the parser process crashed on this file (killed or out of memory)"


class ParseTimeout(BaseException):
    """Raised by the per-file alarm. A BaseException, as KeyboardInterrupt is, because parsers catch broad
    Exceptions (pdfminer per page and per font) and would turn a timeout into an empty page: the file was
    then recorded as "no text layer" instead of "timed out"."""


class ParseRefused(Exception):
    """A file we recognise but cannot parse here; the message is the manifest reason."""


_LEGACY = {
    "doc": "legacy Word .doc needs LibreOffice (soffice) to convert, which is not installed",
    "ppt": "legacy PowerPoint .ppt needs LibreOffice (soffice) to convert, which is not installed",
}
_SAFE_NAME_RE = re.compile(r"[^\w.\- ()]+", re.UNICODE)


def _partition(path: Path, doc_type: str, strategy: str = "fast") -> list:
    from . import offline_nlp

    offline_nlp.install()
    common = dict(filename=str(path), languages=["eng"], detect_language_per_element=False)
    if doc_type == "pdf":
        from unstructured.partition.pdf import partition_pdf

        from . import pdf_text

        pdf_text.install()
        return partition_pdf(strategy=strategy, **common)
    if doc_type in _LEGACY and not shutil.which("soffice"):
        raise ParseRefused(_LEGACY[doc_type])
    if doc_type in ("eml", "msg"):
        mod = __import__(f"unstructured.partition.{'email' if doc_type == 'eml' else 'msg'}", fromlist=["x"])
        fn = mod.partition_email if doc_type == "eml" else mod.partition_msg
        # Attachments become their own documents (parent_id set); see _attachments.
        return fn(process_attachments=False, **common)
    modules = {
        "docx": ("docx", "partition_docx"),
        "doc": ("doc", "partition_doc"),
        "ppt": ("ppt", "partition_ppt"),
        "pptx": ("pptx", "partition_pptx"),
        "xlsx": ("xlsx", "partition_xlsx"),
        "xls": ("xlsx", "partition_xlsx"),
        "csv": ("csv", "partition_csv"),
        "html": ("html", "partition_html"),
        "md": ("md", "partition_md"),
        "txt": ("text", "partition_text"),
    }
    if doc_type not in modules:
        raise ParseRefused(f"unsupported file type {doc_type}")
    mod_name, fn_name = modules[doc_type]
    mod = __import__(f"unstructured.partition.{mod_name}", fromlist=[fn_name])
    return getattr(mod, fn_name)(**common)


def _elements(raw: list) -> list[Element]:
    out = []
    for el in raw:
        text = getattr(el, "text", "") or ""
        page = getattr(el.metadata, "page_number", None) or 1
        out.append(Element(text=text, category=getattr(el, "category", "Text") or "Text", page=int(page)))
    return out


def safe_name(name: str, fallback: str) -> str:
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    base = _SAFE_NAME_RE.sub("_", base).strip(" .")
    return base[:150] or fallback


def _write_attachment(out_dir: Path, name: str, data: bytes, seen: set[str]) -> Attachment:
    n = name
    i = 2
    while n.lower() in seen:
        stem, dot, ext = name.rpartition(".")
        n = f"{stem} ({i}).{ext}" if dot else f"{name} ({i})"
        i += 1
    seen.add(n.lower())
    out_dir.mkdir(parents=True, exist_ok=True)
    target = out_dir / n
    target.write_bytes(data)
    return Attachment(name=n, file=str(target))


def _attachments(path: Path, doc_type: str, out_dir: Path) -> list[Attachment]:
    seen: set[str] = set()
    found: list[tuple[str, bytes]] = []
    if doc_type == "eml":
        with path.open("rb") as f:
            msg = email.message_from_binary_file(f, policy=email.policy.default)
        for i, part in enumerate(msg.iter_attachments()):
            data = part.get_payload(decode=True)
            if data:
                found.append((part.get_filename() or f"attachment-{i + 1}", data))
    elif doc_type == "msg":
        from oxmsg import Message

        for i, att in enumerate(Message.load(str(path)).attachments):
            data = att.file_bytes
            if data:
                found.append((att.file_name or f"attachment-{i + 1}", data))
    return [_write_attachment(out_dir, safe_name(n, f"attachment-{i + 1}"), d, seen) for i, (n, d) in enumerate(found)]


def _pdf_info(path: Path) -> tuple[int, str]:
    """Page count (one pypdf open), or 0 and pypdf's complaint when the file is not a readable PDF.

    Raises ParseRefused for an encrypted PDF that the empty password does not open.
    """
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError

    try:
        reader = PdfReader(str(path))
        if reader.is_encrypted and not reader.decrypt(""):
            raise ParseRefused("encrypted PDF: a password is required to read it")
        return len(reader.pages), ""
    except (PdfReadError, ValueError, KeyError, TypeError) as e:
        # let the partitioner try; if it finds no text either, this is the reason
        return 0, f"{type(e).__name__}: {e}"


def warm_up() -> None:
    """Pool initializer: pay the heavy imports once per worker, not inside the first file's timing."""
    from . import offline_nlp

    offline_nlp.install()
    try:
        # PDF only: the common case in a data room. Not partition.auto (+0.5 CPU-s), which
        # _partition never calls; other formats import their partitioner on first use.
        import unstructured.partition.pdf  # noqa: F401

        from . import pdf_text

        pdf_text.install()
    except ImportError:
        pass  # a broken initializer would break the pool; let each file report the missing module


_alarm_fired = False


def _on_alarm(signum, frame):
    global _alarm_fired
    _alarm_fired = True
    raise ParseTimeout()


def _check_deadline() -> None:
    """A bare `except:` in a parser swallows even a BaseException; the flag still tells the truth."""
    if _alarm_fired:
        raise ParseTimeout()


def _parse(task: ParseTask) -> ParseResult:
    path = Path(task.file)
    pages, pdf_error = 0, ""
    if task.doc_type == "pdf":
        pages, pdf_error = _pdf_info(path)
    elements = _elements(_partition(path, task.doc_type))
    _check_deadline()
    text, spans = build_text(elements)
    if not text and task.doc_type == "pdf":
        if pdf_error:
            raise ParseRefused(f"corrupt PDF, no text could be read ({pdf_error[:200]})")
        if not task.ocr_fallback:
            raise ParseRefused("no text layer; OCR unavailable (OCR fallback is off: ingest.ocr_fallback)")
        if not shutil.which("tesseract"):
            raise ParseRefused("no text layer; OCR unavailable (tesseract is not installed)")
        elements = _elements(_partition(path, "pdf", strategy="ocr_only"))
        _check_deadline()
        text, spans = build_text(elements)
    attachments = _attachments(path, task.doc_type, Path(task.attachments_dir))
    if not text and not attachments:
        raise ParseRefused("no text could be extracted")
    chunks = chunk_spans(task.document_id, text, spans, task.max_chars, task.new_after, task.combine_under)
    pages = max([pages, 1] + [s.page for s in spans])
    return ParseResult(
        document_id=task.document_id, status=ParseStatus.parsed, pages=pages, text=text, chunks=chunks, attachments=attachments
    )


def parse_file(task: ParseTask) -> ParseResult:
    """Never raises for a bad file: the failure becomes the result's reason."""
    global _alarm_fired
    t0 = time.perf_counter()
    _alarm_fired = False
    # SIGALRM only reaches the main thread; pool workers run tasks there.
    use_alarm = task.timeout_s > 0 and hasattr(signal, "SIGALRM") and threading.current_thread() is threading.main_thread()
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, task.timeout_s)
    timed_out = ParseResult(
        document_id=task.document_id, status=ParseStatus.failed, reason=f"parsing timed out after {task.timeout_s:g} s"
    )
    try:
        result = _parse(task)
        if use_alarm:  # disarmed inside the try: an alarm between here and `finally` is still a timeout
            signal.setitimer(signal.ITIMER_REAL, 0)
    except ParseTimeout:
        result = timed_out
    except ParseRefused as e:
        result = timed_out if _alarm_fired else ParseResult(document_id=task.document_id, status=ParseStatus.failed, reason=str(e))
    except Exception as e:  # noqa: BLE001 - the one isolation boundary: a parser bug on one untrusted file must not stop the room
        msg = str(e).strip().splitlines()[0][:300] if str(e).strip() else ""
        result = ParseResult(
            document_id=task.document_id,
            status=ParseStatus.failed,
            reason=f"{task.doc_type} could not be parsed: {type(e).__name__}{': ' + msg if msg else ''}",
        )
        if _alarm_fired:  # the parser turned the interrupt into an error of its own
            result = timed_out
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
    result.seconds = time.perf_counter() - t0
    return result
