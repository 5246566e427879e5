"""Readings of the clauses that decide who may end or move an agreement: change of control, assignment,
termination for convenience, a debt default on a change of control, key-employee triggers."""

from __future__ import annotations

import re
from typing import Callable

from agents.offline.clauses.clause_grammar import (
    CONTROL, Ctx, actor_of, anchor, consent_of, control_trigger, plain, subject_of,
)
from agents.offline.clauses.clause_parts import (
    AUTO_TERMINATION, ClauseReading, auto_terminated_grant, LICENCES_SURVIVE, NOT_AN_ASSIGNMENT, NOT_TRANSFERABLE, STATUTORY_ASSIGNMENT, amount_of,
    deems_assignment, denies_assignment, mention_at, notice_of, other_party, sale_carve_out, subject_before,
)

_I = re.IGNORECASE


SALE_PERMITTED = "permitted without consent on a sale of the business"
GRANT_ENDS = "rights passed on end on change of control"


_TERMINATE = r"terminat(e|ing)\b|cancel\b|end this|terminated\b"


_ASSIGN = r"(sell,\s*)?(assign|transfer|delegate|sublet|sublicense|sub-license|subcontract|cede)(ed|able)?\b"


def _termination(c: Ctx, r: ClauseReading) -> bool:
    a = anchor(c, _TERMINATE)
    if a is None or a[1] or (a[0] is not None and a[0].actor == "neither party"):
        # "shall continue in effect until ... (b) termination by either Party for any reason upon thirty (30) days'
        # written notice; provided, however, that no Party shall be able to terminate ... so long as such Party is
        # a Defaulting Party": the right is named as a noun, and the "no Party" after it is the proviso's
        nom = re.search(r"\btermination\s+(?:of\s+this\s+agreement\s+)?by\s+", c.quote, _I)
        by = mention_at(c.quote, nom.end() - 3, c.ms, slack=6) if nom else None
        if by is not None and re.match(r"[^.;]{0,20}?\b(?:for\s+any\s+reason|for\s+convenience|without\s+cause)\b", c.quote[by.end:], _I):
            a = (by, False, nom.start(), "termination")
    if a is None:
        # "a material breach of this Agreement that will entitle Licensor to terminate this Agreement"
        entitles = re.search(r"\bentitl(?:e|es|ing)\s+", c.quote, _I)
        who = mention_at(c.quote, entitles.end(), c.ms, slack=4) if entitles else None
        if who is not None and who.party >= 0 and re.match(r"(?:,[^,;.]{0,60},)?\s+to\s+terminat", c.quote[who.end:], _I):
            a = (who, False, entitles.start(), "terminate")
    if a is None:
        until = re.search(r"\buntil terminated by\s+", c.quote, _I)  # "remains in effect until terminated by either party"
        who = mention_at(c.quote, until.end() - 3, c.ms, slack=6) if until else None
        # "if Customer elects to terminate this Agreement for any reason, Customer shall pay ...": the right is said
        # through its exercise
        elects = None if until else re.search(r"\b(?:if|in the event(?: that)?|should|where|when)\s+(?=\S)(.{1,60}?)\s+"
                                               r"(?:elects?|decides?|chooses?|wish(?:es)?|desires?|opts?)\s+to\s+terminate\b", c.quote, _I)
        if elects:
            who = mention_at(c.quote, elects.start(1), c.ms, slack=4)
            until = elects
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


_NOT_SUBJECT = re.compile(r"\bthe\s+party\s+(?:which|that|who)\s+(?:was|is|has)\s+not\s+(?:been\s+)?(?:the\s+)?subject\s+(?:to|of)\s+"
                         r"(?:the|such)\s+change\s+(?:of|in)\s+control\b[^.;]{0,20}?\s+may\s+terminate", _I)


