"""One sentence per finding, as a lawyer writes it: "Cisco may terminate on a change of control of Distributor,
on 30 days' written notice (§ 18.4)."

Each checklist item has a sentence shape filled from a ClauseReading. When the
actor or trigger could not be read, the clause's own operative sentence is
restated (agents.offline.clauses.operative: "Upon termination of this agreement,
NTC must promptly refund to ALFA AESAR all outstanding credits"); when that
cannot be done safely either, the sentence says what the clause does without
naming anyone ("The agreement restricts assignment without consent").
A last check refuses any sentence that names something capitalised which is
not one of the agreement's parties, and falls back to the honest sentence.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Callable, Sequence

from agents.offline.clauses.clause_parts import (GENERIC, NOT_AN_ASSIGNMENT, OPENS_RESTRICTION, PartyIndex, PartyLike, successors_only,
                                                index_parties, sale_carve_out, solicit_only)
from agents.offline.clauses.carve_out import (carve_out, ceiling_only, denies_payment, exclusive_in_name, frees_only, non_exclusive_only,
                                              owned_money, standstill)
from agents.offline.clauses.clause_reading import ClauseReading, read_clause
from agents.offline.clauses.fallbacks import (
    HONEST, DEFINITION, EXCEPTION, NO_PAYMENT, NON_EXCLUSIVE, IN_NAME, NO_RIGHT, NO_AUDIT, CEILING,
    MIN_CHARGE, MINIMUM_CHARGE, MUTUAL_ONLY, COMMITS, STANDSTILL, SUCCESSORS, redacted_provision, is_placeholder, is_template,
)
from agents.offline.clauses.operative import ACRONYMS, operative_reading, operative_sentence, plain_words
from agents.offline.clauses.readings.rights import REQUIREMENTS
from agents.offline.clauses.readings.transfer import GRANT_ENDS, MUTUAL_END, no_termination_right
from agents.offline.units import reading_text
from core.types import ChecklistItem

_I = re.IGNORECASE


class _Say:
    """Sentence helpers bound to one agreement's parties; the first mention of a party carries its legal name."""

    def __init__(self, idx: PartyIndex, r: ClauseReading, quote: str):
        self.idx, self.r, self.quote = idx, r, quote
        self.named: set[str] = set()

    def who(self, actor: str) -> str:
        if actor == "the other party" and self.r.actor in self.idx.displays and len(self.idx.displays) == 2:
            # of two parties, the other one has a name: "Company must indemnify i3 ICS", not "the other party"
            actor = self.idx.displays[1 - self.idx.displays.index(self.r.actor)]
        if actor in GENERIC or actor.startswith("the "):
            return actor
        if actor in self.idx.displays and actor not in self.named:
            self.named.add(actor)
            return self.idx.firsts[self.idx.displays.index(actor)]
        return actor

    def named_in(self, text: str) -> str:
        """A phrase of the reading ('a change of control of Distributor') with first mentions given their name."""
        for d, f in zip(self.idx.displays, self.idx.firsts):
            if d not in self.named and re.search(r"(?<![\w-])" + re.escape(d) + r"(?![\w-])", text):
                self.named.add(d)
                text = re.sub(r"(?<![\w-])" + re.escape(d) + r"(?![\w-])", lambda _: f, text, count=1)
        return text

    def subject(self, action: str) -> tuple[str, str]:
        """(Subject, verb phrase): 'either party' + 'may not assign' reads 'Neither party may assign'."""
        actor = self.r.actor
        if actor in GENERIC:
            neg = re.match(r"(may|must|is|are|need) not\b\s*(.*)", action)
            if neg:
                verb = {"must": "may", "need": "need"}.get(neg.group(1), neg.group(1))
                return "Neither party", f"{verb} {neg.group(2)}".strip()
            return actor.capitalize(), action
        who = self.who(actor)
        return (who[:1].upper() + who[1:] if who.startswith("the ") else who), action

    def poss(self, party: str, fallback: str = "the other party's") -> str:
        """'Cisco's', "the other's" when the subject is either party, or the fallback."""
        if not party:
            return "the other's" if fallback == "the other party's" and self.r.actor in GENERIC else fallback
        if party == "the other party":
            return "the other's" if self.r.actor in GENERIC else "the other party's"
        p = party  # "Distributor's", never "Distributor (XYZ Corp.)'s"
        return p + "'" if p.endswith("s") and not p.endswith(")") else p + "'s"

    def tail(self, notice: bool = True, then: str = "", comma: bool = True) -> str:
        """The sentence's end: the notice, `then` (", subject to a termination fee"), the section, the stop.
        `comma=False` where the notice follows its verb's object directly ("may terminate the agreement on 30
        days' notice"), not a trigger that is itself "on" something."""
        n = f"{',' if comma else ''} on {self.r.notice}" if notice and self.r.notice else ""
        s = f" (§ {self.r.section})" if self.r.section else ""
        return n + then + s + "."

    def said(self, words: str) -> bool:
        return bool(re.search(words, self.quote, _I))


def _cap(s: str) -> str:
    if re.match(r"[a-z]+[A-Z]", s):
        return s  # a name written in lower case first ("iPass", "eBay") keeps its spelling
    return s[:1].upper() + s[1:]


def _article(words: str) -> str:
    return ("an " if words[:1].lower() in "aeio" else "a ") + words


# a right a proviso takes back but for the cases it lists; the memo's action looks for these words
ONLY_LISTED = ", but only in the cases the clause lists"


def _termination(s: _Say, r: ClauseReading, on: str, cost: str = "") -> str:
    if r.actor:
        subj, verb = s.subject(r.action)
        what = " ".join(x for x in (r.object, s.named_in(on) if on else "") if x) or "the agreement"
        return f"{subj} {verb} {what}{s.tail(then=cost, comma=bool(on))}"
    return f"The agreement allows termination {on}{s.tail()}" if on else f"The agreement may be terminated{s.tail()}"


