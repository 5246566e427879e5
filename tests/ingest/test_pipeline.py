"""The acceptance room: every format and every bad input ends in the manifest with the right status."""

from __future__ import annotations

import shutil

import pytest

from core.settings import ASSETS, Settings
from core.types import ParseStatus
from ingest.index.manifest import Manifest
from ingest.pipeline import ingest_room
from ingest.intake.rooms import list_rooms
from ingest.index.store import open_store

from .builders import build_room_zip, text_pdf
from .crashy import crash_on_name

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    base = tmp_path_factory.mktemp("acceptance")
    settings = Settings(workspace=base / "workspace")
    settings.ingest.max_file_mb = 1
    settings.ingest.workers = 2
    settings.embedding.model = "hash"
    z = build_room_zip(base / "upload" / "room.zip")
    events = []
    report = ingest_room(z, "acme", settings, progress=lambda d, t, c: events.append((d, t, c)))
    return settings, report, base, events, z


def _by_path(report):
    return {d.path: d for d in report.documents}


def test_every_entry_in_manifest_with_status(room):
    settings, report, base, events, _ = room
    docs = _by_path(report)
    parsed = {p for p, d in docs.items() if d.status == ParseStatus.parsed}
    for p in [
        "Commercial/Supply/supply_agreement.pdf", "Commercial/Supply/side_letter.docx", "Corporate/cap_table.xlsx",
        "Corporate/board_deck.pptx", "Corporate/summary.csv", "Notes/readme.txt", "Notes/checklist.md",
        "Notes/policy.html", "Mail/executed.eml", "Mail/consent_request.msg", "Bad/Müller_Vertrag.txt",
        "Bad/dupname.txt", "Bad/dupname (2).txt", "Bad/really_a_docx.pdf",
    ]:
        assert p in parsed, (p, docs.get(p))
    expect = {
        "Bad/corrupt.pdf": (ParseStatus.failed, "corrupt PDF"),
        "Bad/encrypted.pdf": (ParseStatus.failed, "encrypted PDF"),
        "Bad/scanned.pdf": (ParseStatus.failed, "no text layer; OCR unavailable"),
        "Bad/legacy.doc": (ParseStatus.failed, "LibreOffice"),
        "Bad/not_a_pdf.pdf": (ParseStatus.failed, "wrong extension"),
        "Bad/empty.txt": (ParseStatus.skipped, "empty file"),
        "../escape.txt": (ParseStatus.skipped, "zip-slip"),
        "Bad/../../escape2.txt": (ParseStatus.skipped, "zip-slip"),
        "/etc/absolute.txt": (ParseStatus.skipped, "absolute path"),
        "Bad/link_to_passwd": (ParseStatus.skipped, "symlink"),
        "Bad/bomb.txt": (ParseStatus.skipped, "zip bomb"),
        "Bad/big.txt": (ParseStatus.skipped, "over the limit of 1 MB"),
        "Commercial/Supply/zz_copy_of_side_letter.docx": (ParseStatus.skipped, "identical to Commercial/Supply/side_letter.docx"),
    }
    for p, (status, reason) in expect.items():
        assert docs[p].status == status and reason in docs[p].reason, (p, docs[p])
    assert docs["Commercial/Supply/zz_copy_of_side_letter.docx"].duplicate_of == docs["Commercial/Supply/side_letter.docx"].id
    assert docs["Bad/really_a_docx.pdf"].doc_type == "docx" and "extension says pdf" in docs["Bad/really_a_docx.pdf"].note
    assert docs["Commercial/Supply/supply_agreement.pdf"].pages == 2
    assert docs["Corporate/board_deck.pptx"].pages == 2
    assert report.counts == {s: sum(1 for d in report.documents if d.status.value == s) for s in report.counts}
    # progress: starts at 0 done, ends with every parse task done (one per parsed or parse-failed file)
    assert events[0][0] == 0 and events[-1][0] == events[-1][1] >= report.parsed + 4
    assert report.seconds > 0 and report.chunks > 0


