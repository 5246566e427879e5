"""Review table view-model: the grid as a DataFrame, filter, sort, pages, a cell's detail, the reviewer's
actions and the table's activity log, as plain data.

Every value comes from documents, file names, a model or a reviewer: nothing here returns markdown, and
the one HTML builder escapes every piece before it meets markup.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import pandas as pd

from core.settings import Settings
from core.types import ChecklistItem

from agents.memo import derive
from agents.store import ReviewStore
from agents.store.models import ReviewerAction
from agents.store.table import ROW, parse_action_id
from agents.table.answers import Answer
from agents.table.build import answer_with_model, build_room_table  # noqa: F401  (the page asks the model)
from agents.table.columns import AnswerType, Column, ColumnSource, custom_column
from agents.table.grid import Grid, load_grid  # noqa: F401  (the page loads the full grid for exports)

from app.views.findings_view import short_paths

PAGE_SIZE = 100
FILE = "document"
ASSIGNEE = "assigned to"
# What a lawyer opens the table for first; every other column is one click away.
DEFAULT_COLUMNS = ["cuad:Parties", "cuad:Agreement Date", "cuad:Expiration Date", "cuad:Governing Law",
                   "cuad:Renewal Term", "cuad:Change of Control", "cuad:Anti-Assignment",
                   "cuad:Termination for Convenience", "cuad:Exclusivity", "cuad:Non-Compete",
                   "cuad:Cap on Liability", "cuad:Uncapped Liability"]
TYPES = [t.value for t in AnswerType]


def default_columns(columns: list[Column]) -> list[str]:
    ids = {c.id for c in columns}
    return [c for c in DEFAULT_COLUMNS if c in ids] + [c.id for c in columns if c.source is ColumnSource.custom]


def headers(columns: list[Column]) -> dict[str, str]:
    """Column id -> the grid's header: its title, told apart from a CUAD category of the same name
    ("Exclusivity") by its source."""
    seen: set[str] = {FILE, ASSIGNEE}
    out = {}
    for c in columns:
        h = c.title if c.title not in seen else f"{c.title} ({c.source.value})"
        seen.add(h)
        out[c.id] = h
    return out


def frame(grid: Grid, column_ids: list[str]) -> pd.DataFrame:
    """One row per document: its short path, who it is assigned to, and the chosen columns' answers (the
    reviewer's correction where there is one). The document id is the index."""
    short = short_paths([p for _, p in grid.documents])
    titles = headers(grid.columns)
    data = {FILE: [short[p] for _, p in grid.documents], ASSIGNEE: [grid.assignee(d) for d, _ in grid.documents]}
    for cid in column_ids:
        data[titles.get(cid, cid)] = [grid.cell(d, cid) for d, _ in grid.documents]
    return pd.DataFrame(data, index=pd.Index([d for d, _ in grid.documents], name="document_id"))


def filter_frame(df: pd.DataFrame, column: str | None, contains: str) -> pd.DataFrame:
    """Rows whose `column` (any shown column when None) contains the words, case-insensitively."""
    words = contains.strip().lower()
    if not words:
        return df
    cols = [column] if column in df.columns else list(df.columns)
    keep = pd.Series(False, index=df.index)
    for c in cols:
        keep |= df[c].astype(str).str.lower().str.contains(words, regex=False)
    return df[keep]


def sort_frame(df: pd.DataFrame, column: str | None, descending: bool = False) -> pd.DataFrame:
    """Sorted by a column; empty and 'not found' cells last either way."""
    if column not in df.columns:
        return df
    values = df[column].astype(str)
    missing = values.eq("") | values.str.startswith(("not found", "No (not found)", "passages only"))
    order = pd.DataFrame({"m": missing, "v": values.str.lower()}, index=df.index)
    order = order.sort_values(["m", "v"], ascending=[True, not descending], kind="stable")
    return df.loc[order.index]


