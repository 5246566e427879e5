"""How finding text reads: fallback sentences, quotes cut mid-sentence, citations with a section.

    python scripts/finding_text_stats.py RUN_DIR [RUN_DIR ...]     # a run's findings.json (workspace/runs/<run>)
    python scripts/finding_text_stats.py --cuad [--labels PATH] [--exclude-room DIR]

RUN_DIR: over the run's non-informational findings, the share whose summary is the category's fallback
sentence (agents.offline.clauses.clause_summary.is_template), whose summary knows who acts but not on what
("may not compete", "in the field the clause covers": is_placeholder), whose quote starts or ends mid-sentence, and
whose citation names a section. --cuad: the offline reviewer over every cuad-dev txt contract, summaries
restated with the contract's parties as a run does, fallback share per half of agents.evaluation.facts
(development / held-out); --exclude-room DIR reports the held-out contracts whose PDF is in DIR apart
(contracts whose findings were read while writing rules). The figures are in docs/EVALUATION.md.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.offline.clauses.fallbacks import is_placeholder, is_template  # noqa: E402

_STARTS = re.compile(r'^(\(?[0-9ivxa-z]{1,4}[.)]|[A-Z"\u201c(\d])')
_ENDS = re.compile(r'[.;:!?]["\')\]\u201d]*$')


def fragment(quote: str) -> bool:
    """A quote that does not start like a sentence or a numbered clause, or does not end on a stop."""
    q = quote.strip()
    return not (_STARTS.match(q) and _ENDS.search(q))


def run_stats(run_dir: Path) -> dict:
    fs = [f for f in json.loads((run_dir / "findings.json").read_text()) if f["severity"] != "info"]
    n = len(fs) or 1
    return {
        "run": run_dir.name,
        "findings": len(fs),
        "fallback": sum(is_template(f["summary"], [f["category"], *f.get("also", [])]) for f in fs) / n,
        "placeholder": sum(is_placeholder(f["summary"]) for f in fs) / n,
        "fragment_quotes": sum(fragment(f["quote"]) for f in fs) / n,
        "with_section": sum(bool(f["citation"].get("section")) for f in fs) / n,
    }


def cuad_stats(labels: Path, exclude_room: Path | None) -> dict:
    from agents.evaluation.facts import half
    from agents.evaluation.labels import load_labels
    from agents.evaluation.sources import txt_documents
    from agents.facts import extract_facts
    from agents.offline import OfflineReviewer
    from agents.offline.fact_findings import FACT_CATEGORIES
    from agents.offline.reviewer import complete_sentences, restate
    from agents.passages import join_same_passages
    from core.checklist import load_checklist
    from core.settings import get_settings

    _, contracts = load_labels(labels)
    items = load_checklist(get_settings().checklist_path)
    in_room = {p.name.split("_")[0] for p in exclude_room.iterdir()} if exclude_room else set()
    reviewer = OfflineReviewer()
    facts = {i.id for i in items if set(i.cuad_categories) & set(FACT_CATEGORIES)}
    total, fallback, cut, vague = Counter(), Counter(), Counter(), Counter()
    for con, doc, chunks, text in txt_documents(contracts):
        group = half(con.name)
        if group == "held_out" and con.name.split("_")[0] in in_room:
            group = "held_out_in_room"
        # as a run shows them (agents.nodes.review): sentences completed across chunks, parties named, one
        # finding per passage
        found = complete_sentences(reviewer.review(doc, chunks, items), text, chunks, items)
        for f in join_same_passages(restate(found, items, extract_facts(text).parties), keep_apart=facts):
            if f.severity.value == "info":
                continue
            total[group] += 1
            fallback[group] += is_template(f.summary, f.items)
            cut[group] += fragment(f.quote)
            vague[group] += is_placeholder(f.summary)
    return {g: {"findings": total[g], "fallback": fallback[g] / total[g], "placeholder": vague[g] / total[g],
                "fragment_quotes": cut[g] / total[g]} for g in total}


def main(argv: list[str] | None = None) -> int:
    from agents.evaluation.facts import DEFAULT_LABELS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="*", type=Path)
    ap.add_argument("--cuad", action="store_true")
    ap.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    ap.add_argument("--exclude-room", type=Path)
    args = ap.parse_args(argv)
    out = [run_stats(r) for r in args.runs]
    if args.cuad:
        out.append({"cuad": cuad_stats(args.labels, args.exclude_room)})
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