def _change_of_control(c: Ctx, r: ClauseReading) -> None:
    r.trigger = control_trigger(c) or ""
    q = c.quote
    if AUTO_TERMINATION.search(q) and re.search(r"\bassignment\b", q, _I):
        _assignment(c, r)  # "terminates automatically in the event of its assignment (as the 1940 Act defines it)"
        if r.consequence.startswith("terminates automatically"):
            return
        r.actor = r.action = r.consequence = r.detail = r.counterparty = ""
        r.trigger = control_trigger(c) or ""
    if AUTO_TERMINATION.search(q) and CONTROL.search(q) and (passed_on := auto_terminated_grant(q)):
        r.action, r.consequence, r.detail = "terminates automatically", GRANT_ENDS, passed_on
        return
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
    # "If a Change in Control occurs with respect to Customer, Metavante agrees to continue to provide Services under
    # this Agreement; provided that ...": the agreement goes on, and who must go on performing it
    goes_on = _CONTINUES.search(q) if CONTROL.search(q) else None
    if goes_on:
        who = subject_before(q, goes_on.start(), c.ms)
        what = plain(goes_on.group(2), c)
        if who is not None and who.party >= 0 and what and len(what.split()) <= 8:
            r.actor, r.action, r.consequence = who.actor, f"must continue to {goes_on.group(1).lower()} {what}", "services continue"
            r.trigger = control_trigger(c) or ""
            r.detail = "limited" if re.search(r"\bprovided\s+(?:that|however)|\bsubject\s+to\b|\blimited\b", q[goes_on.end():], _I) else ""
            return
    if _DEFINES_CONTROL.search(q):
        # the definition, not a consequence: what counts as a change of control is what the lawyer reads it for
        r.action, r.consequence, r.detail = "is defined", "see clause", _control_events(q)
        return
    if _termination(c, r):
        _part_of(c, r)
        if r.actor == "either party" and r.trigger.endswith("of either party"):
            r.trigger = r.trigger.replace("of either party", "of the other party")
        if not r.actor and _NOT_SUBJECT.search(q):  # "the Party which was not subject to the Change of Control may terminate"
            r.actor, r.trigger = "either party", "a change of control of the other party"
        return
    if deems_assignment(q):
        r.action, r.consequence = "is treated as an assignment", "consent required (treated as assignment)"
        r.counterparty = consent_of(c, "")
        who = _lets_terminate(c)
        if who:
            r.consequence, r.counterparty = "termination right (treated as assignment)", who
        return
    if denies_assignment(q):  # "nor shall any change in control ... be deemed an assignment hereunder"
        r.action, r.consequence, r.trigger = "is not treated as an assignment", NOT_AN_ASSIGNMENT, control_trigger(c) or ""
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


_PASSIVE_BAR = re.compile(r"\b(?:this\s+agreement|(?:the\s+)?rights\s+and\s+obligations\s+of\s+the\s+parties(?:\s+(?:under|hereunder|to)"
                         r"[^.;]{0,30}?)?)\s+(?:shall|may|will)\s+not\s+be\s+(?:assignable|assigned|transferable|transferred)\b"
                         r"[^.;]{0,60}?\b(?:without|unless|except\s+with)\b", _I)


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
        elif not consent and re.search(r"\bto\s+(?:an?\s+|any\s+|its\s+|the\s+|one\s+or\s+more\s+of\s+its\s+)?(?:\w+\s+){0,2}?(?:affiliate|subsidiar|successor|parent"
                                       r"|acquir|purchaser)", q[a[2]:a[2] + 200], _I):
            # "Customer may assign this Agreement to a successor organization by merger", "TouchStar may assign ...
            # to an Affiliate upon written notice": a permission that names no consent needs none
            r.action, r.consequence = "may assign", "permitted without consent"
            r.notice = notice_of(q)
        else:
            r.actor = ""
    # "No assignment or transfer of this Agreement shall be effective as to Transporter unless and until Transporter
    # has been provided written notice thereof": notice, not consent
    eff = re.search(r"\bno\s+(?:assignment|transfer)\b[^.;]{0,60}?\b(?:shall|will)\s+be\s+(?:effective|binding)\s+(?:as\s+to|against|on|upon)\s+", q, _I)
    told = mention_at(q, eff.end(), c.ms, slack=4) if eff and not r.actor and not consent else None
    if told is not None and told.party >= 0 and re.match(r"[^.;]{0,40}?\bunless\s+and\s+until\b[^.;]{0,80}?\bnotice\b", q[told.end:], _I):
        r.action, r.counterparty, r.consequence, r.trigger = "binds only on notice", told.actor, "notice only", "assignment"
        return
    bar = _PASSIVE_BAR.search(q)
    # "may not be assigned by Distributor": the bar names whom it binds, even where the parties are not known
    if not r.actor and consent and bar and not re.search(r"\bby\s+(?!operation\b|law\b|merger\b)\w", bar.group(0), _I) \
            and not [m for m in c.ms if m.party >= 0]:
        # "The rights and obligations of the parties under this Agreement shall not be assignable unless consent to the
        # assignment is in writing and signed by the parties": a bar on both, said in the passive
        r.actor, r.action, r.consequence = "either party", "may not assign", "consent required"
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
    if deems_assignment(q) and CONTROL.search(q):
        r.detail = "change of control counts"
        if not r.actor:
            r.trigger = control_trigger(c) or "a change of control"
            who = _lets_terminate(c)
            if who and not r.counterparty:
                r.detail, r.counterparty = "change of control counts; may terminate", who
    elif denies_assignment(q):
        r.detail = NOT_AN_ASSIGNMENT
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


