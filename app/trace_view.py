"""Trace view-model: the agent tree flattened for a table, and root steps from the trajectory."""

from __future__ import annotations

from typing import Any

import pandas as pd

from agents.store.models import AssignmentNode



def tree_rows(roots: list[AssignmentNode], paths: dict[str, str]) -> pd.DataFrame:
    """Depth-first rows under a 'root' line; indentation shows root → sub-agent → child."""
    rows: list[dict[str, Any]] = []

    def walk(node: AssignmentNode, depth: int) -> None:
        a = node.assignment
        docs = [paths.get(d, d) for d in a.document_ids]
        rng = f" chunks {a.chunk_range[0]}–{a.chunk_range[1]}" if a.chunk_range else ""
        rows.append({
            "agent": "    " * depth + ("└ " if depth else "") + a.agent,
            "status": a.status.value,
            "pass": node.pass_,
            "documents": ", ".join(docs) + rng,
            "tokens in": a.tokens_in,
            "tokens out": a.tokens_out,
            "latency (s)": round(a.seconds, 2),
            "findings": node.findings,
            "report": a.report or a.error,
        })
        for child in node.children:
            walk(child, depth + 1)

    for r in roots:
        walk(r, 1)
    return pd.DataFrame(rows, columns=["agent", "status", "pass", "documents", "tokens in", "tokens out",
                                       "latency (s)", "findings", "report"])


def count_agents(roots: list[AssignmentNode]) -> dict[str, int]:
    """Sub-agents by status, children included."""
    out: dict[str, int] = {}
    stack = list(roots)
    while stack:
        n = stack.pop()
        out[n.assignment.status.value] = out.get(n.assignment.status.value, 0) + 1
        stack.extend(n.children)
    return out


def root_steps(records: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per root step: which tools it called, tokens and latency."""
    rows = []
    for r in records:
        if r.get("type") != "root_step":
            continue
        calls = r.get("tool_calls") or []
        names = [c.get("name") or (c.get("function") or {}).get("name", "?") for c in calls if isinstance(c, dict)]
        rows.append({
            "step": r.get("step"),
            "tools": ", ".join(n for n in names if n) or "—",
            "tokens in": r.get("tokens_in", 0),
            "tokens out": r.get("tokens_out", 0),
            "latency (s)": round(float(r.get("seconds") or 0.0), 3),
            "note": str(r.get("content") or "")[:200],
        })
    return pd.DataFrame(rows, columns=["step", "tools", "tokens in", "tokens out", "latency (s)", "note"])
