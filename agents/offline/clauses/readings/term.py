"""Readings of the clauses about the agreement's life and forum: governing law, term and renewal, what
continues after it ends, litigation representations and jury waivers."""

from __future__ import annotations

import re
from typing import Callable

from agents.offline.clauses.clause_grammar import Ctx, actor_of, bound_party, party_counter
from agents.offline.clauses.clause_parts import ClauseReading, PERIOD, mention_at, notice_of, period, subject_before

_I = re.IGNORECASE


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
    # "all fees ... to be paid by Channel Partner to iPass shall become due and payable immediately": an acceleration,
    # read before the accrued payments, whose words it shares
    # (after the duties above, which a passage that also accelerates payment states first)
    ("accelerate", r"\b(?:become|becomes|be|are|is)\s+(?:immediately\s+)?due\s+and\s+payable\b|\baccelerat\w*\b",
     "must pay at once, when the agreement ends, all amounts payable to the other party",
     "All amounts payable under the agreement fall due at once when it ends"),
    ("payment", r"\bpay(?:ment)?s?\b[^.;]{0,80}\b(?:accru\w*|due|owed|owing|outstanding|earned)", "must pay the amounts accrued before the agreement ends",
     "The amounts accrued before the agreement ends remain payable"),
    ("orders", r"\b(?:complete|fill|fulfil\w*|honou?r)\s+(?:the\s+)?(?:delivery\s+of\s+)?(?:all\s+|any\s+)?(?:outstanding\s+|pending\s+|accepted\s+)?"
     r"(?:purchase\s+)?orders", "must complete orders accepted before the agreement ends",
     "The orders accepted before the agreement ends must still be completed"),
    ("stop use", r"\b(?:cease|stop|discontinue)\w*\s+(?:all\s+)?(?:further\s+)?(?:use|using|to use|the use)\b"
     r"|\bprohibited from (?:using|selling|distributing|shipping)|\bno longer (?:use|sell|distribute)"
     r"|\b(?:shall|will|may)\s+not\s+(?:thereafter\s+|thereupon\s+|further\s+)?(?:use|employ)\b",
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
    # "IBM shall have an option, which shall expire [*] days after such termination, to purchase from MSL ... all
    # assets used by MSL": a right to buy, not a duty
    ("buy", r"\b(?:option|right)\b[^.;]{0,120}?\bto\s+(?:purchase|buy|acquire|repurchase)\b",
     "may buy from the other party what the clause lists", "A party may buy what the clause lists when the agreement ends"),
    # "Life Technologies hereby grants to Biocept, ... after expiration or termination of this Agreement, a
    # non-exclusive ... license": a licence that outlives the agreement
    ("licence", r"\bgrants?\b[^.;]{0,400}?\blicen[cs]e\b", "grants the other party a licence that continues after the agreement ends",
     "The clause grants a licence that continues after the agreement ends"),
)


_VERB_OF = {"accelerate": r"pay|remit", "licence": r"grants?", "transition": r"provide|give|render|perform|assist|cooperate", "sell-off": r"sell|dispose|continue",
            "last buy": r"place|order|purchase|buy", "return": r"return|destroy|deliver\s+up|redeliver",
            "support": r"continue|provide|support|supply", "perform": r"perform|continue", "payment": r"pay|remit",
            "orders": r"complete|fill|fulfil|honou?r", "stop use": r"cease|stop|discontinue|be prohibited|no longer",
            "records": r"maintain|keep|retain|preserve", "hand over": r"deliver", "insurance": r"maintain|keep|continue|purchase",
            "buy": r"have an option|have the option|have the right|has an option|has the right|purchase|buy|acquire"}


# the sections a survival clause lists, each perhaps with its part in brackets ("2.4 (last three sentences)")
_NUMBER = r"\d[\w.]*(?:\([a-z0-9]{1,4}\))*(?:\s*\([^()]{1,40}\))?"
_SECTIONS = (r"\b(?:Sections?|Articles?|Clauses?|§§?)\s+(?P<list>" + _NUMBER + r"(?:\s*(?:,|and|through|to|-)\s*(?:and\s+)?"
             + _NUMBER + r"){0,15})")
