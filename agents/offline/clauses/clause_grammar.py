"""The grammar a clause summary needs: which party is the subject of a verb, whose consent, whose change of control.

A verb gets a subject only when nothing but asides stands between them
("Cisco may, at its option, terminate"); anything else ("Distributor shall make
records available for audit by Cisco") leaves the subject unread rather than
guessed, because a wrong party in a memo is worse than none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from agents.offline.clauses.clause_parts import (
    ClauseReading, Mention, PartyIndex, mention_at, notice_of, other_party, subject_before,
)

_I = re.IGNORECASE


@dataclass
class Ctx:
    quote: str
    idx: PartyIndex
    ms: list[Mention]


_MODAL = r"(?:may|shall|will|can|cannot|must|might|has|have|is|are|reserves|retains|agrees?|undertakes?|covenants?|hereby)"
# "no later than", "not less than" bound a time or an amount; they negate nothing ("ArTara will, no later than 60
# days after each quarter, pay royalties")
_NEG = re.compile(r"\b(not|no)\b(?!\s+(?:later|earlier|sooner|less|more|fewer)\s+than\b)|\b(never|cannot|neither|nor)\b"
                  r"|\bin no event\b|\b(?:prohibited|restricted|precluded|barred)\s+from\b", _I)


# Words that may stand between a modal and its verb without starting a clause of their own
# ("shall have the right, at its option, to terminate"); any other word ("shall make records available
# for audit by Cisco") means the verb belongs to someone else, and the subject is not read.
_GAP_WORDS = set("""not also only immediately thereupon then further hereby have has the a an sole right rights option
be entitled permitted authorized authorised free able to in its their discretion at any time and is are without cause
upon written notice prior days day months exclusive obligation agree agrees undertake undertakes required elect
hereunder independently thereafter thereof or unilaterally absolute reasonable first directly indirectly either
whether alone jointly with others through third party parties power authority site onsite physically""".split()) | {
    # "Anixa will promptly assign to OntoChem": how soon, not another clause
    "promptly", "forthwith", "diligently", "timely", "duly", "irrevocably", "automatically", "hereafter",
    # "Conformis shall be prohibited from developing": the restriction is the modal's own verb
    "prohibited", "restricted", "precluded", "barred", "from"}


def _gap_ok(gap: str) -> bool:
    bare = re.sub(r",[^,;.]{0,120},|\([^()]{0,120}\)|\d+", " ", gap)
    return all(w.lower() in _GAP_WORDS for w in re.findall(r"[A-Za-z]+", bare))


_MANNER = re.compile(r",\s*(?:not\s+to\s+be\s+unreasonably\s+(?:exercised|withheld|delayed)|acting\s+reasonably|"
                     r"in\s+(?:its|their)\s+(?:sole\s+|absolute\s+)?discretion)\s*,", re.I)


_CONSENT_MANNER = re.compile(r"(?<=,)\s*which\s+consent\s+(?:will|shall|may)\s+not\s+be\s+unreasonably\s+(?:withheld|delayed|conditioned)"
                             r"(?:\s*,?\s*(?:or|and)\s+(?:withheld|delayed|conditioned))*\s*(?=,)", re.I)


def anchor(c: Ctx, verb: str, max_gap: int = 130) -> tuple[Mention | None, bool, int, str] | None:
    """The first '<modal> ... <verb>' (active) or '<modal> be <verb>ed by <actor>' (passive) in the quote.

    Returns (actor or None, negated, position, verb as written); the gap may not cross a sentence break,
    another modal or party, or any word outside _GAP_WORDS, so a verb is never given another clause's subject.
    """
    q = c.quote
    for m in re.finditer(r"\b" + _MODAL + r"\b", q, _I):
        rest = q[m.end():m.end() + max_gap]
        v = re.search(r"\b(?:" + verb + r")", rest, _I)
        if not v:
            continue
        # "the written consent of KI, Inc., be assigned": a company's "Inc." ends no sentence and opens no aside
        gap = re.sub(r"\b(Inc|Corp|Co|Ltd)\.", r"\1 ", rest[:v.start()])  # same length: positions still hold
        # "shall have the right, not to be unreasonably exercised, to terminate": how the right is used, not a "not"
        gap = _MANNER.sub(lambda a: " " * len(a.group(0)), gap)
        # "without the prior written consent of Owner, which consent will not be unreasonably withheld or delayed,": how
        # the consent is given, an aside of the aside; its commas stay, so the consent aside still closes
        gap = _CONSENT_MANNER.sub(lambda a: " " * len(a.group(0)), gap)
        # a party named inside an aside about its consent ("Calm may, without the prior written consent of XSPA,
        # assign") is not the verb's subject and does not cut the modal from its verb; any other aside naming a
        # party still does ("Vendor shall, upon AT&T's request and at AT&T's expense, conduct the audit ... on
        # behalf of AT&T" is no audit of AT&T)
        asides = [(m.end() + a.start(), m.end() + a.end()) for a in re.finditer(r",[^,;.]{0,120},", gap)
                  if re.search(r"\b(?:consent|approval)\b", a.group(0), _I)]
        # "neither party may, or shall have the power to, assign": the aside's own modal is no other clause
        bare = re.sub(r",[^,;.]{0,120},", lambda a: " " * len(a.group(0)), gap)
        if re.search(r"[.;:]|\b(may|shall|will|must|if|unless|provided)\b", bare, _I) or any(
                m.end() <= x.start < m.end() + v.start() and not any(s <= x.start < e for s, e in asides) for x in c.ms):
            continue
        sentence = q[max(0, m.start() - 200):m.start()].split(". ")[-1]
        before_neg = bool(re.search(r"\bin no event\s*$|\bneither\b[^.;]*$", sentence, _I))
        # "shall not, without the written consent of KI, Inc., be assigned ... by Diplomat": the aside about consent
        # stands between the modal and its passive
        # "may be revoked or terminated by the Adviser": a first participle joined to the verb's
        passive = re.match(r"\s*(not\s*)?(only\s+)?be\s+(?:[a-z]+ed\s+(?:or|and/or)\s+)?$", re.sub(r",[^;.]{0,120},", " ", gap) + " ", _I) or (
            re.search(r"(assign|transfer)able$", v.group(0), _I) is not None and re.fullmatch(r"\s*(not\s+)?(freely\s+)?", gap, _I))
        neg = bool(_NEG.search(m.group(0) + gap))
        if passive:
            after = m.end() + v.end()
            # "may not be assigned, in whole or in part, by operation of law or otherwise, by a Party"
            bys = [after + b.start() for b in re.finditer(r"\bby\s+", q[after:after + 160], _I)
                   if not re.search(r"[.;]", q[after:after + b.start()])]
            who = next((w for w in (mention_at(q, b, c.ms, slack=8) for b in bys) if w is not None), None)
            return who, neg or (before_neg and (who is None or who.actor != "neither party")), m.start(), v.group(0)
        if not _gap_ok(gap):
            continue
        who = subject_before(q, m.start(), c.ms)
        return who, neg or (before_neg and (who is None or who.actor != "neither party")), m.start(), v.group(0)
    return None


def actor_of(who: Mention | None, c: Ctx, neg: bool) -> tuple[str, bool]:
    """(actor, negated) with "neither party" folded into "either party" + a negative action."""
    if who is None:
        return "", neg
    if who.actor == "neither party":
        return "either party", True
    if who.party >= 0 and re.search(r"\bon the one hand\b", c.quote[max(0, who.start - 120):who.start], _I):
        return "either party", neg  # "X, on the one hand, and Y, on the other, may terminate"
    if who.actor == "other party":
        # "If a party undergoes a change of control, the other party may terminate": a mutual right.
        mutual = re.search(r"\b(either|a|each|any)\s+party\b", c.quote[:who.start], _I)
        return ("either party" if mutual else ""), neg
    return who.actor, neg


def consent_of(c: Ctx, actor: str, at: int = 0) -> str:
    """Whose consent the sentence at `at` asks for: a party, 'the other party', or ''.

    Only that sentence: the next one may give another party's consent to another transfer.
    """
    q = c.quote
    lo = q.rfind(". ", 0, at) + 1 if at else 0
    hi = q.find(". ", at)
    hi = len(q) if hi < 0 else hi + 1
    part = q[lo:hi]
    m = re.search(r"\b(consent|approval|agreement|permission)\s+(in writing\s+)?of\s+", part, _I)
    if m:
        who = mention_at(q, lo + m.end(), c.ms, slack=6)
        if who is not None:
            return "the other party" if who.actor in ("other party", "either party") else who.actor
    for who in c.ms:
        if lo <= who.start < hi and re.match(r"(?:'s|’s|’|')\s+(?:\w+\s+){0,4}(consent|approval|permission)", q[who.end:hi], _I):
            return "the other party" if who.actor == "other party" else who.actor if who.party >= 0 else ""
    if re.search(r"\bother part(y|ies)('s|’s)?\b[^.;]{0,40}\b(consent|approval)|\b(consent|approval)\b[^.;]{0,40}\bother part", part, _I):
        return "the other party"
    return ""


CONTROL = re.compile(r"change (of|in) (the )?control|change[- ]of[- ]control|change (in|of) (the )?ownership|"
                      r"\bmerge[rsd]?\b|\bconsolidat\w+|\bacqui(re[sd]?|sition)\b|(sale|transfer) of (all or )?substantially all|"
                      r"(majority|fifty percent|50%)[^.;]{0,60}(voting|equity|securities|shares|stock)", _I)


def _whose(c: Ctx, m: re.Match) -> Mention | None:
    """The party whose control changes: 'of Distributor', 'Distributor undergoes / is acquired', "Distributor's"."""
    q = c.quote
    for x in c.ms:
        if m.end() <= x.start <= m.end() + 80 and re.fullmatch(
                r"\s*((of|in|by|with respect to)\s+)?(the\s+)?((outstanding\s+)?(voting\s+)?"
                r"(stock|securities|shares|equity|assets|ownership|interest)s?\s+of\s+)?", q[m.end():x.start], _I):
            return x
        if m.start() - 60 <= x.end <= m.start() and re.fullmatch(
                r"(?:'s|’s)?\s*(undergoes|experiences|is subject to|has|effects|suffers|is|becomes subject to)?\s*(a|an|any)?\s*",
                q[x.end:m.start()], _I):
            return x
    return None


def control_trigger(c: Ctx) -> str:
    """'a change of control of Distributor', 'a change of control of either party', or 'a change of control'."""
    found = list(CONTROL.finditer(c.quote))
    if not found:
        return ""

    def kind(m: re.Match) -> str:
        w = m.group(0).lower()
        return ("a merger" if w.startswith(("merge", "consolidat")) else "a sale of substantially all assets"
                if "substantially all" in w else "a change of control")

    # A clause that names a change of control is about one, even where it lists a merger first.
    order = sorted(found, key=lambda m: (kind(m) != "a change of control", m.start()))
    whose = next((w for w in (_whose(c, m) for m in found) if w is not None), None)
    head = kind(order[0])
    if whose is None:
        return head
    if whose.actor in ("either party", "each party", "neither party"):
        return f"{head} of either party"
    if whose.actor == "other party":
        return f"{head} of the other party"
    return f"{head} of {whose.actor}"


def grant(c: Ctx, verbs: str) -> tuple[Mention | None, Mention | None, int]:
    """(grantor, grantee, end of verb) for 'X (hereby) grants (to) Y ...'."""
    q = c.quote
    for m in re.finditer(r"\b(" + verbs + r")\b", q, _I):
        grantor = subject_before(q, m.start(), c.ms)
        grantee = mention_at(q, m.end(), c.ms, slack=10)
        if grantor or grantee:
            return grantor, grantee, m.end()
    return None, None, -1


def subject_of(c: Ctx, verb: str) -> tuple[str, bool, Mention | None]:
    a = anchor(c, verb)
    if a is None:
        return "", False, None
    who, neg = actor_of(a[0], c, a[1])
    return who, neg, a[0]


def party_counter(c: Ctx, m: Mention | None) -> str:
    o = other_party(c.ms, m, c.quote)
    return o.actor if o else ""


def plain(text: str, c: Ctx) -> str:
    """A carve-out in lower case, party names as defined, 'Section 7' as '§ 7'; '' if it still reads as a heading."""
    words = " ".join(text.split())
    terms = sorted(c.idx.terms, key=lambda t: -len(t[0]))
    keep: dict[str, str] = {}
    for k, (t, i) in enumerate(terms):
        for form in {t, t.upper()}:
            if re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", words):
                ph = f"\x00{k}\x00"
                words = re.sub(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", ph, words)
                keep[ph] = c.idx.displays[i]
    words = re.sub(r"\b(sections?|articles?)\s+(\d[\w.()]*)", lambda m: "§ " + m.group(2), words, flags=_I).lower()
    words = re.sub(r"\ba party'?s\b", "a party's", words)
    # "Exhibit C", "Schedule 2": where in the agreement, written as the agreement writes its parts
    words = re.sub(r"\b(exhibit|schedule|appendix|annex|attachment)\s+([a-z0-9][\w.-]*)\b",
                   lambda m: m.group(1).capitalize() + " " + m.group(2).upper(), words)
    for ph, disp in keep.items():
        words = words.replace(ph, disp)
    return words.strip(" ,")


def _both(c: Ctx, start: int) -> bool:
    """Two parties named together bind "each party": where they are the agreement's only two, or the clause says
    "Each of SMBC/Nikko and Moelis Holdings"."""
    return len(c.idx.displays) == 2 or bool(re.search(r"\b(?:each\s+of|both(?:\s+of)?)\s+(?:the\s+)?$", c.quote[max(0, start - 20):start], _I))


def bound_party(c: Ctx, verbs: str) -> tuple[str, bool, Mention | None]:
    """subject_of, or where asides stand between modal and verb ("shall not now or in the future contest",
    "agrees that it will not ... attack"): the last party named before the modal in the same sentence."""
    who, neg, m = subject_of(c, verbs)
    q = c.quote
    if who and m is not None:
        prev = [x for x in c.ms if x.end <= m.start and x.party >= 0 and x.party != m.party]
        if prev and re.fullmatch(r"\W*(?:and|&)\W*", q[prev[-1].end:m.start], _I):
            # "Each of GSK and Theravance shall keep ...": both are bound, and "each party" says so where they are
            # the only two; of three parties ("EHS and EHN shall have the exclusive rights") it would bind the third
            return ("each party" if _both(c, prev[-1].start) else ""), neg, None
    if who:
        return who, neg, m
    for v in re.finditer(r"\b(?:" + verbs + r")", q, _I):
        start = max(q.rfind(". ", 0, v.start()), q.rfind(";", 0, v.start()), v.start() - 160)
        before = [x for x in c.ms if start <= x.start and x.end <= v.start()]
        if not before or q[before[-1].end:before[-1].end + 1] in ("'", "\u2019"):
            continue
        m = before[-1]
        # "Vyera shall continue to purchase Licensed Product from CytoDyn ... and shall pay CytoDyn": the second verb
        # shares the first one's subject; the party after "from" is an object
        if re.search(r"\b(?:from|to|with|by|of|for|against)\s+(?:the\s+)?$", q[max(0, m.start - 20):m.start], _I) and \
                re.fullmatch(r"[^.;]*\band\s+(?:shall|will|must)\s+", q[m.end:v.start()], _I):
            first = re.search(r"\b(?:shall|will|must)\b", q[start:v.start()], _I)
            lead = [x for x in before if first and x.end <= start + first.start()]
            if lead:
                m = lead[-1]
        # "Excite may, upon no less than thirty (30) days prior written notice to Client, cause an accountant to
        # inspect": the aside between commas names another party; the subject is the one before the modal
        aside = next((x for x in reversed(before) if x.party >= 0 and re.fullmatch(
            r"\s+(?:shall|will|may|must)\s*,[^.;]{0,160},\s*", q[x.end:v.start()], _I)), None)
        if aside is not None and q[aside.end:aside.end + 1] not in ("'", "\u2019"):
            return actor_of(aside, c, False)[0], False, aside
        named = [x for x in before if x.party >= 0]
        if len({x.party for x in named}) >= 2 and named[-2].party != named[-1].party and re.fullmatch(
                r"\W*(?:and|or|&)\W*", q[named[-2].end:named[-1].start], _I):
            # ("supply to CUTANEA, and CUTANEA agrees": one party, named twice, is no pair)
            # "Each of GSK and Theravance shall keep ...": both are bound (of two parties only, as above)
            return ("each party" if _both(c, named[-2].start) else ""), False, None
        between = q[m.end:v.start()]
        # "Carrier may accept photocopies ... if the claimant agrees to indemnify": a clause of its own, with its own
        # subject, stands between the party and the verb
        if re.search(r"\b(?:if|unless|provided\s+that|when|where)\s+(?:the|a|an|any|such)\s+[a-z]\w*\s+"
                     r"(?:shall|will|may|must|agrees?|undertakes?)\b", re.sub(r",[^,;.]{0,120},", " ", between)):
            continue
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


def simple_reader(verb: str, pos: str, negative: str, consequence: str, need_neg: bool | None = None) -> Callable:
    """A reader for clauses that bind one party to do (pos) or not do (negative) something."""
    def read(c: Ctx, r: ClauseReading) -> None:
        who, neg, m = bound_party(c, verb)
        if need_neg is not None and neg != need_neg:
            who = ""
        r.actor = who
        r.action = (negative if neg else pos) if who else ""
        r.counterparty = party_counter(c, m)
        r.consequence = consequence
        r.notice = notice_of(c.quote) if "notice" in consequence or "audit" in consequence else ""
    return read
