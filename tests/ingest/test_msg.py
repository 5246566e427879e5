"""Outlook .msg ingest: body via unstructured, attachment via python-oxmsg as its own Document."""

from __future__ import annotations

import pytest

from core.settings import Settings
from core.types import ParseStatus
from ingest.index.manifest import Manifest
from ingest.pipeline import ingest_room
from ingest.index.store import open_store

from .builders import MSG_ATTACHMENT_SENTENCE, MSG_BODY_SENTENCE, msg_bytes

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def msg_room(tmp_path_factory):
    base = tmp_path_factory.mktemp("msg")
    src = base / "room" / "Mail"
    src.mkdir(parents=True)
    data = msg_bytes()
    assert data[:8] == bytes.fromhex("d0cf11e0a1b11ae1")  # an OLE2 compound file, not a disguised text file
    (src / "consent_request.msg").write_bytes(data)
    settings = Settings(workspace=base / "workspace")
    settings.ingest.workers = 1
    settings.embedding.model = "hash"
    report = ingest_room(base / "room", "mail", settings)
    return settings, report


def test_msg_body_and_attachment_are_parsed_documents(msg_room):
    settings, report = msg_room
    docs = {d.path: d for d in report.documents}
    parent = docs["Mail/consent_request.msg"]
    assert parent.status == ParseStatus.parsed and parent.doc_type == "msg", parent
    man = Manifest(settings, "mail")
    assert MSG_BODY_SENTENCE in man.document_text(parent.id)
    att = docs["Mail/consent_request.msg::consent_letter.txt"]
    assert att.status == ParseStatus.parsed and att.doc_type == "txt", att
    assert att.parent_id == parent.id and att.folder == "Mail"
    att_text = man.document_text(att.id)
    assert MSG_ATTACHMENT_SENTENCE in att_text
    # the attachment is not also inlined into the message's own text
    assert MSG_ATTACHMENT_SENTENCE not in man.document_text(parent.id)
    assert len(report.documents) == 2


def test_msg_chunk_offsets_round_trip(msg_room):
    settings, report = msg_room
    man = Manifest(settings, "mail")
    n = 0
    for d in man.documents(status="parsed"):
        text = man.document_text(d.id)
        chunks = man.chunks(d.id)
        assert chunks
        for c in chunks:
            assert text[c.char_start : c.char_end] == c.text
            n += 1
    assert n == report.chunks == open_store(settings, "mail").count()


def test_msg_search_finds_body_and_attachment(msg_room):
    settings, report = msg_room
    docs = {d.path: d for d in report.documents}
    store = open_store(settings, "mail")
    hits = store.search(MSG_BODY_SENTENCE, k=3)
    assert hits and hits[0].document_path == "Mail/consent_request.msg"
    assert hits[0].chunk.document_id == docs["Mail/consent_request.msg"].id
    assert MSG_BODY_SENTENCE in hits[0].chunk.text
    only_msg = store.search("consent change of control", k=5, where={"doc_type": "msg"})
    assert only_msg and all(h.document_path == "Mail/consent_request.msg" for h in only_msg)
    att = store.search(MSG_ATTACHMENT_SENTENCE, k=3)
    assert att and att[0].document_path == "Mail/consent_request.msg::consent_letter.txt"
