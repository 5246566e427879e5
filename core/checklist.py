"""Load and save the diligence checklist (YAML, edited by users)."""

from __future__ import annotations

from pathlib import Path

import yaml

from core.types import ChecklistItem


def load_checklist(path: Path | str) -> list[ChecklistItem]:
    raw = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or []
    items = [ChecklistItem.model_validate(r) for r in raw]
    ids = [i.id for i in items]
    dupes = {i for i in ids if ids.count(i) > 1}
    if dupes:
        raise ValueError(f"checklist {path}: duplicate item ids {sorted(dupes)}")
    return items


def save_checklist(items: list[ChecklistItem], path: Path | str) -> None:
    data = [i.model_dump(mode="json") for i in items]
    Path(path).write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
