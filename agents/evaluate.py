"""Score the reviewers on CUAD-style labels: per category document-level P/R and quote overlap.

    python -m agents.evaluate --labels DIR/labels.csv --contracts DIR/contracts [--json OUT] [--cv K]
                              [--source pdf|txt] [--reviewer offline|llm] [--limit N]

`--source pdf` (default) ingests the contracts with the real pipeline
(ingest.pipeline.ingest_room) and reviews the manifest's chunks; `txt` chunks
the labelled txt files locally (fast; for properties that do not depend on
PDF extraction). `--cv K` retrains the classifier K times on the txt of K-1
folds of documents (thresholds from the other folds' out-of-fold scores) and
reviews the held-out fold, so every document is scored by a model that never saw it.
Without `--cv` the shipped model (assets/reviewer/model.zip) is scored, which
for cuad-dev is in-sample.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

from agents.evaluation.answers import answer_scores, gold_answers
from agents.evaluation.answers import table as answers_table
from agents.evaluation.labels import load_labels
from agents.evaluation.metrics import HEADLINE, macro, score, table
from agents.evaluation.sources import IngestUnavailable, pdf_documents, txt_documents
from agents.offline.model import DEFAULT_MODEL_PATH, ReviewerModel
from agents.offline.reviewer import OfflineReviewer
from core.checklist import load_checklist
from core.settings import get_settings
from core.text import locate_quote
from core.types import Assignment


def _llm_review(settings, docs, items) -> tuple[dict, float]:
    from agents.llm import LLMSubReviewer  # only with an endpoint configured

    sub = LLMSubReviewer(settings)
    out, t0 = {}, time.perf_counter()
    for con, doc, chunks, _ in docs:
        a = Assignment(id=f"eval-{doc.id}", agent="eval", document_ids=[doc.id])
        out[con.name] = asyncio.run(sub.review_document(a, doc, chunks, items)).findings
    return out, time.perf_counter() - t0


def _offline_review(reviewer: OfflineReviewer, docs, items) -> tuple[dict, float]:
    """Findings per contract and the review's CPU seconds (wall time on a shared machine says little)."""
    out, secs = {}, 0.0
    for con, doc, chunks, _ in docs:
        out[con.name] = reviewer.review(doc, chunks, items)
        secs += reviewer.last_stats.cpu_seconds
    return out, secs


