"""The macro-precision bound: exact on hand-checked cases and against brute force."""

from __future__ import annotations

import itertools

import numpy as np

from agents.evaluation.frontier import best_macro_precision, operating_points


def test_one_category_picks_the_most_precise_threshold_that_keeps_the_recall():
    scores = np.array([[0.9], [0.8], [0.7], [0.6], [0.1]])
    present = np.array([[True], [False], [True], [False], [True]])
    p, pts = best_macro_precision(scores, present, 2 / 3)
    assert pts[0].threshold == 0.7 and (pts[0].tp, pts[0].predicted) == (2, 3)
    assert abs(p - 2 / 3) < 1e-12
    p, pts = best_macro_precision(scores, present, 1.0)
    assert pts[0].threshold == 0.1 and abs(p - 0.6) < 1e-12


def test_categories_trade_recall_to_raise_the_mean_precision():
    # Category 0 is clean at full recall; category 1 can only reach full recall at precision 0.5.
    scores = np.array([[0.9, 0.9], [0.8, 0.2], [0.1, 0.5], [0.1, 0.4]])
    present = np.array([[True, True], [True, True], [False, False], [False, False]])
    p, pts = best_macro_precision(scores, present, 0.75)
    assert [pt.threshold for pt in pts] == [0.8, 0.9]  # category 1 keeps half its recall at precision 1
    assert abs(p - 1.0) < 1e-12
    p, _ = best_macro_precision(scores, present, 1.0)
    assert abs(p - 0.75) < 1e-12


def test_unreachable_recall_and_never_predicted_categories():
    scores = np.array([[0.0], [0.0]])
    present = np.array([[True], [False]])
    assert best_macro_precision(scores, present, 0.5) == (-1.0, [])
    assert operating_points(scores[:, 0], present[:, 0])[0].precision == 0.0


def test_matches_brute_force_on_random_scores():
    rng = np.random.RandomState(3)
    for trial in range(20):
        scores = np.round(rng.rand(9, 3), 1)
        present = rng.rand(9, 3) < 0.4
        present[0] = True  # every category has a positive
        target = [0.5, 0.7, 0.9][trial % 3]
        got, _ = best_macro_precision(scores, present, target)
        want = -1.0
        for combo in itertools.product(*[operating_points(scores[:, j], present[:, j]) for j in range(3)]):
            if np.mean([pt.recall for pt in combo]) >= target - 1e-9:
                want = max(want, float(np.mean([pt.precision for pt in combo])))
        assert abs(got - want) < 1e-9, (trial, got, want)
