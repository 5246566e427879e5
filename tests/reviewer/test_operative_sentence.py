"""The clause's own operative sentence, restated when no reading of its checklist item applies.

Clauses are invented in the drafting styles of SEC-filed contracts (none is copied from cuad-dev); parties
are the agreement's own, as the preamble gives them.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from agents.offline.clauses.clause_parts import index_parties, section_of
from agents.offline.clauses.clause_summary import write_summary
from agents.offline.clauses.operative import operative_reading, operative_sentence
from core.checklist import load_checklist
from core.settings import get_settings


@dataclass
class P:
    name: str
    role: str
    aliases: tuple = ()


PARTIES = [P("Harbor Analytics, Inc.", "Harbor"), P("Quill Publisher LLC", "Publisher")]
IDX = index_parties(PARTIES)


@pytest.mark.parametrize("quote,sentence", [
    # "hold ... harmless" keeps its last word when the list of who is held runs past the cut
    ("Publisher agrees to defend, indemnify and hold Harbor and its Affiliates, and their respective officers and "
     "directors (collectively, the \u201cHarbor Indemnitees\u201d) harmless from and against any Claims.",
     "Publisher must defend, indemnify and hold Harbor and its affiliates harmless."),
    ("Publisher shall not run banner advertisements on the Co-Branded Site for any of Harbor's competitors.",
     "Publisher may not run banner advertisements on the co-branded site for any of Harbor's competitors."),
    ("7.2 Audits. Harbor shall have the right to conduct an audit after the end of each calendar year to verify the "
     "accuracy of Publisher's quarterly reports, provided the audit is initiated within ninety (90) days.",
     "Harbor may conduct an audit after the end of each calendar year to verify the accuracy of Publisher's quarterly "
     "reports (§ 7.2)."),
    ("Upon termination of this Agreement, Publisher shall promptly refund to Harbor all prepaid fees.",
     "Upon termination of this agreement, Publisher must promptly refund to Harbor all prepaid fees."),
    ("Harbor shall have the first right, but not the obligation, at Harbor's expense, to enforce and defend the "
     "Licensed Marks in the Territory.",
     "Harbor has the first right to enforce and defend the licensed marks in the territory."),
    ("Neither party shall use the Domain Name for any purpose.", "Neither party may use the domain name for any purpose."),
    ("Publisher will be responsible for all taxes on the Fees.", "Publisher is responsible for all taxes on the fees."),
    ("Subject to approval by the Board, Harbor may pay, as an Expense, retention bonuses to the Key Staff.",
     "Subject to approval by the board, Harbor may pay retention bonuses to the key staff."),
])
def test_the_operative_sentence_restates_who_must_or_may_do_what(quote, sentence):
    assert operative_sentence(quote, IDX, section_of(quote)) == sentence


@pytest.mark.parametrize("quote", [
    # the subject is inside a clause of its own
    "Except as Harbor may otherwise direct in writing, all Materials shall be returned within ten days.",
    # a name that is no party's (an authority, a third party)
    "Publisher shall file the Reports with the FDA within thirty (30) days.",
    "Publisher shall notify Medicare of any change.",
    # cutting at the comma would leave half a thought
    "Publisher shall permit an independent, certified public accountant selected by Harbor to inspect the records.",
    # the substance is what follows: an enumeration or a colon
    "Upon termination by Harbor, Publisher shall, at its option, elect to do one of the following:",
    "Harbor may terminate this Agreement immediately (i) if Publisher challenges the Marks or (ii) if Publisher "
    "becomes insolvent.",
    # no party is the subject
    "The Royalty shall be paid quarterly in arrears.",
    # a verb whose substance is its that-clause
    "Publisher shall procure that its subcontractors keep the Confidential Information confidential.",
])
def test_no_sentence_when_the_restatement_would_not_read_safely(quote):
    assert operative_sentence(quote, IDX, section_of(quote)) is None


def test_the_operative_sentence_replaces_the_items_fallback_and_names_the_party_on_first_mention():
    items = {i.id: i for i in load_checklist(get_settings().checklist_path)}
    quote = "Publisher shall not do anything which is harmful to the goodwill or reputation of the Marks."
    text = write_summary(items["non_disparagement"], quote, PARTIES)
    assert text.startswith("Publisher")
    assert "contains" not in text and "restricts a party" not in text


def test_a_right_held_is_restated_with_what_is_held():
    quote = "Harbor shall have the exclusive option to purchase the Equipment at the end of the Term."
    assert operative_sentence(quote, IDX) == "Harbor has the exclusive option to purchase the equipment at the end of the term."


def test_a_defined_acronym_in_brackets_does_not_end_the_clause():
    quote = ("University will retain all Program Data for the sooner to occur of a New Drug Application (NDA) for the "
             "Product being approved or ten (10) years from the Effective Date.")
    assert operative_sentence(quote, index_parties([P("State University", "University")])) == (
        "University must retain all program data for the sooner to occur of a new drug application for the product "
        "being approved or 10 years from the effective date.")


@pytest.mark.parametrize("quote,sentence", [
    ("Harbor and Publisher shall have joint ownership of the Co-Branded Site.",
     "Harbor and Publisher have joint ownership of the co-branded site."),
    ("Publisher may use the Marks; provided, however, that Publisher shall not have any right to sublicense the Marks.",
     "Publisher may use the marks."),
    ("The parties agree that Publisher will not be charged a higher fee than any other customer.",
     "Publisher may not be charged a higher fee than any other customer."),
    ("ARTICLE 4 -- PROPERTY RIGHTS 4.1 Harbor shall have the exclusive rights in and to all recipes and formulas.",
     "Harbor has the exclusive rights in and to all recipes and formulas."),
])
def test_joint_subjects_provisos_and_headings(quote, sentence):
    assert operative_sentence(quote, IDX) == sentence


def test_long_headings_and_capitals_are_read_in_one_pass():
    # document text is untrusted: a page of capitals or of commas must not send a pattern into backtracking
    heading = "ARTICLE 4 -- PROPERTY RIGHTS AND OBLIGATIONS OF THE PARTIES " * 40
    assert operative_sentence(heading + "4.1 Harbor shall keep the books.", IDX) == "Harbor must keep the books."
    commas = "Publisher shall, " + ", ".join(["at its expense"] * 300) + ", keep the books."
    assert operative_sentence(commas, IDX) is None or operative_sentence(commas, IDX).startswith("Publisher")


@pytest.mark.parametrize("quote,sentence", [
    ("Harbor shall not have any rights in or to Dr. Murray's name or likeness.",
     "Harbor has no rights in or to Dr. Murray's name or likeness."),
    ("Publisher shall not enter into, and shall cause its Affiliates not to enter into, any agreement with a Competitor.",
     None),
])
def test_abbreviations_and_objects_after_an_aside(quote, sentence):
    assert operative_sentence(quote, index_parties([*PARTIES, P("Dr. Murray", "")])) == sentence


def test_a_condition_keeps_its_if_and_drops_its_then():
    quote = "If Harbor grants permission to order more, then Publisher shall not be liable for the excess inventory."
    assert operative_sentence(quote, IDX) == (
        "If Harbor grants permission to order more, Publisher is not liable for the excess inventory.")


@pytest.mark.parametrize("quote,sentence", [
    ("Subject to the limitations contained herein, Harbor hereby grants to Publisher a non-exclusive license to use the "
     "Harbor Marks on the Co-Branded Site.",
     "Subject to the limitations contained herein, Harbor grants to Publisher a non-exclusive license to use the Harbor "
     "marks on the co-branded site."),
    ("Publisher acknowledges that Harbor owns and retains all copyright in the Content.",
     "Publisher acknowledges that Harbor owns and retains all copyright in the content."),
    ("Publisher waives any right to recover consequential damages from Harbor.",
     "Publisher waives any right to recover consequential damages from Harbor."),
])
def test_a_present_tense_act_is_restated_as_written(quote, sentence):
    assert operative_sentence(quote, IDX) == sentence


def test_a_defined_term_that_is_the_name_itself_is_not_explained_on_first_mention():
    # "Conformis (Conformis, Inc.)" tells a reader nothing; "Publisher (Quill Media LLC)" does
    idx = index_parties([P("Conformis, Inc.", "Conformis"), P("Quill Media LLC", "Publisher")])
    assert idx.firsts == ("Conformis", "Publisher (Quill Media LLC)")


def test_an_items_own_fallback_sentence_gives_way_to_the_operative_sentence():
    items = {i.id: i for i in load_checklist(get_settings().checklist_path)}
    quote = ("Within ten days of each calendar month during the Term, Publisher shall provide to Harbor a rolling "
             "production forecast for each Facility.")
    assert write_summary(items["minimum_commitment"], quote, PARTIES) == (
        "Within ten days of each calendar month during the term, Publisher must provide to Harbor a rolling production "
        "forecast for each facility.")


def test_a_defined_role_is_named_with_its_party_in_the_sentence():
    idx = index_parties([P("Harbor Analytics, Inc.", "Harbor"), P("Quill Media LLC", "Distributor")])
    assert operative_sentence("Distributor shall keep the books.", idx) == "Distributor (Quill Media LLC) must keep the books."


@pytest.mark.parametrize("quote,sentence", [
    ("Failing those efforts, Harbor shall, upon Publisher's request and at Publisher's expense, conduct the audit on "
     "behalf of Publisher, subject to terms agreed by the parties.",
     "Failing those efforts, Harbor must conduct the audit on behalf of Publisher."),
    ("Should Publisher request an additional appearance, Harbor shall pay Publisher an additional fee.",
     "Should Publisher request an additional appearance, Harbor must pay Publisher an additional fee."),
])
def test_more_conditions_that_open_a_sentence(quote, sentence):
    assert operative_sentence(quote, IDX) == sentence


def test_a_redaction_is_marked_without_brackets_in_any_of_its_filed_forms():
    quote = "Harbor shall pay Publisher [\u2026***\u2026] within [***] days."
    assert operative_sentence(quote, IDX) == "Harbor must pay Publisher *** within *** days."


@pytest.mark.parametrize("quote,sentence", [
    ("12.3 Procedure. If a claim is made against an indemnified party, such party will promptly notify the "
     "indemnifying party of such claim. The Indemnifying Party shall assume the defense of the claim.",
     "If a claim is made against an indemnified party, that party must promptly notify the indemnifying party of such "
     "claim (§ 12.3)."),
    ("Each Indemnified Party shall promptly notify the Indemnifying Party of the assertion of any claim.",
     "Each indemnified party must promptly notify the indemnifying party of the assertion of any claim."),
    ("Harbor agrees to indemnify, protect, defend, and hold harmless Publisher, its affiliates, predecessors and "
     "successors, owners, agents, partners, officials, employees and representatives from and against all claims.",
     "Harbor must indemnify, protect, defend, and hold harmless Publisher."),
])
def test_an_indemnitys_roles_and_its_indemnitees(quote, sentence):
    assert operative_sentence(quote, IDX, section_of(quote)) == sentence


@pytest.mark.parametrize("quote,sentence", [
    # both parties together; a place keeps its capitals; an exclusive right stays exclusive
    ("The Parties shall negotiate in good faith the pricing of any additional services.",
     "The parties must negotiate in good faith the pricing of any additional services."),
    ("Publisher shall have the exclusive right to market and sell the Products in the United States.",
     "Publisher has the exclusive right to market and sell the products in the United States."),
    # a page footer inside the sentence is not read as its words; a word broken at its hyphen is whole again
    ("Publisher shall purchase at least 500 units in each calendar quarter after the\n\nSource: QUILL PUBLISHER "
     "LLC, S-1, 4/27/2000\n\n12\n\nEffective Date.", "Publisher must purchase at least 500 units in each calendar "
     "quarter after the effective date."),
    ("Harbor shall be the exclusive owner of all paid-\n\nfor development.",
     "Harbor is the exclusive owner of all paid-for development."),
    # who owns is a statement, not a duty; a common abbreviation names no one; another party's promise after a
    # comma is a sentence of its own
    ("Harbor shall own all right, title and interest in any IP developed jointly, and Publisher agrees to assign to "
     "Harbor any right it may have.", "Harbor owns all right, title and interest in any IP developed jointly."),
    ("Publisher shall retain all records for five (5) years.", "Publisher must retain all records for 5 years."),
    # entitled to a thing, not to do something; a date keeps its month's capital
    ("Upon termination of this Agreement, Publisher shall be entitled to payment for Services completed before it.",
     "Upon termination of this agreement, Publisher is entitled to payment for services completed before it."),
    ("Publisher shall not sell competing products in the territory until January 1, 2032.",
     "Publisher may not sell competing products in the territory until January 1, 2032."),
    # "shall be required to" is a duty; the comma of a date ends nothing
    ("Publisher shall be required to purchase at least 500 units in each calendar year.",
     "Publisher must purchase at least 500 units in each calendar year."),
    ("Publisher shall deliver the Products by March 3, 2021.", "Publisher must deliver the products by March 3, 2021."),
    # a restriction on a party and its affiliates, drafted as "neither ... nor", after a period it runs for
    ("3.01. Throughout the Term and for a period of six (6) months after its termination, neither Publisher nor any "
     "of its affiliates shall, directly or indirectly, sell, offer for sale, market or promote any meditation products "
     "in any retail location.", "Throughout the term and for a period of 6 months after its termination, Publisher "
     "(and its affiliates) may not sell, offer for sale, market or promote any meditation products in any retail "
     "location (§ 3.01)."),
])
def test_more_drafting_reads_as_its_own_sentence(quote, sentence):
    assert operative_sentence(quote, IDX, section_of(quote)) == sentence


# roles that are no word of the party's name, so a sentence says who they are at their first mention
ROLES = [P("Harbor Analytics, Inc.", "Licensor"), P("Quill Media LLC", "Publisher")]


def test_a_party_first_named_in_the_object_is_named_in_full_but_not_as_a_possessive():
    idx = index_parties(ROLES)
    assert operative_sentence("Licensor shall provide Publisher with monthly reports.", idx) == (
        "Licensor (Harbor Analytics, Inc.) must provide Publisher (Quill Media LLC) with monthly reports.")
    assert operative_sentence("Licensor shall keep Publisher's reports confidential.", idx) == (
        "Licensor (Harbor Analytics, Inc.) must keep Publisher's reports confidential.")
    assert operative_sentence("Licensor shall apply the Publisher discount to all orders.", idx) == (
        "Licensor (Harbor Analytics, Inc.) must apply the Publisher discount to all orders.")


def test_a_reading_that_knows_who_but_not_what_gives_way_to_the_clause_about_the_same_party():
    items = {i.id: i for i in load_checklist(get_settings().checklist_path)}
    own = "During the Term, Publisher shall not develop any analytics product without the approval of Harbor."
    assert write_summary(items["non_compete"], own, PARTIES) == (
        "During the term, Publisher may not develop any analytics product without the approval of Harbor.")
    # the clause's first sentence binds the other party: the reading's own sentence stays
    other = ("Publisher shall promptly inform Harbor of any suggested improvements to the Products. Harbor shall own all "
             "such improvements.")
    assert not write_summary(items["ip_ownership"], other, PARTIES).startswith("Publisher")


@pytest.mark.parametrize("quote,sentence", [
    # a defined term of several capitalised words needs no determiner; the quotes that define one are not read back
    ("Harbor hereby grants to Publisher an exclusive license to use the Program Data in Regulatory Filings in the "
     "\"Territory\".",
     "Harbor grants to Publisher an exclusive license to use the program data in regulatory filings in the territory."),
    ("Publisher shall not develop Patient-Specific Instruments for any third party.",
     "Publisher may not develop patient-specific instruments for any third party."),
])
def test_a_defined_term_of_several_words_reads_without_a_determiner(quote, sentence):
    assert operative_sentence(quote, IDX) == sentence


@pytest.mark.parametrize("quote", [
    "Publisher shall not sell the Products to Wal-Mart Stores, Inc.",  # a company, by its form
    "Publisher shall notify Medicare of any change.",  # one word: anyone's name
])
def test_a_name_is_not_taken_for_a_defined_term(quote):
    assert operative_sentence(quote, IDX) is None


@pytest.mark.parametrize("quote,sentence", [
    # the object that a list of verbs shares stands after the list's last comma
    ("Harbor shall, at its sole expense, transfer to Publisher, or cause its designee to transfer to Publisher, "
     "ownership of all filings.",
     "Harbor must transfer to Publisher, or cause its designee to transfer to Publisher, ownership of all filings."),
    ("Publisher shall be prohibited from developing or assisting another in developing, or causing another to develop, "
     "Patient-Specific Instruments for any third party until January 1, 2030.",
     "Publisher is prohibited from developing or assisting another in developing, or causing another to develop, "
     "patient-specific instruments for any third party until January 1, 2030."),
    # a list within the sentence: each item with the words that frame the list; "six (6) months" is no item
    ("During the Term and for six (6) months after it ends, (i) Publisher shall have the exclusive right to resell the "
     "Products, and (ii) the Harbor shall not appoint any other reseller.",
     "During the term and for 6 months after it ends, Publisher has the exclusive right to resell the products."),
    ("Upon termination, the Publisher shall return all Materials.",
     "Upon termination, Publisher must return all materials."),
])
def test_lists_of_verbs_lists_of_items_and_a_prohibition(quote, sentence):
    assert operative_sentence(quote, IDX) == sentence


def test_a_partys_own_sentence_is_found_in_its_item_of_a_list():
    quote = ("During the Term and for six (6) months after it ends, (i) Publisher shall have the exclusive right to resell "
             "the Products, and (ii) the Harbor shall not appoint any other reseller.")
    assert operative_reading(quote, IDX, "", "Harbor") == (
        "During the term and for 6 months after it ends, Harbor may not appoint any other reseller.", "Harbor")


@pytest.mark.parametrize("quote,sentence", [
    # "cause" another to act is the party's own duty
    ("The parties will cause their representatives to meet within fifteen (15) days after Harbor's notice of dispute.",
     "The parties must cause their representatives to meet within 15 days after Harbor's notice of dispute."),
    # what an action is for, or until when, may go when the whole would be too long to read as one sentence
    ("To the extent allowed by law, either party may bring an action in any court of competent jurisdiction for "
     "injunctive relief to protect its rights or enforce the other party's obligations under this Agreement pending "
     "resolution of any claims related thereto by the joint steering committee under the dispute procedure.",
     "To the extent allowed by law, either party may bring an action in any court of competent jurisdiction for "
     "injunctive relief to protect its rights or enforce the other party's obligations under this agreement."),
    # the consent that lifts a restriction, whatever order its words come in
    ("Publisher shall not sell any competing product in any airport, without the express prior written consent of Harbor.",
     "Publisher may not sell any competing product in any airport without the express prior written consent of Harbor."),
])
def test_causing_a_purpose_that_may_go_and_a_consent_in_any_word_order(quote, sentence):
    assert operative_sentence(quote, IDX) == sentence


@pytest.mark.parametrize("quote,sentence", [
    # an abbreviation that opens a defined term is kept; "U.S." ends no sentence; an exception ends the object
    ("Publisher shall have the exclusive right to market AMR Product Suites to entities located in the United States "
     "and U.S. territories with the exception of Acme as defined below.",
     "Publisher has the exclusive right to market AMR product suites to entities located in the United States and U.S. "
     "territories."),
])
def test_abbreviations_inside_the_object(quote, sentence):
    assert operative_sentence(quote, IDX) == sentence


def test_the_object_ends_where_a_clause_with_its_own_subject_begins():
    quote = ("During the Term, Publisher shall be required to purchase a Minimum Annual Volume of 500 Units for each "
             "twelve-month period commencing July 1, 2017, and for the six-month period ending December 31, 2022, "
             "Publisher will be required to purchase 250 Units.")
    assert operative_sentence(quote, IDX) == ("During the term, Publisher must purchase a minimum annual volume of 500 units "
                                              "for each twelve-month period commencing July 1, 2017.")


@pytest.mark.parametrize("quote,sentence", [
    ("If a claim is made against an indemnified party, such party will promptly notify the indemnifying party of such claim.",
     "If a claim is made against an indemnified party, that party must promptly notify the indemnifying party of such claim."),
    ("Should any taxes arise because of one Party's failure to pay, said Party shall bear all costs of such failure.",
     "Should any taxes arise because of one party's failure to pay, that party must bear all costs of such failure."),
    ("The parties each agree to keep confidential all non-public information disclosed by the other party.",
     "The parties must keep confidential all non-public information disclosed by the other party."),
])
def test_the_party_a_condition_names_and_the_parties_each(quote, sentence):
    assert operative_sentence(quote, IDX) == sentence


def test_such_party_without_the_sentence_that_names_it_is_no_subject():
    assert operative_sentence("Such party shall not be liable for any delay.", IDX) is None


def test_a_thousands_separator_ends_no_object():
    assert operative_sentence("Publisher agrees to deliver a guaranteed minimum of 3,000,000 Impressions per month.", IDX) == (
        "Publisher must deliver a guaranteed minimum of 3,000,000 impressions per month.")


def test_a_term_joined_by_of_and_an_appointment_accepted():
    assert operative_sentence("Harbor hereby grants to Publisher an exclusive Right of Reference to all Program Filings.",
                              IDX) == "Harbor grants to Publisher an exclusive right of reference to all program filings."
    assert operative_sentence("Harbor hereby appoints Publisher as its exclusive reseller for the State of Texas, and "
                              "Publisher accepts the appointment.", IDX) == (
        "Harbor appoints Publisher as its exclusive reseller for the State of Texas.")


def test_a_long_aside_that_widens_the_object_keeps_what_follows_it():
    # cut at the bracket, the sentence would drop "other than Harbor" and say the opposite of the clause
    assert operative_sentence("Publisher shall not obtain the Licensed Content or Support Services (or any content or services "
                              "which compete with the Licensed Content) for sale from any Entity other than Harbor.", IDX) == (
        "Publisher may not obtain the licensed content or support services for sale from any entity other than Harbor.")
