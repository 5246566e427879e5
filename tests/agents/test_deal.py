"""What an assignment or change-of-control clause means for closing: consent, a waiver, a new agreement, or none.

Hand-written clauses in the drafting patterns of filed agreements (none copied from CUAD).
"""

from __future__ import annotations

import pytest

from agents import memo as m
from agents.memo import deal
from agents.offline.clauses.clause_summary import write_summary
from agents.offline.clauses.conditions import severity_for
from core.checklist import load_checklist
from core.types import Citation, Finding, Severity

CARVE_OUT = ("12.1 Assignment and Change of Control. Except as otherwise provided herein, a Party shall not assign any of "
             "its rights or obligations under this Agreement (whether through a merger, sale of stock or otherwise) "
             "without the prior written consent of the other Party; except that either Party shall be permitted, "
             "without any need for the other Party's consent, to assign this Agreement (a) to an Affiliate, or (b) to "
             "a Third Party in connection with the sale of all or substantially all of its business, whether by "
             "Change of Control, merger or otherwise, provided that the assignee assumes this Agreement in writing.")
ONE_PARTY = ("This Agreement is not assignable by either Party without the prior written consent of the other Party; "
             "provided, however, that Buyer may assign this Agreement in the event that Buyer is sold, merged into "
             "another entity or undergoes a change in control.")
FUND = "This Agreement will terminate automatically in the event of its assignment (as defined in the 1940 Act)."
PLAIN = "Neither party may assign this Agreement without the prior written consent of the other party."
AFFILIATE_ONLY = ("Neither party may assign this Agreement without the prior written consent of the other party, provided "
                  "that either party may assign it to an Affiliate without consent. A change of control of a party "
                  "shall be deemed an assignment.")


@pytest.fixture(scope="module")
def items():
    from core.settings import Settings

    return {i.id: i for i in load_checklist(Settings().checklist_path)}


class P:
    def __init__(self, name, role):
        self.name, self.role, self.aliases = name, role, ()


PARTIES = [P("Northwind Foods, LLC", "Seller"), P("Halvorsen Nutrition Corporation", "Buyer")]


def _f(category: str, quote: str, items) -> Finding:
    sev, _ = severity_for(items[category], quote)
    return Finding(category=category, severity=sev, summary=write_summary(items[category], quote, PARTIES), quote=quote,
                   citation=Citation(document_id="d", document_path="Commercial/supply.pdf", chunk_id="d:0",
                                     char_start=0, char_end=len(quote), page=4),
                   verified=True)


def test_a_carve_out_for_a_sale_of_the_business_needs_no_consent(items):
    f = _f("change_of_control", CARVE_OUT, items)
    assert f.severity is Severity.low  # was read as "consent required", high, "obtain consent before closing"
    assert f.summary == ("Either party may assign the agreement without consent on a sale of its business (including "
                         "by change of control or merger), if the buyer assumes its obligations in writing (§ 12.1).")
    assert deal.consequence(f) == "no consent needed on a sale of the business"
    assert not deal.needs_consent(f)
    assert deal.recommended_action(f).startswith("Confirm the deal is a permitted sale of the business")
    a = _f("anti_assignment", CARVE_OUT, items)
    assert a.summary.startswith("Neither party may assign the agreement (including by merger) without the other's prior "
                                "written consent, except to an affiliate or a successor to its business")


def test_a_carve_out_for_one_party_names_it(items):
    assert _f("anti_assignment", ONE_PARTY, items).summary == (
        "Neither party may assign the agreement without the other's prior written consent, except that Buyer (Halvorsen "
        "Nutrition Corporation) may assign it on a sale of its business (including by change of control or merger).")
    assert _f("change_of_control", ONE_PARTY, items).summary.startswith("Buyer (Halvorsen Nutrition Corporation) may "
                                                                         "assign the agreement without consent")


def test_a_restriction_without_a_sale_carve_out_still_needs_consent(items):
    for quote in (PLAIN, AFFILIATE_ONLY):
        f = _f("anti_assignment", quote, items)
        assert deal.consequence(f).startswith("prior consent required") and deal.needs_consent(f), quote
        assert "successor" not in f.summary


