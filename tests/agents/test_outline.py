"""Citations by section: the numbered section a quote sits in, read from the agreement's own headings."""

from __future__ import annotations

from agents import memo as m
from agents.facts.outline import outline, section_label
from agents.memo import deal
from agents.verify import verify_finding
from core.types import Chunk, Citation, Finding, Severity

# Hand-written, laid out as PDF text comes out of the parser: one line per printed line.
AGREEMENT = """EXHIBIT 10.1

SUPPLY AGREEMENT

This Supply Agreement is made by and between Acme Corp. ("Supplier") and Target Inc. ("Customer").

1. DEFINITIONS

1.1 "Products" means the goods listed in Schedule A.

1.2 "Territory" means the 48 contiguous United States and any other
60 days written notice of expansion given under Section 9.5.

9. ASSIGNMENT

9.4 Notices. All notices shall be in writing.

9.5 Assignment. Neither party may assign this Agreement without the prior written consent of the other
party, and any change of control of Customer shall be deemed an assignment for the purposes of this
Section 9.5. Consent shall not be unreasonably withheld.

ARTICLE X

TERM AND TERMINATION

10.1 Term. This Agreement shall continue for three (3) years. The obligations of confidentiality in
Section 9.4 survive. Supplier may terminate on ninety (90) days notice. The parties intend that this
Agreement be performed in good faith and that each party shall cooperate with the other in all
respects under this Agreement, including the delivery of forecasts, the acceptance of orders and the
resolution of disputes in the ordinary course.

IN WITNESS WHEREOF the parties have signed this Agreement.

EXHIBIT B - SERVICE LEVELS

1. Availability. Supplier shall deliver 99% of orders on time.

2. Credits. A missed level earns the Customer a credit of 5% of the monthly fee.
"""


def _at(phrase: str) -> tuple[int, int]:
    i = AGREEMENT.index(phrase)
    return i, i + len(phrase)


def test_a_quote_is_cited_by_the_section_whose_heading_precedes_it():
    assert section_label(AGREEMENT, *_at("any change of control of Customer")) == "§ 9.5"
    assert section_label(AGREEMENT, *_at("Supplier may terminate on ninety")) == "§ 10.1"
    # a quote that opens with its heading, even after the parent's: the most specific one
    assert section_label(AGREEMENT, *_at("9. ASSIGNMENT\n\n9.4 Notices. All notices")) == "§ 9.4"
    # the preamble comes before any heading: no section rather than a guessed one
    assert section_label(AGREEMENT, *_at("made by and between Acme Corp.")) == ""


def test_lines_that_only_start_with_a_number_are_not_headings():
    keys = [h.key for h in outline(AGREEMENT)]
    # "60 days written notice" (a wrapped line) and "Section 9.4 survive." (a wrapped cross-reference) are text
    assert (60,) not in keys
    assert keys.count((9, 4)) == 1
    assert section_label(AGREEMENT, *_at("expansion given under")) == "§ 1.2"
    assert section_label(AGREEMENT, *_at("survive. Supplier may")) == "§ 10.1"


def test_an_exhibits_numbering_starts_again_and_names_the_exhibit():
    assert section_label(AGREEMENT, *_at("credit of 5% of the monthly fee")) == "Exhibit B § 2"
    assert section_label(AGREEMENT, *_at("99% of orders")) == "Exhibit B § 1"
    # the filing label at the top ("EXHIBIT 10.1") is not an exhibit of the agreement
    assert not any(h.label.startswith("Exhibit 10") for h in outline(AGREEMENT))


def test_a_column_of_bare_numbers_from_a_pdf_layout_gives_no_section():
    text = ("1. Definitions. Terms have the meanings below.\n\n2.2.\n\n2.3.\n\n3.\n\n3.1.\n\nSource: FILING, 8-K\n\n"
            + "Fiscal Year forecasts and budgets of the Parties are agreed each year by the Committee. " * 90
            + "\n\nVertex may audit the records of Bunker One once a year.")
    assert [h.label for h in outline(text)] == ["§ 1"]
    # the one heading left is far above: the text lost its numbering, so no section is claimed
    assert section_label(text, *(lambda i: (i, i + 20))(text.index("Vertex may audit"))) == ""


def _finding(quote: str, summary: str = "Consent is required for an assignment.") -> Finding:
    return Finding(category="anti_assignment", severity=Severity.medium, summary=summary, quote=quote,
                   citation=Citation(document_id="d", document_path="Commercial/supply.pdf", chunk_id="d:0"))


def test_verification_records_the_section_and_the_memo_cites_it():
    chunk = Chunk(id="d:0", document_id="d", index=0, text=AGREEMENT, char_start=0, char_end=len(AGREEMENT), page=3, page_end=3)
    f = verify_finding(_finding("Neither party may assign this Agreement without the prior written consent"),
                       AGREEMENT, [chunk])
    assert f.verified and f.citation.section == "§ 9.5"
    assert deal.section_of(f) == "§ 9.5"
    consents = m.consents_section([f]).text
    assert "| § 9.5 |" in consents and "[§ 9.5, p. 3]" in consents
    # a sentence that already names the section is not followed by the same number again
    named = f.model_copy(update={"summary": "Neither party may assign without consent (§ 9.5)."})
    assert m.markup.short_cite(named) == "[p. 3]"
    # an unlocated quote has no section: nothing is read from a guess
    assert verify_finding(_finding("a sentence that is not in the agreement at all"), AGREEMENT, [chunk]).citation.section == ""
