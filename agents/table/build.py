"""Build a run's table: every reviewable document × every column, stored in the review store.

Reads only what the review produced (the run's citable findings, the documents' cached agreement facts) and
the documents' text (to check each quote at its span). A document reviewed before its facts were cached gets
them read now, once. A reviewer's own question without a model is answered with the document's best passages
(hybrid search restricted to the document), never with a guess.
"""

from __future__ import annotations

from collections.abc import Callable

from core.settings import Settings
from core.types import ChecklistItem, Finding

from agents.store import ReviewStore
from agents.table.answers import Answer, AnswerStatus, Quote, answer_document
from agents.table.columns import Column, ColumnSource, builtin_columns

PASSAGES_PER_QUESTION = 3
_NOT_ROWS = ("failed", "skipped")


def room_columns(store: ReviewStore, room: str, items: list[ChecklistItem]) -> list[Column]:
    """The built-in columns, then the room's own questions."""
    return builtin_columns(items) + store.table_columns(room)


def table_documents(store: ReviewStore, run_id: str) -> list[tuple[str, str]]:
    """(document id, path) of the run's rows: every document the run could review, by path."""
    return [(r["document_id"], r["path"]) for r in store.run_documents(run_id) if r["status"] not in _NOT_ROWS]


def room_search(settings: Settings, room: str) -> Callable[[str, Column], list[Quote]]:
    """document id, question -> the document's best passages for it (the room's hybrid search)."""
    from ingest.index.store import open_store

    rs = open_store(settings, room)

    def search(document_id: str, column: Column) -> list[Quote]:
        hits = rs.search(column.description, k=PASSAGES_PER_QUESTION, where={"document_id": document_id})
        return [Quote(text=h.chunk.text, start=h.chunk.char_start, end=h.chunk.char_end, page=h.chunk.page,
                      verified=True) for h in hits]

    return search


def build_table(store: ReviewStore, run_id: str, items: list[ChecklistItem], text_of: Callable[[str], str],
                search: Callable[[str, Column], list[Quote]] | None = None,
                columns: list[Column] | None = None) -> list[Answer]:
    """Derive and store the run's answers; returns them. `text_of`: document id -> its text."""
    from agents.facts import extract_facts

    run = store.run(run_id)
    if run is None:
        raise KeyError(f"no run {run_id}")
    columns = columns if columns is not None else room_columns(store, run.room, items)
    docs = table_documents(store, run_id)
    by_doc: dict[str, list[Finding]] = {}
    for f in store.findings(run_id, citable=True):
        by_doc.setdefault(f.citation.document_id, []).append(f)
    item_cuad = {i.id: list(i.cuad_categories) for i in items}
    facts = store.document_facts([d for d, _ in docs])
    # a reviewer's question the model already answered keeps those answers (a rebuild has no model to ask)
    asked = {(a.document_id, a.column_id): a for c in columns if c.source is ColumnSource.custom
             for a in store.answers(run_id, column_id=c.id) if a.status is not AnswerStatus.passages_only}
    answers: list[Answer] = []
    for doc_id, _ in docs:
        text = text_of(doc_id)
        if doc_id not in facts and text:  # reviewed before facts were cached: read now (the review caches them)
            facts[doc_id] = extract_facts(text).model_dump(mode="json")
        ask = (lambda col, d=doc_id: search(d, col)) if search else None
        answers += [asked.get((a.document_id, a.column_id), a) for a in answer_document(
            doc_id, text, facts.get(doc_id), by_doc.get(doc_id, []), columns, item_cuad, search=ask)]
    store.put_answers(run_id, answers, columns)
    return answers


def build_room_table(settings: Settings, store: ReviewStore, run_id: str, items: list[ChecklistItem]) -> list[Answer]:
    """build_table with the room's manifest for texts and its hybrid search for the room's own questions."""
    from ingest.index.manifest import Manifest

    run = store.run(run_id)
    if run is None:
        raise KeyError(f"no run {run_id}")
    manifest = Manifest(settings, run.room)
    custom = store.table_columns(run.room)
    return build_table(store, run_id, items, manifest.document_text,
                       search=room_search(settings, run.room) if custom else None)


def answer_with_model(settings: Settings, store: ReviewStore, run_id: str, column: Column) -> list[Answer]:
    """A reviewer's question answered for every document of the run by the configured model: the root delegates
    each document to a sub-agent (agents.table.column_graph), at most settings.harness.max_concurrency at once;
    each answer is stored as it arrives. Returns the column's answers, one per row."""
    import asyncio

    from agents.llm.caller import LLMCaller
    from agents.llm.client import get_client
    from agents.table.column_graph import ColumnContext, run_column
    from ingest.index.manifest import Manifest

    run = store.run(run_id)
    if run is None:
        raise KeyError(f"no run {run_id}")
    manifest = Manifest(settings, run.room)

    async def go() -> dict:
        caller = LLMCaller(get_client(settings.llm, "sub"), settings.llm, "sub")
        try:
            ctx = ColumnContext(store=store, caller=caller, column=column, documents=dict(table_documents(store, run_id)),
                                text_of=manifest.document_text, search=room_search(settings, run.room))
            return await run_column(ctx, run_id, settings.harness.max_concurrency)
        finally:
            await caller.aclose()

    coverage = asyncio.run(go())
    store.add_event(run_id, "column_answered", {"column": column.id, "title": column.title, **coverage})
    rows = {d for d, _ in table_documents(store, run_id)}
    return [a for a in store.answers(run_id, column_id=column.id) if a.document_id in rows]