_SURVIVE = (r"\b(?:surviv\w*|(?:shall|will)\s+(?:remain|continue)\s+in\s+(?:full\s+)?(?:force|effect)"
            r"(?:\s+and\s+effect)?\s+(?:after|following|upon|notwithstanding)\b[^.;:]{0,40}?\b(?:expiration|termination|expiry))")


def _after_end(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "obligations after termination"
    kind = next((k for k in _AFTER_END if re.search(k[1], q, _I)), None)
    if kind is None:
        flat = re.sub(r"\b(i\.e|e\.g)\.", lambda m: m.group(1).replace(".", "") + ",", q, flags=_I)  # no sentence ends there
        gap = r"(?:[^.;]|(?<=\d)\.(?=\d))"  # within the sentence: "Section 3.1" does not end it
        # "Following expiration or termination ..., the terms of Section 6 shall continue to govern ...": survival
        # in other words, where the clause speaks of the agreement's end
        survive = f"(?:{_SURVIVE}|{_CONTINUES})" if re.search(_ENDS, q, _I) else _SURVIVE
        listed = (re.search(_SECTIONS + gap + r"{0,200}?" + survive, flat, _I)
                  or re.search(survive + gap + r"{0,160}?:\s*" + _SECTIONS, flat, _I))
        if listed and re.search(r"\b(?:elsewhere|other than|except)\b", listed.group(0), _I):
            listed = None  # "warranties in Section 3.46(b) or elsewhere (other than ...) survive": not the sections
        if listed:
            numbers = re.sub(r"\s+\([^()]*\)", "", listed.group("list"))  # "2.4 (last three sentences)": the numbers
            r.action, r.detail = "survive", " ".join(numbers.split()).rstrip(".")
        elif re.search(survive, q, _I):
            r.action = "survive"
        return
    r.detail = kind[3]
    if kind[0] == "licence" and not re.search(_ENDS, q, _I):
        return  # a licence for the term only is no obligation after the agreement ends
    if kind[0] == "accelerate" and _payer(c, r, kind[2]):
        return
    who, neg, m = bound_party(c, _VERB_OF[kind[0]])
    if not who and kind[0] == "stop use":  # "Distributor shall not use ... after termination": the same duty
        who, neg, m = bound_party(c, r"use|employ")
        neg = not neg
    if who and not neg:
        r.actor, r.action, r.counterparty = who, kind[2], party_counter(c, m)


_CONTINUES = r"\b(?:shall|will)\s+continue\s+to\s+(?:govern|apply\s+to|bind)\b"
_ENDS = r"\b(?:after|following|upon|beyond)\s+(?:the\s+)?(?:expiration|termination|expiry|end)\b"


def _payer(c: Ctx, r: ClauseReading, action: str) -> bool:
    """The payer and payee of amounts that fall due at once: "fees ... to be paid by Channel Partner to iPass"."""
    by = re.search(r"\b(?:paid|payable|owed|owing|due)\s+(?:by|from)\s+", c.quote, _I)
    payer = mention_at(c.quote, by.end(), c.ms, slack=4) if by else None
    if payer is None or payer.party < 0:
        return False
    to = re.match(r"\s+to\s+", c.quote[payer.end:], _I)
    payee = mention_at(c.quote, payer.end + to.end(), c.ms, slack=4) if to else None
    r.actor, r.action = actor_of(payer, c, False)[0], action
    r.counterparty = payee.actor if payee is not None and payee.party >= 0 and payee.party != payer.party else ""
    return True


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


READERS: dict[str, Callable[[Ctx, ClauseReading], None]] = {
    "governing_law": _governing_law,
    "term_renewal": _term,
    "post_termination_services": _after_end,
    "litigation": _litigation,
}