def _change_of_control(s: _Say, r: ClauseReading) -> str | None:
    trig = r.trigger or "a change of control"
    if r.consequence == "terminates automatically on change of control":
        unless = f" unless {s.who(r.counterparty)} consents in advance" if r.counterparty else ""
        return f"The agreement terminates automatically on {s.named_in(trig)}{unless}{s.tail(False)}"
    if r.consequence == GRANT_ENDS:
        whose = " of the affiliate" if trig == "a change of control" and "affiliate" in r.detail else ""
        return f"{_cap(r.detail)} terminate automatically on {s.named_in(trig)}{whose}; the agreement itself goes on{s.tail(False)}"
    if r.action in ("may not assign", "may not subcontract", "may assign", "terminates automatically"):
        return _assignment(s, r)
    if r.consequence == "termination right":
        return _termination(s, r, f"on {r.trigger}" if r.trigger else "")  # never a change of control the clause does not name
    if r.consequence.startswith("consent required (treated"):
        trig = s.named_in(trig)
        consent = f", which requires {s.poss(r.counterparty, '')} consent".replace("requires  consent", "requires consent") if s.said(r"consent|approv") else ""
        return f"{_cap(s.named_in(trig))} is treated as an assignment of the agreement{consent}{s.tail(False)}"
    if r.consequence == "termination right (treated as assignment)":
        trig = _cap(s.named_in(trig))
        return f"{trig} is treated as an assignment of the agreement, on which {s.who(r.counterparty)} may terminate it{s.tail(False)}"
    if r.consequence == NOT_AN_ASSIGNMENT:
        return f"{_cap(s.named_in(trig))} is not treated as an assignment of the agreement{s.tail(False)}"
    if r.consequence == "consent required":
        trig = s.named_in(trig)
        who = s.poss(r.counterparty, "") + " " if r.counterparty else ""
        return f"{_cap(trig)} requires {who}consent{s.tail(False)}"
    if r.consequence == "notice only":
        if r.actor:
            subj, _ = s.subject("")
            cp = s.who(r.counterparty or "the other party")
            return f"{subj} must notify {cp} of {s.named_in(trig)}{s.tail(False)}"
        return f"The agreement requires notice of {trig}{s.tail(False)}"
    if r.consequence == "services continue" and r.actor:
        limits = ", within the limits the clause sets" if r.detail == "limited" else ""
        return f"{_cap(s.named_in(trig))} leaves the agreement in place: {s.who(r.actor)} {r.action}{limits}{s.tail(False)}"
    if r.consequence == "licences survive":
        return f"{_cap(s.named_in(trig))} leaves the rights and licences granted under the agreement in place{s.tail(False)}"
    if r.action == "is defined" and r.detail:
        return f"The agreement defines {s.named_in(trig)} to include {r.detail}{s.tail(False)}"
    if r.trigger:
        return f"The agreement contains a provision triggered by {s.named_in(trig)}{s.tail(False)}"
    return _assignment(s, r)


def _assignment(s: _Say, r: ClauseReading) -> str | None:
    if r.action == "binds only on notice":
        return f"An assignment binds {s.who(r.counterparty)} only once it has written notice of it{s.tail(False)}"
    consent = "consent" in r.consequence and "without consent" not in r.consequence.split(";")[0]
    written = "prior written " if s.said(r"prior written (consent|approval)") else "written " if s.said(r"written (consent|approval)") else ""
    void = ", and an assignment without it is void" if "void" in r.consequence and consent else ""
    if r.actor and r.action in ("may not assign", "may not subcontract"):
        subj, verb = s.subject(r.action)
        without = f" without {s.poss(r.counterparty, '')} {written}consent".replace("  ", " ") if consent else ""
        # only where the restriction itself extends to them: the words before the first exception or proviso
        # ("Except as otherwise provided herein," opens the restriction rather than excepting from it, also after
        # the section's heading)
        lead = OPENS_RESTRICTION.sub(" ", s.quote)
        restriction = re.split(r"\b(except|excepting|provided|however|other than|save)\b", lead, maxsplit=1, flags=_I)[0]
        ways = [w for w, rx in (("merger", r"\b(whether|including)\b[^.;()]{0,40}\bmerger"),
                                ("operation of law", r"\bby operation of law")) if re.search(rx, restriction, _I)]
        law = f" (including by {' or '.join(ways)})" if ways else ""
        what = "its obligations" if verb.endswith("subcontract") else "the agreement"
        sale = sale_carve_out(s.quote)
        ways = [k for k in sale.kinds if k != "sale of its business"] if sale else []
        how = f" (including by {' or '.join(ways)})" if ways else ""
        holder = s.idx.display_of(sale.who) if sale and sale.who else ""
        # a carve-out for one party the agreement's parties do not tell us: still only one party's
        holder = s.who(holder) if holder else "one party" if sale and sale.who else ""
        save = ("" if not sale else f", except that {holder} may assign it on a sale of its business{how}" if holder else
                ", except to " + ("an affiliate or " if sale.affiliates else "") + "a successor to its business" + how)
        return f"{subj} {verb} {what}{law}{without}{save}{void}{s.tail(False)}"
    if r.detail == "sale carve-out":
        return _sale(s, r)
    if r.consequence == "assignment prohibited" and not r.actor and r.action.startswith("may not be "):
        return f"{_cap(r.detail)} {r.action}{s.tail(False)}"
    if r.consequence == "terminates automatically on assignment":
        statute = "Investment Advisers Act" if s.said(r"Advisers Act") else "Investment Company Act"
        act = (f" as the {statute} of 1940 defines it, which includes a transfer of a controlling block of "
               "the assignor's voting securities (a change of control)") if r.trigger.startswith("assignment (as") else ""
        return f"The agreement terminates automatically on its assignment{act}{s.tail(False)}"
    if r.actor and r.consequence.startswith("permitted without consent"):
        subj, verb = s.subject(r.action)
        to = (" to an affiliate" if s.said(r"affiliat\w*[^.;]{0,80}without|without[^.;]{0,120}affiliat"
                                           r"|\bassign\w*\b[^.;]{0,120}\bto\s+(?:an?\s+|any\s+|its\s+|one\s+or\s+more\s+of\s+its\s+)?affiliat") else
              " to a successor to its business" if s.said(r"successor|acquir\w*|substantially all") else "")
        on = f", on {r.notice}" if r.notice else ""
        return f"{subj} may assign the agreement{to} without consent{on}{s.tail(False)}"
    if r.actor and r.action == "may assign" and consent:
        subj, _ = s.subject(r.action)
        return f"{subj} may assign the agreement only with {s.poss(r.counterparty, '')} {written}consent".replace("  ", " ") + s.tail(False)
    if r.detail in ("change of control counts", "change of control counts; may terminate", NOT_AN_ASSIGNMENT) and \
            r.trigger.startswith("a "):
        is_ = "is not" if r.detail == NOT_AN_ASSIGNMENT else "is"
        then = f", on which {s.who(r.counterparty)} may terminate it" if r.detail.endswith("may terminate") else ""
        return f"{_cap(s.named_in(r.trigger))} {is_} treated as an assignment of the agreement{then}{s.tail(False)}"
    if "void" in r.consequence and consent:
        return f"Any assignment made without the required consent is void{s.tail(False)}"
    if "void" in r.consequence:
        return f"Any assignment made in breach of the clause is void{s.tail(False)}"
    if consent:
        return f"The agreement restricts assignment without consent{s.tail(False)}"
    return None


