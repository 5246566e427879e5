"""Over every cuad-dev contract: the finding text a lawyer reads, as the harness hands it on.

The offline reviewer's findings are restated with the parties read from the contract (what the
review node does), then stored as a run stores them. Checked on every finding: no checklist title
in brackets, no "clause names", every capitalised word that could name someone is one of that
contract's parties, names or defined terms; and one passage is one finding (no two findings share a
document and span).
"""

from __future__ import annotations

import calendar
import re

import pytest

from agents.evaluation.labels import load_labels
from agents.evaluation.sources import txt_documents
from agents.facts import extract_facts
from agents.facts.places import COUNTRIES, DEMONYMS, PROVINCES, US_STATES
from agents.offline import OfflineReviewer
from agents.offline.reviewer import restate
from agents.store import ReviewStore
from core.checklist import load_checklist
from core.settings import get_settings

pytestmark = [pytest.mark.cuad, pytest.mark.slow]

# Capitalised words that name no one: sentence openers, collective party words, calendar and money words.
NOT_NAMES = {"The", "A", "An", "Any", "Either", "Each", "Neither", "No", "Both", "All", "USD", "US", "EUR", "GBP",
             "U.S.", "Liability", "Rights", *calendar.month_name[1:], *calendar.day_name,
             # abbreviations of things, which name no one
             "IP", "SOW", "R&D", "OEM", "SLA", "EU", "UK", "USA", "GAAP", "VAT", "API", "SKU", "IPO", "NDA"}
_WORD = re.compile(r"[A-Z][\w&.'-]*")
STATUTES = re.compile(r"\bInvestment (?:Company|Advisers) Act\b")
PLACES = re.compile(r"(?<![\w-])(?:(?:People's )?(?:Republic|State|Commonwealth|Province|Kingdom) of )?(?:" + "|".join(
    re.escape(n) for n in sorted((*US_STATES, *PROVINCES, *COUNTRIES, *DEMONYMS), key=len, reverse=True)) + r")(?![\w-])")
DOCUMENT_PARTS = re.compile(r"\b(?:Exhibit|Schedule|Appendix|Annex|Attachment)\s+[A-Z0-9][\w-]*(?:\.\d+)*")


_LAW_OF = re.compile(r"\blaws? of (?:the )?(.+?)(?: \(§[^)]*\))?\.?$")


_BENEFICIARIES = re.compile(r"^(.+?) (?:is a|are) third-party beneficiar(?:y|ies) who may enforce the agreement")


def stray_names(summary: str, allowed_words: set[str], quote: str = "") -> list[str]:
    """Capitalised words after the first that are not part of an allowed name (an independent check: it
    does not call the summary writer's own guard). The place after "the law of" is a jurisdiction, no party;
    it is checked apart (`jurisdiction_ok`). Those a clause makes third-party beneficiaries are no parties by
    definition: the sentence may name them as the quote does, word for word."""
    law = _LAW_OF.search(summary)
    text = summary[:law.start(1)] if law else summary
    # a term the agreement defines, in quotes as the quote writes it ('defines "Net Revenue"'), names no one
    text = re.sub("\u201c([^\u201d]{1,80})\u201d", lambda m: " " if m.group(1) in " ".join(quote.split()) else m.group(0), text)
    named = _BENEFICIARIES.match(text)
    if named and named.group(1) in " ".join(quote.split()):
        text = "The" + text[named.end(1):]
    text = STATUTES.sub(" ", text)  # a statute the sentence cites is no party
    text = PLACES.sub(" ", text)  # nor a place ("in the United States")
    text = DOCUMENT_PARTS.sub(" ", text)  # nor is the exhibit or schedule it points to
    words = [re.sub(r"'s$", "", w) for w in _WORD.findall(text)]
    # an abbreviation that opens one of the contract's defined terms ("AMR Product Suites" -> "AMR product suites")
    opens_term = {w for w in re.findall(r"\b([A-Z]{2,})\s+[A-Z][a-z]", " ".join(quote.split()))
                  if re.search(rf"\b{w}\s+[a-z]", text)}
    return [w for w in words[1:] if w.strip(".'") not in allowed_words and w not in NOT_NAMES and w.strip(".'") not in NOT_NAMES
            and w not in opens_term]


def jurisdiction_ok(summary: str) -> bool:
    """A governing-law sentence names a place in at most five words, not the clause's tail."""
    law = _LAW_OF.search(summary)
    return law is None or (len(law.group(1).split()) <= 5 and not re.search(r"(?i)\b(without|regard|giving)\b",
                                                                              law.group(1)))


def test_every_cuad_finding_reads_as_a_lawyer_would_write_it(cuad_dir, tmp_path):
    settings = get_settings()
    _, contracts = load_labels(cuad_dir / "labels.csv")
    items = load_checklist(settings.checklist_path)
    titles = [i.title for i in items]
    reviewer = OfflineReviewer()
    store = ReviewStore(tmp_path / "review.db")
    bad, stray, total, named = [], [], 0, 0
    for con, doc, chunks, text in txt_documents(contracts):
        facts = extract_facts(text)
        allowed = {w.strip(".'") for p in facts.parties for t in (p.name, p.role, *p.aliases)
                   for w in _WORD.findall(t or "")}
        allowed |= {w for w in _WORD.findall(facts.governing_law)}
        allowed |= {w.strip(".'") for w in _WORD.findall(facts.title)}  # the name the document gives itself
        findings = restate(reviewer.review(doc, chunks, items), items, facts.parties)
        store.create_run(doc.id, "cuad", settings, [doc])
        store.add_findings(doc.id, findings, "a")
        stored = store.findings(doc.id)
        spans = [(f.citation.document_id, f.citation.char_start, f.citation.char_end) for f in stored]
        assert len(spans) == len(set(spans)), con.name  # one passage, one finding
        for f in stored:
            total += 1
            s = f.summary
            if any(f"[{t}" in s for t in titles) or re.search(r"\[[A-Z][^\]]*\]", s) or "clause names" in s:
                bad.append((con.name, s))
            extra = stray_names(s, allowed, f.quote)
            if not jurisdiction_ok(s):
                bad.append((con.name, s))
            if extra:
                stray.append((con.name, s, extra))
            named += any(w in allowed for w in _WORD.findall(s))
    print(f"\n{total} findings over {len(contracts)} contracts; {named} name a party of their contract; "
          f"{len(stray)} with a capitalised word that is no party's name")
    for row in stray[:15]:
        print("  ", row)
    assert not bad, bad[:5]
    assert not stray, stray[:10]
    assert total > 5 * len(contracts)
