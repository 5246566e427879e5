"""Turn a room's ground truth into rubric criteria a memo can be checked against.

Three kinds, as a partner would phrase them: the memo flags and cites each
key red flag; it does not present a near-miss as a red flag; its scope
section names every file that could not be reviewed.
"""

from __future__ import annotations

from core.types import Severity
from synth.model import Criterion, Rubric, Truth, TruthClause

# A reviewer one notch less alarmed than the truth still "flags" the clause.
_ONE_BELOW = {Severity.high: Severity.medium, Severity.medium: Severity.low,
              Severity.low: Severity.info, Severity.info: Severity.info}
RED_FLAG = [Severity.high, Severity.medium]

_NEAR_MISS_WORDS = {
    "mutual_consent": "mutual-consent clause", "capped_liability": "capped liability clause",
    "successor_permitted": "permitted transfer to a successor",
    "coc_notice_only": "notice-only change-of-control clause",
}


def _where(c: TruthClause) -> str:
    return f"{c.path} ({c.attachment})" if c.attachment else c.path


def _label(c: TruthClause) -> str:
    kind = c.variant.split("/")[0]
    if kind in _NEAR_MISS_WORDS:
        return _NEAR_MISS_WORDS[kind]
    if c.note.startswith("The agreement has expired"):
        return f"{c.category.replace('_', ' ')} clause of the expired agreement"
    if c.note.startswith("Deleted by a later amendment"):
        return f"{c.category.replace('_', ' ')} clause superseded by amendment"
    return f"{c.category.replace('_', ' ')} near-miss"


def build_rubric(truth: Truth) -> Rubric:
    criteria: list[Criterion] = []
    for c in truth.clauses:
        if c.key and not c.must_not_flag:
            criteria.append(Criterion(
                id=f"flags:{c.id}", kind="flags", path=c.path, clause_id=c.id,
                categories=[c.category, *c.also_accept], min_severity=_ONE_BELOW[c.severity],
                text=f"The memo flags the {c.category.replace('_', ' ')} clause in {_where(c)} "
                     f"(expected {c.severity.value}) and cites it."))
        elif c.must_not_flag:
            criteria.append(Criterion(
                id=f"not_flagged:{c.id}", kind="not_flagged", path=c.path, clause_id=c.id,
                categories=list(c.trap_categories), forbidden_severities=RED_FLAG,
                text=f"The memo does not list the {_label(c)} in {_where(c)} as a "
                     f"{' / '.join(t.replace('_', ' ') for t in c.trap_categories)} red flag."))
    for b in truth.bad_files:
        criteria.append(Criterion(
            id=f"scope:{b.path}", kind="scope", path=b.path,
            text=f"The scope section states that {b.path} could not be reviewed ({b.reason_kind})."))
    return Rubric(room=truth.room, criteria=criteria)
