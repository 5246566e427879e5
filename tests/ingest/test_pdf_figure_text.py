"""Text a PDF draws inside a form XObject (a pdfminer 'figure') keeps the breaks between its lines."""

from __future__ import annotations

from reportlab.pdfgen import canvas

from ingest.parsing.parse import ParseTask, parse_file

LINES = ["either company may terminate", "this Agreement without the", "prior written consent of the other."]


def _pdf_with_form_text(path) -> None:
    c = canvas.Canvas(str(path))
    c.beginForm("body")  # EDGAR-converted contracts draw their body text like this
    for n, line in enumerate(LINES):
        c.drawString(72, 700 - 14 * n, line)
    c.endForm()
    c.doForm("body")
    c.showPage()
    c.save()


def test_lines_drawn_in_a_figure_are_not_glued_together(tmp_path):
    pdf = tmp_path / "form.pdf"
    _pdf_with_form_text(pdf)
    r = parse_file(ParseTask(file=str(pdf), document_id="d1", doc_type="pdf", attachments_dir=str(tmp_path / "att")))
    assert r.status.value == "parsed", r.reason
    words = r.text.split()
    assert words == " ".join(LINES).split()  # "terminate this", not "terminatethis"
    assert all(c.text in r.text for c in r.chunks)
