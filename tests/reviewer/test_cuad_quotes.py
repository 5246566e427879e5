"""Property over all of cuad-dev: every quote the reviewer returns is verbatim in its chunk.

Runs on txt-derived chunks (agents.evaluation.sources.txt_documents) for
speed; the PDF path is scored by `python -m agents.evaluate` (docs/EVALUATION.md).
"""

from __future__ import annotations

import pytest

from agents.evaluation.labels import load_labels
from agents.evaluation.sources import txt_documents
from agents.offline import OfflineReviewer
from core.checklist import load_checklist
from core.settings import get_settings
from core.text import locate_quote

pytestmark = [pytest.mark.cuad, pytest.mark.slow]


def test_every_quote_is_verbatim_in_its_chunk(cuad_dir):
    _, contracts = load_labels(cuad_dir / "labels.csv")
    items = load_checklist(get_settings().checklist_path)
    reviewer = OfflineReviewer()
    n_findings = n_docs_with = 0
    for con, doc, chunks, text in txt_documents(contracts):
        by_id = {c.id: c for c in chunks}
        findings = reviewer.review(doc, chunks, items)
        n_findings += len(findings)
        n_docs_with += bool(findings)
        for f in findings:
            chunk = by_id[f.citation.chunk_id]
            assert f.verified and locate_quote(f.quote, chunk.text) is not None, (con.name, f.quote[:80])
            assert text[f.citation.char_start:f.citation.char_end] == f.quote, (con.name, f.quote[:80])
            assert chunk.char_start <= f.citation.char_start < f.citation.char_end <= chunk.char_end
            assert f.citation.document_id == doc.id and f.agent == "offline"
    assert n_docs_with >= 0.9 * len(contracts) and n_findings > len(contracts)
