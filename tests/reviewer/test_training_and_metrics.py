"""Labels parsing, metric arithmetic, model persistence and deterministic training on a tiny labelled set."""

from __future__ import annotations

import csv

import numpy as np
import pytest

from agents.evaluation.labels import load_labels
from agents.evaluation.metrics import best_jaccard, macro, score
from agents.offline.model import ReviewerModel, document_scores
from agents.offline.training import build_doc, choose_threshold, fit, train_model
from agents.offline.units import headings_only, unit_spans
from core.types import Citation, Finding

ASSIGN = "Neither party may assign this Agreement without the prior written consent of the other party."
LAW = "This Agreement shall be governed by the laws of the State of New York."
OTHER = [
    "The Supplier shall deliver the Products to the Customer's warehouse.",
    "Invoices are payable within thirty days of receipt.",
    "The Customer shall provide forecasts each quarter.",
    "Each party shall perform its obligations in a workmanlike manner.",
    "The Customer will assign a project manager to each purchase order.",  # assignment words, not a clause
]


def _write_room(tmp_path, n=12):
    """n contracts: even ones carry an assignment clause, every third a governing-law clause."""
    (tmp_path / "txt").mkdir()
    rows = []
    for i in range(n):
        sents = list(OTHER)
        assign = i % 2 == 0
        law = i % 3 == 0
        if assign:
            sents.insert(1, f"{i + 1}.1 Assignment. " + ASSIGN)
        if law:
            sents.append(LAW)
        (tmp_path / "txt" / f"c{i}.txt").write_text("\n\n".join(sents), encoding="utf-8")
        rows.append({
            "Filename": f"c{i}.pdf",
            "Anti-Assignment": repr([ASSIGN] if assign else []), "Anti-Assignment-Answer": "Yes" if assign else "No",
            "Governing Law": repr([LAW] if law else []), "Governing Law-Answer": "New York" if law else "",
            "txt_path": f"txt/c{i}.txt", "pdf_path": f"contracts/c{i}.pdf",
        })
    with (tmp_path / "labels.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return tmp_path / "labels.csv"


def test_load_labels_yes_no_and_value_answers(tmp_path):
    cats, contracts = load_labels(_write_room(tmp_path))
    assert cats == ["Anti-Assignment", "Governing Law"]
    assert contracts[0].present == {"Anti-Assignment": True, "Governing Law": True}
    assert contracts[1].present == {"Anti-Assignment": False, "Governing Law": False}
    assert contracts[0].passages["Anti-Assignment"] == [ASSIGN]
    assert contracts[0].txt_path.exists()


def test_units_are_verbatim_and_keep_headings():
    text = "12. Assignment.\n\n" + ASSIGN + " Second sentence here. " + LAW
    spans = unit_spans(text)
    assert all(text[s:e].strip() == text[s:e] for s, e in spans)
    assert text[spans[0][0]:spans[0][1]].startswith("12. Assignment.")
    assert text[spans[0][0]:spans[0][1]].endswith("other party.")


def test_the_last_line_of_a_wrapped_sentence_is_no_heading():
    # PDF text breaks a sentence at its printed lines; "Territory." ends the sentence above, and joined as a heading
    # to the clause below it the quote for a liability cap began with the sentence about informing Cisco of laws
    text = ("21.4 Distributor shall inform Cisco of any requirements under any Applicable Laws, including\n\n"
            "certification of the Products from the proper authorities in the\n\nTerritory.\n\n"
            "22.0 LIMITATION OF LIABILITY.\n\nALL LIABILITY OF EACH PARTY SHALL BE LIMITED TO THE MONEY PAID.")
    units = [text[a:b] for a, b in unit_spans(text)]
    assert units[-1] == "22.0 LIMITATION OF LIABILITY.\n\nALL LIABILITY OF EACH PARTY SHALL BE LIMITED TO THE MONEY PAID."
    # a heading after a finished sentence is still joined to its clause
    assert unit_spans("Term.\n\nThe term is one year.") == [(0, len("Term.\n\nThe term is one year."))]


def test_a_unit_of_headings_only_is_never_quoted(tmp_path):
    from agents.evaluation.sources import chunk_text
    from agents.offline import OfflineReviewer
    from core.checklist import load_checklist
    from core.settings import get_settings
    from core.types import Document

    heads = "5. TERMINATION OF EMPLOYMENT\n\n5.1 Change in Control Payment."
    assert headings_only(heads) and headings_only("Assignment.") and not headings_only("12. Assignment. " + ASSIGN)
    # a table of contents that the PDF text ran into one line
    assert headings_only("4.4 Background Checks 4.5 Clean Up 4.6 Vendor’s Audited Financial Statements")
    assert not headings_only("4.4 Background Checks. Vendor shall check all personnel 4.5 times a year.")
    cats, contracts = load_labels(_write_room(tmp_path))
    item_of = {"Anti-Assignment": "anti_assignment", "Governing Law": "governing_law"}
    model, _ = train_model([build_doc(c, cats, item_of) for c in contracts], cats, item_of, k=3)
    title = "12. ASSIGNMENT AND TRANSFER OF THIS AGREEMENT\n\n12.1 Assignment by Either Party."  # too long to lead the clause
    p_title, p_clause = model.gated_probs([title, ASSIGN])[:, 0]
    model.thresholds["Anti-Assignment"] = min(p_title, p_clause) / 2  # both clear it alone
    items = [i for i in load_checklist(get_settings().checklist_path) if i.id == "anti_assignment"]
    text = " ".join(OTHER) + "\n\n" + title + "\n\n" + ASSIGN
    doc = Document(room="t", path="c.txt", doc_type="txt", sha256=str(hash(text)))
    found = OfflineReviewer(model=model).review(doc, chunk_text(doc.id, text, target=400), items)
    assert found and not any(headings_only(f.quote) for f in found)


def test_training_learns_and_is_deterministic(tmp_path):
    cats, contracts = load_labels(_write_room(tmp_path))
    item_of = {"Anti-Assignment": "anti_assignment", "Governing Law": "governing_law"}
    docs = [build_doc(c, cats, item_of) for c in contracts]
    assert docs[0].labels[:, 0].sum() == 1 and docs[1].labels.sum() == 0
    model, oof = train_model(docs, cats, item_of, k=3)
    assert oof.shape == (12, 2)
    probs = model.gated_probs(["Neither party may assign this Agreement without the other party's consent.",
                               "Invoices are payable within thirty days of receipt."])
    assert probs[0, 0] > 0.5 > probs[1, 0]
    a, b = tmp_path / "a.zip", tmp_path / "b.zip"
    model.save(a)
    again, _ = train_model(docs, cats, item_of, k=3)
    again.save(b)
    assert a.read_bytes() == b.read_bytes()
    loaded = ReviewerModel.load(a)
    assert loaded.thresholds == model.thresholds and loaded.categories == cats
    np.testing.assert_allclose(loaded.unit_probs([ASSIGN]), model.unit_probs([ASSIGN]), rtol=1e-6)
    fit(docs[:2], cats, item_of)  # too few positives: the category stays silent instead of failing


def test_choose_threshold_separates_scores():
    scores = np.array([0.9, 0.8, 0.7, 0.2, 0.1, 0.0])
    present = np.array([True, True, True, False, False, False])
    t = choose_threshold(scores, present)
    assert 0.2 < t < 0.7
    assert choose_threshold(np.zeros(3), np.array([False, True, False])) > 1.0  # never predicts


def test_choose_threshold_keeps_precision_floor():
    # F2 would take every document (recall 1, precision 5/8); the floor stops where precision is still 4/5.
    scores = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2])
    present = np.array([True, True, True, False, True, False, False, True])
    assert choose_threshold(scores, present) < 0.2
    assert 0.4 < choose_threshold(scores, present, floor=0.8) < 0.5
    # No threshold reaches the floor: F-beta decides, and the category still reports.
    assert choose_threshold(np.array([0.9, 0.8, 0.7]), np.array([False, True, False]), floor=0.8) < 0.8
    # The floor holds only for the top document (1 of 4 positives): recall-weighted F2 takes over.
    scores = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.4])
    assert choose_threshold(scores, np.array([True, False, True, False, True, True]), floor=0.8) < 0.4


