"""The diligence memo: section drafting from findings, and Markdown / DOCX export.

Sections: executive summary, consents and actions table, one per checklist item,
scope and coverage. Only verified findings that the reviewer did not reject
are cited. Citations are bracketed references `[path, p. N]`; an LLM-written
section may cite `[F:<finding id>]`, which export resolves to the same form.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from core.types import SEVERITY_ORDER, ChecklistItem, Finding, Memo, MemoSection, ReviewerStatus, Severity

from agents.store_models import Coverage, DocumentReview, FindingTally

EXEC_KEY, CONSENTS_KEY, SCOPE_KEY = "executive_summary", "consents", "scope"
CONSENT_CATEGORIES = ("change_of_control", "anti_assignment", "lease_assignment", "debt_change_of_control")
# A memo section quotes its item's most severe findings; the export's findings schedule lists them all. Redrawn
# with every finding, each wave's rewrite (and stored version) grew with the room: quadratic at 5,000 documents.
ITEM_LIMIT = 20
KEY_ISSUES = 12
CONSENT_LIMIT = 50  # rows while the run goes on; the final table has them all
SCOPE_LIMIT = 50  # unreviewed documents listed while the run goes on
_FREF = re.compile(r"\[F:([0-9a-f]{6,64})\]")


def position(key: str, items: list[ChecklistItem]) -> int:
    """Display order: summary, consents, checklist items in checklist order, scope last."""
    if key == EXEC_KEY:
        return 0
    if key == CONSENTS_KEY:
        return 1
    if key == SCOPE_KEY:
        return 10_000
    ids = [i.id for i in items]
    return 10 + (ids.index(key) if key in ids else len(ids))


def citable(findings: list[Finding]) -> list[Finding]:
    """What the memo may cite: verified and not rejected by the reviewer, most severe first."""
    keep = [f for f in findings if f.verified and f.reviewer_status != ReviewerStatus.rejected]
    return sorted(keep, key=lambda f: (SEVERITY_ORDER[f.severity], f.citation.document_path, f.citation.char_start))


def cite(f: Finding) -> str:
    return f"[{f.citation.document_path or f.citation.document_id}, p. {f.citation.page}]"


def _quote(text: str, limit: int = 400) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def tally_of(findings: list[Finding]) -> FindingTally:
    """The tally of a list already in hand (tests, small rooms); the store counts large runs in SQL."""
    cited = citable(findings)
    return FindingTally(counts=dict(Counter((f.category, f.severity.value) for f in cited)),
                        documents=len({f.citation.document_id for f in cited}))


def _more(tally: FindingTally, category: str | None, shown: int, where: str) -> str:
    """'N more finding(s) (x medium, y low) ...': what a bounded section leaves out, counted."""
    rest = Counter({s.value: tally.total(category, s.value) for s in Severity})
    for s in Severity:  # the shown ones are the most severe, so they come off the top
        take = min(rest[s.value], shown)
        rest[s.value] -= take
        shown -= take
    parts = [f"{n} {s}" for s, n in rest.items() if n]
    return f"{sum(rest.values())} more finding(s) ({', '.join(parts)}) {where}."


def item_section(item: ChecklistItem, findings: list[Finding], searched_query: str | None,
                 followup_documents: int = 0, tally: FindingTally | None = None) -> MemoSection:
    """One checklist item: its most severe findings with quotes and citations (the rest counted, and listed in
    the findings schedule of the export), or a checked 'not found'. `tally` counts all of the item's citable
    findings where `findings` holds only the most severe of them."""
    cited = citable([f for f in findings if f.category == item.id])[:ITEM_LIMIT]
    tally = tally if tally is not None else tally_of([f for f in findings if f.category == item.id])
    total = tally.total(item.id)
    if cited:
        high = tally.total(item.id, Severity.high.value)
        lines = [f"{total} finding(s) in {tally.documents} document(s)" + (f"; {high} high severity." if high else "."), ""]
        for f in cited:
            lines.append(f"- **{f.severity.value.capitalize()}** — {f.summary} {cite(f)}")
            lines.append(f"  > “{_quote(f.quote)}”")
        if total > len(cited):
            lines += ["", _more(tally, item.id, len(cited), "are listed in the findings schedule at the end of the memo")]
        text = "\n".join(lines)
    elif searched_query is not None:
        text = (f"Not found. The room was searched for “{searched_query}” and the top passages"
                f"{f' in {followup_documents} document(s)' if followup_documents else ''} were re-reviewed by "
                f"sub-agents for this item; no such provision was identified. Red flag looked for: {item.red_flag}")
    else:
        text = f"No finding so far. Red flag looked for: {item.red_flag}"
    return MemoSection(key=item.id, title=item.title, text=text, finding_ids=[f.id for f in cited])


def _consent_row(f: Finding) -> tuple[str, str, str]:
    quote = f.quote.lower()
    trigger = f.extra.get("trigger") or ("change of control" if f.category.endswith("change_of_control")
                                         else "assignment / transfer")
    if f.extra.get("action"):
        action = f.extra["action"]
    elif "consent" in quote or "approval" in quote:
        action = "Obtain counterparty consent before closing"
    elif "terminat" in quote:
        action = "Seek waiver of termination right"
    elif "notice" in quote or "notif" in quote:
        action = "Give notice"
    else:
        action = "Review with counsel"
    return f.citation.document_path or f.citation.document_id, trigger, action


def consents_section(findings: list[Finding], total: int | None = None) -> MemoSection:
    """The consents and actions table. During a run the harness passes the most severe rows only and
    `total`, the count of all of them; the final memo gets every row."""
    rows = [f for f in citable(findings) if f.category in CONSENT_CATEGORIES]
    if not rows:
        text = "No consent or notice requirement was identified in the reviewed documents."
    else:
        lines = ["| Contract | Trigger | Required action | Source |", "|---|---|---|---|"]
        for f in rows:
            contract, trigger, action = (_cell(x) for x in _consent_row(f))
            lines.append(f"| {contract} | {trigger} | {action} | {cite(f)} |")
        if total is not None and total > len(rows):
            lines += ["", f"{total - len(rows)} more row(s), less severe; the table is completed when the review ends."]
        text = "\n".join(lines)
    return MemoSection(key=CONSENTS_KEY, title="Consents and actions", text=text, finding_ids=[f.id for f in rows])


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def executive_summary(findings: list[Finding], items: list[ChecklistItem], cov: Coverage,
                      searched: dict[str, str] | None = None, tally: FindingTally | None = None) -> MemoSection:
    """`findings` needs only the most severe (key issues); `tally` counts them all (default: counted here)."""
    cited = citable(findings)
    tally = tally if tally is not None else tally_of(findings)
    high = [f for f in cited if f.severity == Severity.high]
    titles = {i.id: i.title for i in items}
    lines = [
        f"Reviewed {cov.documents_reviewed} of {cov.documents_total} parsed documents "
        f"({cov.tokens_reviewed:,} of {cov.tokens_total:,} tokens); {cov.documents_failed_parse} file(s) could not be parsed.",
        f"{tally.total()} verified finding(s), {tally.total(severity=Severity.high.value)} high severity.",
    ]
    if high:
        lines += ["", "Key issues:"]
        for f in high[:KEY_ISSUES]:
            lines.append(f"- {titles.get(f.category, f.category)}: {f.summary} {cite(f)}")
    found = tally.categories()
    missing = [i for i in items if i.enabled and i.id not in found]
    checked = [i.title for i in missing if i.id in (searched or {})]
    pending = [i.title for i in missing if i.id not in (searched or {})]
    if checked:
        lines += ["", "Searched for and not found in the room: " + ", ".join(checked) + "."]
    if pending:
        lines += ["", "No finding yet (not yet searched for): " + ", ".join(pending) + "."]
    return MemoSection(key=EXEC_KEY, title="Executive summary", text="\n".join(lines),
                       finding_ids=[f.id for f in high[:KEY_ISSUES]])


def scope_section(cov: Coverage, docs: list[DocumentReview], searched: dict[str, str], items: list[ChecklistItem],
                  limit: int | None = None) -> MemoSection:
    """Coverage, every file that failed, what is not reviewed (the first `limit` while the run goes on)."""
    lines = [
        f"Documents reviewed: {cov.documents_reviewed} of {cov.documents_total} parsed "
        f"({cov.documents_ratio:.0%}); tokens reviewed: {cov.tokens_reviewed:,} of {cov.tokens_total:,} ({cov.tokens_ratio:.0%}).",
        "", "| Folder | Reviewed | Parsed | Failed to parse |", "|---|---|---|---|",
    ]
    for fc in cov.by_folder:
        lines.append(f"| {_cell(fc.folder or '(top level)')} | {fc.documents_reviewed} | {fc.documents_total} | {fc.failed_parse} |")
    failed = [d for d in docs if d.status == "failed" and d.reason != "review failed"]
    lines += ["", "Failed to parse or skipped:" if failed else "Every file was parsed."]
    lines += [f"- {d.path}: {d.reason or 'unknown reason'}" for d in failed]
    not_reviewed = [d for d in docs if d.status in ("unreviewed", "in_review") or d.reason == "review failed"]
    lines += ["", "Not reviewed:" if not_reviewed else "Every parsed document was reviewed."]
    lines += [f"- {d.path}" + (f" ({d.reason})" if d.reason else "") for d in not_reviewed[:limit]]
    if limit is not None and len(not_reviewed) > limit:
        lines.append(f"- … and {len(not_reviewed) - limit} more (the review is still running)")
    if searched:
        titles = {i.id: i.title for i in items}
        lines += ["", "Searched for explicitly (follow-up pass):"]
        lines += [f"- {titles.get(k, k)}: “{q}”" for k, q in searched.items()]
    return MemoSection(key=SCOPE_KEY, title="Scope and coverage", text="\n".join(lines))


def resolve_refs(text: str, findings: dict[str, Finding]) -> str:
    """Turn [F:<id>] into [path, p. N]; unknown ids are left visible so a reviewer can see them."""
    return _FREF.sub(lambda m: cite(findings[m.group(1)]) if m.group(1) in findings else m.group(0), text)


SCHEDULE_TITLE = "Findings schedule"
SCHEDULE_INTRO = ("Every verified finding not rejected by the reviewer, by checklist item, most severe first. "
                  "The sections above quote the most severe of each item.")


def findings_schedule(memo: Memo, findings: dict[str, Finding]) -> list[tuple[str, list[str]]]:
    """The memo's annex, built at export and not stored as a section: (item title, one line per finding)
    in the memo's order. The finding id lets a reader open it in the findings panel."""
    order = {s.key: (i, s.title) for i, s in enumerate(memo.sections)}
    groups: dict[str, list[Finding]] = {}
    for f in citable(list(findings.values())):
        groups.setdefault(f.category, []).append(f)
    out = []
    for cat in sorted(groups, key=lambda c: (order.get(c, (len(order), c))[0], c)):
        lines = [f"- **{f.severity.value.capitalize()}** — {f.summary} {cite(f)} · finding {f.id}" for f in groups[cat]]
        out.append((f"{order.get(cat, (0, cat))[1]} ({len(lines)})", lines))
    return out


