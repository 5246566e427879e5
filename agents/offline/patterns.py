"""Clause-language patterns per checklist item, and the conditions severity rules name.

Written from the CUAD v1 category definitions (CUAD_v1_README.txt) and common
drafting conventions, not from dev passages. Three uses:
- `include`: a unit must match one of these to be reported for the item (the
  classifier ranks, the patterns keep it honest on near-misses);
- `exclude`: language that looks similar but is something else (termination
  "by mutual agreement" is not termination for convenience);
- the hit names become classifier features, so the model can weigh them.
Items with no CUAD category are detected by patterns alone (`strong` lists the
patterns that are enough on their own, `context` what the document must be about).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_F = re.IGNORECASE | re.DOTALL


def _rx(*parts: str) -> list[re.Pattern[str]]:
    return [re.compile(p, _F) for p in parts]


@dataclass(frozen=True)
class ItemPatterns:
    include: list[re.Pattern[str]]
    exclude: list[re.Pattern[str] | OnlyIdioms] = field(default_factory=list)  # anything with a `search`
    # When given, the unit must also match one of these (the clause's operative part).
    require: list[re.Pattern[str]] = field(default_factory=list)
    # For pattern-only items: the unit matches one of `strong`, and the document
    # (or unit) matches one of `context` when given.
    strong: list[re.Pattern[str]] = field(default_factory=list)
    context: list[re.Pattern[str]] = field(default_factory=list)


_CONTROL = r"(change (of|in) (the )?control|change[- ]of[- ]control|controlling interest|acquisition of control)"
_MERGER = r"(merger|merges?|consolidat\w+|amalgamat\w+|reorgani[sz]\w+|acquired|acquisition|acquires)"
_OWNERSHIP = r"(beneficial(ly)? own\w*.{0,160}(\d+ ?%|percent|per cent).{0,60}(voting|equity|stock|shares|securities))"
_MAJORITY = r"((majority|fifty percent|50%|more than \w+ (percent|per cent)|\d+% or more)\b.{0,80}(voting|equity|stock|shares|securities|ownership|interests?))"
_CONVENIENCE = (r"(for (its|their|any|his|her) (own )?convenience|for convenience|without cause|for any reason|for no reason"
                r"|with or without (cause|reason)|at will|at any time|(sole|absolute) discretion|without (penalty|liability)|for any or no reason)")
_SUBST_ALL = r"(all or substantially all|substantially all (of )?(its|the) (assets|business))"

# "exclusive" used for something other than exclusive dealing: remedies "not exclusive of" others, a mark that
# is a party's "exclusive property", "exclusive jurisdiction", an indemnity that "inures exclusively" to one
# side, the integration clause's "final, complete and exclusive expression", "the exclusive warranties".
# A unit whose every "exclusiv" word is one of these, with no sole-supplier, requirements or
# no-other-supplier language, is no exclusivity clause.
_EXCLUSIVE_IDIOM = (r"(?:exclusive of\b|(?:not|non)[- ]exclusive\b"
                    r"|(?:sole|only) (?:and|or) exclusive (?:(?:monetary )?remed\w*|(?:monetary )?recover\w*|propert\w*|own\w*|jurisdiction|venue|forum|responsib\w*|control|warrant\w*)"
                    r"|exclusive (?:(?:monetary )?remed\w*|(?:monetary )?recover\w*|propert\w*|own\w*|jurisdiction|venue|forum|control|responsib\w*|benefit|warrant\w*"
                    r"|expression|statement|understanding|purpose|right,? title)"
                    r"|(?:complete|entire|final),? (?:and )?exclusive (?:\w+ )?(?:agreement|expression|statement|understanding)"
                    r"|remed\w* (?:is|are|shall be|will be) (?:the )?(?:sole (?:and|or) )?exclusive\b"
                    r"|exclusively (?:provided|(?:to|for) (?:the )?(?:\w+\W{0,2}){0,2}benefit)|inures? exclusively"
                    # who owns or runs something, where something is kept, how a word reads: "belong solely and
                    # exclusively to Licensor", "will exclusively control the filing, prosecution ... of patents",
                    # "a database maintained exclusively for", "the word 'or' shall not be exclusive"
                    r"|(?:belong|vest|reside)\w* (?:solely (?:and|or) )?exclusively (?:to|in|with)"
                    r"|exclusively (?:control|handle|manage|conduct)\w* (?:the )?(?:\w+,? ){0,3}(?:filing|prosecution|preparation|maintenance|enforcement|defen[cs]e)"
                    r"|(?:maintained|used|located|stored|kept|held|dedicated|reserved) (?:solely (?:and|or) )?exclusively (?:for|on|in|at|by)"
                    r"|exclusivity of (?:the )?(?:warrant|remed)\w*"
                    r"|[\"\u201c]or[\"\u201d] (?:shall|will|is) not (?:be )?exclusive)")
# exclusive dealing in other words: a sole supplier, requirements, "shall not purchase ... from any other"
_EXCLUSIVE_DEALING = re.compile(
    r"\b(?:sole|only) (?:supplier|distributor|provider|source|reseller|agent|licensee)|\brequirements\b"
    r"|(?:(?:shall|will|may) not|agrees? not to)\b.{0,120}(?:purchase|obtain|buy|sell|distribute|appoint|market|license|engage)"
    r".{0,160}(?:any other|another|third part|competitor|competing)", _F)


@dataclass(frozen=True)
class OnlyIdioms:
    """A look-alike test with a regex's `search`: true when `word` occurs in the text, every occurrence inside
    one of `idioms`, and `unless` (the real clause said in other words) nowhere. Unlike one lookahead, it holds
    for a unit with two idioms ("not exclusive of ... sole or exclusive remedy")."""
    word: re.Pattern[str]
    idioms: re.Pattern[str]
    unless: re.Pattern[str] | None = None

    def search(self, text: str) -> bool:
        if not self.idioms.search(text) or (self.unless is not None and self.unless.search(text)):
            return False
        return not self.word.search(self.idioms.sub(" ", text))


_EXCLUSIVE_IDIOM_ONLY = OnlyIdioms(re.compile(r"exclusiv", _F), re.compile(_EXCLUSIVE_IDIOM, _F), _EXCLUSIVE_DEALING)

# "audit" of a company's accounts, not a right to audit the other party: "audited financial statements", "the
# audit report of Deloitte", "(which need not be audited)", "independent auditors". A unit whose every audit,
# inspection and records word is one of these grants no audit right.
_AUDIT_ONLY = OnlyIdioms(
    re.compile(r"audit\w*|inspect\w*|examin\w*|\brecords\b|books (?:and|of) (?:account|record)", _F),
    re.compile(r"(?:un)?audited (?:\w+ ){0,3}(?:financial statements?|balance sheets?|accounts|statements? of (?:income|operations|cash flows?))"
               r"|(?:independent |registered )*(?:public )?(?:auditors?|accountants?)(?:'|’)?s? (?:audit )?report"
               r"|audit report|need not be audited|(?:independent|outside) (?:certified )?(?:public )?auditors?"
               r"|has audited (?:\w+ ){0,3}(?:financial statements|balance sheets?)"
               r"|(?:financial statements?|balance sheets?)[^.;]{0,80}\baudited\b", _F))

# "minimum" and "at least" as words of drafting, not of a commitment: "the report should provide at a minimum:",
# interest "adjusted to the maximum amount allowed by law", a definition of control as ownership of at least
# 50% of the voting securities, a notice period ("at least ninety (90) days' prior written notice"), how often
# something happens ("shall meet no less than monthly", "at least once a year"), how long ("for at least two (2)
# years"), an insurance minimum ("coverage in minimum amounts of $2,000,000 per occurrence").
_MINIMUM_ONLY = OnlyIdioms(
    re.compile(r"minimum|maximum|at least|not less than|no less than", _F),
    re.compile(r"\bat a minimum\b|maximum (?:\w+ )?(?:amount|rate|extent)s? (?:allowed|permitted|permissible) (?:by|under)"
               r"|\bmaximum (?:lawful|legal|permitted)\b"
               r"|(?:owner\w*|hold\w*|control\w*|possess\w*) (?:\w+ ){0,4}(?:of )?(?:at least|not less than|no less than|more than) "
               r"(?:\w+ )?(?:\(?\d+\)? ?)?(?:%|percent|per cent)"
               r"|(?:at least|not less than|no less than) (?:\w+ )?(?:\(\d+\) )?(?:\d+ )?(?:business |calendar )?(?:days?|weeks?|months?)['’]?s?"
               r" (?:\w+ ){0,3}(?:notice|prior to|before|in advance)"
               r"|(?:at least|not less than|no less than) (?:once|twice|annually|monthly|quarterly|weekly|yearly)\b"
               r"|\b(?:for|of) (?:a period of )?(?:at least|not less than|no less than) (?:\w+ )?(?:\(\d+\) )?(?:\d+ )?"
               r"(?:years?|months?|weeks?|days?)\b"
               r"|\b(?:insurance|coverage)\b[^.;]{0,120}?\b(?:minimum|at least|not less than|no less than)\b"
               r"|\b(?:minimum|at least|not less than|no less than)\b[^.;]{0,120}?\b(?:insurance|coverage|per occurrence|each occurrence)\b", _F))
# A minimum commitment is about buying, selling, paying or delivering (or a sales quota, "minimum performance
# goals"): a unit whose minimum concerns nothing traded ("maintain at least one business office", "the minimum
# express and implied warranties required by law") commits to no volume or spend.
_TRADED = (r"\b(?:purchas|order|buy|bought|sell|sold|sale|royalt|fee|payment|pay|paid|unit|volume|quantit|revenue|commit"
           r"|spend|price|forecast|shipment|deliver|suppl|provide|licen[cs]es\b|subscri|user|customer|product|service|dollar"
           r"|cost|amount|tons?\b|barrels?\b|gallons?\b|quotas?\b|performance (?:goals?|targets?|standards?|requirements?))|\$|\[\*+\]")


# "for any reason" that says what happens after an ending, not who may end: "Upon termination or expiration of the
# Term for any reason, all rights ... shall be extinguished", "shall survive the term or termination of this
# Agreement for any reason". A unit that also grants a right to terminate for any reason still passes.
_AFTER_ANY_TERMINATION = OnlyIdioms(
    re.compile(_CONVENIENCE, _F),
    re.compile(r"(?:upon|on|after|following|surviv\w*|in the event of)\s+(?:the\s+|any\s+)?(?:(?:term|expiration|expiry)\s+or\s+)?"
               r"(?:termination|expiration|expiry)(?:\s+or\s+(?:expiration|termination|expiry))?(?:\s+of\s+(?:this|the)\s+(?:Agreement|Term))?"
               r"\s+for\s+any\s+reason(?:\s+whatsoever)?", _F))


ITEM_PATTERNS: dict[str, ItemPatterns] = {
    "change_of_control": ItemPatterns(
        include=_rx(_CONTROL, _SUBST_ALL, _MAJORITY, _MERGER + r".{0,200}(terminat|consent|assign|notif|notice)",
                    r"(terminat|consent|assign).{0,200}" + _MERGER, r"by operation of law", r"beneficial own",
                    r"change (in|of) (the )?(ownership|owner)", r"\b(is|are|be|becomes?|being) acquired by",
                    r"ceases? to (hold|own|control|manage|be controlled)"),
        # Definitions of "Change of Control" stay in: CUAD labels them with the clause they serve.
        exclude=_rx(r"change control (sop|procedure)"),
    ),
    "anti_assignment": ItemPatterns(
        include=_rx(r"\bassign\w*", r"\btransfer\w*.{0,120}(agreement|rights|obligations)", r"\bdelegat\w+",
                    r"successors and (permitted )?assigns"),
    ),
    "termination_for_convenience": ItemPatterns(
        include=_rx(r"terminat\w*", r"cancel\w*"),
        require=_rx(_CONVENIENCE, r"(terminat|cancel)\w*.{0,250}(upon|on|by|with|giving|providing|after|within) .{0,60}(days?|weeks?|months?|years?)'?s?\W.{0,40}notice",
                    r"(upon|on|by|with|giving|providing) .{0,60}(days?|weeks?|months?|years?)'?s?\W.{0,40}notice.{0,120}(terminat|cancel)",
                    r"(terminat|cancel)\w*.{0,160}(with|upon|on|by giving) (a |an )?\(?\d+\)? (\w+ ){0,2}notice", r"non-?cause"),
        exclude=[*_rx(r"(by )?mutual (written )?(agreement|consent)\b(?!.{0,80}(either|any) party may)",
                    r"(written )?agreement of (both|all|the) parties",
                    r"^(?!.*" + _CONVENIENCE + r").*\b(breach\w*|default\w*|insolv\w+|bankrupt\w*|receiver|liquidat\w+|cured?|for cause|with cause|renew\w*|extend\w*|expir\w*|non-?payment|fail\w*)\b",
                    r"may not be terminated"), _AFTER_ANY_TERMINATION],
    ),
    "exclusivity": ItemPatterns(
        include=_rx(r"exclusiv\w*", r"\bsole (and exclusive )?(supplier|distributor|provider|source|reseller|agent|licensee)",
                    r"((shall|will|may) not|agrees? not to)\b.{0,120}(purchase|obtain|buy|sell|distribute|appoint|market|license|engage|work with|collaborate|enter into|endorse|promote|grant|use|exploit|enable|contract).{0,160}(any other|another|third part|others?\b|other than|competitor|competing|similar)",
                    r"\brequirements\b", r"only (from|to|through|with) "),
        exclude=[*_rx(r"non-?exclusive(?!.{0,200}\bexclusiv)"), _EXCLUSIVE_IDIOM_ONLY],
    ),
    "non_compete": ItemPatterns(
        include=_rx(r"non-?compet\w*", r"\bnot\b.{0,200}\bcompet\w*", r"\bcompet\w*.{0,200}\b(shall|will|may) not\b",
                    r"refrain\w* from.{0,200}compet\w*",
                    r"((shall|will|may) not|agrees? not to)\b.{0,160}(engage|carry on|conduct|participate|be (engaged|interested)|own|operate|open|develop|research|manufactur\w*|commerciali[sz]e|market|sell|promote|distribut\w*|import).{0,160}(business\w*|products?|services?|territor\w*|compounds?|work|office)",
                    r"directly or indirectly.{0,160}(engage|own|operate|develop|research|manufactur\w*|commerciali[sz]e|market|sell|promote|distribut\w*)",
                    r"restrict\w* (period|covenant|business)",
                    r"\bbe (concerned|interested)\b.{0,100}\b(business|undertaking|activit\w+)\b.{0,80}\bcompet\w*"),
        exclude=_rx(r"competitive (harm|pric\w*|rates?|bid\w*)", r"price competition"),
    ),
    "non_solicit": ItemPatterns(
        include=_rx(r"solicit\w*", r"\b(hire|employ|engage)\b.{0,80}(employee|personnel|staff)"),
        # Few CUAD positives (No-Solicit of Customers: 4); the covenant's wording is unambiguous.
        strong=_rx(r"\b((shall|will|may) not|agrees? not to)\b.{0,200}\b(solicit|entice|induce)\w*.{0,200}\b(customers?|clients?|employees?|officers?|personnel|staff|consultants?)\b"),
    ),
    "most_favored_nation": ItemPatterns(
        # Five positives in cuad-dev are too few for the classifier alone; these
        # unambiguous formulations report on their own.
        strong=_rx(r"most[- ]favou?red[- ](nation|customer|licensee|pricing|price|terms|status)",
                   r"(no less|not less|at least as) favou?rable (terms|prices?|pricing|rates?|conditions)?.{0,120}(any other|third part|other (customer|licensee|distributor|purchaser))",
                   r"(lower|better|more favou?rable) (prices?|pricing|terms|rates?).{0,200}(shall|will) (offer|extend|provide|give|grant|make available|reduce)"),
        include=_rx(r"most[- ]favou?red", r"(no less|not less|at least as|equally) favou?rable", r"(lower|lowest|better|best|more favou?rable) (price|pricing|terms|rate|royalt)",
                    r"(price|prices|pricing|terms|rate|royalt\w*).{0,150}(no (less|more) favou?rable|lower|better|less than).{0,150}(any other|third part|other (customer|licensee|distributor|purchaser))",
                    r"(not|no) (be )?(less|more) favou?rable", r"(preferred|preferential) (pricing|prices?|terms|rates?)",
                    r"(higher|greater) (fees?|prices?|rates?|charges?)\b.{0,150}(any other|its other|other (client|customer|licensee|distributor|purchaser)s?|third part)"),
    ),
    "rofr_rofo": ItemPatterns(
        include=_rx(r"(right|option) of first (refusal|offer|negotiation)", r"first right (of|to)", r"right of first",
                    r"(first|prior) (opportunity|option|right) to (negotiat|purchase|acquire|offer|bid|match)", r"match(ing)? (the )?(offer|terms|right)",
                    r"(before|prior to) (offering|negotiating|selling|granting|entering).{0,120}third part",
                    r"\bRO(FR|FO|FN)\b", r"\boption\b.{0,120}\bto (negotiate|purchase|acquire|obtain|license)", r"first (consideration|negotiation)"),
    ),
    "minimum_commitment": ItemPatterns(
        include=_rx(r"minimum", r"take[- ]or[- ]pay", r"(at least|not less than|no less than)\b", r"maximum (quantit|volume|amount|number)", r"(forecast|purchase) (commitment|obligation)",
                    r"\b(sales|purchase|volume|performance) quotas?\b|\b(meet|achieve|attain|reach|satisfy)\w* (the |its |any |such )?quotas?\b",
                    r"\btake,? or pay\b|\bpay for (\w+ )?if not taken"),
        # Severability and "to the fullest extent permitted by law" use the word and commit to nothing.
        exclude=[*_rx(r"\b(minimum|maximum|fullest|greatest) extent\b"), _MINIMUM_ONLY],
        require=_rx(_TRADED),
    ),
    "cap_on_liability": ItemPatterns(
        include=_rx(r"liab\w*", r"damages", r"in no event", r"exceed", r"(limit|limitation)s? (of|on)"),
    ),
    "uncapped_liability": ItemPatterns(
        include=_rx(r"(limitation|exclusion|limit|cap)s?\b.{0,200}(shall|will|do|does) not apply",
                    r"(shall|will|do|does) not apply.{0,200}(limitation|exclusion|limit|cap)s?\b",
                    r"except (for|with respect to|with regard to|in the case of|in the event of|under|as|that)", r"(other than|excluding|excepting|save for|notwithstanding)\b",
                    r"(shall|will|do|does) (not|neither) (\w+ ){0,3}(apply|limit)", r"exclu\w+ from (\w+ ){0,3}limitation",
                    r"limit or exclude", r"waives?\b.{0,80}(limitation|cap)s?\b",
                    r"unlimited", r"not be limited", r"without limit", r"regardless of",
                    r"\bnot (be )?subject to (any )?(cap|limit|limitation|exclusion)s?\b"),
        require=_rx(r"liab\w*", r"damages", r"limitation", r"\bcap\b"),
        # a representation about the liabilities a party has ("neither ... has any liabilities or obligations of any
        # nature ... except for"), and a limitation period ("No lawsuit ... may be brought ... after two (2) years"),
        # say nothing about a cap on liability under the agreement
        exclude=_rx(r"\b(?:has|have)\s+(?:no|any)\s+(?:material\s+)?liabilit\w*\s+(?:or|and)\s+obligations?\s+of\s+any\s+(?:nature|kind)",
                    r"\b(?:lawsuit|action|claim|suit|proceeding)s?\b[^.;]{0,120}\bmay\s+be\s+(?:brought|commenced|instituted)\b"
                    r"[^.;]{0,160}\b(?:after|more than)\b"),
    ),
    "indemnification": ItemPatterns(
        include=_rx(r"indemnif\w*", r"hold\w* harmless"),
        strong=_rx(r"(shall|will|agrees? to|hereby) (\w+ ){0,3}(indemnify|defend|hold harmless)", r"indemnif\w+.{0,120}(against|from) (any|all)",
                   r"hold\w* (\w+ ){0,6}harmless"),
    ),
    "ip_ownership": ItemPatterns(
        include=_rx(r"\bown\w*", r"\bassign\w*.{0,160}(right|title|interest|intellectual|invention|work|development|improvement|patent|copyright)",
                    r"work(s)? made for hire", r"(exclusive|sole) property", r"title (to|in)", r"jointly"),
    ),
    "license_grant": ItemPatterns(
        include=_rx(r"licen[cs]\w*", r"sublicen\w*", r"right to use", r"(hereby )?grants?\b"),
    ),
    "source_code_escrow": ItemPatterns(include=_rx(r"escrow", r"source code")),
    "audit_rights": ItemPatterns(
        include=_rx(r"audit\w*", r"inspect\w*", r"examin\w*", r"books (and|of) (account|record)", r"records",
                    r"verif\w*.{0,120}(compliance|usage|use|fees|royalt\w*|reports?|statements?)"),
        exclude=[_AUDIT_ONLY],
    ),
    "insurance": ItemPatterns(include=_rx(r"insur\w*", r"insured", r"(coverage|policy|policies) (limit|of not less)")),
    "governing_law": ItemPatterns(
        include=_rx(r"govern\w*", r"laws? of", r"jurisdiction", r"arbitrat\w+", r"venue", r"courts? (of|in|located)", r"construed"),
    ),
    "confidentiality": ItemPatterns(
        include=_rx(r"confidential\w*", r"non-?disclosure", r"proprietary information", r"personal (data|information)", r"trade secret"),
        strong=_rx(r"(shall|will|agrees? to) (\w+ ){0,4}(keep|hold|maintain|treat) (\w+ ){0,6}(confiden|secret)",
                   r"(shall|will) not (\w+ ){0,4}(disclose|divulge|reveal)", r"confidential information (means|shall mean|includes)",
                   r"(process|processing) (of )?personal (data|information)", r"non-?disclosure (agreement|obligation)"),
    ),
    "term_renewal": ItemPatterns(
        include=_rx(r"renew\w*", r"\bterm\b", r"expir\w*", r"(remain|continue) in (full )?(force|effect)", r"(until|through) \w+ \d", r"years?|months?"),
    ),
    "lease_assignment": ItemPatterns(
        include=_rx(r"sub-?l[eo]\w*", r"\bassign\w*", r"\btransfer\w*"),
        strong=_rx(r"(tenant|lessee).{0,160}(shall|will|may) not.{0,120}(assign|sublet|sublease|transfer)",
                   r"(assign|sublet|sublease|transfer)\w*.{0,200}(landlord|lessor)'?s? (\w+ ){0,3}(consent|approval)",
                   r"(landlord|lessor)'?s? (\w+ ){0,3}(consent|approval).{0,200}(assign|sublet|sublease|transfer)"),
        context=_rx(r"\b(landlord|lessor)\b", r"\b(tenant|lessee)\b.{0,400}\b(premises|lease)\b"),
    ),
    "debt_change_of_control": ItemPatterns(
        # credit documents often define the change of control by a beneficial-ownership threshold, unnamed
        include=_rx(_CONTROL, _OWNERSHIP),
        strong=_rx(_CONTROL + r".{0,300}(event of default|default|prepay\w*|repurchase|redeem|redemption|accelerat\w*)",
                   r"(event of default|default|prepay\w*|repurchase|redeem|redemption|accelerat\w*).{0,300}" + _CONTROL,
                   r"(event of default|prepay\w*|repurchase|redeem|redemption|accelerat\w*).{0,300}" + _OWNERSHIP),
        context=_rx(r"\b(lender|borrower|credit agreement|loan agreement|indenture|noteholder|promissory note|facility)\b"),
    ),
    "key_employee": ItemPatterns(
        include=_rx(r"severance", r"retention", r"good reason", _CONTROL, r"accelerat\w*", r"bonus"),
        strong=_rx(r"severance (pay|payment|benefit)", r"retention (bonus|payment|award)",
                   r"(resign|terminat\w*).{0,80}for good reason", r"good reason.{0,200}(terminat|resign)",
                   _CONTROL + r".{0,200}(payment|bonus|severance|accelerat\w*|vest)", r"(vest|accelerat)\w*.{0,200}" + _CONTROL),
        context=_rx(r"\b(employee|executive|employment|employer)\b"),
    ),
    "litigation": ItemPatterns(
        include=_rx(r"litigation", r"lawsuit", r"\b(action|suit|claim|proceeding|complaint|arbitration)s?\b"),
        strong=_rx(r"(pending|threatened) (\w+ ){0,3}(litigation|actions?|claims?|suits?|proceedings?|investigations?)",
                   r"(filed|commenced|brought) (a|an) (lawsuit|complaint|action|suit|claim)", r"\b(plaintiffs?|defendants?)\b",
                   r"demand letter", r"settlement (agreement|of the (claim|action|dispute|litigation))", r"civil action no",
                   # a letter before action: notice of a claim, a demand, a threat to sue
                   r"(formal )?notice of (a |an |its |our |the )?(claim|dispute|intended (action|proceedings))",
                   r"\b(we|our client|the claimant) (hereby |now )?demands?\b", r"in (full|final) settlement of",
                   r"(intends?|reserves? the right|will) (\w+ ){0,2}(commence|issue|bring|file|institute) (legal |court )?(proceedings|an action|a claim|suit|litigation)"),
        # an indemnity's claims procedure and a dispute clause's notice step are the contract's machinery for
        # claims to come, not a claim or proceeding that exists
        exclude=_rx(r"(shall|will|may) (\w+ ){0,4}(indemnify|defend)", r"\b(indemnif\w+|indemnitee|indemnitor)\b",
                    r"((co-?)?operat\w*|participate) in the (defen[cs]e|settlement)",
                    r"(shall|will|must) (\w+ ){0,3}(give|provide|send|deliver)\b[^.;]{0,80}?\bnotice of (the|a|any|such) dispute"),
    ),
    # Items for the CUAD categories that have a recognisable drafting of their own (CUAD_v1_README.txt's
    # definitions). `include` is the vocabulary the classifier ranks within; `strong` wording that is
    # unambiguous where CUAD has few examples.
    "revenue_sharing": ItemPatterns(
        include=_rx(r"royalt\w*", r"(shar\w*|split\w*|divid\w*)\b.{0,100}\b(revenues?|profits?|proceeds|income|net sales|gross sales|receipts|margins?|fees|earnings)",
                    r"\b(revenues?|profits?|proceeds|income|net sales|gross sales|receipts|margins?|earnings)\b.{0,120}\b(shar\w*|split\w*|divid\w*|\d+(\.\d+)? ?%|percent)",
                    r"\bcommissions?\b", r"\b(percent(age)?|\d+(\.\d+)? ?%) of (the |all |such |its )?(net|gross|total|adjusted)\b"),
    ),
    "price_restrictions": ItemPatterns(
        include=_rx(r"\b(increas\w*|rais\w*|reduc\w*|decreas\w*|chang\w*|adjust\w*|modif\w*)\b.{0,120}\b(prices?|pricing|fees?|rates?|charges?)\b",
                    r"\b(prices?|pricing|fees?|rates?|charges?)\b.{0,120}\b(increas\w*|rais\w*|reduc\w*|decreas\w*|chang\w*|adjust\w*|fixed|firm|locked)\b"),
        require=_rx(r"\b(not|no|only|never|without|fixed|firm|locked|except|limited to|in excess of|exceed|more than|cap\w*)\b"),
    ),
    "post_termination_services": ItemPatterns(
        include=_rx(r"\b(after|following|upon|on|post|subsequent to|prior to)[- ](the )?(any |such |its )?(terminat\w*|expir\w*|cancell?ation)",
                    r"\b(terminat\w*|expir\w*)\b.{0,200}\b(continu\w*|transition\w*|wind\w*[- ]down|sell[- ]?off|return\w*|deliver\w*|purchas\w*|fulfil\w*|complet\w*|pay\w*|support\w*|provid\w*|surviv\w*|assist\w*)",
                    r"\bsurviv\w*", r"\btransition (services?|period|assistance|plan)", r"\bsell[- ]off", r"\blast[- ]time[- ]buy|\blast buy",
                    r"\bwind[- ]?down"),
    ),
    "liquidated_damages": ItemPatterns(
        include=_rx(r"liquidated damages", r"\b(termination|cancell?ation|break[- ]?up|exit|early termination) (fee|charge|payment|penalty)",
                    r"\bpenalt(y|ies)\b", r"\b(estimate|pre-estimate) of (the )?(\w+ ){0,2}damages",
                    r"\b(pay|payable|paid|owe)\w*\b.{0,160}\b(upon|on|in the event of|following|for) (such |any |the |an? )?(early )?(terminat\w*|breach\w*|cancell?ation|failure)",
                    r"\b(terminat\w*|cancell?ation|breach\w*)\b.{0,160}\b(shall|will) (\w+ ){0,2}pay\b"),
        strong=_rx(r"\bliquidated damages\b(?!.{0,40}\b(not|no)\b)", r"\b(early )?termination fee\b", r"\bbreak[- ]?up fee\b"),
    ),
    "warranty": ItemPatterns(
        include=_rx(r"\bwarrant\w*", r"\bguarant\w*.{0,80}\b(defects?|workmanship|materials|perform\w*|free from)"),
        require=_rx(r"\bwarranty period\b",
                    r"\b(\d+|one|two|three|four|five|six|nine|ten|twelve|eighteen|twenty[- ]four|thirty|sixty|ninety|one hundred (and )?eighty)\b\W{0,3}(\(\d+\)\W{0,2})?(calendar |business )?(days?|months?|years?)\b",
                    r"\bfor (a|the) period\b", r"\b(from|after) (the )?(date of )?(delivery|shipment|acceptance|installation|purchase|sale)\b"),
    ),
    "third_party_beneficiary": ItemPatterns(
        include=_rx(r"\bbeneficiar\w*", r"\bfor the (sole |exclusive |express )?benefit of\b", r"\b(confer|give|grant|create|provide)\w*\b.{0,120}\b(rights?|remed\w*|benefits?|claims?)\b.{0,120}\b(any (other )?person|third part\w*|anyone)",
                    r"\benforce\w*\b.{0,80}\b(any person|third part\w*|non-?part\w*)", r"\bthird part\w* (rights|enforcement)"),
        strong=_rx(r"\b(is|are|shall be|will be|be) (an? |the )?(express(ly)? |intended )*(third[- ]party )beneficiar\w*",
                   r"\bintended (third[- ]party )?beneficiar\w*(?! .{0,40}\bno\b)"),
        # "No third party beneficiaries" (its exception must be in the same sentence: "No Waiver; No Third Party
        # Beneficiary. None of the terms may be waived except in writing" names no beneficiary), and "made for the
        # benefit of no party other than those executing it"
        exclude=_rx(r"\b(no|not (be )?an?|not (a|any)|none of the|nothing [^.;]{0,120}) (intended )?third[- ]part(y|ies) beneficiar\w*"
                    r"(?![^.;]{0,200}\b(except|other than|save|provided|however)\b)",
                    r"\b(?:not|neither)\b[^.;]{0,60}\bfor the (?:sole |exclusive )?benefit of any (?:person|party|entity|third part\w*|one)"
                    r" other than (?:the parties|those (?:executing|signing)|the signator)"),
    ),
    "non_disparagement": ItemPatterns(
        include=_rx(r"disparag\w*", r"\b(negative|derogatory|adverse|critical|defamatory|unfavou?rable|disparaging|harmful) (statements?|comments?|remarks?|publicity|information)",
                    r"\breflects? (adversely|poorly|negatively|unfavou?rably)", r"\binto (public )?(disrepute|ridicule|contempt|scandal)",
                    r"\b(harm|damage|injure|impair|tarnish|detract|denigrat)\w*\b.{0,60}\b(reputation|goodwill|image|good name)"),
        strong=_rx(r"\b(not|never|refrain\w* from)\b.{0,120}\bdisparag\w*", r"\bnon-?disparag\w*"),
    ),
    "covenant_not_to_sue": ItemPatterns(
        include=_rx(r"\b(contest|challeng|disput|attack|oppos|impugn|question)\w*\b.{0,160}\b(validity|ownership|enforceab\w*|title|patentab\w*|registration)",
                    r"\bnot to (sue|bring|assert|commence|institute)", r"\bcovenants? not\b",
                    r"\b(shall|will|may) not\b.{0,80}\b(sue|assert|bring|file|commence|institute|initiate)\b.{0,120}\b(claims?|actions?|suits?|proceedings?)",
                    r"\breleases?\b.{0,80}\b(claims?|causes? of action|demands?)", r"\bwaives?\b.{0,60}\b(claims?|right to (sue|bring))"),
        strong=_rx(r"\bcovenants? not to sue\b",
                   r"\b(not|never)\b.{0,80}\b(contest|challenge|attack|impugn)\w*\b.{0,120}\b(validity|ownership|title)\b"),
    ),
    # Gates of CUAD categories scored under an item whose own vocabulary misses them (CATEGORY_GATES).
    "competitive_restriction_exception": ItemPatterns(
        include=_rx(r"\bnothing\b", r"\b(shall|will|does|do) not (\w+ ){0,3}(prevent|restrict|prohibit|limit|preclude|apply|restrain)",
                    r"\bnot (be )?(deemed|construed) (to )?(\w+ ){0,2}(prevent|restrict|prohibit|limit|preclude|violat\w*|breach)",
                    r"\b(notwithstanding|except|exception|excluding|other than|provided,? (however|that)|carve[- ]?out|permitted to|free to|may (continue|engage|sell|market|own|acquire|hold))\b"),
        require=_rx(r"compet\w*", r"exclusiv\w*", r"solicit\w*", r"restrict\w*", r"non-?compet", r"\b(engag|develop|market|sell|distribut|acquir|own|invest|hold)\w*"),
    ),
    "volume_restriction": ItemPatterns(
        include=_rx(r"\b(exceed\w*|in excess of|excess|more than|above|beyond|over|greater than|surpass\w*)\b.{0,140}\b(units?|volumes?|quantit\w*|number|usage|users?|seats?|licen[cs]es?|copies|limits?|thresholds?|caps?|forecasts?|capacity|amounts?|minutes|transactions)",
                    r"\b(additional|overage|excess|incremental) (fees?|charges?|usage|units?|volumes?|capacity)", r"\b(maximum|up to)\b.{0,60}\b(units?|quantit\w*|volumes?|number|users?|copies|capacity)",
                    r"\b(volume|quantity|capacity|usage) (limit|cap|restriction|threshold|tiers?)\w*"),
    ),
}


# CUAD categories whose classifier is gated by their own vocabulary rather than their checklist item's: an exception
# to a non-compete does not read like the restriction, nor a usage ceiling like a minimum commitment.
CATEGORY_GATES = {
    "Competitive Restriction Exception": "competitive_restriction_exception",
    "Volume Restriction": "volume_restriction",
}


def include_hits(item_id: str, text: str) -> list[int]:
    """Indices of the item's include patterns that match `text`."""
    pats = ITEM_PATTERNS.get(item_id)
    if pats is None:
        return []
    return [i for i, p in enumerate(pats.include) if p.search(text)]


def excluded(item_id: str, text: str) -> bool:
    pats = ITEM_PATTERNS.get(item_id)
    return bool(pats and any(p.search(text) for p in pats.exclude))


def gate(item_id: str, text: str) -> bool:
    """True when the unit uses the item's language and none of its look-alikes."""
    if not include_hits(item_id, text) or excluded(item_id, text):
        return False
    req = ITEM_PATTERNS[item_id].require
    return not req or any(p.search(text) for p in req)


def pattern_features(text: str) -> list[str]:
    """Feature names of every include pattern hit, for the classifier."""
    feats = []
    for item_id, pats in ITEM_PATTERNS.items():
        for i, p in enumerate(pats.include):
            if p.search(text):
                feats.append(f"pat:{item_id}:{i}")
    return feats
