"""Memo view-model: claims linked to findings, version labels and diffs, saving an edit, the unsaved-edit guard."""

from __future__ import annotations

import difflib
import re

from core.types import Finding, MemoAuthor, MemoSection

from agents.memo import md, resolve_refs
from agents.store import Conflict


def version_label(s: MemoSection) -> str:
    kind = "agent proposal" if s.proposal else (f"reviewer {s.editor}" if s.editor else s.author.value)
    return f"v{s.version} · {kind} · {s.created_at.strftime('%Y-%m-%d %H:%M:%S')} UTC"


def save_edit(store, run_id: str, section: MemoSection, text: str, author: str) -> str | None:
    """Save the reviewer's text over the version they were shown; None when saved, else why not in plain words
    (a colleague or the agent saved the section meanwhile: theirs is kept, this text is not written over it)."""
    try:
        store.save_reviewer_edit(run_id, section.key, text, author, expected_version=section.version)
    except Conflict as e:
        return str(e)
    return None


def diff(old: str, new: str, old_name: str, new_name: str) -> str:
    """Unified diff, line based (sections are short markdown)."""
    lines = difflib.unified_diff(old.splitlines(), new.splitlines(), old_name, new_name, lineterm="")
    return "\n".join(lines) or "(no difference)"


_IMAGE = re.compile(r"!(?=\[)")
_RAW_URL = re.compile(r"(?i)\b(https?|ftp)://")


def rendered(section: MemoSection, findings: dict[str, Finding]) -> str:
    """Section markdown with [F:id] references resolved to their citations. Agent sections escape untrusted
    text when they are drafted; a reviewer's own markdown keeps its formatting, but never loads an image or
    becomes a bare link (a pasted clause may hold one), so the page makes no request the reviewer did not ask for."""
    text = resolve_refs(section.text, findings)
    if section.author == MemoAuthor.reviewer:
        text = _RAW_URL.sub(lambda m: m.group(1) + r"\://", _IMAGE.sub(r"\\!", text))
    return text


def linked_findings(section: MemoSection, findings: dict[str, Finding]) -> list[tuple[str, str]]:
    """(finding id, one-line label) for each finding the section cites, in its order; labels are markdown
    (Streamlit renders button labels), so the finding's text is escaped."""
    out = []
    for fid in section.finding_ids:
        f = findings.get(fid)
        if f is not None:
            summary = f.summary if len(f.summary) <= 90 else f.summary[:89] + "…"
            out.append((fid, f"{f.severity.value} · {md(summary)} · p. {f.citation.page}"))
    return out


# Runs in the page (st.html with JavaScript): a constant script, no untrusted input. Streamlit commits a text
# area when it loses focus; clicking another page in the sidebar can navigate before that commit is saved,
# and closing the tab discards it. So while a memo editor holds text that differs from what it opened with,
# leaving asks first.
UNSAVED_GUARD = """
<script>
(function () {
  const w = window.parent && window.parent.document ? window.parent : window;
  if (w.__memoGuard) return;
  w.__memoGuard = true;
  const doc = w.document;
  const opened = new WeakMap();
  const editors = () => Array.from(doc.querySelectorAll('[class*="st-key-edit_"] textarea'));
  const dirty = () => editors().some(t => opened.has(t) && t.value !== opened.get(t));
  doc.addEventListener('focusin', e => {
    const t = e.target;
    if (t && t.tagName === 'TEXTAREA' && t.closest('[class*="st-key-edit_"]') && !opened.has(t)) opened.set(t, t.value);
  }, true);
  doc.addEventListener('click', e => {
    const link = e.target && e.target.closest && e.target.closest('a[data-testid="stSidebarNavLink"]');
    if (link && dirty() && !w.confirm('You have an unsaved memo edit. Leave this page and discard it?')) {
      e.preventDefault(); e.stopPropagation();
    }
  }, true);
  w.addEventListener('beforeunload', e => { if (dirty()) { e.preventDefault(); e.returnValue = ''; } });
})();
</script>
"""