def test_attachments_are_their_own_documents(room):
    _, report, *_ = room
    docs = _by_path(report)
    parent = docs["Mail/executed.eml"]
    pdf = docs["Mail/executed.eml::executed_supply.pdf"]
    txt = docs["Mail/executed.eml::notes.txt"]
    assert pdf.parent_id == parent.id and txt.parent_id == parent.id
    assert pdf.status == txt.status == ParseStatus.parsed and pdf.doc_type == "pdf" and pdf.folder == "Mail"
    assert "Exclusivity" in Manifest(room[0], "acme").document_text(pdf.id)
    msg, letter = docs["Mail/consent_request.msg"], docs["Mail/consent_request.msg::consent_letter.txt"]
    assert msg.doc_type == "msg" and letter.parent_id == msg.id and letter.status == ParseStatus.parsed


def test_nothing_written_outside_the_room(room):
    settings, _, base, _, _ = room
    ws = settings.workspace
    outside = [p for p in base.rglob("*") if p.is_file() and not p.is_relative_to(ws) and p.name != "room.zip"]
    assert outside == []
    assert not any(p.is_symlink() for p in ws.rglob("*"))
    files = settings.room_dir("acme") / "files"
    assert all(p.resolve().is_relative_to(files.resolve()) for p in files.rglob("*"))


def test_offsets_locate_every_chunk_in_stored_text(room):
    settings, report, *_ = room
    man = Manifest(settings, "acme")
    n = 0
    for d in man.documents(status="parsed"):
        text = man.document_text(d.id)
        assert (settings.room_dir("acme") / "text" / f"{d.id}.txt").exists()
        chunks = man.chunks(d.id)
        assert chunks and [c.index for c in chunks] == list(range(len(chunks)))
        for c in chunks:
            assert text[c.char_start : c.char_end] == c.text
            assert man.chunk(c.id) == c
            n += 1
        assert d.chars == len(text) and d.tokens > 0
    assert n == report.chunks
    assert open_store(settings, "acme").count() == n


def test_search_semantic_keyword_and_filters(room):
    settings, report, *_ = room
    store = open_store(settings, "acme")
    hits = store.search("change of control assignment", k=5)
    assert hits and all(h.chunk.text for h in hits)
    assert {h.match for h in hits} <= {"semantic", "keyword", "both"}
    assert any("change of control" in h.chunk.text.lower() for h in hits)
    docs = _by_path(report)
    only_pdf = store.search("agreement", k=10, where={"doc_type": "pdf"})
    assert only_pdf and all(docs[h.document_path].doc_type == "pdf" for h in only_pdf)
    notes = store.search("checklist consent", k=10, where={"folder": "Notes"})
    assert notes and all(h.document_path.startswith("Notes/") for h in notes)
    did = docs["Corporate/cap_table.xlsx"].id
    one = store.search("Globex", k=10, where={"document_id": did})
    assert one and all(h.chunk.document_id == did for h in one)
    kw = store.manifest.keyword_search("Initech", 5)
    assert kw  # keyword index finds a word the hash embedder may rank low
    with pytest.raises(ValueError, match="unknown filter"):
        store.search("x", where={"colour": "red"})


def test_reingest_unchanged_does_no_work_then_one_changed_file(room, tmp_path):
    settings, first, base, _, z = room
    again = ingest_room(z, "acme", settings)
    assert again.parsed == 0 and again.failed == 0 and again.chunks == 0
    assert {d.id for d in again.documents} == {d.id for d in first.documents}
    # change one file in a folder copy of the room
    src = tmp_path / "room_folder"
    shutil.copytree(settings.room_dir("acme") / "files", src)
    target = src / "Commercial/Supply/supply_agreement.pdf"
    old = _by_path(first)["Commercial/Supply/supply_agreement.pdf"]
    old_chunks = Manifest(settings, "acme").chunks(old.id)
    target.write_bytes(text_pdf([["AMENDED SUPPLY AGREEMENT", "The term is extended to 2031."]]))
    changed = ingest_room(src, "acme", settings)
    assert changed.parsed == 1 and changed.failed == 0
    new = _by_path(changed)["Commercial/Supply/supply_agreement.pdf"]
    assert new.id != old.id and "AMENDED" in Manifest(settings, "acme").document_text(new.id)
    store = open_store(settings, "acme")
    assert store.collection.get(ids=[c.id for c in old_chunks])["ids"] == []
    assert Manifest(settings, "acme").document(old.id) is None
    assert [r.name for r in list_rooms(settings)] == ["acme"]


