"""The Review table page on a synthetic room: 1,000 documents × 50 questions by default.

    python bench/table.py [--docs 1000] [--columns 50] [--repeats 3] [--work DIR]

Builds a workspace with one finished run of N synthetic agreements (each one text with its parties, dates,
term and law varied, its agreement facts read by agents.facts, and one finding), builds the table
(agents.table.build.build_table: N × (41 CUAD + checklist) answers), then drives the real page script with
Streamlit's AppTest (the server's script runner without a browser) and times, median of --repeats:
- first render: a fresh session opening the page (the grid of the default 12 columns, page 1 of 100 rows);
- all columns: the same session switching to the first --columns columns;
- filter: typing a word into "Contains" (filters every row on every shown column);
- sort: choosing a column to sort by;
and the XLSX and CSV exports of the whole table (every cell, comments with the passages). Wall and process CPU
seconds are both printed: on a shared machine the CPU figure is the steadier one.
A browser adds drawing time on top (the grid is virtualised by st.dataframe; 100 rows per page).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.checklist import load_checklist  # noqa: E402
from core.settings import REPO_ROOT, EmbeddingSettings, Settings  # noqa: E402
from core.types import Assignment, AssignmentStatus, Citation, Document, Finding  # noqa: E402

ROOM = "bench-table"
MAIN = str(REPO_ROOT / "app" / "main.py")
LAWS = ["New York", "Delaware", "California", "England and Wales", "Texas", "Ontario"]
TEXT = """{kind} AGREEMENT

This {kind} Agreement is made and entered into as of {month} {day}, {year} by and between {a} Holdings, Inc., a
Delaware corporation ("{role_a}"), and {b} Partners LLC, a New York limited liability company ("{role_b}").

1. Term. This Agreement shall continue for a period of {years} years and shall renew automatically for successive
one (1) year periods unless either party gives notice at least {notice} days prior to the end of the term.

2. Assignment. Neither party may assign this Agreement without the prior written consent of the other party.

