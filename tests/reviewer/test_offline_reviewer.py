"""The built-in reviewer on realistic clause text (written for these tests, not taken from CUAD).

Each checklist item must be found in a clause that a reviewer would file under
it, and look-alike clauses must not be filed there.
"""

from __future__ import annotations

import pytest

from agents.evaluation.sources import chunk_text
from agents.offline import OfflineReviewer
from core.checklist import load_checklist
from core.settings import get_settings
from core.text import locate_quote
from core.types import Document, Severity

FILLER = (
    "1. Definitions. Capitalised terms used in this Agreement have the meanings given in this Section 1.\n\n"
    "2. Services. Supplier shall perform the services described in Schedule A in a professional manner.\n\n"
    "3. Payment. Customer shall pay each undisputed invoice within thirty (30) days of receipt.\n\n"
)

POSITIVE = {
    "change_of_control": "12.4 Change of Control. If Supplier undergoes a Change of Control, Customer may terminate this "
    "Agreement upon thirty (30) days written notice to Supplier.",
    "anti_assignment": "14.1 Assignment. Neither party may assign or transfer this Agreement or any of its rights or "
    "obligations hereunder without the prior written consent of the other party.",
    "termination_for_convenience": "9.2 Termination for Convenience. Customer may terminate this Agreement for "
    "convenience at any time upon sixty (60) days prior written notice to Supplier.",
    "exclusivity": "4.1 Exclusivity. During the Term, Distributor shall be the exclusive distributor of the Products in "
    "the Territory, and Company shall not appoint any other distributor or reseller in the Territory.",
    "non_compete": "8.1 Non-Competition. During the Term and for two (2) years thereafter, Consultant shall not, directly "
    "or indirectly, engage in any business that competes with the Company in the Territory.",
    "governing_law": "17.3 Governing Law. This Agreement shall be governed by and construed in accordance with the laws "
    "of the State of Delaware, without regard to its conflict of laws principles.",
    "cap_on_liability": "11.2 Limitation of Liability. In no event shall either party's aggregate liability arising out "
    "of this Agreement exceed the total fees paid by Customer in the twelve (12) months preceding the claim.",
    "uncapped_liability": "11.3 Exclusions. The limitations of liability in Section 11.2 shall not apply to a party's "
    "indemnification obligations, breach of confidentiality or gross negligence or willful misconduct.",
    "ip_ownership": "7.1 Ownership of Work Product. All Deliverables shall be works made for hire, and Contractor hereby "
    "assigns to Company all right, title and interest in and to the Deliverables and all intellectual property "
    "rights therein.",
    "license_grant": "5.1 License. Licensor hereby grants to Licensee a non-exclusive, non-transferable license to use "
    "the Software in the Territory during the Term.",
    "most_favored_nation": "6.4 Most Favored Customer. If Supplier offers any third party prices lower than those set "
    "forth in this Agreement for the same Products, Supplier shall offer such lower prices to Customer.",
    "rofr_rofo": "10.1 Right of First Refusal. If Company proposes to sell the Product line to a third party, Company "
    "shall first offer the Product line to Partner, and Partner shall have a right of first refusal for thirty (30) "
    "days to purchase it on the same terms.",
    "audit_rights": "13.2 Audit. Licensor may, upon reasonable notice, audit and inspect the books and records of "
    "Licensee relating to royalties payable under this Agreement once per calendar year.",
    "insurance": "15.1 Insurance. Supplier shall maintain commercial general liability insurance with limits of not "
    "less than $2,000,000 per occurrence and shall name Customer as an additional insured.",
    "indemnification": "16.1 Indemnification. Supplier shall indemnify, defend and hold harmless Customer from and "
    "against any and all losses, claims and damages arising out of Supplier's breach of this Agreement.",
    "confidentiality": "18.1 Confidentiality. Each party shall hold the other party's Confidential Information in strict "
    "confidence and shall not disclose it to any third party without prior written consent.",
    "lease_assignment": "20.1 Assignment and Subletting. Tenant shall not assign this Lease or sublet the Premises or "
    "any part thereof without the prior written consent of Landlord.",
    "debt_change_of_control": "8.1(k) Change of Control. A Change of Control shall occur, which shall constitute an "
    "Event of Default under this Credit Agreement, and the Lender may declare all Loans immediately due and payable.",
    "key_employee": "6.2 Severance. If the Company terminates the Executive's employment without cause or the Executive "
    "resigns for Good Reason within twelve months after a Change in Control, the Executive shall receive a severance "
    "payment equal to two times the Executive's annual base salary.",
    "litigation": "Schedule 3.9 Litigation. There is pending litigation captioned Smith v. Acme Corp., in which the "
    "plaintiff alleges breach of contract and seeks damages of $4,000,000.",
}

