"""Findings table view-model: rows, filters, the review order and the activity log, as plain data.

Everything a finding carries (summary, quote, path, note, agent) is untrusted: it
comes from documents, file names or a model. Nothing here returns markdown; the one
HTML builder escapes every piece before it meets markup.
"""

from __future__ import annotations

import html as _html
import re
from dataclasses import dataclass, field
from datetime import datetime

import pandas as pd

from core.types import SEVERITY_ORDER, Finding, Severity

from agents.store.models import ReviewerAction
from agents.store.table import parse_action_id

# Left to right in the table: what a reviewer scans for first. Widths in px: up to confidence
# they sum, with the row selector (32 px), to 856, inside the grid of the wide layout at a
# 1366-px window (884 px, measured in Chromium), so status and file never need a horizontal
# scroll; the full folder sits further right. agent and id are hidden.
TABLE_COLUMNS = ["review", "severity", "file", "category", "summary", "page", "confidence",
                 "folder", "verified", "agent", "id"]
COLUMN_WIDTHS = {"review": 72, "severity": 60, "file": 220, "category": 120, "summary": 230, "page": 40,
                 "confidence": 82, "folder": 160, "verified": 60}
SELECTOR_WIDTH = 32
# In the log, the only change a note-only edit makes (older stores logged it under the status).
_NOTE_ONLY = {"reviewer_note"}


def folder_of(f: Finding) -> str:
    path = f.citation.document_path
    return path.rsplit("/", 1)[0] if "/" in path else ""


def items_of(f: Finding) -> list[str]:
    """Every checklist item the finding answers, its own first (`also` comes with one-passage-one-finding)."""
    return [f.category, *(c for c in getattr(f, "also", []) if c != f.category)]


@dataclass
class Filters:
    """What the reviewer narrowed the table to; empty sets mean 'all'."""

    categories: set[str] = field(default_factory=set)
    severities: set[str] = field(default_factory=set)
    folders: set[str] = field(default_factory=set)
    documents: set[str] = field(default_factory=set)
    statuses: set[str] = field(default_factory=set)
    verified: bool | None = None

    def keep(self, f: Finding) -> bool:
        return (
            (not self.categories or bool(self.categories.intersection(items_of(f))))
            and (not self.severities or f.severity.value in self.severities)
            and (not self.folders or folder_of(f) in self.folders)
            and (not self.documents or f.citation.document_path in self.documents)
            and (not self.statuses or f.reviewer_status.value in self.statuses)
            and (self.verified is None or f.verified == self.verified)
        )


def apply(findings: list[Finding], filters: Filters) -> list[Finding]:
    return [f for f in findings if filters.keep(f)]


def options(findings: list[Finding]) -> dict[str, list[str]]:
    """Distinct values for each filter widget, in a stable order."""
    return {
        "categories": sorted({c for f in findings for c in items_of(f)}),
        "severities": sorted({f.severity.value for f in findings}, key=lambda s: SEVERITY_ORDER[Severity(s)]),
        "folders": sorted({folder_of(f) for f in findings}),
        "documents": sorted({f.citation.document_path for f in findings}),
        "statuses": sorted({f.reviewer_status.value for f in findings}),
    }


def short_paths(paths: list[str]) -> dict[str, str]:
    """Each path as its file name plus as many parent folders as it takes to tell it apart.

    Data rooms repeat file names ("Contract.pdf" in forty deal folders) and share long
    prefixes, so neither the name alone nor a path cut at the right edge identifies a
    document; the shortest distinguishing tail does.
    """
    parts = {p: [s for s in p.split("/") if s] or [p] for p in set(paths)}
    depth = {p: 1 for p in parts}
    while True:
        tails: dict[str, set[str]] = {}
        for p, segs in parts.items():
            tails.setdefault("/".join(segs[-depth[p]:]), set()).add(p)
        grow = [p for same in tails.values() if len(same) > 1 for p in same if depth[p] < len(parts[p])]
        if not grow:
            break
        for p in grow:
            depth[p] += 1
    return {p: ("…/" if depth[p] < len(segs) and depth[p] > 1 else "") + "/".join(segs[-depth[p]:])
            for p, segs in parts.items()}


FILE_CHARS = 30  # what the file column shows at its width


def fit(names: dict[str, str], width: int = FILE_CHARS) -> dict[str, str]:
    """Cut long names in the middle, keeping the start (the distinguishing folder) and the end
    (name and extension); a name whose cut form would match another's is left whole."""
    head = width // 2 - 3

    def cut(s: str) -> str:
        return s if len(s) <= width else s[:head] + "…" + s[len(s) - (width - head - 1):]

    cuts = {k: cut(v) for k, v in names.items()}
    seen: dict[str, int] = {}
    for c in cuts.values():
        seen[c] = seen.get(c, 0) + 1
    return {k: c if seen[c] == 1 else names[k] for k, c in cuts.items()}


def item_titles(f: Finding, titles: dict[str, str]) -> str:
    """'Change of control (also: Termination for convenience)'."""
    own, *also = [titles.get(c, c) for c in items_of(f)]
    return f"{own} (also: {', '.join(also)})" if also else own


def table(findings: list[Finding], titles: dict[str, str]) -> pd.DataFrame:
    """One row per finding; the id column lets a selected row be mapped back."""
    short = fit(short_paths([f.citation.document_path for f in findings]))
    rows = [
        {
            "review": f.reviewer_status.value,
            "severity": f.severity.value,
            "file": short[f.citation.document_path],
            "category": item_titles(f, titles),
            "summary": f.summary,
            "page": f.citation.page,
            "confidence": f.confidence,
            "folder": folder_of(f),
            "verified": f.verified,
            "agent": f.agent,
            "id": f.id,
        }
        for f in findings
    ]
    return pd.DataFrame(rows, columns=TABLE_COLUMNS)


