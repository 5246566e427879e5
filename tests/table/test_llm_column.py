"""A reviewer's yes/no question answered for every document by sub-agent calls to a local OpenAI-compatible
server (devtools.fakeopenai): the root delegates each document to a sub-agent (agents.table.column_graph), calls
bounded by max_concurrency, every quote checked against the document, each sub-agent's tokens on the run, and a
failed document asked again on the next call while answered ones are not."""

from __future__ import annotations

import json
import re

import pytest
from pydantic import SecretStr

from core.checklist import load_checklist
from core.settings import LLMSettings

from agents.table.answers import AnswerStatus
from agents.table.build import answer_with_model, build_room_table
from agents.table.columns import AnswerType, custom_column
from devtools.fakeopenai import FakeOpenAI, server_error, text
from tests.table.helpers import AGREEMENT, store_with_run

MODEL = "fake-sub-1"
KEY = "sk-test-table-1"
FABRICATED = "Either party may assign freely to any affiliate."


def responder(body: dict):
    """Answers from the DATA blocks it is sent: quotes the sentence that says 'assign', except for the document
    named 'doc-3', where it makes a quote up (which must not pass as verified)."""
    user = body["messages"][-1]["content"]
    for m in re.finditer(r"<<<DATA passage=(\d+) page=\d+ nonce=\w+>>>\n(.*?)\n<<<END DATA", user, re.S):
        hit = re.search(r"[^.]*\bassign\b[^.]*\.", m.group(2))
        if hit:
            quote = FABRICATED if "doc-3" in user else " ".join(hit.group().split())
            return text(json.dumps({"answer": "no", "passage": int(m.group(1)), "quote": quote}))
    return text(json.dumps({"answer": "not found", "passage": 0, "quote": ""}))


@pytest.fixture
def room(settings, tmp_path, no_network):
    from ingest.index.manifest import Manifest
    from ingest.pipeline import ingest_room

    src = tmp_path / "src"
    src.mkdir()
    for i in range(6):
        body = AGREEMENT.replace("Acme Widgets", f"Acme Widgets {i}")
        if i == 5:  # no assignment clause at all
            body = re.sub(r"2\. Assignment\..*?assignment\.\n", "", body, flags=re.S)
        (src / f"doc-{i}.txt").write_text(body, encoding="utf-8")
    settings.embedding.model = "hash"
    ingest_room(src, "room-a", settings)
    m = Manifest(settings, "room-a")
    return store_with_run(settings, docs=[(d, m.document_text(d.id)) for d in m.documents()]), m


def test_custom_yes_no_column_answered_by_bounded_sub_agent_calls(settings, room):
    store, manifest = room
    question = custom_column("Can a party assign this agreement without the other's consent?", AnswerType.yes_no)
    store.add_table_column("room-a", question, "counsel")
    build_room_table(settings, store, "run-1", load_checklist(settings.checklist_path))
    with FakeOpenAI(api_key=KEY, models={MODEL}) as fake:
        fake.respond_with(MODEL, responder)
        s = settings.model_copy(deep=True)
        s.llm = LLMSettings(base_url=fake.base_url, api_key=SecretStr(KEY), root_model=MODEL, sub_model=MODEL,
                            timeout_s=5.0, max_retries=1)
        s.harness.max_concurrency = 2
        answers = {a.document_id: a for a in answer_with_model(s, store, "run-1", question)}
        fake.assert_clean()
        assert len(fake.calls(MODEL)) == 6 and fake.max_overlap(MODEL) <= 2
    paths = {d.id: d.path for d in manifest.documents()}
    assert len(answers) == 6
    for doc_id, a in answers.items():
        body = manifest.document_text(doc_id)
        if paths[doc_id] == "doc-5.txt":
            assert a.status is AnswerStatus.not_found and a.display() == "No (not found)"
        elif paths[doc_id] == "doc-3.txt":
            assert a.status is AnswerStatus.answered and not a.verified and a.quotes[0].text == FABRICATED
            assert a.display() == "No (quote not verified)"
        else:
            assert a.status is AnswerStatus.answered and a.value == "no" and a.verified
            assert body[a.quotes[0].start:a.quotes[0].end] == a.quotes[0].text and "assign" in a.quotes[0].text
    # the stored table has them, and a rebuild (no model to ask) keeps them
    build_room_table(settings, store, "run-1", load_checklist(settings.checklist_path))
    stored = {a.document_id: a for a in store.answers("run-1", column_id=question.id)}
    assert {d: (a.status, a.value) for d, a in stored.items()} == {d: (a.status, a.value) for d, a in answers.items()}


