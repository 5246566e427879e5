from core.text import count_tokens, jaccard, locate_quote, normalize_ws, sentence_spans
from core.types import Chunk, Citation, Document, Finding


def test_locate_quote_exact_and_whitespace_normalised():
    text = "1. Assignment.\nNeither party may assign\n  this Agreement without consent."
    assert locate_quote("Neither party may assign", text) == (15, 39)
    span = locate_quote("Neither party may assign this Agreement", text)
    assert span is not None
    s, e = span
    assert normalize_ws(text[s:e]) == "Neither party may assign this Agreement"


def test_locate_quote_rejects_paraphrase_and_case():
    text = "The Supplier may terminate this Agreement upon a Change of Control."
    assert locate_quote("the supplier may terminate", text) is None
    assert locate_quote("Supplier can terminate", text) is None
    assert locate_quote("   ", text) is None


def test_sentence_spans_are_offsets():
    text = "First sentence here. Second one follows; and more.\n\nNew paragraph"
    spans = sentence_spans(text)
    assert [text[s:e] for s, e in spans][0] == "First sentence here."
    assert all(text[s:e].strip() == text[s:e] for s, e in spans)


def test_sentence_spans_split_a_section_number_glued_to_the_previous_sentence():
    # pdfminer drops the line break before "18.4"; the section must still start its own sentence
    text = ("an event similar to any of the foregoing occurs under applicable law.18.4 Cisco may terminate this "
            "Agreement if Distributor is to be acquired by a third party.18.5 Upon termination, Section 9.0 and "
            "U.S. law apply; the fee is $1.5 million.")
    parts = [text[s:e] for s, e in sentence_spans(text)]
    assert parts[1].startswith("18.4 Cisco may terminate") and parts[1].endswith("third party.")
    assert parts[2].startswith("18.5 Upon termination, Section 9.0 and U.S. law apply;")
    assert parts[0].endswith("applicable law.")
    glued = "as defined in the Bankruptcy Code.(ii)If a case is commenced, Mr.Smith and the U.S.A. agree.Page 15 of 31"
    assert [glued[s:e] for s, e in sentence_spans(glued)] == [
        "as defined in the Bankruptcy Code.", "(ii)If a case is commenced, Mr.Smith and the U.S.A. agree.", "Page 15 of 31"]


def test_ids_are_stable_and_content_derived():
    d1 = Document(room="r", path="A/b.pdf", doc_type="pdf", sha256="x")
    d2 = Document(room="r", path="A/b.pdf", doc_type="pdf", sha256="x")
    assert d1.id == d2.id and d1.folder == "A"
    c = Chunk(document_id=d1.id, index=0, text="abc", char_start=0, char_end=3)
    cit = Citation(document_id=d1.id, chunk_id=c.id)
    f1 = Finding(category="x", summary="s", quote="Some  Quote", citation=cit)
    f2 = Finding(category="x", summary="other", quote="some quote", citation=cit)
    assert f1.id == f2.id  # same clause found twice merges


def test_count_tokens_and_jaccard():
    assert count_tokens("") == 0
    assert 10 < count_tokens("The quick brown fox jumps over the lazy dog again and again.") < 20
    assert jaccard("a b c", "a b c") == 1.0
    assert jaccard("a b", "c d") == 0.0
