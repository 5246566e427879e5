"""Conditions the checklist's severity rules name, detected in a quote; and the summary sentence.

A rule's `if` is either a condition id below or, for user-written rules, a
plain phrase that must occur in the quote (case-insensitive).
"""

from __future__ import annotations

import re
from typing import Sequence

from agents.offline.clauses.carve_out import denies_payment, exclusive_in_name, frees_only, non_exclusive_only, owned_money, standstill
from agents.offline.clauses.clause_parts import (AUTO_TERMINATION, STATUTORY_ASSIGNMENT, auto_terminated_grant, PartyLike, denies_assignment, sale_carve_out,
                                                solicit_only, successors_only)
from agents.offline.clauses.clause_summary import write_summary
from agents.offline.clauses.fallbacks import DEFINITION
from agents.offline.clauses.readings.money import CARVE_KINDS, NO_FEE
from agents.offline.clauses.readings.transfer import for_cause, no_termination_right
from core.types import ChecklistItem, Severity

_F = re.IGNORECASE | re.DOTALL
_CONTROL = r"(change (of|in) (the )?control|change[- ]of[- ]control|merger|consolidat\w+|operation of law|acqui\w+|(sale|transfer) of (all or )?substantially all)"

# The gap may hold commas and parentheses ("shall have the right, exercisable within
# ninety (90) days ..., to terminate"; "may, in its sole discretion, terminate"),
# but not a sentence or clause break.
_TERMINATE = re.compile(r"\b(may|can|shall (be entitled|have the right)|will have the right|is entitled|has the right|reserves the right|right)\b[^.;]{0,120}?\b(terminat|cancel)\w*"
                        r"|\bterminable\b|\bterminat\w+ (\w+ ){0,4}(at (its|his|their) (sole )?(option|discretion))", _F)
_CONSENT = re.compile(r"\bconsent\b|\bapprov(al|e)\b|\bwithout the (prior )?(written )?(agreement|permission)", _F)
_NOTICE = re.compile(r"\bnotif\w+|\bnotice\b|\binform\b", _F)
# "Tenant may, without Landlord's consent, assign ...": a permission, the opposite of a consent requirement,
# unless the subject is negated ("Neither party may, without ... consent, assign")
_WITHOUT_CONSENT = re.compile(r"\bmay\b(?!\s+not)[^.;]{0,60}?\bwithout\b[^.;]{0,40}?\b(consent|approval)", _F)
_NEGATED_SUBJECT = re.compile(r"\b(neither|no|nor|not)\b[^.;]{0,60}$", _F)
_CAP = re.compile(r"\b(shall|will|does|do) not (in (the )?aggregate )?exceed|\bin no event\b[^.;]{0,150}\bexceed|"
                  r"\blimited (in (the )?aggregate )?to (an amount|the (amount|fees|sum|total)|(USD|EUR|GBP|US\$|\$|€|£) ?\d|\d)"
                  r"|\bmaximum (aggregate |total )?liability", _F)
_MUTUAL = re.compile(r"\b(either|each|neither|both) (party|parties|of the parties)\b|\bmutual(ly)?\b", _F)
_DEEMED = re.compile(_CONTROL + r".{0,250}(deemed|constitute|considered|treated as).{0,60}(assign|transfer)"
                     r"|(assign|transfer)\w*.{0,200}(includ\w*|deemed|mean\w*).{0,100}" + _CONTROL, _F)
_BINDS = re.compile(r"(shall|will|may|agrees? (to|that it will)) not.{0,200}(any other|third part|competitor|other than)"
                    r"|exclusively (from|through|to|with)|\bsole (and exclusive )?(supplier|source|provider)|\ball (of )?(its|their) requirements", _F)