def to_markdown(memo: Memo, findings: dict[str, Finding] | None = None) -> str:
    out = [f"# Due diligence memo — {memo.room}", ""]
    for s in memo.sections:
        out += [f"## {s.title}", "", resolve_refs(s.text, findings or {}), ""]
    schedule = findings_schedule(memo, findings or {})
    if schedule:
        out += [f"## {SCHEDULE_TITLE}", "", SCHEDULE_INTRO, ""]
        for title, lines in schedule:
            out += [f"### {title}", "", *lines, ""]
    return "\n".join(out)


def _table_rows(lines: list[str]) -> list[list[str]]:
    rows = []
    for line in lines:
        cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        if all(re.fullmatch(r":?-{3,}:?", c) for c in cells):
            continue
        rows.append(cells)
    return rows


def _add_run(doc, p, text: str, bold: bool = False) -> None:
    """A run appended to paragraph element `p`, written as plain w:r/w:rPr/w:t. python-docx's run API looks
    up each new child's position among every possible sibling and sets text one character at a time: per
    run that is most of the memo's export time once a memo has thousands of findings."""
    from docx.oxml.ns import qn
    from docx.oxml.parser import OxmlElement
    from docx.text.paragraph import Paragraph

    if "\t" in text or "\n" in text or "\r" in text:  # tabs and breaks need w:tab / w:br: the library maps them
        Paragraph(p, doc._body).add_run(text).bold = bold or None
        return
    r = OxmlElement("w:r")
    if bold:
        rpr = OxmlElement("w:rPr")
        rpr.append(OxmlElement("w:b"))
        r.append(rpr)
    t = OxmlElement("w:t")
    t.text = text
    if text != text.strip():
        t.set(qn("xml:space"), "preserve")
    r.append(t)
    p.append(r)


