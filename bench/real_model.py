"""The harness against a real model (issue #20): a 5-document room reviewed by an OpenAI-compatible server.

    scripts/real_model.sh                                   # builds llama.cpp's server, serves SmolLM2-135M, runs this
    scripts/real_model.sh bench --gguf ~/models/qwen2.5-1.5b-instruct-q4_k_m.gguf   # any GGUF, same server
    .venv/bin/python bench/real_model.py --endpoint http://127.0.0.1:8000/v1 --model NAME   # a server you run

The room is the first five files of the bundled sample room in path order (or --room-dir, its first --docs
files), ingested with the real pipeline into a fresh temporary workspace. Root and sub-agents use the same model.
The key of an endpoint that needs one comes from DATAROOM_LLM__API_KEY. Reported: root steps the model drove vs the built-in planner (and the planner's notes), the request form each
endpoint ended up with and how root replies were read, findings, verified share, tokens, wall time.

Exit 0 when the run finished with full coverage and every finding shown as verified has its quote verbatim
(up to whitespace) at its cited span of the document text, re-checked here apart from agents.verify; 1 otherwise.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pydantic import SecretStr  # noqa: E402

from agents.runtime.breaker import CircuitOpen  # noqa: E402
from agents.run.harness import run_review  # noqa: E402
from agents.llm import build_llm_policies  # noqa: E402
from agents.llm.report import endpoint_forms, form_line, root_drive  # noqa: E402
from agents.store import open_review_store  # noqa: E402
from agents.runtime.trajectory import trajectory_for  # noqa: E402
from core.checklist import load_checklist  # noqa: E402
from core.settings import LLMSettings, Settings  # noqa: E402
from ingest.index.manifest import Manifest  # noqa: E402
from ingest.pipeline import ingest_room  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "assets" / "sample_room"
ROOM = "real-model"


def first_files(src: Path, n: int) -> list[Path]:
    return sorted((p for p in src.rglob("*") if p.is_file() and not p.name.startswith(".")),
                  key=lambda p: p.relative_to(src).as_posix())[:n]


def copy_room(src: Path, n: int, dest: Path) -> list[str]:
    out = []
    for p in first_files(src, n):
        rel = p.relative_to(src)
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(p, dest / rel)
        out.append(rel.as_posix())
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """llama.cpp's llama-server on loopback, stopped on exit. -n caps a reply: a small model that rambles
    would otherwise write until its context is full."""

    def __init__(self, binary: str, gguf: str, port: int, ctx: int, slots: int, n_predict: int, log: Path):
        self.url = f"http://127.0.0.1:{port}"
        self.log = log
        cmd = [binary, "-m", gguf, "--host", "127.0.0.1", "--port", str(port), "--jinja",
               "-c", str(ctx * slots), "-np", str(slots), "-n", str(n_predict)]
        self.proc = subprocess.Popen(cmd, stdout=log.open("wb"), stderr=subprocess.STDOUT)

    def wait(self, timeout_s: float) -> None:
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise RuntimeError(f"llama-server exited ({self.proc.returncode}); its log: {self.log}")
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.5)
        raise TimeoutError(f"llama-server not healthy after {timeout_s:.0f} s; its log: {self.log}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


def recheck_verified(settings: Settings, store, run_id: str) -> tuple[list, list[str]]:
    """Findings shown as verified whose quote is not at their cited span, by a plain string comparison."""
    manifest = Manifest(settings, ROOM)
    findings = store.findings(run_id)
    texts: dict[str, str] = {}
    bad = []
    for f in findings:
        if not f.verified:
            continue
        doc = f.citation.document_id
        if doc not in texts:
            texts[doc] = manifest.document_text(doc)
        c = f.citation
        span = texts[doc][c.char_start:c.char_end] if 0 <= c.char_start < c.char_end else ""
        if not f.quote.strip() or _norm(span) != _norm(f.quote):
            bad.append(f"{f.id}: {f.quote[:80]!r}")
    return findings, bad


def run(args: argparse.Namespace) -> dict:
    work = Path(args.work) if args.work else Path(tempfile.mkdtemp(prefix="real_model_"))
    settings = Settings(workspace=work / "workspace")
    src = work / "room"
    files = copy_room(Path(args.room_dir), args.docs, src)
    t0 = time.perf_counter()
    ingest_room(src, ROOM, settings)
    ingest_s = time.perf_counter() - t0

    server = None
    endpoint, model = args.endpoint, args.model
    if not endpoint:
        gguf = args.gguf or args.default_gguf
        if not (args.server_bin and gguf):
            raise SystemExit("give --endpoint URL, or --server-bin and --gguf (scripts/real_model.sh passes both)")
        server = Server(args.server_bin, gguf, args.port or free_port(), args.ctx, args.slots, args.n_predict,
                        work / "llama-server.log")
        endpoint, model = server.url + "/v1", model or Path(gguf).stem
    try:
        if server is not None:
            server.wait(args.server_timeout_s)
        settings.llm = LLMSettings(base_url=endpoint, root_model=model, sub_model=args.sub_model or model,
                                   api_key=SecretStr(os.environ.get("DATAROOM_LLM__API_KEY", "")),
                                   timeout_s=args.request_timeout_s, max_retries=args.max_retries)
        h = settings.harness
        # one slot's context holds a sub-agent's prompt; the server runs `slots` requests at once
        h.sub_context_tokens, h.sub_prompt_reserve_tokens = args.ctx, min(3000, args.ctx // 2)
        h.max_concurrency = args.slots
        h.max_run_seconds = args.max_run_seconds
        items = load_checklist(settings.checklist_path)

        async def go():
            policy, reviewer = build_llm_policies(settings, items)
            try:
                return await run_review(settings, ROOM, run_id="real-model-run", policy=policy, reviewer=reviewer)
            finally:
                await policy.aclose()
                await reviewer.aclose()

        t1 = time.perf_counter()
        try:
            stats = asyncio.run(go())
        except CircuitOpen as e:  # the endpoint kept failing: mark the run failed as the CLI does, and report it
            stats = {"reason": f"error: {e}"}
            open_review_store(settings).set_run_status("real-model-run", "failed", error=str(e)[:1000])
        wall = time.perf_counter() - t1
    finally:
        if server is not None:
            server.stop()

    store = open_review_store(settings)
    records = trajectory_for(settings, "real-model-run").read()
    findings, bad = recheck_verified(settings, store, "real-model-run")
    verified = sum(f.verified for f in findings)
    run_row = store.run("real-model-run")
    report = {
        "endpoint": endpoint if server is None else "llama-server (loopback)", "model": model,
        "sub_model": args.sub_model or model,
        "documents": files, "ingest_seconds": round(ingest_s, 1), "wall_seconds": round(wall, 1),
        "status": run_row.status if run_row else "?", "reason": stats.get("reason", ""),
        "coverage": stats.get("coverage", {}), "root": root_drive(records),
        "sub_reviews": {"total": len({(r.get("assignment_id"), r.get("document_id")) for r in records
                                      if r.get("type") == "sub_call"}),
                        "by_builtin_reviewer": len({(r.get("assignment_id"), r.get("document_id")) for r in records
                                                    if r.get("type") == "sub_call" and r.get("fallback")})},
        "forms": endpoint_forms(records),
        "findings": {"total": len(findings), "verified": verified,
                     "verified_share": round(verified / len(findings), 3) if findings else None,
                     "verified_but_not_at_span": bad},
        "tokens": stats.get("tokens", {}), "workspace": str(settings.workspace),
    }
    cov = report["coverage"]
    report["ok"] = (report["status"] == "finished" and not str(report["reason"]).startswith("error")
                    and cov.get("documents_total", 0) > 0 and cov.get("documents_ratio", 0) >= 1.0 and not bad)
    return report


def print_report(r: dict) -> None:
    c, t, f, root = r["coverage"], r["tokens"], r["findings"], r["root"]
    print(f"model {r['model']} (sub-agents {r['sub_model']}) at {r['endpoint']}; room: {len(r['documents'])} documents ({', '.join(r['documents'])})")
    print(f"run {r['status']} ({r['reason']}); coverage {c.get('documents_reviewed')}/{c.get('documents_total')} "
          f"documents, {c.get('tokens_ratio', 0):.1%} of tokens; wall {r['wall_seconds']} s (ingest {r['ingest_seconds']} s)")
    print(f"root steps {root['steps']}: model drove {root['model']}, built-in planner {root['planner']} alone, "
          f"{root['model+planner']} after the model's own calls")
    for n in root["notes"][:10]:
        print(f"  {n}")
    sub = r["sub_reviews"]
    print(f"document reviews {sub['total']}: the sub model's own {sub['total'] - sub['by_builtin_reviewer']}, the built-in "
          f"reviewer {sub['by_builtin_reviewer']} (the model's reply was unusable)")
    for row in r["forms"]:
        print(f"request form: {form_line(row)}")
    share = "n/a" if f["verified_share"] is None else f"{f['verified_share']:.0%}"
    print(f"findings {f['total']}, verified {f['verified']} ({share}); shown verified but not at their span: "
          f"{len(f['verified_but_not_at_span'])}")
    print(f"tokens: root {t.get('root_in', 0) + t.get('root_out', 0):,}, sub-agents {t.get('sub_in', 0) + t.get('sub_out', 0):,}; "
          f"calls root {t.get('root_calls', 0)}, sub {t.get('sub_calls', 0)}")
    print("OK" if r["ok"] else "NOT OK: the run did not finish with full coverage, or a verified quote failed the re-check")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--endpoint", help="an OpenAI-compatible base URL you run (no server is started)")
    ap.add_argument("--model", help="model name to send (default: the GGUF file's stem)")
    ap.add_argument("--sub-model", help="another model on the same endpoint for the sub-agents (default: --model)")
    ap.add_argument("--work", help="folder for the room copy and the workspace (default: a new temporary one)")
    ap.add_argument("--gguf", help="a GGUF model for the built server (default: SmolLM2-135M-Instruct)")
    ap.add_argument("--server-bin", help="llama-server binary (scripts/real_model.sh passes its build)")
    ap.add_argument("--default-gguf", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--ctx", type=int, default=8192, help="context tokens per server slot (SmolLM2: 8192)")
    ap.add_argument("--slots", type=int, default=2, help="requests the server runs at once (= sub-agents at once)")
    ap.add_argument("--n-predict", type=int, default=384, help="most tokens one reply may have")
    ap.add_argument("--room-dir", default=str(SAMPLE))
    ap.add_argument("--docs", type=int, default=5)
    ap.add_argument("--max-retries", type=int, default=1)
    ap.add_argument("--request-timeout-s", type=float, default=600.0)
    ap.add_argument("--max-run-seconds", type=float, default=5400.0)
    ap.add_argument("--server-timeout-s", type=float, default=120.0)
    ap.add_argument("--json", help="also write the report here")
    args = ap.parse_args(argv)
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    report = run(args)
    print_report(report)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str), encoding="utf-8")
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
