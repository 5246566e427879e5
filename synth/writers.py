"""Render a `Doc` to a file in each supported format, byte-for-byte reproducibly.

Office formats are zip files stamped with the current time and carry
creation dates; `_freeze_zip` rewrites both so the same seed gives the same
bytes and the committed sample room does not churn on regeneration.
"""

from __future__ import annotations

import html
import io
import re
import zipfile
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

from synth.doc import Doc

FIXED_DT = (2025, 1, 1, 0, 0, 0)
_CORE_DATE_RE = re.compile(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:(?:created|modified)>)")


def freeze_zip(data: bytes) -> bytes:
    """Same zip with fixed entry times and fixed creation dates in docProps/core.xml."""
    with zipfile.ZipFile(io.BytesIO(data)) as zin:
        entries = [(i.filename, zin.read(i.filename)) for i in zin.infolist()]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in entries:
            if name == "docProps/core.xml":
                data = _CORE_DATE_RE.sub(rb"\g<1>2025-01-01T00:00:00Z\g<2>", data)
            info = zipfile.ZipInfo(name, date_time=FIXED_DT)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zout.writestr(info, data)
    return buf.getvalue()


def write_txt(doc: Doc, path: Path) -> None:
    out = []
    for b in doc.blocks:
        if b.kind == "pagebreak":
            continue
        if b.kind in ("title", "heading"):
            out.append(b.text.upper())
        else:
            out.append(b.plain())
    path.write_text("\n\n".join(out) + "\n", encoding="utf-8")


def write_md(doc: Doc, path: Path) -> None:
    out = []
    for b in doc.blocks:
        if b.kind == "title":
            out.append(f"# {b.text}")
        elif b.kind == "heading":
            out.append(f"## {b.text}")
        elif b.kind == "table":
            head, *rows = b.rows
            out.append("\n".join(["| " + " | ".join(head) + " |", "|" + "---|" * len(head)] + ["| " + " | ".join(r) + " |" for r in rows]))
        elif b.kind == "signature":
            out.append("  \n".join(b.text.replace("_", "").splitlines()))
        elif b.kind == "para":
            out.append(f"**{b.lead}** {b.text}" if b.lead else b.text)
    path.write_text("\n\n".join(out) + "\n", encoding="utf-8")


def render_html(doc: Doc) -> str:
    e = lambda s: html.escape(s, quote=False)  # noqa: E731
    out = [f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{e(doc.title)}</title>\n"
           "<style>body{font-family:Georgia,serif;max-width:48em;margin:2em auto;line-height:1.5}"
           "table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 6px}</style>\n</head>\n<body>"]
    for b in doc.blocks:
        if b.kind == "title":
            out.append(f"<h1>{e(b.text)}</h1>")
        elif b.kind == "heading":
            out.append(f"<h2>{e(b.text)}</h2>")
        elif b.kind == "table":
            head, *rows = b.rows
            cells = "".join(f"<th>{e(c)}</th>" for c in head)
            body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in r) + "</tr>\n" for r in rows)
            out.append(f"<table>\n<tr>{cells}</tr>\n{body}</table>")
        elif b.kind == "signature":
            out.append("<p>" + "<br>\n".join(e(x) for x in b.text.splitlines()) + "</p>")
        elif b.kind == "para":
            lead = f"<strong>{e(b.lead)}</strong> " if b.lead else ""
            out.append(f"<p>{lead}{e(b.text)}</p>")
    out.append("</body>\n</html>\n")
    return "\n".join(out)


def write_html(doc: Doc, path: Path) -> None:
    path.write_text(render_html(doc), encoding="utf-8")


def docx_bytes(doc: Doc) -> bytes:
    from datetime import datetime

    import docx
    from docx.shared import Pt

    d = docx.Document()
    d.core_properties.title = doc.title
    d.core_properties.author = ""
    d.core_properties.created = d.core_properties.modified = datetime(2025, 1, 1)
    d.styles["Normal"].font.size = Pt(10.5)
    # Style objects, not names: python-docx resolves a name by scanning every style, per paragraph.
    title_style, h1_style = d.styles["Title"], d.styles["Heading 1"]
    for b in doc.blocks:
        if b.kind == "title":
            d.add_paragraph(b.text, style=title_style)
        elif b.kind == "heading":
            d.add_paragraph(b.text, style=h1_style)
        elif b.kind == "pagebreak":
            d.add_page_break()
        elif b.kind == "table":
            t = d.add_table(rows=len(b.rows), cols=len(b.rows[0]))
            t.style = "Table Grid"
            for r, row in enumerate(b.rows):
                for c, val in enumerate(row):
                    t.cell(r, c).text = val
        elif b.kind == "signature":
            for line in b.text.splitlines():
                d.add_paragraph(line)
        else:
            p = d.add_paragraph()
            if b.lead:
                p.add_run(b.lead + " ").bold = True
            p.add_run(b.text)
    buf = io.BytesIO()
    d.save(buf)
    return freeze_zip(buf.getvalue())


def write_docx(doc: Doc, path: Path) -> None:
    path.write_bytes(docx_bytes(doc))