def _sale(s: _Say, r: ClauseReading) -> str:
    """A restriction's carve-out for a sale of the business, as the deal meets it."""
    sale = sale_carve_out(s.quote)
    kinds = [k for k in sale.kinds if k != "sale of its business"] if sale else []
    how = f" (including by {' or '.join(kinds)})" if kinds else ""
    subj, _ = s.subject("may assign")
    cond = ", if the buyer assumes its obligations in writing" if sale and sale.assumption and s.said(r"\bwrit") else \
        ", if the buyer assumes its obligations" if sale and sale.assumption else ""
    return f"{subj} may assign the agreement without consent on a sale of its business{how}{cond}{s.tail(False)}"


def _convenience(s: _Say, r: ClauseReading) -> str | None:
    on = "for cause" if r.trigger == "cause" else "for convenience" if r.trigger else ""
    # what walking away costs is the point of the clause for a buyer: "Customer shall pay Metavante the termination fee"
    fee = s.said(r"\b(?:shall|will|must|agrees? to)\s+pay\b[^.;]{0,80}\b(?:early\s+)?(?:termination|cancell?ation)\s+(?:fee|charge|payment)")
    cost = ", subject to a termination fee" if on and fee else ""
    if r.detail == "only in listed cases":  # a proviso takes the right back but for the cases it lists
        return _termination(s, r, "", ONLY_LISTED)
    return _termination(s, r, on, cost) if r.actor or not on else f"The agreement allows termination {on}{s.tail(then=cost)}"


def _exclusive_object(s: _Say, verbs: str) -> str:
    """What an exclusive right to `verbs` reaches, where stated ("distribute the Products in the Territory"), up to
    whom it may be sold to ("sell the Products identified in Exhibit A | to those customers ..."), in plain words;
    '' when it does not read plainly."""
    last = verbs.split()[-1].strip(",")
    m = re.search(r"\b" + re.escape(last) + r"\s+((?:the|all|any)\s+[^,;:.()]{2,100}?)(?=\s+(?:to|for|during|on|at|subject|under|"
                  r"pursuant|and\s+only)\b|\s*[,;:.(]|$)", reading_text(s.quote))
    return (plain_words(m.group(1), s.idx) or "") if m and len(m.group(1).split()) <= 14 else ""


def _exclusivity(s: _Say, r: ClauseReading) -> str | None:
    if not r.actor:
        return None
    subj, verb = s.subject(r.action)
    if r.action == "has an exclusive licence":
        # "the license granted to IntriCon ... will ... be exclusive for Hearing Aids"
        m = re.search(r"\bbe(?:come)?\s+exclusive\s+(for|in|as\s+to)\s+([^,;:.()]{2,60}?)(?=\s*[,;:.(]|$)", reading_text(s.quote), _I)
        what = plain_words(m.group(2), s.idx) if m else ""
        by = f", granted by {s.who(r.counterparty)}," if r.counterparty else ""
        return f"{_cap(s.poss(r.actor))} licence{by} is exclusive{f' {m.group(1)} {what}' if what else ''}{s.tail(False)}"
    if r.action == "has exclusive rights":
        obj = _exclusive_object(s, r.detail) if r.detail else ""
        right = "rights" if re.search(r"\bexclusive\s+rights\s+to\b", s.quote, _I) else "right"  # as the clause has it
        what = f"the exclusive {right} to {r.detail} {obj or 'what the clause covers'}" if r.detail else "exclusive rights"
        by = (", granted by " if r.detail else " granted by ") + s.who(r.counterparty) if r.counterparty else ""
        return f"{subj} has {what}{by}{s.tail(False)}"
    if r.action == "must use the other exclusively":
        # "the exclusive provider to Channel Partner for all services of the nature of the Services"
        m = re.search(r"\bexclusive\s+(?:[\w/]+\s+){0,2}?" + re.escape(r.detail.split("/")[0]) + r"[\w/]*\s+(?:to\s+[^,;:.()]{1,40}?\s+)?"
                      r"(?:for|of)\s+((?:the|all|any)\s+[^,;:.()]{2,80}?|"
                      # "for sports, entertainment, and travel tickets": a list of kinds with no determiner
                      r"[a-z][\w-]*(?:,\s+[a-z][\w-]*)+,?\s+(?:and|or)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*){0,3})"
                      r"(?=\s+(?:during|in\s+accordance|and\s+(?:shall|will))\b|\s*[,;:.(]|$)",
                      reading_text(s.quote), _I) if r.detail else None
        what = (plain_words(m.group(1), s.idx) or "") if m and len(m.group(1).split()) <= 12 else ""
        return f"{subj} must use {s.who(r.counterparty)} as its exclusive {r.detail} for {what or 'what the clause covers'}{s.tail(False)}"
    if r.action == "is the exclusive":
        # "as the exclusive distributor (even as to Zogenix) of the Product in the Field in the Territory"
        m = re.search(r"\b" + re.escape(r.detail) + r"s?\s+(?:\([^()]{0,40}\)\s+)?(of|for)\s+((?:the|all|any|its|their)\s+[^,;:.()]{2,80}?)"
                      r"(?=\s+(?:during|in\s+accordance|pursuant|subject|and\s+(?:shall|will|grants?))\b|\s*[,;:.(]|$)",
                      reading_text(s.quote), _I)
        obj = m.group(2) if m and len(m.group(2).split()) <= 12 else ""
        if re.match(r"(?:its|their)\b", obj):  # "of its products": the appointer's
            obj = re.sub(r"^(?:its|their)\b", s.poss(r.counterparty), obj) if r.counterparty else ""
        what = plain_words(obj, s.idx) if obj else ""
        whose = f"{s.poss(r.counterparty)} " if r.counterparty else "the "
        return f"{subj} is {whose}exclusive {r.detail}{f' {m.group(1)} {what}' if what else ''}{s.tail(False)}"
    if r.action == "must deal exclusively":
        # "all its requirements of the Products (including nanomaterials ... substantially the same as the Products)
        # exclusively from NTC": what the requirements widen to is an aside
        needs = REQUIREMENTS.search(re.sub(r"\s*\((?:including|incl\.|or|and)\s[^()]{0,160}\)", "", reading_text(s.quote))) \
            if r.counterparty else None
        what = plain_words(needs.group(1) or needs.group(2), s.idx) if needs else None
        if what:  # "shall purchase all of its requirements for supply of Licensed Product exclusively from CytoDyn"
            what = what if re.match(r"(?:the|its|all|any|such)\b", what) else "the " + what
            return f"{subj} must buy all its requirements of {what} from {s.who(r.counterparty)}{s.tail(False)}"
        return f"{subj} must deal exclusively{' with ' + s.who(r.counterparty) if r.counterparty else ''}{s.tail(False)}"
    return f"{subj} {verb.replace('deal with others', 'deal with third parties')} in the field the clause covers{s.tail(False)}"


