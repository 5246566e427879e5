"""Review-run view-model, as plain data: the checklist editor's table, run settings, and how a run's status
and name read in the sidebar and on the page."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd
from pydantic import SecretStr

from core.checklist import load_checklist, save_checklist
from core.settings import Settings, check_name
from core.types import ChecklistItem, Severity

from agents.store.models import ReviewerAction, RunInfo

EDITABLE = ["enabled", "title", "default_severity", "description", "red_flag"]


def room_checklist_path(settings: Settings, room: str) -> Path:
    """The room's own copy of the checklist: edits never touch assets/checklist.yaml."""
    return settings.workspace / "checklists" / f"{check_name('room name', room)}.yaml"


def load_room_checklist(settings: Settings, room: str) -> list[ChecklistItem]:
    path = room_checklist_path(settings, room)
    return load_checklist(path if path.exists() else settings.checklist_path)


def checklist_frame(items: list[ChecklistItem]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"id": i.id, **{k: (getattr(i, k).value if k == "default_severity" else getattr(i, k)) for k in EDITABLE}}
         for i in items],
        columns=["id", *EDITABLE],
    )


def apply_edits(items: list[ChecklistItem], frame: pd.DataFrame) -> list[ChecklistItem]:
    """Items with the editor's values; ids and severity rules are not editable here."""
    by_id = {i.id: i for i in items}
    out = []
    for row in frame.to_dict("records"):
        base = by_id[row["id"]]
        out.append(base.model_copy(update={
            "enabled": bool(row["enabled"]), "title": str(row["title"]),
            "default_severity": Severity(row["default_severity"]),
            "description": str(row["description"]), "red_flag": str(row["red_flag"]),
        }))
    return out


def save_room_checklist(settings: Settings, room: str, items: list[ChecklistItem]) -> Path:
    path = room_checklist_path(settings, room)
    path.parent.mkdir(parents=True, exist_ok=True)
    save_checklist(items, path)
    return path


def run_overrides(settings: Settings, room: str, offline: bool, base_url: str, api_key: str,
                  root_model: str, sub_model: str, as_of: date | None = None) -> dict:
    """Nested settings overrides for agents.run.runner: the room's checklist, the endpoint unless offline,
    and the date the review speaks as of when given (a resume leaves it out and keeps the run's own).

    The key is handed over as a SecretStr, which the runner passes to the worker's
    environment only."""
    llm = {"base_url": "" if offline else base_url.strip()}
    if not offline:
        llm.update(api_key=SecretStr(api_key), root_model=root_model.strip() or settings.llm.root_model,
                   sub_model=sub_model.strip() or settings.llm.sub_model)
    out: dict = {"llm": llm, "checklist_path": str(room_checklist_path(settings, room))}
    if as_of is not None:
        out["harness"] = {"as_of": as_of.isoformat()}
    return out


# ---------------------------------------------------------------- run status and labels (read-only)
INTERRUPTED_WORD = "interrupted — resume"
DECISIONS = ("accepted", "rejected", "edited", "note")


def status_word(settings: Settings, run: RunInfo) -> str:
    """The one word the sidebar and the page both show: the store's status, except that a run whose worker is
    gone (its worker lock is free: killed, crashed) reads 'interrupted — resume' whatever the store last heard."""
    from agents.run.runner import INTERRUPTED, effective_status

    status = effective_status(run, settings)
    return INTERRUPTED_WORD if status == INTERRUPTED else status


def is_live(settings: Settings, run: RunInfo) -> bool:
    """A worker is really working on the run (not just a status the store still holds)."""
    from agents.run.runner import ACTIVE

    return status_word(settings, run) in ACTIVE


def reviewer_mode(run: RunInfo) -> str:
    """'offline', or the model names the run used (root / sub-agent when they differ)."""
    llm = run.settings.get("llm") or {}
    if not llm.get("base_url"):
        return "offline"
    root, sub = llm.get("root_model", "?"), llm.get("sub_model", "?")
    return root if root == sub else f"{root} / {sub}"


def decision_counts(actions: list[ReviewerAction]) -> dict[str, int]:
    """Reviewer decisions on the run's findings: each finding's latest accept/reject, plus edits and notes."""
    latest: dict[str, str] = {}
    out = {k: 0 for k in DECISIONS}
    for a in actions:  # oldest first
        if a.action in ("accepted", "rejected"):
            latest[a.finding_id] = a.action
        elif a.action in ("edited", "note"):
            out[a.action] += 1
    for v in latest.values():
        out[v] += 1
    return out


def run_label(run: RunInfo, actions: list[ReviewerAction], status: str) -> str:
    """How the run picker names a run: start time, reviewer mode, decisions and status, not its id."""
    counts = decision_counts(actions)
    said = ", ".join(f"{n} {k}" + ("s" if k == "note" and n != 1 else "") for k, n in counts.items() if n)
    return (f"{run.started_at:%Y-%m-%d %H:%M} UTC · {reviewer_mode(run)} · {said or 'no decisions'} · {status}")


def coverage_text(documents_reviewed: int, documents_total: int) -> tuple[str, str | None]:
    """'reviewed/total' and its percentage; no percentage before the run knows its documents (not '0/0 100 %')."""
    if documents_total <= 0:
        return "—", None
    return f"{documents_reviewed}/{documents_total}", f"{documents_reviewed / documents_total:.0%}"
