"""Parser processes: forked with unstructured already imported, fed largest file first."""

from __future__ import annotations

import multiprocessing as mp

import pytest

from core.settings import Settings
from core.types import ParseStatus
from ingest.pipeline import ingest_room

from .probe import preloaded_parse

pytestmark = pytest.mark.slow


def _settings(tmp_path, workers: int) -> Settings:
    s = Settings(workspace=tmp_path / "ws")
    s.ingest.workers = workers
    s.embedding.model = "hash"
    return s


@pytest.mark.skipif("forkserver" not in mp.get_all_start_methods(), reason="no forkserver on this platform")
def test_workers_start_with_unstructured_imported(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    # text files: parsing them never imports the PDF partitioner, so only the preload can have
    for i in range(4):
        (src / f"note{i}.txt").write_text(f"Note {i}.\n\nThe licence may not be assigned without consent.\n")
    report = ingest_room(src, "pre", _settings(tmp_path, 2), parse_fn=preloaded_parse)
    assert {d.path: (d.status, d.reason) for d in report.documents} == {
        f"note{i}.txt": (ParseStatus.parsed, "") for i in range(4)
    }


def test_largest_files_are_parsed_first(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    sizes = {"a.txt": 300, "b.txt": 5000, "c.txt": 40, "d.txt": 2000}
    for name, n in sizes.items():
        (src / name).write_text("Clause. " * (n // 8))
    done: list[str] = []
    ingest_room(src, "order", _settings(tmp_path, 1), progress=lambda d, t, cur: cur and done.append(cur))
    assert done == sorted(sizes, key=lambda n: -sizes[n])  # one worker: finish order is submission order