def _inline_runs(doc, p, text: str) -> None:
    """**bold** spans as bold runs; everything else plain."""
    for i, piece in enumerate(re.split(r"\*\*(.+?)\*\*", text)):
        if piece:
            _add_run(doc, p, piece, bool(i % 2))


def _para(doc, style_id: str | None):
    """A w:p element appended just before the body's section properties, its style id set directly.
    `doc.add_paragraph()` scans the body's children for its insertion point, and python-docx's by-name
    style lookup scans every style: both per call, quadratic in a memo of thousands of findings."""
    from docx.oxml.ns import qn
    from docx.oxml.parser import OxmlElement

    body = doc.element.body
    p = OxmlElement("w:p")
    if style_id:
        ppr = OxmlElement("w:pPr")
        ppr.append(OxmlElement("w:pStyle", {qn("w:val"): style_id}))
        p.append(ppr)
    last = next(iter(reversed(body)), None)  # from the end, without counting the children
    if last is not None and last.tag == qn("w:sectPr"):
        last.addprevious(p)
    else:
        body.append(p)
    return p


def to_docx(memo: Memo, path: Path, findings: dict[str, Finding] | None = None) -> Path:
    """DOCX with headings, real tables for markdown tables, bullets and quotes; citations stay bracketed."""
    from docx import Document as Docx

    doc = Docx()
    style_ids = {name: doc.styles[name].style_id for name in ("List Bullet", "Quote")}
    doc.add_heading(f"Due diligence memo — {memo.room}", level=0)
    for s in memo.sections:
        doc.add_heading(s.title, level=1)
        lines = resolve_refs(s.text, findings or {}).splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.strip().startswith("|"):
                block = []
                while i < len(lines) and lines[i].strip().startswith("|"):
                    block.append(lines[i])
                    i += 1
                rows = _table_rows(block)
                table = doc.add_table(rows=0, cols=max(len(r) for r in rows))
                table.style = "Table Grid"
                for cells in rows:  # add_row().cells is O(row); table.cell(r, c) rescans the grid every call
                    for cell, text in zip(table.add_row().cells, cells):
                        cell.text = text
                continue
            stripped = line.strip()
            if stripped.startswith("- "):
                _inline_runs(doc, _para(doc, style_ids["List Bullet"]), stripped[2:])
            elif stripped.startswith(">"):
                _add_run(doc, _para(doc, style_ids["Quote"]), stripped.lstrip("> "))
            elif stripped:
                _inline_runs(doc, _para(doc, None), stripped)
            i += 1
    schedule = findings_schedule(memo, findings or {})
    if schedule:
        doc.add_heading(SCHEDULE_TITLE, level=1)
        _inline_runs(doc, _para(doc, None), SCHEDULE_INTRO)
        for title, lines in schedule:
            doc.add_heading(title, level=2)
            for line in lines:
                _inline_runs(doc, _para(doc, style_ids["List Bullet"]), line[2:])
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(str(path))
    return path
