"""Memo export: DOCX readable with python-docx (headings, tables, bracketed citations), Markdown."""

from __future__ import annotations

from docx import Document as Docx

from core.types import Citation, Finding, Memo, Severity

from agents import memo as m
from agents.store_models import Coverage, DocumentReview, FolderCoverage
from core.checklist import load_checklist


def _f(cat: str, quote: str, path: str, page: int, sev=Severity.high, verified=True) -> Finding:
    return Finding(category=cat, severity=sev, summary=f"{cat} in {path}", quote=quote, verified=verified,
                   citation=Citation(document_id=path, document_path=path, page=page, chunk_id="c", char_start=0,
                                     char_end=len(quote)))


def test_memo_docx_has_headings_tables_and_citations(settings, tmp_path):
    items = load_checklist(settings.checklist_path)
    fs = [_f("change_of_control", "Supplier may terminate upon a Change of Control.", "Commercial/acme.pdf", 3),
          _f("anti_assignment", "Customer shall not assign without consent.", "Commercial/beta.pdf", 1, Severity.medium),
          _f("anti_assignment", "Invented text.", "Commercial/beta.pdf", 2, verified=False)]
    cov = Coverage(documents_reviewed=2, documents_total=2, tokens_reviewed=900, tokens_total=900, documents_failed_parse=1,
                   by_folder=[FolderCoverage(folder="Commercial", documents_reviewed=2, documents_total=2, failed_parse=1)])
    docs = [DocumentReview(document_id="z", path="Commercial/scan.pdf", folder="Commercial", status="failed",
                           reason="no text layer")]
    sections = [m.executive_summary(fs, items, cov), m.consents_section(fs)]
    sections += [m.item_section(i, fs, None) for i in items[:3]]
    sections.append(m.scope_section(cov, docs, {"exclusivity": "exclusive dealing"}, items))
    memo = Memo(room="sample", run_id="r1", sections=sections)
    path = m.to_docx(memo, tmp_path / "memo.docx")

    doc = Docx(str(path))
    headings = [p.text for p in doc.paragraphs if p.style.name.startswith("Heading") or p.style.name == "Title"]
    assert headings[0] == "Due diligence memo — sample"
    assert {"Executive summary", "Consents and actions", "Change of control", "Scope and coverage"} <= set(headings)
    body = "\n".join(p.text for p in doc.paragraphs)
    assert "[Commercial/acme.pdf, p. 3]" in body
    assert "Invented text." not in body  # unverified: never in the memo
    consents = doc.tables[0]
    assert [c.text for c in consents.rows[0].cells] == ["Contract", "Trigger", "Required action", "Source"]
    rows = [[c.text for c in r.cells] for r in consents.rows[1:]]
    assert ["Commercial/acme.pdf", "change of control", "Seek waiver of termination right", "[Commercial/acme.pdf, p. 3]"] in rows
    assert any(r[0] == "Commercial/beta.pdf" and r[2] == "Obtain counterparty consent before closing" for r in rows)
    scope_table = doc.tables[1]
    assert [c.text for c in scope_table.rows[1].cells] == ["Commercial", "2", "2", "1"]
    assert "Commercial/scan.pdf: no text layer" in body

    md = m.to_markdown(memo)
    assert md.startswith("# Due diligence memo — sample") and "## Scope and coverage" in md


def test_llm_section_refs_resolve_to_bracketed_citations():
    f = _f("change_of_control", "q", "A/x.pdf", 7)
    assert m.resolve_refs(f"Terminable on CoC [F:{f.id}].", {f.id: f}) == "Terminable on CoC [A/x.pdf, p. 7]."
    assert m.resolve_refs("[F:deadbeef00]", {}) == "[F:deadbeef00]"
