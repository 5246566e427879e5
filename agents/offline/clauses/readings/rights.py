"""Readings of the clauses that grant or restrict rights: licences, exclusivity, IP ownership, most favoured
nation, first refusal, third-party beneficiaries, non-disparagement, covenants not to sue."""

from __future__ import annotations

import re
from typing import Callable

from agents.offline.clauses.clause_grammar import (
    Ctx, actor_of, anchor, bound_party, grant, party_counter, plain, simple_reader, subject_of,
)
from agents.offline.clauses.clause_parts import ClauseReading, Mention, mention_at, mentions, other_party, subject_before
from agents.offline.clauses.carve_out import FREES
from agents.offline.units import reading_text

_I = re.IGNORECASE


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
    # a "not" or a modal speaks of the grant only between the grantor and its verb ("For Loaned Programs which are not
    # subject to ... license agreement, IBM grants MSL a license" is a grant); a condition or a negotiation anywhere before
    near = c.quote[grantor.start:max(0, end)] if grantor is not None and grantor.start >= max(0, end - 160) else before
    if (re.search(r"\b(negotiate|option|obligation|if|unless)\b", before, _I) or re.search(r"\b(not|no|nothing|may|will|shall)\b", near, _I)) \
            and not re.search(r"\bhereby\s+\w*\s*(grants?|licen[cs]es)\s*$|\b(shall|will)\s+(and\s+hereby\s+does\s+)?grant\s*$", before, _I):
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


_SOLE = r"(?:sole\s+and\s+exclusive|exclusive|sole)"


_ROLE = (r"(?:provider|supplier|partner|source|distributor|agent|reseller|licensee|vendor|manufacturer|representative"
         r"|sponsor|processor|marketer|publisher|broker)s?")


_ROLE_PHRASE = _ROLE + r"(?:\s*/\s*" + _ROLE + r")?"


def _ending_at(c: Ctx, pos: int) -> Mention | None:
    """The party named just before `pos` (only spaces and commas between)."""
    before = [m for m in c.ms if m.end <= pos and m.party >= 0]
    return before[-1] if before and re.fullmatch(r"[\s,]*", c.quote[before[-1].end:pos]) else None


def _exclusive_role(c: Ctx, r: ClauseReading) -> bool:
    """'Metavante shall be Customer's sole and exclusive provider of ...', 'Channel Partner accepts iPass as the
    exclusive provider to Channel Partner', 'Agent, as the exclusive agent for Merchant, ...': one party is the
    other's exclusive provider (or agent, partner, ...). Read as the obligation it puts on the other: the
    customer 'must use' that party for what the clause covers."""
    q = c.quote
    leads = (r"\s+(?:shall|will)\s+(?:(?!not\b|never\b)\w+\s+)?(?:be|become|act\s+as|serve\s+as)\s+(?:the\s+)?",
             r",\s+as\s+(?:the\s+)?")
    for lead in leads:
        for m in re.finditer(lead + r"(?:(?P<whose>[^\s,;'\u2019]+(?:\s+[A-Z][\w.&-]*){0,3})['\u2019]s?\s+)?" + _SOLE
                             + r"\s+(?P<role>" + _ROLE_PHRASE + r")\b(?:\s+(?:to|for|of)\s+)?", q):
            provider = _ending_at(c, m.start())
            if provider is None:
                continue
            user = mention_at(q, m.start("whose"), c.ms, slack=4) if m.group("whose") else mention_at(q, m.end(), c.ms, slack=6)
            if user is None or user.party < 0 or user.party == provider.party:
                continue
            r.actor, r.action, r.counterparty = user.actor, "must use the other exclusively", provider.actor
            r.detail = " ".join(m.group("role").lower().split())
            return True
    # an appointment ("appoints Distributor as its exclusive distributor") is read as the appointee's exclusive
    # right, by the grant reading below
    for m in re.finditer(r"\b(?:accepts?|engages?|retains?|selects?)\s+", q):
        user = subject_before(q, m.start(), c.ms) or _ending_at(c, m.start())
        provider = mention_at(q, m.end(), c.ms, slack=4)
        rest = re.match(r"\s+as\s+(?:its|their|the)\s+" + _SOLE + r"\s+(?P<role>" + _ROLE_PHRASE + r")\b",
                        q[provider.end:] if provider else "")
        if user is None or provider is None or rest is None or user.party < 0 or provider.party < 0 or user.party == provider.party:
            continue
        r.actor, r.action, r.counterparty = user.actor, "must use the other exclusively", provider.actor
        r.detail = " ".join(rest.group("role").lower().split())
        return True
    return False