def _finding(item: str, quote: str, cuad: str = "") -> Finding:
    return Finding(category=item, summary="s", quote=quote, citation=Citation(document_id="d", chunk_id="c"),
                   extra={"cuad": cuad} if cuad else {})


def test_score_uses_finer_cuad_tag(tmp_path):
    cats, contracts = load_labels(_write_room(tmp_path, n=4))
    item_cats = {"anti_assignment": ["Anti-Assignment"], "governing_law": ["Governing Law"]}
    findings = {
        "c0.pdf": [_finding("anti_assignment", ASSIGN), _finding("governing_law", LAW)],
        "c1.pdf": [_finding("anti_assignment", "Neither party may assign it.")],  # false positive
        "c2.pdf": [],  # missed the assignment clause
        "c3.pdf": [_finding("governing_law", "some other words entirely", cuad="Governing Law")],
    }
    by = {s.category: s for s in score(cats, contracts, findings, item_cats)}
    a = by["Anti-Assignment"]
    assert (a.positives, a.predicted, a.tp, a.quote_hits) == (2, 2, 1, 1)
    assert a.precision == 0.5 and a.recall == 0.5
    assert a.false_positives == [{"contract": "c1.pdf", "quotes": ["Neither party may assign it."]}]
    assert a.false_negatives == ["c2.pdf"]
    g = by["Governing Law"]
    assert (g.positives, g.tp, g.quote_hits) == (2, 2, 1) and g.quote_rate == 0.5
    m = macro(list(by.values()))
    assert m["categories"] == 2 and m["recall"] == pytest.approx(0.75)
    # A finding tagged with a different CUAD category does not count for its item's other categories.
    tagged = {"c0.pdf": [_finding("governing_law", LAW, cuad="Other")]}
    assert score(["Governing Law"], contracts[:1], tagged, item_cats)[0].predicted == 0


