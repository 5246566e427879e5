"""Ingest benchmark: bare unstructured loop vs. our pipeline on 1 and 2 workers, plus embedding throughput.

    python bench/ingest.py [--limit N] [--repeat 3] [--json out.json] [--embed-repeat 3] [--embed-chunks 48] [--default-only]
                           [--same-text]

Same files in every mode: CUAD PDFs from ../shared/datasets/cuad-dev when
present (all of them, or the first --limit by path), else 30 (or --limit)
generated text PDFs. Every mode runs in a fresh interpreter and is timed from
its first import to the end of its work, so all imports (unstructured,
chromadb) and the parser processes' start-up are inside the timed region; a
pipeline run ends when ingest_room returns (the room is ready), before the
bench stops the forkserver for its CPU accounting (about 0.7 s that no user
waits for: the app keeps the forkserver for the next ingest; "stop_s"). The
bare loop calls unstructured.partition.auto.partition(strategy="fast") per
file; it gets the same offline spaCy stand-in as our workers
(ingest.parsing.offline_nlp), without which unstructured tries to download a model
and, offline, returns no text. The pipeline runs are ingest_room on a folder
of the same files (intake copy, hashing, type sniffing, parsing, chunking,
manifest + FTS5, Chroma upsert); they use the 'hash' embedder so that the
ratio measures parsing, chunking and storage overhead. "default embedder" is
the same 2-worker pipeline with the default embedder (MiniLM, int8 ONNX on
onnxruntime), what a real upload costs, timed twice in one run: to
"reviewable" (every document parsed and keyword-indexed, when the stage
callback says embedding starts) and to "fully embedded" (the call returns). MiniLM throughput, numpy reference
vs. onnxruntime, is measured separately on the same chunks the pipeline
produced, interleaved, median of --embed-repeat runs. "bare split in 2"
runs two bare loops at once that share the files (each takes the next
unclaimed one, largest first; no pipeline): its speed-up over the bare loop is
what two plain processes get from this machine on this work, to read the
pipeline's 2-worker speed-up against. CPU-s = user + system time of the mode's
process tree; "parent CPU-s" is the ingesting process alone (intake,
embedding, manifest and Chroma writes, handling the parsers' results), without
its parser processes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ingest  # noqa: E402,F401  (sets the telemetry opt-outs before unstructured loads)
from core.settings import Settings  # noqa: E402

CUAD = ROOT.parent / "shared" / "datasets" / "cuad-dev" / "contracts"

BARE = r"""
import os, sys, time, json
t0 = time.perf_counter()
import ingest
from ingest.parsing import offline_nlp
offline_nlp.install()
if os.environ.get("BENCH_SAME_TEXT"):
    # the pipeline's figure-text layout (pdfminer all_texts, ingest/parsing/pdf_text.py): the same text at its cost
    from ingest.parsing import pdf_text
    pdf_text.install()