def _lets_terminate(c: Ctx) -> str:
    """The party a deemed assignment lets terminate: "shall be considered as an assignment by Kitov, allowing Dexcel to
    terminate the Agreement"; '' when the clause names none."""
    lets = re.search(r"\b(?:allowing|entitling|permitting|enabling)\s+(?=\S)", c.quote, _I)
    who = mention_at(c.quote, lets.end(), c.ms, slack=2) if lets else None
    if who is not None and who.party >= 0 and re.match(r"\s*to\s+terminate\b", c.quote[who.end:], _I):
        return who.actor
    return ""


_CONTINUES = re.compile(r"\b(?:agrees?\s+to|shall|will)\s+continue\s+to\s+(provide|perform|supply|deliver|sell|license)\s+"
                        r"((?:the\s+)?[^,;.()]{3,80}?)(?=\s*(?:[,;.(]|$)|\s+(?:in\s+accordance|pursuant|subject|provided|on\s+the\s+terms)\b)", re.I)


_PASSIVE = {"sublic": "sublicensed", "sub-li": "sublicensed", "transf": "transferred", "assign": "assigned"}


# whole words: "that will entitle Licensor to terminate" holds no "at will"
_NO_CAUSE = re.compile(r"\b(?:convenience|without cause|with or without cause|for any reason|for no reason|any or no reason|"
                       r"no reason|at will|in its (sole|absolute|unfettered) discretion|non-cause)\b", _I)


# "for any reason" frees the termination only where it is the terminating party's reason ("may terminate this
# Agreement at any time for any reason", "(c) at any time ..., for any reason or no reason, upon 180 days' notice"),
# not a condition's ("... if the CRAs decline to render Services for any reason"); "terminate ... for cause" is
# never for convenience
_ANY_REASON = re.compile(r"\b(?:for\s+any|for\s+no|any\s+or\s+no|no)\s+reason", _I)
_FOR_CAUSE = re.compile(r"(?<!without )(?<!with or without )\bfor\s+cause\b|\bwith\s+cause\b", _I)


# "If Diplomat shall violate any of its other material obligations ..., KI, Inc. shall have the right to terminate":
# a right that a breach opens, said as a condition before it
_ON_BREACH = re.compile(r"\b(?:constitutes?|be\s+deemed)\b[^.;]{0,60}?\b(?:breach|default)\b[^.;]{0,160}?\bterminat|"
                        r"\b(?:if|in\s+the\s+event(?:\s+that)?|should|upon)\b[^.;]{0,80}?\b(?:violat\w*|breach\w*|default\w*|"
                        r"fails?\s+to\s+(?:perform|comply|pay|cure|remedy|observe))\b(?:[^.;]|(?<=\bInc)\.|(?<=\bCorp)\.|(?<=\bLtd)\.|"
                        r"(?<=\bCo)\.){0,200}?\b(?:terminat|cancel)\w*", _I)


# "may be terminated at any time upon the occurrence of any of the following events: 4.2.1 The failure of either party
# to comply with its obligations ...": the events a list names, the first of them a breach
_LISTED_CAUSE = re.compile(r"\bterminat\w*\b[^.;]{0,120}?\b(?:upon|on)\s+(?:the\s+)?(?:occurrence|happening)\s+of\s+(?:any\s+(?:one\s+)?of\s+)?"
                           r"the\s+following(?:\s+events)?\s*:[\s\S]{0,80}?\b(?:breach\w*|fail\w*|default\w*|insolv\w*|bankrupt\w*)\b", _I)


def for_cause(q: str) -> bool:
    """A termination right that needs a cause ("reserves the right to terminate this Agreement immediately for cause
    if ...", "with cause immediately upon written notice", "If Diplomat shall violate ..., KI, Inc. shall have the
    right to terminate"): the look-alike of termination for convenience."""
    return bool(_FOR_CAUSE.search(q) or _ON_BREACH.search(q) or _LISTED_CAUSE.search(q)) and not _no_cause(q)