def _restriction(obj: Callable[[_Say, ClauseReading], str]) -> Callable[[_Say, ClauseReading], str | None]:
    def say(s: _Say, r: ClauseReading) -> str | None:
        if not r.actor or not r.action:
            return None
        subj, verb = s.subject(r.action)
        return f"{subj} {verb}{obj(s, r)}{s.tail(False)}"
    return say


def _solicit_object(s: _Say, r: ClauseReading) -> str:
    whose = s.poss(r.counterparty)
    kinds = [k for k, rx in (("employees", r"employ|personnel|staff|consultant"), ("customers", r"customer|client")) if s.said(rx)]
    return f" {whose} {' or '.join(kinds)}" if kinds else ""


def _non_solicit(s: _Say, r: ClauseReading) -> str | None:
    # the verbs the clause uses: "shall not solicit an existing business customer" bars soliciting, not hiring
    # ("persons employed by the other party" names whom, not a verb)
    # only the restriction's own verbs: "provided, however, that the foregoing will not restrict IBM from employing
    # ... or hiring any person who responds" is what the clause leaves free, not what it bars
    bar = re.split(r"\bprovided,?\s+(?:however|further)?,?\s*(?:that\s+)?(?:the\s+foregoing|this|nothing)|\b(?:the\s+foregoing|this\s+"
                   r"(?:section|restriction|covenant))\s+(?:shall|will|does)\s+not\s+(?:restrict|prevent|prohibit|apply)|\bnothing\s+"
                   r"(?:herein|in\s+this)", s.quote, maxsplit=1, flags=_I)[0]
    verbs = [v for v, rx in (("solicit", r"\bsolicit|\binduce|\bentice"), ("hire", r"\bhir(?:e|es|ing)\b|\bemploy(?:s|ing)?\b|\brecruit"))
             if re.search(rx, bar, _I)]
    if verbs and r.action == "may not solicit or hire":
        r = dataclasses.replace(r, action="may not " + " or ".join(verbs))
    return _restriction(_solicit_object)(s, r)


def _cap_liability(s: _Say, r: ClauseReading) -> str | None:
    at = f" at {r.amount}" if r.amount else ""
    if r.action == "liability is capped":
        if r.actor in GENERIC:
            return f"Each party's liability is capped{at}{s.tail(False)}"
        if r.actor:
            return f"{s.poss(r.actor)} liability is capped{at}{s.tail(False)}"
        return f"Liability under the agreement is capped{at}{s.tail(False)}"
    if r.consequence == "consequential damages excluded":
        if r.actor:
            subj, verb = s.subject(r.action)
            return f"{subj} {verb} for indirect or consequential damages{s.tail(False)}"
        return f"The agreement excludes liability for indirect or consequential damages{s.tail(False)}"
    if r.action == "contribution is capped":
        if r.actor and r.actor not in GENERIC:
            return f"{s.poss(r.actor)} contribution to losses is capped at what it received from the sale{s.tail(False)}"
        return f"Contribution to losses is capped at what the contributor received from the sale{s.tail(False)}"
    if r.action == "recovery is capped":
        if s.said(r"\bdamages\b"):
            return f"Damages recoverable under the clause are capped{at}{s.tail(False)}"
        return f"Reimbursement under the clause is capped{at}{s.tail(False)}"
    if r.consequence == "no liability on termination":
        if r.actor:
            to = f" to {s.who(r.counterparty)}" if r.counterparty else ""
            subj, verb = s.subject(r.action)
            return f"{subj} {verb}{to} for compensation or damages because the agreement ends{s.tail(False)}"
        return f"No compensation or damages are owed because the agreement ends{s.tail(False)}"
    if r.consequence == "remedies limited":
        return f"The agreement limits the remedies available{s.tail(False)}"
    return None


def _uncapped(s: _Say, r: ClauseReading) -> str | None:
    if r.consequence != "uncapped liability":
        return _cap_liability(s, r)
    if r.detail and len(r.detail) <= 160:
        what = r.trigger or "the limits on liability"
        verb = "do" if what.startswith("the limits") else "does"
        return f"{_cap(what)} {verb} not apply to {r.detail}{s.tail(False)}"
    if r.actor and r.actor not in GENERIC:
        return f"{s.poss(r.actor)} liability is not capped for the matters the clause lists{s.tail(False)}"
    return f"The agreement leaves some liability outside the cap{s.tail(False)}"


# what "all right, title and interest in and to ..." reaches, up to the clause's first plain break
_RIGHT_TITLE = re.compile(r"\ball\s+(?:of\s+(?:its|their)\s+)?right,?\s+title\s+and\s+interest,?\s+(?:including\s+[^,;.]{1,60},\s+)?(?:(?:it|they)\s+may\s+(?:now\s+or\s+"
                          r"hereafter\s+)?(?:hold|have)\s+)?(?:in\s+and\s+to|in|to)\s+(.{3,160}?)(?=\s*[;.(:]|\s+(?:in|of|to|for|by|under)\s+which\b|\s+(?:including|which|that|"
                          r"whether|now|as|to the extent|under|pursuant)\b|\s+to\s+(?-i:[A-Z])|,\s+(?:and|including|whether|together)\b|$)", _I)


# what "all intellectual property rights in ..." reaches ("in any modification or improvement related to the
# Products are fully vested in Erchonia")
_IP_IN = re.compile(r"\ball\s+intellectual\s+property(?:\s+rights)?\s+(?:in\s+and\s+to|in)\s+(.{3,160}?)(?=\s*[;.(:]|\s+(?:are|is|shall|will|"
                    r"which|that|including|whether)\b|,|$)", _I)
# the thing that "shall be jointly owned", named before it: "New software ... developed in the course of the Water Meter
# development are jointly owned"
_JOINTLY_OWNED = re.compile(r"(?:^|[.;:]\s+|\d\s+)(?:title\s+to\s+)?((?:all|any|the|new|each)\b[^.;:]{3,220}?|(?-i:[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,4})"
                            r"|[^.;:]{3,160}?\([\"\u201c][^\"\u201d()]{2,40}[\"\u201d]\))\s+(?:(?:shall|will)\s+be|are|is)\s+"
                            r"(?:(?:considered|deemed)\s+[^.;:]{0,60}?\s+and\s+(?:shall|will)\s+be\s+)?"
                            r"(?:jointly\s+owned|owned\s+jointly|co-?owned|held\s+jointly)\b", _I)
