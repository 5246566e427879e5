"""Readings of the clauses about liability and money: caps and what escapes them, audit rights and their
cost, minimum commitments, revenue shares, price restrictions, liquidated damages, warranty periods."""

from __future__ import annotations

import re
from typing import Callable

from agents.offline.clauses.clause_grammar import Ctx, actor_of, anchor, bound_party, party_counter, plain, simple_reader, subject_of
from agents.offline.clauses.clause_parts import (
    ClauseReading, MONEY, PERIOD, amount_of, mention_at, notice_of, other_party, period, subject_before,
)

_I = re.IGNORECASE


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


CARVE_KINDS = (("indemnity claims", r"indemnif"), ("breaches of confidentiality", r"confidential"),
                ("infringement of intellectual property", r"infring|misappropriat"),
                # each by itself: "such limitations shall not apply to ... willful misconduct" names no negligence
                ("gross negligence", r"gross(?:ly)? neglig"), ("wilful misconduct", r"\bwill?ful(?:ly)?\s+(?:misconduct|misfeasance)"),
                ("fraud", r"\bfraud"), ("death or personal injury", r"\bdeath\b|bodily injury|personal injury"),
                # "shall not protect the Servicer ... against ... willful misfeasance, bad faith or negligence"
                ("bad faith", r"\bbad\s+faith"), ("negligence", r"(?<!gross )(?<!grossly )\bnegligen"))


# "Nothing in this Section 8.7 shall operate to limit or exclude any liability under Section 8.5 ..., or for fraud": what
# the limits leave out, in the clause's words
_NOTHING_LIMITS = re.compile(r"\bnothing\s+(?:contained\s+)?in\s+(?:this|the)\s+(?:agreement|section|article|clause)[^,;]{0,20}?\s+"
                             r"(?:shall|will|is\s+intended\s+to)\s+(?:operate\s+to\s+|be\s+construed\s+(?:so\s+as\s+)?to\s+)?"
                             r"(?:limit|exclude|restrict)(?:\s+or\s+(?:limit|exclude|restrict))?\s+(?:(?:either|a|any)\s+party['\u2019]s\s+)?(?:any\s+)?"
                             r"(liability\s+(?:for|under|in\s+respect\s+of|with\s+respect\s+to|arising)\b(?:[^.;]|(?<=\d)\.(?=\d)){3,200})", _I)


_OPENING_CARVE = re.compile(r"\W*(?:(?:notwithstanding[^,]{0,80},\s*)?(?:and\s+)?)(?:except|excluding|other than)\s+"
                            r"(?:for|with (?:respect|regard) to|in the (?:event|case) of|in connection with|as to|to the extent of)?\s*"
                            r"((?:[^,;:()]|\([^()]{0,80}\)){3,200}?),", _I)


_CAPS_HEADING = re.compile(r"(?:[^.]{0,40}\.\s+)?(?:(?:SECTION|ARTICLE)\s+)?(?:\d+(?:\.\d+)*\.?\s+)?[A-Z][A-Z ;,&'-]{2,60}\s+")


