"""One passage is one finding, also when two readings quote it a little differently.

A sub-agent may report the same clause twice: the offline reviewer grows each
scored line to its whole sentence, so a heading line and the line after it give
"10.2 Assignment and Change of Control. Except as ..." and "Except as ...",
and a model may quote a clause once in full and once in part. The store already
joins findings on the identical span; a lawyer reads these as the same passage
too, so they become one finding: the more severe reading with its own quote
and the sentence written from it (of two as severe, the one with more of the
passage), the other reading's items in `also`. Facts of the agreement (its
title, parties, dates) are separate answers even where one preamble sentence
gives several, so they are never joined.
"""

from __future__ import annotations

from agents.offline.clauses.fallbacks import is_template
from agents.store.models import joined_extra, with_reading
from core.types import SEVERITY_ORDER, Finding

# share of the shorter quote two quotes must have in common to be the same passage: a nested quote always is;
# two neighbouring sentences sharing a clause (an indemnity's two halves) are not
SAME_PASSAGE = 0.6
# share of a joined reading's quote the kept quote must hold for that reading's sentence to stand beside it
READ_INSIDE = 0.9


def _overlap(a: Finding, b: Finding) -> float:
    ca, cb = a.citation, b.citation
    common = min(ca.char_end, cb.char_end) - max(ca.char_start, cb.char_start)
    shorter = min(ca.char_end - ca.char_start, cb.char_end - cb.char_start)
    return common / shorter if common > 0 and shorter > 0 else 0.0


def _inside(a: Finding, b: Finding) -> float:
    """Share of `a`'s quote that lies within `b`'s."""
    ca, cb = a.citation, b.citation
    common = min(ca.char_end, cb.char_end) - max(ca.char_start, cb.char_start)
    return max(0, common) / max(1, ca.char_end - ca.char_start)


def _join(a: Finding, b: Finding) -> Finding:
    """`a` and `b` as one finding: the more severe reading, its quote with the sentence written from it, and the
    other reading's items in `also`."""
    def length(f: Finding) -> int:
        return f.citation.char_end - f.citation.char_start

    # of two readings as severe, the one that says who may do what ("Company must indemnify ...") over the honest
    # template one ("The agreement contains an indemnity"); then the one with more of the passage
    keep = min((a, b), key=lambda f: (SEVERITY_ORDER[f.severity], is_template(f.summary, f.items), -length(f)))
    other = a if keep is b else b
    items = list(dict.fromkeys([keep.category, *keep.also, *other.items]))
    extra = joined_extra(keep.extra, other.extra)
    # what the other reading says for its own item, for that item's section; only when the kept quote holds
    # (nearly) all the other reading read, since the memo shows that quote beside the sentence: in the 12-contract
    # room a licence-back read from the next sentence sat beside an assignment's quote
    if other.category != keep.category and _inside(other, keep) >= READ_INSIDE:
        extra = with_reading(extra, other.category, other.summary, other.severity.value)
    return keep.model_copy(update={"also": items[1:], "confidence": max(a.confidence, b.confidence), "extra": extra})


def join_same_passages(findings: list[Finding], keep_apart: frozenset[str] | set[str] = frozenset()) -> list[Finding]:
    """Findings of one document with each passage reported once. `keep_apart`: items never joined (facts).
    Only verified findings with a located span are joined; order of first appearance is kept."""
    out: list[Finding] = []
    for f in findings:
        if not f.verified or f.citation.char_start < 0 or f.category in keep_apart:
            out.append(f)
            continue
        for i, g in enumerate(out):
            if (g.verified and g.category not in keep_apart and g.citation.document_id == f.citation.document_id
                    and g.citation.char_start >= 0 and _overlap(f, g) >= SAME_PASSAGE):
                out[i] = _join(g, f)
                break
        else:
            out.append(f)
    return out
