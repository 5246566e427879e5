"""A stop that lands as a node returns: its state writes are saved beside its CancelledError, its route is not.

Seen once in test_runner under load (LangGraph 1.2.24, checkpoint-sqlite 3.1.2): integrate's writes and a
CancelledError were saved, its `branch:to:root` write was not, and the resumed thread applied the writes
and ended without reaching finalize, so the run stayed "starting" with no stats. The race cannot be
forced from outside, so this test writes the same checkpoint rows through the checkpointer's public
`aput_writes` on a real graph, checks that LangGraph alone does end the thread there, and that the
harness's fork point picks the run up so the lost node and its successors run.
"""

from __future__ import annotations

import asyncio
import operator
from typing import Annotated, TypedDict

from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.constants import END, START
from langgraph.graph import StateGraph

from agents.run.harness import _fork_point


class S(TypedDict):
    log: Annotated[list[str], operator.add]
    done: bool


def _graph(saver):
    g = StateGraph(S)
    g.add_node("review", lambda s: {"log": ["review"]})
    g.add_node("integrate", lambda s: {"log": ["integrate"]})
    g.add_node("finalize", lambda s: {"log": ["finalize"], "done": True})
    g.add_edge(START, "review")
    g.add_edge("review", "integrate")
    g.add_conditional_edges("integrate", lambda s: "finalize", ["finalize"])
    g.add_edge("finalize", END)
    return g.compile(checkpointer=saver, interrupt_before=["integrate"])


async def _scenario(path: str) -> tuple[list[str], list[str], object]:
    async with AsyncSqliteSaver.from_conn_string(path) as saver:
        graph = _graph(saver)
        cfg = {"configurable": {"thread_id": "t"}}
        await graph.ainvoke({"log": [], "done": False}, cfg)  # stops before integrate (the stop arrives)
        snap = await graph.aget_state(cfg)
        task = snap.tasks[0]
        assert task.name == "integrate"
        # what the killed worker left: the node's state write and its error, no route
        await saver.aput_writes(snap.config, [("log", ["integrate"])], task.id)
        await saver.aput_writes(snap.config, [("__error__", asyncio.CancelledError())], task.id)
        plain = _graph(saver)
        plain.interrupt_before_nodes = []
        await plain.ainvoke(None, cfg)  # LangGraph on its own: writes applied, thread over, finalize never ran
        ended = (await plain.aget_state(cfg)).values["log"]
        fork = await _fork_point(plain, cfg)
        assert fork is not None
        await plain.ainvoke(None, fork)
        after = (await plain.aget_state(cfg)).values["log"]
        return ended, after, await _fork_point(plain, cfg)


def test_thread_ended_by_a_cancelled_node_is_resumed_from_before_it(tmp_path):
    ended, after, again = asyncio.run(_scenario(str(tmp_path / "cp.sqlite")))
    assert ended == ["review", "integrate"]  # reproduced: no finalize
    assert after == ["review", "integrate", "finalize"]  # integrate re-run from the fork, then finalize
    assert again is None  # a thread that really finished is left alone
