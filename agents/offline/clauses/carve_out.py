"""A carve-out, restated: "the foregoing shall not prevent Reseller from responding to unsolicited requests" is
what a restriction leaves a party free to do, not a restriction of its own.

The item's reading would otherwise see the restriction's words inside the carve-out ("does not prevent Conformis
from granting any ... covenant not to sue") and say the opposite of the clause. The sentence is written only
when the party is one of the agreement's (or "either party", "any party") and what it stays free to do reads
plainly: no enumerated conditions after it, which would narrow it, and no name that is no party's.
"""

from __future__ import annotations

import re

from agents.offline.clauses.clause_parts import PartyIndex
from agents.offline.clauses.operative import plain_words
from agents.offline.units import reading_text

_I = re.IGNORECASE
_VERBS = r"(?:prevent|preclude|restrict|limit|prohibit|restrain)s?(?:\s+or\s+(?:prevent|preclude|restrict|limit)s?)?"
FREES = re.compile(
    # "Nothing in this Agreement (is intended to | shall be construed to)? limit X from": nothing restricts
    r"\b(?:(?P<nothing>nothing\s+(?:contained\s+)?in\s+this\s+(?:agreement|section|article))\s+(?:(?:shall|will|is\s+intended\s+to|"
    r"shall\s+be\s+construed\s+to|will\s+be\s+construed\s+to)\s+)?"
    # "the foregoing (does | shall) not (be construed to)? prevent X from": the restriction does not reach it
    r"|(?:the\s+foregoing|this\s+(?:provision|section|article|clause|restriction|covenant)|such\s+restrictions?|"
    r"[a-z ]{0,30}exclusivity[a-z ]{0,40}?)\s+(?:does|do|shall|will)\s+not\s+(?:be\s+construed\s+to\s+)?)"
    + _VERBS + r"\s+(?P<who>[^,.;()]{1,60}?)\s+from\s+(?P<what>[^;]+)", _I)
_ANYONE = {"either party": "either party", "any party": "any party", "a party": "a party", "each party": "each party"}
_MAX_WORDS = 26


def carve_out(quote: str, idx: PartyIndex) -> str | None:
    """'The restriction does not prevent Reseller (XYZ Corp.) from responding to unsolicited requests from
    customers outside the territory.', or None."""
    m = FREES.search(reading_text(quote))
    if not m:
        return None
    who = " ".join(m.group("who").split())
    name = _ANYONE.get(who.lower())
    if name is None:
        party = next((i for term, i in idx.terms if term.lower() == re.sub(r"^the\s+", "", who, flags=_I).lower()), None)
        if party is None:
            return None
        name = idx.firsts[party]
    what = m.group("what")
    # "employing any such employee (a) who seeks employment ...": the conditions narrow the carve-out
    if re.search(r"\(\s*(?:[ivx]+|[a-h]|\d{1,2})\s*\)", what):
        return None
    what = re.split(r",\s*(?:including|provided|except|unless)\b|[.]\s|\.$|\s\(", what)[0].strip()
    if not what or len(what.split()) > _MAX_WORDS:
        return None
    said = plain_words(what, idx)
    if said is None:
        return None
    lead = "Nothing in the agreement prevents" if m.group("nothing") else "The restriction does not prevent"
    return f"{lead} {name} from {said}."


# what leaves a party free to compete: "this Agreement does not grant ... an exclusive right ... and shall not prevent
# Cisco from ...", "the foregoing shall not preclude either party from employing ...", "the other party's Group may
# now market ... products that are competitive". A passage made only of these is an exception to a restriction,
# not one; with a restriction of its own beside them ("shall not sell ...; provided that the foregoing shall not
# prevent ..."), the restriction is what the passage is
_FREEING = re.compile(r"\bnothing\b[^.;]{0,120}?\b(?:prevent|preclude|restrict|limit|prohibit|restrain)s?\b|"
                      # "nothing contained herein shall be construed to impose upon PPD an obligation to ... use VS"
                      r"\bnothing\b[^.;]{0,80}?\bimpose\s+(?:up)?on\s+[^.;]{1,60}?\ban?\s+obligation\b|"
                      r"\b(?:shall|will|does|do)\s+not\s+(?:be\s+(?:construed|deemed|interpreted)\s+(?:to|as)\s+|in\s+any\s+way\s+)?"
                      r"(?:prevent|preclude|restrict|limit|prohibit|restrain)(?:s|ing)?(?:\s+or\s+(?:prevent|preclude|restrict|limit)\w*)?\b|"
                      r"\b(?:this|the)\s+agreement\s+(?:does|shall|will)\s+not\s+(?:grant|confer|create)\b[^.;]{0,80}?\bexclusiv\w*|"
                      r"\bfree\s+to\s+(?:compete|market|sell|develop|engage|pursue)\b|"
                      r"\bmay\s+(?:now\s+)?(?:market|develop|sell|compete|engage)\b[^.;]{0,120}?\bcompetitive\b", _I)