# Second wordings of items whose first wording above is the textbook one.
POSITIVE_ALT = {
    "non_solicit": "9.4 Customers. For one (1) year after the end of the Term, Consultant shall not, directly or "
    "indirectly, solicit or call upon any client of the Company for the purpose of selling competing services.",
    "audit_rights": "13.3 Verification. Once per year, upon ten (10) days notice, Licensor may verify Licensee's "
    "compliance with the usage limits of this Agreement, and Licensee shall pay any shortfall so identified.",
    "litigation": "Dear Sirs, we act for Harbour Mills Ltd. and write to give you formal notice of a claim for "
    "the late delivery of the goods under the purchase order, and our client will commence proceedings if the "
    "amount is not paid within ten days.",
}

NEAR_MISS = {
    # Termination by agreement of both sides is not a unilateral right to walk away.
    "termination_for_convenience": "9.3 This Agreement may be terminated at any time by mutual written agreement of "
    "the parties.",
    # A cap is the opposite of uncapped liability.
    "uncapped_liability": "11.2 In no event shall Supplier's total liability under this Agreement exceed the fees paid "
    "by Customer in the twelve (12) months preceding the event giving rise to the claim.",
    # Governing-law language without a clause about control.
    "change_of_control": "17.3 This Agreement shall be governed by the laws of the State of New York.",
    # A non-exclusive licence is not an exclusive-dealing commitment.
    "exclusivity": "5.1 Licensor grants Licensee a non-exclusive license to use the Software.",
    # Indemnity language in a contract is not a litigation disclosure.
    "litigation": "16.1 Supplier shall indemnify and defend Customer against any claim or action brought by a third "
    "party arising from Supplier's negligence.",
    # Assignment restriction outside a real-estate lease is anti-assignment, not lease assignment.
    "lease_assignment": "14.1 Neither party may assign this Agreement without the prior written consent of the other.",
    # Severability says "minimum" and commits nobody to buy anything.
    "minimum_commitment": "12.4 Severance. If any provision of this Agreement is or becomes invalid, illegal or "
    "unenforceable, it shall be deemed modified to the minimum extent necessary to make it valid.",
}


@pytest.fixture(scope="module")
def reviewer():
    return OfflineReviewer()


@pytest.fixture
def items():
    return load_checklist(get_settings().checklist_path)


def _review(reviewer, items, clause: str, only: str | None = None):
    text = FILLER + clause + "\n\n19. Notices. Notices shall be sent to the addresses on the signature page.\n"
    doc = Document(room="t", path="contract.txt", doc_type="txt", sha256="x")
    chunks = chunk_text(doc.id, text, target=400)
    sel = [i for i in items if only is None or i.id == only]
    return text, chunks, reviewer.review(doc, chunks, sel)


@pytest.mark.parametrize("item_id", sorted(POSITIVE))
def test_item_found_in_realistic_clause(reviewer, items, item_id):
    clause = POSITIVE[item_id]
    text, chunks, findings = _review(reviewer, items, clause)
    mine = [f for f in findings if f.category == item_id]
    assert mine, f"{item_id} not found; got {[f.category for f in findings]}"
    f = mine[0]
    by_id = {c.id: c for c in chunks}
    assert f.verified and f.agent == "offline"
    assert locate_quote(f.quote, by_id[f.citation.chunk_id].text) is not None
    assert text[f.citation.char_start:f.citation.char_end] == f.quote
    assert f.quote in clause  # the quote is the clause (or a sentence of it), not the filler
    assert f.summary and f.summary != f.quote
    assert 0.0 < f.confidence <= 1.0


@pytest.mark.parametrize("item_id", sorted(POSITIVE_ALT))
def test_item_found_in_second_wording(reviewer, items, item_id):
    clause = POSITIVE_ALT[item_id]
    _, _, findings = _review(reviewer, items, clause, only=item_id)
    assert any(f.quote in clause and f.verified for f in findings), [f.quote for f in findings]


@pytest.mark.parametrize("item_id", sorted(NEAR_MISS))
def test_near_miss_not_flagged(reviewer, items, item_id):
    _, _, findings = _review(reviewer, items, NEAR_MISS[item_id], only=item_id)
    assert not findings, [f.quote for f in findings]


def test_severity_from_rules(reviewer, items):
    _, _, f = _review(reviewer, items, POSITIVE["change_of_control"], only="change_of_control")
    assert f[0].severity == Severity.high  # the counterparty may terminate on a change of control
    notice = ("12.4 Supplier shall notify Customer in writing within ten (10) days after any Change of Control of "
              "Supplier.")
    _, _, f = _review(reviewer, items, notice, only="change_of_control")
    assert f and f[0].severity == Severity.low  # notice only
    _, _, f = _review(reviewer, items, POSITIVE["anti_assignment"], only="anti_assignment")
    assert f and f[0].severity == Severity.medium  # mutual consent requirement
    deemed = ("14.2 Neither party may assign this Agreement without the other's consent; a Change of Control of a "
              "party shall be deemed an assignment for the purposes of this Section.")
    _, _, f = _review(reviewer, items, deemed, only="anti_assignment")
    assert f and f[0].severity == Severity.high


