"""The diligence memo: a view over the review store as the reviewer left it.

- `sections`: each section as a function of findings, agreements and coverage;
- `deal`: how an issue ranks for the deal and the action it calls for;
- `agreements`: the agreements' parties, dates, term and law as the memo names them;
- `derive`: sections from the store, for the harness and after a reviewer's decision;
- `writer`: the harness's side (versions, events, the graph's memo state);
- `render`: Markdown and DOCX, with the findings schedule as an appendix;
- `markup`: escaping of untrusted text.
"""

from agents.memo.markup import cite, md
from agents.memo.render import SCHEDULE_TITLE, findings_schedule, position, resolve_refs, to_docx, to_markdown
from agents.memo.sections import (
    AGREEMENTS_KEY,
    CONSENTS_KEY,
    EXEC_KEY,
    KEY_ISSUES,
    SCOPE_KEY,
    agreements_section,
    citable,
    consents_section,
    executive_summary,
    item_section,
    scope_section,
    tally_of,
)

__all__ = ["AGREEMENTS_KEY", "CONSENTS_KEY", "EXEC_KEY", "KEY_ISSUES", "SCHEDULE_TITLE", "SCOPE_KEY",
           "agreements_section", "citable", "cite", "consents_section", "executive_summary", "findings_schedule",
           "item_section", "md", "position", "resolve_refs", "scope_section", "tally_of", "to_docx", "to_markdown"]