_RESTRICTS = re.compile(r"\b(?:shall|will|may|must)\s+not\b|\bagrees?\s+not\s+to\b|\bprohibit\w*|\brefrain\w*|\bexclusively\b|"
                        r"\bno\s+(?:party|person)\s+(?:shall|will|may)\b", _I)


def frees_only(q: str) -> bool:
    """The passage only frees a party (an exception to a restriction, a disclaimer of exclusivity), restricting none."""
    if not _FREEING.search(q):
        return False
    return not _RESTRICTS.search(_FREEING.sub(" ", q))


# a clause that denies the payment ("shall have no rights to damages or indemnification of any nature, specifically
# including commercial severance pay", "waives any right to severance"): the opposite of a payment on termination
_DENIES_PAYMENT = re.compile(r"\b(?:(?:shall|will)\s+have\s+no\s+rights?|(?:shall|will)\s+not\s+be\s+entitled|(?:is|are)\s+not\s+"
                             r"entitled|waives?\s+(?:any|all)(?:\s+\w+){0,2}\s+rights?|no\s+(?:party\s+)?(?:shall|will)\s+be\s+"
                             r"(?:entitled|liable))\b[^.;]{0,160}?\b(?:severance|compensation|indemnit\w*|damages|payments?)\b", _I)
_GRANTS_PAYMENT = re.compile(r"\b(?:shall|will|must)\s+(?:pay|receive|be\s+paid|be\s+entitled)\b", _I)


def denies_payment(q: str) -> bool:
    """The passage rules a payment out (no right to severance, compensation or damages) and grants none."""
    return bool(_DENIES_PAYMENT.search(q)) and not _GRANTS_PAYMENT.search(_DENIES_PAYMENT.sub(" ", q))


# an appointment or a licence that is non-exclusive and nothing exclusive beside it ("appoints Reseller ... as a
# non-exclusive reseller of the Products"): a finding under exclusivity for it says the opposite of the clause
_NON_EXCLUSIVE = re.compile(r"\bnon-?\s*exclusive\w*|"
                           # "No marketing exclusivity in any category ... is conferred or implied by this Agreement"
                           r"\bno\s+(?:\w+\s+){0,2}exclusivity\b[^.;]{0,120}?\b(?:is|are|shall\s+be|will\s+be)\s+"
                           r"(?:conferred|granted|implied|created|given)\b", _I)
_EXCLUSIVE = re.compile(r"\bexclusiv\w*", _I)


def non_exclusive_only(q: str) -> bool:
    # the section's heading ("14. Exclusivity.") names the subject, not a commitment
    text = re.sub(r"^\s*(?:\d+(?:\.\d+)*\.?\s+)?(?:[A-Z][\w-]*\s+){0,4}?[A-Z][\w-]*\.\s+", "", reading_text(q))
    return bool(_NON_EXCLUSIVE.search(text)) and not _EXCLUSIVE.search(_NON_EXCLUSIVE.sub(" ", text))


# "exclusive" words that describe something other than dealing: an assignment ("hereby assigns exclusively to
# TouchStar all rights"), a forum ("shall be settled exclusively and finally by binding arbitration"), a remedy, what a
# party owns, "exclusive of taxes". A passage whose every "exclusive" is one of these makes no exclusivity commitment
_NAMED_EXCLUSIVE = (
    # "assigns exclusively to TouchStar all rights ... royalty-free and exclusively": the sentence's later "exclusively"
    # still describes the assignment
    ("an assignment", r"\bassigns?\s+(?:\w+\s+){0,2}?exclusively\b(?:[^.;]{0,200}\bexclusiv\w*)?|"
                      r"\bexclusiv\w*[^.;]{0,60}?\bassignment\b"),
    ("a forum for disputes", r"\b(?:settled|resolved|determined|brought|heard|litigated|adjudicated|submitted)\s+(?:\w+\s+){0,3}?"
                             r"exclusively\b|\bexclusive(?:ly)?\s+(?:and\s+\w+\s+)?(?:jurisdiction|venue|forum|courts?|arbitration)\b|"
                             r"\bexclusive\s+(?:means|mechanism|procedure|method)\s+(?:of|for)\s+(?:resolving|settling|the\s+resolution)"),
    ("a remedy", r"\b(?:sole\s+and\s+)?exclusive\s+(?:remedy|remedies|recourse)\b"),
    ("ownership", r"\b(?:sole\s+and\s+)?exclusive\s+(?:property|owners?(?:hip)?|title)\b|\bexclusively\s+own"),
    # "acceptance is limited exclusively to Seller's terms", "used exclusively for research": "only", of a scope
    # "... correcting the Package exclusively on behalf of the Licensee", "Products ... are exclusively for use with
    # Telnet's Service": for whom or what a thing is used, not whom a party may deal with
    ("a limit of scope", r"\b(?:limited|confined|used|applies|apply|applicable|relates?|relating)\s+exclusively\s+(?:to|for|in)\b|"
                         r"\bexclusively\s+on\s+behalf\s+of\b|\b(?:is|are)\s+exclusively\s+for\s+(?:use|the\s+purpose)\b"),
    # "a trailer is assigned to its exclusive use": who alone may use an asset, not whom a party may deal with
    ("the use of an asset", r"\b(?:for|to)\s+(?:its|their|the)\s+exclusive\s+use\b|\bexclusive\s+use\s+(?:agreement|of\s+(?:the|a|an|such)\s+"
                            r"(?:trailers?|vehicles?|space|premises|equipment|facilit(?:y|ies)|rooms?|office))\b"),
    ("", r"\bexclusive\s+of\b"),
)


