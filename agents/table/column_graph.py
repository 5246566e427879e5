"""A reviewer's own question as a delegated review on LangGraph: the root hands each document to a sub-agent.

    plan (root) --Send("answer", one document) x N--> answer (sub-agent) --> collect

The root never reads a document: it lists the run's documents that have no model answer to this column yet and
delegates one per sub-agent (a LangGraph Send), at most settings.harness.max_concurrency at once. A sub-agent
searches its document for the question's passages, asks the sub model (agents.table.llm_column), has its quote
checked against the document, and stores its answer and its assignment row (pass "column": status, tokens,
calls) as soon as it has them. So the run's root / sub-agent token accounting and agent tree show the column like
any review, and collect's coverage says how many documents the question reached. Nothing but ids goes through
the graph state. A new call skips documents already answered by the model, so a column stopped midway (a crash,
a failing endpoint) is resumed by asking again, never by asking twice; a document whose call failed keeps its
passages ("passages only") and is asked again next time.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.runtime import get_runtime
from langgraph.types import Send

from core.types import Assignment, AssignmentStatus

from agents.llm.caller import LLMCaller, LLMError
from agents.store import ReviewStore
from agents.table.answers import Answer, AnswerStatus, Quote
from agents.table.columns import Column
from agents.table.llm_column import answer_document

PASS = "column"


@dataclass
class ColumnContext:
    """What the nodes need and the state must not hold (LangGraph's run context)."""

    store: ReviewStore
    caller: LLMCaller
    column: Column
    documents: dict[str, str]  # document id -> path, the run's rows
    text_of: Callable[[str], str]
    search: Callable[[str, Column], list[Quote]]


class ColumnState(TypedDict, total=False):
    run_id: str
    delegated: list[str]  # document ids the root handed out, in order
    failed: Annotated[list[str], operator.add]  # of those, the ones whose model call failed
    coverage: dict


class DocTask(TypedDict):
    run_id: str
    document_id: str
    agent: str


def assignment_id(column: Column, document_id: str) -> str:
    return f"column:{column.id}:{document_id}"


def _ctx() -> ColumnContext:
    return get_runtime(ColumnContext).context


def plan(state: ColumnState) -> dict:
    """The root: every row without the model's answer to this question goes to a sub-agent of its own."""
    c = _ctx()
    done = {a.document_id for a in c.store.answers(state["run_id"], column_id=c.column.id)
            if a.status is not AnswerStatus.passages_only}
    todo = [d for d in c.documents if d not in done]
    for i, doc_id in enumerate(todo, 1):
        c.store.put_assignment(state["run_id"], Assignment(
            id=assignment_id(c.column, doc_id), agent=f"column-{i}", document_ids=[doc_id],
            instructions=c.column.description, categories=[c.column.id]), None, PASS, True)
    return {"delegated": todo}


def route(state: ColumnState):
    tasks = [Send("answer", DocTask(run_id=state["run_id"], document_id=d, agent=f"column-{i}"))
             for i, d in enumerate(state.get("delegated") or [], 1)]
    return tasks or "collect"


async def answer(task: DocTask) -> dict:
    """A sub-agent: its document's passages for the question, one model call, the quote checked, stored."""
    c = _ctx()
    run_id, doc_id = task["run_id"], task["document_id"]
    a = Assignment(id=assignment_id(c.column, doc_id), agent=task["agent"], document_ids=[doc_id],
                   instructions=c.column.description, categories=[c.column.id])
    c.store.start_assignment(run_id, a.id)
    t0 = time.monotonic()
    passages = c.search(doc_id, c.column)
    calls = 0
    try:
        asked = await answer_document(c.caller, c.column, doc_id, c.documents[doc_id], c.text_of(doc_id), passages)
    except LLMError as e:  # the passages stay, marked for a model to answer; the failure is on the assignment
        a.status, a.error = AssignmentStatus.failed, str(e)
        a.tokens_in, a.tokens_out, calls = e.prompt_tokens, e.completion_tokens, e.calls
        ans = Answer(document_id=doc_id, column_id=c.column.id, status=AnswerStatus.passages_only, quotes=passages)
    else:
        ans, a.status = asked.answer, AssignmentStatus.done
        a.tokens_in, a.tokens_out, calls = asked.tokens_in, asked.tokens_out, asked.calls
        a.report = ans.display()
    a.seconds = round(time.monotonic() - t0, 3)
    c.store.put_column_answers(run_id, [ans])
    c.store.finish_assignment(run_id, a, calls=calls)
    return {} if a.status is AssignmentStatus.done else {"failed": [doc_id]}


def collect(state: ColumnState) -> dict:
    """How far the question reached: documents with the model's answer, of the run's rows."""
    c = _ctx()
    answers = c.store.answers(state["run_id"], column_id=c.column.id)
    by = {s: sum(1 for a in answers if a.status is s) for s in AnswerStatus}
    return {"coverage": {
        "documents": len(c.documents),
        "answered_by_model": by[AnswerStatus.answered] + by[AnswerStatus.not_found],
        "unverified": sum(1 for a in answers if a.status is AnswerStatus.answered and not a.verified),
        "passages_only": by[AnswerStatus.passages_only],
        "asked_now": len(state.get("delegated") or []),
        "failed_now": len(state.get("failed") or []),
    }}


def build_column_graph():
    g = StateGraph(ColumnState, context_schema=ColumnContext)
    g.add_node("plan", plan)
    g.add_node("answer", answer)
    g.add_node("collect", collect)
    g.add_edge(START, "plan")
    g.add_conditional_edges("plan", route, ["answer", "collect"])
    g.add_edge("answer", "collect")
    g.add_edge("collect", END)
    return g.compile()


async def run_column(ctx: ColumnContext, run_id: str, concurrency: int) -> dict:
    """Ask the column's question of every document of the run that lacks the model's answer; returns coverage."""
    out = await build_column_graph().ainvoke({"run_id": run_id}, {"max_concurrency": max(1, concurrency)},
                                             context=ctx)
    return out["coverage"]
