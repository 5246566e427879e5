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


def test_item_section_quotes_the_most_severe_and_the_schedule_lists_every_finding(settings, tmp_path):
    """A large room's item section stays readable (and each wave's rewrite stays small): it quotes the
    ITEM_LIMIT most severe findings and counts the rest, which the export's findings schedule lists."""
    item = next(i for i in load_checklist(settings.checklist_path) if i.id == "governing_law")
    fs = [_f("governing_law", f"This Agreement is governed by the laws of State {n}.", f"Legal/doc{n:03}.txt", 1,
             Severity.low if n % 3 else Severity.medium) for n in range(m.ITEM_LIMIT + 25)]
    fs.append(_f("governing_law", "Governed by the laws of Nowhere.", "Legal/bad.txt", 1, verified=False))
    section = m.item_section(item, fs, None)
    assert section.text.startswith(f"{m.ITEM_LIMIT + 25} finding(s) in {m.ITEM_LIMIT + 25} document(s).")
    assert section.text.count("  > “") == m.ITEM_LIMIT == len(section.finding_ids)
    # 15 medium and 5 low quoted: the 25 left are low
    assert "25 more finding(s) (25 low) are listed in the findings schedule" in section.text
    shown = set(section.finding_ids)
    assert all(f.id in shown for f in fs if f.severity == Severity.medium)  # the most severe come first

    memo = Memo(room="big", run_id="r", sections=[section])
    md = m.to_markdown(memo, {f.id: f for f in fs})
    schedule = md.split(f"## {m.SCHEDULE_TITLE}", 1)[1]
    assert f"### {item.title} ({m.ITEM_LIMIT + 25})" in schedule
    assert all(f"{m.cite(f)} · finding {f.id}" in schedule for f in fs if f.verified)
    assert "Nowhere" not in md  # unverified: neither quoted nor scheduled
    doc = Docx(str(m.to_docx(memo, tmp_path / "big.docx", {f.id: f for f in fs})))
    body = [p.text for p in doc.paragraphs]
    assert m.SCHEDULE_TITLE in body and sum(" · finding " in t for t in body) == m.ITEM_LIMIT + 25


def test_consents_table_and_scope_during_the_run_are_bounded_and_say_what_is_left():
    fs = [_f("change_of_control", f"Consent of Lender required on a change of control ({n}).", f"Debt/l{n}.pdf", 1)
          for n in range(3)]
    sec = m.consents_section(fs[:2], total=3)
    assert sec.text.count("| Debt/") == 2 and "1 more row(s), less severe" in sec.text
    assert "more row" not in m.consents_section(fs, total=3).text
    cov = Coverage(documents_reviewed=0, documents_total=60, tokens_reviewed=0, tokens_total=6000)
    docs = [DocumentReview(document_id=str(n), path=f"A/{n}.txt", folder="A", status="unreviewed") for n in range(60)]
    text = m.scope_section(cov, docs, {}, [], limit=m.SCOPE_LIMIT).text
    assert text.count("- A/") == m.SCOPE_LIMIT and f"and {60 - m.SCOPE_LIMIT} more" in text
    assert m.scope_section(cov, docs, {}, []).text.count("- A/") == 60