def exclusive_in_name(q: str) -> str:
    """What the passage's "exclusive" words describe ("an assignment and a forum for disputes"), when each of them
    describes something other than exclusive dealing; '' otherwise."""
    text = _NON_EXCLUSIVE.sub(" ", reading_text(q))
    kinds = []
    for kind, rx in _NAMED_EXCLUSIVE:
        text, n = re.subn(rx, " ", text, flags=_I)
        if n and kind:
            kinds.append(kind)
    if not kinds or _EXCLUSIVE.search(text):
        return ""
    return kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]


# "all proceeds (cash or otherwise) of any of the Assets ... shall be the sole property of Purchaser": what becomes a
# party's property is money, and a passage that names no intellectual property allocates none
_OWNED = re.compile(r"\b(?:(?:sole|exclusive)\s+(?:and\s+exclusive\s+)?)?property\s+of\b|\bvest(?:s|ed)?\s+(?:solely\s+)?in\b|"
                    r"\bowned\s+(?:solely\s+|exclusively\s+)?by\b", _I)
_MONEY_WORDS = re.compile(r"\b(proceeds|funds|monies|moneys|cash|payments?|revenues?|receivables|deposits?|fees)\b", _I)
_IP_WORDS = re.compile(r"\bintellectual\s+property|\bpatent|\bcopyright|\btrade\s*marks?\b|\bmarks\b|\binvention|\bwork\s+product|"
                       r"\bknow-?how|\bsoftware|\bdata\b|\bmaterials\b|\bdeliverables|\btechnology|\bdevelopments?\b|"
                       r"\bimprovements?\b|\bworks?\s+of\s+authorship|\bdomain\s+names?|\bdesigns?\b|\bcontent\b|\bIP\b", _I)


def owned_money(q: str) -> str:
    """The money a passage makes a party's property ("proceeds"), when that is all the property it allocates."""
    text = reading_text(q)
    if _IP_WORDS.search(text):
        return ""
    words = []
    for m in _OWNED.finditer(text):
        # the thing owned: the clause's subject, from the last stop before the ownership words
        what = re.split(r"[.;:]\s", text[max(0, m.start() - 400):m.start()])[-1]
        money = [w.group(1).lower() for w in _MONEY_WORDS.finditer(what)]  # the nearest: "the payment of ..., all proceeds"
        if not money:
            return ""
        words.append(money[-1])
    return words[0] if words else ""


# "GSK ... will not ... acquire ... any direct or indirect beneficial ownership ... in any securities of Theravance",
# "make ... any 'solicitation' of 'proxies' to vote": a standstill, which the classifier takes for a non-compete
_ACQUIRES = re.compile(r"\bacquir\w*\b", _I)
_SHARES_OF = re.compile(r"\b(?:securities|shares|stock)\s+of\s+(?:the\s+)?(?P<whose>[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,3})")
_PROXIES = re.compile(r"\bsolicitation\W{0,3}\s+of\s+\W{0,3}proxies|\bproxy\s+(?:contest|solicitation)", _I)


def standstill(q: str) -> str:
    """What a standstill bars ("acquire securities of Theravance", "solicit proxies"), or '' for another clause."""
    text = reading_text(q)
    buys = _ACQUIRES.search(text)
    for shares in _SHARES_OF.finditer(text, buys.end()) if buys else ():
        if shares.start() - buys.end() < 500 and not re.match(r"(?:Rule|Section|Article)\b", shares.group("whose")):
            return f"acquire securities of {shares.group('whose')}"
    return "solicit proxies" if _PROXIES.search(text) else ""


# "shall not exceed 120% of the average hourly volume", "the maximum number of Pin Codes that may be distributed": a
# ceiling (CUAD's volume restriction), which the minimum-commitment item's own sentence would call a floor
_CEILING = re.compile(r"\b(?:(?:shall|will|may|to)\s+not\s+exceed|not\s+to\s+exceed|in\s+no\s+event\s+exceed|maximum|no\s+more\s+than|"
                      r"not\s+more\s+than|up\s+to\s+(?:a|an|the)?\s*(?:maximum|limit|cap))\b", _I)
_FLOOR = re.compile(r"\bminim\w*|\bat\s+least\b|\bnot\s+less\s+than\b|\bno\s+less\s+than\b|\bguarantee\w*|\btake[- ]or[- ]pay\b", _I)


def ceiling_only(q: str) -> bool:
    text = reading_text(q)
    return bool(_CEILING.search(text)) and not _FLOOR.search(text)
