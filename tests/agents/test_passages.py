"""One passage is one finding: nested and overlapping quotes joined, sentences completed across chunk edges."""

from __future__ import annotations

from agents.offline.reviewer import complete_sentences
from agents.offline.subagents import OfflineSubReviewer
from agents.passages import join_same_passages
from agents.verify import verify_all
from core.checklist import load_checklist
from core.types import Chunk, Citation, Finding, Severity
from devtools.textroom import load_text_room

TEXT = ("10.2 Assignment. Neither Party may assign this Agreement without the prior written consent of the other "
        "Party, and any assignment in breach of this Section is void. 10.3 Notices. Notices are given in writing.")


def _finding(category: str, start: int, end: int, severity=Severity.medium, summary="", also=(), extra=None) -> Finding:
    return Finding(category=category, severity=severity, summary=summary or f"{category} reading", quote=TEXT[start:end],
                   citation=Citation(document_id="d1", document_path="a.txt", chunk_id="c0", char_start=start,
                                     char_end=end), verified=True, also=list(also), extra=extra or {})


def test_nested_quotes_of_two_items_are_one_finding_under_the_severe_reading():
    whole = TEXT.index(" 10.3")
    inner = TEXT.index("Neither")
    a = _finding("anti_assignment", inner, whole, summary="Neither party may assign the agreement without consent.",
                 extra={"cuad": "Anti-Assignment"})
    b = _finding("change_of_control", 0, whole, severity=Severity.high, summary="A change of control needs consent.",
                 extra={"cuad": "Change Of Control"})
    [one] = join_same_passages([a, b])
    assert (one.citation.char_start, one.citation.char_end) == (0, whole)  # the severe reading's own quote
    assert one.category == "change_of_control" and one.also == ["anti_assignment"]
    assert one.severity is Severity.high and one.summary == "A change of control needs consent."
    assert set(one.extra["cuad"].split("; ")) == {"Anti-Assignment", "Change Of Control"}
    assert one.id == b.id  # the id of its category, document and quote: b's here


def test_the_same_item_twice_keeps_the_sentence_that_says_who_may_do_what():
    whole = TEXT.index(" 10.3")
    a = _finding("anti_assignment", 0, whole, summary="The agreement restricts assignment.")
    b = _finding("anti_assignment", TEXT.index("Neither"), whole, summary="Neither party may assign the agreement.")
    [one] = join_same_passages([a, b])
    assert one.summary == "Neither party may assign the agreement." and one.quote == b.quote  # as written from it
    assert one.also == []


def test_neighbouring_passages_facts_and_unverified_quotes_stay_apart():
    first_end = TEXT.index(" and any")
    a = _finding("anti_assignment", 0, first_end)
    b = _finding("anti_assignment", TEXT.index("any assignment"), len(TEXT))  # shares no text with a
    assert len(join_same_passages([a, b])) == 2
    title = _finding("agreement_facts", 0, first_end, severity=Severity.info)
    parties = _finding("agreement_facts", 5, first_end, severity=Severity.info, summary="The parties are ...")
    assert len(join_same_passages([title, parties], keep_apart={"agreement_facts"})) == 2
    loose = a.model_copy(update={"verified": False})
    assert len(join_same_passages([loose, _finding("anti_assignment", 0, len(TEXT))])) == 2


# A PDF's text: a blank line after every printed line, so a sentence can run over a chunk's edge.
PDF_LIKE = "\n\n".join([
    "MASTER SUPPLY AGREEMENT",
    "10.2 Assignment and Change of Control. Except as otherwise provided herein, a Party shall not have the right to",
    "assign any of its rights or obligations under this Agreement (whether through a merger, sale of stock, or otherwise) without the",
    "prior written consent of the other Party; except that, either Party shall be permitted, without any need for the other Party's",
    "consent, to assign this Agreement to a Third Party in connection with the sale of all or substantially all of its",
    "business, whether by Change of Control, merger, sale of assets or otherwise, provided the assignee assumes this Agreement.",
    "10.3 Notices. All notices shall be in writing and delivered to the addresses set out above.",
])


def _chunks(text: str, cut: int) -> list[Chunk]:
    return [Chunk(document_id="d1", index=i, text=text[s:e], page=1, page_end=1, char_start=s, char_end=e)
            for i, (s, e) in enumerate([(0, cut), (cut + 2, len(text))])]


def test_a_sentence_cut_at_the_chunk_edge_is_completed_from_the_document_text(settings):
    items = {i.id: i for i in load_checklist(settings.checklist_path)}
    cut = PDF_LIKE.index("\n\nconsent, to assign")  # the chunk ends inside the sentence, before its carve-out
    chunks = _chunks(PDF_LIKE, cut)
    start = PDF_LIKE.index("10.2")
    cut_short = Finding(category="change_of_control", summary="x", quote=PDF_LIKE[start:cut], verified=True,
                        citation=Citation(document_id="d1", chunk_id=chunks[0].id, char_start=start, char_end=cut))
    [grown] = complete_sentences([cut_short], PDF_LIKE, chunks, list(items.values()))
    assert grown.quote.endswith("provided the assignee assumes this Agreement.")
    assert PDF_LIKE[grown.citation.char_start:grown.citation.char_end] == grown.quote
    # read again as a whole: the carve-out for a sale of the business is what the deal meets, not a consent
    assert grown.severity is Severity.low
    assert grown.summary.startswith("Either party may assign the agreement without consent on a sale of its business")
    [checked] = verify_all([grown], PDF_LIKE, chunks)
    assert checked.verified and checked.citation.chunk_id == chunks[0].id


def test_a_run_reports_the_clause_once_with_its_whole_sentence(hsettings, run_offline_root):
    load_text_room(hsettings, "pdfish", {"supply.txt": PDF_LIKE}, chunk_chars=400)
    _, store = run_offline_root(hsettings, "pdfish", OfflineSubReviewer())
    fs = [f for f in store.findings("run-1") if f.verified and {"change_of_control", "anti_assignment"} & set(f.items)]
    assert fs, "the assignment clause was not reported"
    spans = [(f.citation.char_start, f.citation.char_end) for f in fs]
    for i, (s, e) in enumerate(spans):  # no two findings quote overlapping text
        assert all(min(e, e2) <= max(s, s2) for s2, e2 in spans[i + 1:]), spans
    [clause] = fs
    assert clause.quote.rstrip().endswith("assumes this Agreement.") and set(clause.items) == {"change_of_control",
                                                                                                 "anti_assignment"}
    assert "except to a successor to its business (including by change of control or merger)" in clause.summary
