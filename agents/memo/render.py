"""The memo as Markdown and DOCX: its sections in order, then the findings schedule as an appendix.

Section text is markdown whose untrusted pieces are escaped (agents.memo.markup);
the DOCX writer lays out its tables, bullets, quotes and bold runs and undoes
the escapes, so Word shows the literal text. The body ends with a page break
before the appendix, so what a partner reads first is the body alone.
"""

from __future__ import annotations

import re
from pathlib import Path

from core.types import ChecklistItem, Finding, Memo

from agents.memo.markup import cite, md, plain, reviewer_marks
from agents.memo.sections import AGREEMENTS_KEY, CONSENTS_KEY, EXEC_KEY, SCOPE_KEY, citable

_FREF = re.compile(r"\[F:([0-9a-f]{6,64})\]")
SCHEDULE_TITLE = "Appendix: findings schedule"
SCHEDULE_INTRO = ("Every verified finding not rejected by the reviewer, by checklist item, most severe first, "
                  "with the reviewer's edits and notes. The sections above name the most severe of each item.")


def position(key: str, items: list[ChecklistItem]) -> int:
    """Display order: summary, consents, agreements, checklist items in checklist order, scope last."""
    fixed = {EXEC_KEY: 0, CONSENTS_KEY: 1, AGREEMENTS_KEY: 2, SCOPE_KEY: 10_000}
    if key in fixed:
        return fixed[key]
    ids = [i.id for i in items]
    return 10 + (ids.index(key) if key in ids else len(ids))


def resolve_refs(text: str, findings: dict[str, Finding]) -> str:
    """Turn [F:<id>] into [path, p. N]; unknown ids are left visible so a reviewer can see them."""
    return _FREF.sub(lambda m: cite(findings[m.group(1)]) if m.group(1) in findings else m.group(0), text)


def findings_schedule(memo: Memo, findings: dict[str, Finding]) -> list[tuple[str, list[str]]]:
    """The memo's annex, built at export and not stored as a section: (item title, lines) in the memo's
    order, a finding under its own item. The finding id lets a reader open it in the findings panel."""
    order = {s.key: (i, s.title) for i, s in enumerate(memo.sections)}
    groups: dict[str, list[Finding]] = {}
    for f in citable(list(findings.values())):
        groups.setdefault(f.category, []).append(f)
    out = []
    for cat in sorted(groups, key=lambda c: (order.get(c, (len(order), c))[0], c)):
        lines: list[str] = []
        seen: dict[str, int] = {}  # a line's text -> its index, for passages that read the same at the same place
        for f in groups[cat]:
            also = [order.get(i, (0, i))[1] for i in f.also]
            text = (f"- **{f.severity.value.capitalize()}** — {md(f.summary)}{reviewer_marks(f)}"
                    + (f" Also answers: {md(', '.join(also))}." if also else "") + f" {cite(f)}")
            # two passages of one section that say the same thing are one line with both finding ids (a note
            # belongs to its own finding, so a finding with one keeps its line)
            if not f.reviewer_note.strip() and text in seen:
                i = seen[text]
                lines[i] = lines[i].replace(" · finding ", " · findings ", 1) + f", {f.id}"
                continue
            lines.append(f"{text} · finding {f.id}")
            if f.reviewer_note.strip():
                lines.append(f"  - Reviewer note: {md(f.reviewer_note)}")
            else:
                seen[text] = len(lines) - 1
        out.append((f"{order.get(cat, (0, cat))[1]} ({len(groups[cat])})", lines))
    return out


