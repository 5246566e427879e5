"""Score the review table's typed answers against CUAD's `-Answer` columns.

For each contract the table's answers are derived exactly as the app derives them (agents.table.answers over
the document's agreement facts and the reviewer's findings) and compared per CUAD category:
- Parties: bag-of-tokens F1 of the answer (names with their defined terms) against `Parties-Answer`, with the
  normalisation of agents.evaluation.facts (articles and the words party/parties/individually/collectively
  dropped).
- Agreement / Effective / Expiration Date: exact ISO date after normalising CUAD's M/D/YYYY; "not found"
  counts both ways (agents.evaluation.facts.date_match).
- Governing Law: jurisdiction match (agents.evaluation.facts.law_match).
- Renewal Term / Notice Period to Terminate Renewal: the length of time (days, months, years) equal to the
  first one CUAD's answer states; not found both ways.
- Document Name: token F1 of the title.
- The 33 Yes/No categories: accuracy of the answer (yes when a finding answers the category) against CUAD's
  Yes/No; `Yes/No (mean of 33)` is their mean.

Each field is `{"score": x, "n": n, "dev": {...}, "held_out": {...}}`: the mean over the contracts scored, and
over each half of agents.evaluation.facts' fixed split (sha256 of the file name), so a figure can be read on
the contracts no rule was written against.
"""

from __future__ import annotations

from core.types import ChecklistItem, Finding

from agents.evaluation.facts import HALVES, date_match, half, law_match, party_f1, token_f1
from agents.evaluation.labels import LabelledContract
from agents.facts import extract_facts
from agents.table.answers import Answer, AnswerStatus, answer_document, durations
from agents.table.columns import AnswerType, cuad_columns

YES_NO_MEAN = "Yes/No (mean of 33)"


def _duration_key(text: str) -> str | None:
    found = durations(text)
    return found[0][0].rsplit("(", 1)[-1].rstrip(")") if found else None


def score_answer(category: str, kind: AnswerType, answer: Answer | None, gold: str, present: bool) -> float:
    value = answer.value if answer is not None and answer.status is AnswerStatus.answered else ""
    if kind is AnswerType.yes_no:
        return float((answer is not None and answer.value == "yes") == present)
    if kind is AnswerType.parties:
        return party_f1(value, gold)
    if kind is AnswerType.date:
        return float(date_match(value or None, gold))
    if kind is AnswerType.jurisdiction:
        return float(law_match(value, gold))
    if kind is AnswerType.duration:
        want = _duration_key(gold)
        return float(_duration_key(value) == want) if value else float(want is None)
    return token_f1(value, gold)


def answer_scores(contracts: list[LabelledContract], texts: dict[str, str], gold: dict[str, dict[str, str]],
                  findings: dict[str, list[Finding]], items: list[ChecklistItem]) -> dict[str, dict[str, float]]:
    """{field: {"score", "n"}} over the contracts with a text. `texts`/`findings`: by contract name; `gold`:
    contract name -> {category: its `-Answer`}."""
    columns = cuad_columns()
    item_cuad = {i.id: list(i.cuad_categories) for i in items}
    per: dict[str, list[float]] = {c.cuad: [] for c in columns}
    halves: dict[str, dict[str, list[float]]] = {h: {c.cuad: [] for c in columns} for h in HALVES}
    for con in contracts:
        text = texts.get(con.name)
        if text is None:
            continue
        facts = extract_facts(text).model_dump(mode="json")
        citable = [f for f in findings.get(con.name, []) if f.verified]
        got = {a.column_id: a for a in answer_document(con.name, text, facts, citable, columns, item_cuad)}
        for col in columns:
            x = score_answer(col.cuad, col.type, got.get(col.id), gold.get(con.name, {}).get(col.cuad, ""),
                             con.present.get(col.cuad, False))
            per[col.cuad].append(x)
            halves[half(con.name)][col.cuad].append(x)
    out = {cat: {"score": _mean(v), "n": len(v), **{h: {"score": _mean(halves[h][cat]), "n": len(halves[h][cat])}
                                                     for h in HALVES}}
           for cat, v in per.items() if v}
    yes_no = [c.cuad for c in columns if c.type is AnswerType.yes_no and c.cuad in out]
    if yes_no:
        out[YES_NO_MEAN] = {"score": _mean([out[c]["score"] for c in yes_no]), "n": len(yes_no),
                            **{h: {"score": _mean([x for c in yes_no if (x := out[c][h]["score"]) is not None]),
                                   "n": len(yes_no)} for h in HALVES}}
    return out


def _mean(xs: list[float]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


def gold_answers(labels_csv) -> dict[str, dict[str, str]]:
    """Contract name -> {category: `-Answer` text}, read from labels.csv."""
    import csv

    with open(labels_csv, encoding="utf-8", newline="") as fh:
        return {r["Filename"]: {k[:-len("-Answer")]: (v or "").strip() for k, v in r.items() if k.endswith("-Answer")}
                for r in csv.DictReader(fh)}


def table(scores: dict[str, dict]) -> str:
    lines = ["| answer | all | n | dev half | held-out half |", "|---|---:|---:|---:|---:|"]
    def f(x: float | None) -> str:
        return "–" if x is None else f"{x:.3f}"

    lines += [f"| {k} | {f(v['score'])} | {v['n']} | {f(v['dev']['score'])} | {f(v['held_out']['score'])} |"
              for k, v in scores.items()]
    return "\n".join(lines)
