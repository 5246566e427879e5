"""Diligence benchmark: the harness against two baselines on synthetic rooms, scored by synth.score.

    python bench/diligence.py --sizes 0 10 100 1000 5000 --seed 1 [--embedding minilm|hash] [--write-docs]

Size 0 is the bundled sample room (assets/sample_room) with its committed truth.

For each size: generate a room (synth.generate, seed-reproducible), ingest it
with the real pipeline, then review it three ways with the same offline
reviewer (agents.offline.OfflineReviewer):

- harness     the real graph (agents.run.harness.run_review, offline policy): inventory,
              team sized from the room's tokens, sub-agents, recursion, follow-up search;
- retrieval   retrieval only: for each checklist item the top-k chunks of the room's
              store (semantic + keyword), reviewed for that item;
- in-order    one agent reading documents in path order until a fixed context budget
              (settings.harness.sub_context_tokens) is spent, reviewing for every item.

Each size runs in its own process, so its peak RSS (the process and its reaped
ingest workers, `getrusage` ru_maxrss) is that size's alone.

Every system's findings go through agents.verify.verify_finding; the baselines'
memo lists their verified findings with [path, p. N] citations and a scope
section naming the files the manifest failed to parse, so scope criteria
measure the same thing for all three. Scores come from synth.score (rubric
pass rate, all-pass, clause recall, citation correctness, coverage, root-token
share). Results: docs/diligence_results.json, the "Diligence benchmark" section
of docs/BENCHMARKS.md and docs/diligence_charts.html (with --write-docs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.run.harness import run_review  # noqa: E402
from agents.offline.reviewer import OfflineReviewer  # noqa: E402
from agents.verify import verify_finding  # noqa: E402
from core.checklist import load_checklist  # noqa: E402
from core.settings import ASSETS, REPO_ROOT, Settings  # noqa: E402
from core.types import Finding, ParseStatus  # noqa: E402
from ingest.index.manifest import Manifest  # noqa: E402
from ingest.pipeline import ingest_room  # noqa: E402
from ingest.index.store import open_store  # noqa: E402
from synth.generate import generate_room  # noqa: E402
from synth.model import Truth  # noqa: E402
from synth.rubric import build_rubric  # noqa: E402
from synth.score import load_run, score_run  # noqa: E402

DOCS = REPO_ROOT / "docs"
START, END = "<!-- diligence:start -->", "<!-- diligence:end -->"


def baseline_memo(findings: list[Finding], failed: list[tuple[str, str]]) -> str:
    """The same citation form as agents.memo: '- **Sev** - summary [path, p. N]' and the quote."""
    lines = ["# Diligence memo (baseline)", "", "## Findings", ""]
    for f in findings:
        if f.verified:
            lines += [f"- **{f.severity.value.capitalize()}** - {f.summary} [{f.citation.document_path}, p. {f.citation.page}]",
                      f"  > \u201c{' '.join(f.quote.split())}\u201d"]
    lines += ["", "## Scope and coverage", "", "Failed to parse or skipped:" if failed else "Every file was parsed."]
    lines += [f"- {p}: {r}" for p, r in failed]
    return "\n".join(lines) + "\n"


def _verified(man: Manifest, found: list[Finding]) -> list[Finding]:
    out, texts, seen = [], {}, set()
    for f in found:
        if f.id in seen:
            continue
        seen.add(f.id)
        did = f.citation.document_id
        texts.setdefault(did, man.document_text(did))
        out.append(verify_finding(f, texts[did], man.chunks(did)))
    return out


def _stats(man: Manifest, reviewed: dict[str, set[str]], tokens_used: int, wall: float, agents: int) -> dict:
    """run.json-shaped stats; coverage counts each chunk once, `tokens` counts what was read (re-reads included)."""
    parsed = man.documents(ParseStatus.parsed)
    total_tokens = sum(d.tokens for d in parsed)
    chunk_tokens = {c.id: c.tokens for did in reviewed for c in man.chunks(did)}
    covered = sum(chunk_tokens[cid] for ids in reviewed.values() for cid in ids)
    return {"wall_seconds": round(wall, 2), "assignments": {"leaves": agents},
            "coverage": {"documents_ratio": len(reviewed) / len(parsed) if parsed else 0.0,
                         "tokens_ratio": covered / total_tokens if total_tokens else 0.0},
            "tokens": {"total": tokens_used, "root_share": 0.0}}


def run_retrieval(settings: Settings, room: str, reviewer: OfflineReviewer, k: int) -> tuple[list[Finding], dict]:
    t0 = time.perf_counter()
    man, store = Manifest(settings, room), open_store(settings, room)
    docs = {d.id: d for d in man.documents(ParseStatus.parsed)}
    found, reviewed, used = [], {}, 0
    items = [i for i in load_checklist(settings.checklist_path) if i.enabled]
    for item in items:
        by_doc: dict[str, list] = {}
        for hit in store.search(f"{item.title}. {item.description}", k=k):
            by_doc.setdefault(hit.chunk.document_id, []).append(hit.chunk)
        for did, chunks in by_doc.items():
            chunks.sort(key=lambda c: c.index)
            found += reviewer.review(docs[did], chunks, [item])
            reviewed.setdefault(did, set()).update(c.id for c in chunks)
            used += sum(c.tokens for c in chunks)
    return _verified(man, found), _stats(man, reviewed, used, time.perf_counter() - t0, len(items))


def run_in_order(settings: Settings, room: str, reviewer: OfflineReviewer, budget: int) -> tuple[list[Finding], dict]:
    t0 = time.perf_counter()
    man = Manifest(settings, room)
    items = [i for i in load_checklist(settings.checklist_path) if i.enabled]
    found, reviewed, used = [], {}, 0
    for doc in sorted(man.documents(ParseStatus.parsed), key=lambda d: d.path):
        chunks = []
        for c in man.chunks(doc.id):
            if used + c.tokens > budget:
                break
            chunks.append(c)
            used += c.tokens
        if chunks:
            found += reviewer.review(doc, chunks, items)
            reviewed[doc.id] = {c.id for c in chunks}
        if used + 1 > budget or len(chunks) < len(man.chunks(doc.id)):
            break
    return _verified(man, found), _stats(man, reviewed, used, time.perf_counter() - t0, 1)


def bench_size(n: int, seed: int, embedding: str, k: int, work: Path, workers: int = 0, prepare: bool = False,
               as_of: date | None = None) -> list[dict]:
    """n > 0: a generated room of n documents; n == 0: the bundled sample room.

    Rooms regenerate byte-identically from the seed, so with a kept --work folder a second
    call re-ingests nothing (the pipeline skips unchanged files) and only the reviews run.
    """
    room = f"dil{n}" if n else "sample"
    t0 = time.perf_counter()
    if n:
        source, truth = work / room, generate_room(work / room, n_docs=n, seed=seed, room=room)
    else:
        source, truth = ASSETS / "sample_room", Truth.load(ASSETS / "sample_room_truth.json")
    gen_s = time.perf_counter() - t0
    # Reviewed as of the day the truth holds on, so the score does not change as the calendar moves on.
    settings = Settings(workspace=work / f"ws-{room}", embedding={"model": embedding}, ingest={"workers": workers},
                        harness={"as_of": as_of or truth.as_of})
    t0 = time.perf_counter()
    ingest_room(source, room, settings)
    ingest_s = time.perf_counter() - t0
    print(f"{room}: {len(truth.documents)} files generated in {gen_s:.1f}s, ingested in {ingest_s:.1f}s", flush=True)
    if prepare:
        return []
    rubric = build_rubric(truth)
    man = Manifest(settings, room)
    failed = [(d.path, d.reason) for d in man.documents() if d.status != ParseStatus.parsed]
    reviewer = OfflineReviewer()
    rows = []
    ckpt_before = checkpoint_mib(settings)
    stats = asyncio.run(run_review(settings, room))
    ckpt = round(checkpoint_mib(settings) - ckpt_before, 1)
    findings, memo, run_stats = load_run(settings.run_dir(stats["run_id"]))
    rows.append(("harness", score_run(truth, rubric, findings, memo, run_stats)))
    budget = settings.harness.sub_context_tokens - settings.harness.sub_prompt_reserve_tokens
    for name, (fs, st) in (("retrieval", run_retrieval(settings, room, reviewer, k)),
                           ("in-order", run_in_order(settings, room, reviewer, budget))):
        rows.append((name, score_run(truth, rubric, fs, baseline_memo(fs, failed), st)))
    out = []
    rss = peak_rss_mib()
    for name, res in rows:
        r = res.model_dump(mode="json", exclude={"criteria", "recall_by_category"})
        r.update(system=name, room=room, embedding=embedding, docs=len(truth.documents), criteria=len(res.criteria), generate_s=round(gen_s, 2),
                 ingest_s=round(ingest_s, 2), seed=seed, peak_rss_mib=rss, checkpoint_mib=ckpt if name == "harness" else None)
        out.append(r)
        print(f"{room:>7} {len(truth.documents):>5} docs {name:<9} pass {res.pass_rate:6.1%} all-pass {res.all_pass!s:<5} recall {res.clause_recall:6.1%} "
              f"cit {res.citation_correct:6.1%} cov-docs {res.coverage_documents or 0:6.1%} cov-tok {res.coverage_tokens or 0:6.1%} "
              f"root {res.root_token_share or 0:6.2%} subs {res.sub_agents} wall {res.wall_seconds}s", flush=True)
    return out


def checkpoint_mib(settings: Settings) -> float:
    """Size of the workspace's checkpoint database with its write-ahead log: LangGraph writes the whole graph
    state at every superstep, so this shows whether the state stays small as the room grows."""
    base = settings.checkpoint_path()
    return sum(p.stat().st_size for p in (base, base.with_name(base.name + "-wal")) if p.exists()) / 2**20


def peak_rss_mib() -> float:
    """Peak resident set of this process or of any child it has waited for (Linux reports KiB)."""
    kib = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    return round(kib / 1024, 1)


def bench_size_isolated(n: int, a: argparse.Namespace, work: Path) -> list[dict]:
    """bench_size in a fresh interpreter: peak RSS must not carry over from a smaller room run before it."""
    out = work / f"rows-{n}.json"
    cmd = [sys.executable, str(Path(__file__).resolve()), "--sizes", str(n), "--seed", str(a.seed), "--embedding", a.embedding,
           "--k", str(a.k), "--work", str(work), "--workers", str(a.workers), "--rows-json", str(out)]
    cmd += ["--as-of", a.as_of.isoformat()] if a.as_of else []
    subprocess.run(cmd + (["--prepare"] if a.prepare else []), check=True)
    return json.loads(out.read_text(encoding="utf-8"))


def _pct(v: float | None, digits: int = 1) -> str:
    return "-" if v is None else f"{v:.{digits}%}"


def table(rows: list[dict]) -> str:
    cols = ["room", "docs", "embedding", "system", "criteria", "pass rate", "all pass", "flags", "not flagged", "scope", "clause recall",
            "citation correct", "docs reviewed", "tokens reviewed", "root-token share", "sub-agents", "tokens", "wall (s)",
            "ingest (s)", "peak RSS (MiB)"]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in rows:
        k = r["pass_rate_by_kind"]
        cells = [r["room"], r["docs"], r.get("embedding", "minilm"), r["system"], r["criteria"], _pct(r["pass_rate"]), "yes" if r["all_pass"] else "no",
                 _pct(k.get("flags")), _pct(k.get("not_flagged")), _pct(k.get("scope")), _pct(r["clause_recall"]),
                 _pct(r["citation_correct"]), _pct(r["coverage_documents"]), _pct(r["coverage_tokens"]),
                 _pct(r["root_token_share"], 2), r["sub_agents"], r["tokens_total"], r["wall_seconds"],
                 r.get("ingest_s", "-"), r.get("peak_rss_mib", "-")]
        lines.append("| " + " | ".join(str(c) for c in cells) + " |")
    return "\n".join(lines)


def scaling_table(rows: list[dict]) -> str:
    """Is time linear in the room's size? Seconds per 1,000 documents should stay flat as rooms grow."""
    lines = ["| docs | embedding | ingest s | ingest s / 1,000 docs | harness review s | harness s / 1,000 docs | peak RSS (MiB) "
             "| checkpoints (MiB) |", "|---|---|---|---|---|---|---|---|"]
    for r in sorted((r for r in rows if r["system"] == "harness" and r["room"] != "sample"), key=lambda r: r["docs"]):
        per = lambda v: f"{v / r['docs'] * 1000:.1f}" if isinstance(v, (int, float)) else "-"  # noqa: E731
        lines.append(f"| {r['docs']} | {r.get('embedding', 'minilm')} | {r.get('ingest_s', '-')} | {per(r.get('ingest_s'))} | "
                     f"{r['wall_seconds']} | {per(r['wall_seconds'])} | {r.get('peak_rss_mib', '-')} | "
                     f"{r.get('checkpoint_mib') if r.get('checkpoint_mib') is not None else '-'} |")
    return "\n".join(lines)