_AFFILIATES = re.compile(r"\baffiliat\w*|\bsubsidiar\w*|\bparent (company|corporation)", _F)
_SALE = re.compile(r"(sale|sell|transfer|dispos\w+|divest\w*).{0,100}(business|assets|shares|stock|equity|interest|company|product line)", _F)
_UNCAPPED = re.compile(r"unlimited|without limit(?!ation|ing)|not be (subject to|limited)|\bnot subject to (any )?(cap|limit|limitation)s?\b|(limitation|limit|cap|exclusion)s?\b.{0,150}(shall|will|do|does) not apply", _F)
_ASSIGNS_IP = re.compile(r"\bhereby (irrevocably )?assign|work(s)? made for hire|(shall|will) (be|become|vest in|remain)\b.{0,60}(sole and exclusive |exclusive |sole )?property of|(shall|will) (own|vest)", _F)
_NON_TRANSFERABLE = re.compile(r"non-?transferable|non-?assignable|not (be )?(transferable|assignable)|may not (be )?(assign|transfer|sublicens)\w*", _F)
# A representation that there is no claim, or a jury-trial waiver: the words of litigation without a dispute
_NO_CLAIM = re.compile(r"\b(?:there (?:is|are) no|no (?:pending|threatened|outstanding)|(?:has|have) not (?:received|been served)|"
                       r"(?:is|are) not (?:a )?party to|(?:is|are) not (?:the )?subject (?:of|to)|not aware of any|"
                       r"no knowledge of any)\b[^.;]{0,120}"
                       r"\b(?:litigation|actions?|suits?|claims?|proceedings?|investigations?|disputes?)\b"
                       r"|\b(?:trial by jury|jury trial)\b", _F)
# a dispute that exists: a claim pending or threatened, a suit filed, a demand, a settlement, a case by its caption.
# "Failing settlement of the dispute within 60 days of notice, either party may initiate arbitration" is a step of the
# machinery, not a settlement made.
# A contract's machinery for disputes to come (a dispute-resolution step, who defends claims, injunctive relief
# "pending resolution of any claims") is no liability the buyer inherits.
_LIVE_DISPUTE = re.compile(
    r"\b(?:pending|threatened)\s+(?!resolution|determination|the\s+outcome|completion|final|receipt)(?:\w+\s+){0,3}?"
    r"(?:litigation|actions?|claims?|suits?|proceedings?|investigations?|arbitrations?)\b|"
    r"\b(?:filed|commenced|brought|served)\s+(?:a|an)\s+(?:\w+\s+)?(?:lawsuit|complaint|action|suit|claim|petition)\b|"
    r"\b(?:plaintiffs?|defendants?)\s+(?:alleges?|seeks?|claims?|filed|has\s+filed|demands?)\b|\bdemand\s+letter\b|\bcivil\s+action\s+no\b|\bcase\s+no\b|"
    r"(?<!failing\s)(?<!absent\s)(?<!pending\s)(?<!no\s)(?<!attempt\s)(?<!seek\s)(?<!for\s)(?<!reach\s)\bsettlement\s+(?:agreement|"
    r"of\s+the\s+(?:claim|action|dispute|litigation))\b(?![^.;]{0,30}\bwithin\s+\d)|\bin\s+(?:full|final)\s+settlement\s+of\b|"
    r"\bformal\s+notice\s+of\s+(?:a\s+|an\s+|its\s+|our\s+)?(?:claim|intended\s+(?:action|proceedings))\b|"
    r"\b(?:we|our\s+client|the\s+claimant)\s+(?:hereby\s+|now\s+)?demands?\b|"
    r"\b(?:intends?|reserves?\s+the\s+right|will)\s+(?:\w+\s+){0,2}(?:commence|issue|bring|file|institute)\s+"
    r"(?:legal\s+|court\s+)?(?:proceedings|an\s+action|a\s+claim|suit|litigation)|(?-i:\b[A-Z][\w.&-]*\s+v\.\s+[A-Z])", _F)

# an exclusion of indirect or consequential damages with no exception to it ("IN NO EVENT WILL EQUIDATA BE LIABLE FOR
# ANY INDIRECT ... DAMAGES"): a limit in the liable party's favour, the look-alike of an uncapped-liability clause
_EXCLUSION = re.compile(r"\b(?:in\s+no\s+event|(?:shall|will)\s+not\s+be\s+liable|(?:is|are)\s+not\s+liable|neither\s+party\s+"
                        r"(?:shall|will)\s+be\s+liable|no\s+(?:party|liability))\b[^.;]{0,200}?\b(?:indirect|consequential|"
                        r"incidental|special|punitive|exemplary|lost\s+profits?)\b", _F)
