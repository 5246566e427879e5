"""Train the clause classifier on CUAD-style labels and pick document-level thresholds.

Units of each contract's txt are labelled positive for a category when they
overlap a gold passage; one L2 logistic regression per category is fitted on
all units. A document is predicted to contain a category when the noisy-or of its best
gated units (model.document_scores) reaches the category's threshold; thresholds are chosen on
out-of-fold scores (documents split into folds), never on in-sample scores,
which would be overconfident: the one maximising F2 (recall-weighted). scikit-learn is imported here only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from agents.evaluation.labels import LabelledContract, gold_pieces
from agents.offline.fact_findings import FACT_CATEGORIES
from agents.offline.features import unit_features, vectorize
from agents.offline.model import MIN_PROB, ReviewerModel, document_scores
from agents.offline.patterns import CATEGORY_GATES, gate
from agents.offline.units import unit_spans
from core.text import locate_quote

MIN_DF = 3
C_REG = 16.0  # chosen by 5-fold CV on cuad-dev among 1, 4, 16 (out-of-fold document scores)
CLASS_WEIGHT: str | None = None
MIN_POSITIVES = 3
# Recall matters more than precision in diligence (a missed consent right
# costs more than a false alarm a reviewer dismisses), so thresholds maximise F2.
# A precision floor (choose_threshold's `floor`) was weighed on cuad-dev
# out-of-fold scores: it bought ~0.02 macro precision for ~0.04 recall, and the
# floors picked on four folds did not hold on the fifth, so it is off by default.
PRECISION_FLOOR: float | None = None
MIN_FLOOR_RECALL = 0.5
F_BETA = 2.0


@dataclass
class TrainDoc:
    name: str
    texts: list[str]
    feats: list[tuple[list[str], list[str]]]
    labels: np.ndarray  # (n_units, n_categories) bool
    present: np.ndarray  # (n_categories,) bool
    gates: dict[str, np.ndarray]  # item id -> (n_units,) bool: unit uses the item's clause language


def _gold_spans(text: str, passages: list[str]) -> list[tuple[int, int]]:
    spans = []
    for p in passages:
        for piece in gold_pieces(p):
            loc = locate_quote(piece, text)
            if loc:
                spans.append(loc)
    return spans


def build_doc(contract: LabelledContract, categories: list[str], item_of: dict[str, str]) -> TrainDoc:
    text = contract.text()
    spans = unit_spans(text)
    texts = [text[s:e] for s, e in spans]
    labels = np.zeros((len(spans), len(categories)), dtype=bool)
    for j, cat in enumerate(categories):
        for gs, ge in _gold_spans(text, contract.passages.get(cat, [])):
            for i, (s, e) in enumerate(spans):
                ov = min(e, ge) - max(s, gs)
                if ov > 0 and (ov >= 0.5 * (e - s) or ov >= 0.5 * (ge - gs)):
                    labels[i, j] = True
    present = np.array([contract.present.get(c, False) for c in categories], dtype=bool)
    gates = {it: np.array([gate(it, t) for t in texts], dtype=bool) for it in sorted(set(item_of.values()))}
    return TrainDoc(contract.name, texts, [unit_features(t) for t in texts], labels, present, gates)


def fit(docs: list[TrainDoc], categories: list[str], item_of: dict[str, str]) -> ReviewerModel:
    """One logistic regression per category on the units of `docs` (thresholds unset).

    Each category's model is fitted only on units that pass its item's gate:
    the others score zero at review time anyway, and training on the
    look-alikes teaches the model the distinctions that matter (and is fast).
    """
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    df: dict[str, int] = {}
    pats: set[str] = set()
    for d in docs:
        for grams, p in d.feats:
            for g in grams:
                df[g] = df.get(g, 0) + 1
            pats.update(p)
    n_units = sum(len(d.texts) for d in docs)
    words = sorted(g for g, c in df.items() if c >= MIN_DF) + sorted(pats)
    vocab = {w: i for i, w in enumerate(words)}
    idf = np.array([math.log((1 + n_units) / (1 + df.get(w, 0))) + 1.0 for w in words])
    feats = [f for d in docs for f in d.feats]
    indptr, indices, data = vectorize(feats, vocab, idf)
    X = csr_matrix((data, indices, indptr), shape=(len(feats), len(words)))
    Y = np.vstack([d.labels for d in docs])
    G = {it: np.concatenate([d.gates[it] for d in docs]) for it in sorted(set(item_of.values()))}
    coef = np.zeros((len(words), len(categories)), dtype=np.float32)
    intercept = np.full(len(categories), -20.0)
    for j in range(len(categories)):
        rows = np.nonzero(G[item_of[categories[j]]])[0]
        y = Y[rows, j]
        if y.sum() < MIN_POSITIVES or y.all():
            continue  # too few examples to learn from: the category stays silent
        clf = LogisticRegression(C=C_REG, class_weight=CLASS_WEIGHT, solver="lbfgs", max_iter=500)
        clf.fit(X[rows], y)
        coef[:, j] = clf.coef_[0].astype(np.float32)
        intercept[j] = float(clf.intercept_[0])
    return ReviewerModel(categories, dict(item_of), vocab, idf.astype(np.float32).astype(np.float64),
                         coef, intercept.astype(np.float32).astype(np.float64))


def doc_scores(model: ReviewerModel, doc: TrainDoc) -> np.ndarray:
    """(n_categories,) document score of each category (model.document_scores of the gated units)."""
    return document_scores(model.gated_probs(doc.texts, doc.feats, gates=doc.gates))


def folds_of(docs: list[TrainDoc], k: int, seed: int = 0) -> list[int]:
    """Fold index per document; a fixed shuffle so folds mix contract types."""
    order = np.random.RandomState(seed).permutation(len(docs))
    fold = [0] * len(docs)
    for rank, i in enumerate(order):
        fold[i] = rank % k
    return fold


def oof_scores(docs: list[TrainDoc], categories: list[str], item_of: dict[str, str], k: int) -> np.ndarray:
    """(n_docs, n_categories) document scores, each from a model that never saw that document."""
    return _oof(docs, categories, item_of, k)[0]


def _oof(docs, categories, item_of, k) -> tuple[np.ndarray, list[ReviewerModel], list[int]]:
    fold = folds_of(docs, k)
    out = np.zeros((len(docs), len(categories)))
    models = []
    for f in range(k):
        train = [d for d, g in zip(docs, fold) if g != f]
        model = fit(train, categories, item_of)
        models.append(model)
        for i, d in enumerate(docs):
            if fold[i] == f:
                out[i] = doc_scores(model, d)
    return out, models, fold


def cv_models(docs: list[TrainDoc], categories: list[str], item_of: dict[str, str], k: int) -> tuple[list[ReviewerModel], list[int]]:
    """One model per fold, trained without that fold, for cross-validated evaluation.

    Fold f's thresholds are chosen on the out-of-fold scores of the other
    folds' documents only, so no label of fold f is used to train or to
    calibrate the model that scores it (k fits instead of a nested k*(k-1)).
    """
    oof, models, fold = _oof(docs, categories, item_of, k)
    present = np.vstack([d.present for d in docs])
    for f, model in enumerate(models):
        rest = np.array([g != f for g in fold])
        model.thresholds = {c: choose_threshold(oof[rest, j], present[rest, j]) for j, c in enumerate(categories)}
    return models, fold


def choose_threshold(scores: np.ndarray, present: np.ndarray, floor: float | None = PRECISION_FLOOR,
                     min_recall: float = MIN_FLOOR_RECALL, beta: float = F_BETA) -> float:
    """Document-level threshold maximising F-beta (ties: the higher threshold).

    With a precision `floor`: the lowest threshold (most recall) whose precision
    is at least the floor, unless that keeps less than `min_recall` of the
    positives (the classifier cannot separate the category that cleanly), where
    F-beta decides as without a floor.
    """
    # Only scores a review can produce: gated_probs zeroes everything under MIN_PROB.
    cands = sorted({float(s) for s in scores if s >= MIN_PROB}, reverse=True)
    n_pos = int(present.sum())
    floor_t, floor_tp = 1.01, 0
    fb_t, fb_f = 1.01, -1.0
    for t in cands:
        pred = scores >= t
        tp = int((pred & present).sum())
        fp = int((pred & ~present).sum())
        fn = n_pos - tp
        if floor is not None and tp > floor_tp and tp / (tp + fp) >= floor:
            floor_t, floor_tp = t, tp
        denom = (1 + beta**2) * tp + beta**2 * fn + fp
        f = (1 + beta**2) * tp / denom if denom else 0.0
        if f > fb_f + 1e-12:
            fb_f, fb_t = f, t
    best_t = floor_t if n_pos and floor_tp >= min_recall * n_pos else fb_t
    if best_t <= 1.0:
        # Halfway to the next lower score, so a document just under the chosen one is not a coin toss.
        lower = [s for s in cands if s < best_t]
        best_t = max(MIN_PROB, (best_t + lower[0]) / 2 if lower else MIN_PROB)
    return round(best_t, 6)


def train_model(docs: list[TrainDoc], categories: list[str], item_of: dict[str, str], k: int = 5) -> tuple[ReviewerModel, np.ndarray]:
    """Final model on all `docs`, thresholds from k-fold out-of-fold scores; also returns those scores."""
    oof = oof_scores(docs, categories, item_of, k)
    present = np.vstack([d.present for d in docs])
    model = fit(docs, categories, item_of)
    model.thresholds = {c: choose_threshold(oof[:, j], present[:, j]) for j, c in enumerate(categories)}
    return model, oof


def cuad_item_map(items) -> dict[str, str]:
    """CUAD category → the patterns that gate its classifier: the checklist item that lists it in
    `cuad_categories` (first item wins), or the category's own gate (patterns.CATEGORY_GATES). Categories
    read from the agreement's facts (fact_findings.FACT_CATEGORIES) have no classifier and are left out."""
    out: dict[str, str] = {}
    for it in items:
        for c in it.cuad_categories:
            if c not in FACT_CATEGORIES:
                out.setdefault(c, CATEGORY_GATES.get(c, it.id))
    return out
