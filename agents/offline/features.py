"""Sparse features of a clause unit: idf-weighted word uni/bigrams plus pattern hits.

One function builds the features at training time (scripts/train_reviewer.py)
and at review time, so the two cannot drift apart. Numbers collapse to one
token: amounts and dates vary between contracts, their presence does not.
"""

from __future__ import annotations

import re

import numpy as np

from agents.offline.patterns import pattern_features

_WORD_RE = re.compile(r"[a-z]+|\d+")


def tokens(text: str) -> list[str]:
    return ["0" if t[0].isdigit() else t for t in _WORD_RE.findall(text.lower())]


HEAD_TOKENS = 4


def ngram_features(text: str) -> list[str]:
    """Uni/bigrams, plus the first words marked 'h:' — where a heading sits (units keep theirs)."""
    toks = tokens(text)
    grams = set(toks)
    grams.update(f"{a} {b}" for a, b in zip(toks, toks[1:]))
    grams.update("h:" + t for t in [t for t in toks if t != "0"][:HEAD_TOKENS])
    return sorted(grams)


def unit_features(text: str) -> tuple[list[str], list[str]]:
    """(word n-grams, pattern feature names) of one unit."""
    return ngram_features(text), pattern_features(text)


def vectorize(
    feats: list[tuple[list[str], list[str]]], vocab: dict[str, int], idf: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR parts (indptr, indices, data) of the feature matrix.

    N-grams get idf weights, L2-normalised per unit so long clauses are not
    favoured; pattern hits are binary and added after normalisation so their
    weight does not shrink with clause length.
    """
    indptr = [0]
    indices: list[int] = []
    data: list[float] = []
    for grams, pats in feats:
        idx = [vocab[g] for g in grams if g in vocab]
        if idx:
            w = idf[idx]
            w = w / np.sqrt(float(np.dot(w, w)))
            indices.extend(idx)
            data.extend(w.tolist())
        pidx = [vocab[p] for p in pats if p in vocab]
        indices.extend(pidx)
        data.extend([1.0] * len(pidx))
        indptr.append(len(indices))
    return (
        np.asarray(indptr, dtype=np.int64),
        np.asarray(indices, dtype=np.int64),
        np.asarray(data, dtype=np.float64),
    )


def sparse_dot(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray, coef: np.ndarray) -> np.ndarray:
    """(n_units, n_classes) = X @ coef for CSR X, in numpy only (no scipy at run time)."""
    if len(indices) == 0:
        return np.zeros((len(indptr) - 1, coef.shape[1]), dtype=np.float64)
    contrib = coef[indices].astype(np.float64) * data[:, None]
    # Row sums as differences of a running sum: one vectorised pass, and
    # empty rows come out as exact zeros.
    cs = np.vstack([np.zeros((1, coef.shape[1])), np.cumsum(contrib, axis=0)])
    return cs[indptr[1:]] - cs[indptr[:-1]]