def label(f: Finding, titles: dict[str, str], short: dict[str, str] | None = None) -> str:
    """One line naming a finding in a picker: severity and decision first, then where and what."""
    summary = f.summary if len(f.summary) <= 70 else f.summary[:69] + "…"
    path = (short or {}).get(f.citation.document_path, f.citation.document_path)
    return (f"[{f.severity.value.upper()}] {f.reviewer_status.value} · {titles.get(f.category, f.category)} — "
            f"{path} p. {f.citation.page} — {summary}")


def next_open(findings: list[Finding], current: str | None) -> str | None:
    """The first open finding after `current` in the order shown, wrapping round; None when none is left.

    `findings` is the list as it was shown when the reviewer acted, so the position of
    `current` is known even when the decision takes it out of a filtered view. The
    current finding itself never counts: it has just been decided (or skipped).
    """
    ids = [f.id for f in findings]
    start = ids.index(current) + 1 if current in ids else 0
    for f in findings[start:] + findings[:start]:
        if f.id != current and f.reviewer_status.value == "open":
            return f.id
    return None


def progress_line(findings: list[Finding]) -> str:
    """'2 accepted · 1 rejected · 0 edited · 9 open': the reviewer's progress in words."""
    counts = {s: 0 for s in ("accepted", "rejected", "edited", "open")}
    for f in findings:
        counts[f.reviewer_status.value] += 1
    return " · ".join(f"{n} {s}" for s, n in counts.items())


def action_name(a: ReviewerAction) -> str:
    """What the log calls an action: a change of the note alone is a 'note', whatever the store logged."""
    changed = {k for k in a.new if a.old.get(k) != a.new.get(k)}
    return "note" if changed and changed <= _NOTE_ONLY else a.action


def activity(actions: list[ReviewerAction], findings: dict[str, Finding], titles: dict[str, str]) -> pd.DataFrame:
    """The reviewer activity log, newest first, with what changed."""
    rows = []
    paths = {f.citation.document_id: f.citation.document_path for f in findings.values()}
    for a in reversed(actions):
        changed = [k for k in a.new if a.old.get(k) != a.new.get(k)]
        f = findings.get(a.finding_id)
        cell = parse_action_id(a.finding_id)  # a review-table mark shares the log
        what = (f"{titles.get(f.category, f.category)} — {f.citation.document_path}" if f
                else f"review table: {titles.get(cell[1], cell[1])} — {paths.get(cell[0], cell[0])}" if cell else a.finding_id)
        rows.append({
            "when (UTC)": a.at.strftime("%Y-%m-%d %H:%M:%S"),
            "author": a.author,
            "action": action_name(a),
            "finding": what,
            "changed": ", ".join(f"{k}: {a.old.get(k)!s} → {a.new.get(k)!s}" for k in changed),
        })
    return pd.DataFrame(rows, columns=["when (UTC)", "author", "action", "finding", "changed"])


def status_after_edit(f: Finding, summary: str, severity: str) -> str:
    """Changing the summary or severity makes it 'edited'; a note alone keeps the decision."""
    if summary != f.summary or severity != f.severity.value:
        return "edited"
    return f.reviewer_status.value


def html_escape(text: str) -> str:
    return _html.escape(text, quote=True)


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#!|>~<$])")


def md_escape(text: str) -> str:
    """Escape markdown syntax so document/model text renders literally in st.markdown.

    Not enough for untrusted text: Streamlit still links a bare URL, "www.x.y" and "a@b.c",
    and draws ":material/...:" icons, backslash-escaped or not (checked in Chromium against
    Streamlit 1.67). The findings and trace pages therefore never pass untrusted text to
    markdown; use escaped st.html or st.text for it."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def carried_line(run_id: str, started_at: datetime | None) -> str:
    """'carried over from run of 2026-12-04 18:20 UTC (run 1a2b3c4d)'; the run may have been deleted."""
    when = f"of {started_at:%Y-%m-%d %H:%M} UTC " if started_at else ""
    return f"carried over from run {when}({run_id[:8]})"


def detail_html(f: Finding, titles: dict[str, str], carried: str = "") -> str:
    """The finding's facts for st.html, every untrusted piece escaped (the tags are the only markup)."""
    e = html_escape
    own, *also = [titles.get(c, c) for c in items_of(f)]
    facts = [f"<b>{e(own)}</b>", e(f.citation.document_path),
             *([e(f.citation.section)] if f.citation.section else []), f"p. {f.citation.page}",
             "quote verified in the source" if f.verified else "<b>QUOTE NOT VERIFIED</b>",
             f"model confidence {f.confidence:.0%}"]
    if f.agent:
        facts.append(f"by {e(f.agent)}")
    out = [" · ".join(facts)]
    if also:
        out.append(f"<div>Also answers: {e(', '.join(also))}</div>")
    out.append('<div style="white-space: pre-wrap; margin: 0.4rem 0"><b>Summary.</b> '
               f"{e(f.summary)}</div>")
    if f.reviewer_note:
        out.append(f'<div style="white-space: pre-wrap"><b>Reviewer note.</b> {e(f.reviewer_note)}</div>')
    if carried:
        out.append(f"<div><i>{e(carried)}</i></div>")
    return "".join(out)
