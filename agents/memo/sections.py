"""The memo's sections, drawn from the findings as the reviewer left them.

Every section is a function of the review store's state: citable findings
(verified, not rejected) with the reviewer's edited summary and severity and
their notes, the agreements' facts, coverage. Re-running a function after a
reviewer's decision gives the section that decision implies. All untrusted
text goes through `markup.md`.
"""

from __future__ import annotations

import re

from collections import Counter

from core.types import SEVERITY_ORDER, ChecklistItem, Finding, MemoSection, ReviewerStatus, Severity

from agents.memo import deal
from agents.memo.agreements import Agreement
from agents.memo.markup import file_name, md, note_line, operative_line, quote_line, reviewer_marks, short_cite
from agents.offline.clauses.clause_parts import successors_only
from agents.offline.clauses.fallbacks import is_placeholder, is_template
from agents.store.models import Coverage, DocumentReview, FindingTally, reading_key, reading_severity_key

EXEC_KEY, CONSENTS_KEY, AGREEMENTS_KEY, SCOPE_KEY = "executive_summary", "consents", "agreements", "scope"
KEY_ISSUES = 12
QUOTE_CHARS = 160
# Key items of the agreements matrix: (item id, column heading).
MATRIX = [("change_of_control", "CoC"), ("anti_assignment", "Assign."), ("termination_for_convenience", "TfC"),
          ("exclusivity", "Excl."), ("non_compete", "Non-comp."), ("most_favored_nation", "MFN"),
          ("uncapped_liability", "Uncapped"), ("cap_on_liability", "Cap")]
MATRIX_LEGEND = ("CoC: change of control; Assign.: anti-assignment; TfC: termination for convenience; Excl.: "
                 "exclusivity; Non-comp.: non-compete; MFN: most favoured nation; Uncapped: uncapped liability; "
                 "Cap: cap on liability.")


def citable(findings: list[Finding]) -> list[Finding]:
    """What the memo may cite: verified and not rejected by the reviewer, most severe first."""
    keep = [f for f in findings if f.verified and f.reviewer_status != ReviewerStatus.rejected]
    return sorted(keep, key=lambda f: (SEVERITY_ORDER[f.severity], f.citation.document_path, f.citation.char_start))


def tally_of(findings: list[Finding]) -> FindingTally:
    """The tally of a list already in hand (tests, small rooms); the store counts large runs in SQL."""
    cited = citable(findings)
    return FindingTally(counts=dict(Counter((i, f.severity.value) for f in cited for i in f.items)),
                        documents=len({f.citation.document_id for f in cited}), findings=len(cited),
                        high_findings=sum(f.severity == Severity.high for f in cited))


def _agreement(f: Finding, agreements: dict[str, Agreement]) -> Agreement:
    return agreements.get(f.citation.document_id) or Agreement(f.citation.document_id, f.citation.document_path)


def _by_agreement(findings: list[Finding], key=None) -> dict[str, list[Finding]]:
    """Findings grouped by document, the groups in order of their first finding (under `key`)."""
    groups: dict[str, list[Finding]] = {}
    for f in sorted(findings, key=key) if key else findings:
        groups.setdefault(f.citation.document_id, []).append(f)
    return groups


def _finding_line(f: Finding, lead: str, item_id: str = "") -> str:
    """A finding under an agreement already named: severity, summary, reviewer marks, page."""
    sev = severity_for_item(f, item_id)
    return f"{lead}**{sev.value.capitalize()}** — {md(said_for(f, item_id))}{reviewer_marks(f)} {short_cite(f)}"


def severity_for_item(f: Finding, item_id: str) -> Severity:
    """The grade the passage has in `item_id`'s section: the grade its reading for that item gave, where the passage
    is filed under another item and that reading's sentence stands there; the finding's own otherwise (and always
    once the reviewer edited it)."""
    if item_id and item_id != f.category and said_for(f, item_id) != f.summary:
        grade = f.extra.get(reading_severity_key(item_id), "")
        if grade in Severity.__members__:
            return Severity(grade)
    return f.severity


def said_for(f: Finding, item_id: str) -> str:
    """The finding's sentence in the section of `item_id`: a passage filed under another item says there what its
    reading for this item said ("Company's liability is capped") when that reading was graded (not informational) and
    read who does what; a reviewer's edit of the finding's text stands everywhere."""
    if item_id and item_id != f.category and f.reviewer_status != ReviewerStatus.edited:
        said = f.extra.get(reading_key(item_id), "")
        # the item's honest fallback sentence says less than the sentence the passage is filed with
        return said if said and not is_template(said, [item_id]) else f.summary
    return f.summary


