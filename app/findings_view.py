"""Findings table view-model: rows, filters and the activity log, as plain data."""

from __future__ import annotations

import html as _html
import re
from dataclasses import dataclass, field

import pandas as pd

from core.types import SEVERITY_ORDER, Finding, Severity

from agents.store_models import ReviewerAction



def folder_of(f: Finding) -> str:
    path = f.citation.document_path
    return path.rsplit("/", 1)[0] if "/" in path else ""


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
            (not self.categories or f.category in self.categories)
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
        "categories": sorted({f.category for f in findings}),
        "severities": sorted({f.severity.value for f in findings}, key=lambda s: SEVERITY_ORDER[Severity(s)]),
        "folders": sorted({folder_of(f) for f in findings}),
        "documents": sorted({f.citation.document_path for f in findings}),
        "statuses": sorted({f.reviewer_status.value for f in findings}),
    }


def table(findings: list[Finding], titles: dict[str, str]) -> pd.DataFrame:
    """One row per finding; the id column lets a selected row be mapped back."""
    rows = [
        {
            "severity": f.severity.value,
            "category": titles.get(f.category, f.category),
            "document": f.citation.document_path,
            "page": f.citation.page,
            "summary": f.summary,
            "verified": f.verified,
            "review": f.reviewer_status.value,
            "agent": f.agent,
            "id": f.id,
        }
        for f in findings
    ]
    cols = ["severity", "category", "document", "page", "summary", "verified", "review", "agent", "id"]
    return pd.DataFrame(rows, columns=cols)


def label(f: Finding, titles: dict[str, str]) -> str:
    """One line naming a finding in a picker."""
    summary = f.summary if len(f.summary) <= 70 else f.summary[:69] + "…"
    return f"[{f.severity.value.upper()}] {titles.get(f.category, f.category)} — {f.citation.document_path} — {summary}"


def activity(actions: list[ReviewerAction], findings: dict[str, Finding], titles: dict[str, str]) -> pd.DataFrame:
    """The reviewer activity log, newest first, with what changed."""
    rows = []
    for a in reversed(actions):
        changed = [k for k in a.new if a.old.get(k) != a.new.get(k)]
        f = findings.get(a.finding_id)
        rows.append({
            "when (UTC)": a.at.strftime("%Y-%m-%d %H:%M:%S"),
            "author": a.author,
            "action": a.action,
            "finding": f"{titles.get(f.category, f.category)} — {f.citation.document_path}" if f else a.finding_id,
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
    """Escape markdown so model/document text renders literally in st.markdown."""
    return _MD_SPECIAL.sub(r"\\\1", text)


def progress_line(findings: list[Finding]) -> str:
    """'2 accepted · 1 rejected · 0 edited · 9 open': the reviewer's progress in words."""
    counts = {s: 0 for s in ("accepted", "rejected", "edited", "open")}
    for f in findings:
        counts[f.reviewer_status.value] += 1
    return " · ".join(f"{n} {s}" for s, n in counts.items())
