"""Keyword positions for the passes that must not scan a whole contract with a case-blind regex."""

from __future__ import annotations


def word_positions(low: str, words: tuple[str, ...]) -> list[int]:
    """Sorted start offsets of each word in the lower-cased text: str.find is many times faster than a
    case-blind regex over a 100-page contract, so passes look for their keywords this way first."""
    out: list[int] = []
    for w in words:
        i = low.find(w)
        while i >= 0:
            out.append(i)
            i = low.find(w, i + 1)
    return sorted(out)