@pytest.mark.parametrize("clause", [
    "If any person acquires more than fifty percent (50%) of the voting securities of Supplier, Customer shall have "
    "the right, exercisable within ninety (90) days after becoming aware of such event, to terminate this Agreement "
    "by written notice to Supplier.",
    "Should a Change of Control of Licensee occur, Licensee shall notify Licensor in writing, and Licensor may, in its "
    "sole discretion, terminate this Agreement by giving not less than thirty (30) days written notice to Licensee.",
])
def test_termination_right_with_interposed_phrases_is_high(reviewer, items, clause):
    # Commas and parentheses between "shall have the right" and "terminate" once made
    # these read as notice-only (low), understating the sample room's key red flags.
    _, _, f = _review(reviewer, items, clause, only="change_of_control")
    assert f and f[0].severity == Severity.high


def test_summaries_follow_the_clause(reviewer, items):
    _, _, a = _review(reviewer, items, POSITIVE["termination_for_convenience"], only="termination_for_convenience")
    other = ("9.2 Either party may terminate this Agreement without cause upon ninety (90) days written notice to the "
             "other party.")
    _, _, b = _review(reviewer, items, other, only="termination_for_convenience")
    assert a and b and a[0].summary != b[0].summary
    assert "60" in a[0].summary and "90" in b[0].summary


def test_deterministic_and_stats(reviewer, items):
    _, chunks, a = _review(reviewer, items, POSITIVE["license_grant"])
    _, _, b = _review(reviewer, items, POSITIVE["license_grant"])
    assert [f.model_dump(exclude={"id"}) for f in a] == [f.model_dump(exclude={"id"}) for f in b]
    st = reviewer.last_stats
    assert st.chunks == len(chunks) and st.tokens > 0 and st.units > 0  # its timings are bench/'s to measure
    assert st.findings == len(b)


def test_disabled_items_and_empty_input(reviewer, items):
    for it in items:
        it.enabled = False
    _, _, f = _review(reviewer, items, POSITIVE["governing_law"])
    assert f == []
    doc = Document(room="t", path="empty.txt", doc_type="txt", sha256="y")
    assert OfflineReviewer().review(doc, [], load_checklist(get_settings().checklist_path)) == []


def test_loan_default_defined_by_a_beneficial_ownership_threshold(reviewer, items):
    """Credit documents often define the change of control by the threshold alone, never naming it."""
    clause = ("17.3 Ownership. It shall be an Event of Default if any person or group becomes the beneficial owner, "
              "directly or indirectly, of more than thirty-five percent (35%) of the voting equity of the Borrower.")
    _, _, findings = _review(reviewer, items, clause, only="debt_change_of_control")
    assert any(f.quote in clause and f.verified for f in findings), [f.quote for f in findings]


# PDF text as unstructured gives it: one printed line per paragraph, the sentence running on below.
WRAPPED = (
    "12. Term and Termination\n\n"
    "12.1 This Agreement shall continue for five (5) years from the Effective Date.\n\n"
    "12.2 If a majority of the equity securities of either\n\n"
    "party are acquired by a third party, the other party may\n\n"
    "terminate this Agreement upon thirty (30) days written notice\n\n"
    "to the acquired party. Nothing in this Section limits any other remedy.\n\n"
)


def test_whole_sentence_joins_wrapped_pdf_lines():
    from agents.offline.units import whole_sentence

    mid = WRAPPED.index("party are acquired")
    s, e = whole_sentence(WRAPPED, mid, WRAPPED.index("\n", mid))
    assert WRAPPED[s:e].startswith("12.2 If a majority")
    assert WRAPPED[s:e].endswith("to the acquired party.")
    # a sentence that ends on its own line, and a title above it, are left alone
    t = WRAPPED.index("12.1")
    assert whole_sentence(WRAPPED, t, WRAPPED.index("\n", t)) == (t, WRAPPED.index("\n", t))
    assert whole_sentence(WRAPPED, 0, len("12. Term and Termination")) == (0, len("12. Term and Termination"))
    # the sentence splitter cuts after "Inc."; the quote reaches back over it to the sentence's start
    glued = "8.3 Change. If a majority of the shares of either\n\nAcme or Beta, Inc. (except as stated) are sold,\n\neither party may terminate. Next."
    cut = glued.index("(except")
    s, e = whole_sentence(glued, cut, glued.index("sold,") + 5)
    assert glued[s:e] == ("If a majority of the shares of either\n\nAcme or Beta, Inc. (except as stated) are sold,\n\n"
                          "either party may terminate.")


