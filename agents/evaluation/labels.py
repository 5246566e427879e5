"""Read a CUAD-style labels.csv: one row per contract, two columns per category.

`<Category>` holds the labelled passages as a Python-literal list of strings
(`<omitted>` marks a gap inside a passage); `<Category>-Answer` is Yes/No for
most categories and a value (date, name) for the rest.
"""

from __future__ import annotations

import ast
import csv
import sys
from dataclasses import dataclass, field
from pathlib import Path

# A few passages run past csv's default field limit.
csv.field_size_limit(min(sys.maxsize, 2**31 - 1))


@dataclass
class LabelledContract:
    name: str
    txt_path: Path
    pdf_path: Path
    passages: dict[str, list[str]] = field(default_factory=dict)
    present: dict[str, bool] = field(default_factory=dict)

    def text(self) -> str:
        return self.txt_path.read_text(encoding="utf-8", errors="replace")


def _passages(cell: str) -> list[str]:
    cell = (cell or "").strip()
    if not cell:
        return []
    try:
        value = ast.literal_eval(cell)
    except (ValueError, SyntaxError):
        return [cell]
    if isinstance(value, str):
        return [value] if value.strip() else []
    return [str(v) for v in value if str(v).strip()]


def load_labels(labels_csv: Path | str, root: Path | str | None = None) -> tuple[list[str], list[LabelledContract]]:
    """(category names in file order, contracts). Paths resolve against `root` (default: the csv's folder)."""
    labels_csv = Path(labels_csv)
    root = Path(root) if root else labels_csv.parent
    with labels_csv.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        cols = reader.fieldnames or []
        cats = [c[: -len("-Answer")] for c in cols if c.endswith("-Answer") and c[: -len("-Answer")] in cols]
        contracts = []
        for row in reader:
            c = LabelledContract(
                name=row.get("Filename", ""),
                txt_path=root / row.get("txt_path", ""),
                pdf_path=root / row.get("pdf_path", ""),
            )
            for cat in cats:
                ps = _passages(row.get(cat, ""))
                answer = (row.get(cat + "-Answer") or "").strip().lower()
                c.passages[cat] = ps
                # Yes/No categories say it outright; value categories are present when a passage is.
                c.present[cat] = answer == "yes" if answer in ("yes", "no") else bool(ps)
            contracts.append(c)
    return cats, contracts


def gold_pieces(passage: str) -> list[str]:
    """The contiguous pieces of a passage (split at `<omitted>`)."""
    return [p.strip() for p in passage.split("<omitted>") if p.strip()]
