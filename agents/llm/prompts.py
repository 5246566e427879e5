"""Prompt templates are data: agents/prompts/<name>.md with named {placeholders}.

A template has a system part and a user part, each opened by a marker line
`<!-- role: system -->` / `<!-- role: user -->`. Only `{identifier}` is a
placeholder; other braces (JSON examples) are literal, so templates need no
escaping. Values are inserted verbatim and never re-scanned, so document
text containing "{x}" cannot inject another placeholder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parent.parent / "prompts"
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
_ROLE = re.compile(r"^<!-- role: (system|user) -->\s*$", re.M)


class PromptError(ValueError):
    pass


@dataclass(frozen=True)
class Template:
    name: str
    system: str
    user: str

    @property
    def placeholders(self) -> set[str]:
        return set(_PLACEHOLDER.findall(self.system)) | set(_PLACEHOLDER.findall(self.user))

    def render(self, **values: str) -> list[dict]:
        """[system message, user message]; every placeholder must be given, and nothing else."""
        missing = self.placeholders - values.keys()
        unknown = values.keys() - self.placeholders
        if missing or unknown:
            raise PromptError(f"prompt {self.name}: missing {sorted(missing)}, unknown {sorted(unknown)}")
        sub = lambda t: _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), t)  # noqa: E731
        return [{"role": "system", "content": sub(self.system).strip()},
                {"role": "user", "content": sub(self.user).strip()}]

    def system_placeholders(self) -> set[str]:
        return set(_PLACEHOLDER.findall(self.system))


def load_template(name: str, directory: Path = PROMPTS_DIR) -> Template:
    raw = (directory / f"{name}.md").read_text(encoding="utf-8")
    parts = _ROLE.split(raw)
    # split() gives [preamble, role, body, role, body]; the preamble is a comment for editors.
    bodies = dict(zip(parts[1::2], parts[2::2]))
    if set(bodies) != {"system", "user"}:
        raise PromptError(f"prompt {name}: needs one system and one user part")
    return Template(name, bodies["system"], bodies["user"])