def page(df: pd.DataFrame, number: int, size: int = PAGE_SIZE) -> pd.DataFrame:
    """The number-th page (1-based, clamped)."""
    pages = max(1, -(-len(df) // size))
    number = min(max(1, number), pages)
    return df.iloc[(number - 1) * size: number * size]


def pages(df: pd.DataFrame, size: int = PAGE_SIZE) -> int:
    return max(1, -(-len(df) // size))


def picked_cell(shown: pd.DataFrame, cells: list, grid: Grid) -> tuple[str, str | None] | None:
    """(document id, column id or None) of the cell clicked in the grid's page `shown`."""
    if not cells:
        return None
    row, header = cells[0][0], cells[0][1]
    if not 0 <= row < len(shown):
        return None
    by_header = {h: cid for cid, h in headers(grid.columns).items()}
    return str(shown.index[row]), by_header.get(header)


def grid_height(rows: int) -> int:
    """Tall enough for the rows shown (35 px each, plus the header), at most 420 px."""
    return min(420, 38 + 35 * max(1, rows))


@dataclass
class CellDetail:
    document_id: str
    path: str
    column: Column
    answer: Answer | None
    shown: str
    mark: str
    corrected: str | None


def cell_detail(store: ReviewStore, grid: Grid, document_id: str, column_id: str) -> CellDetail:
    """A cell with its passages (read from the store: the grid of the page holds values only)."""
    column = next(c for c in grid.columns if c.id == column_id)
    got = store.answers(grid.run_id, document_id=document_id, column_id=column_id)
    answer = got[0] if got else None
    grid.answers[(document_id, column_id)] = answer if answer else grid.answers.get((document_id, column_id))
    mark = grid.marks.get((document_id, column_id))
    path = dict(grid.documents).get(document_id, document_id)
    return CellDetail(document_id, path, column, answer, grid.cell(document_id, column_id),
                      grid.mark(document_id, column_id), mark.corrected if mark else None)


def detail_html(d: CellDetail) -> str:
    """The cell's question, answer, status and mark as escaped HTML."""
    e = html.escape
    status = d.answer.status.value if d.answer else "not built"
    rows = [("Question", f"{d.column.title} ({d.column.type.value})"), ("Document", d.path),
            ("Answer", d.shown or "—"), ("Status", status)]
    if d.corrected is not None and d.answer is not None:
        rows.append(("Derived answer", d.answer.display()))
    if d.mark:
        rows.append(("Reviewer", d.mark))
    if d.answer is not None and d.answer.quotes:
        rows.append(("Passages", f"{len(d.answer.quotes)}, "
                     + ("all found verbatim at their place" if d.answer.verified else "NOT all verified")))
    return "".join(f"<div><b>{e(k)}.</b> {e(v)}</div>" for k, v in rows)


def build(settings: Settings, store: ReviewStore, run_id: str, items: list[ChecklistItem]) -> int:
    """(Re)build the run's table; returns the number of documents."""
    answers = build_room_table(settings, store, run_id, items)
    return len({a.document_id for a in answers})


def add_question(store: ReviewStore, room: str, question: str, kind: str, author: str) -> Column:
    return store.add_table_column(room, custom_column(question, kind), author)


def remove_question(settings: Settings, store: ReviewStore, run_id: str, room: str, column_id: str,
                    items: list[ChecklistItem]) -> None:
    """Take a reviewer's question off the room's table. Its marks and corrections stay in the store, so asking
    the same question again (the same words are the same column) brings them back."""
    store.remove_table_column(room, column_id)
    build(settings, store, run_id, items)


def mark(store: ReviewStore, run_id: str, items: list[ChecklistItem], document_id: str, column_id: str,
         author: str, **change) -> None:
    """A reviewer's mark on a cell (or with column_id ROW, an assignment of the row); the memo's summary
    sections, whose per-agreement table reads the answers, are derived again at once."""
    store.set_table_mark(run_id, document_id, column_id, author, **change)
    if column_id != ROW:
        derive.rederive(store, run_id, items, keys=set())


def activity(actions: list[ReviewerAction], grid: Grid) -> pd.DataFrame:
    """The table's part of the activity log, newest first."""
    titles = {c.id: c.title for c in grid.columns}
    paths = dict(grid.documents)
    rows = []
    for a in reversed(actions):
        cell = parse_action_id(a.finding_id)
        if cell is None:
            continue
        doc, col = cell
        rows.append({"when (UTC)": a.at.strftime("%Y-%m-%d %H:%M:%S"), "author": a.author, "action": a.action,
                     "cell": f"{paths.get(doc, doc)} — {titles.get(col, col) if col != ROW else 'whole row'}",
                     "changed": ", ".join(f"{k}: {a.old.get(k)!s} → {a.new.get(k)!s}" for k in a.new)})
    return pd.DataFrame(rows, columns=["when (UTC)", "author", "action", "cell", "changed"])


def grid_of(store: ReviewStore, run_id: str) -> Grid | None:
    return load_grid(store, run_id, with_quotes=False)