# what gives a party the right to end the agreement: a modal before "terminate" ("may terminate", "shall have the right
# to terminate"), an ending on someone's notice ("will terminate upon 90 days notice by IBM"), or the words of a
# walk-away right. A passage with none ("within 30 days after termination ... for any reason, MSL shall return ...")
# deals with what follows an ending, and a finding that calls it termination for convenience claims a right it lacks
_GIVES_RIGHT = re.compile(r"\b(?:may|can|entitl\w*|allow\w*|permit\w*|shall\s+(?:be\s+entitled|have\s+the\s+right)|will\s+have\s+the\s+right|is\s+entitled|has\s+the\s+"
                          r"right|reserves\s+the\s+right|right|option)\b[^.;]{0,120}?\b(?:terminat|cancel|withdraw)\w*|\bterminable\b|"
                          r"\bterminat\w*\b[^.;]{0,80}?\b(?:upon|on|by|with|after|following)\s+(?:\S+\s+){0,8}?notice|"
                          r"\bnotice\s+of\s+(?:its\s+|their\s+)?(?:intent\w*\s+to\s+)?terminat|\bconvenience\b|\bwithout\s+cause\b|\bat\s+will\b|"
                          # the right said through its exercise: "if Distributor elects to terminate this Agreement for any reason"
                          r"\belects?\s+to\s+(?:terminat|cancel)|\b(?:terminat|cancel)\w*\s+this\s+agreement\s+(?:at\s+any\s+time\s+)?for\s+any\s+reason", _I)


# "This Agreement may be terminated at any time during the Initial Period by agreement in writing of all the Parties":
# an ending all must agree to is no party's right
MUTUAL_END = re.compile(r"[^.;]*\bterminat\w*[^.;]*?\bby\s+(?:the\s+)?(?:mutual\s+)?(?:written\s+)?(?:agreement|consent)\b[^.;]*?"
                        r"\b(?:(?:all|both|each\s+of)\s+the\s+parties|between\s+the\s+parties|the\s+parties\s+hereto)\b[^.;]*"
                        r"|[^.;]*\bterminat\w*[^.;]*?\b(?:by|upon|with)\s+(?:the\s+)?mutual\s+(?:written\s+)?(?:agreement|consent)\b[^.;]*", _I)
# "(a) Right to Terminate Registration. If the Farids Group determines ... not to proceed": a heading's right over
# something other than the agreement
# something other than the agreement (a right over part of the deal in a sentence, "the right to terminate
# Commercialization of such Collaboration Product", is still one)
_OTHER_RIGHT = re.compile(r"\bright\s+to\s+terminate\s+(?!this\b|the\b|its\b|such\b|it\b|agreement\b)(?-i:[A-Z])[\w-]*(?:\s+(?-i:[A-Z])[\w-]*)*\.(?=\s)", _I)


def no_termination_right(q: str) -> bool:
    """The passage speaks of termination but gives no one a right to terminate (the agreement)."""
    return not _GIVES_RIGHT.search(_OTHER_RIGHT.sub(" ", MUTUAL_END.sub(" ", q)))


_DISCRETION = re.compile(r"in its (?:sole|absolute|unfettered) discretion", _I)
_BREACH = re.compile(r"\b(?:breach\w*|fails?|failure|default\w*|insolv\w*|bankrupt\w*)\b", _I)


_AT_ANY_TIME = re.compile(r"\bterminat\w*\s+(?:this\s+agreement\s+|the\s+agreement\s+)?,?\s*at\s+any\s+time\b([^.;]*)", _I)
_CONDITIONED = re.compile(r"\b(?:if|in\s+the\s+event|unless|occurrence|cause|breach\w*|default\w*|fail\w*|insolv\w*|bankrupt\w*)\b", _I)


def _no_cause(q: str) -> bool:
    found = list(_NO_CAUSE.finditer(q))
    for m in found:
        if _DISCRETION.fullmatch(m.group(0)):
            # "in the event that Kitov fails to make any payment ... shall entitle Dexcel, in its sole discretion, to
            # terminate": the discretion is whether to act on a breach, not a right to walk away
            sentence = re.split(r"(?<=[.;])\s", q[:m.start()])[-1] + q[m.start():].split(".")[0]
            # "if ... the value of this Agreement is materially impaired ..., as determined by such party in its sole
            # discretion, then the affected party may terminate": the discretion is over a fact the right depends on
            judged = re.search(r"\b(?:determined|judged|decided|assessed)\s+by\s+[^,;.]{1,40}$", q[:m.start()], _I)
            if not _BREACH.search(sentence) and not judged:
                return True
        elif not _ANY_REASON.fullmatch(m.group(0)):
            return True  # "for convenience", "without cause", "at will"
    # "either party may terminate this Agreement at any time upon 30 days written notice": on notice alone, with no
    # condition or breach after it, the right needs no cause
    for m in _AT_ANY_TIME.finditer(q):
        if re.search(r"\bnotice\b", m.group(1), _I) and not _CONDITIONED.search(m.group(1)):
            return True
    if _FOR_CAUSE.search(q):
        return False
    for m in (x for x in found if _ANY_REASON.fullmatch(x.group(0))):
        clause = re.split(r"[,;:(]", q[max(0, m.start() - 150):m.start()])[-1]
        if re.search(r"terminat\w*(?:\s+\S+){0,6}\s*$", clause, _I) or not re.search(
                r"\b(?:if|when|where|because|unless|in the event|declines?|refuses?|fails?|ceases?)\b", clause, _I):
            return True  # "elects to terminate this Agreement for any reason": the reason is the terminating party's
    return False


