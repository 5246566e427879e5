"""Train the offline reviewer's classifier on CUAD-style labels; write assets/reviewer/model.zip.

    python scripts/train_reviewer.py [--labels ../shared/datasets/cuad-dev/labels.csv] [--out PATH] [--k 5]

Deterministic: the same labels give the same file, byte for byte.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.evaluation.labels import load_labels  # noqa: E402
from agents.offline.model import DEFAULT_MODEL_PATH  # noqa: E402
from agents.offline.training import build_doc, cuad_item_map, train_model  # noqa: E402
from core.checklist import load_checklist  # noqa: E402
from core.settings import REPO_ROOT, get_settings  # noqa: E402

DEFAULT_LABELS = REPO_ROOT.parent / "shared" / "datasets" / "cuad-dev" / "labels.csv"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--labels", type=Path, default=DEFAULT_LABELS)
    ap.add_argument("--out", type=Path, default=DEFAULT_MODEL_PATH)
    ap.add_argument("--k", type=int, default=5, help="folds for the out-of-fold thresholds")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    item_of = cuad_item_map(load_checklist(get_settings().checklist_path))
    all_cats, contracts = load_labels(args.labels)
    categories = [c for c in all_cats if c in item_of]
    docs = [build_doc(c, categories, item_of) for c in contracts]
    print(f"{len(docs)} contracts, {sum(len(d.texts) for d in docs)} units, {len(categories)} categories "
          f"({time.perf_counter() - t0:.0f}s)")
    model, _ = train_model(docs, categories, item_of, k=args.k)
    model.meta.update(trained_on=args.labels.parent.name, n_contracts=len(docs), k=args.k)
    model.save(args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB, {len(model.vocab)} features) "
          f"in {time.perf_counter() - t0:.0f}s")
    for c in categories:
        print(f"  {c:40s} threshold {model.thresholds[c]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
