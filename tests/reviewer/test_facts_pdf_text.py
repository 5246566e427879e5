"""agents.facts on text as PDF extraction leaves it (words glued, clause text running on), hand-written.

Each case is a wrong value a memo showed: a governing law of "State" or "Iowa.9.5 Assignment", a date in 1813,
a party called "The Company".
"""

from __future__ import annotations

import pytest

from agents.facts import extract_facts
from agents.facts.dates import read_date
from agents.facts.law import governing_law
from agents.facts.places import place_at


@pytest.mark.parametrize("clause, place", [
    ("This Agreement shall be governed by the laws of the State ofCalifornia without giving effect to its conflicts "
     "rules.", "California"),
    ("governed by and construed in accordance with the laws of the State of Iowa.9.5 Assignment. Neither party may "
     "assign.", "Iowa"),
    ("This Agreement is governed by the laws of the United Statesand the State of Maryland.", "Maryland"),
    ("governed by the laws of the United States of America and of the State of Texas.", "Texas"),
    ("shall be governed by the laws of the State of Maryland regardless of the place of execution.", "Maryland"),
    ("shall be governed by the laws of the State of NewYork without regard to conflicts principles.", "New York"),
    ("will be governed by thelaws of the State of Delawarewithout regard to the conflict of laws provisions.",
     "Delaware"),
    ("construed in accordance with the lawsofthe State of Georgia (excluding its choice of law rules).", "Georgia"),
    ("THIS AGREEMENT SHALL BE GOVERNED BY THE LAWS OF THE STATE OFCALIFORNIA WITHOUT REGARD TO", "California"),
    ("This Agreement is governed by the laws ofEngland and Wales.", "England and Wales"),
    ("This Agreement shall be governed by the laws of the Province of Ontario and the federal laws of Canada "
     "applicable therein.", "Ontario"),
])
def test_jurisdiction_is_a_clean_place_name(clause, place):
    found, span = governing_law(clause)
    assert found == place
    # the span covers the name as written (spaces may be missing there)
    assert clause[span[0]:span[1]].replace(" ", "").lower() == place.replace(" ", "").lower()


def test_a_place_not_on_the_lists_is_cut_to_its_name_and_a_bare_state_is_no_place():
    assert governing_law("governed by the laws of Ruritania.9.5 Assignment. Neither party")[0] == "Ruritania"
    assert governing_law("governed by the laws of the State, without regard to conflicts")[0] == ""
    assert governing_law("governed by the laws of the State ofRuritania without")[0] != "State"
    assert governing_law("This Agreement shall be governed by the laws of the United States.")[0] == "United States"


def test_place_names_stop_where_the_place_does():
    text = "the laws of Indianapolis"
    assert place_at(text, text.index("Indianapolis")) is None  # "Indiana" is not a prefix of another word
    text = "laws of the State of West Virginiaand"
    assert place_at(text, text.index("the"))[0] == "West Virginia"


def test_implausible_or_impossible_dates_are_not_dates():
    for s in ("January 8, 1813", "8 January 1813", "March 1, 2101", "February 30, 2019", "13/25/2019"):
        assert read_date(s) is None, s
    assert read_date("January 8, 2013") is not None and read_date("1/8/13").year == 2013


def test_a_glued_page_number_year_is_no_agreement_date():
    text = ("SUPPLY AGREEMENT\n\nThis Supply Agreement is dated January 8, 1813 between Fennick Tools, Inc. "
            "(\"Seller\") and Grayling Hardware LLC (\"Buyer\").\n\nIN WITNESS WHEREOF the parties have signed.\n\n"
            "Fennick Tools, Inc.  Date: March 2, 2013\n")
    f = extract_facts(text)
    assert f.agreement_date == "2013-03-02"  # the signature's date, not the misread one


SIGNED_AS_COMPANY = """CONSULTING AGREEMENT

Marrow Holdings Ltd., a Delaware corporation (the "Company"), engages the consultant named below on these terms.

1. Services. The consultant shall advise the Company.

IN WITNESS WHEREOF, the parties have signed this agreement.

The Company
By: /s/ A. Example

Pellwood Analytics LLC
By: /s/ B. Example
"""


def test_the_company_is_a_defined_term_and_takes_the_name_the_preamble_gives():
    f = extract_facts(SIGNED_AS_COMPANY)
    assert [(p.name, p.role) for p in f.parties] == [("Marrow Holdings Ltd.", "Company"),
                                                     ("Pellwood Analytics LLC", "")]
    p = f.parties[0]
    assert SIGNED_AS_COMPANY[p.span[0]:p.span[1]] == "Marrow Holdings Ltd."


def test_the_company_with_no_name_stays_a_role():
    text = SIGNED_AS_COMPANY.replace('Marrow Holdings Ltd., a Delaware corporation (the "Company"), engages',
                                     "The Company engages")
    f = extract_facts(text)
    assert [(p.name, p.role) for p in f.parties] == [("", "Company"), ("Pellwood Analytics LLC", "")]


def test_the_company_repeating_a_preamble_party_is_not_a_second_party():
    text = SIGNED_AS_COMPANY.replace(
        'Marrow Holdings Ltd., a Delaware corporation (the "Company"), engages the consultant named below',
        'This agreement is made between Marrow Holdings Ltd. (the "Company") and the consultant named below')
    f = extract_facts(text)
    assert [(p.name, p.role) for p in f.parties] == [("Marrow Holdings Ltd.", "Company"),
                                                     ("Pellwood Analytics LLC", "")]


def test_glued_dates_and_effective_date_term():
    text = ('SUPPLY AGREEMENT\n\nThis Supply Agreement is entered into as of the 23rd day of September1998 (the'
            '"Effective Date") by and between Acme Widgets, Inc., a Delaware corporation ("Acme"), and Bolt Supply '
            'LLC ("Bolt").\n\n2. Term. The term of this Agreement will end on January1, 2001.\n')
    f = extract_facts(text)
    assert (f.agreement_date, f.effective_date, f.expiration) == ("1998-09-23", "1998-09-23", "2001-01-01")
    assert read_date("June 1,2010").isoformat() == "2010-06-01"


def test_glued_party_names_are_split():
    text = ('LICENSE AGREEMENT\n\nThis License Agreement is made as of May 1, 2005 by and between EmdeonCorporation '
            '("Emdeon"), theTOWN OF ELMVALE ("Town") and WebMD, Inc. aGeorgia corporation ("WebMD").\n')
    f = extract_facts(text)
    assert [p.name for p in f.parties] == ["Emdeon Corporation", "TOWN OF ELMVALE", "WebMD, Inc."]
