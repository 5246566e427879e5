"""Render a cited passage with its quote highlighted, from escaped pieces only.

Document text is untrusted (it comes from uploaded files), so every piece
of it goes through html.escape before it meets markup; the only tags in the
output are the ones written here.
"""

from __future__ import annotations

import html

from app.views.palette import QUOTE_HIGHLIGHT

CONTEXT_CHARS = 600


def _esc(text: str) -> str:
    return html.escape(text, quote=True).replace("\n", "<br>")


def passage_window(text: str, start: int, end: int, context: int = CONTEXT_CHARS) -> tuple[int, int]:
    """A window of `context` characters either side of the span, widened to whole words."""
    lo = max(0, start - context)
    hi = min(len(text), end + context)
    while lo > 0 and not text[lo - 1].isspace():
        lo -= 1
    while hi < len(text) and not text[hi].isspace():
        hi += 1
    return lo, hi


def passage_html(text: str, start: int, end: int, context: int = CONTEXT_CHARS) -> str:
    """HTML of the quote's surroundings with the quote in a <mark>; safe for st.html."""
    if not (0 <= start < end <= len(text)):
        return f'<div class="passage">{_esc(text[: 2 * context])}</div>'
    lo, hi = passage_window(text, start, end, context)
    before, quote, after = text[lo:start], text[start:end], text[end:hi]
    prefix = "… " if lo > 0 else ""
    suffix = " …" if hi < len(text) else ""
    return (
        '<div class="passage" style="font-family: Georgia, serif; line-height: 1.55; '
        'padding: 0.8rem 1rem; border-left: 3px solid #1D3557; background: #FAFAFA; '
        'max-height: 22rem; overflow-y: auto;">'
        f"{prefix}{_esc(before)}"
        f'<mark style="background: {QUOTE_HIGHLIGHT}; padding: 0 2px;">{_esc(quote)}</mark>'
        f"{_esc(after)}{suffix}</div>"
    )