def write_docs(rows: list[dict], command: str) -> None:
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    # Merge with earlier runs (e.g. a large room run separately with the hash embedder); same key = replaced.
    key = lambda r: (r["room"], r.get("embedding", "minilm"), r["system"])  # noqa: E731
    res_path = DOCS / "diligence_results.json"
    old = json.loads(res_path.read_text(encoding="utf-8")) if res_path.exists() else []
    merged = {key(r): r for r in old if "room" in r}
    merged.update({key(r): r for r in rows})
    rows = sorted(merged.values(), key=lambda r: (r["docs"] if r["room"] != "sample" else -1, r.get("embedding", ""), r["system"]))
    res_path.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    panels = [("pass_rate", "Rubric pass rate"), ("clause_recall", "Clause recall"), ("coverage_documents", "Documents reviewed (share)"),
              ("coverage_tokens", "Tokens reviewed (share)"), ("wall_seconds", "Review wall time (s)"), ("peak_rss_mib", "Peak RSS of the size's process (MiB)")]
    fig = make_subplots(rows=2, cols=3, subplot_titles=[t for _, t in panels])
    for system in sorted({r["system"] for r in rows}):
        rs = sorted((r for r in rows if r["system"] == system and r["room"] != "sample"), key=lambda r: r["docs"])
        x = [r["docs"] for r in rs]
        for i, (key, _) in enumerate(panels):
            if key == "peak_rss_mib" and system != "harness":
                continue  # one process ran all three systems: one line is the truth
            name = "all systems (one process)" if key == "peak_rss_mib" else system
            fig.add_trace(go.Scatter(x=x, y=[r.get(key) for r in rs], name=name, legendgroup=system, showlegend=i == 0,
                                     mode="lines+markers"), row=i // 3 + 1, col=i % 3 + 1)
    fig.update_xaxes(type="log", title_text="documents in room")
    for i in range(4):
        fig.update_yaxes(range=[0, 1.05], tickformat=".0%", row=i // 3 + 1, col=i % 3 + 1)
    fig.update_yaxes(type="log", row=2, col=2)
    fig.update_layout(title="Diligence benchmark (synthetic rooms, offline reviewer)", height=760, width=1250)
    fig.write_html(DOCS / "diligence_charts.html", include_plotlyjs="cdn")
    commands = sorted({r.get("command", "") for r in rows} - {""})
    block = "\n".join([START, "", "Commands: " + "; ".join(f"`{c}`" for c in commands), "", table(rows), "",
                       "Scaling (harness row of each size; peak RSS covers ingest and all three systems):", "",
                       scaling_table(rows), "",
                       "Charts: `docs/diligence_charts.html`; raw numbers: `docs/diligence_results.json`.", "", END])
    path = DOCS / "BENCHMARKS.md"
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmarks\n"
    if START in text and END in text:
        text = text[:text.index(START)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n## Diligence benchmark\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sizes", type=int, nargs="+", default=[0, 10, 100, 1000], help="room sizes; 0 = the bundled sample room")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--embedding", choices=["minilm", "hash"], default="minilm")
    p.add_argument("--k", type=int, default=8, help="retrieval baseline: chunks per checklist item")
    p.add_argument("--work", type=Path, help="where rooms and workspaces go (default: a temporary folder)")
    p.add_argument("--workers", type=int, default=0, help="ingest parser processes (0 = one per core)")
    p.add_argument("--prepare", action="store_true", help="generate and ingest only (fills --work for a later run)")
    p.add_argument("--as-of", type=date.fromisoformat, help="review as of this date (default: the room truth's as_of)")
    p.add_argument("--write-docs", action="store_true")
    p.add_argument("--rows-json", type=Path, help=argparse.SUPPRESS)  # set by the parent for one size in a child process
    a = p.parse_args(argv)
    work = a.work or Path(tempfile.mkdtemp(prefix="diligence-"))
    if a.rows_json:
        rows = [r for n in a.sizes for r in bench_size(n, a.seed, a.embedding, a.k, work, a.workers, a.prepare, a.as_of)]
        a.rows_json.write_text(json.dumps(rows), encoding="utf-8")
        return 0
    rows = [r for n in a.sizes for r in bench_size_isolated(n, a, work)]
    if a.write_docs:
        command = "python bench/diligence.py " + " ".join(argv if argv is not None else sys.argv[1:])
        for r in rows:
            r["command"] = command
        write_docs(rows, command)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
