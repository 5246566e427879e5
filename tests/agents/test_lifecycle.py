"""agents.facts.lifecycle: which provisions are no longer live (expired agreements, sections deleted by amendment)."""

from __future__ import annotations

from datetime import date

from core.types import Citation, Finding

from agents.facts.lifecycle import add_period, not_live_reason, parse_date, read_facts, room_status, section_at

AS_OF = date(2026, 12, 2)

DISTRIBUTION = """DISTRIBUTION AGREEMENT

This Distribution Agreement is made and entered into as of March 15, 2018 by and between Harlow Instruments LLC
("Supplier") and Brightwater Devices, Inc. ("Distributor").

7. Exclusivity

7.1 Exclusive Territory. Supplier appoints Distributor as its exclusive distributor in the Territory.

12. Term

12.1 This Agreement shall continue for a period of five (5) years from the Effective Date and shall then terminate
without further action of either party.

14. Change of Control

14.1 Supplier may terminate this Agreement if Distributor undergoes a change of control.
"""

EVERGREEN = """MASTER SERVICES AGREEMENT

This Master Services Agreement is dated 1 January 2016 between Orrin Analytics Ltd and Brightwater Devices, Inc.

9. Term. This Agreement shall remain in force for a period of two (2) years from the Effective Date and shall expire
at the end of that period, unless renewed; thereafter it shall automatically renew for successive periods of one year.

10. Assignment. Neither party may assign this Agreement without the prior written consent of the other.
"""

AMENDMENT = """FIRST AMENDMENT TO DISTRIBUTION AGREEMENT

This First Amendment is dated 2 May 2022 between Harlow Instruments LLC and Brightwater Devices, Inc.

WHEREAS, the parties are parties to that certain Distribution Agreement dated March 15, 2018 (the "Agreement");

1. Clause 7.1 of the Agreement is hereby deleted.
2. The Term of the Agreement is extended so that it expires on 14 March 2029.
"""

FUTURE_AMENDMENT = """AMENDMENT NO. 2 TO DISTRIBUTION AGREEMENT

This Amendment is dated 1 November 2026 between Harlow Instruments LLC and Brightwater Devices, Inc.

(A) The parties are parties to the Distribution Agreement dated 15 March 2018 (the "Agreement").

1. With effect from 1 January 2027, Section 14.1 (Change of Control) of the Agreement is deleted.
"""

LETTER = """Orrin Analytics Ltd
12 June 2019

Dear Sirs,

We refer to the Master Services Agreement between Orrin Analytics Ltd and Brightwater Devices, Inc. dated 1 January 2016,
which was terminated by mutual agreement on 31 May 2019.
"""


def _finding(text: str, needle: str, doc_id: str) -> Finding:
    start = text.index(needle)
    return Finding(category="exclusivity", severity="high", summary="s", quote=needle,
                   citation=Citation(document_id=doc_id, chunk_id="c0", char_start=start, char_end=start + len(needle)))


def test_dates_and_periods_in_the_forms_contracts_use():
    assert parse_date("1 March 2019") == parse_date("March 1, 2019") == parse_date("1st March 2019") == date(2019, 3, 1)
    assert parse_date("2019-03-01") == date(2019, 3, 1) and parse_date("23rd August 2015") == date(2015, 8, 23)
    assert parse_date("31 February 2019") is None
    assert add_period(date(2019, 3, 1), 3, "years") == date(2022, 2, 28)
    assert add_period(date(2020, 1, 31), 1, "month") == date(2020, 2, 28)


def test_a_fixed_term_that_ended_makes_the_agreement_not_live_unless_an_amendment_extends_it():
    dist = read_facts("d", "Distribution.docx", DISTRIBUTION)
    assert dist.dated == date(2018, 3, 15) and dist.ends == date(2023, 3, 14)
    status = room_status([dist], AS_OF)
    assert "no longer in force" in status["d"][0].reason and "14 March 2023" in status["d"][0].reason

    amend = read_facts("a", "Amendments/First_Amendment.txt", AMENDMENT)
    status = room_status([dist, amend], AS_OF)
    # extended to 2029: live again, but the exclusivity it deleted is not
    assert [s.section for s in status["d"]] == ["7.1"] and "First_Amendment.txt" in status["d"][0].reason
    excl = _finding(DISTRIBUTION, "Supplier appoints Distributor as its exclusive distributor", "d")
    coc = _finding(DISTRIBUTION, "Supplier may terminate this Agreement", "d")
    assert "deleted" in not_live_reason(excl, DISTRIBUTION, status["d"])
    assert not_live_reason(coc, DISTRIBUTION, status["d"]) == ""


def test_a_deletion_not_yet_in_effect_and_an_auto_renewing_term_leave_provisions_live():
    dist = read_facts("d", "Distribution.docx", DISTRIBUTION)
    amend1 = read_facts("a", "First_Amendment.txt", AMENDMENT)
    amend2 = read_facts("b", "Amendment_2.txt", FUTURE_AMENDMENT)
    status = room_status([dist, amend1, amend2], AS_OF)
    assert [s.section for s in status["d"]] == ["7.1"]  # 14.1 is deleted only from 1 January 2027
    assert room_status([dist, amend1, amend2], date(2027, 1, 2))["d"][1].section == "14.1"
    evergreen = read_facts("e", "MSA.pdf", EVERGREEN)
    assert evergreen.ends is None and room_status([evergreen], AS_OF) == {}


