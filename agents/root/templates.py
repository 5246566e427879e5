"""The harness's own instruction templates: agents/prompts/instructions/<name>.md, named {placeholders}.

(The LLM engineer's chat templates live next to them in agents/prompts/ and have
their own loader in agents/llm/prompts.py.) Rendering is strict: every
placeholder must be given and nothing else, so a template and the code that
fills it cannot drift apart silently.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

INSTRUCTIONS_DIR = Path(__file__).resolve().parent.parent / "prompts" / "instructions"
_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


class TemplateError(ValueError):
    pass


@lru_cache(maxsize=None)
def template(name: str) -> str:
    return (INSTRUCTIONS_DIR / f"{name}.md").read_text(encoding="utf-8").strip()


def placeholders(name: str) -> set[str]:
    return set(_PLACEHOLDER.findall(template(name)))


def render(name: str, **values: object) -> str:
    need = placeholders(name)
    missing, unknown = need - values.keys(), values.keys() - need
    if missing or unknown:
        raise TemplateError(f"template {name}: missing {sorted(missing)}, unknown {sorted(unknown)}")
    return _PLACEHOLDER.sub(lambda m: str(values[m.group(1)]), template(name))
