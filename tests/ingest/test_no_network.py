"""Ingest and search with every non-loopback socket refused, in the parent and in the parser processes."""

from __future__ import annotations

import socket

import pytest

from core.types import ParseStatus
from ingest.pipeline import ingest_room
from ingest.index.store import open_store

from .builders import docx_bytes, pptx_bytes, text_pdf
from .netguard import guarded_parse

pytestmark = pytest.mark.slow


def test_ingest_and_search_offline(tmp_path, settings, no_network, monkeypatch):
    # name lookups are refused in the parent too (urllib resolves before it connects)
    real_gai = socket.getaddrinfo

    def gai(host, *a, **kw):
        if host not in (None, "localhost", "::1") and not str(host).startswith("127."):
            raise RuntimeError(f"name lookup of {host!r} in a no-network test")
        return real_gai(host, *a, **kw)

    monkeypatch.setattr(socket, "getaddrinfo", gai)
    # and Chroma's default embedding function must never run (it would fetch an ONNX model)
    from chromadb.utils.embedding_functions import onnx_mini_lm_l6_v2 as chroma_onnx

    def refuse(*a, **kw):
        raise AssertionError("chroma's default ONNX embedding function was used")

    monkeypatch.setattr(chroma_onnx.ONNXMiniLM_L6_V2, "__call__", refuse)
    monkeypatch.setattr(chroma_onnx.ONNXMiniLM_L6_V2, "_download_model_if_not_exists", refuse)
    settings.embedding.model = "minilm"  # the real model, from the installed package
    settings.ingest.workers = 1
    src = tmp_path / "room"
    (src / "Contracts").mkdir(parents=True)
    # PDF, TXT, DOCX, PPTX: the formats whose partitioners reach spaCy or NLTK code paths
    (src / "Contracts/license.pdf").write_bytes(
        text_pdf([["LICENSE AGREEMENT", "This license may not be transferred or assigned", "without the Licensor's written consent."]])
    )
    (src / "Contracts/notes.txt").write_text("Heading\n\nThe lease terminates automatically if the tenant becomes insolvent.\n")
    (src / "Contracts/side.docx").write_bytes(docx_bytes("Side letter", ["Governing law is New York."]))
    (src / "deck.pptx").write_bytes(pptx_bytes())
    report = ingest_room(src, "offline", settings, parse_fn=guarded_parse)
    assert {d.path: d.status for d in report.documents} == {
        "Contracts/license.pdf": ParseStatus.parsed, "Contracts/notes.txt": ParseStatus.parsed,
        "Contracts/side.docx": ParseStatus.parsed, "deck.pptx": ParseStatus.parsed,
    }, [(d.path, d.reason) for d in report.documents]
    store = open_store(settings, "offline")
    hits = store.search("can the license be assigned to someone else?", k=3)
    assert hits[0].document_path == "Contracts/license.pdf"
    assert hits[0].match in ("semantic", "both")
    insolvency = store.search("what if the lessee goes bankrupt", k=1)  # no shared content words: semantic only
    assert insolvency[0].document_path == "Contracts/notes.txt" and insolvency[0].match == "semantic"
