"""Pieces of a clause a summary is built from: who is named, where, the section, notice and amounts.

Parties come from the agreement (its preamble and defined terms) through any
object with `.name`, `.role` and `.aliases`; this module never guesses a party
from a capitalised word, because "Agreement", "Effective Date" or
"Convenience" read like names and are not. Without parties, only "either",
"each" and "neither party" can be named.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol, Sequence

_I = re.IGNORECASE


class PartyLike(Protocol):
    """What a summary needs of a party: its name, its defined term and other names it goes by."""

    name: str
    role: str
    aliases: Sequence[str]


# Defined terms a loose party extraction may return that are never a contracting party.
_NOT_PARTIES = {
    "agreement", "this agreement", "effective date", "convenience", "section", "article", "party", "parties",
    "territory", "products", "product", "services", "term", "affiliate", "affiliates", "schedule", "exhibit",
}

GENERIC = ("either party", "each party")  # actor values that are not a party's own name


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
    where: str = ""         # the part of the document that holds what the clause leaves out ("Exhibit B")
    # what a right reaches where that is less than the agreement ("Development of the Collaboration Product")
    object: str = ""


@dataclass(frozen=True)
class Mention:
    """A place in the quote that names an actor: a party (index into parties) or a generic phrase."""

    start: int
    end: int
    actor: str          # "either party", "each party", "neither party", "other party", or a party's display
    party: int = -1     # index of the party; -1 for generic phrases


@dataclass(frozen=True)
class PartyIndex:
    """Parties as the quote may name them, with the name a summary uses for each."""

    displays: tuple[str, ...]       # per party: its defined term (role) or, without one, its name
    firsts: tuple[str, ...]         # per party: display with the legal name on first mention
    terms: tuple[tuple[str, int], ...]  # (term as written, party index), longest first

    def allowed(self) -> set[str]:
        """Every string a summary may use to name a party."""
        return {t for t, _ in self.terms} | set(self.displays) | set(self.firsts)

    def display_of(self, words: str) -> str:
        """The display name of the party `words` names (a term as written, any case); '' for none."""
        key = " ".join(words.split()).lower()
        return next((self.displays[i] for t, i in self.terms if t.lower() == key), "")


_SUFFIX = re.compile(r",?\s+(?:Inc|Incorporated|LLC|L\.L\.C|Ltd|Limited|Corp|Corporation|Co|LP|L\.P|GmbH|AG|S\.A|N\.V|B\.V|plc)\.?$", _I)
_GENERIC_NAMES = {"company", "corporation", "group", "holdings", "partners", "fund", "trust", "bank", "energy",
                  "international", "services", "systems", "technologies", "industries", "enterprises"}


def _short_name(name: str) -> str:
    """'Axiometric, LLC.' -> 'Axiometric': a party the preamble gave no defined term is called by its name less
    the company suffix in the clauses ("Axiometric shall have the exclusive right"). '' when nothing distinctive
    is left."""
    short = name
    while (cut := _SUFFIX.sub("", short)) != short:
        short = cut.strip(" ,")
    if short == name or len(short) < 4 or short.lower() in _GENERIC_NAMES or not short[0].isupper():
        return ""
    return short


def _lead_acronym(name: str) -> str:
    """'NCC Escrow International Limited' -> 'NCC': a party with no defined term is called by the acronym its name
    opens with ("NCC may terminate this Agreement"); '' when the name does not open with one."""
    m = re.match(r"([A-Z]{2,5})\s+(?=[A-Z][a-z])", name)
    return m.group(1) if m and m.group(1) not in ("US", "USA", "UK", "EU", "THE") else ""


def _words(text: str) -> set[str]:
    """Lower-case words without their punctuation: "Conformis" is a word of "Conformis, Inc."."""
    return set(re.findall(r"\w+", text.lower()))


def index_parties(parties: Sequence[PartyLike]) -> PartyIndex:
    displays, firsts, terms = [], [], []
    for p in parties:
        name = " ".join(str(getattr(p, "name", "") or "").split())
        role = " ".join(str(getattr(p, "role", "") or "").split())
        aliases = [" ".join(str(a).split()) for a in (getattr(p, "aliases", ()) or ())]
        short = _short_name(name) if not role and not aliases else ""
        lead = _lead_acronym(name) if not role and not aliases else ""
        own = [t for t in [role, name, *aliases, short, lead] if t and t.lower() not in _NOT_PARTIES and len(t) > 1]
        # a term defined as ("KI Inc.") is written "KI, Inc." in the clauses: the same party, not "KI" the person
        own += [re.sub(r"^(.+?)\s+(Inc|Corp|Ltd|Co|LLC)\.?$", r"\1, \2.", t) for t in own
                if re.fullmatch(r".+?\s+(?:Inc|Corp|Ltd|Co|LLC)\.?", t) and "," not in t]
        if not own:
            continue
        i = len(displays)
        display = role if role and role.lower() not in _NOT_PARTIES else own[0]
        displays.append(display)
        # "Distributor (XYZ Corp.)" tells the reader who the defined term is; "Cisco (Cisco Systems, Inc.)" does not.
        generic_role = (name and display != name and not _words(display) & _words(name)
                        and len(name) <= 50 and not re.search(r"\d", name))
        firsts.append(f"{display} ({name})" if generic_role else display)
        terms.extend((t, i) for t in own)
    # A term several parties share ("Agent" for two co-agents) names them together, never one of them:
    # it becomes an actor of its own, spelled as the agreement defines it.
    owners: dict[str, set[int]] = {}
    for t, i in terms:
        owners.setdefault(t, set()).add(i)
    unique = [(t, i) for t, i in terms if len(owners[t]) == 1]
    for t in sorted(t for t, who in owners.items() if len(who) > 1):
        unique.append((t, len(displays)))
        displays.append(t)
        firsts.append(t)
    terms = sorted(set(unique), key=lambda t: -len(t[0]))
    return PartyIndex(tuple(displays), tuple(firsts), tuple(terms))


_GENERIC_RE = [
    (re.compile(r"\b(neither|no)\s+(party|parties|of the parties)\b", _I), "neither party"),
    (re.compile(r"\b(either|any|a)\s+(party|of the parties)\b|\beither\s+company\b", _I), "either party"),
    (re.compile(r"\b(each|both)\s+(party|parties|of the parties)\b", _I), "each party"),
    (re.compile(r"\bthe other\s+(party|parties)\b", _I), "other party"),
    # a confidentiality clause's roles when no party is defined by them: either party, in turn
    (re.compile(r"\b(?:the|a|any)\s+(?:receiving|recipient)\s+part(?:y|ies)\b|\bthe\s+Recipient\b|\bRecipient\b(?!['\u2019])", _I),
     "the receiving party"),
]


def mentions(quote: str, idx: PartyIndex) -> list[Mention]:
    """Actor mentions in quote order; a party's term matches as written or in capitals (ALL-CAPS clauses), and a
    term defined in capitals ('BOSCH INTERNATIONAL, LLC ("CLIENT")') also as a clause writes it ("Client")."""
    found: list[Mention] = []
    taken = [False] * len(quote)
    for term, i in idx.terms:
        for form in {term, term.upper(), term.title() if term.isupper() and len(term) > 3 else term}:
            for m in re.finditer(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", quote):
                if not any(taken[m.start():m.end()]):
                    found.append(Mention(m.start(), m.end(), idx.displays[i], i))
                    taken[m.start():m.end()] = [True] * (m.end() - m.start())
    for rx, actor in _GENERIC_RE:
        for m in rx.finditer(quote):
            if not any(taken[m.start():m.end()]):
                found.append(Mention(m.start(), m.end(), actor))
                taken[m.start():m.end()] = [True] * (m.end() - m.start())
    found.sort(key=lambda m: m.start)
    return _neither_nor(quote, found, idx)


def _neither_nor(quote: str, found: list[Mention], idx: PartyIndex) -> list[Mention]:
    # "Neither Distributor nor Cisco shall ..." binds both parties: one "neither party" mention.
    out: list[Mention] = []
    k = 0
    while k < len(found):
        a = found[k]
        b = found[k + 1] if k + 1 < len(found) else None
        pre = quote[max(0, a.start - 9):a.start].lower()
        if (b is not None and a.party >= 0 and b.party >= 0 and a.party != b.party and len(idx.displays) == 2
                and re.search(r"neither\s+$", pre) and re.fullmatch(r"\s+n?or\s+", quote[a.end:b.start], _I)):
            out.append(Mention(a.start - len(pre) + pre.rfind("neither"), b.end, "neither party"))
            k += 2
            continue
        out.append(a)
        k += 1
    return out


# Between a subject and its verb: an aside in commas or brackets, "and its Affiliates", "hereby".
_GAP = re.compile(r"\s*(,[^,;.]{0,90},\s*|\([^()]{0,90}\)\s*|(and|or) (its|their) (affiliates|subsidiaries|representatives?|agents?|auditors?|designees?|nominees?)\s*|hereby\s*|also\s*"
                  r"|(to|of|under) (this|the) agreement\s*|hereto\s*)*", _I)


def subject_before(quote: str, pos: int, ms: list[Mention]) -> Mention | None:
    """The mention that is the grammatical subject of a verb phrase starting at pos, or None."""
    before = [m for m in ms if m.end <= pos]
    if not before:
        return None
    m = before[-1]
    if quote[m.end:m.end + 2] in ("'s", "’s") or quote[m.end:m.end + 1] in ("'", "’"):
        return None  # "Cisco's affiliates may ..." names someone else
    return m if _GAP.fullmatch(quote[m.end:pos]) else None


def mention_at(quote: str, pos: int, ms: list[Mention], slack: int = 12) -> Mention | None:
    """A mention starting at pos (after optional 'to', 'the', 'by' within slack characters), or None."""
    for m in ms:
        if pos <= m.start <= pos + slack and re.fullmatch(r"\s*((to|by|upon|on|for|of|the|and)\s+)*", quote[pos:m.start], _I):
            return m
    return None


def other_party(ms: list[Mention], actor: Mention | None, quote: str = "") -> Mention | None:
    """The one other party named in the quote, when exactly one is; of several (an agreement of four parties), the
    one the actor's indemnity or payment names as its object ("KI, Inc. hereby indemnifies Diplomat ... KI's name"),
    else none. `quote`: the text the mentions are in, needed for the second."""
    if actor is None or actor.party < 0:
        return None
    others = {m.party: m for m in ms if m.party >= 0 and m.party != actor.party}
    if len(others) == 1:
        return next(iter(others.values()))
    if quote:
        after = sorted((m for m in ms if m.party >= 0 and m.party != actor.party and m.start > actor.start), key=lambda m: m.start)
        if after and _OBJECT_VERB.search(quote[max(actor.end, after[0].start - 40):after[0].start]):
            return after[0]
    return None


# the verb whose object the next party named is: "indemnifies Diplomat", "hold harmless Adaptimmune", "pay Cisco"
_OBJECT_VERB = re.compile(r"\b(?:indemnif\w*|harmless|hold|defend|reimburse|compensate|pay)\s+(?:the\s+)?$", re.IGNORECASE)


_SECTION_START = re.compile(
    r"^\W{0,3}(?:(?:section|article|clause|§)\s*(\d+(?:\.\d+)*(?:\([a-z0-9]+\))?)"
    r"|(\d+\.\d+(?:\.\d+)*)(?=[.)]?\s)"          # "18.4 Change of Control"
    r"|(\d{1,2})\.(?=\s+[A-Z]))", _I)               # "14. Assignment"
_SECTION_SELF = re.compile(r"\bthis (?:section|article|clause)\s+(\d+(?:\.\d+)*(?:\([a-z0-9]+\))?)", _I)


def section_of(quote: str) -> str:
    """The section number the quote starts with, or the one it calls 'this Section'; else ''."""
    m = _SECTION_START.match(quote)
    if m:
        return next(g for g in m.groups() if g)
    m = _SECTION_SELF.search(quote)
    return m.group(1) if m else ""


_NUMBERS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "fourteen": 14, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
    "forty-five": 45, "fortyfive": 45, "fifty": 50, "sixty": 60, "seventy-five": 75, "ninety": 90,
    "one hundred twenty": 120, "one hundred eighty": 180, "a": 1, "an": 1,
}
_NUM = r"(?P<word>(?:one hundred )?[a-z]+(?:-[a-z]+)?)?\s*(?:\((?P<par>\d+)\)|(?P<dig>\d+))?"
PERIOD = re.compile(r"\b" + _NUM + r"[\s-]*(?P<unit>(?:calendar |business |working )?(?:day|month|year|week)s?)\b", _I)
# "six (6) months advance written notification" is the same notice
_NOTICE_AFTER = re.compile(r"^(?:'s|’s|'|’)?\s*(?:(?:prior|advance|advanced|previous|written|express)\s+){0,3}notice|"
                           r"^(?:'s|’s|'|’)?\s*(?:(?:prior|advance|advanced|previous|written|express)\s+){1,3}notification\b", _I)
_NOTICE_BEFORE = re.compile(r"notice\s+(?:of\s+)?(?:(?:at least|not less than|no less than|no fewer than|a minimum of)\s+)?$"
                            r"|notice\b[^.;]{0,40}?\bof\s+(?:(?:at least|not less than|no less than)\s+)?$", _I)
# "upon the delivery of written notice" as well as "upon written notice"
_BARE_NOTICE = re.compile(r"\b(?:upon|on|by|with|after|following|giving)\s+(?:\w+\s+){0,3}?(prior\s+)?(written\s+)?notice\b", _I)


def period(m: re.Match) -> str:
    """'30 days' from a matched period ('thirty (30) days'); '' when the number is redacted or unread."""
    n = m.group("par") or m.group("dig")
    if not n:
        n = _NUMBERS.get((m.group("word") or "").lower())
    if not n:
        return ""
    n = int(n)
    unit = m.group("unit").lower()
    unit = unit if unit.endswith("s") else unit + "s"
    return f"1 {unit[:-1]}" if n == 1 else f"{n} {unit}"


def notice_of(text: str) -> str:
    """"30 days' written notice" / "written notice" / '' — the notice a right needs, as stated."""
    for m in PERIOD.finditer(text):
        p = period(m)
        if not p:
            continue
        # the number may start at its word ("thirty (30)") or, after a non-number word ("least 3"), at its digits
        start = m.start() if (m.group("word") or "").lower() in _NUMBERS else m.start("par") if m.group("par") else m.start("dig")
        after = _NOTICE_AFTER.match(text[m.end():])
        if after or _NOTICE_BEFORE.search(text[max(0, start - 50):start]):
            said = after.group(0) if after else text[max(0, start - 50):start]
            written = "written " if "written" in said.lower() else ""
            return f"{p}'s {written}notice" if p.startswith("1 ") else f"{p}' {written}notice"
    m = _BARE_NOTICE.search(text)
    if m and not re.search(r"\bwithout\b", m.group(0), _I):  # "with or without notice" needs none
        return "written notice" if m.group(2) else "notice"
    return ""


# "$5m", "$2.5 bn": a figure's short scale is part of it ("capped at $5" of "$5m" would misstate the cap a millionfold)
MONEY = re.compile(r"(?:US\s?\$|USD\s?|U\.S\.\s?\$|\$|EUR\s?|€|£|GBP\s?)\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|thousand)|(?-i:m|mm|bn|k)\b)?"
                    r"|\b\d[\d,]*(?:\.\d+)?\s?(?:million\s)?(?:US\s)?(?:dollars|euros)\b", _I)
_FEES = re.compile(r"\b(fees|amounts?|sums|charges|price|compensation|royalties)\b[^.;]{0,80}?\b(paid|payable)\b[^.;]{0,120}", _I)


def amount_of(text: str) -> str:
    """A money figure ('$2,500,000') or a fee basis ('the fees paid in the prior 12 months'); else ''."""
    m = MONEY.search(text)
    if m and re.search(r"\d", m.group(0)):
        return " ".join(m.group(0).split()).rstrip(".,")
    f = _FEES.search(text)
    if f and not re.search(r"insurance|coverage", f.group(0), _I):
        basis = f"the {f.group(1).lower()} paid or payable under the agreement"
        months = next((period(p) for p in PERIOD.finditer(f.group(0)) if period(p) and "month" in period(p)), "")
        return basis + (f" in the prior {months}" if months else "")
    return ""


# "Any change of control resulting from any such bankruptcy proceeding shall be subject to the rights and licenses
# granted in this IP Agreement": the grants survive the change of control; nothing needs consent
LICENCES_SURVIVE = re.compile(r"change (?:of|in) control[^.;]{0,120}?\b(?:shall|will)\s+(?:be\s+subject\s+to|not\s+(?:affect|impair|"
                              r"terminate|limit))\b[^.;]{0,60}?\b(?:rights|licen[cs]es)\b", re.I)

# "<the rights | this Agreement> ... are not (freely) sublicenseable, transferable or assignable": a bar with no
# consent route; a filing's page footer may stand inside the list
NOT_TRANSFERABLE = re.compile(r"\b((?:rights?|licen[cs]es?|agreement)\b[^.;]{0,120}?)\b(?:is|are|shall\s+be)\s+not\s+"
                              r"(?:freely\s+)?[^.;]{0,90}?\b(?:assignable|transferr?able)\b"
                              r"(?:,?\s*(?:or|and|nor)?\s*(?:sub-?licen[cs]e?able|transferr?able|assignable)\b)*", re.I)


# -- a restriction's carve-out for a sale of the business ("except that either Party may, without consent,
# assign ... to a Third Party in connection with the sale of all or substantially all of its business, whether
# by Change of Control, merger ..."): the deal then needs no consent under it, only its conditions met
OPENS_RESTRICTION = re.compile(r"\bexcept as (?:otherwise |expressly )*(?:provided|set forth|permitted)[^,.;]{0,60},", _I)
_EXCEPTION = re.compile(r"\b(?:except|excepting|provided,? however|provided that|notwithstanding|save that)\b", _I)
_PERMITS = re.compile(r"\b(?:may|shall be (?:permitted|entitled|free)|(?:is|are|be) (?:permitted|entitled|free)|"
                      r"(?:has|have|retains?) the right)\b[^.;]{0,160}?\b(?:assign|transfer)|"
                      r"\bwithout (?:any )?(?:need|necessity|requirement)\b|"
                      # "except that no such consent will be required in connection with (i) a merger"
                      r"\bno (?:such )?(?:consent|approval) (?:will|shall) be (?:required|necessary|needed)\b", _I)
_TO_A_BUYER = re.compile(r"^\W*(?:that\s+)?(?:(?:an?|any) (?:assignment|transfer)\s+)?(?:to|in connection with|by way of|"
                         r"pursuant to|as part of|in the event of|upon|on)\b", _I)
_NEGATED = re.compile(r"\b(?:not|no|neither|nor|never)\b[^.;]{0,30}$", _I)
_SALE_KINDS = (("change of control", r"change (?:of|in) (?:the )?control|change-of-control"),
               ("merger", r"\bmerge[rd]\b|\bconsolidat\w+|\bamalgamat\w+|\breorgani[sz]\w+"),
               ("sale of its business", r"substantially all|\bsuccessor|\bacquir\w+|\bsale of (?:the |its |all )?"
                                        r"(?:\w+ )?(?:business|assets|stock|shares)"))
# "provided, however that Premier may assign": the name right before the permission
_CARVED_FOR = re.compile(r"(?:^|\bthat\s+|,\s*)((?:[A-Z][\w.&'\u2019-]*)(?:\s+[A-Z][\w.&'\u2019-]*){0,3})\s*(?:,[^,]{0,80},\s*)?$")
_BUT_DEEMED = re.compile(r"\b(?:deemed|constitute|treated as|considered)\b", _I)
_SENTENCE_END = re.compile(r"\.\s+(?=[A-Z])")


@dataclass(frozen=True)
class SaleCarveOut:
    kinds: tuple[str, ...]   # "change of control", "merger", "sale of its business", in that order
    assumption: bool         # only if the assignee assumes the obligations
    affiliates: bool         # the carve-out also lets a party assign to its affiliates
    who: str = ""            # the one party the carve-out is for, as the clause names it ("Premier"); '' for either


def sale_carve_out(quote: str) -> SaleCarveOut | None:
    """The exception a restriction on assignment makes for a sale of the business (or the clause's own
    permission to assign on one without consent), if it makes one."""
    q = " ".join(OPENS_RESTRICTION.sub(" ", quote).split())
    m = _EXCEPTION.search(q)
    rest = q[m.end():] if m else q
    end = _SENTENCE_END.search(rest)
    rest = rest[:end.start()] if end else rest
    p = _PERMITS.search(rest)
    negated = p is not None and (_NEGATED.search(rest[:p.start()]) or re.search(r"\b(?:not|never)\b", p.group(0)[:40], _I))
    who = ""
    if p is not None and not negated and (m or re.search(r"\bwithout\b[^.;]{0,40}\b(?:consent|approval)", rest[p.start():], _I)):
        scope = rest[p.start():]
        w = _CARVED_FOR.search(rest[:p.start()])
        who = w.group(1) if w and not re.match(r"(?:either|each|any|a|the|such) part", w.group(1), _I) else ""
    elif m and _TO_A_BUYER.search(rest):  # "shall not assign ... without consent, except to a successor by merger"
        scope = rest
    else:
        return None
    kinds = tuple(k for k, rx in _SALE_KINDS if re.search(rx, scope[:1000], _I))
    if not kinds or _BUT_DEEMED.search(scope[:1000]):
        return None
    if re.search(r"\b(?:payment\s+rights|rights?\s+to\s+(?:receive\s+)?payments?|receivables|accounts\s+receivable)\b", scope[:250], _I):
        return None  # "may, without consent, assign ... its payment rights ... to any party that acquires it": money, not the agreement
    return SaleCarveOut(kinds=kinds, assumption=bool(re.search(r"\bassum\w+", scope, _I)),
                        affiliates=bool(re.search(r"\baffiliat\w+|\bsubsidiar\w+", scope[:300], _I)), who=who)


# "This Agreement will terminate automatically in the event of its assignment (as defined in the 1940 Act)": the
# agreement ends on the trigger itself, no one's decision; under the US fund statutes "assignment" includes a
# transfer of a controlling block of the assignor's voting securities, i.e. a change of control
AUTO_TERMINATION = re.compile(r"\bterminat\w*\s+automatically|\bautomatic(?:ally)?\s+(?:be\s+)?terminat\w*", _I)


def auto_terminated_grant(quote: str) -> str:
    """What a clause ends automatically, where that is rights passed on to an affiliate or sublicensee rather than
    the agreement ("provided that the rights sublicensed or subcontracted to such Affiliate shall automatically
    terminate upon a change of control of such Affiliate"); '' where the agreement (or the clause's whole grant) ends."""
    m = AUTO_TERMINATION.search(quote)
    if m is None:
        return ""
    what = re.split(r"[.;,:]|\b(?:provided|that|then|if|upon|unless)\b", quote[max(0, m.start() - 200):m.start()], flags=_I)[-1]
    what = re.sub(r"\s+(?:shall|will|would|may|does|do)(?:\s+be)?\s*$", "", " ".join(what.split()), flags=_I)
    if re.search(r"\b(?:agreement|contract|it)\b", what, _I) or not re.search(r"\b(?:affiliat\w*|sub-?licen\w*|subcontract\w*)", what, _I):
        return ""
    what = re.sub(r"\b(Affiliates?|Sub-?licensees?|Subcontractors?)\b", lambda w: w.group(1).lower(), what)
    return re.sub(r"\bsuch\s+(?=\w)", "the ", what)
STATUTORY_ASSIGNMENT = re.compile(r"\bassignment\W{1,3}(?:as (?:such term is |that term is )?defined|within the meaning)[^.;)]{0,40}"
                                  r"(?:1940 Act|Investment Company Act|Investment Advisers Act|Advisers Act)", _I)


# a restriction on soliciting or hiring people ("agrees not to solicit or hire any employee of the other party"), with no
# word of competing: a non-solicit, which the classifier may also take for a non-compete
_SOLICITS = re.compile(r"\b(?:solicit\w*|hire|hiring|recruit\w*|employ)\b[^.;]{0,80}?\b(?:employees?|personnel|staff|officers|"
                       r"consultants|contractors|customers?|clients?|suppliers?)\b", _I)
_COMPETES = re.compile(r"\bcompet\w*|\bengag\w*\s+in\b", _I)


def solicit_only(quote: str) -> bool:
    return bool(_SOLICITS.search(quote)) and not _COMPETES.search(quote)


# "a Change of Control shall be deemed an assignment", "shall constitute a transfer"; a denial says the opposite: "nor
# shall any change in control ... be deemed an assignment hereunder", "shall not constitute an assignment"
_DEEMING = re.compile(r"\b(?:deemed|constitut\w*|considered|treated\s+as)\b[^.;]{0,60}?\b(?:assign|transfer)", _I)
_DENIED = re.compile(r"(?:\b(?:not|nor|never|neither)\b|(?:^|[.;,]\s*)no\b|\bin\s+no\s+event\b)[^,.;]*$", _I)
_CONTROL_WORDS = re.compile(r"\bchange\s+(?:of|in)\s+(?:the\s+)?control\b|\bchange[- ]of[- ]control\b", _I)


def deems_assignment(quote: str) -> bool:
    """Whether the clause treats something (a change of control, a merger) as an assignment, not only denies it."""
    return any(not _DENIED.search(quote[max(0, m.start() - 200):m.start()]) for m in _DEEMING.finditer(quote))


NOT_AN_ASSIGNMENT = "change of control not an assignment"


def denies_assignment(quote: str) -> bool:
    """Whether the clause says a change of control is not an assignment, and nowhere that it is one."""
    return bool(_DEEMING.search(quote)) and not deems_assignment(quote) and bool(_CONTROL_WORDS.search(quote))


# "This Agreement shall be binding upon, and inure solely to the benefit of, the parties ... and their respective
# successors and assigns": who the agreement binds after an assignment, not a bar on one
_SUCCESSORS = re.compile(r"\b(?:binding\s+upon|bind|binds|inure|inures)\b[^.;]{0,320}?\bsuccessors\s+(?:and|or)\s+(?:permitted\s+)?assigns\b",
                         re.IGNORECASE)
_RESTRICTS_ASSIGNMENT = re.compile(r"\b(?:may\s+not|shall\s+not|will\s+not|cannot|must\s+not|without\s+(?:the\s+)?(?:\w+\s+){0,3}"
                                   r"(?:consent|approval)|consent|approv\w*|prohibit\w*|restrict\w*|not\s+be\s+(?:assign|transfer)\w*|"
                                   r"void|no\s+(?:power|right|authority)|non-?(?:assignable|transferr?able)|subject\s+to\s+the\s+foregoing|"
                                   r"permitted|right\s+to\s+(?:assign|transfer))\b", re.IGNORECASE)


def successors_only(quote: str) -> bool:
    """The passage says whom the agreement binds and benefits (successors and assigns) and restricts no assignment."""
    return bool(_SUCCESSORS.search(quote)) and not _RESTRICTS_ASSIGNMENT.search(quote)