# "AIG shall have the absolute right to terminate ...; PROVIDED, HOWEVER, that AIG agrees not to terminate this Agreement
# unless (a) ... or (b) AIG sells the Company": the proviso takes the right back but for the cases it lists
_ONLY_UNLESS = re.compile(r"\b(?:agrees?|covenants?|undertakes?)\s+not\s+to\s+(?:terminat|exercise)\w*[^.]{0,120}?\b(?:unless|except)\b|"
                          r"\b(?:shall|will|may)\s+not\s+(?:be\s+entitled\s+to\s+)?terminat\w*[^.]{0,120}?\b(?:unless|except\s+(?:if|where|in))\b", _I)


def _convenience(c: Ctx, r: ClauseReading) -> None:
    if _ONLY_UNLESS.search(c.quote):
        r.trigger, r.detail, r.notice = "", "only in listed cases", notice_of(c.quote)
        if not _termination(c, r):
            r.action, r.consequence = "", "termination right"
        return
    # "for convenience" only where the clause says no cause is needed; a right to terminate for breach is not one
    r.trigger = "convenience (no cause needed)" if _no_cause(c.quote) else "cause" if for_cause(c.quote) else ""
    r.notice = notice_of(c.quote)
    if not _termination(c, r):
        r.action, r.consequence = "", "termination right"
    else:
        _part_of(c, r)


def _part_of(c: Ctx, r: ClauseReading) -> None:
    part = _PART.search(c.quote)
    if part and not _WHOLE.match(part.group("obj")):
        obj = re.sub(r"\s+(?:(?:herein|hereby)\s+granted|granted\s+here(?:by|under|in)|here(?:under|in|by))\b", "", part.group("obj"), flags=_I)
        r.object = re.sub(r"\bsuch\b", "the", plain(obj, c) or "")


# "GSK shall have the right to terminate Development of such Collaboration Product (upon ... notice)", "may terminate
# any Services": a right over part of the deal, which a sentence about "the agreement" would overstate
_PART = re.compile(r"\b(?:may|shall|will|to)\s+(?:\w+\s+){0,3}?terminat(?:e|ing)\s+"
                   r"(?P<obj>(?:(?:the|any|such|all|its|one|each)\s+[^,;.()]{2,80}?|[A-Z]\w+\s+of\s+[^,;.()]{2,60}?)"
                   # "its obligations under Sections 7.1 and 7.2"
                   r"(?:\s+under\s+(?:Sections?|Articles?|Clauses?)\s+[\d.]*\d(?:\([a-z0-9]{1,3}\))*(?:\s*(?:,|and|or)\s*[\d.]*\d(?:\([a-z0-9]{1,3}\))*)*)?)"
                   r"(?=\s*[,;.(]|\s+(?:upon|on|at|by|for|with|without|effective|if|in|immediately|during|prior|after|following|"
                   r"as|pursuant|under|and|or|within|from|unless|provided)\b)")
# "the JSMA", "this MSA": the agreement by the acronym it defines for itself (a Statement of Work or an order is a part)
_WHOLE = re.compile(r"(?:this|the|such|said)\s+(?:\w+\s+)?(?:agreement|contract)\b|(?:the|its)\s+term\b|"
                    r"(?:this|the)\s+(?-i:[A-Z]{1,5}A)\b", _I)


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


READERS: dict[str, Callable[[Ctx, ClauseReading], None]] = {
    "change_of_control": _change_of_control,
    "anti_assignment": _assignment,
    "lease_assignment": _assignment,
    "termination_for_convenience": _convenience,
    "debt_change_of_control": _debt,
    "key_employee": _employee,
}
