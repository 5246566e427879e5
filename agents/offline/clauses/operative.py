"""The clause's own operative sentence, restated: "Licensed Users must indemnify, hold harmless and defend
Licensor (§ 4.1)."

When no reading of the checklist item applies (the clause is drafted in a way its item's reader does not
know), the sentence a lawyer would still write is the clause's first operative sentence in plain form: its
party subject, the modal as an obligation or a permission ("shall" -> "must", "shall not" -> "may not",
"shall have the right to" -> "may"), and the verb phrase as the clause words it, up to its first break.

It is written only when that restatement is safe to read on its own:
- the subject is one of the agreement's parties (or "each party", "neither party", "the receiving party");
- what stands before the subject is a short condition ("If Licensee fails to pay within 30 days,") or an
  enumerator, never a clause the subject belongs to;
- the verb phrase ends at a comma, semicolon or sentence end within a few words, so nothing is cut mid-thought;
- every capitalised word left is a party's name, a section or an exhibit; the clause's defined terms follow a
  determiner ("the Products", "any Confidential Information") and are written in lower case; any other
  capitalised word (a third party, an authority: "FDA", "Medicare") means the sentence is not written.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator

from agents.facts.places import COUNTRIES, DEMONYMS, PROVINCES, US_STATES
from agents.offline.clauses.clause_parts import Mention, PartyIndex, mentions
from agents.offline.units import reading_text

_I = re.IGNORECASE

# an aside between a modal and its verb ("shall, at its sole expense, and upon request of Licensor, transfer"); it
# opens with a preposition or a qualifier, so that a list's commas ("execute, file, deliver") are never taken for one
_ASIDE = (r",\s*(?:(?:and|but|or)\s+)?(?:at|upon|on|in|by|for|with|without|subject|to|as|if|where|when|promptly|within|after|directly|"
          r"before|prior|following|from|under|pursuant|except|unless|jointly|severally|not|hereby|each|both|either)\b[^,;.]{0,80}")
# the modal and what it says of the subject, as (pattern, the plain modal a sentence writes)
_MODALS = [
    (r"(?:shall|will)\s+have\s+the\s+first\s+right(?:\s*" + _ASIDE + ")*,?\s+to", "has the first right to"),
    # what the right is matters: an exclusive right is the clause's point, not a permission
    (r"(?:shall|will)\s+have\s+the\s+(?:sole\s+and\s+)?(?:sole|exclusive)\s+right(?:\s*" + _ASIDE + ")*,?\s+to",
     "has the exclusive right to"),
    (r"(?:shall|will)\s+have\s+(?:the|a)\s+non-?exclusive\s+right(?:\s*" + _ASIDE + ")*,?\s+to", "has a non-exclusive right to"),
    (r"(?:shall|will)\s+have\s+the\s+(?:absolute\s+)?right(?:\s*" + _ASIDE + ")*,?\s+to", "may"),
    (r"(?:shall\s+be|will\s+be|is|are)\s+entitled(?:,[^,;.]{0,60},)?\s+to", "may"),
    (r"(?:shall|will)\s+be\s+(?:required|obligated|obliged)\s+to", "must"),
    # "shall be prohibited from developing": kept with its gerund, which no plain modal takes
    (r"(?:shall|will)\s+be\s+(?:prohibited|precluded|restricted|barred)\s+from", "is prohibited from"),
    (r"(?:shall|will)\s+not\s+have\s+any", "has no"),
    (r"(?:hereby\s+)?(?:agrees?|undertakes?|covenants?)\s+(?:that\s+it\s+(?:shall|will)\s+)?(?:not\s+to|to\s+not)", "may not"),
    (r"(?:hereby\s+)?(?:agrees?|undertakes?|covenants?)\s+(?:to|that\s+it\s+(?:shall|will))", "must"),
    (r"(?:shall|will|must)\s+not\s+be", "is not"),
    (r"(?:shall|will|must)\s+not|shall\s+in\s+no\s+event|will\s+in\s+no\s+event|cannot|may\s+not", "may not"),
    (r"(?:shall|will|must)\s+be", "is"),
    (r"(?:shall|will|must)\s+have", "has"),
    (r"(?:shall|will|must)", "must"),
    (r"may", "may"),
    # a present-tense act or statement, restated as written: "Client grants to Excite a licence", "Customer waives
    # any right", "Distributor acknowledges that Company owns ..."
    (r"(?:hereby\s+)?(?:grants?|waives?|assigns?|releases?|appoints?|licenses?|acknowledges?|represents?(?:\s+and\s+warrants?)?|"
     r"warrants?(?:\s+and\s+represents?)?|consents?|owns?|retains?)", "="),
]
_MODAL = re.compile(r"\s*(?:" + "|".join(f"(?P<m{k}>{p})" for k, (p, _) in enumerate(_MODALS)) + r")\b"
                    r"(?:(?:\s*" + _ASIDE + ")+,)?\s*", _I)
_NOR_AFFILIATES = re.compile(r"\s+nor\s+(?:any\s+of\s+)?(?:its|their)\s+(?:respective\s+)?(?:affiliates|subsidiaries)", _I)
# between the subject and its modal: an aside, "and its Affiliates", "hereby", "also"
_BETWEEN = re.compile(r"(?:\s*,[^,;.()]{0,80},|\s*\([^()]{0,80}\)|\s+(?:and|or)\s+(?:its|their)\s+(?:affiliates|subsidiaries)"
                      r"|\s+(?:also|hereby|further|thereupon|then|each))*", _I)  # "The parties each agree to"
_NOT_VERBS = {"be", "been", "have", "has", "the", "a", "an", "any", "all", "such", "its", "their", "that", "this", "to",
              "in", "on", "at", "by", "for", "with", "of", "from", "not", "no", "each", "either", "if", "as", "so",
              "thereafter", "prior", "during", "upon", "promptly", "also", "only", "within", "after", "before", "under", "until",
              "through", "and", "or", "otherwise", "procure", "ensure", "acknowledge", "acknowledges", "agree",
              "represent", "warrant", "confirm", "understand"}
_ADVERB = r"(?:(?:promptly|immediately|diligently|timely|exclusively|solely|jointly|severally|(?:not\s+)?unreasonably|" \
          r"reasonably|fully|also|further|thereafter|thereupon|then|directly|indirectly|only|otherwise|freely)\s+)"
_VERB = r"(?!(?:as|at|in|on|by|for|with|from|to|upon|without|and|or|the|a|an|any|all|its|their|such|each)\b)[a-z][a-z-]+"
_VERB_GROUP = re.compile(_ADVERB + r"*(?P<v>" + _VERB + r")(?:\s*,\s*(?:" + _ADVERB + r"?" + _VERB + r")){0,4}"
                         r"(?:,?\s+(?:and|or|and/or)\s+" + _ADVERB + r"?(?:" + _VERB + r")(?:\s+harmless)?)?")
# what opens a sentence before its subject without making the subject part of another clause
_ENUM = re.compile(r"^\s*(?:\d+(?:\.\d+)+\.?\s+)?(?:\(?[a-z0-9]{1,4}[.)]\s*)*(?:(?:in addition|further(?:more)?|accordingly|additionally|"
                   r"notwithstanding (?:the foregoing|anything to the contrary[^,]{0,60})|without limiting[^,]{0,60}|"
                   r"in consideration (?:of|for) [^,;]{0,80}|"
                   r"thereafter|also|moreover|similarly|likewise|as such|for the avoidance of doubt|in such (?:event|case)|in that case),\s*)?"
                   # a proviso or an agreement that frames the sentence: "provided, however, that", "The parties agree that"
                   # "Charity Tunes agrees that during the period ..., Charity Tunes shall not": a party's own frame
                   r"(?:provided(?:,\s*however)?,?\s+that\s+|(?:the parties|each party|it is|(?-i:[A-Z][\w&.'\u2019-]*)(?:\s+(?-i:[A-Z])[\w&.'\u2019-]*){0,3})\s+(?:hereby\s+)?"
                   r"(?:(?:agree|acknowledge|understand|confirm)[sd]?|agreed|acknowledged|understood)\s+(?:and\s+\w+\s+)?that\s+)?", _I)
_CONDITION = re.compile(r"^(?:if|in the event|upon|on|following|after|where|when|whenever|during|throughout|within|before|prior to|"
                        r"at any time|from and after|until|in connection with|in (?:the )?case of|in case|subject to|except as|to the (?:full )?extent|"
                        r"unless|failing|should|for (?:the )?purposes? of|other than|in order to|save as|at (?:its|their|the) (?:option|discretion|"
                        r"request|expense))\b[^;:]*,\s*(?:then\s*)?$", _I)
# words a verb phrase does not end on; a participle left by its cut qualifier ("the termination fee computed [in
# accordance with ...]") goes too
_DANGLING = re.compile(r"(?:\s+(?:the|a|an|of|to|and|or|any|all|such|its|their|for|with|in|on|by|at|from|as|that|"
                       r"which|under|each|no|this|these|those|other|than|per|be|computed|calculated|determined|"
                       r"described|specified|set\s+forth|referred\s+to))+$", _I)
# a heading in capitals before the sentence's condition: "SECTION 6 LICENSED INTERNAL CODE  If the Loaned Equipment ..."
_HEADING = re.compile(r"^\s*(?=[^a-z]*[A-Z]{2})(?:(?:[A-Z][A-Z&/-]+|\d+(?:\.\d+)*\.?|--?)[.:]?\s+){1,8}"
                      r"(?=(?i:if|in the event|upon|on|following|after|where|when|subject to|except|unless|during|notwithstanding)\b)")
# where a verb phrase may end: punctuation (not the stop of "Dr." or "Inc.", nor a decimal's), a bracket, a new
# clause ("and each audit shall"), or a qualification ("provided", "unless", "including")
_BREAK = re.compile(r"\s*(?:[,;:]|(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bNo)(?<!\bInc)(?<!\bCo)(?<!\bCorp)(?<!\bLtd)"
                    r"(?<!\bSt)(?<!\b[A-Z])\.(?!\d)|\(|\s(?:and|but)\s+(?=(?:[\w'\u2019-]+\s+){0,5}(?:shall|will|may|must)\b)"
                    r"|\s(?:provided|except|with the exception of|unless|subject to|in accordance with|pursuant to|so long as|"
                    r"if|when|until|notwithstanding|including|without limitation)\b)", _I)
# a comma that ends the object: what follows qualifies it or starts a clause of its own
_ENDS_AT_COMMA = re.compile(r"\s*(?:without\s+(?:the\s+)?(?:(?:prior|express|written|advance)\s+){0,3}consent|(?:and\s+)?(?:its|their|his|her)\s+(?:respective\s+)?(?:affiliates|subsidiaries|officers|directors|"
                            r"employees|agents|successors|parents?|shareholders|members|partners|representatives|licensees)|provided|except|excluding|unless|including|inclusive of|which|who|whose|subject to|in accordance with|"
                            r"pursuant to|as|if|when|whether|so that|such that|but|until|although|though|whereas|while|and\s+(?:shall|will|may|must|agrees?)|"
                            # ", either independently or in collaboration with a third party": how, not what
                            r"either\s+(?:directly|indirectly|independently|alone|itself|on\s+its\s+own)|"
                            r"(?:and|or)\s+(?:[\w'\u2019-]+\s+){0,5}(?:shall|will|may|must)|"
                            # ", and for the six-month period ..., Premier will be required": a clause with its own subject
                            r"(?:and|or)\s+[^;.]{0,120}?,\s*(?:the\s+)?(?-i:[A-Z])[\w&.'\u2019-]*(?:\s+(?-i:[A-Z])[\w&.'\u2019-]*){0,3}\s+(?:shall|will|may|must)|"
                            r"(?:and|but)\s+(?:[\w'\u2019-]+\s+){0,3}(?:agrees?|acknowledges?|accepts?|covenants?|undertakes?|hereby))\b", _I)
_LIST = re.compile(r"(?:,\s*[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2})*,?\s+(?:and|or|and/or)\s+[a-z][\w-]*")
_DETERMINER = re.compile(r"(?:\b(?:the|a|an|any|all|such|its|their|each|this|that|these|those|no|other|his|her|every|one|"
                         r"either|both|of such|said)\s+(?:[a-z][\w-]*\s+)?|\b(?:and|or)\s+|['\u2019]s?\s+)$", _I)
_NUMERAL = re.compile(r"\b((?:one |two |three |four |five )?hundred(?: and)?(?: [a-z]+(?:-[a-z]+)?)?|[a-z]+(?:-[a-z]+)?)\s+\((\d+)\)", _I)
_SECTION = re.compile(r"\b(?:sections?|articles?|clauses?|paragraphs?)\s+(\d[\w.()]*)", _I)
_DOC_PART = re.compile(r"\b(?:Exhibit|Schedule|Appendix|Annex|Attachment)\s+[A-Z0-9][\w-]*(?:\.\d+)*")
_MAX_WORDS = 28
# an item of a list within a sentence: ", (ii) the Company shall not ..."
_ITEM = re.compile(r"[,;]?\s*(?:and\s+|or\s+)?(?<![\w)])\((?P<n>i{1,3}|iv|vi{0,3}|ix|x|[a-h]|\d{1,2})\)\s+", re.I)
_PLAIN_MODALS = {"must", "may", "may not", "is", "is not", "has", "has no", "has the first right to", "has the exclusive right to",
                 "has a non-exclusive right to", "is prohibited from"}
_PLURAL = {"is": "are", "is not": "are not", "has": "have", "has no": "have no", "has the first right to": "have the first right to",
           "has the exclusive right to": "have the exclusive right to", "has a non-exclusive right to": "have a non-exclusive right to",
           "is prohibited from": "are prohibited from"}
_MONTH = r"\b(?:" + "|".join(calendar.month_name[1:]) + r")"
_DATE_COMMA = re.compile(r"(" + _MONTH + r"\s+\d{1,2}(?:st|nd|rd|th)?),(?=\s+\d{4}\b)")
_MONTHS = re.compile(_MONTH + r"(?=\s+\d{1,2}(?:st|nd|rd|th)?\b|\s+\d{4}\b)")  # "until January 1, 2032"; not the verb "may"
# abbreviations of things, not of anyone: kept as written
ACRONYMS = {"IP", "U.S", "U.S.", "US", "USA", "EU", "UK", "R&D", "GAAP", "VAT", "API", "SOW", "SLA", "OEM", "IT", "PC", "TV",
             "CD", "DVD", "URL", "HTML", "SKU", "UPC", "EDI", "ERP", "CRM", "SaaS", "IPO", "NDA"}
# places and their adjectives keep their capitals ("in the United States", "the Canadian market"); they name no one
_PLACES = re.compile(r"(?<![\w-])(?:(?:People['\u2019]s\s+)?(?:Republic|State|Commonwealth|Province|Kingdom)\s+of\s+)?(?:" + "|".join(re.escape(n) for n in sorted((*US_STATES, *PROVINCES, *COUNTRIES, *DEMONYMS), key=len, reverse=True))
                     + r")(?![\w-])")
# participles that describe a state after "shall be" ("shall be entitled", "shall not be obligated"), not a passive duty
_STATIVE = {"authorized", "authorised", "permitted", "required", "obligated", "entitled", "prohibited", "restricted",
            "deemed", "limited", "located", "interested", "qualified", "licensed", "registered", "incorporated",
            "organized", "organised", "owned", "based", "allowed", "empowered", "released", "excused", "relieved"}


# an indemnity's roles, which its procedure clauses bind: "the indemnified party shall promptly notify ..."
_ROLE = re.compile(r"\b(?:(the|each|an|any)\s+)(indemnified|indemnifying)\s+part(?:y|ies)\b", _I)


# both parties bound together: "The parties shall negotiate in good faith ...", "The Parties hereto agree to ..."
_BOTH = re.compile(r"\bthe\s+parties(?:\s+hereto)?\b", _I)


# the party a condition has just named: "If a claim is made against an indemnified party, such party will notify ..."
_THAT_PARTY = re.compile(r"\b(?:such|said)\s+party\b", _I)


def _roles(q: str) -> list[Mention]:
    return [Mention(m.start(), m.end(), f"{(m.group(1) or 'the').lower()} {m.group(2).lower()} party") for m in _ROLE.finditer(q)] + \
        [Mention(m.start(), m.end(), "the parties") for m in _BOTH.finditer(q)] + \
        [Mention(m.start(), m.end(), "that party") for m in _THAT_PARTY.finditer(q)]


def _subject(m: Mention, idx: PartyIndex) -> str:
    """The subject as a sentence names it: a party by its defined term, with its name where the term alone would
    not tell the reader who it is ("Distributor (XYZ Corp.)")."""
    if 0 <= m.party < len(idx.firsts):
        return idx.firsts[m.party]
    if m.actor.endswith(("indemnified party", "indemnifying party")):
        return m.actor[:1].upper() + m.actor[1:]
    return {"neither party": "Neither party", "either party": "Either party", "each party": "Each party",
            "the receiving party": "The receiving party", "the parties": "The parties", "that party": "That party"}.get(m.actor, m.actor)


# two or more capitalised words with no determiner ("Regulatory Filings", "Off-The-Shelf Knee Implants"): a defined
# term; not one that runs into a company's form ("Wal-Mart Stores, Inc."), an all-capitals word or an ampersand
_TERM_RUN = re.compile(r"[A-Z][\w-]*[a-z][\w-]*(?:\s+(?:of\s+|for\s+|and\s+)?[A-Z][\w-]*[a-z][\w-]*)+(?![\w-]|\s+(?:[A-Z]|&)|,?\s+"
                       r"(?:Inc|Corp|Corporation|Co|Company|LLC|L\.L\.C|Ltd|Limited|LP|L\.P|plc|GmbH|AG|SA|NV|BV|Bank|Group|Holdings)\b)")


def plain_words(words: str, idx: PartyIndex) -> str | None:
    """The clause's words with defined terms in lower case, '§' for sections, numerals once; None when a
    capitalised word names someone or something that is not a party."""
    words = _NUMERAL.sub(lambda m: m.group(2), " ".join(words.split()))
    words = _SECTION.sub(lambda m: "§ " + m.group(1), words)
    # "licensed internal code (Code)": where the clause defines a term, the definition adds nothing to the sentence
    words = re.sub(r"\s*\((?:the\s+)?[\"\u201c]?[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,3}[\"\u201d]?\)", "", words)
    # 'the "Territory"': the quotes mark where the clause defines a term; read back, it is the term
    words = re.sub(r'["\u201c]([A-Z][^"\u201c\u201d]{0,60}?)["\u201d]', r"\1", words)
    keep: dict[str, str] = {}

    def hold(text: str) -> str:
        key = f"\x00{len(keep)}\x00"
        keep[key] = text
        return key
    words = _DOC_PART.sub(lambda m: hold(m.group(0)), words)
    words = _PLACES.sub(lambda m: hold(m.group(0)), words)
    words = _MONTHS.sub(lambda m: hold(m.group(0)), words)
    for term, i in idx.terms:
        for form in {term, term.upper()}:
            words = re.sub(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", lambda _: hold(idx.displays[i]), words)
    out: list[str] = []
    in_term = False  # inside a defined term of several words ("the Confidential Information")
    in_run = 0  # the end of a defined term of several capitalised words
    for w in re.finditer(r"\S+", words):
        tok = w.group(0)
        if w.start() < in_run:
            out.append(tok.lower())
            continue
        if re.match(r"[A-Z]", tok) and not tok.startswith("\x00"):
            if tok.strip(".,;:'()") in ACRONYMS:
                out.append(tok)  # "IP", "U.S.": a common abbreviation names no one
                in_term = not re.search(r"[,;:.)]$", tok)
                continue
            if tok.strip(".,'").isupper() and len(tok.strip(".,'")) > 1:
                after = words[w.end():]
                if re.match(r"\s+[A-Z][a-z]", after) and (_TERM_RUN.match(after.lstrip()) or re.match(r"\s+[A-Z][a-z]{3,}s\b", after)):
                    out.append(tok)  # "AMR Product Suites": an abbreviation that opens a defined term, kept as written
                    in_term = True
                    continue
                return None  # "FDA": an authority or a third party, no defined term of the agreement
            # "for Products listed": a plural defined term needs no determiner; a name ("Medicare") does
            plural = re.fullmatch(r"[A-Z][a-z]{3,}s[,;:.]?", tok) is not None and bool(out) and (
                out[-1].islower() or re.fullmatch(r"[\d,.*]+", out[-1]) is not None)  # "500 Units"
            after_party = bool(out) and out[-1].startswith("\x00")  # "the Harbor Marks": a term named after a party
            if out and not (in_term or plural or after_party or _DETERMINER.search(" ".join(out) + " ")):
                # "for Patient-Specific Instrumentation": a defined term of two words or more, written without a
                # determiner; one word ("Medicare") may be anyone's name
                run = _TERM_RUN.match(words, w.start())
                if not run:
                    return None  # "Medicare", "Microsoft": a name that is no party's
                in_run, in_term = run.end(), False
                out.append(tok.lower())
                continue
            tok, in_term = tok.lower(), not re.search(r"[,;:.)]$", tok)
        else:
            in_term = in_term and tok in ("of", "&")  # "the exclusive Right of Reference": one term
        out.append(tok)
    text = " ".join(out)
    for key, val in keep.items():
        text = text.replace(key, val)
    return text


def _object(rest: str) -> str | None:
    """The verb's object up to where the clause plainly ends; None when it runs on past a comma into more of
    itself ("permit an independent, certified public accountant ..."), so that cutting would leave half a thought."""
    # "ten (10) years" is one number; "(NDA)", "(or its designee)" an aside or a definition, not where the clause ends
    rest = _NUMERAL.sub(lambda m: m.group(2), rest)
    # "its rights under this Agreement, in whole or in part, to one or more of its Affiliates": how much, not a new thought
    rest = re.sub(r",\s*(?:in\s+whole\s+or\s+in\s+part|from\s+time\s+to\s+time)\s*,", "", rest, flags=_I)
    # "appoints Reseller, and Reseller accepts the appointment, as a non-exclusive reseller": the acceptance is an aside
    rest = re.sub(r",\s*and\s+[\w.&'\u2019 ]{1,40}?\s+(?:hereby\s+)?accepts\s+(?:such|the|this|that|said)\s+appointment\s*,", "", rest,
                  count=1, flags=_I)
    rest = re.sub(r"\s*\((?!\s*(?:[ivx]+|[a-z]|\d+)\s*\))[^()]{0,60}\)", "", rest, flags=_I)
    # "obtain the Software (or any software or services which compete with the Software) for sale from any Entity other
    # than TouchStar": a longer aside that widens the object is still an aside; cutting at it would drop the "other than"
    rest = re.sub(r"\s*\((?:or|and|and/or|including|whether)\s[^()]{0,120}\)(?=\s+[a-z])", "", rest, flags=_I)
    rest = _DATE_COMMA.sub("\\1\x01", rest)  # "July 1, 2017": the comma of a date ends nothing
    rest = re.sub(r"(?<=\d),(?=\d{3}\b)", "\x01", rest)  # nor does a thousands separator ("3,000,000 Impressions")
    rest = re.sub(r"(?<=[a-z])\((e?s)\)", "\\1", rest)  # "product(s)": a plural, not an enumerator
    at, listed = 0, False
    while True:
        cut = _BREAK.search(rest, at)
        if cut is None:
            end = len(rest)
            break
        if cut.group(0).strip() == ",":
            # "prepare, file, prosecute and maintain Patents": a list goes on past its commas
            if _ENDS_AT_COMMA.match(rest, cut.end()):
                end = cut.start()
                break
            more = _LIST.match(rest, cut.start())
            if not more:
                if not listed or re.match(r"\s*(?:[a-z]+ly\s+)?(?:to|in|on|at|by|for|with|from|during|within|and|or|as|if|"
                                          r"the\s+(?:term|territory))\b", rest[cut.end():], _I):
                    return None  # "to, and to permit others to, during the Term, use": an aside, not the object
                # "developing, or causing another to develop, Patient-Specific Instruments": after a list of verbs
                # closed by "or", a comma leads to the object they share
                listed, at = False, cut.end()
                continue
            at, listed = more.end(), True
            continue
        elif cut.group(0).strip() == ":" and re.search(r"\d$", rest[:cut.start()]) and re.match(r"\d", rest[cut.end():]):
            return None  # "no later than 8:00 a.m. New York time": a time of day, which no cut may halve
        elif cut.group(0).strip() == "(" and re.match(r"\(\s*(?:[ivx]+|[a-z]|\d+)\s*\)", rest[cut.end() - 1:]):
            return None  # "(i) if Distributor ...": the enumerated conditions are the clause's substance
        end = cut.start()
        break
    obj = rest[:end]
    if len(obj.split()) > _MAX_WORDS:
        # "an action ... for injunctive relief to protect the parties' rights ... pending resolution of any claims":
        # what the action is for, or until when, may go; a relative clause ("Competitors that are ...") may not
        purpose = re.search(r"\s(?:pending|in order to|so as to|for the purpose of)\b", obj, _I)
        obj = obj[:purpose.start()] if purpose else obj
    # "GSK shall transfer to Theravance, or cause ..., ownership of": what is transferred comes later
    if len(obj.split()) > _MAX_WORDS or re.fullmatch(r"\s*(?:to|with|from)\s+\S+(?:\s+\S+)?\s*", obj, _I):
        return None
    # "..., without the prior written consent of Erchonia": the consent that lifts the restriction stays with it
    consent = re.match(r",\s*(without\s+(?:the\s+)?(?:(?:prior|express|written|advance)\s+){0,3}consent\s+of\s+[^,;.()]{1,40}?)(?=\s*[,;.]|$)",
                       rest[end:], _I)
    # "... until January 1, 2032": how long a restriction lasts is part of it
    until = re.match(r"\s+((?:until|through|before)\s+(?:[A-Z][a-z]+\s+\d{1,2}[,\x01]?\s+\d{4}|\d{4}))(?=\s*[,;.(]|$)", rest[end:])
    return (obj + "".join(" " + m.group(1) for m in (consent, until) if m)).replace("\x01", ",")


def operative_sentence(quote: str, idx: PartyIndex, section: str = "") -> str | None:
    """The quote's first operative sentence with a party subject, restated; None when none reads safely."""
    found = operative_reading(quote, idx, section)
    return found[0] if found else None