def _uncapped(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    h = _HEADING.match(q).end()  # "10. LIMITATION ON LIABILITY. EXCEPT IN THE EVENT OF ..."
    # a heading with no stop after it, behind the end of the sentence before ("MATTER. 14. LIMITATION OF LIABILITY
    # EXCEPT UNDER SECTION 13(c) ..."): the clause opens at its "except"
    opens = [h, *(e.start() for e in re.finditer(r"\b(?:except|excluding)\b", q[:160], _I) if _CAPS_HEADING.fullmatch(q[:e.start()]))]
    m = next((found for at in opens if (found := _OPENING_CARVE.match(q[at:]))), None)
    redacted = bool(m) and ("[*" in m.group(1) or "***" in m.group(1)) and not re.search(r"[A-Za-z]{3}", re.sub(r"\[[^\]]*\]", "", m.group(1)))
    if m and ("[*" not in m.group(1) and "***" not in m.group(1) or redacted):
        # "BREACH OF SECTION 9 (PROPRIETARY RIGHTS AND SOFTWARE LICENSING)": a long section title adds nothing to it;
        # a short one stays ("a breach of § 8 (confidentiality)")
        carve = re.sub(r"\s*\[[^\]]*\]|\s+hereof\b|\s+hereunder\b|\s*\((?![a-z0-9]{1,4}\))[^()\s]+(?:\s+[^()\s]+){3,}\)", "", m.group(1))
        carve = re.sub(r"^as (set forth|provided|stated) in\b", "the matters in", carve, flags=_I)
        carve = re.sub(r"^(under|pursuant to)\b", r"claims \1", carve, flags=_I)  # "EXCEPT UNDER SECTIONS 13(a) AND 13(b)"
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
        # "...; provided, however, that such limitations shall not apply to liabilities ... of willful misconduct"
        # "provided, however, that this provision shall not protect the Servicer ... against ... negligence": the
        # exculpation's own carve-out, wherever an "except" stands before it
        tail = re.search(r"\b(?:provision|section|exculpation)\s+(?:shall|will)\s+not\s+protect\b(.{10,600})", q[h:], _I | re.S) or \
            re.search(r"\b(?:except|excluding|other than|save|(?:limitations?|limits?|exclusions?)\s+(?:\w+\s+){0,3}?"
                      r"(?:shall|will|do|does)\s+not\s+apply\s+to)\b(.{10,600})", q[h:], _I | re.S)
        kinds = [k for k, rx in CARVE_KINDS if tail and re.search(rx, tail.group(1), _I)]
        if kinds:
            r.detail = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " or " + kinds[-1]
            rest = ClauseReading()
            _cap(c, rest)
            r.trigger = {"liability capped": "the liability cap", "consequential damages excluded":
                         "the exclusion of indirect and consequential damages"}.get(rest.consequence, "")
    kept = _NOTHING_LIMITS.search(q) if not r.detail else None
    if kept:
        r.detail = plain(kept.group(1), c).replace("this §", "§")
    if re.search(r"without limit(?!ation|ing)|unlimited|shall not (be )?(subject to|limited)|not subject to (any )?(cap|limit)|(limitation|limit|cap|exclusion)s?\b[^.;]{0,150}(shall|will|do|does) not apply", q, _I) or r.detail:
        r.action, r.consequence = "liability is uncapped", "uncapped liability"
        who, _, _ = subject_of(c, r"bear|be liable|liable")
        r.actor = who
        return
    _cap(c, r)


# "either party may disclose information ... to any independent public accounting firm retained to perform an annual
# financial audit of that party": the party's own audit, no right to audit the other
_OWN_AUDIT = re.compile(r"\baudits?\s+of\s+(?:that|such|the\s+disclosing|the\s+receiving)\s+party\b|\baudits?\s+of\s+(?:its|their)\s+own\b|"
                        r"\b(?:its|their)\s+own\s+(?:independent\s+)?(?:auditors?|accountants?)\b", _I)


def _audit(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "audit right"
    if _OWN_AUDIT.search(q) and not re.search(r"\b(?:audit|inspect|examin)\w*", _OWN_AUDIT.sub(" ", q), _I):
        r.action = "own audit"
        return
    r.notice = notice_of(q)
    r.detail = ("books and records" if re.search(r"record|book|account|invoice|documentation", q, _I)
                else "facilities" if re.search(r"\bfacilit(?:y|ies)\b|premises|plant|site\b|locations?\b", q, _I)  # not "facilitating"
                else "subcontractors" if re.search(r"\b(?:audit|inspect)\w*\s+(?:or\s+\w+\s+)?of\s+(?:the\s+|its\s+)?[\w'\u2019]*\s*"
                                                   r"subcontractors\b", q, _I)
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
        # "available for inspection, copying and audit by an independent auditor appointed by Dynamic Hearing"
        chosen = re.match(r"[^.;]{0,60}?\b(?:appointed|designated|selected|chosen|engaged|nominated|retained)\s+by\s+", q[avail.end():], _I)
        if who is None and chosen:
            who = mention_at(q, avail.end() + chosen.end(), c.ms, slack=4)
        if who is not None and who.party >= 0:
            holder = subject_before(q, (re.search(r"\b(shall|will|must)\b[^.;]*$", q[:avail.start()], _I) or avail).start(), c.ms)
            r.actor, r.action = who.actor, f"may {verb}"
            r.counterparty = holder.actor if holder is not None and holder.party >= 0 and holder.party != who.party else ""
            return
    if re.search(r"\bmake\b[^.;]{0,80}?\bavailable\b", q, _I):
        return  # "IntriCon must make all such records available for ... audit": the subject is the one audited
    who, neg, m = bound_party(c, r"(?:engage|cause)\b[^.;]{0,100}?\b(?:to\s+(?:audit|inspect|examine)|an?\s+(?:audit|inspection))"
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
        who, neg, m = bound_party(c, r"keep|maintain|retain|preserve")
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
                     if re.search(r"\b(minimum (of|purchase|commitment|amount|payment)s?|at least|not less than|no less than|guaranteed?)\b"
                                  # "at least nineteen million six hundred and forty four thousand Dollars US ($19,644,000)"
                                  r"(?:[^.;]{0,40}|(?:\s+[a-z-]+){1,14}\s+(?:dollars?|euros?|pounds?)(?:\s+US)?\s*\(\s*)$",
                                  c.quote[max(0, m.start() - 160):m.start()], _I)), "")
    r.consequence = "minimum commitment"
    q = c.quote
    if re.search(r"\bminimum\s+(?:remaining\s+)?(?:expiry|expiration|shelf[- ]life)|\bminimum\b[^.;]{0,30}\bshelf[- ]life", q, _I) and not re.search(
            r"\b(?:purchase|buy|order)\w*\b[^.;]{0,60}\b(?:at\s+least|minimum\s+(?:of|quantit\w*|amount)|not\s+less\s+than)\b", q, _I):
        # "deliver Product ... with minimum expiry dating remaining of [***]% of the approved shelf-life": how fresh the
        # goods must be, not a commitment to buy or sell any amount
        # the supplier: "supplied by Qualigen to Sekisui" names it; else the subject of the verb, never a party the
        # goods go to
        by = re.search(r"\b(?:supplied|delivered|shipped|provided|sold)\s+by\s+", q, _I)
        seller = mention_at(q, by.end(), c.ms, slack=4) if by else None
        who, neg, _ = subject_of(c, r"deliver|supply|ship|provide|sell")
        r.amount, r.action = "", "shelf life"
        r.actor = (actor_of(seller, c, False)[0] if seller is not None and seller.party >= 0 else who if who and not neg else "")
        return
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
    who, neg, m = bound_party(c, r"(?:purchase|buy|order|pay|spend|sell|achieve|meet|deliver|provide|commit|guarantee|supply)\b")
    if who and not neg and re.search(r"minimum|at least|not less than|no less than|guarantee", q, _I):
        r.actor, r.action, r.counterparty = who, "must meet a minimum commitment", party_counter(c, m)


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
    # "the parties shall agree to negotiate a structure for revenue sharing", "(including pricing and revenue sharing)
    # shall be covered by a separate written agreement which the parties agree to negotiate in good faith": an
    # agreement to agree, which fixes no share
    if re.search(r"\bnegotiat\w*\b[^.;]{0,80}?\b(?:revenue[- ]shar\w*|royalt\w*|commissions?|compensation|profit[- ]shar\w*)"
                 r"|\b(?:revenue[- ]shar\w*|royalt\w*|profit[- ]shar\w*)\b[^.;]{0,160}?\b(?:separate\s+(?:written\s+)?agreement|"
                 r"(?:agree|agreed|negotiate)\s+(?:to\s+negotiate\s+)?in\s+good\s+faith)", q, _I) and not r.amount:
        r.action = "to be negotiated"
        return
    # "Annual Net Sales ... Royalty Rate ... $0 - $25,000,000 1.75%": a schedule of bands with no verb
    bands = re.findall(r"\$\s?[\d,]+(?:\.\d+)?\s*(?:-|–|to)\s*\$?\s?[\d,]+", q)
    if len(bands) >= 1 and r.detail == "royalties" and re.search(r"\bnet\s+sales\b", q, _I) and not re.search(
            r"\b(?:shall|will|must|agrees?)\b", q, _I):
        r.action = "tiered"
        return
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
    # "The revenue share for the Program is stated in Exhibit B": where the figures are, when the clause has none
    where = re.search(r"\b(revenue share|royalt(?:y|ies)(?: rates?)?|commissions?|fees?)\b[^.;]{0,60}?\b(?:is|are|shall be|will be)\s+"
                      r"(?:as\s+)?(?:stated|set\s+(?:forth|out)|specified|described|listed|shown)\s+in\s+((?:Exhibit|Schedule|Appendix|Annex"
                      r"|Attachment)\s+[A-Z0-9][\w.-]*)", q, _I)
    if where and not r.amount:
        r.action, r.detail, r.where = "set out in", where.group(1).lower(), where.group(2).rstrip(".")
        return
    # bound_party: "ArTara will, no later than 60 days following each calendar quarter, pay tiered Royalties"
    # "Royalty payments" is no promise to pay; "Royalties will be payable by ArTara" is
    who, neg, m = bound_party(c, r"(?:pay(?:able)?|remit|share|split|account for|owe)\b")
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


# "Customer may terminate ... without the payment of termination charges": the clause rules the fee out
NO_FEE = re.compile(r"\bwithout\s+(?:the\s+)?(?:payment\s+of\s+|paying\s+|incurring\s+)?(?:any\s+)?(?:early\s+)?(?:termination|cancell?ation)\s+"
                    r"(?:fees?|charges?|penalt(?:y|ies)|payments?)\b|\bno\s+(?:early\s+)?(?:termination|cancell?ation)\s+(?:fees?|charges?|"
                    r"penalt(?:y|ies)|payments?)\s+(?:shall|will)\s+(?:be\s+)?(?:payable|due|owed|owing|charged|apply|applicable)\b", _I)


def _liquidated(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    if NO_FEE.search(q):
        r.consequence = "no termination fee"
        who, neg, _ = subject_of(c, r"terminat")
        r.actor, r.action = ("", "") if neg else (who, "may terminate")
        return
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
        return
    # "Merchant shall be entitled to retain the Deposit as liquidated damages": the one who keeps it is owed them
    kept = re.search(r"\b(?:retain|keep)\s+((?:the|its|all|any|such)\s+[^,;.()]{1,40}?)\s+as\s+liquidated\s+damages", q, _I)
    who, neg, m = subject_of(c, r"retain|keep") if kept else ("", False, None)
    if who and not neg:
        r.actor, r.action, r.detail, r.counterparty = who, "may keep", kept.group(1), party_counter(c, m)


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


_INDEMNIFIES = simple_reader(r"indemnif\w*|defend|hold harmless", "must indemnify", "need not indemnify", "indemnity", need_neg=False)
# "In the event a party seeks indemnification ..., it shall inform the other party (the "Indemnifying Party")", "Promptly
# after receipt by an indemnified party ... of notice of the commencement of any action, such indemnified party shall
# ... notify the indemnifying party": how a claim is made, not who indemnifies whom
_PROCEDURE = re.compile(r"\b(?:seeks?|seeking|claims?|entitled\s+to)\s+indemnif\w*\b[^.;]{0,200}?\b(?:inform|notif\w*|give\s+(?:prompt\s+)?(?:written\s+)?notice)"
                        r"|\bindemnified\s+part(?:y|ies)\b[^.;]{0,240}?\b(?:inform|notif\w*|notice)\b[^.;]{0,120}?\bindemnifying\s+part(?:y|ies)\b"
                        r"|\b(?:notif\w*|inform)\s+the\s+indemnifying\s+part(?:y|ies)\b", _I)
_DEFENCE = re.compile(r"\bparticipat\w*\b|\bassume\s+(?:the\s+)?(?:control\s+of\s+the\s+)?defen[cs]e\b|\bcontrol\s+(?:of\s+)?the\s+defen[cs]e\b", _I)


def _indemnity(c: Ctx, r: ClauseReading) -> None:
    _INDEMNIFIES(c, r)
    if not r.actor and _PROCEDURE.search(c.quote):
        r.action, r.detail = "procedure", "defence" if _DEFENCE.search(c.quote) else ""


READERS: dict[str, Callable[[Ctx, ClauseReading], None]] = {
    "indemnification": _indemnity,
    "minimum_commitment": _minimum,
    "cap_on_liability": _cap,
    "uncapped_liability": _uncapped,
    "audit_rights": _audit,
    "revenue_sharing": _revenue,
    "price_restrictions": _price,
    "liquidated_damages": _liquidated,
    "warranty": _warranty,
}
