"""What a finding means for the deal: how it ranks among the key issues, and what to do about it.

The executive summary is read by someone deciding whether and how to close.
So key issues are ranked by severity first and then by consequence for the
transaction: a counterparty's consent or termination right on a change of
control comes before a clause that only asks for notice, uncapped liability
before a cap, and so on. Each issue carries the action a deal lawyer would
recommend for it.

Clauses that protect the parties (caps, exclusions of consequential damages,
indemnities) are noted, but they never crowd a consent or a restriction out of
the summary, whatever severity the review gave them: a partner deciding on
closing reads the consents first and a market-standard damages exclusion last.
"""

from __future__ import annotations

import re

from agents.offline.clauses.clause_parts import (
    AUTO_TERMINATION, LICENCES_SURVIVE, NOT_TRANSFERABLE, STATUTORY_ASSIGNMENT, denies_assignment, notice_of, sale_carve_out,
)
from agents.offline.clauses.clause_summary import ONLY_LISTED
from core.types import SEVERITY_ORDER, Finding

CONSENT_ITEMS = ("change_of_control", "anti_assignment", "lease_assignment", "debt_change_of_control")
# Lower is more consequential for closing; items not listed come after these, in checklist order.
IMPACT = {
    "change_of_control": 0, "debt_change_of_control": 0, "anti_assignment": 1, "lease_assignment": 1,
    "uncapped_liability": 2, "exclusivity": 3, "non_compete": 3, "rofr_rofo": 4, "most_favored_nation": 4,
    "termination_for_convenience": 5, "minimum_commitment": 5, "ip_ownership": 6, "key_employee": 6,
    "litigation": 6, "non_solicit": 7, "license_grant": 7, "indemnification": 8, "cap_on_liability": 9,
}

# Items that allocate risk between the parties rather than restrict or condition the deal.
PROTECTIVE = frozenset({"cap_on_liability", "indemnification", "insurance", "confidentiality", "governing_law",
                        "audit_rights", "term_renewal"})

# the restriction lets a party assign without consent on a sale of its business (agents.offline.clauses.clause_parts)
NO_CONSENT_ON_SALE = "no consent needed on a sale of the business"
TERMINATES_AUTOMATICALLY = "terminates automatically"
LICENCES_SURVIVE_CONSEQUENCE = "licences continue; no consent"
NOT_AN_ASSIGNMENT_CONSEQUENCE = "change of control is no assignment; no consent"
PROHIBITED = "assignment prohibited"  # no consent route in the clause: the counterparty must agree to an amendment or waiver
UNREAD = "restriction; read the clause"  # the consequence could not be read from the passage
_TERMINATES = re.compile(r"\bterminat|\bcancel|\brescind", re.I)
# "upon the expiration or termination of this Agreement ..., it will destroy or return": when a duty falls due, not a
# right to end the agreement
_WHEN_ENDED = re.compile(r"\b(?:upon|on|after|following|prior\s+to|before|until|survives?|surviving)\s+(?:the\s+|any\s+)?"
                         r"(?:(?:expiration|expiry)\s+or\s+)?(?:early\s+|earlier\s+)?terminat\w*(?:\s+or\s+(?:expiration|expiry))?\b", re.I)
_CONSENT = re.compile(r"\bconsent|\bapprov|\bwaive", re.I)
_NOTICE_ONLY = re.compile(r"\bnotice|\bnotif|\binform", re.I)
# "shall not assign this Agreement", "a non-transferable licence": a bar with no consent route (with NOT_TRANSFERABLE)
_BARRED = re.compile(r"\bnon-(?:assignable|transferr?able)\b|\b(?:shall|will|may)\s+not\s+(?:\w+\s+){0,3}(?:assign|transfer)\b", re.I)
_VOID = re.compile(r"\b(?:null and void|void|of no (?:force|effect))\b", re.I)
_DEEMED = re.compile(r"change (?:of|in) control[^.;]{0,80}\b(?:deemed|constitute|treated as)[^.;]{0,30}assignment|"
                     r"assignment[^.;]{0,60}\bincludes?\b[^.;]{0,60}change (?:of|in) control", re.I)
