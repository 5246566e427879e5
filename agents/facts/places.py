"""Jurisdiction names, for reading a governing-law clause out of text whose words may be glued together.

PDF text loses spaces ("laws of the State ofCalifornia", "United Statesand", "Delawarewithout regard"), so a
capitalised run alone cannot say where a place's name ends. A list of the places agreements choose (US states,
Canadian provinces, Australian states, countries, "England and Wales") can: the longest name that starts at
the position is the place, whatever follows it.
"""

from __future__ import annotations

import re

US_STATES = (
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado", "Connecticut", "Delaware", "Florida",
    "Georgia", "Hawaii", "Idaho", "Illinois", "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine",
    "Maryland", "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana", "Nebraska",
    "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York", "North Carolina", "North Dakota", "Ohio",
    "Oklahoma", "Oregon", "Pennsylvania", "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas",
    "Utah", "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming", "District of Columbia",
    "Puerto Rico")
PROVINCES = (
    "Alberta", "British Columbia", "Manitoba", "New Brunswick", "Newfoundland and Labrador", "Nova Scotia",
    "Ontario", "Prince Edward Island", "Quebec", "Saskatchewan", "New South Wales", "Queensland",
    "South Australia", "Tasmania", "Victoria", "Western Australia")
COUNTRIES = (
    "England and Wales", "England", "Wales", "Scotland", "Northern Ireland", "United Kingdom", "Great Britain",
    "Ireland", "United States of America", "United States", "Canada", "Mexico", "Brazil", "Argentina", "Chile",
    "Colombia", "Peru", "Australia", "New Zealand", "China", "Hong Kong", "Macau", "Taiwan", "Japan", "Korea",
    "South Korea", "Singapore", "Malaysia", "Thailand", "Vietnam", "Indonesia", "Philippines", "India",
    "Israel", "United Arab Emirates", "Dubai", "Saudi Arabia", "Qatar", "Turkey", "Egypt", "South Africa",
    "Nigeria", "Kenya", "Germany", "France", "Italy", "Spain", "Portugal", "Netherlands", "Belgium",
    "Luxembourg", "Switzerland", "Austria", "Denmark", "Sweden", "Norway", "Finland", "Iceland", "Poland",
    "Czech Republic", "Hungary", "Romania", "Greece", "Cyprus", "Malta", "Russia", "Russian Federation",
    "Ukraine", "Bermuda", "Cayman Islands", "British Virgin Islands", "Bahamas", "Barbados", "Jersey",
    "Guernsey", "Isle of Man", "Liechtenstein", "Monaco", "Panama")
# The adjectives of the commonest places ("the total Canadian market place"): capitalised, and no one's name; they
# never govern an agreement, so only the restated sentences use them.
DEMONYMS = ("American", "Australian", "British", "Canadian", "Chinese", "Dutch", "English", "European", "French", "German",
            "Indian", "Irish", "Israeli", "Italian", "Japanese", "Korean", "Mexican", "Spanish", "Swiss")
# Places an agreement names as a country while a state or province is the real choice ("the federal laws of the
# United States and the laws of the State of New York"): the state wins when both are named.
NATIONAL = frozenset({"United States of America", "United States", "Canada", "Australia"})

_CANON = {re.sub(r"\s+", "", n.lower()): n for n in (*US_STATES, *PROVINCES, *COUNTRIES)}
# "State of", "the Commonwealth of" and articles before the name; spaces may be missing anywhere.
_LEAD = re.compile(
    r"(?:the\s*)?(?:(?:state|commonwealth|province|federal\s*republic|people'?s\s*republic|republic|kingdom|canton|"
    r"emirate)\s*of\s*)?(?:the\s*)?", re.I)
_NAMES = re.compile(
    "|".join(r"\s*".join(map(re.escape, n.split())) for n in sorted(_CANON.values(), key=len, reverse=True)), re.I)
# What may follow a name glued to it: not a lower-case letter that continues a word ("Georgian", "Indianapolis"),
# except the common words that follow a jurisdiction in a governing-law clause.
_AFTER = re.compile(r"(?-i:[^a-z]|$)|(?:without|and|regardless|applicable|excluding|except|as|in|to|shall|which|that|"
                    r"including|notwithstanding|other|for|or|the|its|but|with|by|govern|law|applied|irrespective)",
                    re.I)
# Words a capitalised run can end with that are not a place: the fallback for a place not in the lists.
GENERIC = re.compile(r"^(?:State|States|Commonwealth|Province|Republic|Kingdom|Country|Nation|Jurisdiction|"
                     r"Territory|Canton|Emirate|Federal|Government)$", re.I)


def place_at(text: str, pos: int, end: int | None = None) -> tuple[str, int, int] | None:
    """(canonical name, start, end) of a known jurisdiction starting at `pos` (after "State of", "the"), or None."""
    end = min(len(text), end if end is not None else pos + 120)
    lead = _LEAD.match(text, pos, end)
    start = lead.end() if lead else pos
    m = _NAMES.match(text, start, end)
    if m is None and lead and lead.end() > pos:
        m = _NAMES.match(text, pos, end)  # "Georgia", "Kingdom ..." read as a lead word
    if m is None or not _AFTER.match(text, m.end()):
        return None
    return _CANON[re.sub(r"\s+", "", m.group().lower())], m.start(), m.end()
