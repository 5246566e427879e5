"""Ray executor (ingest.ray_address): a real local cluster (head + one worker node) makes the room the local pool makes.

The same sample room, plus a corrupt PDF, is ingested once with the local
forkserver pool and once through Ray; manifests (every document's status,
reason, pages, tokens), document texts and chunks (ids, texts, spans) must be
identical. A file that kills its parser and a file over its time limit get the
local path's reasons.
"""

from __future__ import annotations

import shutil

import pytest

from core.settings import REPO_ROOT, Settings
from core.types import ParseStatus
from ingest.index.manifest import Manifest
from ingest.pipeline import ingest_room
from ingest.distributed.ray_local import LocalCluster

from .builders import text_pdf
from .crashy import crash_on_name, slow_parse

pytestmark = pytest.mark.slow

SAMPLE = REPO_ROOT / "assets" / "sample_room"
# a measurement, different on every run; every other field of a Document must match
DOC_FIELDS_NOT_COMPARED = {"parse_seconds"}


@pytest.fixture(scope="module")
def cluster():
    c = LocalCluster(head_cpus=1, worker_cpus=(1,))
    try:
        c.start()
        yield c
    finally:
        c.stop()


def _room(base):
    src = base / "src"
    shutil.copytree(SAMPLE, src)
    (src / "Bad").mkdir()
    (src / "Bad" / "corrupt.pdf").write_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without xref")
    return src


def _snapshot(settings: Settings, room: str) -> dict:
    man = Manifest(settings, room)
    out = {}
    for d in man.documents():
        row = d.model_dump(exclude=DOC_FIELDS_NOT_COMPARED)
        if d.status == ParseStatus.parsed:
            row["text"] = man.document_text(d.id)
            row["chunks"] = [c.model_dump() for c in man.chunks(d.id)]
        out[d.path] = row
    return out


def _ingest(base, src, ray_address: str, parse_fn=None, **ingest):
    settings = Settings(workspace=base / ("ray" if ray_address else "local"))
    settings.embedding.model = "hash"
    settings.ingest.workers = 2
    settings.ingest.ray_address = ray_address
    for k, v in ingest.items():
        setattr(settings.ingest, k, v)
    kw = {"parse_fn": parse_fn} if parse_fn else {}
    return settings, ingest_room(src, "room", settings, embed=False, **kw)


def test_ray_room_is_the_local_room(cluster, tmp_path):
    src = _room(tmp_path)
    local_settings, local = _ingest(tmp_path, src, "")
    ray_settings, remote = _ingest(tmp_path, src, cluster.address)
    a, b = _snapshot(local_settings, "room"), _snapshot(ray_settings, "room")
    assert a.keys() == b.keys()
    for path in a:
        assert a[path] == b[path], path
    parsed = [p for p, d in b.items() if d["status"] == ParseStatus.parsed]
    assert len(parsed) >= 31 and sum(len(b[p]["chunks"]) for p in parsed) == remote.chunks == local.chunks
    assert b["Bad/corrupt.pdf"]["status"] == ParseStatus.failed and "corrupt PDF" in b["Bad/corrupt.pdf"]["reason"]
    assert remote.workers == 2 and remote.counts == local.counts


def test_ray_worker_crash_fails_that_file_only(cluster, tmp_path):
    # A small room of its own: the local pool's crash handling is what test_pipeline covers; here Ray must
    # record the same reason and parse the rest.
    src = tmp_path / "src"
    src.mkdir()
    (src / "will_crash.txt").write_text("This file kills its parser process.")
    (src / "fine.txt").write_text("This file parses normally.")
    (src / "also_fine.md").write_text("# Heading\n\nAnother normal file.")
    local_settings, _ = _ingest(tmp_path, src, "", parse_fn=crash_on_name)
    ray_settings, remote = _ingest(tmp_path, src, cluster.address, parse_fn=crash_on_name)
    a, b = _snapshot(local_settings, "room"), _snapshot(ray_settings, "room")
    assert a == b
    assert b["will_crash.txt"]["status"] == ParseStatus.failed and "parser process crashed" in b["will_crash.txt"]["reason"]
    assert b["fine.txt"]["status"] == b["also_fine.md"]["status"] == ParseStatus.parsed


def test_ray_per_file_timeout_reason(cluster, tmp_path):
    """The time limit (SIGALRM) works in a Ray worker: tasks run on its main thread."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.pdf").write_bytes(text_pdf([["Page one."]] * 3))
    _, local = _ingest(tmp_path, src, "", parse_fn=slow_parse, file_timeout_s=0.5)
    _, remote = _ingest(tmp_path, src, cluster.address, parse_fn=slow_parse, file_timeout_s=0.5)
    assert remote.documents[0].reason == local.documents[0].reason == "parsing timed out after 0.5 s"


def test_ray_embedding_gives_the_local_vectors(cluster, tmp_path):
    """Embedding as Ray tasks, with the default embedder (int8 ONNX MiniLM): the same vector for every chunk id."""
    import numpy as np

    from ingest.index.store import open_store

    src = tmp_path / "src"
    src.mkdir()
    for f in sorted(SAMPLE.rglob("*.txt"))[:3]:  # a few small files: MiniLM costs ~0.1 s a chunk on this machine
        shutil.copy(f, src / f.name)
    vectors = []
    for address in ("", cluster.address):
        settings = Settings(workspace=tmp_path / ("ray" if address else "local"))
        settings.ingest.workers = 2
        settings.ingest.ray_address = address
        report = ingest_room(src, "room", settings)
        assert report.embedded_chunks == report.chunks > 0 and report.pending_chunks == 0
        got = open_store(settings, "room").collection.get(include=["embeddings"])
        vectors.append(dict(zip(got["ids"], np.asarray(got["embeddings"]))))
    local, remote = vectors
    assert local.keys() == remote.keys()
    for cid in local:
        np.testing.assert_array_equal(local[cid], remote[cid], err_msg=cid)


_JOIN = """
import sys, ray
try:
    ray.init(address=sys.argv[1], log_to_driver=False, logging_level="ERROR")
    print("JOINED", ray.cluster_resources().get("CPU"))
except Exception as e:
    print("REFUSED", type(e).__name__)
"""


@pytest.mark.parametrize("token", ["none", "wrong", "the cluster's"])
def test_a_process_without_the_clusters_token_cannot_join(cluster, tmp_path, token):
    """Ray's servers listen on every interface: the token is what keeps other people's processes out."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    if token == "wrong":
        env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN="0" * 64)
    elif token != "none":
        env.update(RAY_AUTH_MODE="token", RAY_AUTH_TOKEN_PATH=str(cluster.token_path))
    out = subprocess.run([sys.executable, "-c", _JOIN, cluster.address], env=env, cwd=tmp_path,
                         capture_output=True, text=True, timeout=120).stdout
    assert ("JOINED" in out) == (token == "the cluster's"), out


def test_the_ingest_refuses_a_cluster_without_token_auth(tmp_path, monkeypatch):
    from ingest.distributed.ray_exec import RayAuthRequired, require_token_auth

    monkeypatch.delenv("RAY_AUTH_MODE", raising=False)
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_text("An agreement.")
    settings = Settings(workspace=tmp_path / "ws")
    settings.ingest.ray_address = "127.0.0.1:1"  # never reached: refused before connecting
    with pytest.raises(RayAuthRequired, match="RAY_AUTH_MODE=token"):
        ingest_room(src, "room", settings)
    require_token_auth(allow_unauthenticated=True)  # the documented override
    monkeypatch.setenv("RAY_AUTH_MODE", "token")
    require_token_auth(allow_unauthenticated=False)