def test_automatic_termination_on_a_statutory_assignment_is_a_change_of_control_issue(items):
    f = _f("anti_assignment", FUND, items)
    assert f.severity is Severity.high
    assert f.summary == ("The agreement terminates automatically on its assignment as the Investment Company Act of 1940 "
                         "defines it, which includes a transfer of a controlling block of the assignor's voting securities "
                         "(a change of control).")
    assert deal.consequence(f) == "terminates automatically" and deal.needs_consent(f)
    assert deal.trigger(f) == "assignment (1940 Act: incl. change of control)"
    assert deal.recommended_action(f).startswith("Arrange a new agreement to take effect at closing")
    row = next(line for line in m.consents_section([f]).text.splitlines() if "terminates automatically" in line)
    assert "assignment (1940 Act: incl. change of control)" in row
    # the same words read for change of control say the same, not "the agreement may be terminated"
    assert _f("change_of_control", FUND, items).summary == f.summary


def test_automatic_termination_on_a_change_of_control_unless_the_other_consents(items):
    quote = ("(a) Upon the occurrence of any Change of Control this Agreement and all of Seller's rights hereunder shall "
             "automatically terminate unless, prior to such Change of Control, Buyer has consented to it.")
    f = _f("change_of_control", quote, items)
    assert f.severity is Severity.high
    assert f.summary == ("The agreement terminates automatically on a change of control unless Buyer (Halvorsen "
                         "Nutrition Corporation) consents in advance.")
    assert deal.consequence(f) == "terminates automatically" and deal.needs_consent(f)
    assert deal.recommended_action(f) == "Obtain the counterparty's consent before closing; without it the agreement ends"


def test_a_carve_out_for_one_party_says_whose_sale_it_covers(items):
    f = _f("anti_assignment", ONE_PARTY, items)
    assert deal.consequence(f) == "no consent needed on a sale of Buyer's business only"
    assert deal.needs_consent(f)  # counted as a consent: the target may be the other party
    assert deal.recommended_action(f) == ("If the target is Buyer, confirm a permitted sale and meet the clause's "
                                          "conditions; otherwise obtain consent")


def test_a_consents_row_says_what_the_clause_does(items):
    void = _f("anti_assignment", "Any assignment not in accordance with this Section 12 shall be void.", items)
    plain = _f("anti_assignment", PLAIN, items).model_copy(update={"citation": void.citation.model_copy(
        update={"char_start": 500, "char_end": 500 + len(PLAIN)})})
    row = next(line for line in m.consents_section([void, plain]).text.splitlines() if "assignment or transfer" in line)
    assert "| prior consent required |" in row and "Obtain the counterparty's consent before closing" in row


def test_an_unread_tail_joins_its_sections_row_in_the_consents_schedule(items):
    # § 10.2 says who may terminate on a change of control, then that an assignment against it is void: one clause,
    # one row; the tail's own row would list the consent twice, the second time as "read the clause"
    head = ("10.2 Change of Control. If Distributor undergoes a change of control, Cisco may terminate this Agreement on "
            "thirty (30) days' written notice.")
    tail = "Any assignment not in accordance with this Section 10.2 shall be void."
    sec = lambda f, start: f.model_copy(update={"citation": f.citation.model_copy(update={  # noqa: E731
        "section": "§ 10.2", "char_start": start, "char_end": start + len(f.quote)})})
    a, b = sec(_f("change_of_control", head, items), 0), sec(_f("anti_assignment", tail, items), 200)
    b = b.model_copy(update={"citation": b.citation.model_copy(update={"page": 5})})
    assert deal.consequence(b) == deal.UNREAD
    text = m.consents_section([a, b]).text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "§ 10.2" in line]
    assert len(rows) == 1 and deal.UNREAD not in rows[0] and "counterparty may terminate" in rows[0]
    assert rows[0].endswith("| [p. 4] [p. 5] |")  # both passages stay cited
    # a tail with no read row of its own section keeps its row: nothing is hidden
    other = sec(_f("anti_assignment", tail, items), 900).model_copy(update={"citation": b.citation.model_copy(
        update={"section": "§ 14", "char_start": 900, "char_end": 900 + len(tail)})})
    assert deal.UNREAD in m.consents_section([a, other]).text