# "Each Party shall own an undivided equal interest in and to all Joint Patents"
# (to the end of its clause: "any and all Inventions discovered, developed, ... jointly" is cut short at a comma)
_UNDIVIDED = re.compile(r"\bundivided\s+[^.;]{0,30}?interest\s+in\s+(?:and\s+to\s+)?((?:all|any|the|each)\b[^.;:,()]{2,100}?)(?=\s*[.;:(]|$)", _I)


# "VerticalNet and LeadersOnline shall jointly own all User Data"
_JOINTLY_OWN = re.compile(r"\bjointly\s+own\s+((?:all|any|the)\b[^.;:,()]{2,160}?)(?=\s*[.;:,(]|$)", _I)


def jointly_owned(s: _Say) -> str:
    """What the parties own together, in the clause's words, or '' when it does not read plainly."""
    flat = reading_text(s.quote)
    m = _JOINTLY_OWNED.search(flat) or _JOINTLY_OWN.search(flat) or _UNDIVIDED.search(flat)
    words = m.group(1) if m else ""
    term = re.search(r"\([\"\u201c]([^\"\u201d()]{2,40})[\"\u201d]\)\s*$", words)
    if term:  # 'Inventions conceived jointly by employees of both Parties ("Joint Inventions")': the term names them
        words = term.group(1)
    return (plain_words(words, s.idx) or "") if words and len(words.split()) <= 26 else ""


def _ip_object(s: _Say) -> str:
    """What the assignment or ownership reaches, in the clause's words ("all right, title and interest in all
    inventions other than OntoChem inventions"), or '' when it does not read plainly."""
    flat = reading_text(s.quote)
    m = _RIGHT_TITLE.search(flat)
    if not m and (ip := _IP_IN.search(flat)):
        what = ip.group(1)
        plain = plain_words(what, s.idx) if len(what.split()) <= 14 and not re.search(
            r"\b(?:to|of|in|by|for|with|from|and|or|the|a|an|any|all)$", what, _I) else None
        return f"all intellectual property rights in {plain}" if plain else ""
    if not m:
        return ""
    words = m.group(1)
    if len(words.split()) > 14:
        words = words.split(",")[0]
    if len(words.split()) > 14 or re.search(r"\b(?:to|of|in|by|for|with|from|and|or|the|a|an|any|all)$", words, _I):
        return ""  # "all Inventions directed to (a) ...": what it reaches is in the list that follows
    plain = plain_words(words, s.idx)
    return f"all right, title and interest in {plain}" if plain else ""


def _ip(s: _Say, r: ClauseReading) -> str | None:
    what = _ip_object(s)
    if r.action == "assigns its rights" and r.counterparty:
        if r.detail == "must assign":
            lead = f"{s.subject(r.action)[0]} must assign" if r.actor else "The agreement requires an assignment of"
            if not r.actor:
                return f"{lead} rights in the intellectual property it covers to {s.who(r.counterparty)}{s.tail(False)}"
        else:
            lead = f"{s.subject(r.action)[0]} assigns" if r.actor else "The agreement assigns"
        if what:
            return f"{lead} to {s.who(r.counterparty)} {what}{s.tail(False)}"
        return f"{lead} rights in the intellectual property it covers to {s.who(r.counterparty)}{s.tail(False)}"
    if r.action == "owns" and r.detail == "as works made for hire":
        made = plain_words(r.amount, s.idx) if r.amount else None
        return f"{s.who(r.actor)} owns {made or 'the works the clause covers'} as works made for hire{s.tail(False)}"
    if r.action == "owns":
        if what:
            return f"{s.who(r.actor)} owns {what}{s.tail(False)}"
        return f"{_cap(s.who(r.actor))} owns the intellectual property the clause covers{s.tail(False)}"
    if r.action == "jointly own" and r.detail == "by inventorship":
        if r.actor == "each party":
            return f"Ownership follows inventorship: each party owns what it makes alone; what the parties make together they own jointly{s.tail(False)}"
        return (f"Ownership follows inventorship: what {s.who(r.actor)} makes alone it owns; what the parties make together "
                f"they own jointly{s.tail(False)}")
    if r.action == "jointly own":
        together = jointly_owned(s)
        return f"The parties jointly own {together or 'the intellectual property the clause covers'}{s.tail(False)}"
    return None


def _licence(s: _Say, r: ClauseReading) -> str | None:
    kind = _article(f"{r.detail} licence") if r.detail else "a licence"
    if r.actor:
        to = s.who(r.counterparty) + " " if r.counterparty else ""
        return f"{s.subject(r.action)[0]} grants {to}{kind}{s.tail(False)}"
    if r.counterparty:
        return f"{s.who(r.counterparty)} receives {kind}{s.tail(False)}"
    if r.consequence == "licence terms":
        return None
    if not s.said(r"\bgrant|\blicen[cs]e[sd]?\s+(?:to|under)\b|\bhereby\s+licen[cs]e"):
        # "shall purchase all of its requirements of Licensed Product": the word of a licence, no licence granted
        return None
    return f"The agreement grants {kind}{s.tail(False)}"


def _minimum(s: _Say, r: ClauseReading) -> str | None:
    if r.action == "shelf life":
        who = s.subject(r.action)[0] if r.actor else "The supplier"
        return f"{who} must deliver goods with a minimum remaining shelf life; the clause sets no purchase commitment{s.tail(False)}"
    of = f" of {r.amount}" if r.amount else ""
    if r.actor:
        verb = ("must purchase a minimum" if s.said(r"purchas|buy|order") else "must pay at least" if s.said(r"\bpay") and r.amount
                else "must supply a minimum" if s.said(r"\bsuppl(?:y|ies)\b") else "must pay a minimum royalty" if s.said(r"minimum royalt")
                else "must meet a minimum commitment")
        amount = f" {r.amount}" if verb == "must pay at least" else of or (" quantity" if verb.endswith("minimum") else "")
        return f"{s.subject(r.action)[0]} {verb}{amount}{s.tail(False)}"
    return f"The agreement sets a minimum commitment{of}{s.tail(False)}"


def _term(s: _Say, r: ClauseReading) -> str | None:
    if r.action == "continues until terminated":
        return f"The agreement has no fixed term: it continues until it is terminated{s.tail(False)}"
    parts = []
    if r.detail:
        parts.append(f"runs for {r.detail}")
    if r.action == "renews automatically":
        parts.append("renews automatically" + (f" for successive {re.sub(r's$', '', r.trigger.replace(' ', '-'))} periods" if r.trigger else ""))
    if not parts:
        return None
    notice = f", unless a party gives {r.notice} of non-renewal" if r.action and r.notice else ""
    return f"The agreement {' and '.join(parts)}{notice}{s.tail(False)}"


