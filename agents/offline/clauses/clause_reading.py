"""Read a clause the way a lawyer summarises it: who may do what, on which trigger, with what consequence.

`read_clause` fills a ClauseReading from the quote and the agreement's parties;
`agents.offline.clauses.clause_summary` turns it into one sentence. A field stays ''
when the quote does not say it plainly: a blank is honest, a guessed party is
wrong, and the memo's consents schedule copies these fields row by row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

from agents.offline.clauses.clause_grammar import (
    CONTROL, Ctx, actor_of, anchor, consent_of, control_trigger, grant, party_counter, plain, subject_of,
)
from agents.offline.clauses.clause_parts import (
    MONEY, PERIOD, Mention, PartyLike, amount_of, index_parties, mention_at, mentions, notice_of, other_party, period, section_of,
    AUTO_TERMINATION, LICENCES_SURVIVE, NOT_TRANSFERABLE, STATUTORY_ASSIGNMENT, sale_carve_out, subject_before,
)

_I = re.IGNORECASE


@dataclass
class ClauseReading:
    """What one clause says, in fields a memo row can use; '' where the clause does not say it plainly."""

    # who may act or is bound: a party's defined term or name, "either party", "each party"; "Neither party may
    # assign" is actor "either party" with action "may not assign", so a schedule row reads the same either way
    actor: str = ""
    action: str = ""        # "may terminate", "may not assign", "must give notice", "liability is capped", ...
    trigger: str = ""       # "a change of control of Distributor", "assignment by either party", ...
    counterparty: str = ""  # the party whose consent or notice is needed, when stated
    notice: str = ""        # "30 days' written notice", "written notice", or ''
    section: str = ""       # "18.4" when the quote starts with or names its own section number
    # plain words a schedule can sort on. Change of control / assignment: "termination right", "consent required",
    # "consent required (treated as assignment)", "notice only", "permitted without consent", "assignment
    # prohibited", "restricts assignment", any of them + "; void without consent"; "see clause" when only the
    # trigger was read. Other items name what the clause does ("liability capped", "licence granted", ...).
    consequence: str = ""
    amount: str = ""        # a cap, commitment or limit ("$2,500,000", "the fees paid ... in the prior 12 months")
    detail: str = ""        # the rest of the predicate a sentence needs ("a non-exclusive, worldwide licence")


SALE_PERMITTED = "permitted without consent on a sale of the business"
_TERMINATE = r"terminat(e|ing)\b|cancel\b|end this|terminated\b"
_ASSIGN = r"(sell,\s*)?(assign|transfer|delegate|sublet|sublicense|sub-license|subcontract|cede)(ed|able)?\b"


def _termination(c: Ctx, r: ClauseReading) -> bool:
    a = anchor(c, _TERMINATE)
    if a is None:
        until = re.search(r"\buntil terminated by\s+", c.quote, _I)  # "remains in effect until terminated by either party"
        who = mention_at(c.quote, until.end() - 3, c.ms, slack=6) if until else None
        if who is None:
            return False
        a = (who, False, until.start(), "terminated")
    who, neg = actor_of(a[0], c, a[1])
    if neg:
        return False
    r.actor, r.action, r.consequence = who, "may terminate", "termination right"
    return True


_WITHOUT_CONSENT = re.compile(r"\bwithout\b[^.;]{0,60}?\b(?:consent|approval)\b", _I)
_NO_NEED = re.compile(r"\b(?:need|necessity|requir\w*|obtain\w*|having to)\b", _I)
_PERMITS = re.compile(r"\b(?:may|can|right to|entitled to|free to|permitted to|able to|allowed to|authori[sz]ed to)\b", _I)
_RESTRICTS = re.compile(r"\b(?:not|no|neither|nor|never|cannot|if|unless|in the event|should|prohibited)\b", _I)


def _requires_consent(q: str) -> bool:
    """Whether the clause makes something depend on consent: "shall not assign without the prior written
    consent of" and "if Vendor undergoes a change of control without AT&T's consent" do; "may assign to an
    affiliate without consent" and "without any need for the other's consent" do not."""
    if not re.search(r"\b(consent|approval)\b", q, _I):
        return False
    withouts = list(_WITHOUT_CONSENT.finditer(q))
    if not withouts:
        return True  # "subject to the consent of", "requires the approval of"
    for m in withouts:
        if _NO_NEED.search(m.group(0)):
            continue
        before = re.split(r"[.;]", q[max(0, m.start() - 200):m.start()])[-1]
        if _RESTRICTS.search(before) or not _PERMITS.search(before):
            # "... consummates any Change of Control of Vendor without the prior written consent of": an act done
            # without consent, with no "may" or "right to" making it a permission, is one that needs consent
            return True
    return False


def _change_of_control(c: Ctx, r: ClauseReading) -> None:
    r.trigger = control_trigger(c) or ""
    q = c.quote
    if AUTO_TERMINATION.search(q) and re.search(r"\bassignment\b", q, _I):
        _assignment(c, r)  # "terminates automatically in the event of its assignment (as the 1940 Act defines it)"
        if r.consequence.startswith("terminates automatically"):
            return
        r.actor = r.action = r.consequence = r.detail = r.counterparty = ""
        r.trigger = control_trigger(c) or ""
    if AUTO_TERMINATION.search(q) and CONTROL.search(q):
        # "Upon any Change of Control this Agreement shall automatically terminate unless Licensor has consented"
        r.action, r.consequence = "terminates automatically", "terminates automatically on change of control"
        unless = re.search(r"\bunless\b[^.;]{0,160}?\b(?:consent\w*|approv\w*|waive\w*)", q, _I)
        if unless:
            who = next((m for m in c.ms if unless.start() < m.start < unless.end() and m.party >= 0), None)
            r.counterparty = who.actor if who is not None else "the other party"
        return
    if LICENCES_SURVIVE.search(q):
        r.action, r.consequence = "leaves the licences in place", "licences survive"
        return
    if _DEFINES_CONTROL.search(q):
        # the definition, not a consequence: what counts as a change of control is what the lawyer reads it for
        r.action, r.consequence, r.detail = "is defined", "see clause", _control_events(q)
        return
    if _termination(c, r):
        if r.actor == "either party" and r.trigger.endswith("of either party"):
            r.trigger = r.trigger.replace("of either party", "of the other party")
        return
    if re.search(r"(deemed|constitute|considered|treated as)[^.;]{0,60}(assign|transfer)", q, _I):
        r.action, r.consequence = "is treated as an assignment", "consent required (treated as assignment)"
        r.counterparty = consent_of(c, "")
        return
    if sale_carve_out(q) is not None:
        # the restriction lets a party assign on a sale of its business without consent: what the deal meets
        # is that permission and its conditions, not the consent the restriction asks for otherwise
        _assignment(c, r)
        holder = c.idx.display_of(sale_carve_out(q).who)  # '' when the name is no party's: then as the restriction
        r.actor = holder or r.actor or "either party"
        r.action, r.consequence, r.detail, r.counterparty = "may assign", SALE_PERMITTED, "sale carve-out", ""
        return
    a = anchor(c, _ASSIGN)
    if a is not None and a[1]:  # "may not assign (whether through a merger or otherwise)": an assignment clause
        trigger = r.trigger
        _assignment(c, r)
        r.trigger = r.trigger if r.actor else trigger
        return
    if _requires_consent(q):
        r.action, r.consequence, r.counterparty = "requires consent", "consent required", consent_of(c, "")
        return
    a = anchor(c, r"notif|give\b[^.;]{0,30}notice|provide\b[^.;]{0,30}notice|inform")
    if a is not None:
        who, _ = actor_of(a[0], c, a[1])
        r.actor, r.action, r.consequence = who, "must give notice", "notice only"
        r.counterparty = (lambda o: o.actor if o else "")(other_party(c.ms, a[0]))
        return
    if r.trigger:
        r.action, r.consequence = "applies", "see clause"
    if not r.trigger:
        _assignment(c, r)


_DEFINES_CONTROL = re.compile(r"^\W*(?:\(?[a-z0-9]{1,3}[.)]\s*)?(?:the\s+term\s+)?[\"\u201c]?change\s+(?:in|of)\s+control[\"\u201d]?"
                              r"[^.;]{0,60}?\b(?:means|shall\s+mean|shall\s+include|includes|shall\s+be\s+deemed)", _I)
_SHARE = re.compile(r"\b(more than|greater than|in excess of|at least|over)?\s*((?:\w+(?:[- ]\w+)?\s+)?(?:percent|per cent)"
                    r"(?:\s+\(\d{1,3}(?:\.\d+)?\s?%\))?|\(?\d{1,3}(?:\.\d+)?\s?%\)?)", _I)