# items whose sentences speak to each other: an exclusion from the cap is news under Cap on liability, a right to
# terminate on a change of control under Term; a non-compete's sentence under Term is not
_KIN = ({"cap_on_liability", "uncapped_liability"}, {"change_of_control", "anti_assignment", "lease_assignment"},
        {"change_of_control", "termination_for_convenience", "term_renewal"}, {"exclusivity", "non_compete", "non_solicit"},
        {"license_grant", "ip_ownership"})


def speaks_for(f: Finding, item_id: str) -> bool:
    """Whether the finding's sentence in this item's section is about this item: it is filed under the item or a
    kindred one, a reading of the item stands for it, or the reviewer wrote it."""
    return (f.category == item_id or any({f.category, item_id} <= kin for kin in _KIN)
            or said_for(f, item_id) != f.summary or f.reviewer_status == ReviewerStatus.edited)


def _pages(fs: list[Finding]) -> str:
    """Page references in the document's order, whatever order the findings were ranked in."""
    ordered = sorted(fs, key=lambda f: (f.citation.document_path, f.citation.page, f.citation.char_start))
    return " ".join(dict.fromkeys(short_cite(f) for f in ordered))


NOT_LIVE = "Not live"  # the summary prefix of a finding the lifecycle pass regraded (agents.finish.lifecycle_pass)


def _says_item(summary: str, item: ChecklistItem) -> bool:
    """Whether a sentence uses a word of the item's title ("indemnif" for Indemnification, "liabil" for Cap on
    liability): a reading of the item itself, not a clause's other duty restated."""
    stems = {w.lower()[:6] for w in re.findall(r"[A-Za-z]{5,}", item.title) if w.lower() not in _TITLE_FILLER}
    return any(stem in summary.lower() for stem in stems)


_TITLE_FILLER = {"agreement", "rights", "provisions", "clause", "terms", "other"}


def _touched(f: Finding) -> bool:
    """Decided or annotated by the reviewer, or regraded as not live: such a finding is always spelled out."""
    return bool(f.reviewer_note.strip()) or f.reviewer_status != ReviewerStatus.open or f.summary.startswith(NOT_LIVE)


def item_section(item: ChecklistItem, findings: list[Finding], searched_query: str | None,
                 followup_documents: int = 0, tally: FindingTally | None = None,
                 agreements: dict[str, Agreement] | None = None, titles: dict[str, str] | None = None) -> MemoSection:
    """One checklist item, per agreement: its most severe finding (quoted when high), further high or
    reviewer-touched passages, the rest cited by page; agreements with only low or informational findings
    in one line. Or a checked 'not found'. `tally` counts all of the item's citable findings where
    `findings` holds only the most severe of them. A passage filed under another item with no reading of
    this one is cited, not quoted with the other item's sentence ("Conformis may not compete" says nothing
    under Term): `titles` names those items."""
    agreements, titles = agreements or {}, titles or {}
    cited = [f for f in citable(findings) if item.id in f.items]
    tally = tally if tally is not None else tally_of(cited)
    total = tally.total(item.id)
    if not cited:
        if searched_query is not None:
            text = (f"Not found. The room was searched for “{md(searched_query)}” and the top passages"
                    f"{f' in {followup_documents} document(s)' if followup_documents else ''} were re-reviewed"
                    f" for this item; no such provision was identified.")
        else:
            text = "No finding so far."
        return MemoSection(key=item.id, title=item.title, text=f"{text} Red flag looked for: {item.red_flag}")
    # a passage filed high under another item whose reading of this one is graded lower is not high here
    high = tally.total(item.id, Severity.high.value) - sum(
        f.severity == Severity.high and severity_for_item(f, item.id) != Severity.high for f in cited)
    lines = [f"{total} finding(s) in {tally.documents} document(s)" + (f", {high} high severity." if high else "."), ""]
    minor: list[str] = []
    for fs in _by_agreement(cited).values():
        # of equally severe passages, one filed under this item leads (a passage filed under another item also
        # answers this one, but its sentence speaks to the other), then one whose sentence says who may do what
        # ("Vertex must indemnify Bunker One" leads an indemnity section over a tax-costs sentence of the same passage
        # kind: a sentence with the item's own word)
        fs = sorted(fs, key=lambda f: (not speaks_for(f, item.id), SEVERITY_ORDER[severity_for_item(f, item.id)],
                                       f.category != item.id,
                                       is_template(f.summary, f.items), not _says_item(f.summary, item)))
        top, rest = fs[0], fs[1:]
        label = md(_agreement(top, agreements).label)
        if not speaks_for(top, item.id):
            under = ", ".join(dict.fromkeys(titles.get(f.category, f.category.replace("_", " ")) for f in fs))
            lines.append(f"- {label}: passages filed under {md(under)} bear on this item too. {_pages(fs)}")
            for f in fs:
                lines += note_line(f)
            continue
        if severity_for_item(top, item.id) in (Severity.low, Severity.info) and not any(_touched(f) for f in fs):
            minor.append(f"{label} " + _pages(fs))
            continue
        lines.append(_finding_line(top, f"- {label}: ", item.id))
        if severity_for_item(top, item.id) == Severity.high:  # a vague sentence gets the clause's operative words
            vague = is_template(top.summary, top.items) or is_placeholder(top.summary)
            lines.append(operative_line(top, QUOTE_CHARS) if vague else quote_line(top, QUOTE_CHARS))
        lines += note_line(top)
        shown = [f for f in rest
                 if speaks_for(f, item.id) and (severity_for_item(f, item.id) == Severity.high or _touched(f))]
        for f in shown:
            lines.append(_finding_line(f, "  - ", item.id))
            lines += note_line(f)
        quiet = [f for f in rest if f not in shown]
        if quiet:
            lines.append("  - Further passages: " + _pages(quiet))
    if minor:
        lines.append("- Also found, low or informational: " + "; ".join(minor) + ".")
    if total > len(cited):
        lines += ["", f"{total - len(cited)} further finding(s) are listed in the findings schedule."]
    return MemoSection(key=item.id, title=item.title, text="\n".join(lines), finding_ids=[f.id for f in cited])


