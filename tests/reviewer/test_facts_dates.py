"""agents.facts dates and term on hand-written preambles and term clauses (none copied from CUAD).

Each case is one drafting form: where the agreement's date, its effective date and its end are written.
"""

from __future__ import annotations

import pytest

from agents.facts import extract_facts

PARTIES = (' by and between Acme Widgets, Inc., a Delaware corporation ("Acme"), and Bolt Supply LLC ("Bolt").\n\n'
           "WHEREAS, Acme makes widgets.\n\n1. Term. The term of this Agreement shall be three (3) years from the "
           "Effective Date.\n\nIN WITNESS WHEREOF, the parties have executed this Agreement.\n\nACME WIDGETS, INC.\n"
           "By: /s/ A\nDate: July 9, 2015\n\nBOLT SUPPLY LLC\nBy: /s/ B\nDate: July 10, 2015\n")


def facts(preamble: str):
    return extract_facts("SUPPLY AGREEMENT\n\n" + preamble + PARTIES)


@pytest.mark.parametrize("preamble, agreed, effective", [
    # the one date a preamble gives is the agreement's date, even when it is given as the effective one
    ("This Supply Agreement, effective as of June 15, 2015, is made", "2015-06-15", "2015-06-15"),
    ("This Supply Agreement is made effective June 15, 2015", "2015-06-15", "2015-06-15"),
    ("This Supply Agreement, effective June 15, 2015 (the \"Effective Date\"), is made", "2015-06-15", "2015-06-15"),
    # two dates: made on one, effective on the other
    ("This Supply Agreement (the \"Agreement\"), dated June 15, 2015 and effective July 1, 2015, is made",
     "2015-06-15", "2015-07-01"),
    ("This Supply Agreement is entered into on June 15, 2015, to be effective July 1, 2015,", "2015-06-15", "2015-07-01"),
    # "as of" with no verb, and "Sept."
    ("THIS SUPPLY AGREEMENT, as of June 15, 2015, is made", "2015-06-15", None),
    ("THIS SUPPLY AGREEMENT is made and entered into as of Sept. 15, 2015", "2015-09-15", None),
    # effective when the last party signs: the last signature's date
    ("This Supply Agreement is effective as of the date of the last signature below and is made", "2015-07-10",
     "2015-07-10"),
    # a blank left to be filled in states no date, whatever the signatures say
    ("THIS SUPPLY AGREEMENT is made this ____ day of June, 2015", None, None),
    ("This Supply Agreement is entered into as of June [ ], 2015", None, None),
    # a letter agreement's date line
    ("June 15, 2015\n\nThis Supply Agreement is made", "2015-06-15", None),
])
def test_agreement_and_effective_dates(preamble, agreed, effective):
    f = facts(preamble)
    assert (f.agreement_date, f.effective_date) == (agreed, effective)


def test_an_effective_date_inside_another_sentence_is_not_the_agreements():
    f = facts("This Supply Agreement is made as of June 15, 2015. Prices will, effective August 1, 2015, be adjusted."
              " The parties are listed below,")
    assert (f.agreement_date, f.effective_date) == ("2015-06-15", None)


def test_a_cover_pages_effective_date_label_is_no_letter_date():
    f = extract_facts("SUPPLY AGREEMENT\n\nEFFECTIVE DATE\n\nJUNE 1, 2015\n\nThis Supply Agreement is entered into"
                      + PARTIES)
    assert f.effective_date == "2015-06-01"
    assert f.agreement_date == "2015-07-10"  # signed on; the label's date is the effective one


HEAD = ('SUPPLY AGREEMENT\n\nThis Supply Agreement is entered into as of June 15, 2015 (the "Effective Date") by and '
        'between Acme Widgets, Inc. ("Acme") and Bolt Supply LLC ("Bolt").\n\n')
TAIL = "\n\n6. Confidentiality. Each party shall keep information confidential for five years after termination.\n"


@pytest.mark.parametrize("clause, expiry", [
    ("5. Term. The Term of this Agreement shall begin on the Effective Date and end on the date that is five (5) years "
     "thereafter.", "2020-06-15"),
    ("5. Duration. This Agreement shall enter into force on the Effective Date and remain in force for ten (10) years.",
     "2025-06-15"),
    ("5. Term. The Agreement commences on the Effective Date and expires twelve (12) months later.", "2016-06-15"),
    ("5. Term. The term of this Agreement shall be from the Effective Date through December 31, 2017.", "2017-12-31"),
    ("5. Term. This Agreement is effective from the Effective Date until terminated by either party.", None),
    # the term defined in a parenthetical before its verb
    ("5. Term. The term (the \"Term\") shall commence on July 1, 2015 and end on June 30, 2016.", "2016-06-30"),
    ("5. Term. The initial term of this Agreement shall commence on the Effective Date and extend for three (3) years "
     "thereafter.", "2018-06-15"),
])
def test_term_clauses(clause, expiry):
    assert extract_facts(HEAD + clause + TAIL).expiration == expiry


def test_a_survival_tail_is_not_the_term():
    clause = ("5. Term. This Agreement shall continue until terminated. Confidentiality obligations continue for "
              "two (2) years thereafter.")
    assert extract_facts(HEAD + clause + TAIL).expiration is None
    # a covenant that lasts while the agreement is in effect "and for a period of one (1) year thereafter"
    standstill = ("15.1 Purchases. So long as this Agreement remains in effect and for a period of one (1) year thereafter, "
                  "Bolt will not acquire any securities of Acme.")
    assert extract_facts(HEAD + standstill + TAIL).expiration is None


@pytest.mark.parametrize("clause, term", [
    ("5. Term. The term of this Agreement shall begin as of the Effective Date and continue until Acceptance of all "
     "Deliverables pursuant to Section 3.4, unless terminated earlier under Section 9.",
     "until Acceptance of all Deliverables pursuant to Section 3.4"),
    ("5. Term. This Agreement shall remain in full force and effect until the expiration of the last Purchase Order "
     "to expire, at which time this Agreement will expire.", "until the expiration of the last Purchase Order to expire"),
    ("5. Term. The Term of this Agreement shall be for the Contract Period unless it is extended.", "for the Contract Period"),
])
def test_a_term_that_ends_on_an_event_is_stated_in_its_words_with_no_date(clause, term):
    # the memo's "Term / expiry" cell says what the term is, rather than "not stated"; no expiration date is guessed
    facts = extract_facts(HEAD + clause + TAIL)
    assert (facts.term, facts.expiration) == (term, None)


def test_a_dated_or_fixed_term_elsewhere_wins_over_an_event():
    clause = ("5. Term. This Agreement shall continue until completion of the Services. The Initial Term of this "
              "Agreement is three (3) years from the Effective Date.")
    assert extract_facts(HEAD + clause + TAIL).expiration == "2018-06-15"


@pytest.mark.parametrize("term_clause", [
    'The term of this Agreement (the "Term") shall commence on August 1, 2015 and end on July 31, 2016.',
    "This Agreement will begin on August 1, 2015 and continue for one year.",
])
def test_a_term_that_commences_on_a_date_makes_it_the_effective_date(term_clause):
    f = extract_facts("SPONSORSHIP AGREEMENT\n\nThis Sponsorship Agreement is made as of June 15, 2015" + PARTIES
                      + "\n\n2. " + term_clause)
    assert (f.agreement_date, f.effective_date) == ("2015-06-15", "2015-08-01")