def _with_model(settings, fake):
    s = settings.model_copy(deep=True)
    s.llm = LLMSettings(base_url=fake.base_url, api_key=SecretStr(KEY), root_model=MODEL, sub_model=MODEL,
                        timeout_s=5.0, max_retries=0)
    s.harness.max_concurrency = 3
    return s


def test_each_document_is_a_sub_agent_of_the_run_and_a_failed_one_is_asked_again(settings, room):
    store, manifest = room
    question = custom_column("Can a party assign this agreement without the other's consent?", AnswerType.yes_no)
    store.add_table_column("room-a", question, "counsel")
    build_room_table(settings, store, "run-1", load_checklist(settings.checklist_path))
    paths = {d.id: d.path for d in manifest.documents()}
    down = next(d for d, p in paths.items() if p == "doc-1.txt")

    def flaky(body: dict):  # the endpoint fails for doc-1 only
        return server_error(503) if "doc-1.txt" in body["messages"][-1]["content"] else responder(body)

    with FakeOpenAI(api_key=KEY, models={MODEL}) as fake:
        fake.respond_with(MODEL, flaky)
        first = {a.document_id: a for a in answer_with_model(_with_model(settings, fake), store, "run-1", question)}
        assert fake.max_overlap(MODEL) <= 3
        asked_first = len(fake.calls(MODEL))
    assert first[down].status is AnswerStatus.passages_only and first[down].quotes  # its passages, not a guess
    assert sum(a.status is AnswerStatus.passages_only for a in first.values()) == 1
    rows = {r["id"]: r for r in store.assignment_rows("run-1") if r["pass"] == "column"}
    docs_of = {i: json.loads(r["document_ids"]) for i, r in rows.items()}
    assert len(rows) == 6 and all(r["leaf"] == 1 and len(docs_of[i]) == 1 for i, r in rows.items())
    failed = [r for r in rows.values() if r["status"] == "failed"]
    assert len(failed) == 1 and down in failed[0]["document_ids"] and "503" in failed[0]["error"]
    assert all(r["tokens_in"] > 0 and r["calls"] >= 1 for i, r in rows.items() if r["status"] == "done")
    usage = store.token_usage("run-1")
    assert usage.sub_in == sum(r["tokens_in"] for r in rows.values()) > 0 and usage.root_in == 0
    event = [e for e in store.events_since("run-1") if e.kind == "column_answered"][-1]
    assert event.data["documents"] == 6 and event.data["passages_only"] == 1 and event.data["failed_now"] == 1

    with FakeOpenAI(api_key=KEY, models={MODEL}) as fake:  # the endpoint is back: only doc-1 is asked again
        fake.respond_with(MODEL, responder)
        second = {a.document_id: a for a in answer_with_model(_with_model(settings, fake), store, "run-1", question)}
        again = fake.calls(MODEL)
    assert len(again) == 1 and "doc-1.txt" in again[0].body["messages"][-1]["content"]
    assert second[down].status is AnswerStatus.answered and second[down].verified
    assert {d: a.value for d, a in second.items() if d != down} == {d: a.value for d, a in first.items() if d != down}
    assert store.assignment("run-1", f"column:{question.id}:{down}").status.value == "done"
    assert asked_first >= 5