NOTICE_PERIOD = re.compile(
    r"(?:(?:\w+[- ])?\(?\d+\)?|\b(?:one|two|three|four|five|six|seven|ten|fifteen|thirty|sixty|ninety|"
    r"one hundred twenty|one hundred eighty)\b)\s*(?:\(\d+\)\s*)?(?:calendar |business )?(?:days?|months?|years?)'?"
    r"(?:\s+(?:prior|advance|written|prior written))*\s+notice", re.I)
SECTION = re.compile(r"^\s*(?:section\s+|article\s+|§\s*)?(\d+(?:\.\d+)*[a-z]?)[.)]?\s", re.I)


def consequence(f: Finding) -> str:
    """The consequence a consent or notice clause attaches to the trigger, in plain words."""
    q = f.quote
    if AUTO_TERMINATION.search(q):
        return TERMINATES_AUTOMATICALLY
    if LICENCES_SURVIVE.search(q) and not _TERMINATES.search(q) and not _CONSENT.search(q):
        return LICENCES_SURVIVE_CONSEQUENCE
    if _TERMINATES.search(_WHEN_ENDED.sub(" ", q)):
        return "counterparty may terminate"
    if denies_assignment(q) and not _CONSENT.search(q):  # "nor shall any change in control ... be deemed an assignment"
        return NOT_AN_ASSIGNMENT_CONSEQUENCE
    sale = sale_carve_out(q)
    if sale is not None:
        # a carve-out for one party says nothing of a sale of the other, which still needs consent
        return NO_CONSENT_ON_SALE if not sale.who else f"no consent needed on a sale of {sale.who}'s business only"
    if _CONSENT.search(q):
        return "prior consent required" + ("; void without it" if _VOID.search(q) else "")
    if "anti_assignment" in f.items and (NOT_TRANSFERABLE.search(q) or _BARRED.search(q)):
        return PROHIBITED
    if _NOTICE_ONLY.search(q):
        return "notice only"
    return UNREAD


def trigger(f: Finding) -> str:
    if "change_of_control" in f.items or "debt_change_of_control" in f.items:
        return "change of control" + (" (deemed an assignment)" if _deemed(f.quote) else "")
    if "lease_assignment" in f.items:
        return "assignment of the lease"
    if STATUTORY_ASSIGNMENT.search(f.quote):
        return "assignment (1940 Act: incl. change of control)"
    return "assignment or transfer" + (" (incl. change of control)" if _deemed(f.quote) else "")


def _deemed(q: str) -> bool:
    return bool(_DEEMED.search(q)) and not denies_assignment(q)


def notice_period(f: Finding) -> str:
    """The notice period in the words the finding's sentence uses ("30 days' written notice", not "thirty (30)
    days written notice"), so the schedule and the key issue say it alike."""
    m = NOTICE_PERIOD.search(f.quote)
    if not m:
        return ""
    said = notice_of(f.quote)
    return said if said and said[0].isdigit() else " ".join(m.group(0).split())


def section_of(f: Finding) -> str:
    """The section the passage sits in, read from the document's headings; else the number the quote opens with."""
    if f.citation.section:
        return f.citation.section
    m = SECTION.match(f.quote)
    return f"§ {m.group(1)}" if m else ""


