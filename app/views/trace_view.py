"""Trace view-model: the agent tree flattened for a table, and root steps from the trajectory."""

from __future__ import annotations

from typing import Any

import pandas as pd

from agents.llm.report import endpoint_forms, root_drive
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
            "decided by": decided_by(r),
            "latency (s)": round(float(r.get("seconds") or 0.0), 3),
            "note": str(r.get("content") or "")[:200],
        })
    return pd.DataFrame(rows, columns=["step", "tools", "decided by", "tokens in", "tokens out", "latency (s)", "note"])


def decided_by(rec: dict[str, Any]) -> str:
    d = str(rec.get("decided_by") or rec.get("policy") or "")
    if d == "planner":
        return "built-in planner (model output unusable)"
    if d == "model+planner":
        return "model, then built-in planner (no progress)"
    return "root model" if d.startswith("llm:") else "built-in planner"


def drive_caption(records: list[dict[str, Any]]) -> str:
    """'12 root steps: the root model drove 3; the built-in planner 9 ...' ('' for a run without a root model)."""
    d = root_drive(records)
    if not d["steps"] or d["built-in"] == d["steps"]:
        return ""
    return (f"{d['steps']} root steps: the root model drove {d['model']}; the built-in planner decided "
            f"{d['planner']} alone and acted in {d['model+planner']} after the model's own calls")


def fallback_rows(records: list[dict[str, Any]]) -> pd.DataFrame:
    """One row per root step the built-in planner took over, with its plain-words note."""
    rows = [{"step": r.get("step"), "what happened": str(r["fallback"].get("note") or r["fallback"].get("why", ""))}
            for r in records if r.get("type") == "root_step" and isinstance(r.get("fallback"), dict)]
    return pd.DataFrame(rows, columns=["step", "what happened"])


def form_rows(records: list[dict[str, Any]]) -> pd.DataFrame:
    """Per endpoint (role and model): the request form it answered, what else was sent, how root replies were read."""
    rows = []
    for f in endpoint_forms(records):
        used = max(f["accepted"], key=f["accepted"].get) if f["accepted"] else "none answered usably"
        rows.append({
            "agent": f["role"], "model": f["model"], "request form": used,
            "requests": sum(f["requests"].values()),
            "also sent": ", ".join(f"{k} ({v})" for k, v in f["requests"].items() if k != used) or "—",
            "tool calls read from": ", ".join(f"{k} ({v})" for k, v in f["read_as"].items()) or "—",
        })
    return pd.DataFrame(rows, columns=["agent", "model", "request form", "requests", "also sent", "tool calls read from"])
