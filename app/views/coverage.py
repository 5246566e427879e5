"""Coverage map view-model: the room as a treemap, folder → document, sized by tokens.

Plain Python (no streamlit) so it is unit-testable; the page only renders it.
"""

from __future__ import annotations

import plotly.graph_objects as go

from agents.store.models import DocumentReview

from app.views.palette import COVERAGE_COLORS, COVERAGE_ORDER

ROOT_ID = "__room__"


STATUS_LABELS = {
    "unreviewed": "unreviewed",
    "in_review": "in review",
    "reviewed": "reviewed",
    "flagged": "flagged",
    "failed": "failed to parse",
    "skipped": "failed to parse",  # not parsed: drawn with the failures, its reason says why
}


def cell_status(doc: DocumentReview) -> str:
    """Colour class of a document. The store says "failed" for both a parse failure and a
    failed review; only the latter has tokens (a file that did not parse has no text)."""
    if doc.status == "failed" and doc.reason == "review failed":
        return "review failed"
    return STATUS_LABELS.get(doc.status, "unreviewed")


def _folder_chain(folder: str) -> list[str]:
    parts = [p for p in folder.split("/") if p]
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def _folder_totals(cells: list[DocumentReview]) -> dict[str, list[int]]:
    """Per folder (every level): [pages, tokens, findings, documents, reviewed] of all documents beneath it,
    so hovering a folder says what is in it instead of zeros."""
    out: dict[str, list[int]] = {}
    for c in cells:
        done = int(cell_status(c) in ("reviewed", "flagged"))
        for f in _folder_chain(c.folder):
            t = out.setdefault(f, [0, 0, 0, 0, 0])
            for i, v in enumerate((c.pages, c.tokens, c.findings, 1, done)):
                t[i] += v
    return out


def treemap(cells: list[DocumentReview], room: str) -> go.Figure:
    """Treemap with one trace, every level drawn (documents can sit any number of folders deep); documents
    carry their id in customdata for click-through, folders the totals of what is beneath them."""
    totals = _folder_totals(cells)
    done = sum(cell_status(c) in ("reviewed", "flagged") for c in cells)
    ids, labels, parents, values, colors, custom = [ROOT_ID], [room], [""], [0], [COVERAGE_COLORS["folder"]], [
        ["", room, sum(c.pages for c in cells), sum(c.tokens for c in cells), sum(c.findings for c in cells),
         f"room · {done}/{len(cells)} documents reviewed"]
    ]
    for f in sorted(totals):
        parent = f.rsplit("/", 1)[0] if "/" in f else ROOT_ID
        pages, tokens, findings, n, done = totals[f]
        ids.append("dir:" + f)
        labels.append(f.rsplit("/", 1)[-1])
        parents.append("dir:" + parent if parent != ROOT_ID else ROOT_ID)
        values.append(0)
        colors.append(COVERAGE_COLORS["folder"])
        custom.append(["", f, pages, tokens, findings, f"folder · {done}/{n} documents reviewed"])
    for c in cells:
        status = cell_status(c)
        ids.append(c.document_id)
        labels.append(c.path.rsplit("/", 1)[-1])
        parents.append("dir:" + c.folder if c.folder else ROOT_ID)
        # A failed file has no tokens; give it a sliver so it is still visible.
        values.append(max(c.tokens, 1))
        colors.append(COVERAGE_COLORS[status])
        custom.append([c.document_id, c.path, c.pages, c.tokens, c.findings, status])
    fig = go.Figure(
        go.Treemap(
            ids=ids,
            labels=labels,
            parents=parents,
            values=values,
            branchvalues="remainder",
            marker=dict(colors=colors, line=dict(color="#FFFFFF", width=1)),
            customdata=custom,
            hovertemplate="<b>%{customdata[1]}</b><br>%{customdata[5]}<br>pages: %{customdata[2]}"
            "<br>tokens: %{customdata[3]:,}<br>findings: %{customdata[4]}<extra></extra>",
            textinfo="label",
            maxdepth=-1,  # all levels: a depth limit left deep rooms as grey folder boxes with no document in them
        )
    )
    fig.update_layout(margin=dict(t=8, l=4, r=4, b=4), height=420, uirevision=room)
    return fig


def legend_html() -> str:
    """Colour legend built from the palette (no document content in it)."""
    items = "".join(
        f'<span style="margin-right:1rem;white-space:nowrap"><span style="display:inline-block;width:0.8rem;'
        f'height:0.8rem;background:{COVERAGE_COLORS[s]};border:1px solid #AAB;vertical-align:middle;'
        f'margin-right:0.3rem"></span>{s}</span>'
        for s in COVERAGE_ORDER
    )
    return f'<div style="font-size:0.85rem">{items}</div>'


def selected_document(selection: object) -> str | None:
    """Document id from st.plotly_chart's selection state, if a document tile was clicked.

    A treemap click reports the tile's `id` (folders are 'dir:…', the room is ROOT_ID)."""
    points = []
    if isinstance(selection, dict):
        points = (selection.get("selection") or {}).get("points") or []
    for p in points:
        if not isinstance(p, dict):
            continue
        pid = p.get("id") or ((p.get("customdata") or [""])[0])
        if pid and pid != ROOT_ID and not str(pid).startswith("dir:"):
            return str(pid)
    return None
