"""Session fixture: a fixed sample of CUAD contracts ingested once (cuad tests share it)."""

from __future__ import annotations

import csv
import shutil

import pytest

from core.settings import Settings

CUAD_SAMPLE = 15  # contracts; every 7th of the 107 by pdf_path, so the sample spans Part_I..III


def cuad_rows(cuad_dir) -> list[dict]:
    csv.field_size_limit(1 << 30)
    with (cuad_dir / "labels.csv").open(newline="", encoding="utf-8") as f:
        return sorted(csv.DictReader(f), key=lambda r: r["pdf_path"])


@pytest.fixture(scope="session")
def cuad_room(cuad_dir, tmp_path_factory):
    """(settings, report, sampled label rows): the sample laid out as a room and ingested with 2 workers.

    Embeddings are the 'hash' kind: these tests check text, chunks and offsets,
    and MiniLM over ~1,000 chunks would add minutes on 2 shared cores.
    """
    from ingest.pipeline import ingest_room

    rows = cuad_rows(cuad_dir)[::7][:CUAD_SAMPLE]
    base = tmp_path_factory.mktemp("cuad")
    src = base / "room"
    for r in rows:
        rel = r["pdf_path"].removeprefix("contracts/")
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(cuad_dir / r["pdf_path"], src / rel)
    settings = Settings(workspace=base / "workspace")
    settings.embedding.model = "hash"
    settings.ingest.workers = 2
    report = ingest_room(src, "cuad", settings)
    return settings, report, rows
