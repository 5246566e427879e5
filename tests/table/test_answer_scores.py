"""Scoring typed answers against CUAD's -Answer columns (agents.evaluation.answers)."""

from __future__ import annotations

from core.checklist import load_checklist

from agents.evaluation.answers import YES_NO_MEAN, answer_scores, score_answer
from agents.evaluation.labels import LabelledContract
from agents.table.answers import Answer, AnswerStatus
from agents.table.columns import AnswerType
from tests.table.helpers import AGREEMENT, assignment_finding, document


def _a(value: str, status=AnswerStatus.answered) -> Answer:
    return Answer(document_id="d", column_id="c", status=status, value=value)


def test_each_answer_type_is_scored_as_the_issue_states():
    assert score_answer("Agreement Date", AnswerType.date, _a("2019-03-03"), "3/3/2019", True) == 1.0
    assert score_answer("Agreement Date", AnswerType.date, _a("", AnswerStatus.not_found), "", False) == 1.0
    assert score_answer("Agreement Date", AnswerType.date, _a("2019-03-04"), "3/3/2019", True) == 0.0
    assert score_answer("Governing Law", AnswerType.jurisdiction, _a("New York"), "New York", True) == 1.0
    assert score_answer("Governing Law", AnswerType.jurisdiction, _a("Delaware"), "New York", True) == 0.0
    assert score_answer("Parties", AnswerType.parties, _a("Acme Inc. (“Supplier”)"),
                        'ACME INC. ("Supplier")', True) == 1.0
    assert score_answer("Renewal Term", AnswerType.duration, _a("1 year (P1Y)"), "Successive 1 year", True) == 1.0
    assert score_answer("Anti-Assignment", AnswerType.yes_no, _a("yes"), "Yes", True) == 1.0
    assert score_answer("Anti-Assignment", AnswerType.yes_no, _a("no", AnswerStatus.not_found), "Yes", True) == 0.0


def test_answer_scores_over_contracts(settings, tmp_path):
    doc = document()
    con = LabelledContract(name="acme", txt_path=tmp_path / "a.txt", pdf_path=tmp_path / "a.pdf",
                           present={"Anti-Assignment": True, "Non-Compete": False})
    gold = {"acme": {"Parties": 'Acme Widgets, Inc. ("Supplier"); Beta Stores LLC ("Buyer")',
                     "Agreement Date": "3/3/2019", "Governing Law": "New York", "Expiration Date": "3/3/2022"}}
    scores = answer_scores([con], {"acme": AGREEMENT}, gold, {"acme": [assignment_finding(doc)]},
                           load_checklist(settings.checklist_path))
    assert scores["Parties"]["score"] == 1.0 and scores["Parties"]["n"] == 1
    assert {scores["Parties"]["dev"]["n"], scores["Parties"]["held_out"]["n"]} == {0, 1}  # "acme" is in one half
    assert scores["Agreement Date"]["score"] == scores["Governing Law"]["score"] == 1.0
    assert scores["Expiration Date"]["score"] == 1.0
    assert scores["Anti-Assignment"]["score"] == 1.0 and scores["Non-Compete"]["score"] == 1.0
    assert scores[YES_NO_MEAN]["n"] == 33
