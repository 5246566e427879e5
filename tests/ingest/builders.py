"""Build real input files from code: every supported format and the bad inputs."""

from __future__ import annotations

import io
import stat
import zipfile
from email.message import EmailMessage
from functools import lru_cache
import random
import warnings
from pathlib import Path


def _pdf_escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def text_pdf(pages: list[list[str]]) -> bytes:
    """A minimal, valid PDF with a Helvetica text layer: one list of lines per page."""
    objs: list[bytes] = []
    n_pages = len(pages)
    # 1 catalog, 2 pages, 3 font, then per page: page obj, content obj
    kids = " ".join(f"{4 + 2 * i} 0 R" for i in range(n_pages))
    objs.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objs.append(f"<< /Type /Pages /Kids [{kids}] /Count {n_pages} >>".encode())
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    for i, lines in enumerate(pages):
        ops = ["BT", "/F1 11 Tf", "72 720 Td", "14 TL"]
        for line in lines:
            ops.append(f"({_pdf_escape(line)}) Tj T*")
        ops.append("ET")
        stream = "\n".join(ops).encode("latin-1")
        objs.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            f"/Contents {5 + 2 * i} 0 R >>".encode()
        )
        objs.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objs, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % n + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref))
    return out.getvalue()


def blank_pdf() -> bytes:
    """A PDF page with no text layer (what a scan without OCR looks like to pdfminer)."""
    return text_pdf([[]])


def encrypted_pdf(password: str = "secret") -> bytes:
    from pypdf import PdfReader, PdfWriter

    w = PdfWriter(clone_from=PdfReader(io.BytesIO(text_pdf([["Confidential term sheet."]]))))
    w.encrypt(user_password=password, owner_password=password + "-owner")
    buf = io.BytesIO()
    w.write(buf)
    return buf.getvalue()


def docx_bytes(title: str, paragraphs: list[str]) -> bytes:
    import docx

    d = docx.Document()
    d.add_heading(title, level=1)
    for p in paragraphs:
        d.add_paragraph(p)
    t = d.add_table(rows=2, cols=2)
    t.cell(0, 0).text, t.cell(0, 1).text = "Party", "Role"
    t.cell(1, 0).text, t.cell(1, 1).text = "Acme Corp", "Supplier"
    buf = io.BytesIO()
    d.save(buf)
    return buf.getvalue()


def xlsx_bytes() -> bytes:
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Contracts"
    ws.append(["Contract", "Counterparty", "Expiry"])
    ws.append(["Master Supply Agreement", "Globex Ltd", "2027-03-31"])
    ws.append(["Lease", "Initech LLC", "2029-12-31"])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def pptx_bytes() -> bytes:
    from pptx import Presentation

    prs = Presentation()
    for title, body in [
        ("Project Falcon", "Board presentation on the acquisition of Target Co."),
        ("Key risks", "Change of control consent is required under the Globex supply agreement."),
    ]:
        s = prs.slides.add_slide(prs.slide_layouts[1])
        s.shapes.title.text = title
        s.placeholders[1].text = body
    buf = io.BytesIO()
    prs.save(buf)
    return buf.getvalue()


def eml_bytes(attachments: dict[str, tuple[bytes, str]]) -> bytes:
    m = EmailMessage()
    m["From"] = "counsel@example.com"
    m["To"] = "buyer@example.com"
    m["Subject"] = "Executed supply agreement"
    m["Date"] = "Mon, 02 Mar 2026 10:00:00 +0000"
    m.set_content(
        "Please find attached the executed supply agreement. The exclusivity clause in section 4 "
        "survives termination for two years."
    )
    for name, (data, mime) in attachments.items():
        maintype, subtype = mime.split("/")
        m.add_attachment(data, maintype=maintype, subtype=subtype, filename=name)
    return m.as_bytes()


MSG_BODY_SENTENCE = (
    "Under clause 14.2 of the Initech lease, the landlord's prior written consent is required for any change of "
    "control of the tenant."
)
MSG_ATTACHMENT_SENTENCE = "Initech Realty hereby consents to the change of control of Target Co effective on closing."


def msg_bytes(attachments: dict[str, tuple[bytes, str]] | None = None) -> bytes:
    """A real Outlook .msg (CFB container, MAPI properties) written by aspose-email-foss."""
    from aspose.email_foss import msg

    m = msg.MapiMessage.create(
        "Change of control consent request - Initech lease",
        f"Dear Landlord,\n\n{MSG_BODY_SENTENCE} Please countersign the attached letter before closing.\n\nKind regards,\nCounsel",
    )
    m.set_property(msg.PropertyId.SENDER_NAME, "Target Co Counsel")
    m.set_property(msg.PropertyId.SENDER_EMAIL_ADDRESS, "counsel@example.com")
    m.add_recipient("landlord@example.com", display_name="Initech Realty")
    if attachments is None:
        attachments = {"consent_letter.txt": (f"CONSENT LETTER\n\n{MSG_ATTACHMENT_SENTENCE}\n".encode(), "text/plain")}
    for name, (data, mime) in attachments.items():
        m.add_attachment(name, data, mime_type=mime)
    return m.to_bytes()