def _law(s: _Say, r: ClauseReading) -> str | None:
    # the place comes last, so a reader (or a check) finds the jurisdiction at the end of the sentence
    forum = "provides for arbitration and is" if r.consequence == "arbitration" else "is"
    if r.detail:
        return f"The agreement {forum} governed by the law of {r.detail}{s.tail(False)}"
    return None


def _simple(template: str) -> Callable[[_Say, ClauseReading], str | None]:
    def say(s: _Say, r: ClauseReading) -> str | None:
        if not r.actor or not r.action:
            return None
        subj, verb = s.subject(r.action)
        return template.format(subj=subj, verb=verb, cp=s.who(r.counterparty or "the other party"),
                               cp_poss=s.poss(r.counterparty), amount=f" of at least {r.amount}" if r.amount else "",
                               detail=r.detail, trig=f" on {r.trigger}" if r.trigger else "") + s.tail(False)
    return say


def _audit(s: _Say, r: ClauseReading) -> str | None:
    if r.action == "own audit":
        return f"{NO_AUDIT}{s.tail(False)}"
    if r.action == "bears the cost of the audit" and r.actor:
        shift = (f", unless it finds a discrepancy of more than {r.amount}, when {s.who(r.counterparty)} bears it"
                 if r.counterparty and r.amount else "")
        return f"{s.who(r.actor)} bears the cost of an audit{shift}{s.tail(False)}"
    if r.actor and r.counterparty and not r.detail and r.action.startswith("may "):
        return f"{s.subject(r.action)[0]} {r.action} {s.who(r.counterparty)}{s.tail()}"
    if not r.actor or not r.detail:
        return None  # what is inspected must be stated, or the sentence would invent it
    if r.action == "must keep":
        period = f" {r.amount}" if r.amount else ""
        return f"{s.subject(r.action)[0]} must keep {r.detail}{period}{s.tail(False)}"
    return f"{s.subject(r.action)[0]} {r.action} {s.poss(r.counterparty)} {r.detail}{s.tail()}"


def _revenue(s: _Say, r: ClauseReading) -> str | None:
    if r.action == "to be negotiated":
        what = {"royalties": "the royalties", "commissions": "the commissions"}.get(r.detail, "the revenue share")
        return f"The clause leaves {what} to be negotiated; it fixes no share or rate{s.tail(False)}"
    if r.action == "tiered":
        return f"The clause sets the royalties in tiers by net sales (a table of bands and rates){s.tail(False)}"
    if r.action == "set out in":
        return f"The {r.detail} {'are' if r.detail.endswith('s') else 'is'} set out in {r.where}{s.tail(False)}"
    what = r.amount or r.detail
    if r.action == "share" and r.detail:
        return f"The parties share {r.detail}{s.tail(False)}"
    if r.action == "receives" and r.actor and r.detail:
        return f"{s.subject(r.action)[0]} receives {r.detail}{s.tail(False)}"
    if r.actor and what:
        subj, _ = s.subject(r.action)
        to = f"{s.who(r.counterparty)} " if r.counterparty else ""
        return f"{subj} must pay {to}{what}{s.tail(False)}"
    if r.amount:
        return f"The agreement provides for payment of {r.amount}{s.tail(False)}"
    return None


def _price(s: _Say, r: ClauseReading) -> str | None:
    by = f" by more than {r.amount}" if r.amount and "raise" in r.action else ""
    when = f" {r.trigger}" if r.trigger else ""
    if r.actor and r.action:
        subj, verb = s.subject(r.action)
        return f"{subj} {verb}{by}{when}{s.tail(False)}"
    if r.action == "prices are fixed":
        return f"The agreement fixes its prices{when}{s.tail(False)}"
    if r.amount:
        return f"The agreement limits price increases to {r.amount}{when}{s.tail(False)}"
    return None


def _after_end(s: _Say, r: ClauseReading) -> str | None:
    if r.action == "survive":
        if r.detail:
            many = bool(re.search(r",|\band\b|\bthrough\b|\bto\b|-", r.detail))
            return f"§{'§' if many else ''} {r.detail} surviv{'e' if many else 'es'} the end of the agreement{s.tail(False)}"
        return f"The clause keeps some provisions in force after the agreement ends{s.tail(False)}"
    if r.actor and r.action:
        subj, verb = s.subject(r.action)
        verb = verb.replace("the other party's", s.poss(r.counterparty))
        if r.counterparty:
            verb = verb.replace("from the other party", f"from {s.who(r.counterparty)}")
            verb = verb.replace("the other party", s.who(r.counterparty))
        when = "" if "agreement ends" in verb else " after the agreement ends"
        return f"{subj} {verb}{when}{s.tail(False)}"
    return f"{r.detail}{s.tail(False)}" if r.detail else None


def _liquidated(s: _Say, r: ClauseReading) -> str | None:
    if r.consequence == "no termination fee":
        if r.actor:
            return f"{s.subject(r.action)[0]} may terminate without paying a termination fee{s.tail(False)}"
        return f"The clause rules out a termination fee{s.tail(False)}"
    kind = "a termination fee" if r.consequence == "termination fee" else "liquidated damages"
    of = f" of {r.amount}" if r.amount else ""
    on = f" for {r.trigger}" if r.trigger else ""
    if r.actor and r.action == "may keep":
        subj, _ = s.subject(r.action)
        what = plain_words(r.detail, s.idx)
        return f"{subj} may keep {what} as liquidated damages{on}{s.tail(False)}" if what else None
    if r.actor:
        subj, _ = s.subject(r.action)
        to = f"{s.who(r.counterparty)} " if r.counterparty else ""
        return f"{subj} must pay {to}{kind}{of}{on}{s.tail(False)}"
    if r.amount or r.trigger:
        return f"The agreement sets {kind}{of}{on}{s.tail(False)}"
    return None


def _warranty(s: _Say, r: ClauseReading) -> str | None:
    if not r.detail:
        return None
    what = f" {r.amount}" if r.amount else ""
    start = f" {r.trigger}" if r.trigger else ""
    if r.actor:
        gives = f"warrants{what}" if what else "gives a warranty"
        return f"{s.subject(r.action)[0]} {gives} for {r.detail}{start}{s.tail(False)}"
    what = {"against defects": " against defects"}.get(r.amount, f" of {r.amount}" if r.amount else "")
    return f"The warranty{what} runs for {r.detail}{start}{s.tail(False)}"