def key_issues(findings: list[Finding], items: list[ChecklistItem]) -> list[Finding]:
    """At most KEY_ISSUES high or medium findings, most consequential for the deal first, one per agreement
    and checklist item (the item's section cites the agreement's further passages)."""
    order = {i.id: n for n, i in enumerate(items)}
    pool = [f for f in citable(findings) if f.severity in (Severity.high, Severity.medium)]
    picked: dict[tuple[str, str], Finding] = {}
    # of one agreement's passages on one item, the one whose sentence says who may do what speaks for it, and of
    # those one whose consequence for closing was read ("either party may assign to a successor to its business")
    # over one that leaves it to counsel ("any assignment in breach of § 9.8 is void")
    for f in sorted(pool, key=lambda f: (deal.rank(f, order)[:2], is_template(f.summary, f.items),
                                         bool(set(f.items) & set(deal.CONSENT_ITEMS)) and deal.consequence(f) == deal.UNREAD,
                                         deal.rank(f, order))):
        picked.setdefault((f.citation.document_id, f.category), f)
    return sorted(picked.values(), key=lambda f: deal.rank(f, order))[:KEY_ISSUES]


def consent_agreements(findings: list[Finding], agreements: dict[str, Agreement]) -> list[str]:
    """Labels of the agreements under which closing needs a counterparty's consent or waiver."""
    docs = dict.fromkeys(f.citation.document_id for f in sorted(citable(findings), key=lambda f: deal.rank(f, {}))
                         if deal.needs_consent(f))
    return [_agreement(next(f for f in findings if f.citation.document_id == d), agreements).label for d in docs]


