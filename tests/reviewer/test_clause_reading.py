"""Finding summaries read like a lawyer's: who may do what, on which trigger, naming only the agreement's parties.

The clauses are written for these tests (not taken from CUAD); the parties are
plain objects with name/role/aliases, as agents/facts will hand them over.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from agents.offline.clauses.clause_reading import read_clause
from agents.offline.clauses.clause_summary import names_only_parties, write_summary
from agents.offline.clauses.conditions import detect, severity_for, summarize
from core.checklist import load_checklist
from core.settings import get_settings
from core.types import Severity

CISCO = SimpleNamespace(name="Cisco Systems, Inc.", role="Cisco", aliases=())
XYZ = SimpleNamespace(name="XYZ Corp.", role="Distributor", aliases=("XYZ",))
PARTIES = (CISCO, XYZ)


@pytest.fixture(scope="module")
def items():
    return {i.id: i for i in load_checklist(get_settings().checklist_path)}


# (item, clause, sentence with the parties, sentence without them)
CASES = [
    ("change_of_control",
     "18.4 Change of Control. If Distributor undergoes a change of control, Cisco may terminate this Agreement on "
     "thirty (30) days' written notice to Distributor.",
     "Cisco may terminate on a change of control of Distributor (XYZ Corp.), on 30 days' written notice (§ 18.4).",
     "The agreement allows termination on a change of control, on 30 days' written notice (§ 18.4)."),
    ("change_of_control",
     "In the event that either party is acquired by a third party, the other party may, at its option, terminate this "
     "Agreement upon ninety (90) days prior written notice.",
     "Either party may terminate on a change of control of the other party, on 90 days' written notice.",
     "Either party may terminate on a change of control of the other party, on 90 days' written notice."),
    ("change_of_control",
     "Any merger of Distributor with another entity or any change of control of Distributor shall be deemed an "
     "assignment of this Agreement requiring Cisco's prior written consent.",
     "A change of control of Distributor (XYZ Corp.) is treated as an assignment of the agreement, which requires Cisco's consent.",
     "A change of control is treated as an assignment of the agreement, which requires consent."),
    ("change_of_control",
     "Distributor shall notify Cisco in writing within ten (10) business days after any change of control of Distributor.",
     "Distributor (XYZ Corp.) must notify Cisco of a change of control of Distributor.",
     "The agreement requires notice of a change of control."),
    ("anti_assignment",
     "14.2 Neither party may assign or transfer this Agreement without the prior written consent of the other party.",
     "Neither party may assign the agreement without the other's prior written consent (§ 14.2).",
     "Neither party may assign the agreement without the other's prior written consent (§ 14.2)."),
    ("anti_assignment",
     "Distributor shall not assign this Agreement, whether voluntarily or by operation of law, without Cisco's written "
     "consent, and any attempted assignment without such consent shall be null and void.",
     "Distributor (XYZ Corp.) may not assign the agreement (including by operation of law) without Cisco's written "
     "consent, and an assignment without it is void.",
     "Any assignment made without the required consent is void."),
    ("anti_assignment",
     "This Agreement may not be assigned by Distributor without the consent of Cisco.",
     "Distributor (XYZ Corp.) may not assign the agreement without Cisco's consent.",
     "The agreement restricts assignment without consent."),
    ("termination_for_convenience",
     "Cisco may terminate this Agreement for convenience at any time upon sixty (60) days' written notice to Distributor.",
     "Cisco may terminate for convenience, on 60 days' written notice.",
     "The agreement allows termination for convenience, on 60 days' written notice."),
    ("termination_for_convenience",
     "9.2 Either party may terminate this Agreement without cause by giving the other not less than three (3) months' notice.",
     "Either party may terminate for convenience, on 3 months' notice (§ 9.2).",
     "Either party may terminate for convenience, on 3 months' notice (§ 9.2)."),
    ("exclusivity",
     "Cisco hereby appoints Distributor as its exclusive distributor of the Products in the Territory.",
     "Distributor (XYZ Corp.) is Cisco's exclusive distributor of the products in the territory.",
     "The agreement contains an exclusivity commitment."),
    ("exclusivity",
     "During the Term, Distributor shall not purchase or resell products that compete with the Products from any "
     "supplier other than Cisco.",
     ("During the term, Distributor (XYZ Corp.) may not purchase or resell products that compete with the products "
     "from any supplier other than Cisco."),
     "The agreement contains an exclusivity commitment."),
    ("non_compete",
     "For two (2) years after termination, Distributor shall not, directly or indirectly, compete with Cisco in the Territory.",
     "Distributor (XYZ Corp.) may not compete with Cisco.",
     "The agreement restricts a party from competing."),
    ("non_solicit",
     "Neither party shall solicit or hire any employee of the other party during the Term and for twelve months thereafter.",
     "Neither party may solicit or hire the other's employees.",
     "Neither party may solicit or hire the other's employees."),
    ("most_favored_nation",
     "Should Cisco sell the Products to any other distributor at a lower price, Cisco shall extend the same price to Distributor.",
     "Cisco must give Distributor (XYZ Corp.) terms at least as favourable as those it gives any third party.",
     "The agreement contains a most-favoured-nation commitment."),
    ("rofr_rofo",
     "Distributor shall have a right of first refusal should Cisco propose to sell the business to which this Agreement relates.",
     "Distributor (XYZ Corp.) has a right of first refusal on a sale of the business or assets.",
     "The agreement grants a right of first refusal, offer or negotiation."),
    ("minimum_commitment",
     "Distributor shall purchase Products worth not less than USD 2,500,000 in each Contract Year.",
     "Distributor (XYZ Corp.) must purchase a minimum of USD 2,500,000.",
     "The agreement sets a minimum commitment of USD 2,500,000."),
    ("cap_on_liability",
     "9. Distributor's total liability under this Agreement shall not exceed the fees paid by Distributor in the twelve "
     "(12) months before the claim.",
     "Distributor's liability is capped at the fees paid or payable under the agreement in the prior 12 months (§ 9).",
     "Liability under the agreement is capped at the fees paid or payable under the agreement in the prior 12 months (§ 9)."),
    ("cap_on_liability",
     "IN NO EVENT SHALL EITHER PARTY BE LIABLE FOR ANY INDIRECT, SPECIAL OR CONSEQUENTIAL DAMAGES.",
     "Neither party is liable for indirect or consequential damages.",
     "Neither party is liable for indirect or consequential damages."),
    ("uncapped_liability",
     "Except for a breach of Section 11 or a party's indemnity obligations, neither party shall be liable for lost profits.",
     "The exclusion of indirect and consequential damages does not apply to a breach of § 11 or a party's indemnity obligations.",
     "The exclusion of indirect and consequential damages does not apply to a breach of § 11 or a party's indemnity obligations."),
    ("uncapped_liability",
     "Except for fraud, each party's aggregate liability shall not exceed $500,000.",
     "The liability cap does not apply to fraud.",
     "The liability cap does not apply to fraud."),
    ("indemnification",
     "Distributor shall indemnify, defend and hold harmless Cisco from all third-party claims arising from its resale of Products.",
     "Distributor (XYZ Corp.) must indemnify Cisco against claims and losses.",
     "The agreement contains an indemnity."),
    ("ip_ownership",
     "Distributor hereby assigns to Cisco all right, title and interest in any improvements to the Products it makes.",
     "Distributor (XYZ Corp.) assigns to Cisco all right, title and interest in any improvements to the products it makes.",
     "The agreement allocates ownership of intellectual property."),
    ("ip_ownership",
     "All marketing materials created under this Agreement shall be the sole and exclusive property of Cisco.",
     "Cisco owns the intellectual property the clause covers.",
     "The agreement allocates ownership of intellectual property."),
    ("license_grant",
     "Cisco hereby grants to Distributor a non-exclusive, non-transferable, royalty-free license to use the Marks in the Territory.",
     "Cisco grants Distributor (XYZ Corp.) a non-exclusive, royalty-free, non-transferable licence.",
     "The agreement grants a non-exclusive, royalty-free, non-transferable licence."),
    ("source_code_escrow",
     "Cisco shall deposit the source code of the Software with an escrow agent reasonably acceptable to Distributor.",
     "Cisco must deposit source code in escrow.",
     "The agreement provides for a source code escrow."),
    ("audit_rights",
     "Cisco may, on fifteen (15) days' prior written notice, audit Distributor's books and records once per year.",
     "Cisco may audit Distributor's books and records, on 15 days' written notice.",
     "The agreement gives a right to audit books and records."),
    ("insurance",
     "Distributor shall maintain commercial general liability insurance of no less than $2,000,000 per occurrence.",
     "Distributor (XYZ Corp.) must maintain insurance of at least $2,000,000.",
     "The agreement requires insurance to be maintained."),
    ("governing_law",
     "This Agreement is governed by the laws of the State of New York, and disputes shall be settled by arbitration.",
     "The agreement provides for arbitration and is governed by the law of New York.",
     "The agreement provides for arbitration and is governed by the law of New York."),
    ("governing_law",
     "THIS AGREEMENT SHALL BE GOVERNED BY THE LAWS OF THE STATE OF NEW YORK WITHOUT GIVING EFFECT TO ITS CONFLICT RULES.",
     "The agreement is governed by the law of New York.",
     "The agreement is governed by the law of New York."),
    ("confidentiality",
     "Each party shall hold the other party's Confidential Information in strict confidence.",
     "Each party must keep the other's confidential information confidential.",
     "Each party must keep the other's confidential information confidential."),
    ("term_renewal",
     "2.1 The initial term is five (5) years, and the Agreement shall renew automatically for successive one (1) year "
     "periods unless either party gives ninety (90) days' notice of non-renewal.",
     "The agreement runs for 5 years and renews automatically for successive 1-year periods, unless a party gives "
     "90 days' notice of non-renewal (§ 2.1).",
     "The agreement runs for 5 years and renews automatically for successive 1-year periods, unless a party gives "
     "90 days' notice of non-renewal (§ 2.1)."),
    ("debt_change_of_control",
     "The occurrence of a Change of Control of the Borrower shall constitute an Event of Default.",
     "A change of control is an event of default.",
     "A change of control is an event of default."),
    ("litigation",
     "There is no action, suit or proceeding pending or, to the Company's knowledge, threatened against the Company.",
     "The document states that no litigation or claim is pending or threatened.",
     "The document states that no litigation or claim is pending or threatened."),
    ("litigation",
     "Distributor represents that it has not received any written notice of a claim and has no knowledge of any dispute.",
     "Distributor (XYZ Corp.) represents that no litigation or claim is pending against it.",
     "The document states that no litigation or claim is pending."),
    ("litigation",
     "EACH PARTY WAIVES (WHETHER AS PLAINTIFF, DEFENDANT OR OTHERWISE) ANY RIGHT TO TRIAL BY JURY IN ANY FORUM.",
     "The parties waive trial by jury.",
     "The parties waive trial by jury."),
    ("uncapped_liability",
     "10. LIMITATION ON LIABILITY. EXCEPT IN THE EVENT OF A BREACH OF SECTION 11, NEITHER PARTY SHALL BE LIABLE FOR "
     "SPECIAL, INDIRECT OR CONSEQUENTIAL DAMAGES.",
     "The exclusion of indirect and consequential damages does not apply to a breach of § 11 (§ 10).",
     "The exclusion of indirect and consequential damages does not apply to a breach of § 11 (§ 10)."),
    ("confidentiality",
     "Each of Cisco and Distributor shall keep all Confidential Information received from the other Party with the same "
     "degree of care.",
     "Each party must keep the other's confidential information confidential.",
     "The agreement imposes confidentiality obligations."),
    ("confidentiality",
     "c) Each party agrees (i) that it will not disclose to any third party the Confidential Information of the other.",
     "Neither party may disclose the other's confidential information.",
     "Neither party may disclose the other's confidential information."),
    ("term_renewal",
     "2.01 This Agreement shall commence on the Effective Date and shall continue until it is terminated in accordance "
     "with the provisions of Section 15.",
     "The agreement has no fixed term: it continues until it is terminated (§ 2.01).",
     "The agreement has no fixed term: it continues until it is terminated (§ 2.01)."),
    ("term_renewal",
     "Section 5.3 Term. This Agreement is effective on the Effective Date and shall continue in effect until the earlier "
     "of (a) the fifth (5th) anniversary of the Effective Date, and (b) termination by either Party.",
     "The agreement runs for 5 years (§ 5.3).",
     "The agreement runs for 5 years (§ 5.3)."),
    ("audit_rights",
     "Upon reasonable prior notice, Cisco will have the right, exercisable not more than once every twelve (12) months, "
     "to appoint an independent accounting firm to audit the records of Distributor.",
     "Cisco may audit Distributor's books and records, on notice.",
     "The agreement gives a right to audit books and records."),
    ("non_compete",
     "4.1 Exclusivity. Distributor shall be prohibited from developing or marketing any product that competes with the "
     "Products.",
     ("Distributor (XYZ Corp.) is prohibited from developing or marketing any product that competes with the "
     "products (§ 4.1)."),
     "The agreement restricts a party from competing (§ 4.1)."),
    ("change_of_control",
     "consummates any Change of Control of Distributor to any Restricted Entity without the prior written consent of",
     "A change of control of Distributor (XYZ Corp.) requires consent.",
     "A change of control requires consent."),
    ("exclusivity",
     "Distributor shall purchase the Products exclusively from Cisco for the Territory.",
     "Distributor (XYZ Corp.) must deal exclusively with Cisco.",
     "The agreement contains an exclusivity commitment."),
    ("revenue_sharing",
     "XYZ shall pay Cisco a royalty equal to 4.5% of Gross Sales of Licensed Products.",
     "Distributor (XYZ Corp.) must pay Cisco 4.5% of gross sales.",
     "The agreement provides for payment of 4.5% of gross sales."),
    ("price_restrictions",
     "Cisco may not increase the Fees more than once in any calendar year.",
     "Cisco may not raise its prices more than once in any year.",
     "The agreement restricts changes to prices or fees."),
    ("price_restrictions",
     "Prices for the Products shall remain fixed during the first twelve (12) months of the Term.",
     "The agreement fixes its prices for the first 12 months.",
     "The agreement fixes its prices for the first 12 months."),
    ("post_termination_services",
     "Following expiration, Distributor may sell off its remaining inventory of Products for a period of six (6) months.",
     "Distributor (XYZ Corp.) may sell off remaining inventory after the agreement ends.",
     "The remaining inventory may be sold off after the agreement ends."),
    ("post_termination_services",
     "Sections 5, 7 and 12 shall survive any termination or expiration of this Agreement.",
     "§§ 5, 7 and 12 survive the end of the agreement.",
     "§§ 5, 7 and 12 survive the end of the agreement."),
    ("liquidated_damages",
     "If Distributor terminates this Agreement early, Distributor shall pay Cisco a termination fee equal to $250,000.",
     "Distributor (XYZ Corp.) must pay Cisco a termination fee of $250,000 for early termination.",
     "The agreement sets a termination fee of $250,000 for early termination."),
    ("warranty",
     "Distributor hereby warrants that all Services shall conform to the Specifications for a period of ninety (90) days "
     "after acceptance.",
     "Distributor (XYZ Corp.) warrants conformity with the specifications for 90 days from acceptance.",
     "The warranty of conformity with the specifications runs for 90 days from acceptance."),
    ("third_party_beneficiary",
     "Each Indemnified Party is an express third party beneficiary of Section 12.",
     "Each indemnified party is a third-party beneficiary who may enforce the agreement.",
     "Each indemnified party is a third-party beneficiary who may enforce the agreement."),
    # what an assignment reaches, in the clause's words (a common abbreviation names no one)
    ("ip_ownership",
     "Distributor agrees to assign and hereby assigns to Cisco all right, title and interest in and to all Improved "
     "Cisco Background IP in which Distributor has any rights.",
     "Distributor (XYZ Corp.) assigns to Cisco all right, title and interest in all improved Cisco background IP.",
     "The agreement allocates ownership of intellectual property."),
    ("ip_ownership",
     "Distributor shall execute any documents necessary to confirm that all intellectual property rights in any "
     "improvement to the Products are fully vested in Cisco.",
     "Cisco owns all intellectual property rights in any improvement to the products.",
     "The agreement allocates ownership of intellectual property."),
    ("ip_ownership",
     "All software designs developed in the course of the Pilot Program are jointly owned by the parties.",
     "The parties jointly own all software designs developed in the course of the pilot program.",
     "The parties jointly own all software designs developed in the course of the pilot program."),
    # what an exclusive right reaches, up to whom it may be sold to and where
    ("exclusivity",
     "Cisco grants Distributor the exclusive, non- transferable right and license to promote, distribute and sell the "
     "Products identified in Exhibit A to those customers specified in Exhibit B.",
     "Distributor (XYZ Corp.) has the exclusive right to promote, distribute and sell the products identified in "
     "Exhibit A, granted by Cisco.",
     "The agreement contains an exclusivity commitment."),
    ("exclusivity",
     "Distributor agrees that, during the Term, Cisco shall be Distributor's sole and exclusive provider of all Services "
     "included in Cisco's Integrated Solution.",
     "Distributor (XYZ Corp.) must use Cisco as its exclusive provider for all services included in Cisco's integrated "
     "solution.",
     "The agreement contains an exclusivity commitment."),
    ("ip_ownership",
     "Upon termination of the Agreement, Cisco and Distributor shall jointly own all User Data.",
     "The parties jointly own all user data.",
     "The parties jointly own all user data."),
    ("ip_ownership",
     "Distributor hereby assigns to Cisco all right, title and interest, including all rights in copyright, in and to "
     "the photographs and materials.",
     "Distributor (XYZ Corp.) assigns to Cisco all right, title and interest in the photographs and materials.",
     "The agreement allocates ownership of intellectual property."),
    # a definition binds no one: it is said to define, not to oblige
    ("confidentiality",
     "1.4 Confidential Information shall mean all proprietary and confidential information of a Party, including "
     "trade secrets.",
     "The agreement defines confidential information (§ 1.4).",
     "The agreement defines confidential information (§ 1.4)."),
    ("confidentiality",
     "Confidential Information will not include information that is in the public domain.",
     "The agreement sets out what confidential information does not include.",
     "The agreement sets out what confidential information does not include."),
    ("minimum_commitment",
     '11. "Monthly Minimum Commitment" means, for each customer account, a commitment of at least 250 users.',
     "The agreement defines \u201cMonthly Minimum Commitment\u201d.",
     "The agreement defines \u201cMonthly Minimum Commitment\u201d."),
    # a beneficiary who is no party, named as the clause names it; the denial with its exception
    ("third_party_beneficiary",
     "3.39 Third Party Beneficiaries. All Cisco Affiliates and the federal government of the United States shall be "
     "express third party beneficiaries under this Agreement.",
     "All Cisco Affiliates and the federal government of the United States are third-party beneficiaries who may "
     "enforce the agreement (§ 3.39).",
     "All Cisco Affiliates and the federal government of the United States are third-party beneficiaries who may "
     "enforce the agreement (§ 3.39)."),
    ("third_party_beneficiary",
     "14.7 No Third-Party Beneficiaries. Except as expressly provided in Section 8, this Agreement does not create any "
     "intended third party beneficiary rights.",
     "The agreement has no third-party beneficiaries except as § 8 provides (§ 14.7).",
     "The agreement has no third-party beneficiaries except as § 8 provides (§ 14.7)."),
    ("post_termination_services",
     "The following provisions will remain in effect following expiration or termination of this Agreement: Sections "
     "2.4 (last three sentences), 2.7, 5(b) and 9.",
     "§§ 2.4, 2.7, 5(b) and 9 survive the end of the agreement.",
     "§§ 2.4, 2.7, 5(b) and 9 survive the end of the agreement."),
    ("non_disparagement",
     "Neither party shall make any public statement that disparages the other party or its products.",
     "Neither party may disparage the other.",
     "Neither party may disparage the other."),
    ("covenant_not_to_sue",
     "Distributor shall not now or in the future contest or challenge Cisco's ownership of the Marks.",
     "Distributor (XYZ Corp.) may not challenge the ownership of Cisco's trademarks.",
     "The agreement restricts a party from contesting the other's rights or bringing claims against it."),
    ("covenant_not_to_sue",
     "Cisco covenants not to sue Distributor for infringement of any patent covering the Products.",
     "Cisco may not sue Distributor (XYZ Corp.) for infringement of any patent covering the products.",
     "The agreement restricts a party from contesting the other's rights or bringing claims against it."),
    # what the exclusive partner is for, a list of kinds with no determiner
    ("exclusivity",
     "During the term of this Agreement, Cisco shall be Distributor's exclusive partner/source for sports, "
     "entertainment, and travel tickets, and Distributor shall include a Cisco portal on its website.",
     "Distributor (XYZ Corp.) must use Cisco as its exclusive partner/source for sports, entertainment, and travel "
     "tickets.",
     "The agreement contains an exclusivity commitment."),
    # damages said through what one party keeps
    ("liquidated_damages",
     "If Distributor terminates this Agreement early, Cisco may keep the Deposit as liquidated damages.",
     "Cisco may keep the deposit as liquidated damages for early termination.",
     "The agreement sets liquidated damages for early termination."),
    # ownership from the start: works made for hire
    ("ip_ownership",
     "All Deliverables shall be considered works made for hire for Distributor.",
     "Distributor (XYZ Corp.) owns all deliverables as works made for hire.",
     "The agreement allocates ownership of intellectual property."),
    # the right said through its exercise
    ("termination_for_convenience",
     "Except as set forth in paragraph 3 of this Schedule, if Distributor elects to terminate this Agreement for any "
     "reason, Distributor shall pay Cisco the termination fee computed in accordance with Section 8.4.",
     "Distributor (XYZ Corp.) may terminate for convenience, subject to a termination fee.",
     "The agreement allows termination for convenience, subject to a termination fee."),
    # what walking away costs
    ("termination_for_convenience",
     "8.4. Termination for Convenience. Distributor may elect to terminate this Agreement for any reason upon six "
     "months written notice to Cisco, provided Distributor shall pay Cisco the \"Termination Fee\" defined below.",
     "Distributor (XYZ Corp.) may terminate for convenience, on 6 months' written notice, subject to a termination fee "
     "(§ 8.4).",
     "The agreement allows termination for convenience, on 6 months' written notice, subject to a termination fee "
     "(§ 8.4)."),
    # a heading in capitals before the condition is no part of it
    ("license_grant",
     "SECTION 6 LICENSED SOFTWARE  If the Equipment contains embedded software, Cisco grants Distributor a license "
     "only to execute such software on the Equipment.",
     "If the equipment contains embedded software, Cisco grants Distributor (XYZ Corp.) a license only to execute such "
     "software on the equipment (§ 6).",
     "The agreement grants a licence (§ 6)."),
    # a condition of up to 28 words still frames the sentence
    ("post_termination_services",
     "Upon the expiration or termination of the term (other than in connection with a sale in which Cisco acquires "
     "Distributor), Cisco shall cooperate in permitting Distributor to rehire its sales representatives.",
     "Upon the expiration or termination of the term (other than in connection with a sale in which Cisco acquires "
     "Distributor (XYZ Corp.)), Cisco must cooperate in permitting Distributor to rehire its sales representatives.",
     "The agreement imposes obligations that continue after it ends."),
]


@pytest.mark.parametrize("item_id, clause, with_parties, without", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_item_reads_as_a_sentence(items, item_id, clause, with_parties, without):
    assert write_summary(items[item_id], clause, PARTIES) == with_parties
    assert write_summary(items[item_id], clause, ()) == without


def test_every_checklist_item_has_a_case(items):
    # agreement_facts is written from agents.facts (fact_findings), not from a clause reading
    assert {c[0] for c in CASES} >= set(items) - {"lease_assignment", "key_employee", "agreement_facts"}


def test_reading_fields_feed_the_consents_schedule():
    r = read_clause("change_of_control", CASES[0][1], PARTIES)
    assert (r.actor, r.action, r.trigger, r.notice, r.section, r.consequence) == (
        "Cisco", "may terminate", "a change of control of Distributor", "30 days' written notice", "18.4", "termination right")
    r = read_clause("anti_assignment", CASES[5][1], PARTIES)
    assert (r.actor, r.action, r.counterparty) == ("Distributor", "may not assign", "Cisco")
    assert "consent required" in r.consequence and "void" in r.consequence
    r = read_clause("minimum_commitment", CASES[15][1], PARTIES)
    assert r.amount == "USD 2,500,000"


@pytest.mark.parametrize("clause", [
    "This Agreement may be terminated for Convenience by the Company upon notice.",
    "The Effective Date shall not be deemed an assignment; Agreement may terminate as set out in Section 4.",
    "Customer may terminate this Agreement for convenience on thirty days notice.",
])
def test_words_that_look_like_names_are_never_named(items, clause):
    # "Agreement", "Convenience", "Effective Date", "Customer" (not a party of this agreement) read like names.
    for item_id in ("change_of_control", "termination_for_convenience", "anti_assignment"):
        s = write_summary(items[item_id], clause, PARTIES)
        assert not any(w in s for w in ("Agreement", "Convenience", "Effective", "Customer", "Company", "Section")), s
        assert "clause names" not in s and "[" not in s and s.endswith(".")


def test_a_party_named_in_capitals_is_still_that_party(items):
    s = write_summary(items["termination_for_convenience"],
                      "DISTRIBUTOR MAY TERMINATE THIS AGREEMENT FOR CONVENIENCE UPON THIRTY (30) DAYS WRITTEN NOTICE.", PARTIES)
    assert s == "Distributor (XYZ Corp.) may terminate for convenience, on 30 days' written notice."
    # a term defined in capitals ('BOSCH INTERNATIONAL, LLC ("CLIENT")') and written "Client" in the clauses
    caps = (SimpleNamespace(name="BOSCH INTERNATIONAL, LLC", role="CLIENT", aliases=()),
            SimpleNamespace(name="BOSCH TECHNOLOGIES, LLC", role="BOSCH", aliases=()))
    s = write_summary(items["exclusivity"], "6. EXCLUSIVE RIGHTS: Bosch hereby grants to Client the exclusive rights to "
                      "sell and distribute the Product.", caps)
    assert s.startswith("CLIENT (BOSCH INTERNATIONAL, LLC) has the exclusive rights to sell and distribute") and "by BOSCH" in s, s


def test_a_verb_in_another_clause_gets_no_subject(items):
    # Distributor makes records available; Cisco audits. Reading "Distributor may audit" would be a wrong party.
    clause = "Distributor shall make its records available for audit by Cisco upon ten (10) days prior written notice."
    s = write_summary(items["audit_rights"], clause, PARTIES)
    assert not s.startswith("Distributor")


def test_a_permission_to_assign_is_not_read_as_a_restriction(items):
    clause = "Cisco may assign this Agreement to an Affiliate without the consent of Distributor."
    assert write_summary(items["anti_assignment"], clause, PARTIES) == "Cisco may assign the agreement to an affiliate without consent."


def test_an_exception_is_not_read_as_part_of_the_restriction(items):
    clause = ("Neither party may assign this Agreement (except to a successor in the event of a merger) without the "
              "other party's prior written consent.")
    s = write_summary(items["anti_assignment"], clause, PARTIES)
    # the merger is the exception's (a successor may take the agreement), not a way the restriction reaches
    assert s == ("Neither party may assign the agreement without the other's prior written consent, except to a "
                 "successor to its business (including by merger).")


def test_party_objects_need_only_name_role_aliases(items):
    class Party:  # any object with the three attributes will do
        def __init__(self, name, role, aliases=()):
            self.name, self.role, self.aliases = name, role, aliases

    # A loose extraction that calls "Agreement" a party is not trusted with it.
    parties = [Party("Acme Ltd", "Supplier"), Party("Agreement", "Agreement")]
    s = write_summary(items["termination_for_convenience"],
                      "Supplier may terminate this Agreement for convenience on 30 days' notice.", parties)
    assert s == "Supplier (Acme Ltd) may terminate for convenience, on 30 days' notice."


def test_names_only_parties_check():
    assert names_only_parties("Cisco may terminate on a change of control of Distributor.", {"Cisco", "Distributor"})
    assert not names_only_parties("Agreement may terminate.", {"Cisco"})
    assert not names_only_parties("Cisco may terminate for Convenience.", {"Cisco"})


def test_summarize_keeps_its_callers_and_delegates(items):
    item = items["termination_for_convenience"]
    clause = CASES[7][1]
    assert summarize(item, clause, detect(clause), ["Termination for Convenience"]) == CASES[7][3]
    assert summarize(item, clause, detect(clause), [], parties=PARTIES) == CASES[7][2]


def test_a_term_two_parties_share_names_them_together(items):
    # "GA Retail, Inc. and Tiger Capital Group, LLC (together, "Agent")": "Agent" is neither one alone.
    ga = SimpleNamespace(name="GA Retail, Inc.", role="GA", aliases=("Agent",))
    tiger = SimpleNamespace(name="Tiger Capital Group, LLC", role="Tiger", aliases=("Agent",))
    merchant = SimpleNamespace(name="The Bon-Ton Stores, Inc.", role="Merchant", aliases=())
    s = write_summary(items["termination_for_convenience"],
                      "Agent may terminate this Agreement for convenience upon ten (10) days written notice to Merchant.",
                      (ga, tiger, merchant))
    assert s == "Agent may terminate for convenience, on 10 days' written notice."


def test_consent_is_read_from_the_restricting_sentence(items):
    # The second sentence's consent belongs to another transfer; the restriction asks the other party.
    clause = ("Neither party may assign this Agreement without the prior written consent of the other party. "
              "Distributor may assign it to its parent company with Cisco's consent, not to be unreasonably withheld.")
    s = write_summary(items["anti_assignment"], clause, PARTIES)
    assert s == "Neither party may assign the agreement without the other's prior written consent."


def test_a_restriction_on_some_work_is_not_said_to_be_against_the_other_party(items):
    clause = "During the Term, Distributor shall not develop any routing product without the approval of Cisco."
    # what the clause restricts, in its own words: a reading that knows only "may not compete" gives way to them
    assert write_summary(items["non_compete"], clause, PARTIES) == (
        "During the term, Distributor (XYZ Corp.) may not develop any routing product without the approval of Cisco.")


def test_a_merger_named_only_in_the_exception_is_not_part_of_the_restriction(items):
    clause = ("Neither party may transfer this Agreement without the prior written consent of the other party, except "
              "that either party may, without such consent, assign it to a purchaser of substantially all of its assets, "
              "whether by merger or otherwise.")
    s = write_summary(items["anti_assignment"], clause, PARTIES)
    # the merger is the exception's (a successor may take the agreement), not a way the restriction reaches
    assert s == ("Neither party may assign the agreement without the other's prior written consent, except to a "
                 "successor to its business (including by merger).")


def test_how_long_an_obligation_survives_is_not_the_term(items):
    clause = "The confidentiality obligations of each party shall remain in effect for five (5) years after termination."
    assert write_summary(items["term_renewal"], clause, PARTIES) == "The agreement sets its term, renewal and notice periods."


def test_licence_adjectives_come_from_the_grant_only(items):
    clause = ("The sole exception to the reservation of rights is that Cisco hereby grants Distributor a limited, "
              "non-transferable licence to use the Documentation.")
    assert write_summary(items["license_grant"], clause, ()) == "The agreement grants a non-transferable, limited licence."


def test_a_right_to_terminate_for_breach_is_not_called_convenience(items):
    clause = "Cisco may terminate this Agreement upon thirty (30) days' written notice if Distributor materially breaches it."
    assert write_summary(items["termination_for_convenience"], clause, PARTIES) == (
        "Cisco may terminate the agreement on 30 days' written notice.")
    # nor is a termination right a change-of-control right unless the clause names one
    assert write_summary(items["change_of_control"], clause, PARTIES) == (
        "Cisco may terminate the agreement on 30 days' written notice.")


@pytest.mark.parametrize("clause, consent", [
    ("If Distributor undergoes a change of control without the prior written consent of Cisco, Cisco shall have "
     "the right to terminate this Agreement.", True),
    ("Any change of control of Distributor shall be subject to the prior approval of Cisco.", True),
    ("Distributor may, without the consent of Cisco, assign this Agreement in connection with a change of control.",
     False),
    ("Either party shall be permitted, without any need for the other party's consent, to assign this Agreement "
     "to a successor in a change of control.", False),
])
def test_without_consent_is_a_condition_only_where_the_clause_restricts(clause, consent):
    r = read_clause("change_of_control", clause, PARTIES)
    assert (r.consequence == "consent required") is consent or r.consequence == "termination right"
    if consent and r.consequence != "termination right":
        assert r.counterparty


def test_except_as_provided_herein_opens_the_restriction_it_does_not_except_from_it(items):
    clause = ("Except as otherwise provided herein, a Party shall not have the right to assign any of its rights "
              "under this Agreement (whether through a merger, sale of stock, or otherwise) without the prior written "
              "consent of the other Party; except that, either Party may assign this Agreement to an Affiliate.")
    assert write_summary(items["change_of_control"], clause) == (
        "Neither party may assign the agreement (including by merger) without the other's prior written consent.")


@pytest.mark.parametrize("clause, severity", [
    ("(g) There is no pending litigation and no threatened claims against it that could impair its ability to perform.", "info"),
    ("EACH PARTY WAIVES ANY RIGHT TO TRIAL BY JURY IN ANY ACTION ARISING OUT OF THIS AGREEMENT.", "info"),
    ("On March 3, Acme filed a complaint against Distributor in the Superior Court alleging breach of contract.", "high"),
    ("4.08 Pending Litigation. ICC is not subject to any current or pending litigation that would impair its ability "
     "to perform.", "info"),
    # the contract's own machinery for disputes to come is no claim the buyer inherits
    ("Either party may bring an action in any court of competent jurisdiction for injunctive relief pending "
     "resolution of any claims related thereto by the Joint Steering Committee.", "low"),
    ("Channel Partner may withhold such amount, provided that Channel Partner gives iPass written notice of the "
     "dispute within thirty (30) days after the date of invoice.", "low"),
    ("Please treat this letter as formal notice of a claim under Section 14 of the Agreement.", "high"),
])
def test_a_clean_litigation_representation_is_no_key_issue(items, clause, severity):
    # a partner reads "High: litigation" as a claim the buyer inherits; "there is no pending litigation" is the opposite,
    # and a dispute-resolution step is the contract's machinery, not a dispute
    from agents.offline.clauses.conditions import severity_for

    assert severity_for(items["litigation"], clause)[0].value == severity


@pytest.mark.parametrize("clause, severity", [
    ("Licensee shall have a right of first refusal to purchase the Licensed Products on the terms offered by a third party.",
     "medium"),
    ("If Biocept does not obtain financing by December 31, 2012, Life Technologies shall have the option to negotiate "
     "with Biocept for a license.", "medium"),
    ("Before any sale of its business, Company shall first offer the shares to Investor.", "high"),
    # no word of a pre-emption right: what the classifier guessed is not asserted as one
    ("Richard Smith, MD will be given first consideration as a principal investigator for all new clinical studies.", "low"),
    ("Conformis shall have the first right to prepare, file, prosecute and maintain patents arising from any Improved "
     "Conformis Background IP.", "low"),
])
def test_a_first_refusal_finding_without_its_words_is_no_key_issue(items, clause, severity):
    from agents.offline.clauses.conditions import severity_for

    assert severity_for(items["rofr_rofo"], clause)[0].value == severity


@pytest.mark.parametrize("item_id, clause, severity", [
    # "including without limitation" is how lists are drafted, not a word about caps
    ("indemnification", "Supplier shall indemnify Customer against all losses, including without limitation "
     "reasonable attorneys' fees.", "medium"),
    ("indemnification", "Supplier shall indemnify Customer against all losses, and such liability shall be unlimited.", "high"),
    # an exclusion of indirect damages with no exception limits the liable party's exposure
    ("uncapped_liability", "IN NO EVENT WILL EQUIDATA BE LIABLE FOR ANY INDIRECT OR CONSEQUENTIAL DAMAGES INCLUDING "
     "WITHOUT LIMITATION LOST PROFITS.", "low"),
    ("uncapped_liability", "In no event shall Supplier's total liability exceed the fees paid in the preceding twelve "
     "months.", "low"),
    # a cap with a named exception leaves that liability uncapped
    ("uncapped_liability", "Except for the obligation of indemnity set forth in Section 6.1(c), aggregate damages for "
     "which ADMA shall be liable shall not exceed the fees paid.", "high"),
])
def test_uncapped_means_a_cap_or_exclusion_with_an_exception(items, item_id, clause, severity):
    from agents.offline.clauses.conditions import severity_for

    assert severity_for(items[item_id], clause)[0].value == severity


def test_a_passage_that_only_frees_a_party_is_no_restriction(items):
    from agents.offline.clauses.conditions import severity_for

    freeing = ("27.9 Non-exclusive Market and Purchase Rights. It is expressly understood and agreed that this Agreement "
               "does not grant to Cisco or Distributor an exclusive right to purchase or sell Products and shall not "
               "prevent Cisco from developing other customers.")
    assert severity_for(items["non_compete"], freeing)[0].value == "low"
    # the item's fallback ("restricts a party from competing") would say the opposite of the clause
    for item_id in ("non_compete", "exclusivity"):
        assert write_summary(items[item_id], freeing, ()) == (
            "The clause is an exception: it leaves a party free to do what a restriction would otherwise bar (§ 27.9).")
    # a restriction with its own carve-out is still the restriction
    both = ("During the Term, Distributor shall not sell competing products; provided that the foregoing shall not "
            "prevent Distributor from selling products under its existing contracts.")
    assert severity_for(items["non_compete"], both)[0].value == "high"
    # "Snap will not grant any third party any right": a party's promise, not the agreement disclaiming exclusivity
    assert severity_for(items["exclusivity"], "During the Term, Snap will not grant any third party any right to "
                        "sponsor any products in the Exclusive Category.")[0].value != "low"


def test_any_reason_is_convenience_only_when_it_is_the_terminating_partys(items):
    # the reason is a third party's, and the right is "for cause"
    assert write_summary(items["termination_for_convenience"], "7.4. Cisco reserves the right to terminate this Agreement "
                         "immediately for cause if the credit agencies decline to render services to Distributor for any "
                         "reason.", PARTIES) == "Cisco may terminate for cause (§ 7.4)."
    assert write_summary(items["termination_for_convenience"], "(c) at any time following the second (2nd) anniversary "
                         "of the First Commercial Sale, Cisco may terminate, for any reason or no reason, upon one hundred "
                         "eighty (180) days' written notice to Distributor.", PARTIES).startswith(
        "Cisco may terminate for convenience, on 180 days' written notice")


def test_two_of_three_parties_are_not_each_party(items):
    from types import SimpleNamespace as P

    three = (P(name="Emerald Health Sciences Inc.", role="EHS", aliases=()),
             P(name="Emerald Health Nutraceuticals Inc.", role="EHN", aliases=()),
             P(name="Michael T. Murray", role="Dr. Murray", aliases=()))
    summary = write_summary(items["exclusivity"], "4.1 EHS and EHN shall have the exclusive rights in and to all "
                            "ingredients and product specifications; provided that EHS and EHN shall not have any rights "
                            "in Dr. Murray's name.", three)
    assert not summary.startswith("Each party"), summary
    # "Each of X and Y" says it, whatever the number of parties
    assert write_summary(items["non_solicit"], "5.2 Non-Solicitation. Each of EHS and EHN agrees not to solicit or hire "
                         "any employee of the other party during the term.", three).startswith("Neither party")


def test_a_non_exclusive_appointment_is_no_exclusive_dealing(items):
    # PDF text writes the hyphen as U+2010 and breaks the line after it
    clause = ("Supplier hereby appoints Reseller, and Reseller accepts the appointment, as a non\u2010\n\nexclusive "
              "reseller of the Products in the Territory.")
    from types import SimpleNamespace as P
    two = (P(name="Vayyar Imaging Ltd.", role="Supplier", aliases=()), P(name="Inde Living Holdings, Inc.", role="Reseller", aliases=()))
    assert "exclusively" not in write_summary(items["exclusivity"], clause, two)
    assert "exclusive right" not in write_summary(items["exclusivity"], clause, two)


def test_a_second_verb_shares_its_subject_not_the_object_before_it(items):
    # "... purchase Licensed Product from Cisco ... and shall pay Cisco ... a royalty": Distributor pays, Cisco is paid
    clause = ("If Distributor exercises the Continuation Right, then Distributor shall continue to purchase Licensed "
              "Product from Cisco pursuant to the Supply Agreement and shall pay Cisco for such Licensed Product the price "
              "specified in the Supply Agreement and a royalty equal to [***].")
    assert write_summary(items["revenue_sharing"], clause, PARTIES) == "Distributor (XYZ Corp.) must pay Cisco royalties."


def test_a_carve_out_drops_a_long_section_title_and_keeps_a_short_one(items):
    clause = ("22.0 LIMITATION OF LIABILITY. NOTWITHSTANDING ANYTHING ELSE IN THIS AGREEMENT TO THE CONTRARY, AND EXCEPT FOR "
              "LIABILITY ARISING OUT OF DISTRIBUTOR'S BREACH OF SECTION 9 (PROPRIETARY RIGHTS AND SOFTWARE LICENSING) OR "
              "EXHIBIT C (SOFTWARE LICENSE AGREEMENT), OR AMOUNTS DUE, ALL LIABILITY OF EACH PARTY SHALL BE LIMITED TO THE "
              "MONEY PAID TO CISCO.")
    assert write_summary(items["uncapped_liability"], clause, PARTIES) == (
        "The liability cap does not apply to liability arising out of Distributor's breach of § 9 or Exhibit C "
        "(software license agreement) (§ 22.0).")


def test_a_waiver_of_severance_is_no_payment(items):
    from agents.offline.clauses.conditions import severity_for

    waiver = ("18.11 DISTRIBUTOR AGREES THAT, IN THE EVENT OF ANY TERMINATION OF THIS AGREEMENT, IT SHALL HAVE NO RIGHTS TO "
              "DAMAGES OR INDEMNIFICATION OF ANY NATURE, SPECIFICALLY INCLUDING COMMERCIAL SEVERANCE PAY.")
    assert severity_for(items["key_employee"], waiver)[0].value == "low"
    assert write_summary(items["key_employee"], waiver, PARTIES) == (
        "The clause rules out a payment on termination (such as severance pay or damages) rather than granting one "
        "(§ 18.11).")
    pays = ("If the Executive resigns for Good Reason within twelve months after a Change in Control, the Company shall "
            "pay the Executive severance equal to twelve months of salary.")
    assert severity_for(items["key_employee"], pays)[0].value == "high"


def test_a_change_of_control_after_which_a_party_must_go_on_performing(items):
    clause = ("B. Change in Control of Distributor. If a Change in Control occurs with respect to Distributor, Cisco agrees "
              "to continue to provide Services under this Agreement; provided that Cisco's obligation to provide Services "
              "shall be limited to the number of accounts processed before it.")
    assert write_summary(items["change_of_control"], clause, PARTIES) == (
        "A change of control of Distributor (XYZ Corp.) leaves the agreement in place: Cisco must continue to provide "
        "services under this agreement, within the limits the clause sets.")


def test_of_two_parties_the_other_one_is_named(items):
    # "THE RESELLER" is no defined term of this agreement, but of its two parties the indemnitee is the other one
    clause = ("TO THE EXTENT THE RESELLER HAS COMPLIED WITH THIS SECTION, CISCO SHALL INDEMNIFY AND HOLD HARMLESS THE "
              "RESELLER FOR ANY AND ALL LOSSES SUFFERED BY THE RESELLER IN CONNECTION WITH THE PRODUCTS.")
    assert write_summary(items["indemnification"], clause, PARTIES) == (
        "Cisco must indemnify Distributor (XYZ Corp.) against claims and losses.")


def test_a_carve_out_under_sections_reads_as_claims_under_them(items):
    clause = ("EXCEPT UNDER SECTIONS 13(a) AND 13(b), THE LIABILITY OF EITHER PARTY FOR DAMAGES HEREUNDER IS LIMITED "
              "TO, AND WILL NOT EXCEED, THE AMOUNTS TO BE PAID BY CLIENT HEREUNDER.")
    assert write_summary(items["uncapped_liability"], clause, ()) == (
        "The liability cap does not apply to claims under § 13(a) and 13(b).")
    # and an exclusion with no exception is what it is, not "liability outside the cap"
    assert write_summary(items["uncapped_liability"], "IN NO EVENT WILL CISCO BE LIABLE FOR ANY INDIRECT OR "
                         "CONSEQUENTIAL DAMAGES INCLUDING WITHOUT LIMITATION LOST PROFITS.", PARTIES) == (
        "Cisco is not liable for indirect or consequential damages.")


@pytest.mark.parametrize("item_id, clause, sentence", [
    # record keeping is the half of an audit clause that binds the audited party
    ("audit_rights", "7.2 Records. Distributor shall keep for three (3) years complete and accurate books of account "
     "relating to its sales of the Products.",
     "Distributor (XYZ Corp.) must keep books and records for three (3) years (§ 7.2)."),
    # "provide X the opportunity to examine": the one given the opportunity inspects
    ("audit_rights", "Cisco will provide Distributor the opportunity to examine the records supporting each invoice "
     "during normal business hours.",
     "Distributor (XYZ Corp.) may inspect Cisco's books and records."),
    # "no later than" bounds the time to pay; it does not negate the duty
    ("revenue_sharing", "Distributor will, no later than thirty (30) days after the end of each calendar quarter, pay "
     "Cisco royalties on Net Sales.",
     "Distributor (XYZ Corp.) must pay Cisco royalties."),
    # what continues after the end, in the words drafters use for it
    ("post_termination_services", "Except upon termination for Distributor's breach, Cisco will complete delivery of "
     "all purchase orders accepted by it prior to termination.",
     "Cisco must complete orders accepted before the agreement ends."),
    ("post_termination_services", "Upon expiration or termination, Distributor shall cease all use of the Cisco "
     "trademarks.",
     "Distributor (XYZ Corp.) must stop using Cisco's name, marks or materials after the agreement ends."),
    ("post_termination_services", "Such books and records shall be maintained for two (2) years following the "
     "termination of this Agreement.",
     "The books and records must be kept for a period after the agreement ends."),
    # "shall be prohibited from" is the restriction; the carve-out's "may develop" is not the clause's verb
    ("exclusivity", "4.1 Exclusivity. Distributor shall be prohibited from developing competing products for any "
     "third party, with the exception that Distributor may develop products for its own use.",
     "Distributor (XYZ Corp.) may not deal with third parties in the field the clause covers (§ 4.1)."),
    # "either company" in a two-company agreement is either party
    ("change_of_control", "If a majority of the shares of Distributor are acquired by another company, either company "
     "may terminate this Agreement by giving thirty (30) days written notice to the other party.",
     "Either party may terminate on a change of control of Distributor (XYZ Corp.), on 30 days' written notice."),
    # a carve-out the filed copy blanks out is still a carve-out, not a plain cap
    ("uncapped_liability", "7.2 Limitation of Liability. EXCEPT FOR [**], IN NO EVENT WILL EITHER PARTY BE LIABLE TO "
     "THE OTHER PARTY FOR [**].",
     "The limits on liability do not apply to matters the filed copy redacts (§ 7.2)."),
    # "not subject to any current or pending litigation" is a clean representation; "threatened" only when said
    ("litigation", "4.08 Pending Litigation. Distributor is not subject to any current or pending litigation that "
     "would impair its ability to perform.",
     "Distributor (XYZ Corp.) represents that no litigation or claim is pending against it (§ 4.08)."),
    # a requirements contract says what must be bought, and from whom
    ("exclusivity", "Distributor shall purchase all of its requirements of Products exclusively from Cisco during the Term.",
     "Distributor (XYZ Corp.) must buy all its requirements of the products from Cisco."),
    # what "nothing in this Section shall limit" leaves out of the limits; a PDF's zero-width space before a number
    ("uncapped_liability", "Nothing in this Section \u200b9.4 shall operate to limit or exclude any liability under Section "
                           "\u200b9.2 for a third-party claim, or for fraud.",
     "The limits on liability do not apply to liability under § 9.2 for a third-party claim, or for fraud (§ 9.4)."),
    # "the Party which was not subject to the Change of Control" is the other party
    ("change_of_control", "In the event of a Change of Control, the Party which was not subject to the Change of Control may "
                          "terminate this Agreement upon six (6) months advance written notice.",
     "Either party may terminate on a change of control of the other party, on 6 months' written notice."),
    # a deemed assignment that lets a party terminate says who
    ("anti_assignment", "Any Change of Control of Distributor shall be considered as an assignment by Distributor, allowing "
                        "Cisco to terminate this Agreement.",
     "A change of control of Distributor (XYZ Corp.) is treated as an assignment of the agreement, on which Cisco may "
     "terminate it."),
    # "upon the delivery of written notice" is written notice
    ("change_of_control", "A Party may terminate this Agreement immediately upon the delivery of written notice to the other "
                          "Party if there has been a Change in Control.",
     "Either party may terminate on a change of control, on written notice."),
    # the word of a licence with no licence granted: the clause's own sentence, not "The agreement grants a licence"
    ("license_grant", "Distributor shall not sell, lease, copy, distribute, transfer, assign or sublicense the Licensed "
                      "Software to any third party.",
     "Distributor (XYZ Corp.) may not sell, lease, copy, distribute, transfer, assign or sublicense the licensed software "
     "to any third party."),
    # "The Parties acknowledge and agree that ..., the Parties shall ...": the acknowledgement frames the duty
    ("license_grant", "2.6 The Parties acknowledge and agree that prior to commercialization of the Licensed Products by "
                      "Distributor, its Affiliates and/or sublicensees, the Parties shall, in good faith, negotiate the terms "
                      "and conditions of a supply agreement.",
     "Prior to commercialization of the licensed products by Distributor (XYZ Corp.), its affiliates and/or sublicensees, "
     "the parties must negotiate the terms and conditions of a supply agreement (§ 2.6)."),
    # a definition binds no one, even where the item's reading finds a party in it
    ("exclusivity", "1.90 \u201cRegulatory Exclusivity\u201d means any market protection granted to Distributor by a Regulatory "
                    "Authority which confers an exclusive commercialization period.",
     "The agreement defines \u201cRegulatory Exclusivity\u201d (\u00a7 1.90)."),
    # an aside after the verb is not one of the verbs an exclusive right is to do
    ("exclusivity", "Distributor shall have the exclusive right to implement, and subject to Section 5.5, final "
                    "decision-making authority with respect to, commercialization of all Products.",
     "Distributor (XYZ Corp.) has the exclusive right to implement what the clause covers."),
    # discretion whether to act on a breach is no right to walk away
    ("termination_for_convenience", "In the event that Distributor fails to make any payment within ninety (90) days, it shall "
                                    "be deemed a material breach and shall entitle Cisco, in its sole discretion, to terminate "
                                    "this Agreement with immediate effect.",
     "Cisco may terminate for cause."),
    # discretion over a fact the right depends on ("as determined by such party in its sole discretion") is no walk-away
    ("termination_for_convenience", "If the value of this Agreement is materially impaired for either party, as determined "
                                    "by such party in its sole discretion, then the affected party may terminate this "
                                    "Agreement by written notice.",
     "The agreement may be terminated, on written notice."),
    ("anti_assignment", "Notwithstanding the aforesaid, either Party shall be entitled to assign its rights and obligations under "
                        "this Agreement, in whole or in part, to one or more of its Affiliates on prior written notice.",
     "Either party may assign the agreement to an affiliate without consent, on written notice."),
    # a representation that no covenant not to sue was granted to others gives none
    ("covenant_not_to_sue", "Neither Cisco nor any of its Affiliates has previously encumbered its interest in the Cisco "
                            "Patents (including by granting any covenant not to sue with respect thereto).",
     "The agreement restricts a party from contesting the other's rights or bringing claims against it."),
])
def test_obligations_read_through_asides_and_record_keeping(items, item_id, clause, sentence):
    assert write_summary(items[item_id], clause, PARTIES) == sentence


def test_claims_machinery_is_no_litigation():
    from agents.offline.patterns import gate

    for clause in ("The Indemnitee will fully cooperate, at the expense of the Indemnitor, in the defense or settlement "
                   "of the claim.",
                   "The disputing Party will give the other Party, as applicable, written notice of the Dispute.",
                   "Distributor will promptly inform Cisco of any such Action and will co-operate in the defence of the "
                   "Action."):
        assert not gate("litigation", clause), clause
    assert gate("litigation", "Please treat this letter as formal notice of a claim under Section 14 of the Agreement.")


def test_exclusive_used_for_something_else_is_no_exclusivity_clause():
    from agents.offline.patterns import gate

    for clause in ("The rights and remedies set forth in this Agreement are not exclusive of any remedies at law.",
                   "All trademarks are and remain the exclusive property of Cisco.",
                   "The courts of New York shall have exclusive jurisdiction over any dispute.",
                   "This indemnity will inure exclusively to the benefit of Distributor and its officers.",
                   # the integration clause, warranties, remedies named twice, title to a mark
                   "This Agreement constitutes the final, complete and exclusive expression of the Parties' agreement.",
                   "THE WARRANTIES IN SECTION 5.1 ARE THE EXCLUSIVE WARRANTIES FROM CISCO.",
                   "The remedies herein are not exclusive of any other remedy, except where this Agreement specifies "
                   "that a particular remedy is sole or exclusive.",
                   "Distributor acknowledges Cisco's exclusive right, title and interest in and to the Marks.",
                   # who owns or runs something, where something is kept, how a word reads
                   "All related rights and goodwill belong solely and exclusively to Cisco.",
                   "As between the Parties, Cisco will exclusively control the filing, prosecution and maintenance "
                   "of any patents claiming Cisco Inventions.",
                   "Distributor shall keep Customer Information only in a database maintained exclusively for it.",
                   "5.2 Exclusivity of Warranties",
                   '(g) the word "or" shall not be exclusive;'):
        assert not gate("exclusivity", clause), clause
    for clause in ("Cisco appoints Distributor as its exclusive distributor of the Products in the Territory.",
                   "Distributor shall purchase all of its requirements of the Products exclusively from Cisco.",
                   "Distributor shall not sell any competing product of another manufacturer; all marks remain the "
                   "exclusive property of Cisco."):
        assert gate("exclusivity", clause), clause


def test_accounts_audit_and_drafting_minimums_are_no_audit_right_or_commitment():
    from agents.offline.patterns import gate

    for clause in ("4.5 Distributor's Audited Financial Statements.",
                   "Deloitte & Touche LLP, which has audited the consolidated financial statements of the Company, is "
                   "an independent registered public accounting firm.",
                   "(b) audited fiscal year financial statements for each fiscal year during the Term."):
        assert not gate("audit_rights", clause), clause
    assert gate("audit_rights", "Cisco may audit Distributor's books and records; Distributor shall deliver its "
                                "audited financial statements each year.")
    for clause in ("The monthly report shall provide at a minimum:",
                   "If the rate exceeds the maximum amount allowed by applicable law, it shall be reduced to it.",
                   '"Control" means the ownership of at least fifty percent (50%) of the voting securities.'):
        assert not gate("minimum_commitment", clause), clause
    assert gate("minimum_commitment", "Distributor shall purchase at least 1,000 units in each calendar year.")
    # a notice period, a meeting frequency, a minimum of nothing traded
    for clause in ("Unless either party gives the other at least ninety (90) days' prior written notice of non-renewal, "
                   "the term shall be extended by one year.",
                   "The Steering Committee shall meet no less than monthly during the Term.",
                   "Distributor shall maintain at least one business office in the Territory.",
                   "Licensor grants the minimum express and implied warranties required by applicable law.",
                   "Vendor will maintain Products/Completed Operations coverage for at least two (2) years after completion.",
                   "Reseller will maintain errors and omissions insurance in minimum amounts of Two Million Dollars "
                   "(US$2,000,000) per occurrence."):
        assert not gate("minimum_commitment", clause), clause
    assert gate("minimum_commitment", "Distributor shall order at least 1,000 units per quarter and shall give at least "
                                      "thirty (30) days' prior written notice of any change to its forecast.")
    assert gate("minimum_commitment", "Distributor shall meet the minimum performance goals set forth in Exhibit C.")
    assert gate("minimum_commitment", "This Agreement may be terminated by Cisco if Distributor does not meet the Quotas.")


def test_a_party_without_a_defined_term_is_named_without_its_suffix(items):
    parties = (SimpleNamespace(name="Link Plus Corporation", role="", aliases=()),
               SimpleNamespace(name="Axiometric, LLC.", role="", aliases=()))
    assert write_summary(items["exclusivity"], "3.2.1 Axiometric shall have the exclusive right to market and sell the "
                         "Products in the United States.", parties) == ("Axiometric, LLC. has the exclusive right to "
                                                                          "market and sell the products in the United States "
                                                                          "(§ 3.2.1).")
    assert write_summary(items["change_of_control"], "Link Plus may terminate this Agreement upon a change of control "
                         "of Axiometric.", parties) == \
        "Link Plus Corporation may terminate on a change of control of Axiometric, LLC."


def test_an_exclusive_right_says_what_it_is_to_do_in_the_clauses_own_lower_case_verbs(items):
    say = lambda q: write_summary(items["exclusivity"], q, PARTIES)  # noqa: E731
    # the object in the clause's own words where its operative sentence reads (a place keeps its capitals)
    assert say("Distributor shall have the exclusive rights to use, reproduce, modify and sublicense the Software.") == (
        "Distributor (XYZ Corp.) has the exclusive rights to use, reproduce, modify and sublicense the software.")
    assert say("Cisco hereby grants Distributor the exclusive right to distribute the Products in the Territory.") == (
        "Distributor (XYZ Corp.) has the exclusive right to distribute the products in the territory, granted by Cisco.")
    # no verb of its own (a name follows at once): nothing is made up
    assert say("Distributor shall have the exclusive right to the Products.") == "Distributor (XYZ Corp.) has exclusive rights."


def test_audit_rights_drafted_as_a_right_to_have_an_accountant_examine_or_as_access(items):
    clause = ("Cisco has the right, at its sole expense and during normal working hours, to have a third party "
              "accountant examine the records of Distributor.")
    assert write_summary(items["audit_rights"], clause, PARTIES) == (
        "Cisco may inspect Distributor's books and records.")
    clause = ("Upon reasonable notice, Distributor shall allow, and shall ensure that its subcontractors allow, Cisco "
              "access to such records during normal working hours.")
    assert write_summary(items["audit_rights"], clause, PARTIES) == (
        "Cisco may inspect Distributor's books and records, on notice.")


def test_a_first_right_of_refusal_is_a_right_of_first_refusal(items):
    assert write_summary(items["rofr_rofo"], "As the preferred manufacturer, Cisco shall have first right of refusal on "
                         "all such requests for manufacture.", PARTIES) == "Cisco has a right of first refusal."


def test_a_duty_to_negotiate_with_a_party_is_that_partys_right_of_first_negotiation(items):
    clause = ("4.4 RIGHT OF FIRST REFUSAL. In the event of expiration of this Agreement, upon notice from Distributor "
              "delivered to Cisco at least forty-five (45) days prior to such expiration, Cisco shall negotiate in good "
              "faith an agreement providing Distributor with distribution rights similar to those described herein.")
    assert write_summary(items["rofr_rofo"], clause, PARTIES) == (
        "Distributor (XYZ Corp.) has a right of first negotiation (§ 4.4).")


def test_an_option_to_buy_says_whose_it_is_and_what_it_buys(items):
    # whose stock "its" means is the grantor's, and the sentence names it
    assert write_summary(items["rofr_rofo"], "(c) Option. Cisco shall grant to Distributor a six month option (the "
                         '"Option") to purchase up to 3,333,333 shares of its common stock.', PARTIES) == (
        "Distributor (XYZ Corp.) has an option to purchase up to 3,333,333 shares of Cisco's common stock.")
    assert write_summary(items["rofr_rofo"], "1.03 Cisco is issuing the Option pursuant to which Distributor will be "
                         "entitled to purchase common shares of Cisco.", PARTIES) == (
        "Distributor (XYZ Corp.) has an option to purchase common shares of Cisco (§ 1.03).")
    # an option whose holder the clause does not name stays unread
    assert write_summary(items["rofr_rofo"], "The Option to purchase shares of its common stock lapses after six "
                         "months.", PARTIES) == "The agreement grants a right of first refusal, offer or negotiation."


def test_a_definition_of_change_of_control_says_what_it_counts(items):
    say = lambda q: write_summary(items["change_of_control"], q, PARTIES)  # noqa: E731
    assert say("\u201cChange in Control\u201d shall include (i) the transfer of equity securities of Distributor representing "
               "more than fifty percent (50%) of its voting securities; (ii) Distributor being a party to a merger; or "
               "(iii) a sale of substantially all of Distributor's assets.") == (
        "The agreement defines a change of control of Distributor (XYZ Corp.) to include a transfer of more than 50% "
        "of the voting securities, a merger or a sale of substantially all of the assets.")
    assert say('"Change of Control" means the acquisition by any person of 35% or more of the voting stock of '
               'Distributor.').endswith("to include a transfer of 35% or more of the voting securities.")
    # a definition that names none of these says only that it is one
    assert say('"Change of Control" has the meaning set forth in the Purchase Agreement.') == (
        "The agreement defines \u201cChange of Control\u201d.")


def test_the_third_party_beneficiary_fallback_claims_no_right_the_clause_may_deny(items):
    # "Entire Agreement and Third-Party Beneficiaries" is as often a denial as a grant: an unread clause says neither
    s = write_summary(items["third_party_beneficiary"], "10.10 Entire Agreement and Third-Party Beneficiaries. This "
                      "Agreement contains the entire agreement among the Parties.", PARTIES)
    assert s == "The agreement addresses whether a person who is not a party may enforce it (§ 10.10)."


def test_a_trailing_list_of_carve_outs_is_said_by_kind(items):
    clause = ("9.2 Limitation of Liability. Neither Party shall be liable to the other Party for any special, consequential "
              "or punitive damages, however caused, except to the extent such damages are payable (a) pursuant to its "
              "indemnification obligations under Section 9.1, (b) arising out of its breach of its confidentiality "
              "obligations or (c) resulting from its gross negligence or willful misconduct.")
    assert write_summary(items["uncapped_liability"], clause, PARTIES) == (
        "The exclusion of indirect and consequential damages does not apply to indemnity claims, breaches of "
        "confidentiality, gross negligence or wilful misconduct (§ 9.2).")
    # a proviso that the limitations do not apply, naming one kind: that kind alone
    clause = ("(d) In no event shall either Party have any liability for any punitive, consequential, indirect or special "
              "loss or damage suffered by the other arising from this Agreement; provided, however, that such limitations "
              "shall not apply to liabilities which may arise as the result of willful misconduct of a party.")
    assert write_summary(items["uncapped_liability"], clause, PARTIES) == (
        "The exclusion of indirect and consequential damages does not apply to wilful misconduct.")


def test_an_exclusive_right_to_a_noun_and_a_name_used_as_an_adjective_are_not_misread(items):
    clause = ("5. Exclusivity. During the Term and for six (6) months after the discontinuation of any of the Cisco "
              "Products, (i) the Reseller shall have the exclusive right to commission for any Registered Referrals, "
              "(ii) Cisco shall not sell the Cisco Products in the Territory other than through the Reseller.")
    s = write_summary(items["exclusivity"], clause, PARTIES)
    assert "commission what" not in s and not s.startswith("Cisco has")  # the right is the Reseller's, not Cisco's
    # what Cisco may not do is the list's second item, framed by the words before the list
    assert s == ("During the term and for 6 months after the discontinuation of any of the Cisco products, Cisco may not "
                 "sell the Cisco products in the territory other than through the reseller (§ 5).")


@pytest.mark.parametrize("item_id,clause,sentence", [
    # a cap said of a party, and one whose subject stands far from its figure
    ("cap_on_liability", "Whatever the basis of the claim, Cisco is liable for no more than the amounts paid in the year.",
     "Cisco's liability is capped at the amounts paid or payable under the agreement."),
    ("cap_on_liability", "DISTRIBUTOR'S AGGREGATE LIABILITY FOR ALL DAMAGES, LOSSES AND CAUSES OF ACTION IN ANY WAY RELATED TO "
     "THIS AGREEMENT OR THE PRODUCTS, WHETHER IN CONTRACT, TORT (INCLUDING NEGLIGENCE) OR OTHERWISE, EITHER JOINTLY OR "
     "SEVERALLY, SHALL NOT EXCEED ONE HUNDRED DOLLARS ($100).", "Distributor's liability is capped at $100."),
    # what may be recovered is capped, whoever owes it
    ("cap_on_liability", "Reimbursements claimed under this indemnity shall not exceed the fees received by Cisco.",
     "Reimbursement under the clause is capped."),
    # the registration-rights contribution cap
    ("cap_on_liability", "Distributor shall not be required to contribute any amount in excess of the net proceeds it "
     "received from the sale of the Shares.",
     "Distributor's contribution to losses is capped at what it received from the sale."),
    ("cap_on_liability", "UNDER NO CIRCUMSTANCES AND UNDER NO LEGAL THEORY (TORT, CONTRACT OR OTHERWISE), SHALL EITHER PARTY "
     "BE LIABLE FOR ANY LOST PROFITS OR CONSEQUENTIAL DAMAGES.", "Neither party is liable for indirect or consequential damages."),
    ("cap_on_liability", "The arbitral award shall not include any indirect, special or consequential damages.",
     "The agreement excludes liability for indirect or consequential damages."),
    # the distributor's clause: nothing owed for ending the agreement
    ("cap_on_liability", "9.6 No Liability on Termination. Cisco shall have no liability to Distributor by reason of the "
     "termination or expiration of this Agreement for compensation, reimbursement or damages of any kind.",
     "Cisco is not liable to Distributor (XYZ Corp.) for compensation or damages because the agreement ends (§ 9.6)."),
    # audit rights held through a party's representatives, or said as availability, a cost or a permission
    ("audit_rights", "Cisco's representatives may, from time to time during regular business hours on reasonable notice, "
     "inspect and audit the books and records of Distributor.", "Cisco may audit Distributor's books and records, on notice."),
    ("audit_rights", "These records will be available for inspection during business hours upon reasonable notice by Cisco, "
     "or its duly authorized representative.", "Cisco may inspect the other party's books and records, on notice."),
    ("audit_rights", "The cost of the audit will be borne by Cisco unless a discrepancy of more than five percent (5%) is "
     "discovered, in which case the cost of the audit shall be borne by Distributor.",
     "Cisco bears the cost of an audit, unless it finds a discrepancy of more than 5%, when Distributor (XYZ Corp.) bears it."),
    ("audit_rights", "Any such audit shall be permitted by Distributor within 30 days of a written request of Cisco.",
     "Cisco may audit Distributor (XYZ Corp.)."),
    # the subject stands before the modal when an aside between commas names the other party
    ("audit_rights", "Cisco may, upon no less than thirty (30) days prior written notice to Distributor, cause an independent "
     "accountant to inspect the records of Distributor.",
     "Cisco may inspect Distributor's books and records, on 30 days' written notice."),
    # a bar with no consent route, a page footer inside its list
    ("anti_assignment", "All rights granted herein are not sublicenseable, Source: ACME CORP, 10-12G, 8/26/1999 "
     "transferable or assignable.", "The rights granted may not be sublicensed, transferred or assigned."),
    # what continues after the end: termination assistance, claims-made insurance kept in force
    ("post_termination_services", "Commencing upon a notice of termination and continuing for up to twelve (12) months "
     "thereafter, Cisco shall provide to Distributor the reasonable termination assistance it requests.",
     "Cisco must give transition assistance after the agreement ends."),
    ("post_termination_services", 'If any such insurance is on a "claims made" basis, Distributor shall maintain coverage '
     "thereunder for a period of at least two (2) years following the termination of this Agreement.",
     "Distributor (XYZ Corp.) must keep its insurance in place after the agreement ends."),
    # assignment: "shall have the power to", an aside with its own modal or party, a permission by destination
    ("anti_assignment", "This Agreement shall bind the parties and their successors, but neither party shall have the "
     "power to assign this Agreement without the prior written consent of the other party.",
     "Neither party may assign the agreement without the other's prior written consent."),
    ("anti_assignment", "4.2 ASSIGNMENT. Neither party may, or shall have the power to, assign this Agreement without "
     "the prior written consent of the other party.",
     "Neither party may assign the agreement without the other's prior written consent (§ 4.2)."),
    ("anti_assignment", "Provided, however, Distributor may, without the prior written consent of Cisco, assign its "
     "rights and obligations to an affiliate.", "Distributor (XYZ Corp.) may assign the agreement to an affiliate "
     "without consent."),
    ("anti_assignment", "10.7 ASSIGNMENT. (a) Cisco may assign this Agreement to an Affiliate upon written notice to "
     "Distributor.", "Cisco may assign the agreement to an affiliate without consent, on written notice (§ 10.7)."),
    ("anti_assignment", "Notwithstanding the foregoing, Distributor may assign this Agreement to a successor organization "
     "by merger, consolidation or acquisition.",
     "Distributor (XYZ Corp.) may assign the agreement to a successor to its business without consent."),
    ("audit_rights", "Cisco reserves the right to site inspect Distributor's physical location of business at any time.",
     "Cisco may inspect Distributor's facilities."),
    # a first refusal said through its holder's exercise, or as the holder's right
    ("rofr_rofo", "Cisco shall have thirty (30) business days (the \"ROFR Period\") from receipt of a ROFR Notice to "
     "exercise its ROFR.", "Cisco has a right of first refusal."),
    ("rofr_rofo", "If Distributor does not exercise its ROFR within the ROFR Period, Cisco may contract with any third "
     "party.", "Distributor (XYZ Corp.) has a right of first refusal."),
    ("rofr_rofo", "Cisco may sell the Units with respect to which Distributor's right of first refusal was not "
     "exercised.", "Distributor (XYZ Corp.) has a right of first refusal."),
    # after the end: a use barred in the negative, an option to buy
    ("post_termination_services", "13.3 No Use of Products. From and after termination Distributor shall not use "
     "internally or employ any of the Products as a part of any product.",
     "Distributor (XYZ Corp.) must stop using the other party's name, marks or materials after the agreement ends (§ 13.3)."),
    ("post_termination_services", "In the event of termination or expiration of this Agreement, Cisco shall have an "
     "option, which shall expire ninety (90) days after such termination, to purchase from Distributor all inventory "
     "of the Products.", "Cisco may buy from Distributor (XYZ Corp.) what the clause lists after the agreement ends."),
    # revenue sharing: a split, a payee, a redacted percentage
    ("revenue_sharing", "4.1 General Allocation. The parties agree to share fees 50%/50% on assignments within the "
     "scope of this Agreement.", "The parties share the fees 50%/50% (§ 4.1)."),
    ("revenue_sharing", "Distributor will receive an annual royalty on net sales of any products it develops for Cisco.",
     "Distributor (XYZ Corp.) receives a royalty on net sales."),
    ("revenue_sharing", "Distributor shall pay Cisco *** percent (***%) of the Distributor Revenue, payable monthly.",
     "Distributor (XYZ Corp.) must pay Cisco a share of revenue."),
    # where the figures are, when the clause states none
    ("revenue_sharing", "The revenue share for the Program is stated in Exhibit B.", "The revenue share is set out in Exhibit B."),
    ("revenue_sharing", "Royalties shall be as set forth in Schedule 4.1.", "The royalties are set out in Schedule 4.1."),
    # a minimum said through its breach or its imposition
    ("minimum_commitment", "Should Distributor fail to supply a minimum of [***] units in any quarter, Cisco may claim "
     "liquidated damages.", "Distributor (XYZ Corp.) must supply a minimum quantity."),
    ("minimum_commitment", "In the event Distributor does not meet the full amount of the Minimum Royalty during a Year, "
     "it may not carry over overages.", "Distributor (XYZ Corp.) must pay a minimum royalty."),
    # one party is the other's exclusive provider: the other must use it
    ("exclusivity", "Distributor agrees that, during the Term, Cisco shall be Distributor's sole and exclusive provider of "
     "all Services.", "Distributor (XYZ Corp.) must use Cisco as its exclusive provider for all services."),
    ("exclusivity", "Distributor accepts Cisco as the exclusive supplier to Distributor for all products of the nature "
     "of the Products.", "Distributor (XYZ Corp.) must use Cisco as its exclusive supplier for all products of the nature "
     "of the products."),
    ("exclusivity", "Cisco, as the exclusive agent for Distributor, is authorized to conduct the Sale.",
     "Distributor (XYZ Corp.) must use Cisco as its exclusive agent for what the clause covers."),
    # an exclusive right said in the passive
    ("exclusivity", "All sales of the Products to customers in the Territory will be carried out exclusively by Distributor.",
     "Distributor (XYZ Corp.) has the exclusive right to sell what the clause covers."),
])
def test_caps_and_audits_read_in_their_other_drafting_forms(items, item_id, clause, sentence):
    assert write_summary(items[item_id], clause, PARTIES) == sentence


def test_a_noun_or_participle_of_the_verb_names_no_one_bound(items):
    # "remedies provided for herein" is no promise to provide; "Royalty payments" is no promise to pay: the party
    # named before them is not the one who must meet the minimum or pay
    s = write_summary(items["minimum_commitment"], "Failure to meet these minimum performance goals for any period shall, "
                      "at Cisco's option, be a breach for which Cisco shall have all the rights and remedies provided "
                      "for herein.", PARTIES)
    assert not s.startswith("Cisco"), s
    s = write_summary(items["revenue_sharing"], "Payments to Distributor for sales of the Products shall be in lieu of "
                      "any licensed IP Royalty payments for those products.", PARTIES)
    assert not s.startswith("Distributor"), s
    assert write_summary(items["revenue_sharing"], "Royalties will be payable by Distributor on Net Sales of the Products.",
                         PARTIES) == "Distributor (XYZ Corp.) must pay royalties."
    # "perform audits to ensure compliance": a party's own audits, no right to audit the other
    s = write_summary(items["audit_rights"], "Distributor shall maintain staff necessary to provide oversight and perform "
                      "audits to ensure compliance at the national and regional level.", PARTIES)
    assert "may audit" not in s, s


@pytest.mark.parametrize("item_id, clause, passes", [
    # "No third party beneficiaries", its exception in another sentence; a beneficiary named or excepted
    ("third_party_beneficiary", "14.5. No Waiver; No Third Party Beneficiary. None of the terms of this Agreement may be "
     "waived or modified except by an express agreement in writing signed by the parties.", False),
    ("third_party_beneficiary", "14.6 No Third Party Beneficiaries. This Agreement is neither expressly nor impliedly made "
     "for the benefit of any party other than those executing it.", False),
    ("third_party_beneficiary", "There are no third party beneficiaries of this Agreement, except that the Indemnified "
     "Parties may enforce Section 9.", True),
    ("third_party_beneficiary", "Cisco and its suppliers shall be deemed to be third-party beneficiaries of this "
     "agreement.", True),
    # a representation about a party's liabilities, a limitation period; a carve-out from the limits
    ("uncapped_liability", "As of the date of this Agreement, neither Cisco nor any of its affiliates has any liabilities "
     "or obligations of any nature (absolute, accrued, contingent or otherwise) except for those disclosed.", False),
    ("uncapped_liability", "No lawsuit or other action may be brought by either party hereto, or on any claim arising out "
     "of this Agreement, after two (2) years from the date on which the party knew of the claim.", False),
    ("uncapped_liability", "The limitations of liability in this Section 10 shall not apply to a breach of Section 11 or "
     "to either party's indemnity obligations.", True),
    # "for any reason" after an ending; a right to end for any reason beside it
    ("termination_for_convenience", "4.3 EFFECT OF TERMINATION. Upon termination or expiration of the Term for any "
     "reason, all rights and obligations of the parties under this Agreement shall be extinguished, except that:", False),
    ("termination_for_convenience", "Survival of Article V. The provisions of this Article V shall survive the term or "
     "termination of this Agreement for any reason.", False),
    ("termination_for_convenience", "Either party may terminate this Agreement for any reason upon thirty (30) days "
     "written notice; upon termination for any reason, fees accrued remain payable.", True),
])
def test_look_alikes_fail_the_items_gate_and_the_clause_passes(item_id, clause, passes):
    from agents.offline.patterns import gate

    assert gate(item_id, clause) is passes


def test_an_aside_naming_the_other_party_does_not_make_it_the_object(items):
    # the aside is about the other party's request and cost; the audit is of a subcontractor, on its behalf
    s = write_summary(items["audit_rights"], "Failing those efforts, Distributor shall, upon Cisco's request and at "
                      "Cisco's expense, conduct the audit on behalf of Cisco, subject to terms agreed for the "
                      "Subcontractor audit.", PARTIES)
    assert "may audit Cisco" not in s, s


@pytest.mark.parametrize("item,quote,sentence", [
    # the restriction's words inside a carve-out are not the restriction
    ("covenant_not_to_sue",
     "For clarity, the foregoing does not prevent Distributor from granting any license, release or covenant not to sue "
     "to any third party under any patents.",
     "The restriction does not prevent Distributor (XYZ Corp.) from granting any license, release or covenant not to sue "
     "to any third party under any patents."),
    ("non_compete",
     "Nothing contained in this Agreement is intended to limit Distributor from responding to unsolicited requests from "
     "customers outside of the Territory;",
     "Nothing in the agreement prevents Distributor (XYZ Corp.) from responding to unsolicited requests from customers "
     "outside of the territory."),
])
def test_a_carve_out_says_what_the_party_stays_free_to_do(items, item, quote, sentence):
    assert write_summary(items[item], quote, PARTIES) == sentence


def test_a_carve_out_narrowed_by_conditions_or_a_restriction_is_not_read_as_one(items):
    narrowed = ("The foregoing shall not preclude either party from employing any such employee (a) who seeks employment "
                "in response to a general advertisement.")
    assert "does not prevent" not in write_summary(items["non_solicit"], narrowed, PARTIES)
    restriction = "This provision is intended to prevent Distributor from selling to any customer of Cisco."
    assert "does not prevent" not in write_summary(items["non_compete"], restriction, PARTIES)


def test_a_party_a_grant_becomes_exclusive_to_is_not_read_as_restricted(items):
    clause = ("3.03 If the Option is exercised, the license grants set forth in Article 3 will become exclusive to "
              "Distributor for a perpetual term, shall not be subject to a licensing fee and shall be fully paid-up.")
    assert "may not deal" not in write_summary(items["exclusivity"], clause, PARTIES)


def test_a_non_solicit_read_as_a_non_compete_is_written_and_graded_as_one(items):
    from agents.offline.clauses.conditions import severity_for

    clause = ("5.2 Non-Solicitation. Each of Cisco and Distributor agrees not to solicit or hire any employee of the other "
              "party during the term of this Agreement and for a period of 12 months thereafter.")
    assert severity_for(items["non_compete"], clause)[0].value == "low"
    assert write_summary(items["non_compete"], clause, PARTIES) == write_summary(items["non_solicit"], clause, PARTIES)
    customers = ("4. Non-solicitation of Clients. Distributor shall not directly or indirectly solicit an existing business "
                 "customer of Cisco during the term of this Agreement.")
    # the clause bars soliciting, not hiring: the sentence uses the clause's verb
    assert write_summary(items["non_solicit"], customers, PARTIES) == (
        "Distributor (XYZ Corp.) may not solicit Cisco's customers (§ 4).")
    competes = "Distributor shall not solicit orders for any product that competes with the Products."
    assert severity_for(items["non_compete"], competes)[0].value == "high"


def test_what_is_non_exclusive_or_needs_a_cause_or_restrains_no_one_is_no_key_issue(items):
    from agents.offline.clauses.conditions import severity_for

    appointed = ("Cisco hereby appoints Distributor, and Distributor accepts the appointment, as a non\u2010 exclusive "
                 "reseller of the Products in the Territory.")
    disclaimed = "14. Exclusivity. No marketing exclusivity in any category is conferred or implied by this Agreement."
    for clause in (appointed, disclaimed):
        assert severity_for(items["exclusivity"], clause)[0].value == "low"
    # the clause's own sentence, its acceptance an aside; or, where there is none, that nothing is exclusive
    assert write_summary(items["exclusivity"], appointed, PARTIES) == (
        "Cisco appoints Distributor (XYZ Corp.) as a non-exclusive reseller of the products in the territory.")
    assert write_summary(items["exclusivity"], disclaimed, PARTIES) == (
        "The clause makes no exclusivity commitment: what it grants is non-exclusive (§ 14).")
    cause = ("7.4 Cisco reserves the right to terminate this Agreement immediately for cause if the credit bureaus decline "
             "to render services to Distributor.")
    assert severity_for(items["termination_for_convenience"], cause)[0].value == "low"
    duty = "Distributor shall be solely responsible, at its own cost, for all activities related to the sale of the Products."
    assert severity_for(items["non_compete"], duty)[0].value == "low"


def test_exclusive_words_of_an_assignment_a_forum_or_a_fee_waived_are_not_what_they_look_like(items):
    assign = ("(b) To the extent Distributor is deemed the owner of any improvement to the Products, Distributor hereby "
              "assigns exclusively to Cisco all rights of Distributor in such improvement, royalty-free and exclusively.")
    assert severity_for(items["exclusivity"], assign)[0] == Severity.low
    # the clause's own sentence where it reads plainly, never "Cisco has exclusive rights"
    assert write_summary(items["exclusivity"], assign, PARTIES) == (
        "To the extent Distributor is deemed the owner of any improvement to the products, Distributor (XYZ Corp.) "
        "assigns exclusively to Cisco all rights of Distributor in such improvement, royalty-free and exclusively.")
    forum = "Any dispute arising out of this Agreement shall be settled exclusively and finally by binding arbitration."
    assert severity_for(items["exclusivity"], forum)[0] == Severity.low
    assert write_summary(items["exclusivity"], forum, PARTIES) == (
        "The clause makes no exclusive-dealing commitment: \u201cexclusive\u201d there describes a forum for disputes.")
    # an exclusive dealing beside the assignment is still one
    both = assign + " Distributor shall purchase the Products exclusively from Cisco."
    assert severity_for(items["exclusivity"], both)[0] == Severity.high
    waived = ("If Distributor disagrees with any such changes, Distributor may terminate this Agreement without the payment "
              "of termination charges upon thirty (30) days' notice to Cisco.")
    assert severity_for(items["liquidated_damages"], waived)[0] == Severity.low
    assert write_summary(items["liquidated_damages"], waived, PARTIES) == (
        "Distributor (XYZ Corp.) may terminate without paying a termination fee.")
    cancelled = ("In the event Cisco cancels a Purchase Order as the result of Distributor's default, no cancellation charge "
                 "shall be applicable.")
    assert severity_for(items["liquidated_damages"], cancelled)[0] == Severity.low
    # a step of the dispute machinery is no live dispute
    step = ("Failing settlement of the dispute within 60 days of notice, either party may initiate binding arbitration.")
    assert severity_for(items["litigation"], step)[0] == Severity.low


def test_a_passage_about_termination_that_lets_no_one_terminate_is_no_walk_away_right(items):
    after = ("(a) Within thirty (30) days after termination or expiration of this Agreement for any reason, Distributor "
             "shall return to Cisco all copies of the Software, and Distributor's authority to install the Software shall "
             "immediately cease.")
    assert severity_for(items["termination_for_convenience"], after)[0] == Severity.low
    assert write_summary(items["termination_for_convenience"], after, PARTIES) == (
        "The clause gives no right to terminate for convenience.")
    # an ending on a party's notice, a right said through its exercise, an entitlement: rights all
    for right in ("This Supplement will terminate upon ninety (90) days notice by Cisco to Distributor.",
                  "If Distributor elects to terminate this Agreement for any reason, Distributor shall pay the fee.",
                  "Any failure to pay shall entitle Cisco, in its sole discretion, to terminate this Agreement.",
                  "Cisco may, at any time, withdraw any of the Services upon ninety (90) days' prior written notice."):
        assert severity_for(items["termination_for_convenience"], right)[1] != "no_termination_right", right


def test_at_any_time_on_notice_is_for_convenience_and_a_filled_in_blank_is_read(items):
    form = ("(a) So long as no default exists and is continuing hereunder, either party may terminate this Agreement at any "
            "time upon  ____________ (______30________) days written notice to the other party.")
    assert write_summary(items["termination_for_convenience"], form, PARTIES) == (
        "Either party may terminate for convenience, on 30 days' written notice.")
    # a condition after "at any time" makes it a right for cause, not a walk-away right
    breach = "Cisco may terminate this Agreement at any time upon written notice if Distributor breaches Section 4."
    assert "for convenience" not in write_summary(items["termination_for_convenience"], breach, PARTIES)


def test_a_termination_right_a_proviso_takes_back_but_for_listed_cases(items):
    clause = ("Cisco shall have the absolute right to terminate this Agreement upon thirty (30) days' prior written notice "
              "to Distributor; provided, however, that Cisco agrees not to terminate this Agreement unless (a) Cisco sells "
              "Distributor to a third party or (b) Distributor's rating falls below A.")
    assert write_summary(items["termination_for_convenience"], clause, PARTIES) == (
        "Cisco may terminate the agreement on 30 days' written notice, but only in the cases the clause lists.")


def test_a_bar_on_assignment_said_in_the_passive_binds_both_parties(items):
    clause = ("The rights and obligations of the parties under this Agreement shall not be assignable unless consent to "
              "the assignment is in writing and signed by the parties.")
    assert write_summary(items["anti_assignment"], clause, PARTIES) == "Neither party may assign the agreement without consent."
    # a party named in it is read as the clause names it, not as both
    assert "Neither party" not in write_summary(
        items["anti_assignment"], "This Agreement shall not be assigned by Distributor without the consent of Cisco.", PARTIES)


def test_a_successors_and_assigns_clause_is_no_bar_on_assignment(items):
    clause = ("This Agreement shall be binding upon, and inure to the benefit of, Cisco and Distributor and their "
              "respective heirs, successors and assigns, and no other person shall have any right under this Agreement.")
    assert severity_for(items["anti_assignment"], clause)[0] == Severity.low
    assert write_summary(items["anti_assignment"], clause, PARTIES) == (
        "The agreement binds and benefits the parties' successors and assigns; the clause does not restrict assignment.")
    # with a bar beside it, the bar is what the passage is
    barred = clause + " Neither party may assign this Agreement without the prior written consent of the other party."
    assert severity_for(items["anti_assignment"], barred)[0] == Severity.medium


def test_requirements_widened_by_an_aside_and_exclusively_meaning_only(items):
    clause = ("Distributor agrees that it shall purchase all its requirements of the Products (including materials with "
              "properties substantially the same as the Products) exclusively from Cisco during the term of this Agreement.")
    assert write_summary(items["exclusivity"], clause, PARTIES) == (
        "Distributor (XYZ Corp.) must buy all its requirements of the products from Cisco.")
    scope = "Buyer's acceptance is limited exclusively to the acceptance of Seller's terms and conditions set forth herein."
    assert severity_for(items["exclusivity"], scope)[0] == Severity.low


def test_an_ip_assignment_to_come_a_present_one_and_a_permission_to_assign_the_agreement(items):
    later = ("(i) Distributor will promptly assign to Cisco all right, title and interest in and to any patents owned by "
             "Distributor that claim such Product; and (ii) this Agreement will otherwise remain in force.")
    assert write_summary(items["ip_ownership"], later, PARTIES) == (
        "Distributor (XYZ Corp.) must assign to Cisco all right, title and interest in any patents owned by Distributor.")
    now = "Distributor shall, and hereby does, assign all of its right, title and interest in the Inventions to Cisco."
    assert write_summary(items["ip_ownership"], now, PARTIES).startswith("Distributor (XYZ Corp.) assigns")
    permission = "Cisco may assign its rights hereunder, but shall furnish written notice of such assignment to Distributor."
    assert "assigns" not in write_summary(items["ip_ownership"], permission, PARTIES)


def test_a_non_solicit_bars_only_the_verbs_before_its_carve_out(items):
    clause = ("Cisco agrees that it will not solicit for employment any employee of Distributor; provided, however, that "
              "the foregoing will not restrict Cisco from employing any such person who responds to general advertising.")
    assert write_summary(items["non_solicit"], clause, PARTIES) == "Cisco may not solicit Distributor's employees."


def test_a_term_defined_with_inc_a_consent_aside_before_a_passive_and_a_right_a_breach_opens(items):
    from types import SimpleNamespace
    parties = (SimpleNamespace(name="Kathy Ireland, Inc.", role="KI Inc", aliases=()),
               SimpleNamespace(name="Kathy Ireland", role="KI", aliases=()),
               SimpleNamespace(name="Diplomat Ambassador Eyewear Group", role="Diplomat", aliases=()))
    personal = ("This Agreement and all rights and duties hereunder are personal to Diplomat and shall not, without the "
                "written consent of KI, Inc., be assigned, mortgaged, sublicensed or otherwise encumbered by Diplomat.")
    # "KI, Inc." is the company the agreement defines as "KI Inc.", not "KI" the person
    assert write_summary(items["anti_assignment"], personal, parties) == (
        "Diplomat may not assign the agreement without KI Inc's written consent.")
    breach = ("(c) If Diplomat shall violate any of its other material obligations under this Agreement, KI, Inc. shall "
              "have the right to terminate the license hereby granted upon twenty (20) days' notice in writing.")
    assert severity_for(items["termination_for_convenience"], breach)[0] == Severity.low
    assert write_summary(items["termination_for_convenience"], breach, parties) == (
        "KI Inc may terminate the license for cause, on 20 days' notice.")


def test_of_several_other_parties_the_indemnitys_object_is_the_one_indemnified(items):
    from types import SimpleNamespace
    parties = (SimpleNamespace(name="Kathy Ireland, Inc.", role="KI Inc", aliases=()),
               SimpleNamespace(name="Kathy Ireland", role="KI", aliases=()),
               SimpleNamespace(name="Diplomat Ambassador Eyewear Group", role="Diplomat", aliases=()))
    clause = ("KI, Inc. hereby indemnifies Diplomat and undertakes to hold it harmless against only those claims arising "
              "solely out of the authorized use of KI's name by Diplomat.")
    assert write_summary(items["indemnification"], clause, parties) == "KI Inc must indemnify Diplomat against claims and losses."
    # a disclosure "to Nikko" names the recipient, not whose information it is: no guess among several parties
    conf = "KI, Inc. will not disclose Confidential Information relating to its clients to Diplomat or to KI."
    assert "Diplomat's" not in write_summary(items["confidentiality"], conf, parties)


def test_what_a_clause_reaches_is_said_when_it_is_less_or_other_than_the_agreement(items):
    # a carve-out that waives the consent on a merger: the deal needs no consent under it
    merger = ("Neither party may assign this Agreement without the other party's written consent, except that no such consent "
              "will be required in connection with a merger or sale of substantially all of such party's assets or an "
              "assignment to a wholly-owned subsidiary.")
    assert write_summary(items["change_of_control"], merger, PARTIES) == (
        "Either party may assign the agreement without consent on a sale of its business (including by merger).")
    assert write_summary(items["anti_assignment"], merger, PARTIES).endswith(
        "except to an affiliate or a successor to its business (including by merger).")
    # what ends on the change of control is a sublicence to an affiliate, not the agreement
    sublicence = ("Cisco may sublicense its rights to one or more of its Affiliates, provided that the rights sublicensed to "
                  "such Affiliate shall automatically terminate upon a change of control of such Affiliate.")
    assert write_summary(items["change_of_control"], sublicence, PARTIES) == (
        "The rights sublicensed to the affiliate terminate automatically on a change of control of the affiliate; the "
        "agreement itself goes on.")
    assert severity_for(items["change_of_control"], sublicence)[0] == Severity.medium
    # a right over part of the deal, and over obligations, named as such
    part = ("At any time after launch, Cisco shall have the right to terminate Commercialization of such Product upon ninety "
            "(90) days written notice.")
    assert write_summary(items["termination_for_convenience"], part, PARTIES) == (
        "Cisco may terminate commercialization of the product on 90 days' written notice.")
    obligations = ("In the event of a Change in Control of Distributor, Cisco shall have the right, not to be unreasonably "
                   "exercised, to terminate its obligations under Sections 7.1 and 7.2.")
    assert write_summary(items["change_of_control"], obligations, PARTIES) == (
        "Cisco may terminate its obligations under § 7.1 and 7.2 on a change of control of Distributor (XYZ Corp.).")
    # the agreement by its own acronym is the whole agreement
    assert write_summary(items["change_of_control"], "A Party may terminate the JSMA immediately upon written notice if "
                         "there has been a Change in Control.", PARTIES).startswith("Either party may terminate on a change")
    revoke = "The powers herein granted may be revoked or terminated by Cisco at any time."
    assert write_summary(items["termination_for_convenience"], revoke, PARTIES).startswith("Cisco may terminate")
    # "with or without notice" needs no notice
    assert "notice" not in write_summary(items["termination_for_convenience"],
                                         "Cisco reserves the right to terminate at any time with or without notice and "
                                         "for any reason.", PARTIES)


def test_a_clause_that_only_looks_like_its_item_says_what_it_is(items):
    proceeds = ("Following payment of the Purchase Price, all proceeds of any of the Assets shall be the sole property of "
                "Distributor, and Distributor shall be entitled to retain all Proceeds for its own account.")
    assert write_summary(items["ip_ownership"], proceeds, PARTIES) == (
        "Distributor (XYZ Corp.) owns the proceeds the clause covers; the clause allocates no intellectual property.")
    assert severity_for(items["ip_ownership"], proceeds)[0] == Severity.low
    standstill = ("(a) acquire, or agree to acquire, directly or indirectly, any beneficial ownership in any securities or "
                  "rights to acquire any securities of Distributor;")
    assert write_summary(items["non_compete"], standstill, PARTIES) == (
        "The clause is a standstill, not a non-compete: a party may not acquire securities of Distributor.")
    assert severity_for(items["non_compete"], standstill)[0] == Severity.medium
    # the exclusion's carve-out, behind a heading with no stop, and an exculpation's own carve-out
    headed = ("PRICING. 14. LIMITATION OF LIABILITY EXCEPT UNDER SECTION 13(c), IN NO EVENT WILL EITHER PARTY BE LIABLE FOR "
              "ANY INCIDENTAL OR CONSEQUENTIAL DAMAGES.")
    assert write_summary(items["uncapped_liability"], headed, PARTIES) == (
        "The exclusion of indirect and consequential damages does not apply to claims under § 13(c).")
    exculpation = ("(a) Except as provided in Section 13(b), Distributor shall not be under any liability for any action taken "
                   "in good faith; provided, however, that this provision shall not protect Distributor against any liability "
                   "by reason of willful misfeasance, bad faith or negligence.")
    assert write_summary(items["uncapped_liability"], exculpation, PARTIES) == (
        "The limits on liability do not apply to wilful misconduct, bad faith or negligence.")


def test_a_ceiling_and_a_use_on_someones_behalf_are_not_what_their_items_name(items):
    ceiling = "Orders placed by Distributor in any month shall not exceed 120% of the average monthly volume forecast."
    assert write_summary(items["minimum_commitment"], ceiling, PARTIES) == (
        "The clause sets a ceiling on a volume or amount, not a minimum commitment.")
    behalf = "2.1 Distributor may use the Material only to maintain the Software exclusively on behalf of Cisco;"
    # the clause's own sentence, which no longer reads as an exclusive-dealing commitment
    assert write_summary(items["exclusivity"], behalf, PARTIES) == (
        "Distributor (XYZ Corp.) may use the material only to maintain the software exclusively on behalf of Cisco (§ 2.1).")
    assert severity_for(items["exclusivity"], behalf)[0] == Severity.low


def test_a_partys_own_agreement_frames_its_sentence_and_a_return_duty_is_not_anothers_delivery(items):
    frame = ("In consideration of the fees paid by Cisco as set out herein, Distributor agrees that during the period "
             "beginning October 1, 2009 and ending March 31, 2010, Distributor shall not enable another program sponsorship "
             "for competitive products sold within the Canadian market place, inclusive of:")
    assert write_summary(items["non_compete"], frame, PARTIES) == (
        "During the period beginning October 1, 2009 and ending March 31, 2010, Distributor (XYZ Corp.) may not enable "
        "another program sponsorship for competitive products sold within the Canadian market place.")
    ends = ("10.3 Upon termination of this Agreement: (a) Distributor shall immediately: stop selling the Products; and "
            "return to Cisco all Cisco sales materials; Cisco shall deliver pending Orders per their terms.")
    assert not write_summary(items["post_termination_services"], ends, PARTIES).startswith("Cisco must return")


def test_a_party_with_no_defined_term_is_found_by_the_acronym_its_name_opens_with(items):
    escrow = (SimpleNamespace(name="NCC Escrow International Limited", role="", aliases=()),)
    assert write_summary(items["termination_for_convenience"], "11.2 NCC may terminate this Agreement by giving 60 days "
                         "written notice to the Owner and the Licensee.", escrow) == (
        "NCC Escrow International Limited may terminate the agreement on 60 days' written notice (§ 11.2).")


@pytest.mark.parametrize("item_id,clause,sentence", [
    # what the end of the agreement brings, in drafting forms other than "survive" and "return"
    ("post_termination_services",
     "10.5 Upon termination for any reason, all fees to be paid by Distributor to Cisco shall become due and payable "
     "immediately.",
     "Distributor (XYZ Corp.) must pay at once, when the agreement ends, all amounts payable to Cisco (§ 10.5)."),
    ("post_termination_services",
     "Following expiration or termination of this Agreement, the terms of Section 6 shall continue to govern "
     "Distributor's payment obligations.",
     "§ 6 survives the end of the agreement."),
    ("post_termination_services",
     "Cisco hereby grants to Distributor, during the Term and after expiration or termination of this Agreement, a "
     "non-exclusive, royalty-free licence under Cisco's patents to sell the Products.",
     "Cisco grants Distributor a licence that continues after the agreement ends."),
    # a requirements contract whose "exclusively" comes before the requirements, after the other side's own promise
    ("exclusivity",
     "Cisco agrees that it will, on a non-exclusive basis (but exclusive for supply in Canada), supply to Distributor, "
     "and Distributor agrees that it will purchase exclusively from Cisco, all of its requirements of the Products as "
     "follows:",
     "Distributor (XYZ Corp.) must buy all its requirements of the products from Cisco."),
    # a walk-away right named as a noun, with a proviso that takes it from a party in default
    ("termination_for_convenience",
     "This Agreement shall continue in effect until the earlier of (a) the fifth anniversary of the Effective Date and "
     "(b) termination by either Party for any reason upon thirty (30) days' written notice; provided, however, that no "
     "Party shall be able to terminate this Agreement while it is in default.",
     "Either party may terminate for convenience, on 30 days' written notice."),
    # the auditor is the one who appoints it, not the one who makes the records available
    ("audit_rights",
     "6.2 Distributor must make all such records available for inspection and audit by an independent auditor "
     "appointed by Cisco during ordinary business hours.",
     "Cisco may audit Distributor's books and records (§ 6.2)."),
    # a minimum shelf life is no commitment to buy, and its supplier is the one the goods come from
    ("minimum_commitment",
     "All Products supplied by Cisco to Distributor shall have on the date of shipment a minimum remaining shelf life "
     "of six (6) months.",
     "Cisco must deliver goods with a minimum remaining shelf life; the clause sets no purchase commitment."),
    # a figure written out in words before it is given in digits
    ("minimum_commitment",
     "1.3 Distributor agrees to commit funding in an amount of at least two million five hundred thousand Dollars US "
     "($2,500,000) for the programme.",
     "Distributor (XYZ Corp.) must commit funding in an amount of at least two million five hundred thousand dollars US "
     "for the programme (§ 1.3)."),
    # an appointment whose acceptance stands between the appointee and the role
    ("exclusivity",
     "2.1 Cisco hereby appoints Distributor, and Distributor accepts the appointment, as the exclusive distributor "
     "(even as to Cisco) of the Products in the Territory during the Term.",
     "Distributor (XYZ Corp.) is Cisco's exclusive distributor of the products in the territory (§ 2.1)."),
    ("exclusivity",
     "Cisco grants to Distributor, and Distributor accepts, an exclusive licence under the Cisco Patents to sell the "
     "Products.",
     "Distributor (XYZ Corp.) has exclusive rights granted by Cisco."),
    # a licence the clause makes exclusive: the licensee holds the exclusivity
    ("exclusivity",
     "3.4 For so long as Distributor continues to make such payments, the licence granted to Distributor under this "
     "Agreement will, subject to its terms, be exclusive for Hearing Aids.",
     "Distributor's licence is exclusive for hearing aids (§ 3.4)."),
    # a price with a floor is no minimum commitment
    ("minimum_commitment",
     "The charge for furnishing personnel shall be $20.00 per person per hour, subject to a minimum charge of $80.00 per "
     "person.",
     "The clause sets a minimum charge for a service (a term of the price), not a minimum commitment."),
    # a provision whose words the filing withheld, and a definition under its own heading
    ("change_of_control",
     "25.6 Termination for Change of Control. [***].  25.7 Effect of Expiration or Termination.",
     "The provision \u201cTermination for Change of Control\u201d (§ 25.6) is redacted in this copy; its terms need "
     "the unredacted agreement."),
    ("change_of_control",
     '16.01.2 Change of Control. A "Change of Control" means:',
     "The agreement defines \u201cChange of Control\u201d (§ 16.01.2)."),
    # ownership that follows who made the invention
    ("ip_ownership",
     "(b) Inventions made solely by Cisco or its employees will be solely owned by Cisco; where made jointly by Cisco and "
     "Distributor they will be jointly owned.",
     "Ownership follows inventorship: what Cisco makes alone it owns; what the parties make together they own jointly."),
    # "exclusive use" of an asset is no exclusive dealing
    ("exclusivity",
     "1. When, at the request of Distributor, a trailer is assigned to its exclusive use for at least 90 days, the "
     "daily charges below apply.",
     "The clause makes no exclusive-dealing commitment: \u201cexclusive\u201d there describes the use of an asset (§ 1)."),
])
def test_ends_requirements_nominal_rights_and_look_alike_minimums_are_read(items, item_id, clause, sentence):
    assert write_summary(items[item_id], clause, PARTIES) == sentence


def test_a_duty_of_someone_named_in_a_condition_is_not_the_partys(items):
    # "if the claimant agrees to indemnify": the claimant's promise, which the party before it does not make
    clause = ("(d) Cisco may accept photocopies of documents instead of originals if the claimant agrees to indemnify "
              "and hold Cisco harmless for duplicate claims.")
    assert "must indemnify" not in write_summary(items["indemnification"], clause, PARTIES)


def test_a_filing_redaction_note_is_neither_a_clause_nor_part_of_a_sentence(items):
    from agents.offline.units import legend_only, reading_text

    assert legend_only("[***] = CERTAIN CONFIDENTIAL INFORMATION CONTAINED IN THIS DOCUMENT, MARKED BY BRACKETS, HAS "
                       "BEEN OMITTED")
    assert legend_only("BECAUSE THE INFORMATION (I) IS NOT MATERIAL AND (II) WOULD BE COMPETITIVELY HARMFUL IF PUBLICLY "
                       "DISCLOSED.")
    assert not legend_only("Distributor shall not disclose any Confidential Information that has been omitted.")
    noted = ("Cisco also hereby grants to Distributor an exclusive option to negotiate an *** Portions of this page have "
             "been omitted pursuant to a request for Confidential Treatment and filed separately with the Commission.")
    assert "Portions" not in reading_text(noted)
    assert "omitted" not in write_summary(items["rofr_rofo"], noted, PARTIES)


def test_a_minimum_written_out_in_words_is_read_by_its_figure():
    clause = ("1.3 Distributor agrees to commit funding in an amount of at least two million five hundred thousand Dollars "
              "US ($2,500,000) for the programme.")
    assert read_clause("minimum_commitment", clause, PARTIES).amount == "$2,500,000"


def test_a_cap_in_short_scale_and_a_partys_own_audit_are_read_as_written(items):
    cap = ("(d) Distributor's aggregate liability to Cisco for direct loss is limited to payment of damages up to a maximum "
           "of $5m.")
    assert write_summary(items["cap_on_liability"], cap, PARTIES).endswith("capped at $5m.")
    own = ("All information of each party is confidential and shall not be disclosed without consent; provided, however, "
           "either party may disclose information concerning this contract to any independent public accounting firm "
           "retained to perform an annual financial audit of that party.")
    assert write_summary(items["audit_rights"], own, PARTIES) == (
        "The clause gives no right to audit the other party: the audit it mentions is a party's own.")


def test_revenue_left_to_negotiation_and_a_royalty_table_say_what_they_are(items):
    agree = ("The terms of each such use (including pricing and revenue sharing) shall be covered by a separate written "
             "agreement which the parties agree to negotiate in good faith.")
    assert write_summary(items["revenue_sharing"], agree, PARTIES) == (
        "The clause leaves the revenue share to be negotiated; it fixes no share or rate.")
    table = "Annual Net Sales Royalty Rate  $0 - $10,000,000 2%  $10,000,001 - $50,000,000 3%"
    assert write_summary(items["revenue_sharing"], table, PARTIES) == (
        "The clause sets the royalties in tiers by net sales (a table of bands and rates).")


@pytest.mark.parametrize("item_id,clause,sentence", [
    ("indemnification",
     "12.3 Procedure. In case any action is brought against an indemnified party, it shall promptly notify the "
     "indemnifying party, and the indemnifying party shall be entitled to participate in and to assume the defence.",
     "The clause sets the procedure for indemnity claims: the party claiming must notify the indemnifying party, which "
     "may take part in or take over the defence (§ 12.3)."),
    ("confidentiality",
     "Distributor shall restrict access to the Confidential Information to its employees who have a need to know.",
     "Distributor (XYZ Corp.) must limit access to confidential information to those who need it."),
    ("confidentiality",
     "Distributor undertakes to procure that its subcontractors sign a non-disclosure agreement before any access.",
     "Distributor (XYZ Corp.) must bind those it shares confidential information with by a non-disclosure agreement."),
    ("confidentiality",
     "Each party shall take appropriate technical and organisational measures against unauthorised processing of the "
     "other party's personal data.",
     "Each party must protect personal data with technical and organisational measures."),
])
def test_indemnity_procedure_and_confidentiality_duties_other_than_secrecy(items, item_id, clause, sentence):
    assert write_summary(items[item_id], clause, PARTIES) == sentence


def test_a_grant_after_a_negative_aside_a_right_a_breach_entitles_and_no_at_will_inside_that_will(items):
    grant = ("For programs which are not subject to a publisher's license agreement, Cisco grants Distributor a license to "
             "use and copy them.")
    assert write_summary(items["license_grant"], grant, PARTIES) == "Cisco grants Distributor (XYZ Corp.) a licence."
    breach = ("Any failure of Distributor to adhere to these restrictions will constitute a material breach of this Agreement "
              "that will entitle Cisco, in its discretion, to terminate this Agreement upon written notice to Distributor.")
    said = write_summary(items["termination_for_convenience"], breach, PARTIES)
    assert said.startswith("Cisco may terminate for cause") and "convenience" not in said
    assert severity_for(items["termination_for_convenience"], breach)[0] == Severity.low


def test_an_assignment_effective_against_a_party_only_on_notice(items):
    clause = ("(b) No assignment or transfer of this Agreement shall be effective as to Cisco unless and until Cisco has been "
              "provided written notice thereof.")
    assert write_summary(items["anti_assignment"], clause, PARTIES) == (
        "An assignment binds Cisco only once it has written notice of it.")


@pytest.mark.parametrize("clause,sentence", [
    ("All Joint Inventions shall be owned jointly by Cisco and Distributor.", "The parties jointly own all joint inventions."),
    ('Inventions conceived jointly by employees of both Parties ("Joint Inventions") shall be jointly owned.',
     "The parties jointly own joint inventions."),
    ("Each Party shall own an undivided equal interest in and to all Joint Patents.",
     "The parties jointly own all joint patents."),
    # an object cut at a comma would say less than the clause: the honest placeholder instead
    ("Cisco and Distributor shall each own an undivided interest in and to any and all Inventions discovered, developed "
     "or made jointly by them.", "The parties jointly own the intellectual property the clause covers."),
])
def test_joint_ownership_in_its_other_word_orders(items, clause, sentence):
    assert write_summary(items["ip_ownership"], clause, PARTIES) == sentence


def test_a_consent_not_to_be_unreasonably_withheld_and_a_carve_out_for_payment_rights_only(items):
    clause = ("(a) Distributor shall not, without the prior written consent of Cisco, which consent will not be unreasonably "
              "withheld or delayed, assign or transfer this Agreement, and any such assignment without such consent will be "
              "null and void; provided, however, that Distributor may, without the consent of Cisco, assign all or any "
              "part of Distributor's payment rights under this Agreement to any party that acquires Distributor or all or "
              "substantially all of Distributor's assets.")
    assert write_summary(items["anti_assignment"], clause, PARTIES) == (
        "Distributor (XYZ Corp.) may not assign the agreement without Cisco's prior written consent, and an assignment "
        "without it is void.")


def test_a_definition_is_never_more_than_low(items):
    decree = ('"Decree" means any claim, consent decree, settlement agreement, outstanding judgment, order, writ or '
              'injunction of a Governmental Authority.')
    assert severity_for(items["litigation"], decree) == (Severity.low, "definition")


def test_an_ending_all_must_agree_to_and_a_headings_right_over_something_else_are_no_walk_away_right(items):
    mutual = "18.2 This Agreement may be terminated at any time during the Initial Period by agreement in writing of all the Parties."
    assert write_summary(items["termination_for_convenience"], mutual, PARTIES) == (
        "The agreement may be ended only by the parties' written agreement; no party may terminate it alone (§ 18.2).")
    assert severity_for(items["termination_for_convenience"], mutual)[0] == Severity.low
    heading = ("(a) Right to Terminate Registration. If Distributor determines for any reason not to proceed with any "
               "proposed registration, Distributor shall promptly notify Cisco in writing.")
    assert severity_for(items["termination_for_convenience"], heading)[0] == Severity.low
    part = ("At any time after the first commercial sale, Cisco shall have the right to terminate Commercialization of such "
            "Product upon ninety (90) days written notice.")
    assert severity_for(items["termination_for_convenience"], part)[0] == Severity.high


def test_a_disclaimer_of_any_obligation_to_use_the_other_is_an_exception(items):
    clause = ("However, nothing contained herein shall be construed to impose upon Cisco an obligation to use Distributor "
              "where: (1) the customer is not in agreement, or (2) Distributor's pricing is not competitive.")
    assert severity_for(items["non_compete"], clause)[0] == Severity.low
    assert write_summary(items["non_compete"], clause, PARTIES).startswith("The clause is an exception")