def test_a_letter_stating_the_agreement_ended_makes_it_not_live():
    msa = read_facts("e", "MSA.pdf", EVERGREEN)
    letter = read_facts("l", "Correspondence/Orrin_letter.txt", LETTER)
    status = room_status([msa, letter], AS_OF)
    assert set(status) == {"e"} and "Orrin_letter.txt states that it ended on 31 May 2019" in status["e"][0].reason
    # a reference to an agreement of another date or kind names nothing in the room
    other = read_facts("e2", "Lease.pdf", EVERGREEN.replace("MASTER SERVICES AGREEMENT", "LEASE")
                       .replace("Master Services Agreement", "Lease").replace("1 January 2016", "2 January 2016"))
    assert room_status([other, letter], AS_OF) == {}


def test_section_at_reads_the_numbered_heading_above_an_offset():
    i = DISTRIBUTION.index("Supplier appoints")
    assert section_at(DISTRIBUTION, i) == "7.1"
    assert section_at(DISTRIBUTION, DISTRIBUTION.index("12. Term") + 3) == "12"
    assert section_at(DISTRIBUTION, 5) == ""


def _agreement(title: str, dated: str, parties: str, sections: list[tuple[str, str]]) -> list:
    from ingest.parsing.chunking import Element

    els = [Element(text=title.upper(), category="Title"),
           Element(text=f"This {title} is dated {dated} between {parties}.", category="NarrativeText")]
    for n, (heading, body) in enumerate(sections, start=1):
        els.append(Element(text=f"{n}. {heading}", category="Title"))
        els.append(Element(text=f"{n}.1 {body}", category="NarrativeText"))
    return els


def test_a_run_grades_expired_and_deleted_provisions_info_with_the_reason(short_checklist, run_offline_root):
    from tests.agents.doubles import ScriptedReviewer
    from tests.agents.rooms import CLAUSES, write_room

    from core.types import Severity
    from ingest.parsing.chunking import Element

    hsettings = short_checklist
    hsettings.harness.as_of = AS_OF
    term = "This Agreement shall remain in force for a period of three (3) years from the Effective Date and shall then expire."
    write_room(hsettings, "r", {
        "Supply/Old_Supply.txt": _agreement("Supply Agreement", "1 March 2015", "Alder Foods Inc. and Kestrel Ridge Inc.",
                                            [("Term", term), ("Change of Control", CLAUSES["change_of_control"])]),
        "Supply/Live_Supply.txt": _agreement("Supply Agreement", "2 February 2024", "Birch Polymers Ltd and Kestrel Ridge Inc.",
                                             [("Exclusivity", CLAUSES["exclusivity"]),
                                              ("Change of Control", CLAUSES["change_of_control"])]),
        "Supply/Amendment_1_Birch.txt": [
            Element(text="AMENDMENT NO. 1 TO SUPPLY AGREEMENT", category="Title"),
            Element(text="This Amendment is dated 30 June 2025 between Birch Polymers Ltd and Kestrel Ridge Inc.",
                    category="NarrativeText"),
            Element(text='(A) The parties are parties to the Supply Agreement dated 2 February 2024 (the "Agreement").',
                    category="NarrativeText"),
            Element(text="1. Section 1.1 (Exclusivity) of the Agreement is deleted in its entirety.", category="NarrativeText"),
        ],
    })
    stats, store = run_offline_root(hsettings, "r", ScriptedReviewer())
    assert stats["coverage"]["documents_reviewed"] == 3
    by = {(f.citation.document_path, f.category): f for f in store.findings("run-1", verified=True)}
    old_coc = by[("Supply/Old_Supply.txt", "change_of_control")]
    assert old_coc.severity == Severity.info and "no longer in force" in old_coc.summary and "was high" in old_coc.summary
    deleted = by[("Supply/Live_Supply.txt", "exclusivity")]
    assert deleted.severity == Severity.info and "deleted by Supply/Amendment_1_Birch.txt" in deleted.summary
    assert by[("Supply/Live_Supply.txt", "change_of_control")].severity == Severity.high  # still live
    # the change is on record as the harness's, and the memo no longer counts it as a key issue
    assert {a.author for a in store.actions("run-1")} == {"agent:lifecycle"}
    memo = store.memo("run-1")
    summary = memo.section("executive_summary").text
    assert "1 of high severity" in summary and "Old_Supply" not in summary
    coc_section = memo.section("change_of_control").text
    assert "**Info** — Not live (the agreement is no longer in force" in coc_section


def test_a_quote_that_opens_with_its_parent_heading_belongs_to_the_subsection():
    from agents.facts.lifecycle import quote_section

    text = "5. PRICES\n\n5.1 Prices are fixed.\n\n6. COMMERCIAL TERMS\n\n6.1 Exclusive Supply. Buyer buys only from Seller.\n"
    start = text.index("6. COMMERCIAL")
    assert quote_section(text, start, text.index("Buyer buys") + 5) == "6.1"
    assert quote_section(text, text.index("Prices are"), text.index("Prices are") + 6) == "5.1"


def test_a_period_within_the_term_does_not_end_the_agreement():
    # a definition's "the first Calendar Year of the Term shall ... end on December 31, 2019" is no expiry: read as
    # one it filed a ten-year licence signed two weeks earlier as no longer in force
    text = ('LICENSE AGREEMENT\n\nThis License Agreement is dated as of December 17, 2019 between Vyera Pharmaceuticals, '
            'LLC and CytoDyn Inc.\n\n1.18 "Calendar Year" means the twelve-month period ending on December 31; provided '
            'that the first Calendar Year of the Term shall begin on the Effective Date and end on December 31, 2019.\n\n'
            '13.1 This Agreement shall expire on December 31, 2029.')
    f = read_facts("d1", "licence.txt", text)
    assert f.ends == date(2029, 12, 31)