3. Governing Law. This Agreement shall be governed by the laws of the State of {law}.
"""
KINDS = ["SUPPLY", "LICENSE", "DISTRIBUTION", "SERVICES", "RESELLER"]
MONTHS = ["January", "March", "May", "July", "September", "November"]


def text_of(i: int) -> str:
    return TEXT.format(kind=KINDS[i % 5], month=MONTHS[i % 6], day=1 + i % 28, year=2005 + i % 18,
                       a=f"Alpha{i}", b=f"Beta{i * 7 % 1000}", role_a="Supplier", role_b="Customer",
                       years=1 + i % 5, notice=30 * (1 + i % 3), law=LAWS[i % 6].replace("State of ", ""))


def make_room(settings: Settings, n: int):
    from agents.facts import extract_facts
    from agents.memo.derive import facts_version
    from agents.store import ReviewStore
    from agents.table.build import build_table
    from ingest.index.manifest import Manifest

    Manifest(settings, ROOM)  # the page lists rooms that have a manifest
    store = ReviewStore(settings.db_path())
    docs = [Document(room=ROOM, path=f"Contracts/Batch {i // 100:02d}/agreement-{i:04d}.txt", folder="Contracts",
                     doc_type="txt", pages=1, tokens=300, sha256=f"{i:064d}") for i in range(n)]
    texts = {d.id: text_of(i) for i, d in enumerate(docs)}
    run_id = "bench-run"
    store.create_run(run_id, ROOM, settings, docs, status="finished")
    clause = "Neither party may assign this Agreement without the prior written consent of the other party"
    with store.batch():
        for d in docs:
            t = texts[d.id]
            store.put_document_facts(d.id, facts_version(), extract_facts(t).model_dump(mode="json"))
            a = Assignment(id=f"a-{d.id}", agent="bench", document_ids=[d.id], status=AssignmentStatus.done)
            store.put_assignment(run_id, a, None, "review", True)
            store.finish_assignment(run_id, a)
            s = t.index(clause)
            store.add_findings(run_id, [Finding(
                category="anti_assignment", severity="medium", summary="Assignment needs consent.", quote=clause,
                verified=True, confidence=0.9, extra={"cuad": "Anti-Assignment"},
                citation=Citation(document_id=d.id, document_path=d.path, chunk_id="c", char_start=s,
                                  char_end=s + len(clause)))], None)
    t0 = time.perf_counter()
    answers = build_table(store, run_id, load_checklist(settings.checklist_path), texts.__getitem__)
    return store, run_id, time.perf_counter() - t0, len(answers)


CPU: dict[str, list[float]] = {}


def timed(fn, step: str = "") -> float:
    """Wall seconds; the process's CPU seconds go to CPU[step] (on a shared machine the wall time includes
    waiting for a core: the CPU time is the steadier figure)."""
    t0, c0 = time.perf_counter(), time.process_time()
    fn()
    CPU.setdefault(step, []).append(time.process_time() - c0)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--docs", type=int, default=1000)
    p.add_argument("--columns", type=int, default=50)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--work", type=Path, help="workspace folder (default: a temporary one)")
    a = p.parse_args(argv)
    import os

    work = a.work or Path(tempfile.mkdtemp(prefix="bench-table-"))
    os.environ["DATAROOM_WORKSPACE"] = str(work / "workspace")
    os.environ["DATAROOM_EMBEDDING__MODEL"] = "hash"
    settings = Settings(workspace=work / "workspace", embedding=EmbeddingSettings(model="hash"))
    store, run_id, build_s, n_answers = make_room(settings, a.docs)
    print(f"{a.docs} documents; table built in {build_s:.1f} s ({n_answers} answers)")

    from streamlit.testing.v1 import AppTest

    from agents.table import export
    from agents.table.grid import load_grid

    columns = [c.id for c in load_grid(store, run_id, with_quotes=False).columns][: a.columns]
    results: dict[str, list[float]] = {"first render": [], f"all {len(columns)} columns": [], "filter": [],
                                       "sort": []}
    for _ in range(a.repeats):
        at = AppTest.from_file(MAIN, default_timeout=300)
        at.session_state["room"] = ROOM
        at.session_state["run_id"] = run_id
        at.switch_page("pages/table.py")
        results["first render"].append(timed(at.run, "first render"))
        assert not at.exception, at.exception
        assert f"{a.docs} of {a.docs} documents" in " ".join(c.value for c in at.caption)
        ms = next(m for m in at.multiselect if m.label == "Columns")
        results[f"all {len(columns)} columns"].append(timed(lambda: ms.set_value(columns).run(), f"all {len(columns)} columns"))
        box = next(t for t in at.text_input if t.label == "Contains")
        results["filter"].append(timed(lambda: box.input("delaware").run(), "filter"))
        assert not at.exception and f"of {a.docs} documents" in " ".join(c.value for c in at.caption)
        shown = at.dataframe[0].value
        assert len(shown) == min(100, a.docs // 6 + 1), len(shown)
        sort = next(s for s in at.selectbox if s.label == "Sort by")
        results["sort"].append(timed(lambda: sort.set_value("Agreement Date").run(), "sort"))
        assert not at.exception
    grid = load_grid(store, run_id)
    grid.columns = grid.columns[: a.columns]
    results["XLSX export"] = [timed(lambda: export.to_xlsx(grid), "XLSX export")]
    results["CSV export"] = [timed(lambda: export.to_csv(grid), "CSV export")]
    print(f"{'step':<22} {'wall median s':>13} {'CPU median s':>12}   wall runs / CPU runs")
    for k, v in results.items():
        c = CPU[k]
        print(f"{k:<22} {statistics.median(v):>13.2f} {statistics.median(c):>12.2f}   "
              f"{', '.join(f'{x:.2f}' for x in v)} / {', '.join(f'{x:.2f}' for x in c)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