def _control_events(q: str) -> str:
    """What a definition of change of control counts, in plain words: 'a transfer of more than 50% of the voting
    securities, a merger or a sale of substantially all of the assets'; '' when none of these is named."""
    events = []
    share = _SHARE.search(q)
    if share:
        pct = re.search(r"\d{1,3}(?:\.\d+)?\s?%", share.group(0))
        amount = pct.group(0).replace(" ", "") if pct else " ".join(share.group(2).split())
        if re.match(r"\s*or\s+(?:more|greater)", q[share.end():]):
            amount += " or more"
        events.append(f"a transfer of {(share.group(1) or '').lower() + ' ' if share.group(1) else ''}{amount} of the "
                      "voting securities")
    elif re.search(r"\bmajority\b[^.;]{0,80}\b(?:voting|equity|shares|stock|securities)", q, _I):
        events.append("a transfer of a majority of the voting securities")
    if re.search(r"\bmerger|\bconsolidat\w+|\breorgani[sz]\w+", q, _I):
        events.append("a merger")
    if re.search(r"substantially all", q, _I):
        events.append("a sale of substantially all of the assets")
    if not events:
        return ""
    return events[0] if len(events) == 1 else ", ".join(events[:-1]) + " or " + events[-1]


def _assignment(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    a = anchor(c, _ASSIGN)
    consent = bool(re.search(r"\b(consent|approval|agreed upon in writing|agreement in writing)\b", q, _I))
    if a is not None:
        who, neg = actor_of(a[0], c, a[1])
        permitted = re.search(r"\bwithout\b[^.;]{0,50}\b(consent|approval)", q[a[2]:a[2] + 160], _I) and not neg
        r.actor = who
        if neg:
            r.action = "may not subcontract" if a[3].lower().startswith("subcontract") else "may not assign"
            r.consequence = "consent required" if consent else "assignment prohibited"
        elif permitted:
            r.action, r.consequence = "may assign", "permitted without consent"
        elif re.search(r"\bonly\b[^.;]{0,60}\b(consent|approval)|\b(subject to|with)\b[^.;]{0,30}\b(consent|approval)", q, _I):
            r.action, r.consequence = "may assign", "consent required"
        else:
            r.actor = ""
    r.trigger = f"assignment by {r.actor}" if r.actor else "assignment"
    if consent and r.consequence != "permitted without consent":
        r.counterparty = consent_of(c, r.actor, a[2] if a is not None else 0)
        r.consequence = r.consequence or "consent required"
    if AUTO_TERMINATION.search(q) and not r.actor:
        r.action, r.consequence = "terminates automatically", "terminates automatically on assignment"
        if STATUTORY_ASSIGNMENT.search(q):
            r.detail = "change of control counts"
            r.trigger = "assignment (as the US fund statutes define it)"
        return
    if re.search(r"\b(null and void|void|of no (force or )?effect|invalid)\b", q, _I):
        r.consequence = (r.consequence + "; " if r.consequence else "") + "void without consent"
    if re.search(r"(deemed|constitute|considered|treated as)[^.;]{0,60}(assign|transfer)", q, _I) and CONTROL.search(q):
        r.detail = "change of control counts"
        if not r.actor:
            r.trigger = control_trigger(c) or "a change of control"
    barred = NOT_TRANSFERABLE.search(q)
    if barred and not r.actor and not consent and r.consequence in ("", "assignment prohibited"):
        # "All rights ... granted herein are not sublicenseable, transferable or assignable": what may not move, and
        # how, in the clause's own adjectives
        verbs = list(dict.fromkeys(_PASSIVE[w.lower()[:6]] for w in re.findall(
            r"\b(?:sub-?licen[cs]e?able|transferr?able|assignable)\b", barred.group(0), _I)))
        how = ", ".join(verbs[:-1]) + " or " + verbs[-1] if len(verbs) > 1 else verbs[0]
        r.consequence, r.action = "assignment prohibited", f"may not be {how}"
        r.detail = "the rights granted" if re.search(r"\b(?:rights?|licen[cs]es?)\b", barred.group(1), _I) else "the agreement"
        return
    r.consequence = r.consequence or "restricts assignment"


_PASSIVE = {"sublic": "sublicensed", "sub-li": "sublicensed", "transf": "transferred", "assign": "assigned"}


_NO_CAUSE = re.compile(r"convenience|without cause|with or without cause|for any reason|for no reason|any or no reason|"
                       r"no reason|at will|in its (sole|absolute|unfettered) discretion|non-cause", _I)


def _convenience(c: Ctx, r: ClauseReading) -> None:
    # "for convenience" only where the clause says no cause is needed; a right to terminate for breach is not one
    r.trigger = "convenience (no cause needed)" if _NO_CAUSE.search(c.quote) else ""
    r.notice = notice_of(c.quote)
    if not _termination(c, r):
        r.action, r.consequence = "", "termination right"


_LICENCE_WORDS = ["exclusive", "non-exclusive", "sole", "worldwide", "perpetual", "irrevocable", "royalty-free",
                  "fully paid-up", "non-transferable", "non-sublicensable", "sublicensable", "limited", "revocable",
                  "non-assignable", "terminable"]


def _licence_terms(text: str) -> str:
    low = re.sub(r"\bnon\s*-?\s*", "non-", text.lower()).replace("nonexclusive", "non-exclusive")
    low = re.sub(r"\bsub-?licens(e)?able\b", "sublicensable", low).replace("fully paid up", "fully paid-up")
    out = []
    for w in _LICENCE_WORDS:
        if re.search(r"(?<![\w-])" + re.escape(w) + r"(?![\w-])", low) and not any(w in o for o in out):
            out.append(w)
    return ", ".join(out)


def _licence(c: Ctx, r: ClauseReading) -> None:
    grantor, grantee, end = grant(c, r"grants?|granted|license[sd]?|licence[sd]?")
    r.actor = actor_of(grantor, c, False)[0]
    r.counterparty = grantee.actor if grantee and grantee.party >= 0 else ""
    before = c.quote[max(0, end - 160):max(0, end)].split(". ")[-1]
    if re.search(r"\b(not|no|nothing|negotiate|option|obligation|if|unless|may|will|shall)\b", before, _I) and not re.search(
            r"\bhereby\s+\w*\s*(grants?|licen[cs]es)\s*$|\b(shall|will)\s+(and\s+hereby\s+does\s+)?grant\s*$", before, _I):
        r.actor, r.counterparty = "", ""  # a grant promised, negotiated or denied is not a grant
        r.consequence = "licence terms"
        return
    if end < 0:  # no party named: the adjectives still come from the grant, not from "the sole exception"
        verb = re.search(r"\b(grants?|granted)\b", c.quote, _I)
        end = verb.end() if verb else -1
    noun = re.search(r"\b(licen[cs]e|right)\b", c.quote[max(0, end):], _I)
    span = c.quote[max(0, end):max(0, end) + noun.start()] if end >= 0 and noun and noun.start() <= 220 else ""
    if grantor is None and re.search(r"\bno (right|licen[cs]e)|\bnot (be )?(construed as )?grant", c.quote, _I):
        r.counterparty = ""
    r.detail = _licence_terms(span)
    r.action = "grants a licence" if r.actor else ""
    r.consequence = "licence " + ("is not transferable" if re.search(r"non-?transferable|non-?assignable|not (be )?(transferable|assignable)", c.quote, _I) else "granted")


def _simple(verb: str, pos: str, negative: str, consequence: str, need_neg: bool | None = None) -> Callable:
    """A reader for clauses that bind one party to do (pos) or not do (negative) something."""
    def read(c: Ctx, r: ClauseReading) -> None:
        who, neg, m = _bound_party(c, verb)
        if need_neg is not None and neg != need_neg:
            who = ""
        r.actor = who
        r.action = (negative if neg else pos) if who else ""
        r.counterparty = party_counter(c, m)
        r.consequence = consequence
        r.notice = notice_of(c.quote) if "notice" in consequence or "audit" in consequence else ""
    return read


def _exclusivity(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    who, neg, m = _bound_party(c, r"have the exclusive|be the exclusive|exclusive(ly)?\b|purchase all|buy all")
    r.consequence = "exclusive dealing"
    if who and not neg:
        r.actor, r.action = who, "has exclusive rights" if re.search(r"exclusive right", q, _I) else "must deal exclusively"
        r.counterparty = party_counter(c, m)
        r.detail = _exclusive_to(q) if r.action == "has exclusive rights" else ""
        return
    who, neg, m = _bound_party(c, r"purchase|buy|sell|distribute|market|promote|deal|engage|enter into|appoint|license|"
                                 r"grant|use|obtain|source|advertis\w*|contract|commit|develop|manufacture|supply|offer|provide")
    if who and neg:
        r.actor, r.action, r.counterparty = who, "may not deal with others", party_counter(c, m)
        return
    # "All sales towards customers for bunker fuel will be carried out exclusively by Bunker One": the passive names
    # the one who alone may do it
    done = re.search(r"\b(sales?|selling|distribution|marketing)\b[^.;]{0,80}?\b(?:shall|will)\s+be\s+(?:carried\s+out|made|"
                     r"conducted|performed|handled|effected)\s+(?:solely\s+and\s+)?exclusively\s+(?:by|through)\s+", q, _I)
    only = mention_at(q, done.end(), c.ms, slack=4) if done else None
    if only is not None and only.party >= 0:
        r.actor, r.action = actor_of(only, c, False)[0], "has exclusive rights"
        r.detail = {"sal": "sell", "sel": "sell", "dis": "distribute", "mar": "market"}[done.group(1)[:3].lower()]
        return
    grantor, grantee, _ = grant(c, r"appoints?|grants?")
    if grantee is not None and grantee.party >= 0 and re.search(r"\bexclusive\b", q, _I) and not re.search(r"non-?exclusive", q, _I):
        r.actor, r.action = grantee.actor, "has exclusive rights"
        r.counterparty = grantor.actor if grantor and grantor.party >= 0 else ""
        r.detail = _exclusive_to(q)


_TRAILING = {"the", "a", "an", "its", "their", "and", "or", "any", "all", "such", "of", "to", "in", "for", "on", "with"}


def _exclusive_to(q: str) -> str:
    """What an exclusive right is to do, in its own lower-case words ("market and sell" of "the exclusive right to
    market and sell AMR Product Suites ..."); '' where no such verbs follow. Names and products stay out: the
    sentence may name only the agreement's parties."""
    m = re.search(r"\bexclusive rights?\s+to\s+((?:[a-z]+,?\s+){1,8})", q)
    if m is None:
        return ""
    words = m.group(1).split()  # with their commas: "use, reproduce, modify, distribute and sublicense"
    after = ""
    while words and words[-1].strip(",") in _TRAILING:
        after = words.pop()
    if after in ("for", "on", "of", "in", "from", "with", "at", "by"):
        return ""  # "the exclusive right to commission for any Registered Referrals": a noun, not a verb
    if words:
        words[-1] = words[-1].strip(",")
    return " ".join(words) if 0 < len(words) <= 6 and words[0].strip(",") not in _TRAILING else ""


def _cap(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.amount = amount_of(q)
    # the subject and its cap may stand 300 characters apart ("WEBMD'S AGGREGATE LIABILITY FOR ALL DAMAGES ...,
    # WHETHER IN CONTRACT, TORT (INCLUDING NEGLIGENCE) OR OTHERWISE, ... SHALL NOT EXCEED FIFTY DOLLARS")
    m = re.search(r"(?:total|aggregate|entire|cumulative|maximum)?\s*liabilit(y|ies)\b(?:[^.;]|(?<=\d)\.(?=\d)){0,300}?\b(not\s+(?:to\s+)?exceed|exceed|limited to|capped at|no more than|greater than|in excess of)"
                  r"|\bliability cap\b", q, _I)
    liable = re.search(r"\bliable\b[^.;]{0,60}?\b(?:(?:for\s+)?no more than|for more than|(?:for\s+)?(?:any\s+)?(?:amounts?\s+)?in excess of)", q, _I)
    if m is None and liable is not None:
        # "IBM is liable for no more than:", "shall not be liable for any amount in excess of": a cap said of a party
        who, _, _ = subject_of(c, r"be liable|liable")
        r.actor, r.action, r.consequence = who, "liability is capped", "liability capped"
        return
    contribute = re.search(r"(?:\bno\b[^.;]{1,60}?\s+(?:shall|will)|\b(?:shall|will)\s+not)\s+be\s+required\s+to\s+contribute\b"
                           r"[^.;]{0,40}?\bin excess of\b", q, _I)
    if m is None and contribute is not None:
        # the registration-rights contribution cap: "no Remarketing Agent shall be required to contribute any amount
        # in excess of" what it earned from the sale
        who = subject_before(q, contribute.start(), c.ms)
        r.actor = actor_of(who, c, False)[0] if who is not None and who.party >= 0 else ""
        r.action, r.consequence = "contribution is capped", "liability capped"
        return
    recover = re.search(r"\b(?:damages|reimbursements?|recover(?:y|ies)|indemnification (?:payments?|obligations?))\b[^.;]{0,200}?"
                        r"\b(?:(?:shall|will)\s+not\s+exceed|not\s+to\s+exceed|(?:shall|will)\s+be\s+limited\s+to)\b", q, _I)
    if m is None and recover is not None:
        # "PROVEN DIRECT DAMAGES ... NOT TO EXCEED THE FEES PAID", "Financial reimbursements claimed ... shall not exceed
        # payments received": what may be recovered is capped, whoever owes it
        r.action, r.consequence = "recovery is capped", "liability capped"
        return
    if m:
        poss = [x for x in c.ms if x.end <= m.start() + 2 and re.fullmatch(r"(?:'s|’s|’|')?\s*(?:\w+\s+){0,3}", q[x.end:m.start()], _I)]
        who = actor_of(poss[-1], c, False)[0] if poss else ""
        if not who:
            who, _, _ = subject_of(c, r"be liable|liable")
        r.actor, r.action, r.consequence = who, "liability is capped", "liability capped"
        return
    who, neg, _ = subject_of(c, r"be liable|liable|be entitled to recover|recover|disclaims?")
    in_no_event = re.search(r"\b(?:in no event|under no circumstances?(?:\s+and\s+under\s+no\s+(?:legal\s+)?theory)?"
                            r"(?:\s*\([^)]{0,80}\))?,?)\s+(shall|will)\s+", q, _I)
    if in_no_event and not who:
        hit = mention_at(q, in_no_event.end(), c.ms, slack=2)
        who, neg = actor_of(hit, c, True)
    no_liability = re.search(r"\b(?:shall|will)\s+(?:have\s+no|not\s+(?:have|incur|be\s+under)\s+any)\s+liability\b[^.;]{0,200}?"
                             r"\b(?:by reason|because|as a result|on account)\s+of\s+(?:the\s+|any\s+)?(?:termination|expiration|non-renewal)", q, _I)
    if no_liability:
        # the distributor's clause: nothing is owed for ending the agreement ("TouchStar shall have no liability to
        # Reseller ... by reason of the termination or expiration of this Agreement for compensation ... or damages")
        who = subject_before(q, no_liability.start(), c.ms)
        if who is not None and who.party >= 0:
            r.actor, r.action = actor_of(who, c, False)[0], "is not liable"
            r.counterparty = party_counter(c, who)
        r.consequence = "no liability on termination"
        return
    if re.search(r"\b(indirect|consequential|incidental|special|punitive|exemplary|lost profits)\b", q, _I) and (
            neg or re.search(r"disclaim|exclud|waive|\b(?:shall|will) not include\b", q, _I)):
        r.actor = who
        r.action = "is not liable" if who else ""
        r.detail = "indirect or consequential damages"
        r.consequence = "consequential damages excluded"
        return
    if re.search(r"\bsole (and exclusive )?(remedy|remedies|liability)\b|\bexclusive remed", q, _I):
        r.consequence = "remedies limited"
        return
    r.consequence = "liability limited"


_HEADING = re.compile(r"\W*(?:(?:section|article)\s+)?(?:\d+(?:\.\d+)*\.?\s+)?(?:[A-Z][A-Za-z ;,&'-]{2,60}\.\s+(?=[A-Z]))?")


_CARVE_KINDS = (("indemnity claims", r"indemnif"), ("breaches of confidentiality", r"confidential"),
                ("infringement of intellectual property", r"infring|misappropriat"),
                ("gross negligence or wilful misconduct", r"gross(?:ly)? neglig|wil?ful(?:l)?\s+misconduct"),
                ("fraud", r"\bfraud"), ("death or personal injury", r"\bdeath\b|bodily injury|personal injury"))


def _uncapped(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    h = _HEADING.match(q).end()  # "10. LIMITATION ON LIABILITY. EXCEPT IN THE EVENT OF ..."
    m = re.match(r"\W*(?:(?:notwithstanding[^,]{0,80},\s*)?(?:and\s+)?)(?:except|excluding|other than)\s+"
                 r"(?:for|with (?:respect|regard) to|in the (?:event|case) of|in connection with|as to|to the extent of)?\s*"
                 r"([^,;:]{3,140}?),", q[h:], _I)
    redacted = bool(m) and ("[*" in m.group(1) or "***" in m.group(1)) and not re.search(r"[A-Za-z]{3}", re.sub(r"\[[^\]]*\]", "", m.group(1)))
    if m and ("[*" not in m.group(1) and "***" not in m.group(1) or redacted):
        carve = re.sub(r"\s*\[[^\]]*\]|\s+hereof\b|\s+hereunder\b", "", m.group(1))
        carve = re.sub(r"^as (set forth|provided|stated) in\b", "the matters in", carve, flags=_I)
        # "EXCEPT FOR [**], IN NO EVENT WILL EITHER PARTY BE LIABLE": a carve-out the filed copy blanks out is
        # still a carve-out; say so rather than read the limitation as a plain cap
        r.detail = "matters the filed copy redacts" if redacted else plain(carve, c).replace("this §", "§")
        rest = ClauseReading()
        _cap(c, rest)  # what the carve-out is carved out of: a cap, or the exclusion of indirect damages
        r.trigger = {"liability capped": "the liability cap", "consequential damages excluded":
                     "the exclusion of indirect and consequential damages"}.get(rest.consequence, "")
    if not m:
        # "... neither Party shall be liable for consequential damages ... except to the extent such damages are
        # payable (a) pursuant to its indemnification obligations, (b) ... confidentiality ... or (c) ... gross
        # negligence": a trailing list of carve-outs, said by kind
        tail = re.search(r"\b(?:except|excluding|other than|save)\b(.{10,600})", q[h:], _I | re.S)
        kinds = [k for k, rx in _CARVE_KINDS if tail and re.search(rx, tail.group(1), _I)]
        if kinds:
            r.detail = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]
            rest = ClauseReading()
            _cap(c, rest)
            r.trigger = {"liability capped": "the liability cap", "consequential damages excluded":
                         "the exclusion of indirect and consequential damages"}.get(rest.consequence, "")
    if re.search(r"without limit|unlimited|shall not (be )?(subject to|limited)|not subject to (any )?(cap|limit)|(limitation|limit|cap|exclusion)s?\b[^.;]{0,150}(shall|will|do|does) not apply", q, _I) or r.detail:
        r.action, r.consequence = "liability is uncapped", "uncapped liability"
        who, _, _ = subject_of(c, r"bear|be liable|liable")
        r.actor = who
        return
    _cap(c, r)


def _ip(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "ip ownership"
    if re.search(r"\bjoint(ly)?\b[^.;]{0,60}\bown|\bco-?own", q, _I):
        r.action, r.consequence = "jointly own", "joint ownership"  # before any 'owned by X': 'owned by X and Y'
        return
    a = anchor(c, r"(irrevocably\s+)?assigns?\b")
    if a is not None and not a[1]:
        span = re.split(r"[.;]", q[a[2]:a[2] + 250])[0]
        grantee = next((g for g in (mention_at(q, a[2] + t.end(), c.ms, slack=4) for t in re.finditer(r"\bto\s+", span, _I))
                        if g is not None), None)
        if grantee is not None and grantee.party >= 0:
            r.actor = actor_of(a[0], c, False)[0] if a[0] is not None and a[0].party != grantee.party else ""
            r.action, r.counterparty, r.consequence = "assigns its rights", grantee.actor, "ip assigned"
            return
    m = re.search(r"(property of|vest(s|ed)? (solely )?in|owned (solely |exclusively )?by)\s+", q, _I)
    if m:
        who = mention_at(q, m.end(), c.ms, slack=4)
        if who is not None and who.party >= 0 and not re.match(r"\s*(and|or)\b", q[who.end:], _I):
            r.actor, r.action = who.actor, "owns"
            return
    who, neg, _ = subject_of(c, r"be the (sole (and exclusive )?|exclusive )?owner|(solely |exclusively )?own\b|retain\w*")
    if who and not neg:
        r.actor, r.action = who, "owns"


def _governing_law(c: Ctx, r: ClauseReading) -> None:
    m = re.search(r"\b(?i:laws?\s+of\s+(?:the\s+)?(?:(?:state|commonwealth|province|republic|kingdom)\s+of\s+)?)(the\s+)?"
                  r"([A-Z][A-Za-z.]+(?:(?:\s+and|\s+of)?\s+[A-Z][A-Za-z.]+){0,3})", c.quote)
    # an ALL-CAPS clause runs the place into the next words ("DELAWARE WITHOUT GIVING EFFECT"): cut them off
    place = re.split(r"\.\s|\s+(?:without|giving|regard|excluding|except|notwithstanding|applicable|as|in|to|that|which|and\s+(?:any|the|its|all))\b",
                     m.group(2), maxsplit=1, flags=_I)[0].rstrip(".") if m else ""
    if place and place.isupper() and len(place) > 3:
        place = " ".join(w if w in ("USA", "UK", "U.S.A.", "U.K.") else w.capitalize() for w in place.split())
    if place and place.lower() not in ("the", "this", "agreement") and not any(t in place for t, _ in c.idx.terms):
        the = m.group(1) or re.match(r"(United|Republic|Kingdom|Netherlands|Commonwealth)\b", place)
        r.detail = ("the " if the else "") + place
        r.action = "governs"
    r.consequence = "arbitration" if re.search(r"\barbitrat", c.quote, _I) else "governing law"


def _term(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    # the agreement's own term: "the term of this Agreement", "this Agreement shall continue"; not how long
    # an obligation survives ("obligations ... shall remain in effect for five years")
    term = re.search(r"\b(initial term|the term|term of this agreement|this agreement (shall|will) (continue|remain in (full )?(force|effect))"
                     r"|this agreement (is|shall be|will be|becomes) effective\b[^.;]{0,80}?\b(continue|remain)\w*)\b", q, _I)
    if term and not re.search(r"\b(obligations?|surviv\w*|confidential\w*)\b", q[:term.end() + 80], _I):
        p = next((x for x in PERIOD.finditer(q, term.end(), term.end() + 160) if period(x)), None)
        if p and not re.search(r"renew|notice|after|prior|within|following|before|extend|additional|successive",
                               q[term.end():p.start()], _I):
            r.detail = period(p)
    if not r.detail and term:
        anniv = re.search(r"\b(\w+)\s*(?:\(\s*\w+\s*\)\s*)?anniversary of the (?:effective date|date (?:of|hereof))", q, _I)
        n = anniv and ({"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
                        "ninth": 9, "tenth": 10}.get(anniv.group(1).lower()) or (int(anniv.group(1)[:-2]) if re.fullmatch(
                            r"\d+(st|nd|rd|th)", anniv.group(1)) else None))
        if n:
            r.detail = "1 year" if n == 1 else f"{n} years"
    if re.search(r"\b(?:continue|remain)\w*\s+in\s+(?:full\s+)?(?:force|effect)\s+until\s+(?:it\s+is\s+)?terminated\b"
                 r"|\bcontinue\w*\s+until\s+(?:it\s+is\s+)?terminated\b", q, _I) and not r.detail:
        r.action = "continues until terminated"
    if re.search(r"automatic(ally)?\s+(be\s+)?(renew|extend)|auto-renew|renew\w* automatically|automatic\w*\s+(\w+[\s-]+){0,3}(renewal|extension)", q, _I):
        r.action = "renews automatically"
        per = re.search(r"\b(successive|additional|further)\b", q, _I)
        p = next((period(x) for x in PERIOD.finditer(q[per.end():per.end() + 40]) if period(x)), "") if per else ""
        r.trigger = p
    r.notice = notice_of(q)
    r.consequence = "term and renewal"


def _mfn(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "most favoured terms"
    # "NTC agrees that the prices offered to Alfa shall not be less favourable than ...": NTC gives, Alfa receives
    agrees = re.search(r"\s+(agrees|covenants|undertakes|warrants)\s+that\b", q, _I)
    if agrees and re.search(r"(less|more|as) favou?rabl|most favou?red", q, _I):
        giver = subject_before(q, agrees.start(), c.ms)
        to = re.search(r"\b(offered|provided|charged|granted|given|extended|made available)\s+to\s+", q[agrees.end():], _I)
        taker = mention_at(q, agrees.end() + to.end(), c.ms, slack=4) if to else None
        if giver is not None and giver.party >= 0 and taker is not None and taker.party >= 0 and taker.party != giver.party:
            r.actor, r.action, r.counterparty = giver.actor, "must match better terms given to others", taker.actor
            return
    who, neg, m = subject_of(c, r"offer|grant|extend|provide|give|reduce|adjust|charge|sell|make available|be entitled")
    if who and not neg:
        r.actor, r.action, r.counterparty = who, "must match better terms given to others", party_counter(c, m)


def _rofr(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    kind = ("right of first refusal" if re.search(r"first (?:right of )?refusal", q, _I)
            else "right of first offer" if re.search(r"first (?:right of )?offer", q, _I)
            else "right of first negotiation" if re.search(r"first (negotiation|right to negotiate)|negotiat", q, _I) else "")
    r.detail, r.consequence = kind, "pre-emption right"
    who, neg, _ = subject_of(c, r"(the |a )?(right|option)")
    if not who:
        _, grantee, _ = grant(c, r"grants?")
        who = grantee.actor if grantee and grantee.party >= 0 else ""
    if who and not neg and kind:
        r.actor, r.action = who, "has a " + kind
    if re.search(r"(sale|sell|transfer|dispos\w+)[^.;]{0,100}(business|assets|shares|stock|equity|interest)", q, _I):
        r.trigger = "a sale of the business or assets"


def _audit(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "audit right"
    r.notice = notice_of(q)
    r.detail = ("books and records" if re.search(r"record|book|account|invoice|documentation", q, _I)
                else "facilities" if re.search(r"facilit|premises|plant|site\b|locations?\b", q, _I)
                else "products and materials" if re.search(r"\bproducts?\b|merchandise|inventory|\bmaterials?\b|\bsamples?\b", q, _I)
                else "compliance with the agreement" if re.search(r"\bcompliance\b", q, _I) else "")
    verb = "audit" if re.search(r"\baudit", q, _I) else "inspect"
    if _audit_cost(c, r):
        return
    # "XSPA's representatives may ... inspect and audit", "AT&T's access to the records ... shall include the right to
    # inspect", "AT&T Audits may be conducted": the right is the named party's, exercised through its people
    for x in c.ms:
        if x.party < 0:
            continue
        if re.match(r"(?:'s|’s|’|')?\s+(?:(?:duly\s+)?(?:authori[sz]ed\s+)?(?:independent\s+)?(?:representatives?|accountants?|auditors?|agents?|designees?|nominees?)"
                    r"(?:\s+and\s+\w+)?\s+(?:may|shall\s+have\s+the\s+right\s+to|(?:is|are)\s+entitled\s+to)\b[^.;]{0,200}?\b(?:inspect|audit|examine)"
                    r"|access\s+to\s+(?:the\s+|its\s+|all\s+|such\s+)?(?:books|records|accounts)|audits?\s+may\s+be\s+conducted)", q[x.end:], _I):
            r.actor, r.action = actor_of(x, c, False)[0], f"may {verb}"
            r.counterparty = party_counter(c, x)
            return
    # "Any such audit shall be permitted by Licensee within 30 days of ... a written request of Licensor"
    permitted = re.search(r"\b(?:audit|inspection)s?\b[^.;]{0,40}?\b(?:shall|will)\s+be\s+(?:permitted|allowed)\s+by\s+", q, _I)
    if permitted:
        holder = mention_at(q, permitted.end(), c.ms, slack=4)
        if holder is not None and holder.party >= 0:
            other = other_party(c.ms, holder)
            r.counterparty = holder.actor
            r.actor, r.action = (other.actor, f"may {verb}") if other is not None and other.party >= 0 else ("", "")
            return
    # "Cisco shall permit Distributor (or its agent) to audit": the one permitted audits, the one permitting is
    # audited; so with "provide Distributor the opportunity to examine"
    # (and "shall allow Premier access to such records")
    for p in re.finditer(r"\b(permit|allow|provide|give|afford)s?,?\s+", q, _I):
        who = mention_at(q, p.end(), c.ms, slack=2)
        if who is not None and re.match(r"(\s+or\s+its\s+\w+)?(\s+and\s+[\w.-]+)?(,[^,]{0,80},)?\s+(with\s+)?((the|an?|reasonable|full)\s+)*"
                                        r"((opportunity|right|access)?\s*to\s+(conduct\s+)?(\w+\s+)?(audit|inspect|examine)|"
                                        r"access\s+to\s+(?:(?:such|its|the|all)\s+)?(?:books|records|accounts))",
                                        q[who.end:], _I):
            r.actor, r.action = actor_of(who, c, False)[0], f"may {verb}"
            sub = anchor(c, r"permit|allow|provide|give|afford")
            r.counterparty = sub[0].actor if sub and sub[0] is not None and sub[0].party >= 0 and sub[0].party != who.party else ""
            return
    # "Merchant shall make its books available to Purchaser", "available for inspection by HEMISPHERX"
    avail = re.search(r"\bavailable\s+(?:to|for\s+(?:audit|inspection|review|examination)\b(?:[^.;]{0,100}?\s)?by)\s+", q, _I)
    if avail and re.search(r"\b(books|records|documentation|accounts|information)\b", q[:avail.start()], _I):
        who = mention_at(q, avail.end(), c.ms, slack=4)
        if who is not None and who.party >= 0:
            holder = subject_before(q, (re.search(r"\b(shall|will|must)\b[^.;]*$", q[:avail.start()], _I) or avail).start(), c.ms)
            r.actor, r.action = who.actor, f"may {verb}"
            r.counterparty = holder.actor if holder is not None and holder.party >= 0 and holder.party != who.party else ""
            return
    who, neg, m = _bound_party(c, r"(?:engage|cause)\b[^.;]{0,100}?\b(?:to\s+(?:audit|inspect|examine)|an?\s+(?:audit|inspection))"
                                  r"|(?:audit|inspect|examine|review|monitor)\b|"
                                  r"conduct\w*\s+(\w+\s+)?(audits?|inspections?)|(?:ha(?:ve|s)|reserves?) the right\b[^.;]{0,120}?\bto\s+(?:appoint|engage|audit|inspect|"
                                  r"have\s+(?:an?|its)\s+(?:[\w-]+\s+){0,3}(?:accountants?|auditors?|representatives?)\s+(?:audit|examine|inspect))")
    if who and not neg:
        r.actor, r.action, r.counterparty = who, f"may {verb}", party_counter(c, m)
        return
    # the record-keeping half of an audit clause: "i-Escrow shall keep for one (1) year proper records and books
    # of account relating to ..." says who keeps what, and for how long, even where no audit right follows
    keep = re.search(r"\b(keep|maintain|retain|preserve)\b[^.;]{0,80}?\b(books|records|accounts)\b", q, _I)
    if keep and r.detail == "books and records":
        who, neg, m = _bound_party(c, r"keep|maintain|retain|preserve")
        if who and not neg:
            period = re.search(r"\bfor\s+(?:a\s+period\s+of\s+)?((?:at\s+least\s+)?(?:\w+\s+)?(?:\(\d+\)\s+)?(?:years?|months?))\b"
                               r"([^.;]{0,60}\b(?:after|following|from)\b[^.;,]{0,60})?", q, _I)
            r.actor, r.action = who, "must keep"
            r.amount = " ".join(period.group(0).split()) if period else ""


_AUDIT_COST = re.compile(r"\b(?:costs?|expenses?|fees?)\s+of\s+(?:the|any|such|each)\s+(?:audit|inspection|examination)s?\b[^.;]{0,60}?"
                         r"\b(?:borne|paid)\s+by\s+|\b(?:audit|inspection|examination)s?\b[^.;]{0,120}?\bat\s+the\s+(?:sole\s+)?"
                         r"(?:cost\s+and\s+)?(?:cost|expense)s?\s+of\s+", _I)


def _audit_cost(c: Ctx, r: ClauseReading) -> bool:
    """Who pays for the audit, and when the cost moves: "The cost of the audit will be borne by Licensor unless a
    discrepancy of more than five-percent (5%) is discovered, in which case ... borne by Licensee"."""
    q = c.quote
    m = _AUDIT_COST.search(q)
    payer = mention_at(q, m.end(), c.ms, slack=4) if m else None
    if payer is None or payer.party < 0:
        return False
    r.actor, r.action = actor_of(payer, c, False)[0], "bears the cost of the audit"
    shift = _SHIFT.search(q, m.end())
    shifted = mention_at(q, shift.end(), c.ms, slack=4) if shift else None
    if shift and shifted is not None and shifted.party >= 0 and shifted.party != payer.party:
        r.counterparty, r.amount = shifted.actor, _pct(shift.group(0))
    return True


def _minimum(c: Ctx, r: ClauseReading) -> None:
    # a figure is a commitment only where the clause calls it a minimum ("a minimum charge of $75" per trip is a rate)
    r.amount = next((" ".join(m.group(0).split()).rstrip(".,") for m in MONEY.finditer(c.quote)
                     if re.search(r"\b(minimum (of|purchase|commitment|amount|payment)s?|at least|not less than|no less than|guaranteed?)\b[^.;]{0,40}$",
                                  c.quote[max(0, m.start() - 60):m.start()], _I)), "")
    r.consequence = "minimum commitment"
    q = c.quote
    # the commitment said through its breach or its imposition: "Should ADMA fail to supply a minimum of [***]
    # Batches", "impose on ADMA an obligation to supply a minimum of", "EFS does not meet the full amount of the
    # Minimum Royalty"
    said = re.search(r"\b(?:should|if|in the event(?: that)?)\s+(?=\S)(.{1,60}?)\s+(?:fails?|does\s+not|is\s+unable)\s+(?:to\s+)?"
                     r"(?:supply|purchase|buy|order|sell|deliver|meet|achieve|pay)\b[^.;]{0,60}?\bminimum"
                     r"|\bimpose\s+on\s+(?=\S)(.{1,60}?)\s+an?\s+obligation\s+to\s+(?:supply|purchase|buy|order|sell|deliver|pay)\b[^.;]{0,40}?\bminimum", q, _I)
    if said:
        at = said.start(1) if said.group(1) else said.start(2)
        who_m = mention_at(q, at, c.ms, slack=4)
        if who_m is not None and who_m.party >= 0:
            r.actor, r.action, r.counterparty = actor_of(who_m, c, False)[0], "must meet a minimum commitment", party_counter(c, who_m)
            return
    # whole verbs: "remedies provided for herein" is no promise to provide
    who, neg, m = _bound_party(c, r"(?:purchase|buy|order|pay|spend|sell|achieve|meet|deliver|provide|commit|guarantee|supply)\b")
    if who and not neg and re.search(r"minimum|at least|not less than|no less than|guarantee", q, _I):
        r.actor, r.action, r.counterparty = who, "must meet a minimum commitment", party_counter(c, m)


def _debt(c: Ctx, r: ClauseReading) -> None:
    r.trigger = control_trigger(c)
    q = c.quote
    r.consequence = ("event of default" if re.search(r"event of default", q, _I)
                     else "mandatory prepayment" if re.search(r"prepay", q, _I) else "debt provision")


def _employee(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.trigger = control_trigger(c)
    r.amount = amount_of(q)
    what = ("severance" if re.search(r"severance", q, _I) else "accelerated vesting" if re.search(r"accelerat|vest", q, _I)
            else "a bonus" if re.search(r"\bbonus", q, _I) else "a payment" if re.search(r"\bpay(ment)?\b", q, _I) else "")
    r.detail, r.consequence = what, "employee payment"
    who, neg, _ = subject_of(c, r"(be )?entitled|receive|vest")
    if who and not neg and what:
        r.actor, r.action = who, "is entitled to"


# The commercial items CUAD asks about besides the deal-critical ones. Each reading keeps only what the
# clause states: a percentage with its base, a period with its start, the party bound.
_PCT = r"(?:\d+(?:\.\d+)?\s?%|\d+(?:\.\d+)?\s+per\s?cent\b|[a-z]+(?:[- ][a-z]+)?\s+(?:percent|per cent)\s*\(\s*(\d+(?:\.\d+)?)\s?%?\s*\))"
# the audit cost moves to the audited party past a threshold (_audit_cost)
_SHIFT = re.compile(r"\bunless\b[^.;]{0,120}?\b(?:discrepanc\w*|under-?payments?|understatements?|errors?|variances?)\b[^.;]{0,80}?"
                    + _PCT + r"[^.;]{0,160}?\b(?:borne|paid)\s+by\s+", _I)
_SHARE_OF = re.compile(_PCT + r"\s+of\s+(?:the\s+|all\s+|such\s+|its\s+|any\s+|each\s+)?"
                       r"((?:[\w-]+\s+){0,3}?(?:revenues?|sales|profits?|receipts|income|proceeds|fees|margins?|prices?|"
                       r"royalt(?:y|ies)|amounts?|billings?|earnings))\b", _I)


def _pct(text: str) -> str:
    """'15%' from '15%', '15 percent' or 'fifteen percent (15%)'."""
    m = re.search(r"\((\d+(?:\.\d+)?)\s?%?\)|(\d+(?:\.\d+)?)\s?(?:%|per\s?cent)", text, _I)
    return f"{m.group(1) or m.group(2)}%" if m else ""


def _share_of(q: str) -> str:
    m = _SHARE_OF.search(q)
    return f"{_pct(m.group(0))} of {' '.join(m.group(2).lower().split())}" if m and _pct(m.group(0)) else ""


def _revenue(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "revenue sharing"
    r.amount = _share_of(q)
    r.detail = ("royalties" if re.search(r"royalt", q, _I) else "commissions" if re.search(r"commission", q, _I)
                else "a share of revenue" if re.search(r"revenue[- ]shar|shar\w* (?:of |in )?(?:the |any |all )?(?:\w+ )?revenues?"
                                                      r"|(?:percent|%\)?) of [^.;]{0,50}\brevenues?\b", q, _I) else "")
    split = re.search(r"\bshare (?:the |all |any )?(fees|revenues?|profits?|net profits?|proceeds|commissions?)\s+"
                      r"(equally|\d{1,2}\s?%\s?/\s?\d{1,2}\s?%|\d{1,2}\s?/\s?\d{1,2}|fifty[- ]fifty)", q, _I)
    if split:
        # "The parties agree to share fees 50%/50% on assignments ...": both share, in the stated split
        r.actor, r.action = "each party", "share"
        r.detail = f"the {split.group(1).lower()} {' '.join(split.group(2).split())}"
        return
    # "Dr. Murray will receive an annual royalty on net sales": the clause names the one paid
    paid = re.search(r"\b(?:shall|will)\s+(?:receive|be\s+paid|earn|be\s+entitled\s+to)\s+(?:an?\s+)?(?:(?:annual|quarterly|monthly)\s+)?"
                     r"(royalty|commission|share)\b(?:\s+(?:on|of)\s+((?:the\s+)?(?:net|gross)\s+(?:sales|revenues?|receipts)))?", q, _I)
    payee = subject_before(q, paid.start(), c.ms) if paid else None
    if payee is not None and payee.party >= 0:
        r.actor, r.action = actor_of(payee, c, False)[0], "receives"
        kind = {"royalty": "a royalty", "commission": "a commission", "share": "a share of revenue"}[paid.group(1).lower()]
        r.detail = kind + (f" on {paid.group(2).lower()}" if paid.group(2) else "")
        return
    # _bound_party: "ArTara will, no later than 60 days following each calendar quarter, pay tiered Royalties"
    # "Royalty payments" is no promise to pay; "Royalties will be payable by ArTara" is
    who, neg, m = _bound_party(c, r"(?:pay(?:able)?|remit|share|split|account for|owe)\b")
    if who and not neg:
        r.actor, r.action, r.counterparty = who, "must pay", party_counter(c, m) if m is not None else ""


def _price(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "price restriction"
    cap = re.search(r"\b(?:more than|in excess of|exceed(?:ing)?|greater than|above|by over)\s+(?:the\s+lesser\s+of\s+)?" + _PCT, q, _I)
    r.amount = _pct(cap.group(0)) if cap else ""
    every = re.search(r"\b(?:in|during|for)\s+any\s+(?:one\s+)?(?:calendar\s+|contract\s+|twelve[- ]month\s+|12[- ]month\s+)?(year|quarter|period)\b"
                      r"|\b(?:per|each)\s+(?:calendar\s+|contract\s+)?(year|quarter)\b|\bannual(?:ly)?\b", q, _I)
    r.trigger = f"in any {(every.group(1) or every.group(2) or 'year').lower()}" if every else ""
    times = re.search(r"\bmore (?:often )?than (once|twice)\b", q, _I)
    if times:  # "may not increase the fees more than once in any year" limits how often, not by how much
        r.amount, r.trigger = "", f"more than {times.group(1).lower()}" + (f" {r.trigger}" if r.trigger else "")
    who, neg, _ = subject_of(c, r"increase|raise|change|adjust|modify|reduce|decrease|charge|alter")
    if who and neg:
        r.actor = who
        r.action = "may not raise its prices" if re.search(r"increas|rais|exceed|more than", q, _I) else "may not change its prices"
    elif fixed := re.search(r"\b(?:prices?|pricing|fees?|rates?)\b[^.;]{0,60}\b(?:shall|will)\s+(?:be|remain)\s+(?:fixed|firm|locked)", q, _I):
        r.action = "prices are fixed"
        p = next((p for p in PERIOD.finditer(q, fixed.end(), fixed.end() + 80) if period(p)), None)
        if p:
            r.trigger = f"for {'the first ' if re.search(r'first', q[fixed.end():p.start()], _I) else ''}{period(p)}"


# (kind, words that show it, what the bound party does, the sentence when no party is read)
_AFTER_END = (
    ("transition", r"transition(?:al)? (?:services?|assistance|period|plan)|wind[- ]?down|successor (?:contractor|provider|vendor|supplier)"
     r"|transfer of the (?:provision of the )?services|termination assistance|orderly transition"
     r"|transition of (?:the |all )?(?:\w+ )?services", "must give transition assistance",
     "The agreement provides for transition assistance after it ends"),
    ("sell-off", r"sell[- ]?off|(?:sell|dispose of) (?:off )?(?:its |any |all )?(?:remaining |existing |unsold )?(?:inventory|stock)",
     "may sell off remaining inventory", "The remaining inventory may be sold off after the agreement ends"),
    ("last buy", r"last[- ]time[- ]buy|last buy|final (?:purchase )?order", "may place a last order",
     "A last order may be placed when the agreement ends"),
    ("return", r"\b(?:return|destroy|destruction)\b", "must return or destroy the other party's materials",
     "The agreement requires materials to be returned or destroyed when it ends"),
    ("support", r"continue to (?:provide|support|supply|service|maintain|honou?r|deliver)|continued (?:support|supply|service)",
     "must continue to supply or support", "The agreement requires supply or support to continue for a period after it ends"),
    ("perform", r"\b(?:continue to )?perform (?:its|their|all) (?:\w+ )?obligations", "must keep performing its obligations",
     "The agreement requires obligations to be performed for a period after it ends"),
    ("payment", r"\bpay(?:ment)?s?\b[^.;]{0,80}\b(?:accru\w*|due|owed|owing|outstanding|earned)", "must pay amounts accrued before the end",
     "The amounts accrued before the agreement ends remain payable"),
    ("orders", r"\b(?:complete|fill|fulfil\w*|honou?r)\s+(?:the\s+)?(?:delivery\s+of\s+)?(?:all\s+|any\s+)?(?:outstanding\s+|pending\s+|accepted\s+)?"
     r"(?:purchase\s+)?orders", "must complete orders accepted before the agreement ends",
     "The orders accepted before the agreement ends must still be completed"),
    ("stop use", r"\b(?:cease|stop|discontinue)\w*\s+(?:all\s+)?(?:further\s+)?(?:use|using|to use|the use)\b"
     r"|\bprohibited from (?:using|selling|distributing|shipping)|\bno longer (?:use|sell|distribute)",
     "must stop using the other party's name, marks or materials",
     "The use of the other party's name, marks or materials must stop when the agreement ends"),
    ("records", r"\b(?:books|records)\b[^.;]{0,80}\b(?:maintained|kept|retained|preserved)\b"
     r"|\b(?:maintain|keep|retain|preserve)\b[^.;]{0,60}\b(?:books|records)\b", "must keep its books and records",
     "The books and records must be kept for a period after the agreement ends"),
    ("insurance", r"claims[- ]made\b[^.;]{0,200}\b(?:maintain|kept|continu)|\btail (?:coverage|insurance|policy)"
     r"|\b(?:maintain|keep)\w*\s+(?:such\s+|the\s+|its\s+)?(?:insurance|coverage)\b[^.;]{0,80}\b(?:after|following|beyond)",
     "must keep its insurance in place", "The insurance must be kept in place for a period after the agreement ends"),
    ("hand over", r"\bdeliver\w*\b[^.;]{0,60}\b(?:data|materials|documents|records|work product|deliverables)\b",
     "must hand over the other party's data and materials", "The data and materials must be handed over when the agreement ends"),
)
_VERB_OF = {"transition": r"provide|give|render|perform|assist|cooperate", "sell-off": r"sell|dispose|continue",
            "last buy": r"place|order|purchase|buy", "return": r"return|destroy|deliver",
            "support": r"continue|provide|support|supply", "perform": r"perform|continue", "payment": r"pay|remit",
            "orders": r"complete|fill|fulfil|honou?r", "stop use": r"cease|stop|discontinue|be prohibited|no longer",
            "records": r"maintain|keep|retain|preserve", "hand over": r"deliver", "insurance": r"maintain|keep|continue|purchase"}


def _bound_party(c: Ctx, verbs: str) -> tuple[str, bool, Mention | None]:
    """subject_of, or where asides stand between modal and verb ("shall not now or in the future contest",
    "agrees that it will not ... attack"): the last party named before the modal in the same sentence."""
    who, neg, m = subject_of(c, verbs)
    q = c.quote
    if who and m is not None:
        prev = [x for x in c.ms if x.end <= m.start and x.party >= 0 and x.party != m.party]
        if prev and re.fullmatch(r"\W*(?:and|&)\W*", q[prev[-1].end:m.start], _I):
            return "each party", neg, None  # "Each of GSK and Theravance shall keep ...": both are bound
    if who:
        return who, neg, m
    for v in re.finditer(r"\b(?:" + verbs + r")", q, _I):
        start = max(q.rfind(". ", 0, v.start()), q.rfind(";", 0, v.start()), v.start() - 160)
        before = [x for x in c.ms if start <= x.start and x.end <= v.start()]
        if not before or q[before[-1].end:before[-1].end + 1] in ("'", "\u2019"):
            continue
        m = before[-1]
        # "Excite may, upon no less than thirty (30) days prior written notice to Client, cause an accountant to
        # inspect": the aside between commas names another party; the subject is the one before the modal
        aside = next((x for x in reversed(before) if x.party >= 0 and re.fullmatch(
            r"\s+(?:shall|will|may|must)\s*,[^.;]{0,160},\s*", q[x.end:v.start()], _I)), None)
        if aside is not None and q[aside.end:aside.end + 1] not in ("'", "\u2019"):
            return actor_of(aside, c, False)[0], False, aside
        named = [x for x in before if x.party >= 0]
        if len({x.party for x in named}) >= 2 and re.fullmatch(r"\W*(?:and|or|&)\W*", q[named[-2].end:named[-1].start], _I):
            return "each party", False, None  # "Each of GSK and Theravance shall keep ...": both are bound
        between = q[m.end:v.start()]
        modal = re.search(r"\b(?:shall|will|may|must|agrees?|covenants?|undertakes?)\b", between, _I)
        # "any of the Company Products, (i) the Reseller shall have": a name used as an adjective, and another
        # subject ("the Reseller") standing before the modal; that subject, not the name, is bound
        if modal and re.match(r"\s+[A-Z]\w", between) and re.search(r"\bthe\s+[A-Z]\w+\s*$", between[:modal.start()]):
            continue
        # "Vertex has the right ... to have an accountant examine": the right is the verb's own modal
        if not modal and not (
                re.match(r"ha(?:s|ve) the right", v.group(0), _I) and not between.strip(" ,")):
            continue
        who, neg = actor_of(m, c, bool(re.search(r"\b(?:not|never|no)\b|\b(?:prohibited|restricted|refrain)\s+from\b",
                                                 between, _I)))
        return who, neg, m
    return "", False, None


def _after_end(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "obligations after termination"
    kind = next((k for k in _AFTER_END if re.search(k[1], q, _I)), None)
    if kind is None:
        listed = re.search(r"\b(?:Sections?|Articles?|Clauses?|§§?)\s+(\d[\w.()]*(?:\s*(?:,|and|through|to|-)\s*\d[\w.()]*){0,8})[^.;]{0,120}\bsurviv", q, _I)
        if listed:
            r.action, r.detail = "survive", " ".join(listed.group(1).split())
        elif re.search(r"\bsurviv", q, _I):
            r.action = "survive"
        return
    r.detail = kind[3]
    who, neg, m = _bound_party(c, _VERB_OF[kind[0]])
    if who and not neg:
        r.actor, r.action, r.counterparty = who, kind[2], party_counter(c, m)


def _liquidated(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    fee = re.search(r"\b(?:early )?(?:termination|cancell?ation|break[- ]?up|exit)\s+(?:fee|charge|payment)", q, _I)
    r.consequence = "termination fee" if fee and not re.search(r"liquidated damages", q, _I) else "liquidated damages"
    money = MONEY.search(q)
    r.amount = " ".join(money.group(0).split()).rstrip(".,") if money else _share_of(q)
    rate = re.match(r"\s*(?:per|for each|for every|each|a)\s+(day|week|month|unit)\b", q[money.end():], _I) if money else None
    r.amount += f" per {rate.group(1).lower()}" if rate else ""
    r.trigger = ("early termination" if re.search(r"terminat|cancel", q, _I) else "late delivery" if re.search(r"\bdelay|\blate\b", q, _I)
                 else "a shortfall" if re.search(r"shortfall|fail\w* to (?:purchase|order|meet)", q, _I) else "")
    who, neg, m = subject_of(c, r"pay|forfeit|owe|reimburse")
    if who and not neg:
        r.actor, r.action, r.counterparty = who, "must pay", party_counter(c, m)


_WARRANTY_FROM = re.compile(r"\b(?:from|after|following|commencing (?:on|with))\s+(?:the\s+)?(?:date\s+of\s+)?(?:its\s+|their\s+)?"
                            r"(delivery|shipment|acceptance|installation|purchase|sale|completion|invoice|the effective date)\b", _I)


def _warranty(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "warranty"
    for m in PERIOD.finditer(q):
        if period(m) and not re.match(r"[^.;]{0,12}\bnotice", q[m.end():], _I) and re.search(
                r"\b(?:for|of|within|during|period)\b[^.;]{0,25}$", q[max(0, m.start() - 40):m.start()], _I):
            r.detail = period(m)
            f = _WARRANTY_FROM.search(q, m.end(), m.end() + 80)
            r.trigger = f"from {f.group(1).lower()}" if f else ""
            break
    r.amount = ("against defects" if re.search(r"defect|workmanship", q, _I) else
                "conformity with the specifications" if re.search(r"conform|specification", q, _I) else "")
    who, neg, m = subject_of(c, r"warrants?|guarantees?|represents? and warrants?")
    if not who:  # "Cisco warrants that ...": the verb carries no modal
        v = re.search(r"\b(?:hereby\s+)?(?:represents\s+and\s+)?(?:warrants|guarantees)\b", q, _I)
        m = subject_before(q, v.start(), c.ms) if v else None
        who, neg = actor_of(m, c, False)
    if who and not neg:
        r.actor, r.action, r.counterparty = who, "warrants", party_counter(c, m)


def _beneficiary(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "third-party beneficiary"
    m = re.search(r"(?:^|[,;:]\s*|\band\s+|\bthat\s+)((?:the\s+|each\s+|any\s+|all\s+)?[\w'\u2019&-]+(?:\s+[\w'\u2019&-]+){0,5})\s+"
                  r"(is|are|shall be|will be)\s+(?:an?\s+|the\s+)?(?:express(?:ly)?\s+|intended\s+)*third[- ]party\s+beneficiar", q, _I)
    if m and not re.search(r"\b(?:not|no|none)\b", m.group(0), _I):
        r.detail = plain(m.group(1), c)
        r.action = "are" if m.group(2).lower() == "are" or r.detail.endswith("s") else "is"


def _disparage(c: Ctx, r: ClauseReading) -> None:
    r.consequence = "non-disparagement"
    who, neg, m = _bound_party(c, r"disparag\w*|make|publish|issue|say|communicate|comment|express|refrain")
    refrain = re.search(r"refrain\w*\s+from\s+(?:\w+\s+){0,3}disparag", c.quote, _I)
    if who and (neg or refrain):
        r.actor, r.action, r.counterparty = who, "may not disparage", party_counter(c, m)


_IP_WORDS = (("patents", r"patent"), ("trademarks", r"trade ?marks?|\bmarks\b"), ("copyrights", r"copyright"),
             ("intellectual property", r"intellectual property"), ("licensed rights", r"licensed (?:rights|technology|property)"))


def _not_to_sue(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "covenant not to sue"
    r.detail = next((w for w, rx in _IP_WORDS if re.search(rx, q, _I)), "")
    challenge = re.search(r"contest|challeng|attack|dispute|oppos|impugn|question", q, _I)
    r.trigger = (" or ".join(w for w in ("validity", "ownership") if re.search(w if w == "validity" else r"ownership|title", q, _I))
                 if challenge else "")
    who, neg, m = _bound_party(c, r"contest|challenge|attack|dispute|oppose|impugn|question|sue|bring|assert|commence|institute|"
                                r"file|initiate|take any action")
    if who and neg:
        r.actor, r.counterparty = who, party_counter(c, m)
        r.action = "may not challenge" if challenge and r.trigger else "may not sue"


def _litigation(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    if re.search(r"\b(?:trial by jury|jury trial)\b", q, _I):
        r.consequence = "jury waiver"
        return
    if re.search(r"\b(?:there (?:is|are) no|no (?:pending|threatened|outstanding)|(?:has|have) not (?:received|been served)|"
                 r"not aware of any|no knowledge of any|(?:is|are) not (?:subject to|a party to|the subject of) (?:any )?"
                 r"(?:(?:current|pending|threatened) (?:or|and) )?(?:current|pending|threatened))\b", q, _I):
        r.consequence = "no claim represented"
        v = re.search(r"\b(?:represents|warrants|confirms|states|has not|is not)\b", q, _I)
        r.actor = actor_of(subject_before(q, v.start(), c.ms), c, False)[0] if v else ""


_READERS: dict[str, Callable[[Ctx, ClauseReading], None]] = {
    "change_of_control": _change_of_control,
    "anti_assignment": _assignment,
    "lease_assignment": _assignment,
    "termination_for_convenience": _convenience,
    "exclusivity": _exclusivity,
    "non_compete": _simple(r"compete|engage|develop|manufacture|market|sell|distribute|commerciali[sz]\w*|own|operate|offer|provide|carry on|participate|assist|conduct",
                           "is bound by a non-compete", "may not compete", "non-compete", need_neg=True),
    "non_solicit": _simple(r"solicit|hire|employ|recruit|induce|entice|engage", "is bound by a non-solicit",
                           "may not solicit or hire", "non-solicitation", need_neg=True),
    "most_favored_nation": _mfn,
    "rofr_rofo": _rofr,
    "minimum_commitment": _minimum,
    "cap_on_liability": _cap,
    "uncapped_liability": _uncapped,
    "indemnification": _simple(r"indemnif\w*|defend|hold harmless", "must indemnify", "need not indemnify", "indemnity", need_neg=False),
    "ip_ownership": _ip,
    "license_grant": _licence,
    "source_code_escrow": _simple(r"deposit|place|deliver|escrow", "must deposit source code in escrow", "", "source code escrow", need_neg=False),
    "audit_rights": _audit,
    "insurance": _simple(r"provide and maintain|maintain|obtain|carry|procure|keep|purchase", "must maintain insurance", "",
                         "insurance", need_neg=False),
    "governing_law": _governing_law,
    "confidentiality": _simple(r"keep|hold|maintain|treat|disclose|use|protect|safeguard", "must keep confidential information confidential",
                               "may not disclose confidential information", "confidentiality"),
    "term_renewal": _term,
    "debt_change_of_control": _debt,
    "key_employee": _employee,
    "litigation": _litigation,
    "revenue_sharing": _revenue,
    "price_restrictions": _price,
    "post_termination_services": _after_end,
    "liquidated_damages": _liquidated,
    "warranty": _warranty,
    "third_party_beneficiary": _beneficiary,
    "non_disparagement": _disparage,
    "covenant_not_to_sue": _not_to_sue,
}


def read_clause(item_id: str, quote: str, parties: Sequence[PartyLike] = ()) -> ClauseReading:
    """What the clause says for this checklist item, naming only the agreement's own parties."""
    q = " ".join(quote.replace("<omitted>", " … ").split())
    idx = index_parties(parties)
    c = Ctx(q, idx, mentions(q, idx))
    r = ClauseReading(section=section_of(q))
    reader = _READERS.get(item_id)
    if reader is not None:
        reader(c, r)
    if not r.notice and r.consequence in ("termination right", "notice only"):
        r.notice = notice_of(q)
    if not r.amount and item_id in ("insurance", "cap_on_liability", "uncapped_liability"):
        r.amount = amount_of(q)
    return r