# a requirements contract: what the buyer must take all of from the other party
REQUIREMENTS = re.compile(r"\b(?:purchase|buy|obtain|source|order)\s+(?:all|one\s+hundred\s+percent\s+\(100%\)|100%)\s+(?:of\s+)?"
                           r"(?:its|their)\s+(?:\w+\s+)?requirements\s+(?:for\s+(?:the\s+)?(?:supply\s+of\s+)?|of\s+)"
                           r"([^,;:.()]{2,60}?)\s+(?:exclusively\s+)?from\b"
                           # "will purchase exclusively from Supplier, all of its requirements of the Products"
                           r"|\b(?:purchase|buy|obtain|source|order)\s+exclusively\s+from\s+[^,;:.()]{1,60}?,?\s+(?:all|100%)\s+"
                           r"(?:of\s+)?(?:its|their)\s+(?:\w+\s+)?requirements\s+(?:for|of)\s+([^,;:.()]{2,60}?)"
                           r"(?=\s+(?:as|in|during|under|set)\b|\s*[,;:.(]|$)", _I)

# "Zogenix hereby appoints Distributor, and Distributor accepts appointment, as the exclusive distributor",
# "appoints Sekisui, and Sekisui accepts the appointment to act on an exclusive basis ..., as a distributor": the
# acceptance between the appointment and its role is an aside
_APPOINTS = re.compile(r"\bappoints?\s+(?=\S)(?P<who>[^,;.]{1,60}?)(?:,?\s*and\s+[^,;.]{1,60}?\s+(?:hereby\s+)?accepts?\s+"
                       r"(?:such\s+|the\s+)?appointment(?P<basis>[^,;.]{0,120})?,)?\s*(?:\([^()]{0,40}\)\s*)?as\s+(?:the|its|an?)\s+"
                       r"(?P<excl>" + _SOLE + r"\s+)?(?P<role>" + _ROLE + r")\b", _I)


def _appointed(c: Ctx, r: ClauseReading) -> bool:
    m = _APPOINTS.search(c.quote)
    if m is None or not (m.group("excl") or re.search(r"\bexclusive\s+basis\b", m.group("basis") or "", _I)):
        return False
    who = mention_at(c.quote, m.start("who"), c.ms, slack=4)
    if who is None or who.party < 0:
        return False
    # the appointer: the sentence's first other party ("ARGO agreed to appoint YEC", "HPS agrees to outsource to SHPS,
    # and hereby appoints SHPS")
    opens = max(c.quote.rfind(". ", 0, m.start()), c.quote.rfind(";", 0, m.start())) + 1
    by = next((x for x in c.ms if opens <= x.start and x.end <= m.start() and x.party >= 0 and x.party != who.party), None)
    r.actor, r.action, r.detail = who.actor, "is the exclusive", " ".join(m.group("role").lower().split())
    r.counterparty = by.actor if by is not None and by.party >= 0 and by.party != who.party else ""
    return True


