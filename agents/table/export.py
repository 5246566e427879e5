"""The table as files: XLSX (answers sheet with each citation as the cell's comment, a citations sheet, the
questions) and CSV (one row per cell with its passage and the reviewer's mark).

Every value is untrusted text (read from documents or typed by a reviewer): a spreadsheet would run a cell
that starts like a formula, so such cells are written as plain strings (XLSX) or with a leading apostrophe
(CSV, the usual defence).
"""

from __future__ import annotations

import csv
import io

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.comments import Comment
from openpyxl.styles import Font, PatternFill

from agents.table.answers import Answer
from agents.table.grid import Grid

XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
COMMENT_CHARS = 1200
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_FILLS = {"corrected": "DCE8F5", "verified": "DFF0D8", "flagged": "FCE8C3"}
CSV_COLUMNS = ["document", "question", "question id", "answer", "derived answer", "status", "reviewer mark",
               "assigned to", "page", "char start", "char end", "quote verified", "quote"]


def _safe(value: str) -> str:
    return "'" + value if value.startswith(_FORMULA_START) else value


def _cell(ws, value, bold: bool = False, comment: str = "", fill: PatternFill | None = None) -> WriteOnlyCell:
    cell = WriteOnlyCell(ws, value=value)
    if isinstance(value, str) and value.startswith("="):
        cell.data_type = "s"  # openpyxl takes a leading '=' for a formula; this one is text
    if bold:
        cell.font = Font(bold=True)
    if comment:
        cell.comment = Comment(comment, "Dataroom RLM", width=420, height=220)
    if fill is not None:
        cell.fill = fill
    return cell


def citation_text(answer: Answer | None, mark: str) -> str:
    """A cell's comment: its passages with page and span, then the reviewer's mark."""
    parts = []
    for q in (answer.quotes if answer else []):
        flag = "verified" if q.verified else "NOT verified"
        parts.append(f"p. {q.page}, chars {q.start}-{q.end} ({flag}): “{' '.join(q.text.split())[:400]}”")
    if mark:
        parts.append(f"Reviewer: {mark}")
    text = "\n".join(parts)
    return text if len(text) <= COMMENT_CHARS else text[:COMMENT_CHARS - 1] + "…"


def _fill(mark: str) -> PatternFill | None:
    for word, color in _FILLS.items():
        if mark.startswith(word):
            return PatternFill("solid", start_color=color, end_color=color)
    return None


def to_xlsx(grid: Grid) -> bytes:
    """Written in openpyxl's streaming mode: the regular one took about a minute for 1,000 × 50 cells."""
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Answers")
    ws.freeze_panes = "C2"
    ws.column_dimensions["A"].width = 50
    ws.append([_cell(ws, h, bold=True) for h in ["Document", "Assigned to", *(c.title for c in grid.columns)]])
    for doc_id, path in grid.documents:
        row = [_cell(ws, path), _cell(ws, grid.assignee(doc_id))]
        for col in grid.columns:
            mark = grid.mark(doc_id, col.id)
            row.append(_cell(ws, grid.cell(doc_id, col.id), comment=citation_text(grid.answers.get((doc_id, col.id)), mark),
                             fill=_fill(mark)))
        ws.append(row)
    cites = wb.create_sheet("Citations")
    cites.freeze_panes = "A2"
    cites.append([_cell(cites, h, bold=True) for h in CSV_COLUMNS])
    for values in rows(grid):
        cites.append([_cell(cites, v) for v in values])
    qs = wb.create_sheet("Questions")
    qs.append([_cell(qs, h, bold=True) for h in ("id", "question", "answer type", "source", "in words")])
    for c in grid.columns:
        qs.append([_cell(qs, v) for v in (c.id, c.title, c.type.value, c.source.value, c.description)])
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def rows(grid: Grid):
    """One row per cell and passage (a cell without a passage is one row): CSV_COLUMNS' values."""
    for doc_id, path in grid.documents:
        assignee = grid.assignee(doc_id)
        for col in grid.columns:
            a = grid.answers.get((doc_id, col.id))
            base = [path, col.title, col.id, grid.cell(doc_id, col.id), a.display() if a else "",
                    a.status.value if a else "", grid.mark(doc_id, col.id), assignee]
            quotes = a.quotes if a else []
            if not quotes:
                yield [*base, "", "", "", "", ""]
            for q in quotes:
                yield [*base, q.page, q.start, q.end, "yes" if q.verified else "no", " ".join(q.text.split())]


def to_csv(grid: Grid) -> bytes:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(CSV_COLUMNS)
    for row in rows(grid):
        w.writerow([_safe(v) if isinstance(v, str) else v for v in row])
    return buf.getvalue().encode("utf-8")