_EXCEPTION = re.compile(r"\b(?:except|excepting|excluding|other\s+than|save\s+(?:for|as)|unless|provided\s+(?:that|however)|"
                        r"notwithstanding|does\s+not\s+apply|shall\s+not\s+apply|will\s+not\s+apply|not\s+limit)\b", _F)


# an exception to a cap or an exclusion that names what it lets through ("Except for the obligation of indemnity as
# set forth in Section 6.1(c) ..., aggregate damages ... shall not exceed"): the clause leaves that liability uncapped
_CARVE_OUT = re.compile(r"\b(?:except|excepting|excluding|other\s+than|save)\b[^.;]{0,250}?(?:"
                        + "|".join(rx for _, rx in CARVE_KINDS)
                        + r"|\bbreach\w*\s+of\s+(?:section|article|clause)|\bsections?\s+\d)", _F)


# the words of a pre-emption right: first refusal, offer or negotiation, a right to match, an option to buy. "Shall
# be given first consideration as a principal investigator", "the first right to prosecute patents" and "shall
# obtain IBM's approval before contracting with a third party" have none, and a finding that calls them a right of
# first refusal is the classifier's guess, not the clause's word
_PRE_EMPTION = re.compile(r"\bfirst\s+(?:right\s+of\s+)?(?:refusal|offer|negotiation)|\bROF[RON]\b|"
                          r"\b(?:first|preferential|pre-?emptive|prior)\s+right\s+to\s+(?:\w+\s+){0,2}?(?:purchase|acquire|buy|"
                          r"negotiate|license|licence|match|offer|obtain|refuse|bid|invest|subscribe)|\bright\s+to\s+match\b|"
                          r"\bmatch\s+(?:the|any|such)\s+(?:\w+\s+){0,2}?(?:offer|bid|proposal|terms)|\bpre-?emptive\b|\bpre-?emption\b|"
                          r"\boption\b[^.;]{0,120}?\b(?:purchase|acquire|buy|negotiate|license|licence|obtain)|"
                          r"\b(?:negotiate|negotiations?)\b[^.;]{0,80}?\b(?:exclusive(?:ly)?|first|before|prior\s+to)\b|"
                          r"\b(?:exclusive(?:ly)?|first)\b[^.;]{0,40}?\bnegotiat", _F)

# the words of a restraint: a negation, an exclusivity, competition, "only". "Kitov shall be solely responsible ... for all
# activities related to the sale" and "Life Technologies will be authorized to perform" have none, and a finding that
# calls them a non-compete is the classifier's guess, not the clause's word
_RESTRAINT = re.compile(r"\b(?:not|no|neither|nor|never|refrain\w*|prohibit\w*|restrict\w*|exclusiv\w*|compet\w*|only|"
                        r"preclude\w*|barred|except|other\s+than)\b", _F)

_COC_PAYMENT = re.compile(_CONTROL + r".{0,250}(payment|bonus|severance|accelerat\w*|vest\w*)|(payment|bonus|severance|accelerat\w*|vest\w*).{0,250}" + _CONTROL, _F)

def _permitted_without_consent(q: str) -> bool:
    m = _WITHOUT_CONSENT.search(q)
    return bool(m) and not _NEGATED_SUBJECT.search(q[max(0, m.start() - 60):m.start()])


def _consent_required(q: str) -> bool:
    return bool(_CONSENT.search(q)) and not _permitted_without_consent(q)