def executive_summary(findings: list[Finding], items: list[ChecklistItem], cov: Coverage,
                      searched: dict[str, str] | None = None, tally: FindingTally | None = None,
                      agreements: dict[str, Agreement] | None = None, rejected: int = 0,
                      consent_findings: list[Finding] | None = None) -> MemoSection:
    """Scope in two lines, then the key issues grouped by agreement, each with a recommended action.
    `consent_findings`: the consents schedule's findings, so the line that counts the agreements needing consent
    agrees with the schedule (the key issues' pool holds only the most severe medium findings)."""
    agreements = agreements or {}
    tally = tally if tally is not None else tally_of(findings)
    titles = {i.id: i.title for i in items}
    issues = key_issues(findings, items)
    lines = [
        f"Reviewed {cov.documents_reviewed} of {cov.documents_total} parsed documents "
        f"({cov.tokens_reviewed:,} of {cov.tokens_total:,} tokens)"
        + (f"; {cov.documents_failed_parse} file(s) could not be parsed" if cov.documents_failed_parse else "")
        + (f"; {cov.documents_skipped} file(s) skipped by design (duplicates, junk, unsupported)"
           if cov.documents_skipped else "") + ".",
        "",  # a paragraph each: consecutive lines would run together when rendered
        f"{tally.findings} verified finding(s), {tally.high_findings} of high severity"
        + (f"; {rejected} rejected by the reviewer and left out" if rejected else "") + ".",
    ]
    consents = consent_agreements(findings if consent_findings is None else consent_findings, agreements)
    if consents:
        named = ": " + "; ".join(md(c) for c in consents) if len(consents) <= 6 else ""
        lines += ["", f"Closing needs a counterparty's consent or waiver under {len(consents)} agreement(s){named} "
                      "(see Consents and notices)."]
    if issues:
        lines += ["", f"Key issues ({len(issues)}), by agreement:"]
        for doc_id, fs in _by_agreement(issues).items():
            a = _agreement(fs[0], agreements)
            lines += ["", f"**{md(a.label)}**" + (f" — {md(a.party_names())}" if a.parties else "")]
            for f in fs:
                lines.append(f"- {md(titles.get(f.category, f.category))} ({f.severity.value}): {md(f.summary)}"
                             f"{reviewer_marks(f)} Recommended action: {deal.recommended_action(f)}. {short_cite(f)}")
                if is_template(f.summary, f.items) or is_placeholder(f.summary):
                    lines.append(operative_line(f, QUOTE_CHARS))
                lines += note_line(f)
    else:
        lines += ["", "No high or medium severity issue has been identified so far."]
    found = tally.categories()
    missing = [i for i in items if i.enabled and i.id not in found]
    checked = [md(i.title) for i in missing if i.id in (searched or {})]
    pending = [md(i.title) for i in missing if i.id not in (searched or {})]
    if checked:
        lines += ["", "Searched for and not found in the room: " + ", ".join(checked) + "."]
    if pending:
        lines += ["", "No finding yet (not yet searched for): " + ", ".join(pending) + "."]
    return MemoSection(key=EXEC_KEY, title="Executive summary", text="\n".join(lines),
                       finding_ids=[f.id for f in issues])


def _cell(text: str) -> str:
    return md(text) or "—"


def consents_section(findings: list[Finding], agreements: dict[str, Agreement] | None = None,
                     total: int | None = None) -> MemoSection:
    """Consents and notices schedule: one row per agreement and trigger."""
    agreements = agreements or {}
    rows: dict[tuple[str, str], list[Finding]] = {}
    for f in sorted(citable(findings), key=lambda f: deal.rank(f, {})):
        # a successors-and-assigns clause needs neither consent nor notice: no row
        if set(f.items) & set(deal.CONSENT_ITEMS) and not (f.category == "anti_assignment" and successors_only(f.quote)):
            rows.setdefault((f.citation.document_id, deal.trigger(f)), []).append(f)
    _fold_unread(rows)
    if not rows:
        return MemoSection(key=CONSENTS_KEY, title="Consents and notices",
                           text="No consent or notice requirement was identified in the reviewed documents.")
    lines = ["| Agreement | Parties | Section | Trigger | Consequence | Notice | Action | Source |",
             "|---|---|---|---|---|---|---|---|"]
    for (doc_id, trig), fs in rows.items():
        # the row says what the clause does: a passage read plainly ("prior consent required") over one that is not
        f = next((x for x in fs if deal.consequence(x) != deal.UNREAD), fs[0])
        a = _agreement(f, agreements)
        sources = " ".join(dict.fromkeys(short_cite(x) for x in fs))
        lines.append(f"| {_cell(a.label)} | {_cell(a.party_names())} | {_cell(deal.section_of(f))} | {md(trig)} | "
                     f"{deal.consequence(f)} | {_cell(deal.notice_period(f))} | {deal.recommended_action(f)} | "
                     f"{sources} |")
    shown = sum(len(fs) for fs in rows.values())
    if total is not None and total > shown:
        lines += ["", f"{total - shown} more finding(s), less severe; the table is completed when the review ends."]
    return MemoSection(key=CONSENTS_KEY, title="Consents and notices", text="\n".join(lines),
                       finding_ids=[f.id for fs in rows.values() for f in fs])


def _fold_unread(rows: dict[tuple[str, str], list[Finding]]) -> None:
    """A row none of whose passages could be read ("Any assignment not in accordance with this Section 10.2 shall be
    void") joins a read row of the same agreement and section: it is the same clause's tail, and a second row for
    it would list one consent twice, the second time as "read the clause"."""
    for key in list(rows):
        fs = rows[key]
        sections = {deal.section_of(f) for f in fs} - {""}
        if not sections or any(deal.consequence(f) != deal.UNREAD for f in fs):
            continue
        into = next((k for k, other in rows.items() if k != key and k[0] == key[0]
                     and any(deal.consequence(f) != deal.UNREAD and deal.section_of(f) in sections for f in other)), None)
        if into is not None:
            rows[into].extend(rows.pop(key))


