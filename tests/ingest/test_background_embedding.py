"""A room is reviewable before its vectors exist; a crash while embedding leaves a room that says so and resumes;
a process that opened the store earlier sees the vectors another process wrote since."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from core.settings import ASSETS, REPO_ROOT, Settings
from ingest.index.manifest import Manifest
from ingest.pipeline import STAGE_ORDER, ingest_room
from ingest.index.store import open_store
from ingest.vectors import embed_pending

QUERY = "assignment of this agreement on a change of control"
# Ingests the sample room in a child process that dies (os._exit, no cleanup) after its second batch of vectors.
CRASH = """
import os, sys
from pathlib import Path
from core.settings import ASSETS, Settings
import ingest.vectors as V
from ingest.pipeline import ingest_room
s = Settings(workspace=Path(sys.argv[1]), embedding={"model": "hash"})
mark, n = V.Manifest.mark_embedded, [0]
def dies_after_two(self, ids):
    mark(self, ids)
    n[0] += 1
    if n[0] == 2:
        os._exit(9)
V.Manifest.mark_embedded = dies_after_two
if __name__ == "__main__":
    ingest_room(ASSETS / "sample_room", "sample", s, mode="new")
"""


def _settings(tmp_path: Path) -> Settings:
    s = Settings(workspace=tmp_path / "ws")
    s.embedding.model = "hash"
    return s


def test_reviewable_before_embedded_with_stages_in_order(tmp_path):
    s = _settings(tmp_path)
    seen: list[tuple] = []
    report = ingest_room(ASSETS / "sample_room", "sample", s, mode="new", embed=False,
                         on_stage=lambda *a: seen.append(a))
    man = Manifest(s, "sample")
    assert man.stage() == "reviewable"
    assert report.parsed == 31 and report.pending_chunks == report.chunks == man.embedding_counts()[1] > 0
    assert man.embedding_counts()[0] == 0 and open_store(s, "sample").count() == 0
    # reviewable: every parsed document has its text, chunks and keyword index
    for d in man.documents(status="parsed"):
        assert man.chunks(d.id) and man.document_text(d.id)
    hits = open_store(s, "sample").search(QUERY, 5)
    assert hits and all(h.match == "keyword" for h in hits) and hits.partial
    assert "0 of" in hits.note() and "words only" in hits.note()
    stages = [a[0] for a in seen]
    assert stages[0] == "copying" and "parsing" in stages and stages[-1] == "embedding"
    assert [x for x in STAGE_ORDER if x in stages] == list(dict.fromkeys(stages))  # in order, none out of turn
    parsing = [a for a in seen if a[0] == "parsing"]
    assert parsing[-1][1] == parsing[-1][2] >= 31  # every file parsed (or failed) before indexing

    seen.clear()
    assert embed_pending(s, "sample", lambda d, t: seen.append((d, t))) == report.chunks
    assert man.stage() == "embedded" and man.embedding_counts() == (report.chunks, report.chunks)
    assert seen[0] == (0, report.chunks) and seen[-1] == (report.chunks, report.chunks)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    hits = open_store(s, "sample").search(QUERY, 5)
    assert not hits.partial and hits.note() == "" and any(h.match != "keyword" for h in hits)


def test_crash_while_embedding_resumes_and_a_reader_sees_every_vector(tmp_path):
    s = _settings(tmp_path)
    reader = open_store(s, "sample")  # this process opens the store first, as the app and run workers do
    script = tmp_path / "crash.py"
    script.write_text(CRASH, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    proc = subprocess.run([sys.executable, str(script), str(s.workspace)], cwd=REPO_ROOT, env=env, timeout=300)
    assert proc.returncode == 9
    man = Manifest(s, "sample")
    done, total = man.embedding_counts()
    assert man.stage() == "reviewable" and 0 < done < total  # never looks complete
    assert reader.count() == done  # every chunk marked embedded has its vector
    hits = reader.search(QUERY, 5)
    assert hits.partial and f"{done:,} of {total:,}" in hits.note()
    assert all(h.match == "keyword" or h.chunk.id for h in hits)

    script.write_text(
        "import sys\nfrom pathlib import Path\nfrom core.settings import Settings\nfrom ingest.vectors import embed_pending\n"
        "s = Settings(workspace=Path(sys.argv[1]), embedding={'model': 'hash'})\nprint(embed_pending(s, 'sample'))\n",
        encoding="utf-8")
    out = subprocess.run([sys.executable, str(script), str(s.workspace)], cwd=REPO_ROOT, env=env, timeout=300,
                         capture_output=True, text=True, check=True).stdout
    assert int(out.strip().splitlines()[-1]) == total - done
    assert man.stage() == "embedded" and man.embedding_counts() == (total, total)
    # the reader's Chroma index loaded before the resume; its results match a fresh open's (exact top k)
    fresh = subprocess.run(
        [sys.executable, "-c",
         "import sys\nfrom pathlib import Path\nfrom core.settings import Settings\nfrom ingest.index.store import open_store\n"
         "s = Settings(workspace=Path(sys.argv[1]), embedding={'model': 'hash'})\n"
         f"print(sorted(c for c, _ in open_store(s, 'sample').semantic({QUERY!r}, 12)))",
         str(s.workspace)], cwd=REPO_ROOT, env=env, capture_output=True, text=True, check=True, timeout=300).stdout
    assert str(sorted(c for c, _ in reader.semantic(QUERY, 12))) == fresh.strip().splitlines()[-1]
    assert not reader.search(QUERY, 5).partial


def test_an_old_manifest_reads_as_embedded(tmp_path):
    import sqlite3

    s = _settings(tmp_path)
    d = s.room_dir("old")
    d.mkdir(parents=True)
    with sqlite3.connect(d / "manifest.sqlite") as con:  # the schema before stages: every chunk had its vector
        con.execute("CREATE TABLE chunks (id TEXT PRIMARY KEY, document_id TEXT NOT NULL, idx INTEGER, text TEXT, page INTEGER,"
                    " page_end INTEGER, element_types TEXT, char_start INTEGER, char_end INTEGER, tokens INTEGER)")
        con.execute("INSERT INTO chunks VALUES ('c1', 'd1', 0, 'x', 1, 1, '[]', 0, 1, 1)")
    man = Manifest(s, "old")
    assert man.stage() == "embedded" and man.embedding_counts() == (1, 1)


def test_room_stage_is_the_contract_for_review(tmp_path):
    from ingest.intake.rooms import is_reviewable, list_rooms, room_stage

    s = _settings(tmp_path)
    assert room_stage(s, "none") is None and not is_reviewable(s, "none")
    Manifest(s, "mid").set_stage("ingesting")  # as a crash while parsing leaves it
    assert room_stage(s, "mid") == "ingesting" and not is_reviewable(s, "mid")
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text("The licensee shall not assign this agreement.", encoding="utf-8")
    ingest_room(src, "room", s, embed=False)
    assert room_stage(s, "room") == "reviewable" and is_reviewable(s, "room")
    embed_pending(s, "room")
    assert room_stage(s, "room") == "embedded" and {r.name: r.stage for r in list_rooms(s)}["room"] == "embedded"
