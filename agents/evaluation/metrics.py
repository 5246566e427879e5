"""Document-level precision/recall per CUAD category and quote overlap with gold passages."""

from __future__ import annotations

from pydantic import BaseModel, Field

from agents.evaluation.labels import LabelledContract
from core.text import jaccard
from core.types import Finding

JACCARD_MIN = 0.5
# The twelve categories the acceptance targets are stated over.
HEADLINE = [
    "Change of Control", "Anti-Assignment", "Termination for Convenience", "Exclusivity", "Non-Compete",
    "Cap on Liability", "Uncapped Liability", "IP Ownership Assignment", "License Grant", "Governing Law",
    "Most Favored Nation", "Rofr/Rofo/Rofn",
]


class CategoryScore(BaseModel):
    category: str = Field(description="CUAD category.")
    item: str = Field("", description="Checklist item scored against it; '' when none maps to it.")
    positives: int = Field(0, description="Documents labelled as containing the category.")
    predicted: int = Field(0, description="Documents the reviewer flagged.")
    tp: int = Field(0, description="Flagged and labelled.")
    precision: float | None = Field(None, description="tp / predicted; None when nothing was predicted.")
    recall: float | None = Field(None, description="tp / positives; None without positives.")
    quote_hits: int = Field(0, description="True positives whose best quote has Jaccard >= 0.5 with a gold passage.")
    quote_rate: float | None = Field(None, description="quote_hits / tp.")
    # The errors themselves, so that whoever runs the evaluation on new contracts can read them:
    # a count alone cannot tell a missed clause from a clause the labels missed.
    false_positives: list[dict[str, str | list[str]]] = Field(
        default_factory=list, description="Flagged but not labelled: {'contract', 'quotes'} each.")
    false_negatives: list[str] = Field(default_factory=list, description="Labelled but not flagged: contract names.")


def cuad_of(finding: Finding, item_cats: dict[str, list[str]]) -> list[str]:
    """CUAD categories a finding stands for: its own `extra['cuad']`, else all of its item's."""
    tagged = finding.extra.get("cuad", "")
    if tagged:
        return [c.strip() for c in tagged.split(";") if c.strip()]
    return item_cats.get(finding.category, [])


def predicted_quotes(findings: list[Finding], item_cats: dict[str, list[str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in findings:
        for c in cuad_of(f, item_cats):
            out.setdefault(c, []).append(f.quote)
    return out


def best_jaccard(quotes: list[str], passages: list[str]) -> float:
    golds = [p.replace("<omitted>", " ") for p in passages]
    return max((jaccard(q, g) for q in quotes for g in golds), default=0.0)


def score(
    categories: list[str],
    contracts: list[LabelledContract],
    findings_by_contract: dict[str, list[Finding]],
    item_cats: dict[str, list[str]],
) -> list[CategoryScore]:
    """One CategoryScore per category over the contracts that were reviewed."""
    item_of = {c: it for it, cs in item_cats.items() for c in cs}
    scores = []
    for cat in categories:
        s = CategoryScore(category=cat, item=item_of.get(cat, ""))
        for con in contracts:
            if con.name not in findings_by_contract:
                continue
            quotes = predicted_quotes(findings_by_contract[con.name], item_cats).get(cat, [])
            gold = con.present.get(cat, False)
            s.positives += gold
            s.predicted += bool(quotes)
            if gold and quotes:
                s.tp += 1
                s.quote_hits += best_jaccard(quotes, con.passages.get(cat, [])) >= JACCARD_MIN
            elif quotes:
                s.false_positives.append({"contract": con.name, "quotes": quotes})
            elif gold:
                s.false_negatives.append(con.name)
        s.precision = s.tp / s.predicted if s.predicted else None
        s.recall = s.tp / s.positives if s.positives else None
        s.quote_rate = s.quote_hits / s.tp if s.tp else None
        scores.append(s)
    return scores


def macro(scores: list[CategoryScore], only: list[str] | None = None) -> dict[str, float | int]:
    """Macro averages; a category with no prediction counts as precision 0 if it has positives."""
    sel = [s for s in scores if (only is None or s.category in only) and s.positives]
    if not sel:
        return {"categories": 0}

    def avg(vals):
        return round(sum(vals) / len(vals), 4) if vals else None

    return {
        "categories": len(sel),
        "precision": avg([s.precision if s.precision is not None else 0.0 for s in sel]),
        "recall": avg([s.recall or 0.0 for s in sel]),
        "quote_rate": avg([s.quote_rate for s in sel if s.quote_rate is not None]),
        "quote_rate_pooled": round(sum(s.quote_hits for s in sel) / max(1, sum(s.tp for s in sel)), 4),
    }


def table(scores: list[CategoryScore]) -> str:
    def f(x):
        return "   -" if x is None else f"{x:.2f}"

    lines = ["| CUAD category | checklist item | pos | pred | TP | precision | recall | quote J>=0.5 |",
             "|---|---|---:|---:|---:|---:|---:|---:|"]
    for s in scores:
        lines.append(f"| {s.category} | {s.item or '(none)'} | {s.positives} | {s.predicted} | {s.tp} | "
                     f"{f(s.precision)} | {f(s.recall)} | {f(s.quote_rate)} |")
    return "\n".join(lines)
