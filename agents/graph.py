"""Wiring only: inventory -> root <-> (Send review x N -> integrate) -> finalize."""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from agents.runtime.context import HarnessContext, ctx
from agents.runtime.lanes import deal, lane_count
from agents.nodes import finalize, integrate, inventory, review, root
from agents.state import LaneTask, RunState


def route_root(state: RunState):
    """After a root step: fan the delegated leaves out to review lanes (even in a finishing step), else
    finish or step again."""
    leaves = state.get("dispatch") or []
    if leaves:
        wave = f"{state['run_id']}:{state.get('step', 0)}"
        shares = deal(leaves, lane_count(ctx().settings.harness))
        return [Send("review", LaneTask(run_id=state["run_id"], wave=wave, lane=i, assignments=s))
                for i, s in enumerate(shares)]
    return "finalize" if state.get("finished") else "root"


def route_integrate(state: RunState) -> str:
    return "finalize" if state.get("finished") else "root"


def build_graph(checkpointer=None):
    g = StateGraph(RunState, context_schema=HarnessContext)
    g.add_node("inventory", inventory.node)
    g.add_node("root", root.node)
    g.add_node("review", review.node)
    g.add_node("integrate", integrate.node)
    g.add_node("finalize", finalize.node)
    g.add_edge(START, "inventory")
    g.add_edge("inventory", "root")
    g.add_conditional_edges("root", route_root, ["review", "root", "finalize"])
    g.add_edge("review", "integrate")
    g.add_conditional_edges("integrate", route_integrate, ["root", "finalize"])
    g.add_edge("finalize", END)
    return g.compile(checkpointer=checkpointer)