_SEQUENCES = (["i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix", "x"], list("abcdefgh"), [str(n) for n in range(1, 13)])


def _list_items(q: str, lo: int, hi: int) -> list[re.Match]:
    """The markers of a list that runs (i), (ii), (iii) ... or (a), (b) ... within q[lo:hi]; not "six (6) months"."""
    found = list(_ITEM.finditer(q, lo, hi))
    for seq in _SEQUENCES:
        chain: list[re.Match] = []
        for m in found:
            if m.group("n").lower() == seq[len(chain)] if len(chain) < len(seq) else False:
                chain.append(m)
        if len(chain) >= 2:
            return chain
    return []


def _parts(q: str) -> Iterator[tuple[int, int, str]]:
    """Each sentence as (start, end, ""); then, where it lists "(i) ..., (ii) ...", each item as (start, end, the
    words before the list), which frame every item ("During the Term, (i) ..., (ii) the Company shall not ...")."""
    for sentence in re.finditer(r"(?:[^.;:]|(?<=\bDr)\.|(?<=\bMr)\.|(?<=\bMs)\.|(?<=\bNo)\.|(?<=\bInc)\.|(?<=\bCo)\.|"
                                r"(?<=\bLtd)\.|(?<=\b[A-Z])\.(?=[A-Z]\.)|(?<=\b[A-Z]\.[A-Z])\.|\.(?=\S))+", q):
        lo, hi = sentence.span()
        yield lo, hi, ""
        items = _list_items(q, lo, hi)
        if len(items) >= 2 and items[0].start() > lo:
            frame = q[lo:items[0].start()].rstrip(" ,") + ", "
            for a, b in zip(items, items[1:] + [None]):
                yield a.end(), b.start() if b else hi, frame


