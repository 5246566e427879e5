"""all-MiniLM-L6-v2 through onnxruntime: the default embedder (int8, all cores).

The model file in assets/embedder/ is built from the installed package's
weights by scripts/build_embedder_onnx.py (no torch, no download; see
docs/EMBEDDINGS.md). Tokens come from the same tokenizer and the same
batching as the numpy reference (ingest.index.embed.token_batches), and pooling
and the L2 norm are inside the graph, so the two differ only by the int8
weights and activations: tests/ingest/test_embed_onnx.py bounds that.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from core.settings import ASSETS

from .embed import extracted_model_dir, load_tokenizer, token_batches

DEFAULT_MODEL_PATH = ASSETS / "embedder" / "minilm-l6-v2-int8.onnx"
# What scripts/build_embedder_onnx.py passes to onnxruntime.quantization.quantize_dynamic. Chosen on the
# golden sentences and the sample room's chunks, then checked on held-out CUAD contracts (docs/EMBEDDINGS.md):
# per-tensor weights lost 4 points of cosine, per-channel all-int8 reached a mean of 0.991 (min 0.983), and
# keeping fp32 the FFN output projections of layers 0 and 2 (the two whose int8 cost most, 11 % of the
# FLOPs) lifted it to 0.994 (min 0.990). The word-embedding table is int8 too (EmbedLayerNormalization).
QUANTISATION = {
    "per_channel": True,
    "reduce_range": False,
    "op_types": ["MatMul", "Attention", "EmbedLayerNormalization"],
    "exclude": ["encoder.layer.0.ffn.out", "encoder.layer.2.ffn.out"],
}


class ModelFileMissing(RuntimeError):
    """assets/embedder/ lacks the ONNX file (rebuild it with scripts/build_embedder_onnx.py)."""


def cpu_threads() -> int:
    """Cores this process may run on (the affinity mask, which containers and taskset narrow)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class OnnxMiniLMEmbedder:
    """all-MiniLM-L6-v2 (384 dims, mean pooling, L2 norm), an int8 ONNX graph run by onnxruntime."""

    name = "minilm"
    runtime = "onnx"

    # One text per call by default: dynamic quantisation scales a call's activations together, so in a
    # batch a text's vector moved with its companions (cosine 0.981 for a short one); alone it does not, and
    # on 2 cores it was as fast (30-31 chunks/s at 1, 29-36 at 4-16, 19-22 at 32; docs/EMBEDDINGS.md).
    def __init__(self, model_path: Path | None = None, batch_size: int = 1, threads: int = 0):
        import onnxruntime as ort

        path = Path(model_path or DEFAULT_MODEL_PATH)
        if not path.exists():
            raise ModelFileMissing(f"{path} is missing; run scripts/build_embedder_onnx.py")
        self.batch_size = batch_size
        self.threads = threads or cpu_threads()
        self.tokenizer = load_tokenizer(extracted_model_dir())
        opts = ort.SessionOptions()
        # One thread per run, and `threads` runs at once (InferenceSession.run is thread-safe and releases the
        # GIL): a batch of one chunk is too small to split across cores, so two chunks side by side beat one chunk
        # on two intra-op threads (53 vs 44-47 chunks/s on 2 cores, docs/BENCHMARKS.md); vectors are identical.
        opts.intra_op_num_threads = 1
        opts.inter_op_num_threads = 1
        opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        # Idle pool threads sleep instead of spinning: ingest embeds in the parent while parser
        # processes use the same cores, and a spinning waiter takes a core from a parser.
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        opts.add_session_config_entry("session.inter_op.allow_spinning", "0")
        opts.log_severity_level = 3  # warnings about unused initialisers are not the user's business
        self.session = ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
        out = self.session.get_outputs()[0]
        self.dim = int(out.shape[-1])

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)

        def run(batch) -> None:
            idx, ids, types, mask = batch
            out[idx] = self.session.run(None, {"input_ids": ids, "token_type_ids": types, "attention_mask": mask})[0]
        batches = list(token_batches(self.tokenizer, texts, self.batch_size))
        if self.threads == 1 or len(batches) == 1:
            for b in batches:
                run(b)
        else:
            with ThreadPoolExecutor(self.threads, thread_name_prefix="embed") as pool:
                list(pool.map(run, batches))  # list(): a run's exception is raised here
        return out
