"""A quote that stops at a colon is grown over the list it introduces, when that list ends in sight."""

from __future__ import annotations

from agents.offline.lead_in import LIST_MAX_CHARS, grow_lead_in
from agents.offline.reviewer import complete_sentences
from core.checklist import load_checklist
from core.types import Chunk, Citation, Finding, Severity


def _grown(text: str) -> str:
    return text[:grow_lead_in(text, 0, text.index(":") + 1)]


def test_an_inline_list_is_taken_to_its_full_stop():
    text = ("Neither party may assign this Agreement without consent, except: (a) to an affiliate of such party; or (b) "
            "to a purchaser of all or substantially all of its assets (i.e. a sale of the business). Subject to the "
            "foregoing, it binds successors.")
    assert _grown(text).endswith("(i.e. a sale of the business).")


def test_items_on_their_own_lines_are_taken_to_the_item_that_ends_the_list():
    text = ("IBM is liable for no more than:\n\na.    payments under Section 8.1;\n\nb.    damages for bodily\n\n"
            "injury; and\n\nc.    other direct damages, up to $100,000. The limit is cumulative.\n\n8.4 CHOICE OF LAW. New York.")
    assert _grown(text).endswith("up to $100,000. The limit is cumulative.")
    roman = "Customer shall indemnify Excite against:\n\ni) its breach; or\n\nii) any claim of infringement.\n\n14. NOTICES"
    assert _grown(roman).endswith("ii) any claim of infringement.")


def test_a_list_too_long_is_cut_after_its_last_whole_item():
    items = "".join(f"\n\n({chr(97 + i)}) an obligation that the clause lists at some length, item {i};" for i in range(20))
    text = "Vendor shall:" + items + "\n\n(u) the last one."
    grown = _grown(text)
    assert grown.endswith(";") and len(grown) <= len("Vendor shall:") + LIST_MAX_CHARS


def test_what_is_not_a_list_leaves_the_quote_as_it_was():
    for text in ("Royalties are as set forth below:\n\nNet Sales Rate\n\n$0 - $25,000,000 1.75%\n\n3.4 Reduction.",
                 "upon termination of this Agreement: 13.1 Distributor Obligations. Distributor shall return stock.",
                 "Vendor shall indemnify AT&T against claims of:\n\n1. infringement, based on:\n\nA. making; and\n\nB. selling.",
                 "Vendor shall:\n\n(a) deliver the goods\n\nSource: ACME CORP, 10-K, 2019\n\nto the site."):
        assert _grown(text) == text[:text.index(":") + 1], text


def test_the_exception_after_a_colon_changes_what_the_finding_says(settings):
    items = {i.id: i for i in load_checklist(settings.checklist_path)}
    text = ("8.3 ASSIGNMENT. Neither party may assign any of its rights or delegate any of its duties under this "
            "Agreement without the prior written consent of the other party, except that either party may assign its "
            "rights or delegate any of its duties under this Agreement: (a) to any corporate affiliate of such party; or "
            "(b) to any purchaser of all or substantially all of such party's assets or to any successor by way of merger. "
            "8.4 CHOICE OF LAW. This Agreement is governed by the laws of New York.")
    end = text.index(": (a)") + 1
    chunk = Chunk(document_id="d1", index=0, text=text, page=1, page_end=1, char_start=0, char_end=len(text))
    lead = Finding(category="anti_assignment", severity=Severity.medium, summary="x", quote=text[:end], verified=True,
                   citation=Citation(document_id="d1", chunk_id=chunk.id, char_start=0, char_end=end))
    [grown] = complete_sentences([lead], text, [chunk], list(items.values()))
    assert grown.quote.endswith("by way of merger.") and text[:grown.citation.char_end] == grown.quote
    assert "except to an affiliate or a successor to its business" in grown.summary, grown.summary


def test_a_sections_own_sub_numbers_are_its_items_and_a_listed_breach_is_a_cause(settings):
    from agents.offline.clauses.clause_summary import write_summary
    from agents.offline.clauses.conditions import severity_for

    text = ("4.2 Termination. This Agreement may be terminated at any time upon the occurrence of any of the following "
            "events: 4.2.1 The failure of either party to comply with its obligations herein, which failure is not remedied "
            "within forty-five (45) days after written notice of such default. 4.2.2 The insolvency of either party.")
    grown = _grown(text)
    assert grown.endswith("written notice of such default.")
    items = {i.id: i for i in load_checklist(settings.checklist_path)}
    assert write_summary(items["termination_for_convenience"], grown).startswith("The agreement allows termination for cause")
    assert severity_for(items["termination_for_convenience"], grown)[0] == Severity.low
    # another section's heading after the colon is still no item
    other = "4.2 Termination. Upon termination: 5.1 Distributor Obligations. Distributor shall return stock."
    assert _grown(other) == other[:other.index(":") + 1]
