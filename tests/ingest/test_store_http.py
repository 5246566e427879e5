"""open_store talks to a real Chroma server (chroma run on 127.0.0.1) when settings.chroma.mode == 'http'."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.types import Document
from ingest.parsing.chunking import Element, build_text, chunk_spans
from ingest.index.embed import HashEmbedder
from ingest.index.store import RoomStore, open_store

pytestmark = pytest.mark.slow

CHROMA = Path(sys.executable).with_name("chroma")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def chroma_server(tmp_path):
    if not CHROMA.exists() and not shutil.which("chroma"):
        pytest.skip("chroma CLI not installed")
    port = _free_port()
    proc = subprocess.Popen(
        [str(CHROMA if CHROMA.exists() else "chroma"), "run", "--path", str(tmp_path / "srv"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("chroma server did not start")
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_http_store_add_search_delete(settings, chroma_server, no_network):
    settings.chroma.mode = "http"
    settings.chroma.host = "127.0.0.1"
    settings.chroma.port = chroma_server
    settings.embedding.model = "hash"
    store = open_store(settings, "remote room")
    assert isinstance(store, RoomStore) and type(store.client).__name__ != "PersistentClient"
    doc = Document(room="remote room", path="Legal/nda.txt", doc_type="txt", sha256="ab")
    text, spans = build_text([Element(text="Confidentiality", category="Title"), Element(text="The recipient shall keep all information secret.")])
    chunks = chunk_spans(doc.id, text, spans)
    store.manifest.write_parsed(doc, text, chunks)
    store.add(doc, chunks, HashEmbedder().embed([c.text for c in chunks]))
    assert store.count() == len(chunks)
    hits = store.search("keep information secret", k=3, where={"folder": "Legal"})
    assert hits and hits[0].document_path == "Legal/nda.txt" and hits[0].match == "both"
    store.delete_document(doc.id)
    assert store.count() == 0
