"""Agreement facts read from a document's text: title, parties, dates, term, governing law.

Pure functions over the text (no I/O): `extract_facts` runs once per document in a review, so it reads the
preamble (the first few thousand characters), the signature blocks (the last few) and makes one regex
scan of the whole text for the term and the governing law.
"""

from __future__ import annotations

import re

from agents.facts.dates import (blank_date, defined_effective_date, effective_as_dated, iso, header_date, letter_date, preamble_dates,
                                read_term, signature_date, witness_date)
from agents.facts.law import governing_law, title
from agents.facts.models import AgreementFacts, Party
from agents.facts.parties import HEAD_CHARS, find_parties

__all__ = ["AgreementFacts", "Party", "extract_facts", "party_names", "resolve_party"]


# PDF text may write a semicolon as U+037E, the Greek question mark that looks like one: "90067; and (c) Diplomat
# Group" then ends no party's entry. Same length, so every span still points into the document's own text.
_SAME_LENGTH = str.maketrans({"\u037e": ";"})


def extract_facts(text: str) -> AgreementFacts:
    text = text.translate(_SAME_LENGTH)
    parties, pspan = find_parties(text)
    preamble_start = pspan[0] if pspan != (0, 0) and pspan[0] < HEAD_CHARS else None
    # the preamble's dates sit just before or inside the party list
    window = (max(0, (preamble_start or 0) - 1200), min(len(text), pspan[1] + 400) if preamble_start else 3000)
    (agreed, aspan), (effective, espan) = preamble_dates(text, window)
    if agreed is None and effective is not None:
        # "This Agreement, effective as of June 1, 2019, is between": the one date the agreement bears
        agreed, aspan = effective, espan
    if effective is None:
        effective, espan = defined_effective_date(text)
    if agreed is None and not blank_date(text, window):
        # no date of its own in the preamble ("as of the Effective Date"): a letter's date line, else the date it
        # was executed as of, else signed on, else the date it took effect. A preamble that leaves its date blank
        # states none, whatever the signatures say.
        for found in (letter_date(text, preamble_start or 1500), header_date(text, preamble_start or 1500),
                      witness_date(text), signature_date(text),
                      (effective, espan)):
            if found[0] is not None:
                agreed, aspan = found
                break
    if effective is None and agreed is not None and (as_dated := effective_as_dated(text)):
        effective, espan = agreed, as_dated
    term, tspan, expires, xspan = read_term(text, effective or agreed)
    law, lspan = governing_law(text)
    name, nspan = title(text, preamble_start)
    return AgreementFacts(
        title=name, title_span=nspan, parties=parties, parties_span=pspan,
        agreement_date=iso(agreed), agreement_date_span=aspan, effective_date=iso(effective),
        effective_date_span=espan, expiration=iso(expires), expiration_span=xspan, term=term, term_span=tspan,
        governing_law=law, governing_law_span=lspan)


def party_names(facts: AgreementFacts) -> list[str]:
    """Each party's name as written, in the agreement's order."""
    return [p.name for p in facts.parties]


def _key(word: str) -> str:
    return " ".join(re.findall(r"\w+", word.lower()))


def resolve_party(facts: AgreementFacts, word: str) -> Party | None:
    """The party a word means: its name, its defined term or one of its aliases ('Distributor' -> the Party
    defined as "Distributor"). None when the word is no party of this agreement; a collective alias shared by
    several parties resolves to the first."""
    k = _key(word)
    if not k:
        return None
    for p in facts.parties:
        if k in {_key(t) for t in (p.name, p.role, *p.aliases) if t}:
            return p
    return None