def _exclusivity(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "exclusive dealing"
    if _exclusive_role(c, r) or _appointed(c, r):
        return
    # "the license granted to IntriCon under this Agreement will, subject to ..., be exclusive for Hearing Aids": the
    # licensee holds the exclusivity; it is bound to nothing
    lic = re.search(r"\blicen[cs]es?\s+granted\s+to\s+", q, _I)
    holder = mention_at(q, lic.end(), c.ms, slack=4) if lic else None
    if holder is not None and holder.party >= 0 and re.match(r"[^.;]{0,200}?\b(?:shall|will)\b[^.;]{0,120}?\b(?:be|become)\s+exclusive\b",
                                                              q[holder.end:], _I):
        r.actor, r.action = holder.actor, "has an exclusive licence"
        other = other_party(c.ms, holder)
        r.counterparty = other.actor if other is not None else ""
        return
    if REQUIREMENTS.search(q):
        # "Supplier agrees that it will, on a non-exclusive basis (but exclusive for ...), supply to CUTANEA, and CUTANEA
        # agrees that it will purchase exclusively from Supplier, all of its requirements": the buyer is bound
        who, neg, m = bound_party(c, r"(?:purchase|buy|obtain|source|order)\s+(?:exclusively|all\b|one\s+hundred|100%)")
        if who and not neg:
            r.actor, r.action, r.counterparty = who, "must deal exclusively", party_counter(c, m)
            return
    # "as a non-exclusive reseller": the word inside "non-exclusive" says the opposite
    who, neg, m = bound_party(c, r"have the exclusive|be the exclusive|(?<!non-)(?<!non)exclusive(ly)?\b|purchase all|buy all")
    if who and not neg:
        r.actor, r.action = who, "has exclusive rights" if re.search(r"exclusive right", q, _I) else "must deal exclusively"
        r.counterparty = party_counter(c, m)
        r.detail = _exclusive_to(q) if r.action == "has exclusive rights" else ""
        return
    who, neg, m = bound_party(c, r"purchase|buy|sell|distribute|market|promote|deal|engage|enter into|appoint|license|"
                                 r"grant|use|obtain|source|advertis\w*|contract|commit|develop|manufacture|supply|offer|provide")
    # "will become exclusive to Investor for a perpetual term, shall not be subject to a licensing fee": a party
    # after a preposition is what the clause gives something to, not who may not deal
    after_preposition = m is not None and re.search(r"\b(?:to|for|by|with|of|from|upon)\s+(?:the\s+)?$",
                                                   q[max(0, m.start - 20):m.start], _I)
    if who and neg and not after_preposition:
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
    # "the exclusive right to", "the exclusive, non-transferable right and license to"
    m = re.search(r"\bexclusive(?:,\s*[a-z][\w -]{0,30}?)?\s+rights?(?:\s+and\s+licen[cs]es?)?\s+to\s+((?:[a-z]+,?\s+){1,8})",
                  reading_text(q))
    if m is None:
        return ""
    # "the exclusive right to implement, and subject to Section 5.5, final decision-making authority": an aside
    # that opens with a comma ends the verbs
    verbs = re.split(r",\s*(?:and\s+|or\s+)?(?:subject|pursuant|provided|except|in\s+accordance|as|with|without)\b", m.group(1))[0]
    words = verbs.split()  # with their commas: "use, reproduce, modify, distribute and sublicense"
    after = ""
    while words and words[-1].strip(",") in _TRAILING:
        after = words.pop()
    if after in ("for", "on", "of", "in", "from", "with", "at", "by"):
        return ""  # "the exclusive right to commission for any Registered Referrals": a noun, not a verb
    if words:
        words[-1] = words[-1].strip(",")
    return " ".join(words) if 0 < len(words) <= 6 and words[0].strip(",") not in _TRAILING else ""


def _ip(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "ip ownership"
    if re.search(r"\bjoint(ly)?\b[^.;]{0,60}\bown|\bco-?own|\bowned\s+jointly\b|\bheld\s+jointly\b|\bundivided\b[^.;]{0,30}\binterest\b", q, _I):
        r.action, r.consequence = "jointly own", "joint ownership"  # before any 'owned by X': 'owned by X and Y'
        # "where made solely by MD Anderson ..., such Inventions will be solely owned by MD Anderson; where made
        # jointly ..., jointly owned": ownership follows who made it
        sole = {m.actor for m in (mention_at(q, x.end(), c.ms, slack=4) for x in re.finditer(
            r"\b(?:made|conceived|developed|invented|created|generated)\s+(?:solely|exclusively|independently)\s+by\s+", q, _I))
            if m is not None and m.party >= 0}
        if sole and re.search(r"\b(?:made|conceived|developed|invented|created|generated)\s+jointly\b|\bjointly\s+(?:made|conceived|"
                              r"developed|invented|created|generated)\b", q, _I):
            r.detail = "by inventorship"
            r.actor = next(iter(sole)) if len(sole) == 1 else "each party"
        return
    a = anchor(c, r"(irrevocably\s+)?assigns?\b")
    # "KI, Inc. may assign its rights hereunder, but shall furnish written notice of such assignment to Diplomat": a
    # permission to assign the agreement, whose "to" names who is told, is no assignment of intellectual property
    if a is not None and re.match(r"(?:may|can|might)\b", q[a[2]:], _I):
        a = None
    if a is not None and not a[1]:
        span = re.split(r"[.;]", q[a[2]:a[2] + 250])[0]
        grantee = next((g for g in (mention_at(q, a[2] + t.end(), c.ms, slack=4) for t in re.finditer(r"\bto\s+", span, _I))
                        if g is not None), None)
        if grantee is not None and grantee.party >= 0:
            r.actor = actor_of(a[0], c, False)[0] if a[0] is not None and a[0].party != grantee.party else ""
            r.action, r.counterparty, r.consequence = "assigns its rights", grantee.actor, "ip assigned"
            # "Anixa will promptly assign to OntoChem ...": a duty to assign later, not an assignment made now
            if re.match(r"(?:shall|will|must|agrees?\s+to|undertakes?\s+to|covenants?\s+to)\b", q[a[2]:], _I) and \
                    not re.search(r"\bhereby\s+(?:\w+\s+){0,2}assign|\bhereby\s+(?:does|do)\b", q, _I):  # "shall assign ... and hereby assigns": both
                r.detail = "must assign"
            return
    m = re.search(r"(property of|vest(s|ed)? (solely )?in|owned (solely |exclusively )?by)\s+", q, _I)
    if m:
        who = mention_at(q, m.end(), c.ms, slack=4)
        if who is not None and who.party >= 0 and not re.match(r"\s*(and|or)\b", q[who.end:], _I):
            r.actor, r.action = who.actor, "owns"
            return
    # "such Product Collateral IP shall be deemed "works made for hire" for Calm": Calm owns it from the start
    hire = re.search(r"\bworks?\s+made\s+for\s+hire[\"\u201d]?\s+(?:for|of|by|on\s+behalf\s+of)\s+", q, _I)
    who_m = mention_at(q, hire.end(), c.ms, slack=4) if hire else None
    if who_m is not None and who_m.party >= 0:
        thing = re.search(r"((?:such|the|all|any)\s+[^,;.()]{2,50}?)\s*(?:\([^()]{0,40}\)\s*)?(?:shall|will)\s+(?:be\s+)?(?:deemed|considered)\s+"
                          r"(?:to\s+be\s+)?(?:a\s+)?[\"\u201c]?works?\s+made\s+for\s+hire", q[:hire.end()], _I)
        r.actor, r.action, r.detail = who_m.actor, "owns", "as works made for hire"
        r.amount = re.sub(r"^such\s+", "the ", thing.group(1), flags=_I) if thing else ""
        return
    who, neg, _ = subject_of(c, r"be the (sole (and exclusive )?|exclusive )?owner|(solely |exclusively )?own\b|retain\w*")
    if who and not neg:
        r.actor, r.action = who, "owns"


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


# "the Licensor shall grant to the Licensee a six month option (the "Option") to purchase up to 3,333,333 shares of
# its common stock", "the Option pursuant to which Investor will be entitled to purchase common shares of Company":
# what the option buys, up to where the clause goes on to its price, period or conditions
_OPTION = re.compile(r"\boption\b[^.;]{0,120}?\b(?:entitled\s+to|to)\s+(?P<verb>purchase|acquire|buy|subscribe\s+for)\s+"
                     r"(?P<what>(?:[^,.;()\[\]]|[,.](?=\d))+?)(?=\s*(?:[,.](?!\d)|[;(]|$)|\s+(?:at|for|on|from|within|during|upon|in\s+accordance|"
                     r"pursuant|subject|provided|until|if|by|as)\b)", _I)


def _option(c: Ctx, r: ClauseReading) -> bool:
    """An option to buy, as the clause gives it: its holder and what it buys. False when either is unclear."""
    q = c.quote
    opt = _OPTION.search(q)
    if not opt:
        return False
    holder, grantor = None, None
    which = re.search(r"\b(?:pursuant\s+to\s+which|under\s+which|whereby)\s+", q[opt.start():opt.end()], _I)
    if which:
        holder = mention_at(q, opt.start() + which.end(), c.ms, slack=4)
    if holder is None:
        grantor, holder, _ = grant(c, r"grants?|issues?")
        if grantor is None and holder is not None:  # "The Licensor shall grant to the Licensee": the modal between
            a = anchor(c, r"grants?|issues?")
            grantor = a[0] if a and not a[1] else None
    who = holder.actor if holder is not None and holder.party >= 0 else ""
    if not who:
        who, neg, _ = subject_of(c, r"(?:the\s+|an?\s+)?(?:[\w-]+\s+){0,2}option")
        who = "" if neg else who
    what = opt.group("what")
    if re.search(r"\bits\b", what, _I):  # "shares of its common stock": the grantor's, which the sentence must name
        if grantor is None or grantor.party < 0:
            return False
        what = re.sub(r"\bits\b", grantor.actor + "'s", what, flags=_I)
    what = plain(what, c)
    if not who or not what or len(what.split()) > 14:
        return False
    r.actor, r.action = who, f"has an option to {opt.group('verb').lower()} {what}"
    return True


def _rofr(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    kind = ("right of first refusal" if re.search(r"first (?:right of )?refusal|\bROFR\b", q, _I)
            else "right of first offer" if re.search(r"first (?:right of )?offer|\bROFO\b", q, _I)
            else "right of first negotiation" if re.search(r"first (negotiation|right to negotiate)|negotiat|\bROFN\b", q, _I)
            else "")
    r.detail, r.consequence = kind, "pre-emption right"
    if not kind and _option(c, r):
        return
    who, neg, _ = subject_of(c, r"(the |a )?(right|option)")
    if not who:
        _, grantee, _ = grant(c, r"grants?")
        who = grantee.actor if grantee and grantee.party >= 0 else ""
    if not who:
        # "SMBC's right of first refusal was not exercised", "Calm shall have thirty (30) business days ... to
        # exercise its ROFR": the holder is the one whose right it is
        held = next((m for m in c.ms if m.party >= 0 and re.match(
            r"['\u2019]s?\s+(?:\w+\s+){0,2}?(?:right of first|ROF[RON]\b)|\s+(?:(?:does|do|shall|will|may)\s+(?:not\s+)?"
            r"|fails?\s+to\s+|elects?\s+(?:not\s+)?to\s+)?exercis\w*\s+(?:its|their)\s+(?:\w+\s+){0,2}?(?:right of first|ROF[RON]\b)",
            q[m.end:], _I)), None)
        if held is None:
            own, neg, _ = bound_party(c, r"exercise (?:its|their) (?:\w+\s+){0,2}?(?:right of first|ROF[RON]\b)")
            who = own
        else:
            who, neg = held.actor, False
    if not who:
        # "Snap shall negotiate in good faith an agreement providing Sponsor with sponsorship rights", "shall first
        # negotiate exclusively with Licensee": the one negotiated with, or provided for, holds the right
        neg_m = re.search(r"\b(?:shall|will|agrees?\s+to)\s+(?:first\s+)?negotiat\w*\b[^.;]{0,100}?\b(?:with|providing|granting|"
                          r"to\s+provide|to\s+grant)\s+(?:exclusively\s+)?", q, _I)
        held = mention_at(q, neg_m.end(), c.ms, slack=4) if neg_m else None
        if held is not None and held.party >= 0:
            who, neg, kind = held.actor, False, "right of first negotiation"
    if who and not neg and kind:
        r.actor, r.action = who, "has a " + kind
    if re.search(r"(sale|sell|transfer|dispos\w+)[^.;]{0,100}(business|assets|shares|stock|equity|interest)", q, _I):
        r.trigger = "a sale of the business or assets"


# "No Third-Party Beneficiaries", "Nothing in this Agreement confers any rights upon any person other than the
# parties", "This Agreement is not for the benefit of any third party": only the parties may enforce it
_NO_BENEFICIARY = re.compile(
    r"\bno\s+(?:intended\s+)?third[- ]party\s+beneficiar|"
    r"\bnot\s+(?:be\s+)?(?:deemed\s+to\s+)?(?:create|confer|give|grant|provide)\w*\b[^.;]{0,80}?\b(?:third[- ]party\s+beneficiar|"
    r"(?:rights?|benefits?|remed\w+)\b[^.;]{0,80}?\b(?:any\s+(?:third\s+party|third\s+parties|other\s+person|person|entity)|"
    r"other\s+than\s+the\s+parties))|"
    r"\bnothing\b[^.;]{0,120}?\b(?:confer|create|give|grant|provide)\w*\b[^.;]{0,120}?\b(?:other\s+than\s+the\s+parties|"
    r"third[- ]party\s+beneficiar|any\s+(?:third\s+party|third\s+parties|other\s+person))|"
    r"\bnot\s+(?:intended\s+)?(?:to\s+be\s+)?for\s+the\s+(?:sole\s+)?benefit\s+of\b[^.;]{0,40}?\b(?:any\s+(?:third|other)|"
    r"third\s+part)|"
    r"\bno\s+(?:other\s+)?(?:person|entity|third\s+party)\b[^.;]{0,80}?\b(?:shall|will|may)\s+(?:have|acquire)\s+any\s+"
    r"(?:rights?|remed\w+|benefits?)", _I)
_EXCEPT_SECTION = re.compile(r"\bexcept\s+(?:as\s+)?(?:(?:expressly|otherwise|specifically)\s+)?(?:provided|set\s+forth|stated)"
                             r"\s+(?:in|under)\s+(?:sections?|articles?|clauses?)\s+(\d[\w.()]*)", _I)


_ROLE_WORDS = {"each", "any", "all", "the", "indemnified", "indemnitee", "indemnitees", "party", "parties", "person",
               "persons", "affiliate", "affiliates", "subsidiary", "subsidiaries", "covered", "released"}


def _beneficiary(c: Ctx, r: ClauseReading) -> None:
    q = c.quote
    r.consequence = "third-party beneficiary"
    # who is named as a beneficiary, as the clause names them ("MS", "the federal government of the United States")
    m = re.search(r"(?:^|[,;:]\s*|(?<=[.])\s+|\band\s+|\bthat\s+)((?:the\s+|each\s+|any\s+|all\s+)?[\w'\u2019&-]+"
                  r"(?:\s+[\w'\u2019&-]+){0,17}?)\s+(is|are|shall\s+be|will\s+be)\s+(?:deemed\s+(?:to\s+be\s+)?)?"
                  r"(?:an?\s+|the\s+)?(?:express(?:ly)?\s+|intended\s+)*third[- ]party\s+beneficiar", q, _I)
    if m and not re.search(r"\b(?:not|no|none)\b", m.group(0), _I):
        words = " ".join(m.group(1).split())
        capitals = {w.lower().strip(",") for w in words.split() if w[:1].isupper()}
        # "Each Indemnified Party": a role the agreement defines, written as a sentence writes it; a name as it stands
        r.detail = plain(words, c) if capitals and capitals <= _ROLE_WORDS else words
        r.action = "are" if m.group(2).lower() == "are" or r.detail.endswith("s") or re.search(r"\band\b", r.detail) else "is"
        return
    if _NO_BENEFICIARY.search(q):
        r.action = "none"
        exc = _EXCEPT_SECTION.search(q)
        r.detail = exc.group(1).rstrip(".") if exc else ""


def _disparage(c: Ctx, r: ClauseReading) -> None:
    r.consequence = "non-disparagement"
    who, neg, m = bound_party(c, r"disparag\w*|make|publish|issue|say|communicate|comment|express|refrain")
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
    # "has not ... encumbered its right ... (including by granting any covenant not to sue with respect thereto)": a
    # covenant granted or not granted to others is the object of a representation, not one the party gives here
    named = re.sub(r"\b(?:grant\w*|enter\w*\s+into|give\w*)\s+(?:any\s+|a\s+|such\s+|no\s+)?covenants?\s+not\s+to\s+sue\b",
                   lambda x: " " * len(x.group(0)), q, flags=_I)
    c = Ctx(named, c.idx, mentions(named, c.idx)) if named != q else c
    who, neg, m = bound_party(c, r"contest|challenge|attack|dispute|oppose|impugn|question|sue|bring|assert|commence|institute|"
                                r"file|initiate|take any action")
    # "the foregoing does not prevent Conformis from granting any ... covenant not to sue": a carve-out, no covenant
    if FREES.search(reading_text(q)):
        return
    if who and neg:
        r.actor, r.counterparty = who, party_counter(c, m)
        r.action = "may not challenge" if challenge and r.trigger else "may not sue"


_KEEPS = simple_reader(r"keep|hold|maintain|treat|disclose|use|protect|safeguard", "must keep confidential information confidential",
                       "may not disclose confidential information", "confidentiality")
# what a confidentiality clause asks besides secrecy: a non-disclosure agreement from those it shares with, access only
# for those who need it, security measures for personal data
_NDA = re.compile(r"\b(?:enter\w*\s+into|sign\w*|execut\w*)\s+(?:a\s+|an\s+)?(?:written\s+)?(?:non-?disclosure|confidentiality)\s+agreement", _I)
_NEED_TO_KNOW = re.compile(r"\brestrict\w*\s+access\b|\bneed\s+(?:for\s+such\s+access|to\s+know)\b", _I)
_MEASURES = re.compile(r"\btechnical\s+and\s+organi[sz]ational\s+(?:security\s+)?measures\b", _I)


def _confidentiality(c: Ctx, r: ClauseReading) -> None:
    _KEEPS(c, r)
    if r.actor and r.action:
        return
    for rx, duty, verbs in ((_MEASURES, "must protect personal data with technical and organisational measures", r"take|implement|maintain|warrants?"),
                            (_NEED_TO_KNOW, "must limit access to confidential information to those who need it", r"restrict|limit"),
                            (_NDA, "must bind those it shares confidential information with by a non-disclosure agreement",
                             r"cause|require|ensure|procure|execute|restrict")):
        if rx.search(c.quote):
            who, neg, m = bound_party(c, verbs)
            r.action, r.detail = "duty", duty
            r.actor = who if who and not neg else ""
            r.counterparty = party_counter(c, m) if r.actor else ""
            return


READERS: dict[str, Callable[[Ctx, ClauseReading], None]] = {
    "confidentiality": _confidentiality,
    "exclusivity": _exclusivity,
    "most_favored_nation": _mfn,
    "rofr_rofo": _rofr,
    "ip_ownership": _ip,
    "license_grant": _licence,
    "third_party_beneficiary": _beneficiary,
    "non_disparagement": _disparage,
    "covenant_not_to_sue": _not_to_sue,
}
