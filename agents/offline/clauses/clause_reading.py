"""Read a clause the way a lawyer summarises it: who may do what, on which trigger, with what consequence.

`read_clause` fills a ClauseReading from the quote and the agreement's parties, with
the reader of the item's family (readings.transfer, readings.rights, readings.money,
readings.term; a clause that only binds a party to do or not do something is read by
clause_grammar.simple_reader);
`agents.offline.clauses.clause_summary` turns it into one sentence. A field stays ''
when the quote does not say it plainly: a blank is honest, a guessed party is
wrong, and the memo's consents schedule copies these fields row by row.
"""

from __future__ import annotations

from typing import Callable, Sequence

from agents.offline.clauses.readings import money, rights, term, transfer
from agents.offline.clauses.clause_grammar import Ctx, simple_reader
from agents.offline.clauses.clause_parts import (
    ClauseReading, PartyLike, amount_of, index_parties, mentions, notice_of, section_of,
)
from agents.offline.units import reading_text

__all__ = ["ClauseReading", "read_clause"]

_READERS: dict[str, Callable[[Ctx, ClauseReading], None]] = {
    **transfer.READERS, **rights.READERS, **money.READERS, **term.READERS,
    "non_compete": simple_reader(r"compete|engage|develop|manufacture|market|sell|distribute|commerciali[sz]\w*|own|operate"
                                 r"|offer|provide|carry on|participate|assist|conduct",
                                 "is bound by a non-compete", "may not compete", "non-compete", need_neg=True),
    "non_solicit": simple_reader(r"solicit|hire|employ|recruit|induce|entice|engage", "is bound by a non-solicit",
                                 "may not solicit or hire", "non-solicitation", need_neg=True),
    "source_code_escrow": simple_reader(r"deposit|place|deliver|escrow", "must deposit source code in escrow", "",
                                        "source code escrow", need_neg=False),
    "insurance": simple_reader(r"provide and maintain|maintain|obtain|carry|procure|keep|purchase", "must maintain insurance", "",
                               "insurance", need_neg=False),
}


def read_clause(item_id: str, quote: str, parties: Sequence[PartyLike] = ()) -> ClauseReading:
    """What the clause says for this checklist item, naming only the agreement's own parties."""
    q = reading_text(quote)
    idx = index_parties(parties)
    c = Ctx(q, idx, mentions(q, idx))
    r = ClauseReading(section=section_of(q))
    reader = _READERS.get(item_id)
    if reader is not None:
        reader(c, r)
    if not r.notice and r.consequence in ("termination right", "notice only"):
        r.notice = notice_of(q)
    if not r.amount and item_id in ("insurance", "cap_on_liability", "uncapped_liability"):
        r.amount = amount_of(q)
    return r