def recommended_action(f: Finding) -> str:
    """The action a deal lawyer would write next to the issue."""
    items = set(f.items)
    if f.category == "cap_on_liability":  # the finding's own item speaks first: a cap is not 'uncapped'
        return "Check that the cap covers the buyer's exposure; note"
    if items & set(CONSENT_ITEMS):
        c = consequence(f)
        if c == TERMINATES_AUTOMATICALLY and _CONSENT.search(f.quote):  # "... unless Licensor has consented"
            return "Obtain the counterparty's consent before closing; without it the agreement ends"
        if c == TERMINATES_AUTOMATICALLY:
            return "Arrange a new agreement to take effect at closing (for a fund: its board's approval)"
        if c.startswith("counterparty may terminate"):
            return "Negotiate a waiver of the termination right before closing"
        if c.startswith("prior consent"):
            return "Obtain the counterparty's consent before closing"
        if c in (LICENCES_SURVIVE_CONSEQUENCE, NOT_AN_ASSIGNMENT_CONSEQUENCE):
            return "Note only"
        if c == PROHIBITED:
            return "If the deal transfers the agreement (asset sale, or a merger where the law treats it as one), agree a waiver with the counterparty before closing"
        if c == "notice only":
            return "Notify the counterparty as the clause requires"
        if c.startswith("no consent needed on a sale of the business"):
            return "Confirm the deal is a permitted sale of the business and meet the clause's conditions"
        if c.startswith("no consent needed"):  # one party's carve-out: whether it helps depends on who the target is
            who = c.removeprefix("no consent needed on a sale of ").removesuffix("'s business only")
            return f"If the target is {who}, confirm a permitted sale and meet the clause's conditions; otherwise obtain consent"
        if f.category not in CONSENT_ITEMS and f.category in _OWN_ACTIONS:
            # an IP assignment that also restricts assigning the agreement: when the consent reading says nothing
            # certain, the finding's own item says what to do
            return _OWN_ACTIONS[f.category]
        return "Confirm with counsel whether the deal structure triggers the clause"
    if f.category == "termination_for_convenience" and ONLY_LISTED in f.summary and \
            _OWNERSHIP.search(f.quote):
        # "AIG agrees not to terminate ... unless ... AIG sells the Company": the deal may be one of the cases
        return "Check whether the transaction is one of the cases the clause lists; if so, negotiate a waiver before closing"
    for item, action in _OWN_ACTIONS.items():  # in this order: the first of the finding's items listed speaks
        if item in items:
            return action
    return "Note only"


_OWNERSHIP = re.compile(r"\b(?:sells?|sale|ownership|control|merger|merges?|acquir\w*|acquisition)\b", re.I)


# the action each item calls for when it is not a consent or notice question
_OWN_ACTIONS = {
    "uncapped_liability": "Negotiate a cap or price the exposure; consider a specific indemnity",
    "exclusivity": "Assess the restriction on the combined business; seek a carve-out or waiver",
    "non_compete": "Assess the restriction on the combined business; seek a carve-out or waiver",
    "rofr_rofo": "Check whether the transaction triggers the right; obtain a waiver",
    "most_favored_nation": "Check pricing after closing against the clause; note",
    "termination_for_convenience": "Note the revenue at risk; consider it in valuation",
    "minimum_commitment": "Confirm the commitment is being met; note the exposure",
    "ip_ownership": "Confirm the target owns or may use the IP; obtain assignments if missing",
    "key_employee": "Review retention and severance cost; note",
    "litigation": "Assess the claim with litigation counsel; consider a specific indemnity",
}


def rank(f: Finding, order: dict[str, int]) -> tuple:
    """Sort key of a key issue: protective clauses last, then severity, then consequence for the deal,
    then checklist order, then place."""
    impact = min(IMPACT.get(i, 20 + order.get(i, 0)) for i in f.items)
    c = consequence(f)
    weaker = 1 if impact <= 1 and (c in ("notice only", NOT_AN_ASSIGNMENT_CONSEQUENCE) or c.startswith("no consent needed")) else 0
    protective = 1 if f.category in PROTECTIVE else 0  # its own item speaks first, as in recommended_action
    return (protective, SEVERITY_ORDER[f.severity], impact, weaker, -f.confidence, f.citation.document_path,
            f.citation.char_start)


def needs_consent(f: Finding) -> bool:
    """Whether closing waits on the counterparty: its consent, or a waiver of its termination right."""
    c = consequence(f)
    if c.endswith("'s business only"):
        return bool(set(f.items) & set(CONSENT_ITEMS))  # unless the target is the party the carve-out is for
    return bool(set(f.items) & set(CONSENT_ITEMS)) and c in (
        "counterparty may terminate", "prior consent required", "prior consent required; void without it",
        TERMINATES_AUTOMATICALLY, PROHIBITED)
