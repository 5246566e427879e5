"""Compare document decisions out of fold on CUAD txt: the best unit alone vs. the noisy-or of the best k.

    python scripts/doc_score_ablation.py [--labels ../shared/datasets/cuad-dev/labels.csv] [--k 5]

Units are scored by fold models that never saw their document (training.folds_of, training.fit);
each fold's threshold is chosen on the other folds' scores (training.choose_threshold at each F-beta),
as agents.evaluate --cv does. Reads txt, not PDFs, and leaves out the `strong` patterns: a quick
comparison of the aggregations, not the headline number (docs/EVALUATION.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.evaluation.labels import load_labels  # noqa: E402
from agents.evaluation.metrics import HEADLINE  # noqa: E402
from agents.offline import training as T  # noqa: E402
from agents.offline.model import document_scores  # noqa: E402
from core.checklist import load_checklist  # noqa: E402
from core.settings import REPO_ROOT, get_settings  # noqa: E402

# name -> k of model.document_scores (None: every unit)
AGGREGATIONS = {"best unit": 1, "noisy-or, best 2": 2, "noisy-or, best 3 (shipped)": 3, "noisy-or, all units": None}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, default=REPO_ROOT.parent / "shared" / "datasets" / "cuad-dev" / "labels.csv")
    ap.add_argument("--k", type=int, default=5)
    args = ap.parse_args(argv)
    item_of = T.cuad_item_map(load_checklist(get_settings().checklist_path))
    all_cats, contracts = load_labels(args.labels)
    cats = [c for c in all_cats if c in item_of]
    docs = [T.build_doc(c, cats, item_of) for c in contracts]
    fold = T.folds_of(docs, args.k)
    probs: list[np.ndarray] = [np.zeros((0, len(cats)))] * len(docs)
    for f in range(args.k):
        model = T.fit([d for d, g in zip(docs, fold) if g != f], cats, item_of)
        for i, d in enumerate(docs):
            if fold[i] == f:
                probs[i] = model.gated_probs(d.texts, d.feats, gates=d.gates)
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
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
