"""The numpy MiniLM matches sentence-transformers; the hash embedder is deterministic."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ingest.index.embed import HashEmbedder, MiniLMEmbedder, get_embedder

GOLDEN = Path(__file__).with_name("golden_minilm.json")


def test_minilm_matches_sentence_transformers():
    g = json.loads(GOLDEN.read_text())
    ref = np.array(g["vectors"], dtype=np.float32)
    ref /= np.linalg.norm(ref, axis=1, keepdims=True)
    e = MiniLMEmbedder()
    got = e.embed(g["sentences"])
    assert got.shape == (len(g["sentences"]), 384)
    cos = (got * ref).sum(1)
    assert np.all(1 - cos < 1e-4), cos
    # the last sentence is longer than tokenizer.json's default 128-token truncation:
    # matching it proves we use sentence-transformers' max_seq_length (256)
    assert len(e.tokenizer.encode(g["sentences"][-1]).ids) > 128


def test_minilm_batching_does_not_change_vectors():
    e = MiniLMEmbedder(batch_size=2)
    texts = ["short", "a somewhat longer sentence about assignment of contracts", "medium length text here"]
    together = e.embed(texts)
    alone = np.stack([e.embed([t])[0] for t in texts])
    assert np.abs(together - alone).max() < 1e-5
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    sims = together @ together.T
    assert sims[1, 2] > sims[0, 1] - 1  # sane range
    assert e.embed([]).shape == (0, 384)


def test_hash_embedder_deterministic_and_lexical():
    h = HashEmbedder()
    a, b, c = h.embed(["change of control consent", "consent to a change of control", "weather forecast today"])
    assert np.allclose(h.embed(["change of control consent"])[0], a)
    assert a @ b > a @ c
    assert abs(np.linalg.norm(a) - 1) < 1e-6


def test_get_embedder_follows_settings(settings):
    settings.embedding.model = "hash"
    assert get_embedder(settings).name == "hash"
