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
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Font, PatternFill

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


def _set(ws, row: int, col: int, value) -> None:
    cell = ws.cell(row=row, column=col, value=value)
    if isinstance(value, str) and value.startswith("="):
        cell.data_type = "s"  # openpyxl takes a leading '=' for a formula; this one is text


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
    wb = Workbook()
    ws = wb.active
    ws.title = "Answers"
    header = ["Document", "Assigned to", *(c.title for c in grid.columns)]
    for j, h in enumerate(header, 1):
        _set(ws, 1, j, h)
        ws.cell(row=1, column=j).font = Font(bold=True)
        ws.cell(row=1, column=j).alignment = Alignment(wrap_text=True, vertical="top")
    for i, (doc_id, path) in enumerate(grid.documents, 2):
        _set(ws, i, 1, path)
        _set(ws, i, 2, grid.assignee(doc_id))
        for j, col in enumerate(grid.columns, 3):
            _set(ws, i, j, grid.cell(doc_id, col.id))
            mark = grid.mark(doc_id, col.id)
            note = citation_text(grid.answers.get((doc_id, col.id)), mark)
            if note:
                ws.cell(row=i, column=j).comment = Comment(note, "Dataroom RLM", width=420, height=220)
            if fill := _fill(mark):
                ws.cell(row=i, column=j).fill = fill
    ws.freeze_panes = "C2"
    ws.column_dimensions["A"].width = 50
    cites = wb.create_sheet("Citations")
    for j, h in enumerate(CSV_COLUMNS, 1):
        _set(cites, 1, j, h)
        cites.cell(row=1, column=j).font = Font(bold=True)
    for i, row in enumerate(rows(grid), 2):
        for j, value in enumerate(row, 1):
            _set(cites, i, j, value)
    cites.freeze_panes = "A2"
    qs = wb.create_sheet("Questions")
    for j, h in enumerate(("id", "question", "answer type", "source", "in words"), 1):
        _set(qs, 1, j, h)
    for i, c in enumerate(grid.columns, 2):
        for j, value in enumerate((c.id, c.title, c.type.value, c.source.value, c.description), 1):
            _set(qs, i, j, value)
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