def test_whole_sentence_reads_on_past_a_page_footer():
    from agents.offline.units import whole_sentence

    paged = ("9.2 Any assignment shall be void unless and until the assignee assumes the\n\n14\n\n"
             "Source: NORTHWIND FOODS INC, 10-K, 3/1/2021\n\nobligations of the assigning party in writing.\n\n"
             "9.3 Notices. All notices are in writing.\n\nPage 15 of 20\n\n9.4 Headings do not affect meaning.")
    s, e = whole_sentence(paged, 0, paged.index("\n\n14"))
    assert paged[s:e].startswith("9.2 Any") and paged[s:e].endswith("obligations of the assigning party in writing.")
    s, e = whole_sentence(paged, paged.index("obligations"), paged.index(" in writing.") + 12)  # and back over it
    assert paged[s:e].startswith("9.2 Any assignment")
    # a footer after a sentence that ended is not part of the next one
    h = paged.index("9.4")
    assert whole_sentence(paged, h, len(paged)) == (h, len(paged))


def test_quote_is_the_whole_sentence_across_wrapped_lines(reviewer, items):
    text = FILLER + WRAPPED
    doc = Document(room="t", path="contract.pdf", doc_type="pdf", sha256="w")
    chunks = chunk_text(doc.id, text)  # one chunk: a quote never reaches across a chunk's edge
    assert len(chunks) == 1
    found = [f for f in reviewer.review(doc, chunks, items) if f.category == "change_of_control"]
    assert found, "the change-of-control sentence was not found"
    f = found[0]
    assert f.verified and locate_quote(f.quote, text) is not None
    assert f.quote.startswith("12.2 If a majority") and f.quote.rstrip().endswith("to the acquired party."), f.quote
    assert "30" in f.summary or "thirty" in f.summary.lower(), f.summary


def test_a_sentence_is_judged_whole_not_by_its_printed_line(reviewer, items):
    # the line "are and remain the exclusive" looks like exclusive dealing; its sentence is about ownership
    text = FILLER + ("9. Trademarks\n\nAll trademarks, service marks and trade names that Cisco uses in connection with\n\n"
                     "the license granted hereunder are and remain the exclusive\n\nproperty of Cisco.\n\n")
    doc = Document(room="t", path="contract.pdf", doc_type="pdf", sha256="t")
    found = reviewer.review(doc, chunk_text(doc.id, text), items)
    assert not [f for f in found if f.category == "exclusivity"], [f.quote for f in found if f.category == "exclusivity"]


def test_a_look_alike_split_by_a_pdf_hyphen_is_still_a_look_alike():
    from agents.offline.patterns import excluded
    from agents.offline.reviewer import flat

    line = "The non-\n\nexclusive rights granted to the Investor under this Article do not include sublicenses."
    assert flat(line).startswith("The non-exclusive rights")
    assert excluded("exclusivity", flat(line))


def test_an_item_after_a_colon_is_quoted_with_the_lead_it_completes():
    from agents.offline.units import whole_sentence

    text = ("Each party agrees to promote the Joint Solution. However, nothing herein shall be construed to impose upon "
            "Cisco an obligation to use Distributor where: (1) the customer is not in agreement, (2) Distributor's pricing "
            "is not competitive, or (3) there have been advances in technology. B. Further terms.")
    s = text.index("(1)")
    e = text.index("technology.") + len("technology.")
    lo, hi = whole_sentence(text, s, e)
    assert text[lo:hi].startswith("However, nothing herein") and text[lo:hi].endswith("advances in technology.")
    # an item that follows a full stop keeps its own start
    plain = "The term is one year. (a) Either party may renew it."
    assert whole_sentence(plain, plain.index("(a)"), len(plain)) == (plain.index("(a)"), len(plain))


def test_a_lead_whose_warranty_is_in_the_list_is_no_sentence_of_its_own(items):
    from agents.offline.clauses.clause_summary import write_summary
    from types import SimpleNamespace

    parties = (SimpleNamespace(name="Cisco Systems, Inc.", role="Cisco", aliases=()),
               SimpleNamespace(name="XYZ Corp.", role="Distributor", aliases=()))
    quote = ("5.1 Cisco represents and warrants to Distributor that during the Term of this Agreement: (a) Cisco is and "
             "shall remain entitled to grant to Distributor the license to use the Content;")
    licence = next(i for i in items if i.id == "license_grant")
    assert "that during the term of this agreement (" not in write_summary(licence, quote, parties)
