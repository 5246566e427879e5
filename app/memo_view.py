"""Memo view-model: claims linked to findings, version labels and diffs."""

from __future__ import annotations

import difflib

from core.types import Finding, MemoSection

from agents.memo import cite, resolve_refs


def version_label(s: MemoSection) -> str:
    kind = "agent proposal" if s.proposal else s.author.value
    return f"v{s.version} · {kind} · {s.created_at.strftime('%Y-%m-%d %H:%M:%S')} UTC"


def diff(old: str, new: str, old_name: str, new_name: str) -> str:
    """Unified diff, line based (sections are short markdown)."""
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), old_name, new_name, lineterm="")
    return "\n".join(lines) or "(no difference)"


def rendered(section: MemoSection, findings: dict[str, Finding]) -> str:
    """Section markdown with [F:id] references resolved to their citations."""
    return resolve_refs(section.text, findings)


def linked_findings(section: MemoSection, findings: dict[str, Finding]) -> list[tuple[str, str]]:
    """(finding id, one-line label) for each finding the section cites, in its order."""
    out = []
    for fid in section.finding_ids:
        f = findings.get(fid)
        if f is not None:
            out.append((fid, f"{f.severity.value} · {f.summary} {cite(f)}"))
    return out
