"""Ray ingest benchmark: the same room parsed by 1, 2 and 4 Ray workers and by the local pool.

    python bench/ray_ingest.py [--limit 20] [--repeat 3] [--sizes 1,2,4] [--embed] [--json out.json]

Files: the first --limit CUAD PDFs by path from ../shared/datasets/cuad-dev.
Each Ray size gets its own local cluster (ingest.distributed.ray_local: a head node with
no CPUs, so the driver's node parses nothing, plus one worker node with N CPUs,
i.e. N worker processes); the local pool is ingest's default (forkserver,
ingest.workers = 2). Every configuration first ingests the room once untimed
(a long-lived cluster or app has its workers started and unstructured
imported; that start-up is reported separately as "warm-up"), then --repeat
timed ingests, each into a fresh workspace, embed=False and the hash embedder;
with --embed, the default embedder (int8 ONNX MiniLM) embeds every chunk
(on the local path in the ingesting process, on Ray as one task per 64-chunk
batch) and the embedding stage is reported too. Wall = until the room is
reviewable (with --embed: until it is embedded); CPU-s = user + system time of this process and every
process under it (the cluster's nodes are its children: GCS, raylets, Ray
workers, and the forkserver with its reaped workers), so Ray's own overhead is
in it. Medians are of the timed runs. On a 2-core machine 4 workers cannot
beat 2: the row says what oversubscription costs.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import psutil  # noqa: E402

import ingest  # noqa: E402,F401  (telemetry opt-outs before unstructured loads)
from core.settings import Settings  # noqa: E402
from ingest.pipeline import ingest_room  # noqa: E402
from ingest.distributed.ray_local import LocalCluster  # noqa: E402

CUAD = ROOT.parent / "shared" / "datasets" / "cuad-dev" / "contracts"


def cpu_tree() -> float:
    """CPU-s of this process and all its descendants, live ones and the reaped children they waited for."""
    me = psutil.Process()
    total = 0.0
    for p in [me, *me.children(recursive=True)]:
        try:
            t = p.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += t.user + t.system + t.children_user + t.children_system
    return total


EMBED = False  # --embed


def one(src: Path, ray_address: str, workers: int) -> dict:
    ws = Path(tempfile.mkdtemp(prefix="bench_ray_ws"))
    try:
        s = Settings(workspace=ws)
        if not EMBED:
            s.embedding.model = "hash"
        s.ingest.workers = workers
        s.ingest.ray_address = ray_address
        c0, t0 = cpu_tree(), time.perf_counter()
        rep = ingest_room(src, "bench", s, embed=EMBED)
        wall, cpu = time.perf_counter() - t0, cpu_tree() - c0
        return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "pages": rep.pages, "chunks": rep.chunks,
                "parsed": rep.parsed, "failed": rep.failed, "workers": rep.workers,
                "reviewable_s": rep.reviewable_seconds, "embed_s": rep.embed_seconds}
    finally:
        shutil.rmtree(ws, ignore_errors=True)


def config(name: str, src: Path, address: str, workers: int, repeat: int) -> dict:
    warm = one(src, address, workers)
    runs = [one(src, address, workers) for _ in range(repeat)]
    row = {"config": name, "warm_up": warm, "runs": runs,
           "wall_s": statistics.median(r["wall_s"] for r in runs), "cpu_s": statistics.median(r["cpu_s"] for r in runs),
           "pages": runs[0]["pages"], "chunks": runs[0]["chunks"]}
    row["pages_per_s"] = round(row["pages"] / row["wall_s"], 2)
    row["cpu_s_per_page"] = round(row["cpu_s"] / row["pages"], 4)
    embed = ""
    if EMBED:
        row["embed_s"] = statistics.median(r["embed_s"] for r in runs)
        row["chunks_per_s"] = round(row["chunks"] / row["embed_s"], 1)
        embed = f", embedding {row['embed_s']:.1f} s = {row['chunks_per_s']} chunks/s ({row['chunks']} chunks)"
    print(f"{name:>14}: wall {row['wall_s']:.1f} s, CPU {row['cpu_s']:.1f} s, {row['pages']} pages, "
          f"{row['pages_per_s']} pages/s, {row['cpu_s_per_page']} CPU-s/page{embed} "
          f"(runs {[r['wall_s'] for r in runs]}; warm-up {warm['wall_s']} s)", flush=True)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", default="1,2,4", help="Ray worker counts")
    ap.add_argument("--embed", action="store_true", help="embed with the default embedder (ONNX MiniLM) too")
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    global EMBED
    EMBED = a.embed
    pdfs = sorted(CUAD.rglob("*.pdf"), key=lambda p: str(p.relative_to(CUAD)))[: a.limit]
    if not pdfs:
        sys.exit(f"no CUAD PDFs under {CUAD}")
    tmp = Path(tempfile.mkdtemp(prefix="bench_ray_src"))
    src = tmp / "room"
    for p in pdfs:
        dest = src / p.relative_to(CUAD)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(p, dest)
    print(f"{len(pdfs)} CUAD PDFs, {psutil.cpu_count()} cores ({platform.processor() or platform.machine()})", flush=True)
    rows = [config("local pool (2)", src, "", 2, a.repeat)]
    try:
        for n in [int(x) for x in a.sizes.split(",")]:
            t0 = time.perf_counter()
            with LocalCluster(head_cpus=0, worker_cpus=(n,)) as c:
                print(f"  cluster with {n} worker(s) up in {time.perf_counter() - t0:.1f} s", flush=True)
                rows.append(config(f"ray {n} worker{'s' if n > 1 else ''}", src, c.address, n, a.repeat))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    base = next(r for r in rows if r["config"] == "ray 1 worker") if any(r["config"] == "ray 1 worker" for r in rows) else None
    if base:
        for r in rows:
            print(f"{r['config']:>14}: speed-up over ray 1 worker {base['wall_s'] / r['wall_s']:.2f}x")
    if a.json:
        a.json.write_text(json.dumps({"files": len(pdfs), "cores": psutil.cpu_count(), "rows": rows}, indent=1))


if __name__ == "__main__":
    main()