CONDITIONS: dict[str, "callable"] = {
    "termination_right": lambda q: bool(_TERMINATE.search(q)),
    # "shall automatically terminate": no one's decision, the trigger itself ends the agreement
    # the agreement ends, not only what a party passed on to its affiliate
    "terminates_automatically": lambda q: bool(AUTO_TERMINATION.search(q)) and not auto_terminated_grant(q),
    "consent_required": _consent_required,
    "permitted_without_consent": _permitted_without_consent,
    # a restriction whose exception lets a party assign on a sale of its business without consent
    "sale_permitted": lambda q: sale_carve_out(q) is not None,
    "notice_only": lambda q: bool(_NOTICE.search(q)) and not _consent_required(q) and not _TERMINATE.search(q),
    "mutual": lambda q: bool(_MUTUAL.search(q)),
    # One side holds the right: the reviewer cannot know which party is the target,
    # so a one-sided termination right is treated as possibly the counterparty's.
    "counterparty_right": lambda q: bool(_TERMINATE.search(q)) and not _MUTUAL.search(q),
    "change_of_control_deemed_assignment": lambda q: bool((_DEEMED.search(q) and not denies_assignment(q)) or STATUTORY_ASSIGNMENT.search(q)),
    # "nor shall any change in control ... be deemed an assignment": the clause says the deal needs no consent under it
    "change_of_control_not_assignment": denies_assignment,
    "binds_target": lambda q: bool(_BINDS.search(q)),
    "binds_affiliates": lambda q: bool(_AFFILIATES.search(q)),
    "on_sale_of_business": lambda q: bool(_SALE.search(q)),
    "uncapped": lambda q: bool(_UNCAPPED.search(q)),
    # a cap with no carve-out: the look-alike of an uncapped-liability clause
    "capped_only": lambda q: bool(_CAP.search(q)) and not _UNCAPPED.search(q) and not _CARVE_OUT.search(q),
    "excluded_only": lambda q: bool(_EXCLUSION.search(q)) and not _UNCAPPED.search(q) and not _EXCEPTION.search(q),
    "assigned_to_counterparty": lambda q: bool(_ASSIGNS_IP.search(q)),
    "non_transferable": lambda q: bool(_NON_TRANSFERABLE.search(q)),
    "change_of_control_payment": lambda q: bool(_COC_PAYMENT.search(q)),
    "no_claim": lambda q: bool(_NO_CLAIM.search(q)),
    "live_dispute": lambda q: bool(_LIVE_DISPUTE.search(q)),
    "no_pre_emption": lambda q: not _PRE_EMPTION.search(q),
    "frees_only": frees_only,
    "denies_payment": denies_payment,
    "solicit_only": solicit_only,
    "for_cause": for_cause,
    "no_restraint": lambda q: not _RESTRAINT.search(q),
    "non_exclusive_only": non_exclusive_only,
    "exclusive_in_name": lambda q: bool(exclusive_in_name(q)),
    "no_termination_fee": lambda q: bool(NO_FEE.search(q)),
    "no_termination_right": no_termination_right,
    "successors_only": successors_only,
    "owns_money_only": lambda q: bool(owned_money(q)),
    "standstill": lambda q: bool(standstill(q)),
}

def detect(quote: str) -> list[str]:
    """Condition ids that hold for the quote, in CONDITIONS order."""
    return [cid for cid, fn in CONDITIONS.items() if fn(quote)]


def severity_for(item: ChecklistItem, quote: str) -> tuple[Severity, str]:
    """(severity, the rule's condition that decided it or '') — first matching rule wins; a definition binds no one and
    is never more than low ('"Decree" means any judgment ...' was a high litigation key issue)."""
    sev, cond = _by_rules(item, quote)
    if sev in (Severity.high, Severity.medium) and DEFINITION.match(" ".join(quote.split())):
        return Severity.low, "definition"
    return sev, cond


def _by_rules(item: ChecklistItem, quote: str) -> tuple[Severity, str]:
    found = set(detect(quote))
    low = quote.lower()
    for rule in item.severity_rules:
        cond = str(rule.get("if", "")).strip()
        sev = rule.get("severity", "")
        hit = cond in found if cond in CONDITIONS else bool(cond) and cond.lower() in low
        if hit and sev in Severity.__members__:
            return Severity(sev), cond
    return item.default_severity, ""


def summarize(item: ChecklistItem, quote: str, conditions: list[str], cuad: list[str],
              parties: Sequence[PartyLike] = ()) -> str:
    """The finding's one-sentence summary (agents.offline.clauses.clause_summary); parties come from the agreement.

    `conditions` and `cuad` are kept for existing callers: the sentence is read from the quote itself,
    and category names stay out of it (the finding carries its category and CUAD labels elsewhere).
    """
    return write_summary(item, quote, parties)
