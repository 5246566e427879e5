"""The review table's questions (columns): the 41 CUAD categories, the checklist items, a reviewer's own.

A column asks one question of every document and says what shape its answer takes. The built-in
columns are fixed by CUAD v1 (their `-Answer` columns in labels.csv give the shapes: a name, dates,
parties, a place, Yes/No) and by the checklist the run used; a reviewer's own column is a question in
plain words with a type, kept per room.
"""

from __future__ import annotations

import hashlib
import re
from enum import Enum

from pydantic import BaseModel, Field

from core.types import ChecklistItem


class AnswerType(str, Enum):
    yes_no = "yes/no"
    date = "date"
    duration = "duration"
    parties = "parties"
    jurisdiction = "jurisdiction"
    amount = "amount"
    text = "text"


class ColumnSource(str, Enum):
    cuad = "cuad"
    checklist = "checklist"
    custom = "custom"


class Column(BaseModel):
    """One question of the table."""

    id: str = Field(description="Stable id: 'cuad:<category>', 'item:<checklist id>' or 'custom:<hash>'.")
    title: str = Field(description="What the table's header shows.")
    type: AnswerType = Field(description="Shape of the answer.")
    description: str = Field("", description="The question in plain words.")
    source: ColumnSource = Field(description="Where the column comes from.")
    cuad: str = Field("", description="The CUAD category it answers ('' for others).")
    item: str = Field("", description="The checklist item it answers ('' for others).")


# CUAD v1's 41 categories in labels.csv's order, with the shape of each `-Answer`.
CUAD_CATEGORIES: list[tuple[str, AnswerType]] = [
    ("Document Name", AnswerType.text), ("Parties", AnswerType.parties),
    ("Agreement Date", AnswerType.date), ("Effective Date", AnswerType.date),
    ("Expiration Date", AnswerType.date), ("Renewal Term", AnswerType.duration),
    ("Notice Period to Terminate Renewal", AnswerType.duration), ("Governing Law", AnswerType.jurisdiction),
    *((c, AnswerType.yes_no) for c in (
        "Most Favored Nation", "Competitive Restriction Exception", "Non-Compete", "Exclusivity",
        "No-Solicit of Customers", "No-Solicit of Employees", "Non-Disparagement", "Termination for Convenience",
        "Rofr/Rofo/Rofn", "Change of Control", "Anti-Assignment", "Revenue/Profit Sharing", "Price Restrictions",
        "Minimum Commitment", "Volume Restriction", "IP Ownership Assignment", "Joint IP Ownership", "License Grant",
        "Non-Transferable License", "Affiliate License-Licensor", "Affiliate License-Licensee",
        "Unlimited/All-You-Can-Eat-License", "Irrevocable or Perpetual License", "Source Code Escrow",
        "Post-Termination Services", "Audit Rights", "Uncapped Liability", "Cap on Liability", "Liquidated Damages",
        "Warranty Duration", "Insurance", "Covenant Not to Sue", "Third Party Beneficiary")),
]
# The questions a lawyer reads a CUAD category as, where its name alone is terse.
_CUAD_QUESTIONS = {
    "Document Name": "The agreement's title.",
    "Parties": "Who is bound, with the defined term each party is given.",
    "Agreement Date": "The date the agreement is dated or made on.",
    "Effective Date": "The date the agreement takes effect.",
    "Expiration Date": "The date the initial term ends.",
    "Renewal Term": "How long each renewal lasts.",
    "Notice Period to Terminate Renewal": "The notice a party must give to stop a renewal.",
    "Governing Law": "Whose law governs the agreement.",
}
# The facts every agreement summary states (the memo's per-agreement table reads these columns).
FACT_COLUMNS = {"parties": "cuad:Parties", "agreement_date": "cuad:Agreement Date",
                "effective_date": "cuad:Effective Date", "expiration": "cuad:Expiration Date",
                "governing_law": "cuad:Governing Law", "title": "cuad:Document Name"}


def cuad_columns() -> list[Column]:
    return [Column(id=f"cuad:{name}", title=name, type=kind, source=ColumnSource.cuad, cuad=name,
                   description=_CUAD_QUESTIONS.get(name, f"Does the agreement contain a {name} clause?"))
            for name, kind in CUAD_CATEGORIES]


def checklist_columns(items: list[ChecklistItem]) -> list[Column]:
    return [Column(id=f"item:{i.id}", title=i.title, type=AnswerType.yes_no, source=ColumnSource.checklist,
                   item=i.id, description=i.description) for i in items if i.enabled]


def custom_column(question: str, kind: AnswerType | str) -> Column:
    """A reviewer's own question; its id depends on the words only, so adding it twice adds it once."""
    words = " ".join(question.split())
    if not words:
        raise ValueError("a question needs words")
    if len(words) > 300:
        raise ValueError("a question is at most 300 characters")
    digest = hashlib.sha256(re.sub(r"\W+", " ", words.lower()).strip().encode()).hexdigest()[:12]
    return Column(id=f"custom:{digest}", title=words if len(words) <= 60 else words[:57] + "…",
                  type=AnswerType(kind), description=words, source=ColumnSource.custom)


def builtin_columns(items: list[ChecklistItem]) -> list[Column]:
    """The 41 CUAD categories, then the checklist's enabled items."""
    return cuad_columns() + checklist_columns(items)
