"""End of run: grade findings whose provision is no longer live as `info`, with the reason.

Runs once every document has been read, because the evidence (an amendment,
an expiry letter) is often in a document other than the finding's. The change
goes through the store's reviewer-action path with the harness as author, so
the Findings page shows who changed what and a reviewer can restore the
original severity. Findings a reviewer has already decided are left alone.
"""

from __future__ import annotations

from datetime import date

from core.types import ReviewerStatus, Severity

from agents.runtime.context import HarnessContext
from agents.facts.lifecycle import not_live_reason, read_facts, room_status
from agents.memo.derive import note_agreement
from agents.memo.sections import NOT_LIVE

AUTHOR = "agent:lifecycle"
PREFIX = NOT_LIVE


def note_document(hc: HarnessContext, document_id: str, path: str, text: str) -> None:
    """Read a document's lifecycle facts and its agreement facts (parties, dates, law: the memo's agreements
    table and the findings' party names) during its review: the text is at hand, the loop mostly waiting."""
    if document_id not in hc.facts:
        hc.facts[document_id] = read_facts(document_id, path, text)
        note_agreement(hc.store, document_id, text)


def apply(hc: HarnessContext, run_id: str) -> set[str]:
    """Returns the checklist items whose findings changed (their memo sections need redrafting)."""
    # a regraded finding is info, so a resumed run's second pass leaves it alone
    findings = [f for f in hc.store.findings(run_id, verified=True)
                if f.severity != Severity.info and f.reviewer_status == ReviewerStatus.open]
    if not findings:
        return set()
    as_of = hc.settings.harness.as_of or date.today()
    cited = {f.citation.document_id for f in findings}
    facts, texts = [], {}
    for d in hc.room.parsed():  # one read per document; only the cited documents' text is kept for section lookups
        if d.id in hc.facts and d.id not in cited:
            facts.append(hc.facts[d.id])
            continue
        text = hc.room.text(d.id)
        facts.append(hc.facts[d.id] if d.id in hc.facts else read_facts(d.id, d.path, text))
        if d.id in cited:
            texts[d.id] = text
    status = room_status(facts, as_of)
    changed: set[str] = set()
    for f in findings:
        doc_status = status.get(f.citation.document_id)
        reason = not_live_reason(f, texts[f.citation.document_id], doc_status) if doc_status else ""
        if not reason:
            continue
        hc.store.set_finding_review(
            f.id, f.reviewer_status.value, f.reviewer_note, AUTHOR, run_id=run_id, severity=Severity.info.value,
            summary=f"{PREFIX} ({reason}; was {f.severity.value}): {f.summary}")
        changed.add(f.category)
    if changed:
        hc.emit(run_id, "findings_regraded", {"categories": sorted(changed), "as_of": as_of.isoformat()})
    return changed
