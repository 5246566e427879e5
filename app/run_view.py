"""Review-run view-model: the checklist editor's table and run settings, as plain data."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pandas as pd
from pydantic import SecretStr

from core.checklist import load_checklist, save_checklist
from core.settings import Settings
from core.types import ChecklistItem, Severity

EDITABLE = ["enabled", "title", "default_severity", "description", "red_flag"]


def room_checklist_path(settings: Settings, room: str) -> Path:
    """The room's own copy of the checklist: edits never touch assets/checklist.yaml."""
    return settings.workspace / "checklists" / f"{room}.yaml"


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
    """Nested settings overrides for agents.runner: the room's checklist, the endpoint unless offline,
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