def agreements_section(agreements: list[Agreement], found: dict[str, set[str]], limit: int | None = None) -> MemoSection:
    """Per agreement: parties, date, term, law; then which key checklist items were found (Yes / No)."""
    if not agreements:
        return MemoSection(key=AGREEMENTS_KEY, title="Agreements reviewed", text="No document has been reviewed yet.")
    shown = agreements[:limit] if limit is not None else agreements
    lines = ["| Agreement | File | Parties | Dated | Term / expiry | Governing law |", "|---|---|---|---|---|---|"]
    for a in shown:
        lines.append(f"| {md(a.label)} | {md(file_name(a.path))} | {md(a.party_line())} | {md(a.date_line())} | "
                     f"{md(a.term_line())} | {md(a.law or 'not stated')} |")
    lines += ["", "Key checklist items found per agreement (Yes / No). " + MATRIX_LEGEND, "",
              "| Agreement | " + " | ".join(h for _, h in MATRIX) + " |", "|---|" + "---|" * len(MATRIX)]
    for a in shown:
        items = found.get(a.document_id, set())
        lines.append(f"| {md(a.label)} | " + " | ".join("Yes" if k in items else "No" for k, _ in MATRIX) + " |")
    if limit is not None and len(agreements) > limit:
        lines += ["", f"{len(agreements) - limit} more agreement(s); the table is completed when the review ends."]
    return MemoSection(key=AGREEMENTS_KEY, title="Agreements reviewed", text="\n".join(lines))


def scope_section(cov: Coverage, docs: list[DocumentReview], searched: dict[str, str], items: list[ChecklistItem],
                  limit: int | None = None, builtin: dict[str, str] | None = None) -> MemoSection:
    """Coverage; documents not reviewed and why (failures apart from files skipped by design); documents the
    built-in reviewer reviewed because the model's replies were unusable (a lawyer weighs those differently)."""
    lines = [f"Documents reviewed: {cov.documents_reviewed} of {cov.documents_total} parsed "
             f"({cov.documents_ratio:.0%}); tokens reviewed: {cov.tokens_reviewed:,} of {cov.tokens_total:,} "
             f"({cov.tokens_ratio:.0%})."]
    failed = [d for d in docs if d.status == "failed" and d.reason != "review failed"]
    not_reviewed = [d for d in docs if d.status in ("unreviewed", "in_review") or d.reason == "review failed"]
    skipped = [d for d in docs if d.status == "skipped"]
    lines += ["", "Could not be parsed:" if failed else "Every file was parsed."]
    lines += [f"- {md(d.path)}: {md(d.reason or 'unknown reason')}" for d in failed]
    lines += ["", "Not reviewed:" if not_reviewed else "Every parsed document was reviewed."]
    lines += [f"- {md(d.path)}" + (f" ({md(d.reason)})" if d.reason else "") for d in not_reviewed[:limit]]
    if limit is not None and len(not_reviewed) > limit:
        lines.append(f"- … and {len(not_reviewed) - limit} more (the review is still running)")
    by_builtin = [d for d in docs if d.document_id in (builtin or {})]
    if by_builtin:
        lines += ["", "Reviewed by the built-in reviewer instead of the configured model (its replies were unusable; "
                  "the findings of these documents come from the offline rules):"]
        lines += [f"- {md(d.path)}" for d in by_builtin[:limit]]
        if limit is not None and len(by_builtin) > limit:
            lines.append(f"- … and {len(by_builtin) - limit} more")
    if skipped:
        lines += ["", "Skipped by design (not failures):"]
        lines += [f"- {md(d.path)}: {md(d.reason or 'skipped')}" for d in skipped[:limit]]
    if searched:
        titles = {i.id: i.title for i in items}
        # the item's own title and description are the built-in query; only a query a model wrote says more
        own = [md(titles.get(k, k)) for k, q in searched.items() if q.startswith(titles.get(k, k) + ":")]
        lines += ["", "Searched for explicitly across the room (follow-up pass): " + "; ".join(own) + "." if own else
                  "Searched for explicitly across the room (follow-up pass):"]
        lines += [f"- {md(titles.get(k, k))}: “{md(q)}”" for k, q in searched.items()
                  if not q.startswith(titles.get(k, k) + ":")]
    return MemoSection(key=SCOPE_KEY, title="Scope and documents not reviewed", text="\n".join(lines))
