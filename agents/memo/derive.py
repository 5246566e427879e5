"""The memo derived from the review store alone: by the harness as findings arrive, and by the app at once
after a reviewer's decision (reject, edit, note), so the memo always follows the reviewer.

Agent-drafted sections are rewritten; a section the reviewer edited keeps the
reviewer's text and gets the new draft as a pending proposal (the store's rule).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from core.types import ChecklistItem, Finding, MemoSection

from agents.memo import sections as sec
from agents.memo.agreements import Agreement, agreement_of, unique_labels
from agents.memo.render import position
from agents.store import ReviewStore

ITEM_LIMIT = 20  # findings a section reads while the run goes on; the rest are counted (quadratic otherwise)
KEY_POOL = 60  # high and medium findings the key issues are ranked from
CONSENT_LIMIT = 50  # consent findings while the run goes on; the final table has them all
AGREEMENT_LIMIT = 50  # agreements listed while the run goes on
SCOPE_LIMIT = 50  # unreviewed documents listed while the run goes on
_FACTS_DIR = Path(__file__).resolve().parent.parent / "facts"


@lru_cache(maxsize=1)
def facts_version() -> str:
    """The extractor's code hash: cached facts are read again when the extractor changes."""
    h = hashlib.sha256()
    for p in sorted(_FACTS_DIR.glob("*.py")):
        h.update(p.read_bytes())
    return h.hexdigest()[:16]


def note_agreement(store: ReviewStore, document_id: str, text: str) -> None:
    """Read a document's agreement facts once (during its review) into the store's cache."""
    if store.document_facts([document_id], facts_version()):
        return
    from agents.facts import extract_facts

    store.put_document_facts(document_id, facts_version(), extract_facts(text).model_dump(mode="json"))


def agreements(store: ReviewStore, run_id: str, document_ids: list[str] | None = None) -> dict[str, Agreement]:
    """The memo's view of the run's documents (all of them, or those named)."""
    paths = {r["document_id"]: r["path"] for r in store.run_documents(run_id)}
    ids = list(paths) if document_ids is None else [d for d in document_ids if d in paths]
    facts = store.document_facts(ids)
    out = {d: agreement_of(d, paths[d], facts.get(d)) for d in ids}
    _with_table_answers(store, run_id, out)
    unique_labels(list(out.values()))
    return out


def _with_table_answers(store: ReviewStore, run_id: str, out: dict[str, Agreement]) -> None:
    """The review table's answers over the facts, the reviewer's corrections included (agents.table.grid)."""
    from agents.table.grid import agreement_answers

    for doc, fields in agreement_answers(store, run_id).items():
        if doc in out:
            for name, value in fields.items():
                if name == "parties":
                    out[doc].parties = [(value, "")]
                else:
                    setattr(out[doc], name, value)


def item_section(store: ReviewStore, run_id: str, item: ChecklistItem, final: bool = False,
                 followup_documents: int | None = None, titles: dict[str, str] | None = None) -> MemoSection:
    findings = store.findings(run_id, category=item.id, citable=True, limit=None if final else ITEM_LIMIT)
    searched, followups = store.searched(run_id)
    docs = followups.get(item.id, 0) if followup_documents is None else followup_documents
    return sec.item_section(item, findings, searched.get(item.id), docs,
                            tally=store.finding_tally(run_id, category=item.id),
                            agreements=agreements(store, run_id, sorted({f.citation.document_id for f in findings})),
                            titles=titles)


def harness_sections(store: ReviewStore, run_id: str, items: list[ChecklistItem],
                     final: bool = False) -> list[MemoSection]:
    """Executive summary, consents and notices, agreements reviewed, scope: whole when `final`, else the most
    severe rows and counts (each wave rewrites them)."""
    enabled = [i for i in items if i.enabled]
    tally = store.finding_tally(run_id)
    cov = store.coverage(run_id)
    searched, _ = store.searched(run_id)
    pool = [f for sev in ("high", "medium") for f in store.findings(run_id, severity=sev, citable=True, limit=KEY_POOL)]
    limit = None if final else CONSENT_LIMIT
    consents = [f for c in ("change_of_control", "anti_assignment", "lease_assignment", "debt_change_of_control")
                for f in store.findings(run_id, category=c, citable=True, limit=limit)]
    consents = list({f.id: f for f in consents}.values())
    docs = store.document_status(run_id)
    reviewed = [d.document_id for d in docs if d.status in ("reviewed", "flagged")]
    named = agreements(store, run_id, reviewed + [f.citation.document_id for f in pool + consents])
    return [
        sec.executive_summary(pool, enabled, cov, searched, tally, named, rejected=store.rejected_count(run_id),
                              consent_findings=pool + consents),
        sec.consents_section(consents, named, total=None if final else sum(
            tally.total(c) for c in ("change_of_control", "anti_assignment", "lease_assignment",
                                     "debt_change_of_control"))),
        sec.agreements_section([named[d] for d in reviewed], store.items_by_document(run_id),
                               limit=None if final else AGREEMENT_LIMIT),
        sec.scope_section(cov, docs, searched, items, limit=None if final else SCOPE_LIMIT,
                          builtin=store.builtin_reviewed(run_id)),
    ]


def save(store: ReviewStore, run_id: str, section: MemoSection, items: list[ChecklistItem]) -> tuple[MemoSection, bool]:
    return store.save_agent_section(run_id, section, position(section.key, items))


def rederive(store: ReviewStore, run_id: str, items: list[ChecklistItem], keys: set[str] | None = None) -> list[str]:
    """After a reviewer's decision: rewrite the summary sections and the item sections named in `keys` (all
    items with a section when None). Returns the keys that changed (a new version or a new proposal)."""
    run = store.run(run_id)
    final = run is not None and run.status != "running"
    existing = {s.key for s in store.memo(run_id).sections}
    changed = []
    for s in harness_sections(store, run_id, items, final=final):
        if s.key in existing or final:
            if save(store, run_id, s, items)[1]:
                changed.append(s.key)
    for item in items:
        if item.enabled and item.id in existing and (keys is None or item.id in keys):
            if save(store, run_id, item_section(store, run_id, item, final=final, titles={i.id: i.title for i in items}),
                    items)[1]:
                changed.append(item.id)
    return changed


def review_finding(store: ReviewStore, run_id: str, items: list[ChecklistItem], finding_id: str, status: str,
                   note: str, author: str, summary: str | None = None, severity: str | None = None,
                   expected_version: int | None = None) -> tuple[Finding, list[str]]:
    """A reviewer's decision on a finding, and at once the memo it implies: the finding's item sections and the
    summary sections are derived again. Returns the finding as stored and the memo sections that changed.
    `expected_version`: the version the reviewer was shown (store.Conflict if someone decided since)."""
    before = store.finding(finding_id, run_id)
    f = store.set_finding_review(finding_id, status, note, author, summary=summary, severity=severity, run_id=run_id,
                                 expected_version=expected_version)
    keys = set(f.items) | (set(before.items) if before else set())
    return f, rederive(store, run_id, items, keys)


def parties_of(store: ReviewStore, document_id: str) -> list:
    """The agreement's parties (agents.facts.Party) from the cached facts; [] before its facts are read."""
    from agents.facts import Party

    facts = store.document_facts([document_id]).get(document_id, {})
    return [Party.model_validate(p) for p in facts.get("parties", [])]