def operative_reading(quote: str, idx: PartyIndex, section: str = "", subject: str = "") -> tuple[str, str] | None:
    """(The restated sentence, its subject as the sentence names it), or None. With `subject` (a party's term),
    only that party's sentences: what the clause says of the party a reading named."""
    q = reading_text(quote)
    ms = sorted([m for m in mentions(q, idx) if m.actor != "other party"] + _roles(q), key=lambda m: m.start)
    for lo, hi, frame in _parts(q):
        for m in (x for x in ms if lo <= x.start < hi):
            if subject and _subject(m, idx).split(" (")[0] != subject:
                continue
            if q[m.end:m.end + 1] in ("'", "\u2019"):
                continue
            # "neither XSPA nor any of its affiliates shall": XSPA (and its affiliates) may not
            neither = re.search(r"\bneither\s+$", q[max(lo, m.start - 10):m.start], _I)
            nor = _NOR_AFFILIATES.match(q, m.end) if neither else None
            between = _BETWEEN.match(q, nor.end() if nor else m.end)
            modal = _MODAL.match(q, between.end()) if between else None
            if not modal or modal.end() > hi:
                continue
            kind = next(_MODALS[k][1] for k in range(len(_MODALS)) if modal.group(f"m{k}"))
            if kind == "=":  # the verb as the clause writes it, less "hereby"
                kind = " ".join(re.sub(r"^hereby\s+", "", modal.group(modal.lastgroup), flags=_I).lower().split())
            at = modal.end() + len(re.match(r"(?:\([a-z0-9]{1,4}\)\s*)?", q[modal.end():]).group(0))
            if kind == "may" and "entitled" in modal.group(0).lower() and re.match(
                    r"\w+(?:ment|tion|sion|ance|ence|ity|ies|ees|ages|sation|s)\b", q[at:], _I):
                kind = "is entitled to"  # "entitled to payment": a noun follows, not a verb
            # "shall be responsible for", "shall have sole responsibility for", "grants to Excite a licence": no verb follows
            if kind in ("is", "is not", "has", "has no") or kind not in _PLAIN_MODALS:
                if re.match(r"(?:no|not|deemed|construed|made|bound|entitled)\b", q[at:], _I):
                    break
                head = at
                word = re.match(r"(?:\w+ly\s+)?(\w+)", q[at:])
                if kind in ("is", "is not") and word and re.fullmatch(r"\w+ed", word.group(1)) and word.group(1).lower() not in _STATIVE:
                    kind = "must be" if kind == "is" else "may not be"  # "shall be insured": an obligation
            else:
                verbs = _VERB_GROUP.match(q, at)
                if not verbs or verbs.group("v").lower() in _NOT_VERBS:
                    break
                head = verbs.end()
            start, who = m.start, _subject(m, idx)
            if nor:
                start = m.start - len(neither.group(0))
                kind = {"must": "may not", "may": "may not", "is": "is not", "has": "has no"}.get(kind)
                if kind is None:
                    break
                who += " (and its affiliates)"
            if who == "The parties":
                kind = _PLURAL.get(kind, kind)
            if who == "That party" and not re.search(r"[a-z]", q[lo:m.start]):
                continue  # "Such party shall ...": which party, only the sentence before says
            # "Merchant and Purchaser shall have access": two parties bound together
            pair = next((p for p in ms if p.end <= m.start and p.party >= 0 and m.party >= 0 and p.party != m.party
                         and re.fullmatch(r"\s+(?:and|or|&)\s+", q[p.end:m.start], _I)), None)
            if pair is not None:
                start, who = pair.start, f"{_subject(pair, idx)} {q[pair.end:m.start].strip()} {_subject(m, idx)}"
                kind = _PLURAL.get(kind, kind)
            sentence_text = re.sub(r"\bthe\s+$", "", frame + q[lo:start], flags=_I)  # "Upon termination, the Company shall"
            lead = sentence_text[_ENUM.match(sentence_text).end():]
            if lead.strip() and not re.search(r"[a-z]", lead) and not lead.strip()[-1:].isalpha():
                lead = ""  # "ARTICLE 4 -- PROPERTY RIGHTS 4.1": a heading and its number
            heading = _HEADING.match(lead)
            lead = lead[heading.end():] if heading else lead
            if lead.strip() and not (_CONDITION.match(lead.strip() + " ") and len(lead.split()) <= (30 if frame else 28)):
                continue  # the subject is inside a clause of its own; the sentence's own subject may come later
            rest = q[head:hi]
            if who in ("The parties", "Each party") and re.match(r"(?:acknowledge|agree|understand|confirm)s?$", kind) and \
                    re.match(r"\s*(?:and\s+(?:acknowledge|agree|understand|confirm)s?\s+)?that\b", rest, _I) and \
                    any(head < x.start < hi and _MODAL.match(q, _BETWEEN.match(q, x.end).end()) for x in ms):
                continue  # "The Parties acknowledge and agree that ..., the Parties shall negotiate": the frame of the sentence
            # "may pay, as an Expense, retention bonuses": an aside between the verb and its object
            aside = re.match(r"\s*,\s*(?:as|at|in|on|by|for|with|from|upon|without|to the extent|from time to time)\b[^,;.]{0,60},",
                             rest, _I)
            if aside:
                rest = rest[aside.end():]
            obj = _object(rest)
            if obj is None:
                break
            if re.search(r"\b(?:into|onto|to|in|on|with|for|from|of|by|at|upon|about|under)$", (q[at:head] + obj).strip(), _I):
                break  # "shall not enter into, and shall cause its Affiliates not to enter into, any agreement"
            phrase = _DANGLING.sub("", (q[at:head] + obj).strip())
            if re.search(r"\bhold\s+(?!harmless)[^;.]*$", phrase, _I) and not re.search(r"\bharmless\b", phrase, _I) and \
                    re.search(r"\bharmless\b", q[head:hi], _I):
                phrase += " harmless"  # "hold Kitov and its Affiliates, and their respective officers, ... harmless"
            if kind == "has" and len(phrase.split()) < 4:
                break  # "IBM has an option": what the option is comes later
            if re.search(r"\b(?:the following|as follows|following)$", phrase, _I) or not phrase:
                break  # what follows the colon is the clause's substance
            said = plain_words(phrase, idx)
            cond = plain_words(re.sub(r",?\s*then\s*$", "", lead.strip()).rstrip(","), idx) if lead.strip() else ""
            # a redaction, as the filing marks it, without brackets a reader could take for an editor's note
            said, cond = (None if x is None else re.sub(r"\[[\s.\u2026*]*\*[\s.\u2026*]*\]", "***", x) for x in (said, cond))
            if said is None or cond is None:
                break
            if kind == "must" and re.match(r"own\b|retain\s+(?:all\s+|sole\s+|exclusive\s+)*(?:right|title|ownership)", said, _I):
                # "Investor shall own all right, title and interest": a statement of who owns, not a duty
                plural = who == "The parties" or re.search(r" (?:and|or|&) ", who)
                said, kind = (said if plural else re.sub(r"^(\w+)", r"\1s", said)), ""
            if who == "Neither party":  # "Neither party shall assign": the negative is in the subject
                kind = {"must": "may", "may not": "may", "is not": "is"}.get(kind, kind)
            text = f"{who} {kind} {said}" if kind else f"{who} {said}"
            if cond:
                text = cond[:1].upper() + cond[1:] + ", " + text[:1].lower() + text[1:] if m.party < 0 else \
                    cond[:1].upper() + cond[1:] + ", " + text
            for shown, first in zip(idx.displays, idx.firsts):  # a party named first in the object: who it is
                at = re.search(r"(?<![\w-])" + re.escape(shown) + r"(?![\w-])", text) if first != shown and first not in text else None
                # the name stands alone, not as a possessive ("Client's") or before a noun ("VS preferred pricing")
                if at and re.match(r"\s*(?:$|[,;:.)]|(?:and|or|with|to|for|of|in|on|by|from|under|that|as|against|at|upon|"
                                   r"within|which|who|whose|if|unless|until|after|before|during|without|the|a|an|any|all|such|its|their|each)\b)",
                                   text[at.end():]):
                    text = text[:at.start()] + first + text[at.end():]
            if q[hi:hi + 1] == ":" and (that := re.search(r"\sthat\s+(.*)$", text)) and not re.search(
                    r"\b(?:shall|will|is|are|was|were|has|have|had|may|must|can|could|would|does|do|did)\b", that.group(1), _I):
                # "CEIS represents and warrants to XFN that during the Term of this Agreement:": what is warranted is
                # in the list after the colon, and the sentence would stop before saying it
                continue
            return text + (f" (§ {section})" if section else "") + ".", who
    return None