def test_best_jaccard_handles_omitted_gaps():
    assert best_jaccard(["alpha beta gamma"], ["alpha beta<omitted>gamma"]) == 1.0
    assert best_jaccard([], ["x"]) == 0.0


def test_document_score_is_the_noisy_or_of_the_best_three_units():
    p = np.array([[0.5, 0.0], [0.4, 0.9], [0.2, 0.0], [0.1, 0.0]])
    np.testing.assert_allclose(document_scores(p), [1 - 0.5 * 0.6 * 0.8, 0.9])  # the fourth unit does not count
    assert document_scores(np.zeros((0, 2))).shape == (2,)


def test_two_middling_clauses_clear_a_threshold_neither_clears_alone(tmp_path):
    from agents.evaluation.sources import chunk_text
    from agents.offline import OfflineReviewer
    from core.checklist import load_checklist
    from core.settings import get_settings
    from core.types import Document

    cats, contracts = load_labels(_write_room(tmp_path))
    item_of = {"Anti-Assignment": "anti_assignment", "Governing Law": "governing_law"}
    model, _ = train_model([build_doc(c, cats, item_of) for c in contracts], cats, item_of, k=3)
    one = "Licensee shall not assign its rights under this Agreement to any person."
    two = "No transfer of this Agreement or of any obligations hereunder is permitted without approval."
    p1, p2 = model.gated_probs([one, two])[:, 0]
    assert 0 < p1 < 1 and 0 < p2 < 1
    model.thresholds["Anti-Assignment"] = (max(p1, p2) + 1 - (1 - p1) * (1 - p2)) / 2
    reviewer = OfflineReviewer(model=model)
    items = [i for i in load_checklist(get_settings().checklist_path) if i.id == "anti_assignment"]

    def quotes(text: str) -> set[str]:
        doc = Document(room="t", path="c.txt", doc_type="txt", sha256=str(hash(text)))
        return {f.quote for f in reviewer.review(doc, chunk_text(doc.id, text, target=400), items)}

    filler = " ".join(OTHER) + " "
    assert quotes(filler + one) == set() and quotes(filler + two) == set()
    assert quotes(filler + one + " " + two) == {one, two}  # both quoted: together they are the evidence


def test_a_clause_that_clears_the_threshold_alone_is_quoted_without_its_weak_neighbours(tmp_path):
    from agents.evaluation.sources import chunk_text
    from agents.offline import OfflineReviewer
    from core.checklist import load_checklist
    from core.settings import get_settings
    from core.types import Document

    cats, contracts = load_labels(_write_room(tmp_path))
    item_of = {"Anti-Assignment": "anti_assignment", "Governing Law": "governing_law"}
    model, _ = train_model([build_doc(c, cats, item_of) for c in contracts], cats, item_of, k=3)
    weak = "No transfer of this Agreement or of any obligations hereunder is permitted without approval."
    p_clear, p_weak = model.gated_probs([ASSIGN, weak])[:, 0]
    assert 0 < p_weak < p_clear
    model.thresholds["Anti-Assignment"] = (p_weak + p_clear) / 2
    items = [i for i in load_checklist(get_settings().checklist_path) if i.id == "anti_assignment"]
    text = " ".join(OTHER) + " " + ASSIGN + " " + weak
    doc = Document(room="t", path="c.txt", doc_type="txt", sha256=str(hash(text)))
    found = OfflineReviewer(model=model).review(doc, chunk_text(doc.id, text, target=400), items)
    # the weak unit is among the three best, but the decision does not need it
    assert [f.quote for f in found] == [ASSIGN]