def _beneficiary(s: _Say, r: ClauseReading) -> str | None:
    if r.action == "none":
        if r.detail:
            return f"The agreement has no third-party beneficiaries except as § {r.detail} provides{s.tail(False)}"
        return f"The agreement has no third-party beneficiaries: only the parties may enforce it{s.tail(False)}"
    if not r.detail or len(r.detail.split()) > 18:
        return None
    plural = r.action == "are"
    return (f"{_cap(s.named_in(r.detail))} {'are' if plural else 'is'} {'' if plural else 'a '}third-party "
            f"beneficiar{'ies' if plural else 'y'} who may enforce the agreement{s.tail(False)}")


def _whom(s: _Say, r: ClauseReading, subj: str) -> str:
    """The party a restriction protects: the counterparty read, "the other" after "Neither party", else the other
    party (named where the agreement has two)."""
    if r.counterparty:
        return s.who(r.counterparty)
    return "the other" if subj == "Neither party" else s.who("the other party")


def _disparage(s: _Say, r: ClauseReading) -> str | None:
    if not r.actor:
        return None
    subj, verb = s.subject(r.action)
    whom = _whom(s, r, subj)
    return f"{subj} {verb} {whom}{s.tail(False)}"


def _not_to_sue(s: _Say, r: ClauseReading) -> str | None:
    if not r.actor:
        return None
    subj, verb = s.subject(r.action)
    whose = s.poss(r.counterparty)
    if r.action == "may not challenge":
        return f"{subj} {verb} the {r.trigger} of {whose} {r.detail or 'rights'}{s.tail(False)}"
    whom = _whom(s, r, subj)
    about = f" in respect of the {r.detail} the clause covers" if r.detail else ""  # whose they are is not read
    return f"{subj} {verb} {whom}{about}{s.tail(False)}"


def _litigation(s: _Say, r: ClauseReading) -> str | None:
    if r.consequence == "jury waiver":
        return f"The parties waive trial by jury{s.tail(False)}"
    if r.consequence == "no claim represented":
        state = "pending or threatened" if s.said(r"threat") else "pending"  # only what the clause says
        if r.actor and r.actor not in GENERIC:
            return f"{s.who(r.actor)} represents that no litigation or claim is {state} against it{s.tail(False)}"
        return f"The document states that no litigation or claim is {state}{s.tail(False)}"
    return None


def _confidential(s: _Say, r: ClauseReading) -> str | None:
    if r.action == "duty":
        who = s.subject(r.action)[0] if r.actor else "A party"
        return f"{who} {r.detail}{s.tail(False)}"
    if not r.actor or not r.action:
        # a definition binds no one: say what it does rather than claim an obligation
        if s.said(r"confidential information\W{0,3}\s+(?:will|shall|does)\s+not\s+include|\bexclu\w+\s+from\s+(?:the\s+)?"
                  r"(?:definition\s+of\s+)?confidential information"):
            return f"The agreement sets out what confidential information does not include{s.tail(False)}"
        if s.said(r"confidential information\W{0,3}\s+(?:shall\s+)?(?:means?|includes?|is\s+defined|refers?\s+to)\b"):
            return f"The agreement defines confidential information{s.tail(False)}"
        return None
    subj, verb = s.subject(r.action)
    whose = s.poss(r.counterparty)
    if "disclose" in r.action:  # "Neither party may disclose the other's confidential information"
        return f"{subj} {verb.replace('confidential information', whose + ' confidential information')}{s.tail(False)}"
    return f"{subj} must keep {whose} confidential information confidential{s.tail(False)}"


_INDEMNIFIES = _simple("{subj} must indemnify {cp} against claims and losses")


def _indemnity(s: _Say, r: ClauseReading) -> str | None:
    if r.action == "procedure":
        defence = ", which may take part in or take over the defence" if r.detail == "defence" else ""
        return f"The clause sets the procedure for indemnity claims: the party claiming must notify the indemnifying party{defence}{s.tail(False)}"
    return _INDEMNIFIES(s, r)


