"""A format-neutral document: blocks of text that every writer renders the same way.

The planted sentences live inside `para` blocks, never split across blocks,
so whatever the format, each one is a contiguous run of the extracted text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

BlockKind = Literal["title", "subtitle", "heading", "para", "table", "signature", "pagebreak"]


@dataclass
class Block:
    kind: BlockKind
    text: str = ""
    rows: list[list[str]] = field(default_factory=list)  # table rows, first row = header
    lead: str = ""  # bold lead-in printed before `text` in the same paragraph, e.g. "8.3 Change of Control."

    def plain(self) -> str:
        if self.kind == "table":
            return "\n".join(" | ".join(r) for r in self.rows)
        return f"{self.lead} {self.text}" if self.lead else self.text


@dataclass
class Doc:
    title: str
    blocks: list[Block] = field(default_factory=list)
    footer: str = ""  # printed on each PDF page, e.g. "Confidential"

    def add(self, kind: BlockKind, text: str = "", lead: str = "", rows: list[list[str]] | None = None) -> None:
        self.blocks.append(Block(kind, text, rows or [], lead))

    def plain_text(self) -> str:
        return "\n\n".join(b.plain() for b in self.blocks if b.kind != "pagebreak")

    def words(self) -> int:
        return len(self.plain_text().split())


_UNITS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_words(n: int) -> str:
    """English words for 0..999, as contracts spell out periods ('ninety (90) days')."""
    if n < 20:
        return _UNITS[n]
    if n < 100:
        t, u = divmod(n, 10)
        return _TENS[t] + (f"-{_UNITS[u]}" if u else "")
    h, r = divmod(n, 100)
    return f"{_UNITS[h]} hundred" + (f" and {number_words(r)}" if r else "")


def period(n: int, unit: str = "days") -> str:
    """'ninety (90) days'."""
    return f"{number_words(n)} ({n}) {unit}"


def money(amount: int, currency: str = "USD") -> str:
    return f"{currency} {amount:,}"
