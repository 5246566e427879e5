"""What a finding says when its clause's reading gives no sentence of its own: the item's honest fallback (what kind of
clause it is), the fixed sentences for look-alikes (an exception, a ceiling, a standstill, a redacted provision), and
the tests that tell such a sentence from one that says who does what (is_template, is_placeholder), which the memo
and the evaluation scripts use to count them."""

from __future__ import annotations

import re
from typing import Sequence

from core.types import ChecklistItem

_I = re.IGNORECASE


# What a clause of each item does, for when its parties or trigger cannot be read.
HONEST = {
    "change_of_control": "The agreement contains a change-of-control provision",
    "anti_assignment": "The agreement restricts assignment",
    "lease_assignment": "The lease restricts assignment or subletting",
    "termination_for_convenience": "The agreement allows termination for convenience",
    "exclusivity": "The agreement contains an exclusivity commitment",
    "non_compete": "The agreement restricts a party from competing",
    "non_solicit": "The agreement restricts soliciting employees or customers",
    "most_favored_nation": "The agreement contains a most-favoured-nation commitment",
    "rofr_rofo": "The agreement grants a right of first refusal, offer or negotiation",
    "minimum_commitment": "The agreement sets a minimum commitment",
    "cap_on_liability": "The agreement limits liability",
    "uncapped_liability": "The agreement leaves some liability outside the cap",
    "indemnification": "The agreement contains an indemnity",
    "ip_ownership": "The agreement allocates ownership of intellectual property",
    "license_grant": "The agreement contains licence terms",
    "source_code_escrow": "The agreement provides for a source code escrow",
    "audit_rights": "The agreement gives a right to audit books and records",
    "insurance": "The agreement requires insurance to be maintained",
    "governing_law": "The agreement states its governing law and forum for disputes",
    "confidentiality": "The agreement imposes confidentiality obligations",
    "term_renewal": "The agreement sets its term, renewal and notice periods",
    "debt_change_of_control": "The agreement contains a change-of-control provision",
    "key_employee": "The agreement provides for payments or benefits on termination or a change of control",
    "litigation": "The document refers to litigation or claims",
    "revenue_sharing": "The agreement requires revenue or profit to be shared (royalties, commissions or a share of sales)",
    "price_restrictions": "The agreement restricts changes to prices or fees",
    "post_termination_services": "The agreement imposes obligations that continue after it ends",
    "liquidated_damages": "The agreement provides for liquidated damages or a termination fee",
    "warranty": "The agreement gives a warranty for a stated period",
    "third_party_beneficiary": "The agreement addresses whether a person who is not a party may enforce it",
    "non_disparagement": "The agreement restricts a party from disparaging the other",
    "covenant_not_to_sue": "The agreement restricts a party from contesting the other's rights or bringing claims against it",
}


# a definition: '11. "Business Entity Minimum Monthly Commitment" means, for each Business Entity, ...'
DEFINITION = re.compile(r'^\s*(?:\d+(?:\.\d+)*\.?\s+|\(?[a-zA-Z0-9]{1,3}[.)]\s+)*'
                         # "16.01.2 Change of Control. A "Change of Control" means:": the section's heading, then the term
                         r'(?:(?:[A-Z][\w/&\'-]*\s+(?:(?:of|and|for|in|to|on)\s+)?){0,5}[A-Z][\w/&\'-]*\.\s+(?:An?|The)\s+(?=[\u201c"]))?'
                         r'[\u201c"]?((?:[A-Z][\w/&\'-]*\s+(?:(?:of|and|for|in|to|on)\s+)?){0,5}'
                         r'[A-Z][\w/&\'-]*)[\u201d"]?\s+(?:shall\s+)?(?:means?|includes?|refers?\s+to|is\s+defined\s+as|has\s+the\s+'
                         r'meaning)\b')
# what a reading writes when it knows who acts but not on what
_PLACEHOLDER = re.compile(r"\b(?:what the clause (?:covers|lists)|(?:field|intellectual property|patents|rights) the clause covers)\b|"
                          r"\bmay not compete(?: with [^.(]*)?(?: \(§[^)]*\))?\.$|\bmust meet a minimum commitment\b|\bmust purchase a minimum quantity\b|"
                          r"\bhas exclusive rights granted by\b|\bjointly own the intellectual property\b|\bintellectual property it covers\b")