def _cv_review(docs, items, categories_all, k: int, log) -> tuple[dict, float]:
    from agents.offline.training import build_doc, cuad_item_map, cv_models

    item_of = cuad_item_map(items)
    cats = [c for c in categories_all if c in item_of]
    t0 = time.perf_counter()
    train_docs = [build_doc(con, cats, item_of) for con, _, _, _ in docs]
    models, fold = cv_models(train_docs, cats, item_of, k)
    log(f"{k} fold models trained on txt ({time.perf_counter() - t0:.0f}s)")
    out, secs = {}, 0.0
    for f, model in enumerate(models):
        held = [d for d, g in zip(docs, fold) if g == f]
        part, s = _offline_review(OfflineReviewer(model=model), held, items)
        out.update(part)
        secs += s
        log(f"fold {f + 1}/{k}: trained on {len(docs) - len(held)}, reviewed {len(held)}")
    return out, secs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m agents.evaluate", description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, required=True, help="labels.csv in the CUAD layout")
    ap.add_argument("--contracts", type=Path, help="folder of contracts (default: contracts/ next to labels.csv)")
    ap.add_argument("--json", type=Path, help="write the results here as JSON")
    ap.add_argument("--cv", type=int, default=0, help="K-fold cross-validation by document (retrains; offline only)")
    ap.add_argument("--source", choices=["pdf", "txt"], default="pdf")
    ap.add_argument("--reviewer", choices=["offline", "llm"], default="offline")
    ap.add_argument("--model", type=Path, default=DEFAULT_MODEL_PATH, help="reviewer weights (offline)")
    ap.add_argument("--limit", type=int, default=0, help="only the first N labelled contracts")
    ap.add_argument("--room", default="cuad-eval", help="room name used for ingesting")
    ap.add_argument("--embedding", choices=["hash", "minilm"], default="hash",
                    help="embedder used while ingesting; the reviewer reads chunks, not vectors, so the cheap one is the default")
    args = ap.parse_args(argv)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    settings = get_settings()
    settings = settings.model_copy(update={"embedding": settings.embedding.model_copy(update={"model": args.embedding})})
    items = load_checklist(settings.checklist_path)
    categories, contracts = load_labels(args.labels)
    if args.limit:
        contracts = contracts[: args.limit]
    contracts_dir = args.contracts or args.labels.parent / "contracts"

    t0 = time.perf_counter()
    try:
        if args.source == "pdf":
            docs = list(pdf_documents(contracts, contracts_dir, settings, room=args.room))
        else:
            docs = list(txt_documents(contracts))
    except IngestUnavailable as exc:
        log(f"error: {exc}; use --source txt until the ingest layer is in place")
        return 2
    ingest_s = time.perf_counter() - t0
    log(f"{len(docs)} of {len(contracts)} labelled contracts loaded via {args.source} ({ingest_s:.0f}s)")

    if args.reviewer == "llm":
        if settings.llm.offline:
            log("error: --reviewer llm needs an endpoint (DATAROOM_LLM__BASE_URL)")
            return 2
        findings, review_s = _llm_review(settings, docs, items)
        mode = "llm"
    elif args.cv:
        findings, review_s = _cv_review(docs, items, categories, args.cv, log)
        mode = f"offline, {args.cv}-fold CV by document"
    else:
        findings, review_s = _offline_review(OfflineReviewer(model=ReviewerModel.load(args.model)), docs, items)
        mode = "offline, shipped model"

    chunk_of = {c.id: c for _, _, chunks, _ in docs for c in chunks}
    text_of = {doc.id: text for _, doc, _, text in docs}
    all_f = [f for fs in findings.values() for f in fs]
    verbatim = sum(1 for f in all_f if f.citation.chunk_id in chunk_of and locate_quote(f.quote, chunk_of[f.citation.chunk_id].text))
    spans_ok = sum(1 for f in all_f if text_of.get(f.citation.document_id, "")[f.citation.char_start:f.citation.char_end] == f.quote)
    item_cats = {it.id: it.cuad_categories for it in items}
    scores = score(categories, [c for c, _, _, _ in docs], findings, item_cats)
    pages = sum(doc.pages for _, doc, _, _ in docs)
    answers = answer_scores([c for c, _, _, _ in docs], {c.name: text for c, _, _, text in docs},
                            gold_answers(args.labels), findings, items)
    result = {
        "mode": mode, "source": args.source, "labels": str(args.labels), "contracts": len(docs),
        "pages": pages, "review_cpu_seconds": round(review_s, 2),
        "pages_per_cpu_second": round(pages / review_s, 1) if review_s else None,
        "ingest_seconds": round(ingest_s, 1), "findings": len(all_f), "quotes_verbatim_in_chunk": verbatim,
        "spans_exact_in_document": spans_ok,
        "macro_headline12": macro(scores, HEADLINE), "macro_all_mapped": macro([s for s in scores if s.item]),
        "macro_all41": macro(scores), "categories": [s.model_dump() for s in scores], "answers": answers,
    }
    print(f"# {mode}; source {args.source}; {len(docs)} contracts, {pages} pages\n")
    print(table(scores))
    print(f"\nmacro (12 headline categories): {result['macro_headline12']}")
    print(f"macro (all categories with a checklist item): {result['macro_all_mapped']}")
    print(f"macro (all {len(categories)} categories): {result['macro_all41']}")
    print(f"\ntyped answers (the review table's) against CUAD's -Answer columns:\n{answers_table(answers)}\n")
    print(f"findings {len(all_f)}; quotes verbatim in their chunk {verbatim}; spans exact in document text {spans_ok}")
    if review_s:
        print(f"review: {review_s:.1f} CPU-s for {pages} pages = {pages / review_s:.0f} pages per CPU-second (one core)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
