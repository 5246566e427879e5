"""Agreements as the memo names them: title, parties, date, term and law from the document's facts.

Facts come from agents.facts (preamble, defined terms, "dated as of", governing
law clause), extracted once per document during its review and cached in the
review store. A document without facts (a letter, a schedule, an agreement
whose preamble could not be read) is named by its file name, and its cells say
"not stated" rather than guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agents.memo.markup import file_name

NOT_STATED = "not stated"
_KIND = re.compile(r"(?i)\b(agreement|contract|lease|licen[cs]e|amendment|addendum|deed|letter|note|plan|policy|"
                   r"certificate|charter|by-?laws|guarant(?:y|ee)|mortgage|indenture|memorandum|schedule)")
# A title that names no kind of agreement tells the reader nothing: the file name says more.
_GENERIC = re.compile(r"(?i)^(?:the\s+)?(?:agreement|contract|amendment|exhibit[\s\d.\-]*)$")


# A consortium agreement of 33 parties filled a page of the memo's body with their names, once per table and key
# issue: the tables name the first few and count the rest; the findings schedule's "Title, parties and dates"
# entry still lists all of them
NAMED_IN_LINE = 4
LISTED_IN_TABLE = 6


def _others(n: int) -> str:
    return f" and {n} other part{'y' if n == 1 else 'ies'}" if n > 0 else ""


@dataclass
class Agreement:
    document_id: str
    path: str
    title: str = ""
    parties: list[tuple[str, str]] = field(default_factory=list)  # (name, defined term)
    dated: str = ""
    effective: str = ""
    expiration: str = ""
    term: str = ""
    law: str = ""

    label_override: str = ""

    @property
    def label(self) -> str:
        """How the memo names the agreement: its title, else the document kind its file name states."""
        return self.label_override or self.title or name_from_file(self.path)

    def party_line(self) -> str:
        if not self.parties:
            return NOT_STATED
        named = [f"{n} (“{r}”)" if r and r != n else n for n, r in self.parties]
        return "; ".join(named[:LISTED_IN_TABLE]) + _others(len(named) - LISTED_IN_TABLE)

    def party_names(self) -> str:
        names = [n for n, _ in self.parties]
        return " / ".join(names[:NAMED_IN_LINE]) + _others(len(names) - NAMED_IN_LINE)

    def date_line(self) -> str:
        if self.dated and self.effective and self.effective != self.dated:
            return f"{self.dated} (effective {self.effective})"
        return self.dated or self.effective or NOT_STATED

    def term_line(self) -> str:
        # "until 2022-12-31" already says when it expires
        expires = f"expires {self.expiration}" if self.expiration and self.expiration not in self.term else ""
        parts = [p for p in (self.term, expires) if p]
        return "; ".join(parts) or NOT_STATED


def name_from_file(path: str) -> str:
    """'Acme_2019_EX-10.1_Supply Agreement.pdf' -> 'Supply Agreement (Acme)': file names in data rooms put the
    document's kind last and its company first; anything else is shown as the file's stem."""
    stem = file_name(path).rsplit(".", 1)[0]
    parts = [p.strip() for p in re.split(r"_+", stem) if p.strip()]
    kinds = [i for i, p in enumerate(parts) if _KIND.search(p)]
    if not kinds or kinds[0] == 0:
        return " ".join(parts) or stem
    # a copy number glued to the kind ("Manufacturing Agreement1") is not part of its name
    kind = re.sub(r"(?<=[a-z])\d+$", "", " / ".join(parts[kinds[0]:]))
    return f"{kind} ({parts[0]})"


# defined terms that say what a party is, not who: no help in telling two agreements apart
_ROLE_TERMS = {"company", "licensor", "licensee", "seller", "buyer", "purchaser", "supplier", "customer", "client",
               "distributor", "vendor", "sponsor", "provider", "service provider", "contractor", "consultant", "agent",
               "owner", "manufacturer", "reseller", "franchisee", "franchisor", "investor", "party"}


def _short(name: str, role: str) -> str:
    if role and role.lower() not in _ROLE_TERMS and len(role) <= 30:
        return role
    return " ".join(re.sub(r",?\s+(?:Inc|Corp|Corporation|LLC|Ltd|Limited|L\.P|LP|plc|PLC|S\.A|GmbH|AG|Co)\b\.?", "", name).split()[:3])


def unique_labels(agreements: list[Agreement]) -> None:
    """Two agreements the memo would name alike are told apart by their parties ("Strategic Alliance Agreement
    (MD Anderson / Adaptimmune)"), else by their file names: a file name in every table cell made a room of five
    strategic alliance agreements two pages longer, and says less to a reader than who the agreement is with."""
    seen: dict[str, list[Agreement]] = {}
    for a in agreements:
        seen.setdefault(a.label.lower(), []).append(a)
    for group in seen.values():
        if len(group) > 1:
            by_party = [" / ".join(_short(n, r) for n, r in a.parties[:2]) for a in group]
            distinct = all(by_party) and len({b.lower() for b in by_party}) == len(by_party)
            for a, who in zip(group, by_party):
                a.label_override = f"{a.label} ({who if distinct else file_name(a.path)})"


def agreement_of(document_id: str, path: str, facts: dict | None) -> Agreement:
    """The memo's view of one document's facts (a dict of agents.facts.AgreementFacts)."""
    a = Agreement(document_id=document_id, path=path)
    if not facts:
        return a
    title = " ".join((facts.get("title") or "").split())
    if title.isupper():
        title = title.title()
    a.title = "" if _GENERIC.match(title) else title
    a.parties = [(p.get("name", "").strip(), (p.get("role") or "").strip()) for p in facts.get("parties", [])
                 if p.get("name", "").strip()]
    a.dated = facts.get("agreement_date") or ""
    a.effective = facts.get("effective_date") or ""
    a.expiration = facts.get("expiration") or ""
    a.term = (facts.get("term") or "").strip()
    a.law = (facts.get("governing_law") or "").strip()
    return a