def ole_doc_bytes() -> bytes:
    """A legacy .doc is an OLE2 compound file; the header is enough for type detection."""
    return bytes.fromhex("d0cf11e0a1b11ae1") + b"\x00" * 504


@lru_cache(maxsize=1)
def supported_files() -> dict[str, bytes]:
    """Room-relative path -> bytes, one file per supported format, in nested folders.

    Cached: python-docx and friends stamp the time into the file, and the room
    needs one byte-identical copy to test duplicate detection.
    """
    clause = (
        "Neither party may assign this Agreement without the prior written consent of the other party. "
        "Any change of control of the Supplier shall be deemed an assignment."
    )
    return {
        "Commercial/Supply/supply_agreement.pdf": text_pdf(
            [
                ["MASTER SUPPLY AGREEMENT", "1. Definitions", "The Supplier means Globex Ltd."],
                ["12. Assignment", clause[:90], clause[90:]],
            ]
        ),
        "Commercial/Supply/side_letter.docx": docx_bytes("Side Letter", [clause, "Governed by the laws of Delaware."]),
        "Corporate/cap_table.xlsx": xlsx_bytes(),
        "Corporate/board_deck.pptx": pptx_bytes(),
        "Corporate/summary.csv": b"contract,counterparty,term\nSupply,Globex Ltd,5 years\nLease,Initech,10 years\n",
        "Notes/readme.txt": b"Data room index.\n\nThis room holds the contracts of Target Co for Project Falcon.\n",
        "Notes/checklist.md": b"# Checklist\n\n## Consents\n\nCollect every change of control consent before signing.\n",
        "Notes/policy.html": (
            b"<html><body><h1>Privacy Policy</h1><p>We process personal data under the GDPR and keep it "
            b"for no longer than necessary.</p></body></html>"
        ),
        "Mail/executed.eml": eml_bytes(
            {
                "executed_supply.pdf": (text_pdf([["EXECUTED SUPPLY AGREEMENT", "Exclusivity: Globex is exclusive."]]), "application/pdf"),
                "notes.txt": (b"Signing notes: board approval obtained on 1 March 2026.\n", "text/plain"),
            }
        ),
        "Mail/consent_request.msg": msg_bytes(),
    }


def zip_with_symlink(buf: io.BytesIO, name: str, target: str) -> None:
    with zipfile.ZipFile(buf, "a") as zf:
        info = zipfile.ZipInfo(name)
        info.create_system = 3  # unix, so external_attr carries st_mode
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, target)


def build_room_zip(path: Path, extra: dict[str, bytes] | None = None) -> Path:
    """The full acceptance room as a zip: every format plus the bad-input set."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        files = {**supported_files(), **(extra or {})}
        for name, data in files.items():
            zf.writestr(name, data)
        zf.writestr("Bad/corrupt.pdf", b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without xref")
        zf.writestr("Bad/encrypted.pdf", encrypted_pdf())
        zf.writestr("Bad/scanned.pdf", blank_pdf())
        zf.writestr("Bad/empty.txt", b"")
        zf.writestr("Bad/legacy.doc", ole_doc_bytes())
        # a DOCX that claims to be a PDF: parsed as what it really is
        zf.writestr("Bad/really_a_docx.pdf", docx_bytes("Disguised", ["This file has the wrong extension."]))
        # bytes that are nothing we know, named .pdf
        zf.writestr("Bad/not_a_pdf.pdf", bytes(range(256)) * 4)
        zf.writestr("../escape.txt", b"zip-slip")
        zf.writestr("Bad/../../escape2.txt", b"zip-slip")
        zf.writestr("/etc/absolute.txt", b"absolute")
        zf.writestr("Bad/bomb.txt", b"0" * 5_000_000)  # deflates ~1000:1
        zf.writestr("Bad/big.txt", random.Random(7).randbytes(1_500_000))  # over a 1 MB limit, incompressible
        zf.writestr("Commercial/Supply/zz_copy_of_side_letter.docx", files["Commercial/Supply/side_letter.docx"])
        zf.writestr("Bad/dupname.txt", b"first copy of the name")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # zipfile warns about the duplicate we want
            zf.writestr("Bad/dupname.txt", b"second entry with the same name")
        zf.writestr("Bad/M?ller_Vertrag.txt", b"Vertrag mit M\xc3\xbcller GmbH.\n")
    zip_with_symlink(buf, "Bad/link_to_passwd", "/etc/passwd")
    data = bytearray(buf.getvalue())
    # Make the name non-UTF-8: cp1252 0xFC ('u' umlaut) without the zip UTF-8 flag.
    data = data.replace(b"Bad/M?ller_Vertrag.txt", b"Bad/M\xfcller_Vertrag.txt")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(data))
    return path
