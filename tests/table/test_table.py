"""The review table: typed answers with verbatim passages, reviewer marks that outlive a run, exports."""

from __future__ import annotations

import csv
import io

import pytest

from openpyxl import load_workbook

from core.checklist import load_checklist

from agents.store.table import ROW, parse_action_id
from agents.table import export
from agents.table.answers import PASSAGES_ONLY, AnswerStatus, durations, notice_period, renewal_term
from agents.table.build import build_room_table, build_table
from agents.table.columns import CUAD_CATEGORIES, AnswerType, custom_column
from agents.table.grid import load_grid
from tests.table.helpers import AGREEMENT, CLAUSE, document, store_with_run

from tests.conftest import CUAD_DIR


# the store parts on the default SQLite file and on a PostgreSQL database (tests/conftest.py db_backend)
pytestmark = pytest.mark.usefixtures("db_backend")


def _build(settings, store, run_id="run-1", text=AGREEMENT):
    items = load_checklist(settings.checklist_path)
    return {(a.document_id, a.column_id): a for a in build_table(store, run_id, items, lambda d: text)}


def test_typed_answers_stand_on_verbatim_passages(settings):
    store = store_with_run(settings)
    doc = document()
    got = _build(settings, store)
    cell = lambda col: got[(doc.id, col)]  # noqa: E731
    assert cell("cuad:Parties").value == "Acme Widgets, Inc. (“Supplier”); Beta Stores LLC (“Buyer”)"
    assert cell("cuad:Agreement Date").value == "2019-03-03" and cell("cuad:Effective Date").value == "2019-03-03"
    assert cell("cuad:Expiration Date").value == "2022-03-03"
    assert cell("cuad:Governing Law").value == "New York"
    assert cell("cuad:Renewal Term").value == "1 year (P1Y)"
    assert cell("cuad:Notice Period to Terminate Renewal").value == "90 days (P90D)"
    assert cell("cuad:Anti-Assignment").display() == "Yes" and cell("item:anti_assignment").display() == "Yes"
    assert cell("cuad:Anti-Assignment").quotes[0].text == CLAUSE
    # every quote is the document's text at its span
    for a in got.values():
        for q in a.quotes:
            assert q.verified and AGREEMENT[q.start:q.end] == q.text
    # nothing found is said, not left blank or guessed
    nc = cell("cuad:Non-Compete")
    assert nc.status is AnswerStatus.not_found and nc.display() == "No (not found)" and not nc.quotes
    assert len([k for k in got if k[0] == doc.id]) == 41 + len(load_checklist(settings.checklist_path))


def test_all_41_cuad_categories_are_columns():
    assert len(CUAD_CATEGORIES) == 41
    if (CUAD_DIR / "labels.csv").exists():
        from agents.evaluation.labels import load_labels

        cats, _ = load_labels(CUAD_DIR / "labels.csv")
        assert [c for c, _ in CUAD_CATEGORIES] == cats


def test_durations_and_notice_read_as_a_lawyer_would():
    assert [d for d, _, _ in durations("for thirty (30) days and then two years")] == ["30 days (P30D)", "2 years (P2Y)"]
    assert renewal_term("This Agreement renews for successive twelve (12) month periods.")[0] == "12 months (P12M)"
    assert notice_period("renews unless terminated on sixty (60) days' prior written notice")[0] == "60 days (P60D)"
    assert notice_period("The term is five (5) years.") is None


def test_offline_custom_question_gets_passages_never_an_answer(settings, tmp_path):
    from ingest.pipeline import ingest_room

    src = tmp_path / "src" / "Commercial"
    src.mkdir(parents=True)
    (src / "acme.txt").write_text(AGREEMENT, encoding="utf-8")
    settings.embedding.model = "hash"
    ingest_room(src.parent, "room-a", settings)
    from ingest.index.manifest import Manifest

    manifest = Manifest(settings, "room-a")
    doc = manifest.documents()[0]
    text = manifest.document_text(doc.id)
    store = store_with_run(settings, docs=[(doc, text)])
    question = custom_column("May either party assign the agreement without consent?", AnswerType.yes_no)
    store.add_table_column("room-a", question, "counsel")
    store.add_table_column("room-a", question, "counsel")  # the same words are the same column
    assert [c.id for c in store.table_columns("room-a")] == [question.id]
    answers = {a.column_id: a for a in build_room_table(settings, store, "run-1",
                                                          load_checklist(settings.checklist_path))}
    a = answers[question.id]
    assert a.status is AnswerStatus.passages_only and a.value == "" and a.display() == PASSAGES_ONLY
    assert a.quotes and all(text[q.start:q.end] == q.text for q in a.quotes)
    assert any("assign" in q.text for q in a.quotes)


def test_a_removed_question_leaves_the_table_and_its_marks_come_back_with_it(settings, tmp_path):
    from app.views import table_view as tv

    store = store_with_run(settings)
    doc = document()
    items = load_checklist(settings.checklist_path)
    question = tv.add_question(store, "room-a", "Is there a most-favoured-customer price clause?", "yes/no", "counsel")
    tv.build(settings, store, "run-1", items)
    tv.mark(store, "run-1", items, doc.id, question.id, "counsel", flagged=True, note="ask the seller")
    tv.remove_question(settings, store, "run-1", "room-a", question.id, items)
    assert question.id not in {c.id for c in load_grid(store, "run-1").columns}
    tv.add_question(store, "room-a", "Is there a most-favoured-customer price clause?", "yes/no", "counsel")
    tv.build(settings, store, "run-1", items)
    grid = load_grid(store, "run-1")
    assert question.id in {c.id for c in grid.columns}
    assert store.table_marks("room-a")[(doc.id, question.id)].note == "ask the seller"


