"""The Review table page in AppTest, on a real ingested room and the real store: build, open a cell, verify,
correct, assign, filter, add a question, download."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


from tests.app.test_app_pages import MAIN
from tests.table.helpers import AGREEMENT, store_with_run


def _room(settings, tmp_path):
    from ingest.index.manifest import Manifest
    from ingest.pipeline import ingest_room

    src = tmp_path / "src" / "Commercial"
    src.mkdir(parents=True)
    (src / "acme.txt").write_text(AGREEMENT, encoding="utf-8")
    (src / "beta.txt").write_text(AGREEMENT.replace("New York", "Delaware"), encoding="utf-8")
    ingest_room(src.parent, "room-a", settings)
    m = Manifest(settings, "room-a")
    return store_with_run(settings, docs=[(d, m.document_text(d.id)) for d in m.documents()])


def _page(run_id="run-1") -> AppTest:
    at = AppTest.from_file(MAIN, default_timeout=60)
    at.session_state["room"] = "room-a"
    at.session_state["run_id"] = run_id
    at.switch_page("pages/table.py")
    return at


def _cells(at) -> list[list[str]]:
    return at.dataframe[0].value.values.tolist()


def test_table_page_builds_marks_and_filters(settings, tmp_path):
    store = _room(settings, tmp_path)
    at = _page().run()
    assert not at.exception
    next(b for b in at.button if b.label == "Build the table").click().run()
    assert not at.exception and "2 of 2 documents" in " ".join(c.value for c in at.caption)
    rows = _cells(at)
    assert [r[0] for r in rows] == ["acme.txt", "beta.txt"]
    assert "Delaware" in rows[1] and "New York" in rows[0]
    # open a cell and verify it, then correct another
    doc_a = store.run_documents("run-1")[0]["document_id"]
    sel = {s.label: s for s in at.selectbox}
    sel["Document"].set_value(doc_a).run()
    {s.label: s for s in at.selectbox}["Question"].set_value("cuad:Governing Law").run()
    assert any("Governing Law (jurisdiction)" in h.value for h in at.get("html"))
    next(b for b in at.button if b.label == "Verify").click().run()
    assert store.table_marks("room-a")[(doc_a, "cuad:Governing Law")].verified
    {s.label: s for s in at.selectbox}["Question"].set_value("cuad:Parties").run()
    {t.label: t for t in at.text_input}["Corrected answer"].input("Acme Widgets, Inc.; Beta Stores LLC")
    next(b for b in at.button if b.label == "Save correction").click().run()
    assert not at.exception
    assert _cells(at)[0][2] == "Acme Widgets, Inc.; Beta Stores LLC"
    {t.label: t for t in at.text_input}["Assign this document to"].input("J. Doe")
    next(b for b in at.button if b.label == "Assign").click().run()
    assert _cells(at)[0][1] == "J. Doe"
    assert [a.action for a in store.actions("run-1")][-3:] == ["verified", "corrected", "assigned"]
    # a click on a cell of the grid opens it
    at.session_state["table_grid"] = {"selection": {"rows": [], "columns": [], "cells": [[1, "Governing Law"]]}}
    at.run()
    assert not at.exception
    assert {s.label: s for s in at.selectbox}["Document"].value == store.run_documents("run-1")[1]["document_id"]
    assert any("<b>Answer.</b> Delaware" in h.value for h in at.get("html"))
    # filter to one document
    {t.label: t for t in at.text_input}["Contains"].input("delaware").run()
    assert [r[0] for r in _cells(at)] == ["beta.txt"]
    assert not at.exception