_SAY: dict[str, Callable[[_Say, ClauseReading], str | None]] = {
    "change_of_control": _change_of_control,
    "anti_assignment": _assignment,
    "lease_assignment": _assignment,
    "termination_for_convenience": _convenience,
    "exclusivity": _exclusivity,
    # "with Cisco" only where the clause says so; a restriction on some work is not a promise not to compete with anyone
    "non_compete": _restriction(lambda s, r: f" with {s.who(r.counterparty)}" if r.counterparty and s.said(
        r"compet\w*\s+(directly\s+or\s+indirectly\s+)?with\s+(the\s+)?" + re.escape(r.counterparty)) else ""),
    "non_solicit": _non_solicit,
    "most_favored_nation": _simple("{subj} must give {cp} terms at least as favourable as those it gives any third party"),
    "rofr_rofo": _simple("{subj} {verb}{trig}"),
    "minimum_commitment": _minimum,
    "cap_on_liability": _cap_liability,
    "uncapped_liability": _uncapped,
    "indemnification": _indemnity,
    "ip_ownership": _ip,
    "license_grant": _licence,
    "source_code_escrow": _simple("{subj} must deposit source code in escrow"),
    "audit_rights": _audit,
    "insurance": _simple("{subj} must maintain insurance{amount}"),
    "governing_law": _law,
    "confidentiality": _confidential,
    "term_renewal": _term,
    "debt_change_of_control": lambda s, r: (f"{_cap(r.trigger or 'a change of control')} is an event of default{s.tail(False)}"
                                            if r.consequence == "event of default" else
                                            f"{_cap(r.trigger or 'a change of control')} requires mandatory prepayment{s.tail(False)}"
                                            if r.consequence == "mandatory prepayment" else None),
    "key_employee": _simple("{subj} is entitled to {detail}{trig}"),
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

_OPENERS = {"The", "A", "An", "Any", "Either", "Each", "Neither", "Liability", "Rights", "Contribution", "Damages",
            "Reimbursement", "No", "Ownership"}


_ACRONYM = re.compile(r"(?<![\w&])(?:" + "|".join(re.escape(a) for a in sorted(ACRONYMS, key=len, reverse=True)) + r")(?![\w&])")


def names_only_parties(sentence: str, allowed: set[str]) -> bool:
    """True when every capitalised word, past the sentence's opener, is part of an allowed name."""
    rest = re.sub(r"\b(USD|EUR|GBP|US|U\.S\.)(?=\s?[$\d])", " ", sentence)
    rest = re.sub(r"\b(?:Exhibit|Schedule|Appendix|Annex|Attachment)\s+[A-Z0-9][\w-]*(?:\.\d+)*", " ", rest)  # where, not who
    for a in sorted(allowed, key=len, reverse=True):
        if a:
            rest = re.sub(r"(?<![\w-])" + re.escape(a) + r"(?![\w-])", " ", rest)
    rest = _ACRONYM.sub(" ", rest)  # "IP": no one
    rest = rest.strip()
    first = re.match(r"([A-Z]\w*)\b", rest)
    if first and first.group(1) in _OPENERS and sentence.startswith(first.group(1)):
        rest = rest[first.end():]
    return not re.search(r"\b[A-Z]", rest)


# names a sentence may use that are no party's: the statutes our own sentences cite
STATUTES = {"Investment Company Act", "Investment Advisers Act"}


def write_summary(item: ChecklistItem, quote: str, parties: Sequence[PartyLike] = ()) -> str:
    """One grammatical sentence: who may do what on which trigger, with notice and section when stated."""
    if item.id == "non_compete" and solicit_only(quote) and not frees_only(quote):
        # "agrees not to solicit or hire any employee of the other party": a non-solicit that the classifier also took
        # for a non-compete; the non-solicit's reading says who may not solicit whom, the non-compete's would claim a
        # restriction on competing that the clause does not make
        item = item.model_copy(update={"id": "non_solicit", "title": "Non-solicitation"})
    idx = index_parties(parties)
    r = read_clause(item.id, quote, parties)
    say = _SAY.get(item.id)
    text = say(_Say(idx, r, quote), r) if say else None
    # the law a clause chooses and the persons it makes beneficiaries are named in its own words, not the parties'
    named = {r.detail.removeprefix("the ")} if item.id in ("governing_law", "third_party_beneficiary") and r.detail else set()
    allowed = idx.allowed() | named | STATUTES
    if r.where:  # "Exhibit B" is where the figures are, not a name
        allowed |= {r.where}
    if not text or not names_only_parties(text, allowed):
        text = None
    if item.id in ("non_compete", "exclusivity") and frees_only(quote) or item.id == "exclusivity" and (
            non_exclusive_only(quote) or exclusive_in_name(quote)):
        text = None  # "does not grant ... an exclusive right": the item's reading sees the right, not the "not"
    if not text or is_template(text, [item.id]):
        # the clause's own operative sentence, restated, names who does what when the item's reading could not;
        # a carve-out says what the restriction leaves a party free to do
        text = carve_out(quote, idx) or operative_sentence(quote, idx, r.section) or text
    elif is_placeholder(text):
        # "Snap may not deal with third parties in the field the clause covers": the reading knows who, not what;
        # the clause's own sentence about the same party says what ("may not grant any third party any right to
        # sponsor any products or services in the exclusive category")
        who = re.match(r"(.+?) (?:may|must|has|have|owns?|is|are|assigns?|grants?)\b", text)
        grantor = re.search(r"granted by (.+?)(?: \(|,|\.$)", text)
        # the same party's duty or right, or the same grant from the grantor's side ("Cisco grants Distributor ...")
        for subject in (who.group(1).split(" (")[0] if who else "", grantor.group(1) if grantor else ""):
            own = operative_reading(quote, idx, r.section, subject) if subject else None
            if own:
                text = own[0]
                break
    sec = f" (§ {r.section})" if r.section else ""
    # a definition binds no one: a reading that knows who but not what ("Vyera has the exclusive right to market and
    # sell what the clause covers" of '"Regulatory Exclusivity" means ...') is no better than the fallback
    vague = not text or is_template(text, [item.id]) or is_placeholder(text)
    defined = DEFINITION.match(" ".join(quote.split())) if vague else None
    if defined and not any(term.lower() == defined.group(1).lower() for term, _ in idx.terms):
        # '"Monthly Base Fee" shall mean ...': a definition obliges no one; the item's sentence would claim it does
        text = f"The agreement defines \u201c{defined.group(1)}\u201d{sec}."  # the term as the agreement writes it
    if item.id == "non_compete" and (barred := standstill(quote)):
        # "acquire ... beneficial ownership ... in any securities of Theravance": the item's reading would claim a
        # restriction on competing
        text = f"{STANDSTILL} {barred}{sec}."
    if (not text or is_template(text, [item.id])) and (withheld := redacted_provision(quote, item)):
        text = withheld + "."  # the item's fallback would claim a provision whose words the reader has not seen
    if item.id == "minimum_commitment" and (not text or is_template(text, [item.id])) and MINIMUM_CHARGE.search(quote) and \
            not COMMITS.search(quote):
        text = MIN_CHARGE + sec + "."
    if item.id == "minimum_commitment" and (not text or is_template(text, [item.id])) and ceiling_only(quote):
        text = CEILING + sec + "."  # "shall not exceed 120% of ...": the item's fallback would call a ceiling a floor
    if item.id == "ip_ownership" and (money := owned_money(quote)):
        # "all proceeds ... shall be the sole property of Purchaser": the item's reading would say Purchaser owns
        # intellectual property
        owner = _Say(idx, r, quote).who(r.actor) if r.action == "owns" and r.actor else "A party"
        text = f"{owner} owns the {money} the clause covers; the clause allocates no intellectual property{sec}."
    if item.id == "key_employee" and denies_payment(quote):
        # "shall have no rights to damages ... specifically including commercial severance pay": the item's fallback
        # would say the clause provides a payment
        text = NO_PAYMENT + sec + "."
    if (not text or is_template(text, [item.id])) and item.id in ("non_compete", "exclusivity") and frees_only(quote):
        # "this Agreement does not grant ... an exclusive right ... and shall not prevent Cisco from ...": the item's
        # fallback would say a party is restricted, the opposite of the clause
        text = EXCEPTION + sec + "."
    if (not text or is_template(text, [item.id])) and item.id == "exclusivity" and non_exclusive_only(quote):
        text = NON_EXCLUSIVE + sec + "."  # the item's fallback would claim an exclusivity the clause disclaims
    if (not text or is_template(text, [item.id])) and item.id == "exclusivity" and (kind := exclusive_in_name(quote)):
        text = f"{IN_NAME} {kind}{sec}."  # "TouchStar has exclusive rights" of "assigns exclusively to TouchStar"
    if item.id == "termination_for_convenience" and (not text or is_template(text, [item.id]) or text.startswith(
            "The agreement may be terminated")) and no_termination_right(quote):
        # the item's reading would claim a walk-away right the passage does not give
        text = (MUTUAL_ONLY if MUTUAL_END.search(quote) else NO_RIGHT) + sec + "."
    if item.id == "anti_assignment" and successors_only(quote) and (not text or is_template(text, [item.id])):
        text = SUCCESSORS + sec + "."  # "The agreement restricts assignment" would claim the bar the clause does not make
    if not text:
        text = HONEST.get(item.id, f"The agreement contains a provision on {item.title.lower()}") + sec + "."
    # a name that ends the sentence may end "LLC."; a sentence cut by an omission ends on its mark
    return text[:-1] if text.endswith(("..", "\u2026.")) else text
