"""What an agreement says about itself: who is bound, since when, until when, under which law.

Every value carries the character span it was read from, so the app and the memo can show the
passage behind it instead of asking the reader to trust an extraction.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

Span = tuple[int, int]


class Party(BaseModel):
    """One party to the agreement, as the agreement itself names and defines it."""

    name: str = Field(description='The party\'s name as written, e.g. "Cisco Systems, Inc."; "" when the agreement '
                                  'names it only by a role ("the Company") and gives no name for that role')
    role: str = Field("", description='The first defined term the agreement gives it, e.g. "Cisco" or '
                                      '"Distributor"; "" when the agreement defines none')
    aliases: list[str] = Field(default_factory=list,
                               description="Other defined terms that mean this party (a collective term it shares "
                                           "with others, e.g. 'Agent', counts as an alias of each)")
    span: Span = Field((0, 0), description="Character span of the name in the document text")


class AgreementFacts(BaseModel):
    """The basic facts of one agreement, each with the span it was read from ((0, 0) when not found)."""

    title: str = Field("", description='The agreement\'s title, e.g. "Distribution Agreement"; "" when none')
    title_span: Span = (0, 0)
    parties: list[Party] = Field(default_factory=list, description="Parties in the order the agreement names them")
    parties_span: Span = Field((0, 0), description="The passage (preamble or signature blocks) the parties came from")
    agreement_date: str | None = Field(None, description="ISO date the agreement is dated / made on")
    agreement_date_span: Span = (0, 0)
    effective_date: str | None = Field(None, description="ISO date the agreement defines as its effective date")
    effective_date_span: Span = (0, 0)
    expiration: str | None = Field(None, description="ISO date the initial term ends, when the agreement states one "
                                                     "or a fixed term from a known start date fixes it; else None")
    expiration_span: Span = (0, 0)
    term: str = Field("", description="The term in plain words, e.g. \"5 years from the Effective Date, renewing "
                                      "for 1-year periods unless 90 days' notice\"; \"\" when none is found")
    term_span: Span = (0, 0)
    governing_law: str = Field("", description='Jurisdiction whose law governs, e.g. "New York", "England and Wales"')
    governing_law_span: Span = (0, 0)