def test_marks_are_logged_and_survive_a_new_run_of_the_room(settings):
    store = store_with_run(settings)
    doc = document()
    _build(settings, store)
    store.set_table_mark("run-1", doc.id, "cuad:Governing Law", "counsel", verified=True)
    store.set_table_mark("run-1", doc.id, "cuad:Parties", "counsel", corrected="Acme Widgets, Inc.; Beta Stores LLC")
    store.set_table_mark("run-1", doc.id, "cuad:Expiration Date", "counsel", flagged=True, note="check the renewal")
    store.set_table_mark("run-1", doc.id, ROW, "counsel", assignee="J. Doe")
    log = [(parse_action_id(a.finding_id), a.action, a.author) for a in store.actions("run-1")
           if parse_action_id(a.finding_id)]
    assert log == [((doc.id, "cuad:Governing Law"), "verified", "counsel"),
                   ((doc.id, "cuad:Parties"), "corrected", "counsel"),
                   ((doc.id, "cuad:Expiration Date"), "flagged", "counsel"), ((doc.id, ""), "assigned", "counsel")]
    grid = load_grid(store, "run-1")
    assert grid.cell(doc.id, "cuad:Parties") == "Acme Widgets, Inc.; Beta Stores LLC"
    assert grid.mark(doc.id, "cuad:Governing Law") == "verified" and grid.assignee(doc.id) == "J. Doe"
    assert grid.mark(doc.id, "cuad:Expiration Date") == "flagged, note: check the renewal"

    # a second run of the room, on a text whose governing law changed: the marks come back and say so
    store.create_run("run-2", "room-a", settings, [doc], status="finished")
    changed = AGREEMENT.replace("State of New York", "State of Delaware")
    from agents.facts import extract_facts
    from agents.memo.derive import facts_version

    store.put_document_facts(doc.id, facts_version(), extract_facts(changed).model_dump(mode="json"))
    _build(settings, store, "run-2", text=changed)
    grid2 = load_grid(store, "run-2")
    assert grid2.cell(doc.id, "cuad:Parties") == "Acme Widgets, Inc.; Beta Stores LLC"
    assert grid2.assignee(doc.id) == "J. Doe"
    assert grid2.cell(doc.id, "cuad:Governing Law") == "Delaware"
    assert grid2.mark(doc.id, "cuad:Governing Law") == ("verified (the derived answer changed since) "
                                                        "(carried over from an earlier run)")
    # clearing a correction puts the derived answer back, and is logged
    store.set_table_mark("run-2", doc.id, "cuad:Parties", "counsel", clear_correction=True)
    assert load_grid(store, "run-2").cell(doc.id, "cuad:Parties").startswith("Acme Widgets, Inc. (“Supplier”)")
    assert store.actions("run-2")[-1].action == "correction removed"


def test_xlsx_and_csv_keep_answers_citations_and_marks(settings):
    store = store_with_run(settings)
    doc = document()
    _build(settings, store)
    store.set_table_mark("run-1", doc.id, "cuad:Governing Law", "counsel", verified=True)
    store.set_table_mark("run-1", doc.id, "cuad:Parties", "counsel", corrected="=HYPERLINK(\"http://x\")")
    grid = load_grid(store, "run-1")
    wb = load_workbook(io.BytesIO(export.to_xlsx(grid)))
    ws = wb["Answers"]
    header = [c.value for c in ws[1]]
    row = {h: c for h, c in zip(header, ws[2])}
    assert row["Document"].value == doc.path
    assert row["Governing Law"].value == "New York" and "Reviewer: verified" in row["Governing Law"].comment.text
    assert "“New York”" in row["Governing Law"].comment.text and "(verified)" in row["Governing Law"].comment.text
    assert row["Anti-Assignment"].value == "Yes" and CLAUSE[:60] in row["Anti-Assignment"].comment.text
    # a reviewer's text that looks like a formula stays text
    assert row["Parties"].value == "=HYPERLINK(\"http://x\")" and row["Parties"].data_type == "s"
    assert row["Non-Compete"].value == "No (not found)"
    cites = list(wb["Citations"].iter_rows(values_only=True))
    assert any(r[1] == "Governing Law" and r[6] == "verified" and r[12] == "New York" for r in cites)
    assert len(list(wb["Questions"].iter_rows())) == 1 + len(grid.columns)
    rows = list(csv.DictReader(io.StringIO(export.to_csv(grid).decode("utf-8"))))
    parties = next(r for r in rows if r["question"] == "Parties")
    assert parties["answer"].startswith("'=HYPERLINK") and parties["reviewer mark"] == "corrected"
    assert parties["derived answer"].startswith("Acme Widgets")


def test_memo_agreement_table_reads_the_answers_and_corrections(settings):
    from agents.memo import derive

    store = store_with_run(settings)
    doc = document()
    _build(settings, store)
    store.set_table_mark("run-1", doc.id, "cuad:Governing Law", "counsel", corrected="England and Wales")
    store.set_table_mark("run-1", doc.id, "cuad:Parties", "counsel", corrected="Acme Widgets, Inc. and Beta Stores LLC")
    a = derive.agreements(store, "run-1")[doc.id]
    assert a.law == "England and Wales" and a.party_line() == "Acme Widgets, Inc. and Beta Stores LLC"
    assert a.dated == "2019-03-03"
    items = load_checklist(settings.checklist_path)
    section = next(s for s in derive.harness_sections(store, "run-1", items, final=True) if s.key == "agreements")
    assert "England and Wales" in section.text and "Acme Widgets, Inc. and Beta Stores LLC" in section.text
