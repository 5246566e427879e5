"""Summaries over every labelled CUAD clause of the checklist's categories: never a wrong party.

Parties come from a plain preamble regex written here (not from agents/facts),
so the property is checked against names an independent reader finds. Each
contract falls in half A or B by the hash of its file name; the pass rate is
asserted on both halves, so wording tuned to one half would show on the other.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

import pytest

from agents.evaluation.labels import load_labels
from agents.facts.places import COUNTRIES, DEMONYMS, PROVINCES, US_STATES
from agents.offline.clauses.clause_summary import write_summary
from agents.offline.clauses.fallbacks import HONEST
from core.checklist import load_checklist
from core.settings import get_settings

pytestmark = [pytest.mark.cuad]


@dataclass(frozen=True)
class PreambleParty:
    name: str
    role: str
    aliases: tuple[str, ...] = field(default=())


_DEFINED = re.compile(r"\(\s*(?:the\s+|hereinafter\s+(?:referred\s+to\s+as\s+)?|each\s+)?[\"“”']+\s*([A-Z][^\"“”']{1,40}?)\s*[\"“”']+")
_ENTITY = re.compile(r"([A-Z][\w&.,'’ -]{1,80}?(?:Inc|Corp|Corporation|LLC|L\.L\.C|Ltd|Limited|Company|Co|L\.P|LP|GmbH|AG|plc|PLC|"
                     r"S\.A|B\.V|N\.V|Trust|University|Partners|INC|CORP|CORPORATION|LTD|LIMITED|COMPANY)\.?)(?=[\s,(])")
_NOT_A_PARTY = {"Agreement", "Effective Date", "Parties", "Party", "Territory", "Products", "Product", "Term",
                "Affiliate", "Services", "Commencement Date", "Execution Date", "Closing", "Schedule",
                "Purchase Order", "License Agreement", "Investment Agreement", "Merger"}


def preamble_parties(text: str) -> list[PreambleParty]:
    """'XYZ Corp., a Delaware corporation (“Distributor”)' → PreambleParty('XYZ Corp.', 'Distributor')."""
    head = " ".join(text[:4000].split())
    out: list[PreambleParty] = []
    for m in _DEFINED.finditer(head):
        role = m.group(1).strip(" ,.;")
        if role in _NOT_A_PARTY or len(role.split()) > 4:
            continue
        window = head[max(0, m.start() - 300):m.start()]
        ents = list(_ENTITY.finditer(window))
        # the defined term follows its entity closely ("XYZ Corp., a Delaware corporation (...)")
        if not ents or len(window) - ents[-1].end() > 150 or "WHEREAS" in window[ents[-1].end():]:
            continue
        name = ents[-1].group(1).strip(" ,")
        name = re.split(r"\b(?:between|among|and|by)\s+(?=[A-Z])", name)[-1]
        if not any(p.role == role for p in out):
            out.append(PreambleParty(name=name, role=role))
    return out


_GENERIC_SUBJECTS = ("Either party", "Each party", "Neither party")
_PLACES = re.compile(r"(?<![\w-])(?:(?:People's )?(?:Republic|State|Commonwealth|Province|Kingdom) of )?(?:" + "|".join(
    re.escape(n) for n in sorted((*US_STATES, *PROVINCES, *COUNTRIES, *DEMONYMS), key=len, reverse=True)) + r")(?![\w-])")
_OPENERS = {"The", "A", "An", "Any", "Liability", "Contribution", "Damages", "Reimbursement", "No", "Nothing",  # generic subjects
            # a condition that opens the sentence ("Upon termination of this agreement, Reseller must ...")
            "If", "In", "Upon", "On", "Following", "After", "During", "Throughout", "Within", "Where", "When", "Before", "To", "Subject",
            "Unless", "Except", "At", "From", "Until", "Prior", "Whenever", "Should", "Failing", "For", "Other", "Save"}


def violations(sentence: str, parties: list[PreambleParty], quote: str) -> list[str]:
    """What is wrong with a summary, judged without the code under test."""
    bad = []
    if re.search(r"\[[^\]]*\]", sentence):
        bad.append("category in brackets")
    if "clause names" in sentence.lower():
        bad.append("'clause names'")
    if not sentence.endswith("."):
        bad.append("no final period")
    names = sorted({" ".join(t.split()) for p in parties for t in (p.name, p.role, *p.aliases) if t.strip()}, key=len, reverse=True)
    rest = sentence
    # a term the agreement defines, in quotes as the quote writes it ('defines "Net Revenue"'), names no one
    rest = re.sub("\u201c([^\u201d]{1,80})\u201d", lambda m: " " if m.group(1) in " ".join(quote.split()) else m.group(0), rest)
    # those a clause makes third-party beneficiaries are no parties by definition: named as the quote names them
    named = re.match(r"^(.+?) (?:is a|are) third-party beneficiar(?:y|ies) who may enforce the agreement", rest)
    if named and named.group(1) in " ".join(quote.split()):
        rest = rest[named.end(1):]
    for n in names:
        rest = re.sub(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", " ", rest)
    # Words the sentence may take from the quote without naming anyone: a jurisdiction, a currency.
    law = re.search(r"governed by the law of (?:the )?([A-Z][\w. ]+?)(,|\s\(|\.$)", rest)
    if law and law.group(1).lower() in " ".join(quote.split()).lower():
        rest = rest.replace(law.group(1), " ")
    rest = re.sub(r"\b(USD|EUR|GBP|US)(?=\s?[$\d])", " ", rest).strip()
    rest = re.sub(r"\bInvestment (?:Company|Advisers) Act\b", " ", rest)  # a statute the sentence cites is no party
    rest = _PLACES.sub(" ", rest)  # nor a place ("in the United States")
    rest = re.sub(r"\b(?:January|February|March|April|May|June|July|August|September|October|November|December)"
                  r"(?=\s+\d)", " ", rest)  # nor a date ("until January 1, 2032")
    rest = re.sub(r"(?<![\w&])(?:IP|SOW|R&D|OEM|SLA|EU|UK|USA|GAAP|VAT|API|SKU|IPO|NDA)(?![\w&])", " ", rest)  # nor an abbreviation
    # nor an abbreviation that opens one of the quote's defined terms ("the ROFO Shares" -> "the ROFO shares")
    for w in set(re.findall(r"\b([A-Z]{2,})\s+[A-Z][a-z]", " ".join(quote.split()))):
        rest = re.sub(rf"\b{w}(?=\s+[a-z])", " ", rest)
    for ref in re.findall(r"\b(?:Exhibit|Schedule|Appendix|Annex|Attachment)\s+[A-Z0-9][\w-]*(?:\.\d+)*", rest):
        if ref.lower() in " ".join(quote.split()).lower():  # where the figures are, as the quote cites it ("EXHIBIT C"): no party
            rest = rest.replace(ref, " ")
    for g in _GENERIC_SUBJECTS:
        if rest.startswith(g):
            rest = rest[len(g):]
            break
    else:
        first = re.match(r"[A-Z]\w*", rest)
        if first and first.group(0) in _OPENERS and sentence.startswith(first.group(0)):
            rest = rest[first.end():]
    caps = re.findall(r"\b[A-Z][\w&.'-]*", rest)
    if caps:
        bad.append(f"names {caps} that are not parties")
    return bad


def _half(name: str) -> str:
    return "A" if int(hashlib.sha1(name.encode()).hexdigest(), 16) % 2 == 0 else "B"


def cuad_summaries(cuad_dir):
    """(half, contract, item, quote, parties given, summary) for every labelled clause, with and without parties."""
    _, contracts = load_labels(cuad_dir / "labels.csv")
    items = load_checklist(get_settings().checklist_path)
    for con in contracts:
        parties = preamble_parties(con.text()) if con.txt_path.exists() else []
        for item in items:
            for cat in item.cuad_categories:
                for quote in con.passages.get(cat, []):
                    for given in ([], parties):
                        yield _half(con.name), con.name, item, quote, given, write_summary(item, quote, given)


def test_preamble_regex_reads_a_plain_preamble():
    text = ('This Distribution Agreement is made by and between Cisco Systems, Inc., a California corporation ("Cisco"), '
            'and XYZ Corp., a Delaware corporation ("Distributor"), effective as of the date below (the "Effective Date").')
    got = preamble_parties(text)
    assert [(p.name, p.role) for p in got] == [("Cisco Systems, Inc.", "Cisco"), ("XYZ Corp.", "Distributor")]



def is_fallback(item_id: str, sentence: str) -> bool:
    """The honest sentence a summary falls back to when it cannot read who acts or what the clause does."""
    return sentence.split(" (§")[0].rstrip(".") == HONEST.get(item_id)


def test_cuad_summaries_name_only_parties_on_both_halves(cuad_dir):
    total, ok, specific, given_n = {"A": 0, "B": 0}, {"A": 0, "B": 0}, {"A": 0, "B": 0}, {"A": 0, "B": 0}
    failures = []
    for half, name, item, quote, given, sentence in cuad_summaries(cuad_dir):
        total[half] += 1
        bad = violations(sentence, given, quote)
        if bad:
            failures.append((name[:40], item.id, sentence, bad))
        else:
            ok[half] += 1
        given_n[half] += bool(given)
        specific[half] += bool(given) and not is_fallback(item.id, sentence)
    for half in "AB":  # shown with -s; docs quote these figures
        print(f"half {half}: {ok[half]}/{total[half]} summaries pass; "
              f"{specific[half]}/{given_n[half]} given preamble parties say more than the fallback sentence")
    assert total["A"] > 500 and total["B"] > 500, total
    for half in "AB":
        rate = ok[half] / total[half]
        assert rate == 1.0, (half, rate, failures[:5])