def test_worker_crash_fails_that_file_only(tmp_path):
    settings = Settings(workspace=tmp_path / "ws")
    settings.ingest.workers = 2
    settings.embedding.model = "hash"
    src = tmp_path / "src"
    src.mkdir()
    (src / "will_crash.txt").write_text("This file kills its parser process.")
    (src / "fine.txt").write_text("This file parses normally.")
    (src / "also_fine.md").write_text("# Heading\n\nAnother normal file.")
    report = ingest_room(src, "crashy", settings, parse_fn=crash_on_name)
    docs = _by_path(report)
    assert docs["will_crash.txt"].status == ParseStatus.failed and "crashed" in docs["will_crash.txt"].reason
    assert docs["fine.txt"].status == ParseStatus.parsed and docs["also_fine.md"].status == ParseStatus.parsed


def test_worker_crash_with_many_files_queued_fails_that_file_only(tmp_path):
    # a worker that dies while more files wait: the next submit to the broken pool must not abort the room
    settings = Settings(workspace=tmp_path / "ws")
    settings.ingest.workers = 2
    settings.embedding.model = "hash"
    src = tmp_path / "src"
    src.mkdir()
    shutil.copytree(ASSETS / "sample_room", src, dirs_exist_ok=True)
    (src / "will_crash.txt").write_text("This file kills its parser process.")
    report = ingest_room(src, "crashy", settings, parse_fn=crash_on_name)
    docs = _by_path(report)
    assert docs["will_crash.txt"].status == ParseStatus.failed and "crashed" in docs["will_crash.txt"].reason
    others = [d for p, d in docs.items() if p != "will_crash.txt"]
    assert sum(d.status == ParseStatus.parsed for d in others) >= 30 and not any("crashed" in d.reason for d in others)


def test_a_pool_that_breaks_between_two_submits_loses_no_file(tmp_path, monkeypatch):
    # the race behind an aborted ingest: a worker dies after the last wait and before the next submit, which
    # then raises BrokenProcessPool. A real worker is killed at the third submit, the pool is let notice.
    import os
    import signal
    import time as _time

    from ingest import pipeline

    real_executor = pipeline._executor

    class KillsAWorker:
        def __init__(self, real):
            self.real, self.n = real, 0

        def submit(self, *a, **kw):
            self.n += 1
            if self.n == 3:
                os.kill(next(iter(self.real._processes)), signal.SIGKILL)
                deadline = _time.monotonic() + 30
                while not self.real._broken and _time.monotonic() < deadline:
                    _time.sleep(0.05)
            return self.real.submit(*a, **kw)

        def shutdown(self, *a, **kw):
            return self.real.shutdown(*a, **kw)

    made = []
    monkeypatch.setattr(pipeline, "_executor", lambda s, w: (made.append(1), KillsAWorker(real_executor(s, w)))[1]
                        if not made else real_executor(s, w))
    settings = Settings(workspace=tmp_path / "ws")
    settings.ingest.workers = 2
    settings.embedding.model = "hash"
    src = tmp_path / "src"
    src.mkdir()
    for n in range(8):
        (src / f"file_{n}.txt").write_text(f"Agreement number {n}. This file parses normally. " * (50 - n))
    report = ingest_room(src, "broken-pool", settings)
    assert [d.status for d in report.documents] == [ParseStatus.parsed] * 8  # the killed worker's file is retried


def test_per_file_timeout(tmp_path):
    settings = Settings(workspace=tmp_path / "ws")
    settings.ingest.workers = 1
    settings.ingest.file_timeout_s = 0.001
    settings.embedding.model = "hash"
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.pdf").write_bytes(text_pdf([["Page one."]] * 30))
    report = ingest_room(src, "slow", settings)
    assert "timed out" in report.documents[0].reason