def to_markdown(memo: Memo, findings: dict[str, Finding] | None = None) -> str:
    out = [f"# Due diligence memo — {md(memo.room)}", ""]
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
        cells = [plain(c.strip()) for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
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
            _add_run(doc, p, plain(piece), bool(i % 2))


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


def _house_style(doc) -> None:
    """A memo's page: 10.5 pt text, tight paragraph spacing, 2 cm margins, 8.5 pt tables whose cells carry
    no paragraph spacing (the template's 10 pt after every paragraph doubled the height of every table row)."""
    from docx.shared import Cm, Pt

    normal = doc.styles["Normal"]
    normal.font.size = Pt(10.5)
    normal.paragraph_format.space_after = Pt(3)
    normal.paragraph_format.line_spacing = 1.05
    grid = doc.styles["Table Grid"]
    grid.font.size = Pt(8.5)
    for section in doc.sections:
        section.left_margin = section.right_margin = Cm(2)
        section.top_margin = section.bottom_margin = Cm(2)


TEXT_WIDTH_CM = 17.0  # A4 or Letter less 2 cm margins, rounded down


CHAR_CM = 0.2   # an average character of the 8.5 pt table font, bold headers included (as LibreOffice lays it out)
PAD_CM = 0.38   # a cell's left and right margins together
WIDE_TABLE = 8  # columns from which a table's text is set at 8 pt: every column's longest word then fits the page


def _column_widths(rows: list[list[str]], char_cm: float = CHAR_CM) -> list:
    """Columns as wide as their text needs (a Yes/No column narrow, a clause column wide), in proportion to
    each column's longest line of words, within the page; and never narrower than the column's longest word
    ("§ 10.2" counts as one), which a narrow column broke letter by letter."""
    from docx.shared import Cm

    cols = max(len(r) for r in rows)
    need, floor = [], []
    for c in range(cols):
        texts = [r[c] for r in rows if c < len(r)]
        words = [w for t in texts for w in t.replace("§ ", "§\u00a0").split()]
        longest_word = min(max((len(w) for w in words), default=3), 22)
        need.append(max(min(max((len(t) for t in texts), default=3), 40), longest_word, 4))
        floor.append(min(longest_word, 11) * char_cm + PAD_CM)
    if sum(floor) > TEXT_WIDTH_CM:  # too many columns for every longest word: shrink the floors alike
        floor = [f * TEXT_WIDTH_CM / sum(floor) for f in floor]
    widths = [TEXT_WIDTH_CM * n / sum(need) for n in need]
    for _ in range(len(widths)):  # raise narrow columns to their floor, taking it from the wide ones in proportion
        short = sum(f - w for w, f in zip(widths, floor) if w < f)
        spare = [w - f if w > f else 0.0 for w, f in zip(widths, floor)]
        if short <= 1e-9 or sum(spare) <= 0:
            break
        widths = [f if w <= f else w - short * sp / sum(spare) for w, f, sp in zip(widths, floor, spare)]
    return [Cm(w) for w in widths]


def _header_row(row) -> None:
    """A table's first row repeats on every page it runs onto and never stands alone at a page's foot."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    props = row._tr.get_or_add_trPr()
    for tag in ("w:tblHeader", "w:cantSplit"):
        el = OxmlElement(tag)
        el.set(qn("w:val"), "true")
        props.append(el)


def _table_cell_style(doc, name: str = "Memo Table Text", size: float = 8.5):
    """A paragraph style for table cells: small and without spacing (cells otherwise take Normal's)."""
    from docx.enum.style import WD_STYLE_TYPE
    from docx.shared import Pt

    style = doc.styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
    style.base_style = doc.styles["Normal"]
    style.font.size = Pt(size)
    style.paragraph_format.space_after = Pt(0)
    style.paragraph_format.line_spacing = 1.0
    return style


def to_docx(memo: Memo, path: Path, findings: dict[str, Finding] | None = None) -> Path:
    """DOCX with headings, real tables for markdown tables, bullets and quotes; citations stay bracketed."""
    from docx import Document as Docx

    doc = Docx()
    _house_style(doc)
    cell_style = _table_cell_style(doc)
    wide_style = _table_cell_style(doc, "Memo Wide Table Text", 8.0)
    style_ids = {name: doc.styles[name].style_id for name in ("List Bullet", "List Bullet 2", "Quote")}
    doc.add_heading(f"Due diligence memo — {memo.room}", level=0)  # a room name is validated: no markup
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
                wide = max(len(r) for r in rows) >= WIDE_TABLE
                widths = _column_widths(rows, CHAR_CM * 8.0 / 8.5 if wide else CHAR_CM)
                table.autofit = False
                for column, width in zip(table.columns, widths):  # the grid: what LibreOffice lays out by
                    column.width = width
                for n, cells in enumerate(rows):  # add_row().cells is O(row); table.cell(r, c) rescans the grid
                    row = table.add_row()
                    if n == 0:
                        _header_row(row)
                    for cell, text, width in zip(row.cells, cells, widths):
                        cell.width = width
                        para = cell.paragraphs[0]
                        para.style = wide_style if wide else cell_style
                        para.paragraph_format.keep_with_next = n == 0
                        _add_run(doc, para._p, text, bold=n == 0)
                continue
            stripped = line.strip()
            if stripped.startswith("- "):
                nested = line.startswith("  ")
                _inline_runs(doc, _para(doc, style_ids["List Bullet 2" if nested else "List Bullet"]), stripped[2:])
            elif stripped.startswith(">"):
                _add_run(doc, _para(doc, style_ids["Quote"]), plain(stripped.lstrip("> ")))
            elif stripped:
                _inline_runs(doc, _para(doc, None), stripped)
            i += 1
    schedule = findings_schedule(memo, findings or {})
    if schedule:
        doc.add_page_break()  # the body ends here: a partner reads it alone, the schedule is for checking
        doc.add_heading(SCHEDULE_TITLE, level=1)
        _inline_runs(doc, _para(doc, None), SCHEDULE_INTRO)
        for title, lines in schedule:
            doc.add_heading(title, level=2)
            for line in lines:
                style = style_ids["List Bullet 2" if line.startswith("  ") else "List Bullet"]
                _inline_runs(doc, _para(doc, style), line.strip()[2:])
    path.parent.mkdir(parents=True, exist_ok=True)
    doc.save(str(path))
    return path
