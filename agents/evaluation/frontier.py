"""The best macro precision any per-category thresholds could reach at a macro recall target.

An upper bound for a scorer: each category's threshold is picked knowing the
labels, jointly, so that the mean recall over the categories reaches the target
and the mean precision is as high as it can be. If this bound stays under an
acceptance target, no choice of thresholds can meet it, and only a better
ranking of the documents (a better model) can.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_SCALE = 1_000_000  # recall as integer millionths, so sums compare exactly enough


@dataclass(frozen=True)
class OperatingPoint:
    threshold: float  # predict when score >= threshold; inf: predict nothing
    tp: int
    predicted: int
    positives: int

    @property
    def precision(self) -> float:
        return self.tp / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.tp / self.positives if self.positives else 0.0


def operating_points(scores: np.ndarray, present: np.ndarray) -> list[OperatingPoint]:
    """Every distinct threshold on one category's document scores, plus predicting nothing."""
    pos = int(present.sum())
    pts = [OperatingPoint(float("inf"), 0, 0, pos)]
    for t in sorted({float(s) for s in scores if s > 0}, reverse=True):
        pred = scores >= t
        pts.append(OperatingPoint(t, int((pred & present).sum()), int(pred.sum()), pos))
    return pts


def best_macro_precision(scores: np.ndarray, present: np.ndarray, min_macro_recall: float) -> tuple[float, list[OperatingPoint]]:
    """(best mean precision, one operating point per column) with mean recall >= min_macro_recall.

    `scores` and `present` are (n_docs, n_categories). A category predicted
    nowhere counts as precision 0, as in the evaluation. Exact search over the
    Pareto front of (recall sum, precision sum); returns (-1.0, []) when no
    thresholds reach the recall target.
    """
    n = scores.shape[1]
    need = int(np.ceil(min_macro_recall * n * _SCALE - 1e-6))
    # front: recall-sum -> (precision-sum, chosen points), pruned to non-dominated states
    front: dict[int, tuple[float, tuple[OperatingPoint, ...]]] = {0: (0.0, ())}
    for j in range(n):
        pts = operating_points(scores[:, j], present[:, j])
        nxt: dict[int, tuple[float, tuple[OperatingPoint, ...]]] = {}
        for r, (p, chosen) in front.items():
            for pt in pts:
                key = r + round(pt.recall * _SCALE)
                val = p + pt.precision
                if key not in nxt or val > nxt[key][0]:
                    nxt[key] = (val, chosen + (pt,))
        front = {}
        best = -1.0
        for key in sorted(nxt, reverse=True):  # keep a state only if no higher recall has more precision
            if nxt[key][0] > best:
                front[key] = nxt[key]
                best = nxt[key][0]
    ok = [(p, chosen) for r, (p, chosen) in front.items() if r >= need]
    if not ok:
        return -1.0, []
    p, chosen = max(ok, key=lambda x: x[0])
    return p / n, list(chosen)