def test_cli_summary_table_and_errors(room, tmp_path, capsys):
    from ingest.cli import main, summary

    _, report, *_ = room
    table = summary(report)
    lines = table.splitlines()
    assert lines[1].split()[:4] == ["type", "parsed", "failed", "skipped"]
    total = next(line for line in lines if line.startswith("total")).split()
    assert total[1:4] == [str(report.counts.get(s, 0)) for s in ("parsed", "failed", "skipped")]
    assert "Bad/encrypted.pdf: encrypted PDF" in table
    assert main([str(tmp_path / "missing.zip"), "--room", "x"]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_manifest_writes_are_grouped_and_a_chunk_is_marked_embedded_only_with_its_vector(tmp_path, monkeypatch):
    import ingest.pipeline as pipeline
    import ingest.vectors as vectors

    monkeypatch.setattr(pipeline, "FLUSH_CHUNKS", 3)  # several groups in a small room
    monkeypatch.setattr(pipeline, "FLUSH_SECONDS", 3600.0)
    monkeypatch.setattr(vectors, "BATCH", 4)  # several vector batches
    src = tmp_path / "src"
    for i in range(8):
        (src / f"F{i % 2}").mkdir(parents=True, exist_ok=True)
        (src / f"F{i % 2}" / f"note_{i}.txt").write_text(
            "\n\n".join(f"Section {j}. Note {i} paragraph {j} about the supply terms." for j in range(3)), encoding="utf-8")
    s = Settings(workspace=tmp_path / "ws")
    s.embedding.model = "hash"
    s.ingest.workers = 1
    seen: list[tuple[int, int]] = []
    stages: list[tuple[str, int, int]] = []

    def check(done, total, current):
        seen.append((done, len(Manifest(s, "grouped").documents(status="parsed"))))

    def stage(name, done, total, eta):
        stages.append((name, done, total))
        if name == "embedding":  # the manifest never claims a vector that is not in Chroma
            man, store = Manifest(s, "grouped"), open_store(s, "grouped")
            assert man.embedding_counts()[0] == done <= store.count()

    report = ingest_room(src, "grouped", s, progress=check, on_stage=stage)
    assert report.parsed == 8
    assert open_store(s, "grouped").count() == report.chunks == sum(len(Manifest(s, "grouped").chunks(d.id)) for d in report.documents)
    assert any(n < done for done, n in seen)  # writes trailed the parsers ...
    assert any(0 < n < 8 for _, n in seen)  # ... in more than one group
    emb = [(d, t) for name, d, t in stages if name == "embedding"]
    assert len(emb) > 2 and emb[-1] == (report.chunks, report.chunks) and stages[-1][0] == "ready"


def _swallowing_partition(*_a, **_kw):
    """What pdfminer does per page: catch every Exception, go on, return what it has (here nothing)."""
    import time

    end = time.monotonic() + 3
    while time.monotonic() < end:
        try:
            time.sleep(0.01)
        except Exception:  # noqa: BLE001 - the behaviour under test
            pass
    return []


def _bare_except_partition(*_a, **_kw):
    import time

    end = time.monotonic() + 3
    while time.monotonic() < end:
        try:
            time.sleep(0.01)
        except:  # noqa: E722 - a bare except swallows even BaseException
            pass
    return []


@pytest.mark.parametrize("partition", [_swallowing_partition, _bare_except_partition])
def test_a_timeout_inside_a_parser_that_swallows_errors_is_still_a_timeout(tmp_path, monkeypatch, partition):
    """The file was recorded as "no text layer; OCR unavailable" when the parser caught the alarm."""
    from ingest.parsing import parse

    pdf = tmp_path / "a.pdf"
    pdf.write_bytes(text_pdf([["Page one."]]))
    monkeypatch.setattr(parse, "_partition", partition)
    task = parse.ParseTask(file=str(pdf), doc_type="pdf", document_id="d1", attachments_dir=str(tmp_path / "att"), timeout_s=0.2)
    result = parse.parse_file(task)
    assert result.status == ParseStatus.failed
    assert result.reason == "parsing timed out after 0.2 s"
