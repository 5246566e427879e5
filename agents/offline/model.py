"""The trained clause classifier: vocabulary, idf, one logistic regression per CUAD category.

Stored as a small zip (assets/reviewer/model.zip) of JSON and raw little-endian
arrays with fixed timestamps, so `python scripts/train_reviewer.py` rebuilds it
byte for byte. Scoring is numpy only; scikit-learn is needed to train, not to review.
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents.offline.features import sparse_dot, unit_features, vectorize
from agents.offline.patterns import gate
from core.settings import ASSETS

DEFAULT_MODEL_PATH = ASSETS / "reviewer" / "model.zip"
_ZIP_DATE = (2020, 1, 1, 0, 0, 0)
MIN_PROB = 0.02
DOC_TOP_K = 3


def top_units(probs: np.ndarray, k: int = DOC_TOP_K) -> np.ndarray:
    """(k, n_categories) rows of each category's k best units (fewer when the document has fewer)."""
    return np.argsort(-probs, axis=0, kind="stable")[:k]


def document_scores(probs: np.ndarray, k: int = DOC_TOP_K) -> np.ndarray:
    """(n_categories,) evidence that a document holds each category, from its units' gated probabilities.

    Noisy-or of the k best units (top_units; DOC_TOP_K as shipped): one clear clause decides alone, and two
    or three middling ones (an exclusivity spread over sub-clauses, a licence
    granted in pieces) add up where the best unit alone would fall short
    (scripts/doc_score_ablation.py compares it with the best unit alone).
    """
    top = np.take_along_axis(probs, top_units(probs, k), axis=0)
    return 1.0 - np.prod(1.0 - top, axis=0)


@dataclass
class ReviewerModel:
    categories: list[str]
    item_of: dict[str, str]
    vocab: dict[str, int]
    idf: np.ndarray
    coef: np.ndarray  # (n_features, n_categories), float32
    intercept: np.ndarray  # (n_categories,)
    thresholds: dict[str, float] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    def unit_probs(self, texts: list[str], feats: list | None = None) -> np.ndarray:
        """(n_units, n_categories) probabilities that each unit is a clause of each category."""
        if not texts:
            return np.zeros((0, len(self.categories)))
        if feats is None:
            feats = [unit_features(t) for t in texts]
        indptr, indices, data = vectorize(feats, self.vocab, self.idf)
        z = sparse_dot(indptr, indices, data, self.coef) + self.intercept[None, :]
        return 1.0 / (1.0 + np.exp(-z))

    def gated_probs(self, texts: list[str], feats: list | None = None,
                    gates: dict[str, np.ndarray] | None = None, min_prob: float = MIN_PROB) -> np.ndarray:
        """unit_probs with zeros where the unit lacks the category's clause language.

        Units scoring under `min_prob` (MIN_PROB) are zeroed without running the patterns:
        no threshold is that low, and it keeps review fast (scripts/doc_score_ablation.py
        passes 0 to measure what the floor costs). `gates` (item id ->
        (n_units,) bool), when given, replaces running the patterns: training
        computes them once per contract and scores the same units many times.
        """
        probs = self.unit_probs(texts, feats)
        probs[probs < min_prob] = 0.0
        seen: dict[tuple[str, int], bool] = {}
        for i, j in zip(*np.nonzero(probs)):
            item = self.item_of.get(self.categories[j], "")
            key = (item, int(i))
            if key not in seen:
                seen[key] = bool(gates[item][i]) if gates is not None and item in gates else gate(item, texts[i])
            if not seen[key]:
                probs[i, j] = 0.0
        return probs

    # -- persistence -------------------------------------------------------
    def save(self, path: Path | str) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        words = sorted(self.vocab, key=self.vocab.__getitem__)
        meta = dict(self.meta)
        meta.update(categories=self.categories, item_of=self.item_of, thresholds=self.thresholds,
                    n_features=len(words), coef_shape=list(self.coef.shape))
        entries = {
            "meta.json": json.dumps(meta, indent=1, sort_keys=True).encode(),
            "vocab.txt": "\n".join(words).encode(),
            "idf.f32": self.idf.astype("<f4").tobytes(),
            "coef.f32": self.coef.astype("<f4").tobytes(),
            "intercept.f32": self.intercept.astype("<f4").tobytes(),
        }
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            for name, blob in entries.items():
                info = zipfile.ZipInfo(name, date_time=_ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                zf.writestr(info, blob, compresslevel=9)
        path.write_bytes(buf.getvalue())

    @classmethod
    def load(cls, path: Path | str = DEFAULT_MODEL_PATH) -> "ReviewerModel":
        with zipfile.ZipFile(path) as zf:
            meta = json.loads(zf.read("meta.json"))
            words = zf.read("vocab.txt").decode().split("\n")
            idf = np.frombuffer(zf.read("idf.f32"), dtype="<f4").astype(np.float64)
            coef = np.frombuffer(zf.read("coef.f32"), dtype="<f4").reshape(meta["coef_shape"])
            intercept = np.frombuffer(zf.read("intercept.f32"), dtype="<f4").astype(np.float64)
        return cls(
            categories=list(meta.pop("categories")),
            item_of=dict(meta.pop("item_of")),
            vocab={w: i for i, w in enumerate(words)},
            idf=idf,
            coef=coef,
            intercept=intercept,
            thresholds={k: float(v) for k, v in meta.pop("thresholds").items()},
            meta=meta,
        )