def _wrap(words: list[tuple[str, str]], size: float, width: float) -> list[list[tuple[str, str, float]]]:
    from reportlab.pdfbase.pdfmetrics import stringWidth

    lines: list[list[tuple[str, str, float]]] = [[]]
    used = 0.0
    space = stringWidth(" ", "Helvetica", size)
    for word, font in words:
        w = stringWidth(word, font, size)
        if lines[-1] and used + space + w > width:
            lines.append([])
            used = 0.0
        used += (space if lines[-1] else 0) + w
        lines[-1].append((word, font, w))
    return lines


def write_pdf(doc: Doc, path: Path) -> None:
    from reportlab.lib.pagesizes import LETTER
    from reportlab.pdfbase.pdfmetrics import stringWidth
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), pagesize=LETTER, invariant=1, pageCompression=1)
    c.setTitle(doc.title)
    c.setAuthor("")
    c.setCreator("")
    width, height = LETTER
    margin, bottom = 72.0, 80.0
    state = {"y": height - margin, "page": 1}

    def footer() -> None:
        c.setFont("Helvetica", 8)
        c.drawString(margin, 40, doc.footer or doc.title)
        c.drawRightString(width - margin, 40, f"Page {state['page']}")

    def new_page() -> None:
        footer()
        c.showPage()
        state["page"] += 1
        state["y"] = height - margin

    def draw_lines(lines: list[list[tuple[str, str, float]]], size: float, leading: float, center: bool = False) -> None:
        # Keep a paragraph on one page: a page break inside it would put the footer in the middle of a planted sentence.
        if state["y"] - leading * len(lines) < bottom and len(lines) * leading < height - margin - bottom:
            new_page()
        space = stringWidth(" ", "Helvetica", size)
        for line in lines:
            if state["y"] - leading < bottom:
                new_page()
            state["y"] -= leading
            total = sum(w for _, _, w in line) + space * (len(line) - 1)
            x = (width - total) / 2 if center else margin
            # One drawString per run of words in the same font: fewer operators, same text layer.
            i = 0
            while i < len(line):
                j = i
                while j < len(line) and line[j][1] == line[i][1]:
                    j += 1
                c.setFont(line[i][1], size)
                c.drawString(x, state["y"], " ".join(w for w, _, _ in line[i:j]))
                x += sum(w for _, _, w in line[i:j]) + space * (j - i)
                i = j

    usable = width - 2 * margin
    for b in doc.blocks:
        if b.kind == "pagebreak":
            if state["y"] < height - margin:
                new_page()
            continue
        if b.kind == "table":
            # Columns as wide as their longest cell (header in bold), scaled down to the text width if needed.
            widths = [max(stringWidth(row[ci], "Helvetica-Bold" if r == 0 else "Helvetica", 8.5) for r, row in enumerate(b.rows)) + 14
                      for ci in range(len(b.rows[0]))]
            scale = min(1.0, usable / sum(widths))
            xs = [margin + sum(widths[:ci]) * scale for ci in range(len(widths))]
            for r, row in enumerate(b.rows):
                if state["y"] - 13 < bottom:
                    new_page()
                state["y"] -= 13
                c.setFont("Helvetica-Bold" if r == 0 else "Helvetica", 8.5)
                for ci, val in enumerate(row):
                    c.drawString(xs[ci], state["y"], val)
            state["y"] -= 8
            continue
        if b.kind == "signature":
            lines = [_wrap([(w, "Helvetica") for w in ln.split()], 10.5, usable)[0] for ln in b.text.splitlines()]
            draw_lines(lines, 10.5, 15)
            state["y"] -= 10
            continue
        bold = "Helvetica-Bold"
        size, leading, font, center = {"title": (15, 20, bold, True), "subtitle": (11, 15, bold, True),
                                       "heading": (11.5, 17, bold, False)}.get(b.kind, (10.5, 14.5, "Helvetica", False))
        if b.kind in ("heading",) and state["y"] - 60 < bottom:
            new_page()  # no heading alone at the foot of a page
        words = [(w, bold) for w in b.lead.split()] + [(w, font) for w in b.text.split()]
        draw_lines(_wrap(words, size, usable), size, leading, center)
        state["y"] -= 7
    footer()
    c.showPage()
    c.save()


WRITERS = {"txt": write_txt, "md": write_md, "html": write_html, "docx": write_docx, "pdf": write_pdf}


def write_doc(doc: Doc, path: Path, fmt: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    WRITERS[fmt](doc, path)


def write_eml(path: Path, *, sender: str, to: str, date: str, subject: str, body: str,
              attachment: tuple[str, bytes] | None = None) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Date"], msg["Subject"] = sender, to, date, subject
    msg["Message-ID"] = f"<{path.stem.lower()}@dataroom.invalid>"
    msg.set_content(body)
    if attachment:
        name, data = attachment
        if name.endswith(".docx"):
            msg.add_attachment(data, maintype="application",
                               subtype="vnd.openxmlformats-officedocument.wordprocessingml.document", filename=name)
        else:
            msg.add_attachment(data.decode("utf-8"), subtype="plain", filename=name)
        msg.set_boundary(f"=====dataroom-{path.stem}=====")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(msg.as_bytes(policy=SMTP))
