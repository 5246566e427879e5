"""Harness overhead: a full LLM-policy run against a local endpoint with a fixed latency per call.

    python bench/harness.py --docs 100 1000 --latency 0.2 --concurrency 8

For each room size: write a synthetic room (devtools.synthroom, near-equal
plain-text contracts), ingest it with the real pipeline and hash embeddings
(timed apart: the measured quantity is the harness run), start the local
OpenAI-compatible server (devtools.fakeopenai, in its own process so its work
does not compete with the harness for the GIL) with a scripted root and a
scripted reviewer (devtools.scripted) that answer every request after
`latency` seconds, and run
the real graph (agents.run.harness.run_review) with the LLM policy.

Compared: wall time of the run against
- ideal   = calls / C x latency  (every call, root ones too, perfectly packed C-wide), and
- floor   = root_calls x latency + ceil(sub_calls / C) x latency  (the root's steps are
            sequential by design: each one waits for the previous step's results).
Sub-agents get one document each (sub_context_tokens sized to the largest
document) so calls are independent and the ratio is about the harness, not
about how documents happen to pack into batches; --default-sizing keeps the
default context budget instead.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pydantic import SecretStr  # noqa: E402

from agents.run.harness import run_review  # noqa: E402
from agents.llm import build_llm_policies  # noqa: E402
from agents.tools import ROOT_TOOLS  # noqa: E402
from core.checklist import load_checklist  # noqa: E402
from core.settings import Settings  # noqa: E402
from devtools.fakeopenai import RemoteFakeOpenAI  # noqa: E402
from devtools.scripted import ScriptedReviewer, ScriptedRoot  # noqa: E402
from devtools.synthroom import KEYWORDS, write_room  # noqa: E402
from devtools.textroom import load_text_room  # noqa: E402
from ingest.index.manifest import Manifest  # noqa: E402
from ingest.pipeline import ingest_room  # noqa: E402

ROOT, SUB, KEY = "bench-root", "bench-sub", "sk-bench-not-a-secret"


def load_room(settings: Settings, src: Path, room: str, loader: str) -> None:
    if loader == "pipeline":
        ingest_room(src, room, settings)
    else:  # same manifest + Chroma store, without unstructured partitioning of plain text
        load_text_room(settings, room, {p.relative_to(src).as_posix(): p.read_text(encoding="utf-8")
                                        for p in sorted(src.rglob("*.txt"))})


def bench_one(n_docs: int, latency: float, concurrency: int, workdir: Path, default_sizing: bool,
              loader: str = "pipeline") -> dict:
    settings = Settings(workspace=workdir / "workspace")
    settings.embedding.model = "hash"
    src = workdir / f"src{n_docs}"
    write_room(src, n_docs, seed=n_docs)
    room = f"bench{n_docs}"
    t0 = time.perf_counter()
    load_room(settings, src, room, loader)
    ingest_s = time.perf_counter() - t0
    docs = Manifest(settings, room).documents()
    biggest = max(d.tokens for d in docs)
    h = settings.harness
    h.max_concurrency = concurrency
    if not default_sizing:
        h.sub_context_tokens = h.sub_prompt_reserve_tokens + biggest  # one document per sub-agent
    with RemoteFakeOpenAI(api_key=KEY, models={ROOT, SUB}, latency_s=latency, expected_tools={ROOT: ROOT_TOOLS},
                          responders={ROOT: ScriptedRoot(), SUB: ScriptedReviewer(KEYWORDS)}) as srv:
        settings.llm.base_url, settings.llm.api_key = srv.base_url, SecretStr(KEY)
        settings.llm.root_model, settings.llm.sub_model = ROOT, SUB

        async def go() -> dict:
            policy, reviewer = build_llm_policies(settings, load_checklist(settings.checklist_path))
            try:
                return await run_review(settings, room, run_id=f"{room}-run", policy=policy, reviewer=reviewer)
            finally:
                await policy.aclose()
                await reviewer.aclose()

        t0, cpu0 = time.monotonic(), time.process_time()
        stats = asyncio.run(go())
        wall, cpu = time.monotonic() - t0, time.process_time() - cpu0
    srv.assert_clean()  # read back once the server process has stopped
    from agents.store import open_review_store
    steps = [t for t in open_review_store(settings).trajectory(f"{room}-run", limit=100_000) if t["type"] == "root_step"]
    root_steps = [sorted({c["name"] for c in t["tool_calls"]}) for t in steps]  # what each root call did
    # the review part ends with the last model reply; what follows is finalize (memo, exports)
    review_s = max(r.t_end for r in srv.calls()) - t0
    root_calls, sub_calls = len(srv.calls(ROOT)), len(srv.calls(SUB))
    overlap = srv.max_overlap(SUB)
    # how much longer than `latency` the server took to answer (its own work, when it does not fit in it)
    server_late = max(r.t_end - r.t_start for r in srv.calls()) - latency
    calls = root_calls + sub_calls
    ideal = calls / concurrency * latency
    floor = root_calls * latency + math.ceil(sub_calls / concurrency) * latency
    return {
        "docs": n_docs, "parsed": stats["coverage"]["documents_total"],
        "reviewed": stats["coverage"]["documents_reviewed"], "ingest_s": round(ingest_s, 2),
        "latency_s": latency, "concurrency": concurrency, "root_calls": root_calls, "root_steps": root_steps, "sub_calls": sub_calls,
        "max_overlap": overlap, "server_late_ms": round(1000 * server_late, 1), "wall_s": round(wall, 3), "review_s": round(review_s, 3),
        "finalize_s": round(wall - review_s, 3), "review_over_ideal": round(review_s / ideal, 3), "ideal_s": round(ideal, 3), "floor_s": round(floor, 3),
        "wall_over_ideal": round(wall / ideal, 3), "wall_over_floor": round(wall / floor, 3),
        "overhead_s": round(wall - floor, 3), "cpu_s": round(cpu, 2),
        "cpu_ms_per_sub_call": round(1000 * cpu / max(1, sub_calls), 1), "root_token_share": stats["tokens"]["root_share"],
        "verified_findings": stats["findings"]["verified"], "sizing": "default" if default_sizing else "one-doc",
        "loader": loader,
    }


def bench_llm_layer(n_calls: int, latency: float, concurrency: int) -> dict:
    """The LLM layer alone (client, prompt, parsing, quote checks): n sub-agent reviews, C at a time, no graph."""
    from agents.llm.budget import RunBudget
    from agents.llm.caller import LLMCaller
    from agents.llm.client import get_client
    from agents.llm.sub import LLMSubReviewer
    from core.types import Assignment
    from devtools.synthroom import room_texts
    from devtools.textroom import paragraphs_to_chunks
    from core.types import Document

    settings = Settings()
    items = load_checklist(settings.checklist_path)
    docs = []
    for path, text in room_texts(n_calls, seed=7).items():
        d = Document(room="layer", path=path, doc_type="txt", sha256=path, tokens=len(text) // 4)
        docs.append((d, paragraphs_to_chunks(d.id, text)))
    with RemoteFakeOpenAI(api_key=KEY, models={SUB}, latency_s=latency,
                          responders={SUB: ScriptedReviewer(KEYWORDS)}) as srv:
        settings.llm.base_url, settings.llm.api_key, settings.llm.sub_model = srv.base_url, SecretStr(KEY), SUB

        async def go() -> int:
            caller = LLMCaller(get_client(settings.llm, "sub"), settings.llm, "sub",
                               budget=RunBudget.from_settings(settings.harness))
            reviewer, sem = LLMSubReviewer(settings, caller=caller), asyncio.Semaphore(concurrency)

            async def one(i, d, chunks):
                async with sem:
                    r = await reviewer.review(Assignment(id=f"a{i}", agent=f"sub-{i}", document_ids=[d.id]), d, chunks, items)
                    return len(r.findings)
            try:
                return sum(await asyncio.gather(*(one(i, d, c) for i, (d, c) in enumerate(docs))))
            finally:
                await reviewer.aclose()

        t0, cpu0 = time.monotonic(), time.process_time()
        found = asyncio.run(go())
        wall, cpu = time.monotonic() - t0, time.process_time() - cpu0
    srv.assert_clean()
    overlap = srv.max_overlap(SUB)
    ideal = n_calls / concurrency * latency
    return {"layer_calls": n_calls, "latency_s": latency, "concurrency": concurrency, "max_overlap": overlap,
            "wall_s": round(wall, 3), "ideal_s": round(ideal, 3), "wall_over_ideal": round(wall / ideal, 3),
            "cpu_s": round(cpu, 2), "cpu_ms_per_call": round(1000 * cpu / n_calls, 1), "findings": found}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--docs", type=int, nargs="*", default=[100, 1000])
    p.add_argument("--latency", type=float, default=0.2, help="seconds the server waits before each reply")
    p.add_argument("--concurrency", type=int, default=8, help="settings.harness.max_concurrency")
    p.add_argument("--default-sizing", action="store_true", help="keep the default sub-agent context budget")
    p.add_argument("--loader", choices=["pipeline", "direct"], default="pipeline",
                   help="pipeline: ingest.pipeline.ingest_room; direct: devtools.textroom (no partitioning)")
    p.add_argument("--layer", type=int, nargs="*", default=[],
                   help="also time the LLM layer alone for this many sub-agent calls (no graph, no store)")
    p.add_argument("--json", type=Path, help="also write the results here")
    a = p.parse_args(argv)
    rows, layer = [], []
    for n in a.layer:
        layer.append(bench_llm_layer(n, a.latency, a.concurrency))
        print(json.dumps(layer[-1]), flush=True)
    with tempfile.TemporaryDirectory(prefix="bench-harness-") as tmp:
        for n in a.docs:
            r = bench_one(n, a.latency, a.concurrency, Path(tmp), a.default_sizing, a.loader)
            rows.append(r)
            print(json.dumps(r), flush=True)
    cols = ["docs", "root_calls", "sub_calls", "max_overlap", "ideal_s", "floor_s", "review_s", "review_over_ideal",
            "finalize_s", "wall_s", "wall_over_ideal", "cpu_ms_per_sub_call", "root_token_share"]
    print("\n| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
    for r in rows:
        print("| " + " | ".join(str(r[c]) for c in cols) + " |")
    if a.json:
        a.json.write_text(json.dumps({"harness": rows, "llm_layer": layer}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