def test_a_bar_with_no_consent_route_is_a_prohibition_not_an_unread_clause(items):
    # a PDF footer inside the list, as a filing prints it
    barred = ("All rights (under any applicable intellectual property right) granted herein are not sublicenseable, "
              "Source: ACME CORP, 10-12G, 8/26/1999 transferable or assignable.")
    f = _f("anti_assignment", barred, items)
    assert deal.consequence(f) == deal.PROHIBITED and deal.needs_consent(f)
    assert deal.recommended_action(f).startswith("If the deal transfers the agreement")
    row = next(line for line in m.consents_section([f]).text.splitlines() if "assignment or transfer" in line)
    assert f"| {deal.PROHIBITED} |" in row and deal.UNREAD not in row
    # with a consent route it stays a consent
    assert deal.consequence(_f("anti_assignment", "Distributor shall not assign this Agreement without Cisco's consent.",
                               items)).startswith("prior consent required")


def test_licences_that_survive_a_change_of_control_need_no_consent(items):
    f = _f("change_of_control", "Any change of control resulting from any such bankruptcy proceeding shall be subject "
                                "to the rights and licenses granted in this Agreement.", items)
    assert f.summary == "A change of control leaves the rights and licences granted under the agreement in place."
    assert deal.consequence(f) == deal.LICENCES_SURVIVE_CONSEQUENCE and not deal.needs_consent(f)
    assert deal.recommended_action(f) == "Note only"


def test_a_change_of_control_the_clause_says_is_no_assignment_needs_no_consent(items):
    # the opposite of a deemed assignment, in the same words: "nor shall any change in control ... be deemed"
    denial = ("No delegation by either party of any duty hereunder shall be deemed an assignment of this Agreement, nor "
              "shall any change in control or an assignment by operation of law by either party be deemed an assignment "
              "hereunder.")
    for category, severity in (("change_of_control", Severity.low), ("anti_assignment", Severity.medium)):
        f = _f(category, denial, items)
        assert f.summary == "A change of control is not treated as an assignment of the agreement."
        assert f.severity == severity
        assert deal.consequence(f) == deal.NOT_AN_ASSIGNMENT_CONSEQUENCE and not deal.needs_consent(f)
        assert deal.recommended_action(f) == "Note only"
        assert deal.trigger(f) in ("change of control", "assignment or transfer")  # not "deemed", not "incl."
    deemed = _f("anti_assignment", "A change of control of Seller shall be deemed an assignment for purposes of this "
                                   "Section, requiring the prior written consent of Buyer.", items)
    assert deemed.severity == Severity.high and "is treated as an assignment" in deemed.summary
    assert deal.trigger(deemed) == "assignment or transfer (incl. change of control)"


def test_an_ip_assignment_joined_with_an_assignment_restriction_keeps_its_own_action(items):
    # the passage assigns IP and, in passing, restricts assigning the agreement; the consent reading is unsure, so
    # the action is the IP item's, not "confirm whether the deal structure triggers the clause"
    quote = ("Buyer hereby assigns to Seller all right, title and interest in any improvement to the Products, and such "
             "improvements shall be Seller Intellectual Property for the purposes of the assignment provisions of Section 11.")
    f = _f("ip_ownership", quote, items).model_copy(update={"also": ["anti_assignment"]})
    assert deal.recommended_action(f) == "Confirm the target owns or may use the IP; obtain assignments if missing"


def test_a_termination_right_kept_for_a_sale_of_the_company_points_at_the_deal(items):
    quote = ("Buyer shall have the absolute right to terminate this Agreement upon thirty (30) days' prior written notice; "
             "provided, however, that Buyer agrees not to terminate this Agreement unless (a) Buyer significantly "
             "modifies the ownership of Seller or (b) Buyer sells Seller to an acquirer.")
    f = _f("termination_for_convenience", quote, items)
    assert "but only in the cases the clause lists" in f.summary
    assert deal.recommended_action(f).startswith("Check whether the transaction is one of the cases the clause lists")


def test_a_duty_due_on_termination_is_no_right_to_terminate(items):
    # "(e) upon the expiration or termination of this Agreement ... it will destroy or return": when a duty falls due
    quote = ("(c) it will not transfer any such Proprietary Materials to any third party without the prior written consent "
             "of the Transferring Party; and (e) upon the expiration or termination of this Agreement, if requested by the "
             "Transferring Party, it will destroy or return any such Proprietary Materials.")
    assert deal.consequence(_f("anti_assignment", quote, items)) == "prior consent required"