from unstructured.partition.auto import partition
claims = os.environ.get("BENCH_CLAIMS")  # set: several of these loops share the files, each takes the next unclaimed one
n = 0
for i, f in enumerate(sys.argv[1:]):
    if claims:
        try:
            os.close(os.open(os.path.join(claims, str(i)), os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            continue
    n += len(partition(filename=f, strategy="fast", languages=["eng"], detect_language_per_element=False))
print(json.dumps({"seconds": time.perf_counter() - t0, "elements": n}))
"""

PIPELINE = r"""
import sys, time, json
t0 = time.perf_counter()
from pathlib import Path
from core.settings import Settings
from ingest.parsing import workers
from ingest.pipeline import ingest_room
s = Settings(workspace=Path(sys.argv[2]))
s.embedding.model = sys.argv[4]  # "hash", or "minilm" (settings.embedding.runtime: onnx by default)
s.ingest.workers = int(sys.argv[3])
marks = {}
def stage(name, done, total, eta):  # the room is reviewable when embedding starts (or, with no chunks, at ready)
    if name in ("embedding", "ready"):
        marks.setdefault("reviewable", time.perf_counter() - t0)
rep = ingest_room(Path(sys.argv[1]), "bench", s, on_stage=stage)
done = time.perf_counter() - t0  # the room is ready: what the user waits for (the app keeps its forkserver)
import resource
r = resource.getrusage(resource.RUSAGE_SELF)  # the parent alone (its parsers are other processes)
workers.stop()  # reaps the forkserver, so that its CPU time and its workers' reach our rusage
print(json.dumps({"seconds": done, "stop_s": time.perf_counter() - t0 - done, "reviewable_s": marks["reviewable"], "parsed": rep.parsed, "failed": rep.failed, "embed_s": rep.embed_seconds,
                  "chunks": rep.chunks, "pages": rep.pages, "parent_cpu": r.ru_utime + r.ru_stime}))
"""


def files(limit: int | None, tmp: Path) -> tuple[list[Path], str]:
    if CUAD.exists():
        fs = sorted((p for p in CUAD.rglob("*") if p.suffix.lower() == ".pdf"), key=str)[:limit]
        return fs, f"CUAD dev PDFs (first {len(fs)} by path)"
    from tests.ingest.builders import text_pdf

    out = []
    limit = limit or 30
    for i in range(limit):
        lines = [f"{j}. Clause {j} of contract {i}: the parties agree to the terms set out here." for j in range(40)]
        p = tmp / "generated" / f"contract_{i:03d}.pdf"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text_pdf([lines[k : k + 20] for k in range(0, 40, 20)] * 5))
        out.append(p)
    return out, f"{limit} generated 10-page text PDFs"


def _cpu(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def bare(fs: list[Path], same_text: bool = False) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of the bare loop in a fresh interpreter; with same_text, laying out the text
    inside PDF figures as the pipeline does (words keep their spaces), which unstructured's default does not."""
    c0 = _cpu(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "BENCH_SAME_TEXT": "1"} if same_text else None
    out = subprocess.run([sys.executable, "-c", BARE, *map(str, fs)], capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])["seconds"], _cpu(resource.RUSAGE_CHILDREN) - c0


def bare_split(fs: list[Path], tmp: Path) -> tuple[float, float]:
    """(wall, CPU) of two bare loops at once sharing the files: what 2 plain processes give on this machine.

    No pipeline, no forkserver: each process imports unstructured itself (both at once, one per
    core), then takes the next file nobody has claimed yet (an O_EXCL file per file), largest
    first as our pipeline deals them. Its speed-up over the bare loop is the machine's own figure
    for a 2-process split of this work, to read the pipeline's 2-worker speed-up against.
    """
    claims = tmp / f"claims-{time.time_ns()}"
    claims.mkdir()
    order = sorted(fs, key=lambda f: (-f.stat().st_size, str(f)))
    env = {**os.environ, "BENCH_CLAIMS": str(claims)}
    c0 = _cpu(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    procs = [subprocess.Popen([sys.executable, "-c", BARE, *map(str, order)], stdout=subprocess.PIPE, cwd=ROOT, env=env) for _ in range(2)]
    for p in procs:
        p.communicate()
        if p.returncode:
            raise subprocess.CalledProcessError(p.returncode, p.args)
    wall = time.perf_counter() - t0
    if len(list(claims.iterdir())) != len(fs):
        raise RuntimeError("the split bare loops did not claim every file")
    return wall, _cpu(resource.RUSAGE_CHILDREN) - c0


def pipeline(fs: list[Path], workers: int, tmp: Path, embedding: str = "hash") -> tuple[float, dict]:
    """ingest_room in a fresh interpreter: (wall seconds, counts + CPU seconds + workspace)."""
    src = tmp / f"room-src-{workers}"
    shutil.rmtree(src, ignore_errors=True)
    for f in fs:
        dst = src / f.parent.name / f.name
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(f, dst)
    ws = tmp / f"ws-{workers}-{time.time_ns()}"
    c0 = _cpu(resource.RUSAGE_CHILDREN)
    out = subprocess.run(
        [sys.executable, "-c", PIPELINE, str(src), str(ws), str(workers), embedding], capture_output=True, text=True, check=True, cwd=ROOT
    )
    info = json.loads(out.stdout.strip().splitlines()[-1])
    info.update(ws=str(ws), cpu=_cpu(resource.RUSAGE_CHILDREN) - c0)  # the process, its forkserver and workers, all reaped
    return info.pop("seconds"), info


def embed_throughput(ws: str, max_chunks: int = 48, repeat: int = 3) -> dict:
    """MiniLM chunks/s, numpy reference vs. onnxruntime, on the same chunks; runs interleaved, medians.

    Both get the whole machine (numpy 2 BLAS threads, onnxruntime one thread per core): this is the
    embedder's own speed, not its share of a busy ingest. Interleaving puts both under the same load.
    """
    from ingest.index.embed import HashEmbedder, MiniLMEmbedder
    from ingest.index.embed_onnx import OnnxMiniLMEmbedder, cpu_threads
    from ingest.index.manifest import Manifest

    s = Settings(workspace=Path(ws))
    man = Manifest(s, "bench")
    texts = [c.text for d in man.documents(status="parsed") for c in man.chunks(d.id)][:max_chunks]
    out = {"chunks": len(texts), "mean_chars": round(statistics.mean(len(t) for t in texts)), "repeat": repeat}
    models = {"numpy": MiniLMEmbedder(threads=cpu_threads()), "onnx": OnnxMiniLMEmbedder()}
    rates: dict[str, list[float]] = {k: [] for k in models}
    for m in models.values():
        m.embed(texts[:8])  # warm caches
    for _ in range(repeat):
        for k, m in models.items():
            t0 = time.perf_counter()
            m.embed(texts)
            rates[k].append(round(len(texts) / (time.perf_counter() - t0), 2))
    out["minilm_numpy_chunks_per_s"] = statistics.median(rates["numpy"])
    out["minilm_onnx_chunks_per_s"] = statistics.median(rates["onnx"])
    out["onnx_over_numpy_per_run"] = [round(b / a, 2) for a, b in zip(rates["numpy"], rates["onnx"])]
    out["runs"] = rates
    out["onnx_threads"] = models["onnx"].threads
    h = HashEmbedder()
    t0 = time.perf_counter()
    h.embed(texts)
    out["hash_chunks_per_s"] = round(len(texts) / (time.perf_counter() - t0), 1)
    return out


KEYWORDS = ["assign", "terminate", "exclusive", "indemnify", "governing", "confidential", "audit", "warranty", "insurance", "notice"]


def keyword_latency(ws: str) -> dict:
    """Median ms per query: FTS5 in the manifest vs. Chroma's where_document $contains, same words.

    The room's own collection holds no chunk text (the manifest does), so $contains
    runs on a scratch collection given the same chunks as documents.
    """
    import chromadb

    from ingest.index.store import open_store

    s = Settings(workspace=Path(ws))
    s.embedding.model = "hash"
    store = open_store(s, "bench")
    chunks = [c for d in store.manifest.documents(status="parsed") for c in store.manifest.chunks(d.id)]
    scratch = chromadb.PersistentClient(path=str(Path(ws) / "scratch-chroma")).get_or_create_collection(
        "contains-bench", embedding_function=None
    )
    vecs = store.embedder.embed([c.text for c in chunks])
    for i in range(0, len(chunks), 1000):
        scratch.add(ids=[c.id for c in chunks[i : i + 1000]], embeddings=vecs[i : i + 1000], documents=[c.text for c in chunks[i : i + 1000]])
    fts, contains, hits = [], [], {}
    for w in KEYWORDS:
        t0 = time.perf_counter()
        a = store.manifest.keyword_search(w, 8)
        fts.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        b = scratch.get(where_document={"$contains": w}, limit=8, include=[])
        contains.append((time.perf_counter() - t0) * 1000)
        hits[w] = (len(a), len(b["ids"]))
    return {
        "fts5_ms": round(statistics.median(fts), 2), "chroma_contains_ms": round(statistics.median(contains), 2),
        "hits_fts5_vs_contains": hits,
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # the default is the whole CUAD dev room, the size the 2-worker target is read on (docs/BENCHMARKS.md)
    ap.add_argument("--limit", type=int, default=None, help="number of files (default: all)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per mode; medians are reported")
    ap.add_argument("--json", type=Path, help="also write the results here")
    ap.add_argument("--embed-repeat", type=int, default=3, help="interleaved numpy / onnxruntime embedding runs")
    ap.add_argument("--embed-chunks", type=int, default=48, help="chunks (the room's first) for the embedder comparison")
    ap.add_argument("--default-only", action="store_true",
                    help="only the bare loop and the 2-worker pipeline with the default embedder (reviewable, fully "
                         "embedded), plus the embedder comparison: the issue-18 figures, in a third of the time")
    ap.add_argument("--same-text", action="store_true",
                    help="also time the bare loop with the pipeline's figure-text layout (pdf_text), to read the "
                         "pipeline's own overhead apart from the cost of that text")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-ingest-"))
    try:
        fs, what = files(args.limit, tmp)
        runs: dict[str, list[float]] = {"bare": [], "bare2": [], "w1": [], "w2": [], "bare_cpu": [], "bare2_cpu": [],
                                        "w1_cpu": [], "w2_cpu": [], "w1_parent_cpu": [], "w2_parent_cpu": [],
                                        "w2e": [], "w2e_embed": [], "w2e_reviewable": [], "w2e_stop": [],
                                        "bare_same": [], "bare_same_cpu": []}
        info: dict = {}
        for i in range(args.repeat):
            wall, cpu = bare(fs)
            runs["bare"].append(wall)
            runs["bare_cpu"].append(cpu)
            if args.same_text:
                wall, cpu = bare(fs, same_text=True)
                runs["bare_same"].append(wall)
                runs["bare_same_cpu"].append(cpu)
            wall, cpu = bare_split(fs, tmp) if not args.default_only else (float("nan"), float("nan"))
            runs["bare2"].append(wall)
            runs["bare2_cpu"].append(cpu)
            for w in (1, 2) if not args.default_only else ():
                secs, info = pipeline(fs, w, tmp)
                runs[f"w{w}"].append(secs)
                runs[f"w{w}_cpu"].append(info["cpu"])
                runs[f"w{w}_parent_cpu"].append(info["parent_cpu"])
            secs, einfo = pipeline(fs, 2, tmp, "minilm")  # the default embedder: what a real upload costs
            runs["w2e"].append(secs)
            runs["w2e_embed"].append(einfo["embed_s"])
            runs["w2e_reviewable"].append(einfo["reviewable_s"])
            runs["w2e_stop"].append(round(einfo["stop_s"], 3))  # the bench's own forkserver teardown, outside the wall
            info = info or einfo
            last = {k: (v[-1] if v else float("nan")) for k, v in runs.items()}
            print(
                f"run {i + 1}: wall bare {last['bare']:.1f} s (same text {last['bare_same']:.1f} s), bare split in 2 {last['bare2']:.1f} s, "
                f"1 worker {last['w1']:.1f} s, 2 workers {last['w2']:.1f} s, "
                f"2 workers default embedder: reviewable {last['w2e_reviewable']:.1f} s, fully embedded {last['w2e']:.1f} s "
                f"(embedding {last['w2e_embed']:.1f} s); "
                f"CPU {last['bare_cpu']:.1f} / {last['bare2_cpu']:.1f} / {last['w1_cpu']:.1f} / {last['w2_cpu']:.1f} s",
                file=sys.stderr, flush=True,
            )
        med = {k: statistics.median(v) if v else float("nan") for k, v in runs.items()}
        emb = embed_throughput(info["ws"], args.embed_chunks, args.embed_repeat)
        emb["keyword"] = keyword_latency(info["ws"])
        res = {
            "files": what, "n_files": len(fs), "cpus": os.cpu_count(), "repeat": args.repeat,
            "bare_s": round(med["bare"], 2), "pipeline_1w_s": round(med["w1"], 2), "pipeline_2w_s": round(med["w2"], 2),
            "overhead_1w": round(med["w1"] / med["bare"], 3), "speedup_2w": round(med["w1"] / med["w2"], 3),
            "pipeline_2w_default_embedder_s": round(med["w2e"], 2), "pipeline_2w_default_embed_s": round(med["w2e_embed"], 2),
            "default_embedder_over_bare_per_run": [round(a / b, 3) for a, b in zip(runs["w2e"], runs["bare"])],
            # issue 18: reviewable <= 1.2x and fully embedded <= 1.5x the bare loop (same files, same run)
            "reviewable_s": round(med["w2e_reviewable"], 2),
            "reviewable_over_bare_per_run": [round(a / b, 3) for a, b in zip(runs["w2e_reviewable"], runs["bare"])],
            "embedded_over_bare_per_run": [round(a / b, 3) for a, b in zip(runs["w2e"], runs["bare"])],
            "default_embedder_over_hash_2w_per_run": [round(a / b, 3) for a, b in zip(runs["w2e"], runs["w2"])],
            # each run's modes are minutes apart, the runs are not: the machine's speed drifts between runs
            # (bare loop 104 -> 87 s over three runs once), which the ratio of medians mixes in
            "speedup_2w_per_run": [round(a / b, 3) for a, b in zip(runs["w1"], runs["w2"])],
            "speedup_2w_median_of_runs": round(statistics.median([a / b for a, b in zip(runs["w1"], runs["w2"])] or [float("nan")]), 3),
            # the same work split over 2 plain processes: the machine's ceiling for the line above
            "bare_split_s": round(med["bare2"], 2), "bare_split_cpu_s": round(med["bare2_cpu"], 2),
            "speedup_bare_split_per_run": [round(a / b, 3) for a, b in zip(runs["bare"], runs["bare2"])],
            "speedup_bare_split_median_of_runs": round(statistics.median(a / b for a, b in zip(runs["bare"], runs["bare2"])), 3),
            "bare_cpu_s": round(med["bare_cpu"], 2), "pipeline_1w_cpu_s": round(med["w1_cpu"], 2),
            "pipeline_2w_cpu_s": round(med["w2_cpu"], 2), "cpu_overhead_1w": round(med["w1_cpu"] / med["bare_cpu"], 3),
            "pipeline_1w_parent_cpu_s": round(med["w1_parent_cpu"], 2), "pipeline_2w_parent_cpu_s": round(med["w2_parent_cpu"], 2),
            # the pipeline lays out text inside PDF figures (pdf_text); the bare loop with the same layout
            "bare_same_text_s": round(med["bare_same"], 2), "bare_same_text_cpu_s": round(med["bare_same_cpu"], 2),
            "overhead_1w_same_text": round(med["w1"] / med["bare_same"], 3),
            "cpu_overhead_1w_same_text": round(med["w1_cpu"] / med["bare_same_cpu"], 3),
            "load_avg_after": os.getloadavg(),
            "parsed": info["parsed"], "failed": info["failed"], "chunks": info["chunks"], "pages": info["pages"],
            "embedding": emb, "runs": runs,
        }
        print(json.dumps(res, indent=2))
        if args.json:
            args.json.write_text(json.dumps(res, indent=2))
        print(
            f"\n| files | bare loop | reviewable (x bare, per run) | fully embedded (x bare, per run) | MiniLM chunks/s numpy / onnx |\n|---|---|---|---|---|\n"
            f"| {len(fs)} ({res['pages']} pages, {res['chunks']} chunks) | {res['bare_s']} s | {res['reviewable_s']} s "
            f"({', '.join(f'{x}x' for x in res['reviewable_over_bare_per_run'])}) | {res['pipeline_2w_default_embedder_s']} s "
            f"({', '.join(f'{x}x' for x in res['embedded_over_bare_per_run'])}) | "
            f"{emb['minilm_numpy_chunks_per_s']} / {emb['minilm_onnx_chunks_per_s']} |"
        )
        print(
            f"\n| files | bare loop | pipeline 1 worker | pipeline 2 workers | overhead 1w (wall / CPU) | speed-up 2w | bare loop split in 2 processes: speed-up | parent CPU-s 1w / 2w | 2w, default embedder (embedding s) | MiniLM chunks/s numpy / onnx |\n"
            f"|---|---|---|---|---|---|---|---|---|---|\n"
            f"| {len(fs)} ({res['pages']} pages, {res['chunks']} chunks) | {res['bare_s']} s ({res['bare_cpu_s']} CPU-s) | "
            f"{res['pipeline_1w_s']} s ({res['pipeline_1w_cpu_s']} CPU-s) | {res['pipeline_2w_s']} s ({res['pipeline_2w_cpu_s']} CPU-s) | "
            f"{res['overhead_1w']}x / {res['cpu_overhead_1w']}x | {res['speedup_2w']}x (per run: {', '.join(f'{x}x' for x in res['speedup_2w_per_run'])}) | {res['bare_split_s']} s ({res['bare_split_cpu_s']} CPU-s): per run {', '.join(f'{x}x' for x in res['speedup_bare_split_per_run'])} | {res['pipeline_1w_parent_cpu_s']} / {res['pipeline_2w_parent_cpu_s']} | "
            f"{res['pipeline_2w_default_embedder_s']} s ({res['pipeline_2w_default_embed_s']} s) | "
            f"{emb['minilm_numpy_chunks_per_s']} / {emb['minilm_onnx_chunks_per_s']} |"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
