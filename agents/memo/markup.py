"""Markdown the memo writes, with every piece of untrusted text escaped.

Summaries, quotes, file names, party names, notes and model prose come from
documents, reviewers or models. In the memo they are data: a clause that reads
`![x](http://host/p.png)` must show those characters, not load an image in the
reviewer's browser, and `**` in a quote must not make the rest of the line
bold. So every such piece goes through `md()` on its way into a section, and
the DOCX writer undoes the escapes (`plain()`) when it lays the same text out
as Word runs.
"""

from __future__ import annotations

import re

from core.types import Finding

# Inline markup (emphasis, code, links and images, HTML, tables, strike-through, Streamlit's LaTeX).
_INLINE = re.compile(r"([\\`*_\[\]<>|~$])")
# GFM turns bare URLs into links; an escaped ':' or '.' breaks the pattern and renders the same.
_AUTOLINK = re.compile(r"(?i)(?<=[a-z])(:)(?=//)|(?<=\bwww)(\.)")
_ESCAPED = re.compile(r"\\([\\`*_\[\]<>|~$:.#+=)-])")
# Finding references a model writes ([F:<id>]); they stay live so the export can turn them into citations.
_FREF = re.compile(r"(\[F:[0-9a-f]{6,64}\])")
_BULLET = re.compile(r"^\s*(?:[-*+•]|\d{1,3}[.)])\s+")
# At the start of a line these make headings, rules, block quotes or lists of prose a model wrote.
_LINE_START = re.compile(r"^([#=+-])|^(\d+)([.)])")


def md(text: str) -> str:
    """Untrusted text as literal markdown on one line (white space folded)."""
    flat = " ".join(str(text).split())
    return _AUTOLINK.sub(lambda m: "\\" + (m.group(1) or m.group(2)), _INLINE.sub(r"\\\1", flat))


def prose(text: str) -> str:
    """A model's memo prose as literal markdown that keeps its paragraphs, bullets and [F:id] references.

    Everything else a model writes is data like a document's text: no links, images, HTML or headings.
    """
    out = []
    for line in str(text).splitlines():
        if not line.strip():
            out.append("")
            continue
        bullet = _BULLET.match(line)
        body = " ".join((line[bullet.end():] if bullet else line).split())
        parts = _FREF.split(body)
        esc = "".join(p if i % 2 else _AUTOLINK.sub(lambda m: "\\" + (m.group(1) or m.group(2)), _INLINE.sub(r"\\\1", p))
                      for i, p in enumerate(parts))
        esc = _LINE_START.sub(lambda m: "\\" + m.group(1) if m.group(1) else m.group(2) + "\\" + m.group(3), esc)
        out.append(("- " if bullet else "") + esc)
    return "\n".join(out).strip("\n")


def plain(text: str) -> str:
    """The literal text of escaped markdown (for DOCX runs and table cells)."""
    return _ESCAPED.sub(r"\1", text)


def clip(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


_OPERATIVE = re.compile(r"\b(shall|may|will|must|agrees?|covenants?)\b")  # lower case: a heading's "COVENANT" is no verb


# who a sentence that knows who but not what is about: "Company (Bravatek ...) may not deal with third parties ..."
_WHO = re.compile(r"(.+?)(?: \([^)]*\))? (?:may|must|has|have|owns?|is|are|assigns?|grants?)\b")


def _words(text: str) -> set[str]:
    """The words of four letters or more, by their first six ("assignable" and "assignment" share "assign")."""
    return {w[:6] for w in re.findall(r"[a-z]{4,}", text.lower())}


_SENTENCE_BREAK = re.compile(r"[.;:]\s+(?=[(\dA-Z])")


def _sentence(flat: str, start: int) -> str:
    end = _SENTENCE_BREAK.search(flat, start)
    return flat[start:end.end()] if end else flat[start:]


def _restated_from(flat: str, summary: str, first: int, limit: int, operative: bool = False) -> int:
    """Where the excerpt beside `summary` should start: at `first`, or at a later sentence (an operative one, with
    `operative`) whose first `limit` characters share more of the summary's words."""
    said = _words(summary)
    starts = [first] + [m.end() for m in _SENTENCE_BREAK.finditer(flat) if m.end() > first
                        and (not operative or _OPERATIVE.search(_sentence(flat, m.end())))]

    def score(a: int) -> int:
        return len(said & _words(flat[a:a + limit]))
    best = max(starts, key=lambda a: (score(a), -a))
    return best if score(best) > score(first) else first


def operative_line(f: Finding, limit: int) -> str:
    """The quote from the start of its first operative sentence (a heading such as "ARTICLE IV RESTRICTIVE
    COVENANT 4.1 Exclusivity." would otherwise use up the space), or from where the party the finding names is
    the subject of "shall" or "may" ("(ii) the Company shall not ..."): what a reader needs beside a vague sentence."""
    flat = " ".join(f.quote.split())
    who = _WHO.match(f.summary)
    own = re.search(r"(?:\(\w{1,4}\)\s+)?(?:the\s+)?\b" + re.escape(who.group(1)) + r"\s+(?:,[^,;.]{0,60},\s*)?"
                    r"(?:shall|will|may|must|agrees?)\b", flat, re.IGNORECASE) if who else None
    m = _OPERATIVE.search(flat)
    start = 0
    if own:
        start = own.start()
    elif m:
        stops = [flat.rfind(p, 0, m.start()) for p in (". ", "; ", ": ")]
        start = max(stops) + 2 if max(stops) >= 0 else 0
        # of the passage's operative sentences, the one about what the finding says ("restricts assignment without
        # consent" beside a passage that opens with a warranty of compliance and goes on to "shall not be assignable")
        start = _restated_from(flat, f.summary, start, limit, operative=True)
    text = clip(flat[start:], limit)
    return f"  > “{'…' if start else ''}{md(text)}”"


def file_name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def _where(f: Finding) -> str:
    """`§ 9.5, p. 12`; the section is left out where the finding's sentence already names it."""
    section = f.citation.section
    if section and section not in f.summary:
        return f"{md(section)}, p. {f.citation.page}"
    return f"p. {f.citation.page}"


def cite(f: Finding) -> str:
    """`[path, § 9.5, p. N]`, the path escaped."""
    return f"[{md(f.citation.document_path or f.citation.document_id)}, {_where(f)}]"


def short_cite(f: Finding) -> str:
    """A passage of a document already named: `[§ 9.5, p. N]`."""
    return f"[{_where(f)}]"


def quote_line(f: Finding, limit: int) -> str:
    """The quote's opening, or, when the finding's sentence restates a later sentence of a longer passage (a
    non-compete in § 2.3 read from a passage that starts in § 2.2(c)), the quote from that sentence on: the excerpt
    beside a sentence should be the words it restates."""
    flat = " ".join(f.quote.split())
    if len(flat) <= limit:
        return f"  > “{md(flat)}”"
    start = _restated_from(flat, f.summary, 0, limit)
    return f"  > “{'…' if start else ''}{md(clip(flat[start:], limit))}”"


def reviewer_marks(f: Finding) -> str:
    """What the reviewer did to the finding, in words, for the line that shows it."""
    marks = []
    if f.reviewer_status.value == "accepted":
        marks.append("accepted by the reviewer")
    elif f.reviewer_status.value == "edited":
        marks.append("edited by the reviewer")
    if f.extra.get("carried_from"):
        marks.append("decision carried over from an earlier run")
    return f" ({'; '.join(marks)})" if marks else ""


def note_line(f: Finding) -> list[str]:
    return [f"  - Reviewer note: {md(f.reviewer_note)}"] if f.reviewer_note.strip() else []