# a passage that only frees a party (an exception to a restriction, a disclaimer of exclusivity) and whose freedom
# could not be read as a sentence: what kind of clause it is, as honest as the item's own fallback
EXCEPTION = "The clause is an exception: it leaves a party free to do what a restriction would otherwise bar"
# a passage that rules a payment out (no severance, compensation or damages on termination): what kind of clause it is
NO_PAYMENT = "The clause rules out a payment on termination (such as severance pay or damages) rather than granting one"
NON_EXCLUSIVE = "The clause makes no exclusivity commitment: what it grants is non-exclusive"
# a passage whose "exclusive" describes an assignment, a forum, a remedy or ownership: what the word is about
IN_NAME = "The clause makes no exclusive-dealing commitment: \u201cexclusive\u201d there describes"
# a passage about termination that lets no one terminate ("after termination ... for any reason, MSL shall return ...")
NO_RIGHT = "The clause gives no right to terminate for convenience"
# an ending the parties must all agree to ("may be terminated ... by agreement in writing of all the Parties")
MUTUAL_ONLY = "The agreement may be ended only by the parties' written agreement; no party may terminate it alone"
# a passage whose only audit is a party's own ("disclose ... to the accounting firm retained to audit that party")
NO_AUDIT = "The clause gives no right to audit the other party: the audit it mentions is a party's own"
# a ceiling filed as a minimum commitment (CUAD files both under one item): what kind of limit it is
CEILING = "The clause sets a ceiling on a volume or amount, not a minimum commitment"
# a price with a floor ("$20.00 per person per hour, subject to a minimum charge of $80.00 per person") filed as a minimum
# commitment: a term of the rate, not an amount a party must buy
MIN_CHARGE = "The clause sets a minimum charge for a service (a term of the price), not a minimum commitment"
MINIMUM_CHARGE = re.compile(r"\bminimum\s+(?:charge|fee|billing)\b", _I)
COMMITS = re.compile(r"\b(?:at\s+least|not\s+less\s+than|no\s+less\s+than|minimum\s+(?:purchase|order|volume|quantit\w*|commitment|"
                      r"royalt\w*|payment|amount)s?|guarantee\w*)\b", _I)
# a provision whose words the filing withheld: "25.6 Termination for Change of Control. [***]."
_REDACTED = re.compile(r"(?:(?<=\s)|^)(?:(?P<sec>\d+(?:\.\d+)+)\.?\s+)?(?P<head>[A-Z][A-Za-z,&/' -]{2,80}?)\.\s*\[\s*\*+\s*\]\s*(?:\.|$)")
_REDACTION_WORDS = re.compile(r"\b(?:shall|will|may|must|agrees?)\b", _I)


def redacted_provision(quote: str, item: ChecklistItem) -> str:
    """"The provision “Termination for Change of Control” (§ 25.6) is redacted ...": a heading the filing kept over
    text it withheld, when the passage states nothing else; '' otherwise."""
    flat = " ".join(quote.split())
    if _REDACTION_WORDS.search(flat):
        return ""
    words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", item.title)}
    for m in _REDACTED.finditer(flat):
        head = m.group("head").strip()
        if words & {w.lower() for w in re.findall(r"[A-Za-z]{4,}", head)}:
            sec = f" (§ {m.group('sec')})" if m.group("sec") else ""
            return (f"The provision \u201c{head}\u201d{sec} is redacted in this copy; its terms need the "
                    f"unredacted agreement")
    return ""


# a standstill filed as a non-compete: what it bars is buying into or campaigning at a company, not competing
STANDSTILL = "The clause is a standstill, not a non-compete: a party may not"
# a successors-and-assigns clause: whom the agreement binds after an assignment, no bar on one
SUCCESSORS = "The agreement binds and benefits the parties' successors and assigns; the clause does not restrict assignment"


def is_placeholder(summary: str) -> bool:
    """Whether a summary knows who acts but not on what ("Distributor may not compete", "in the field the clause
    covers"): a sentence the reader completes from the quote beside it."""
    return bool(_PLACEHOLDER.search(summary))


def is_template(summary: str, items: Sequence[str]) -> bool:
    """Whether a summary is the sentence written when a clause's parties or trigger could not be read: it says
    what kind of clause this is, not what it does, so a reader needs the clause's own words beside it."""
    # "contains a provision triggered by a change of control" names the trigger but still no one who acts
    starts = [HONEST[i] for i in items if i in HONEST] + ["The agreement contains a provision", EXCEPTION, NO_PAYMENT, NON_EXCLUSIVE, IN_NAME, NO_RIGHT, CEILING,
              MIN_CHARGE, NO_AUDIT]
    if "non_compete" in items:
        starts.append(HONEST["non_solicit"])  # a non-solicit filed as a non-compete is written as one (write_summary)
    return any(summary.startswith(s) for s in starts)
