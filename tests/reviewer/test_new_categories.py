"""The CUAD categories the reviewer did not read before: the agreement's own facts as findings, and the
clause vocabularies (gates) of liquidated damages, revenue sharing, warranty periods and the rest.

Clauses are written for these tests from the CUAD category definitions, none copied from CUAD.
"""

from __future__ import annotations

import pytest

from agents.evaluation.sources import chunk_text
from agents.offline import OfflineReviewer
from agents.offline.fact_findings import document_text, fact_passages
from agents.offline.patterns import CATEGORY_GATES, gate
from agents.offline.reviewer import restate
from agents.offline.training import cuad_item_map
from core.checklist import load_checklist
from core.settings import get_settings
from core.types import Document, Severity

AGREEMENT = ("DISTRIBUTION AGREEMENT\n\nThis Distribution Agreement is made as of March 3, 2016 by and between Acme "
             "Widgets, Inc., a Delaware corporation (\"Acme\"), and Bolt Supply LLC (\"Distributor\").\n\n"
             "WHEREAS, Acme makes widgets.\n\n1. Appointment. Acme appoints Distributor as a distributor of the "
             "Products.\n\n2. Payment. Distributor shall pay each invoice within thirty (30) days.\n\n"
             "IN WITNESS WHEREOF, the parties have executed this Agreement.\n")


@pytest.fixture(scope="module")
def items():
    return load_checklist(get_settings().checklist_path)


def _doc_chunks(text: str, target: int = 200):
    doc = Document(room="t", path="agreement.txt", doc_type="txt", sha256="x")
    return doc, chunk_text(doc.id, text, target=target)


def test_every_cuad_category_has_a_home(items):
    """All 41 CUAD categories are read: 37 by the classifier (gated), 4 from the agreement's facts."""
    listed = {c for i in items for c in i.cuad_categories}
    assert len(listed) == 41
    gated = cuad_item_map(items)
    assert len(gated) == 37 and not {"Parties", "Document Name", "Agreement Date", "Effective Date"} & set(gated)
    assert gated["Volume Restriction"] == CATEGORY_GATES["Volume Restriction"]


def test_facts_are_findings_quoting_the_preamble(items):
    doc, chunks = _doc_chunks(AGREEMENT)
    facts_item = next(i for i in items if i.id == "agreement_facts")
    findings = OfflineReviewer().review(doc, chunks, [facts_item])
    tags = {c.strip() for f in findings for c in f.extra["cuad"].split(";")}
    assert tags == {"Document Name", "Parties", "Agreement Date"}  # no effective date is stated
    for f in findings:
        assert AGREEMENT[f.citation.char_start:f.citation.char_end] == f.quote and f.verified
        assert f.severity == Severity.info
    preamble = next(f for f in findings if "Parties" in f.extra["cuad"])
    # the title heads the preamble, which states the parties and the date: one passage, one finding carrying all
    assert "Agreement Date" in preamble.extra["cuad"] and "Document Name" in preamble.extra["cuad"]
    assert preamble.summary == ("The document is titled “DISTRIBUTION AGREEMENT”; the parties are Acme Widgets, Inc. (“Acme”) and Bolt Supply LLC (“Distributor”); "
                                "the agreement is dated 3 March 2016.")
    # restating with the parties leaves a fact's summary as read
    assert restate(findings, [facts_item], []) == findings
    assert [f.summary for f in restate(findings, [facts_item], [object()])] == [f.summary for f in findings]


def test_facts_need_the_opening_chunk():
    _, chunks = _doc_chunks(AGREEMENT)
    assert document_text(chunks) == AGREEMENT.rstrip("\n") or document_text(chunks).startswith("DISTRIBUTION")
    assert fact_passages(chunks[1:], ["Parties", "Agreement Date"]) == []  # a slice without the preamble


@pytest.mark.parametrize("gate_id, clause", [
    ("liquidated_damages", "If Customer terminates this Agreement before the end of the Initial Term, Customer shall "
                           "pay an early termination fee equal to the fees for the remaining months."),
    ("revenue_sharing", "Licensee shall pay Licensor a royalty of five percent (5%) of Net Sales of each Product."),
    ("warranty", "Supplier warrants that the Products will be free from defects in materials and workmanship for a "
                 "period of twelve (12) months from the date of delivery."),
    ("third_party_beneficiary", "Each Indemnified Person is an intended third-party beneficiary of Section 9."),
    ("non_disparagement", "Neither party shall make any statement that disparages the other party or its products."),
    ("covenant_not_to_sue", "Licensee shall not contest the validity of the Licensed Patents or Licensor's ownership of "
                            "the Marks."),
    ("price_restrictions", "The prices in Exhibit B are fixed for the Initial Term and Supplier shall not increase them."),
    ("post_termination_services", "Upon expiration or termination, Supplier shall provide transition services for up "
                                  "to ninety (90) days."),
    ("competitive_restriction_exception", "Nothing in this Section shall prevent Consultant from owning less than two "
                                          "percent of the stock of a publicly traded company that competes with Acme."),
    ("volume_restriction", "If Customer's usage exceeds 10,000 transactions in a month, additional fees apply at the "
                           "rates in Schedule 2."),
])
def test_gate_admits_the_clause(gate_id, clause):
    assert gate(gate_id, clause)


@pytest.mark.parametrize("gate_id, clause", [
    # a plain statement that nobody outside the agreement benefits is not a third-party beneficiary
    ("third_party_beneficiary", "There are no third party beneficiaries of this Agreement."),
    # a representation without a period is not a warranty duration
    ("warranty", "Each party represents and warrants that it has full power to enter into this Agreement."),
    # a price stated once restricts nothing
    ("price_restrictions", "The price of each Product is set out in Exhibit B."),
])
def test_gate_refuses_the_look_alike(gate_id, clause):
    assert not gate(gate_id, clause)
