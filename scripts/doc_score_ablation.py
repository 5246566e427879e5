"""Compare document decisions out of fold on CUAD txt: the best unit alone vs. the noisy-or of the best k.

    python scripts/doc_score_ablation.py [--labels ../shared/datasets/cuad-dev/labels.csv] [--k 5] [--recall 0.8 0.85 0.9]

Units are scored by fold models that never saw their document (training.folds_of, training.fit);
each fold's threshold is chosen on the other folds' scores (training.choose_threshold at each F-beta),
as agents.evaluate --cv does. Reads txt, not PDFs, and leaves out the `strong` patterns: a quick
comparison of the aggregations, not the headline number (docs/EVALUATION.md).

Then a bound for the shipped aggregation (agents.evaluation.frontier), with MFN's `strong` patterns as
review applies them: the best macro precision over the headline categories that any thresholds, picked
knowing the labels, give at each macro recall in --recall, and the highest macro recall any thresholds
reach; once as shipped, once without the MIN_PROB floor (every unit that passes its gate ranked).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.evaluation.frontier import best_macro_precision  # noqa: E402
from agents.evaluation.labels import load_labels  # noqa: E402
from agents.evaluation.metrics import HEADLINE  # noqa: E402
from agents.offline import training as T  # noqa: E402
from agents.offline.model import MIN_PROB, document_scores  # noqa: E402
from agents.offline.patterns import ITEM_PATTERNS  # noqa: E402
from core.checklist import load_checklist  # noqa: E402
from core.settings import REPO_ROOT, get_settings  # noqa: E402

# name -> k of model.document_scores (None: every unit)
AGGREGATIONS = {"best unit": 1, "noisy-or, best 2": 2, "noisy-or, best 3 (shipped)": 3, "noisy-or, all units": None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, default=REPO_ROOT.parent / "shared" / "datasets" / "cuad-dev" / "labels.csv")
    ap.add_argument("--k", type=int, default=5)
    ap.add_argument("--recall", type=float, nargs="+", default=[0.8, 0.85, 0.9],
                    help="macro recalls the precision bound is read at (the per-category table: the last reachable)")
    args = ap.parse_args(argv)
    item_of = T.cuad_item_map(load_checklist(get_settings().checklist_path))
    all_cats, contracts = load_labels(args.labels)
    cats = [c for c in all_cats if c in item_of]
    docs = [T.build_doc(c, cats, item_of) for c in contracts]
    fold = T.folds_of(docs, args.k)
    # every gated unit ranked, none zeroed under MIN_PROB; the shipped scores are these with the floor applied
    unfloored: list[np.ndarray] = [np.zeros((0, len(cats)))] * len(docs)
    for f in range(args.k):
        model = T.fit([d for d, g in zip(docs, fold) if g != f], cats, item_of)
        for i, d in enumerate(docs):
            if fold[i] == f:
                unfloored[i] = model.gated_probs(d.texts, d.feats, gates=d.gates, min_prob=0.0)
    probs = [np.where(p < MIN_PROB, 0.0, p) for p in unfloored]
    present = np.vstack([d.present for d in docs])
    heads = [j for j, c in enumerate(cats) if c in HEADLINE]
    print(f"{len(docs)} contracts, {args.k} folds; macro over the {len(heads)} headline categories")
    print(f"| aggregation | F-beta | precision | recall |\n|---|---:|---:|---:|")
    for name, k in AGGREGATIONS.items():
        scores = np.vstack([document_scores(p, len(p) if k is None else k) for p in probs])
        for beta in (1.0, 1.5, 2.0):
            prec, rec = [], []
            for j in heads:
                tp = fp = 0
                for f in range(args.k):
                    rest = np.array([g != f for g in fold])
                    t = T.choose_threshold(scores[rest, j], present[rest, j], beta=beta)
                    pred = scores[~rest, j] >= t
                    tp += int((pred & present[~rest, j]).sum())
                    fp += int((pred & ~present[~rest, j]).sum())
                prec.append(tp / (tp + fp) if tp + fp else 0.0)
                rec.append(tp / int(present[:, j].sum()))
            print(f"| {name} | {beta:g} | {np.mean(prec):.4f} | {np.mean(rec):.4f} |")
    for label, ps in (("shipped", probs), ("without the MIN_PROB floor", unfloored)):
        _print_bound(_with_strong(np.vstack([document_scores(p) for p in ps]), docs, cats, item_of),
                     present, heads, cats, args.recall, label)
    return 0


def _with_strong(scores: np.ndarray, docs: list[T.TrainDoc], cats: list[str], item_of: dict[str, str]) -> np.ndarray:
    """Scores as the reviewer decides: a gated unit in an item's `strong` wording reports whatever the threshold.

    Only for items with one category (most_favored_nation among the headline ones); a multi-category
    item tags the category its classifier leans to, which the txt units here do not replay.
    """
    out = scores.copy()
    per_item: dict[str, list[int]] = {}
    for j, c in enumerate(cats):
        per_item.setdefault(item_of[c], []).append(j)
    for item, cols in per_item.items():
        strong = ITEM_PATTERNS[item].strong if item in ITEM_PATTERNS else []
        if len(cols) != 1 or not strong:
            continue
        for i, d in enumerate(docs):
            if any(d.gates[item][u] and any(p.search(t) for p in strong) for u, t in enumerate(d.texts)):
                out[i, cols[0]] = max(out[i, cols[0]], 1.0)
    return out


def _print_bound(scores: np.ndarray, present: np.ndarray, heads: list[int], cats: list[str],
                 recalls: list[float], label: str) -> None:
    """The best macro precision thresholds chosen with the labels could give, shipped aggregation.

    A threshold at or under 1.0 keeps every strong-pattern document, as review does; above it, the
    category reports nothing. So the bound covers every threshold the reviewer could ship. A positive
    document scoring 0 (its units gated out, or all under MIN_PROB) is out of reach of any threshold.
    """
    sc, pr = scores[:, heads], present[:, heads]
    ceiling = [float((sc[pr[:, k], k] > 0).mean()) for k in range(len(heads))]
    print(f"\nBound ({label}): thresholds picked knowing the labels, jointly over the {len(heads)}, "
          "noisy-or of the best 3")
    print(f"Highest macro recall any thresholds reach: {np.mean(ceiling):.4f}")
    print("| macro recall at least | best macro precision |\n|---:|---:|")
    shown: list = []
    for r in recalls:
        best, points = best_macro_precision(sc, pr, r)
        print(f"| {r:g} | {best:.4f} |" if points else f"| {r:g} | unreachable |")
        shown = points or shown
    print("| CUAD category | positives | highest recall | bound's precision | bound's recall |\n|---|---:|---:|---:|---:|")
    for k, j in enumerate(heads):
        pt = f"{shown[k].precision:.2f} | {shown[k].recall:.2f}" if shown else "- | -"
        print(f"| {cats[j]} | {int(pr[:, k].sum())} | {ceiling[k]:.2f} | {pt} |")


if __name__ == "__main__":
    raise SystemExit(main())
