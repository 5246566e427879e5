"""One palette for the whole app, so a colour means the same thing on every page.

Severity reds/ambers follow the usual legal "RAG" reading; coverage status
uses the same red for "flagged" so a high-severity document and a
high-severity finding look alike.
"""

from __future__ import annotations

SEVERITY_COLORS: dict[str, str] = {
    "high": "#C0392B",
    "medium": "#E67E22",
    "low": "#2E86C1",
    "info": "#7F8C8D",
}


# Coverage map: one colour per document review status.
COVERAGE_COLORS: dict[str, str] = {
    "unreviewed": "#D5D8DC",
    "in review": "#F4D03F",
    "reviewed": "#27AE60",
    "flagged": SEVERITY_COLORS["high"],
    "failed to parse": "#5D6D7E",
    "review failed": "#8E44AD",
    "folder": "#F4F6F7",
}
COVERAGE_ORDER = ["unreviewed", "in review", "reviewed", "flagged", "failed to parse", "review failed"]

REVIEWER_COLORS: dict[str, str] = {
    "open": "#7F8C8D",
    "accepted": "#1E8449",
    "rejected": "#922B21",
    "edited": "#2874A6",
}



# Background of a highlighted quote inside its page context.
QUOTE_HIGHLIGHT = "#FFF3B0"

PARSE_COLORS: dict[str, str] = {"parsed": "#1E8449", "failed": SEVERITY_COLORS["high"], "skipped": "#7F8C8D"}
ASSIGNMENT_COLORS: dict[str, str] = {"pending": "#7F8C8D", "running": "#B7950B", "done": "#1E8449", "failed": SEVERITY_COLORS["high"]}


def text_style(colors: dict[str, str]):
    """A pandas Styler function colouring a status/severity cell's text from a palette."""

    def style(value: object) -> str:
        color = colors.get(str(value))
        return f"color: {color}; font-weight: 600" if color else ""

    return style
