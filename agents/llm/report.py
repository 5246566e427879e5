"""What a run's trajectory says about its models: who drove each root step, and in which form each endpoint
was asked and answered. Read by the CLI's run summary, the trace page and bench/real_model.py.

A root step's record says who decided it (`decided_by`: the policy, 'planner', or 'model+planner' when the
planner acted after the model's own calls) and, when the planner took over, a `fallback` whose `note` is the
plain line "root model could not drive step N (...); built-in planner delegated batch ...". Each model request
of a sub-agent is one `sub_call` record whose `form` is the request form (agents.llm.caller.request_form).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

# how a root reply's tool calls were read (agents.llm.toolparse forms), in words
PARSE_FORMS = {"tool_calls": "native tool_calls", "bare": "JSON in the text", "fenced": "fenced JSON in the text",
               "tags": "<tool_call> tags in the text", "json": "JSON in the text"}


def root_steps(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in records if r.get("type") == "root_step"]


def root_drive(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Root steps the model decided alone, with the planner's help, or not at all, and the planner's notes."""
    steps = root_steps(records)
    by = Counter(_decided_by(r) for r in steps)
    notes = [str((r.get("fallback") or {}).get("note") or "") for r in steps if r.get("fallback")]
    return {"steps": len(steps), "model": by.get("model", 0), "model+planner": by.get("model+planner", 0),
            "planner": by.get("planner", 0), "built-in": by.get("built-in", 0), "notes": [n for n in notes if n]}


def _decided_by(rec: dict[str, Any]) -> str:
    d = str(rec.get("decided_by") or rec.get("policy") or "")
    if d in ("planner", "model+planner"):
        return d
    return "model" if d.startswith("llm:") else "built-in"  # the offline root policy: no model at all


def endpoint_forms(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per role and model: requests by form, replies accepted, and how root replies were read."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}

    def row(role: str, model: str) -> dict[str, Any]:
        return rows.setdefault((role, model), {"role": role, "model": model, "requests": Counter(),
                                               "accepted": Counter(), "read_as": Counter()})

    for r in records:
        if r.get("type") == "root_step" and str(r.get("policy", "")).startswith("llm:") and r.get("calls"):
            x = row("root", str(r["policy"])[4:])
            # a root step carries its decision's form, not one record per request: counted per step
            # a step the planner decided alone keeps no record of the form its failed requests used
            form = {"native": "native tools", "fallback": "tools in text"}.get(r.get("mode"), "tools, form not recorded")
            x["requests"][form] += int(r.get("calls") or 0)
            if r.get("decided_by") != "planner":
                x["accepted"][form] += 1
                if r.get("parse_form"):
                    x["read_as"][PARSE_FORMS.get(r["parse_form"], r["parse_form"])] += 1
        elif r.get("type") == "sub_call" and r.get("form") is not None and r.get("model"):
            x = row(str(r.get("role") or "sub"), str(r["model"]))
            x["requests"][r["form"] or "?"] += 1
            if r.get("outcome") == "ok":
                x["accepted"][r["form"] or "?"] += 1
    return [{**v, "requests": dict(v["requests"]), "accepted": dict(v["accepted"]), "read_as": dict(v["read_as"])}
            for v in rows.values()]


def form_line(row: dict[str, Any]) -> str:
    """'sub model smollm2: json_object (40 requests, 38 answered); refused first: json_schema (1)'."""
    used = max(row["accepted"], key=row["accepted"].get) if row["accepted"] else None
    if used is None:
        return f"{row['role']} model {row['model']}: no usable answer ({sum(row['requests'].values())} request(s))"
    others = {k: v for k, v in row["requests"].items() if k != used}
    line = (f"{row['role']} model {row['model']}: {used} ({row['requests'].get(used, 0)} request(s), "
            f"{row['accepted'][used]} answered usably)")
    if others:
        line += "; also sent: " + ", ".join(f"{k} ({v})" for k, v in others.items())
    if row["read_as"]:
        line += "; tool calls read from " + ", ".join(f"{k} ({v})" for k, v in row["read_as"].items())
    return line


def summary_lines(records: list[dict[str, Any]], max_notes: int = 10) -> list[str]:
    """The run summary's lines about the models (empty for a run without a model)."""
    forms = endpoint_forms(records)
    drive = root_drive(records)
    subs = [r for r in records if r.get("type") == "sub_call"]
    builtin = {(r.get("assignment_id"), r.get("document_id")) for r in subs if r.get("fallback")}
    if not forms and not drive["notes"] and not builtin:
        return []
    lines = []
    if drive["steps"]:
        lines.append(f"root steps: {drive['steps']}; the root model drove {drive['model']}, the built-in planner "
                     f"{drive['planner']} alone and {drive['model+planner']} after the model's own calls")
    lines += [n for n in drive["notes"][:max_notes]]
    if len(drive["notes"]) > max_notes:
        lines.append(f"... and {len(drive['notes']) - max_notes} more step(s) the planner took over (trace page)")
    if builtin:
        reviews = {(r.get("assignment_id"), r.get("document_id")) for r in subs}
        lines.append(f"document reviews: {len(builtin)} of {len(reviews)} done by the built-in reviewer because the "
                     "sub model's reply was unusable (their findings say so in their agent)")
    lines += ["request form: " + form_line(r) for r in forms]
    return lines
