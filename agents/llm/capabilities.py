"""What one endpoint + model can do, learned once and remembered.

The first request of each kind is the probe (one at a time per endpoint and
feature: concurrent sub-agents wait for its answer): the caller sends the best form
(native tools; `json_schema` output) and the server's answer says whether it
works. An error whose text names the response format or tools (llama-cpp-
python's HTTP 500 "Input should be 'text' or 'json_object'", llama.cpp's
"tools param requires --jinja flag", vLLM's 400 for an unknown parameter) is
an answer, "unsupported", not a transient fault: the request is re-sent at
once in the next form (json_schema -> json_object -> plain text; native tools
-> tools described in text), and the result is cached per base URL + model
for the process, and in a JSON file of the workspace when one is given, so
neither the next sub-agent nor the next run pays for the probe again.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from pydantic import BaseModel, Field

OUTPUT_MODES = ("json_schema", "json_object", "text")  # best first
TOOL_MODES = ("native", "text")
MAX_AGE_S = 7 * 24 * 3600  # a server restarted with other flags is probed again within a week

_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "structured output", "grammar", "guided_json")
_TOOL_WORDS = ("tools", "tool_choice", "tool call", "function call", "--jinja", "function_call")
_REFUSAL_WORDS = ("not supported", "unsupported", "unknown parameter", "unrecognized", "extra inputs",
                  "not implemented", "does not support", "input should be", "not allowed", "requires",
                  "invalid value", "not permitted", "unexpected keyword")


class Capabilities(BaseModel):
    """The forms one endpoint + model accepts, as learned from its answers."""

    output: str = Field("json_schema", description="Best structured-output form that works: json_schema, "
                        "json_object or text (schema described in the prompt).")
    tools: str = Field("native", description="native (the `tools` parameter) or text (tools described in the prompt).")
    text_tool_replies: int = Field(0, description="Native-mode replies whose tool call was in the text, not in "
                                   "`tool_calls` (the model ignores the parser; calls are still read).")
    confirmed: list[str] = Field(default_factory=list, description="Features ('output', 'tools') whose form the "
                                 "server has accepted: no more probing for them.")
    learned: list[str] = Field(default_factory=list, description="Why each downgrade happened (server's words, short).")
    updated_at: float = Field(0.0, description="Unix time of the last change.")


def refusal_of(error_text: str, sent_output: str | None, sent_tools: bool) -> str | None:
    """Which feature an HTTP error refuses ('output' or 'tools'), or None for an ordinary error.

    Only an error that names the feature counts, whatever its status: llama-cpp-python answers a
    json_schema request with a 500, which would otherwise be retried six times to no avail.
    """
    text = error_text.lower()
    refusal = any(w in text for w in _REFUSAL_WORDS)
    if sent_tools and any(w in text for w in _TOOL_WORDS) and refusal:
        return "tools"
    if sent_output and any(w in text for w in _FORMAT_WORDS) and refusal:
        return "output"
    return None


def next_output_mode(current: str, error_text: str) -> str:
    """The form to try after `current` was refused: json_object when the server says it takes it."""
    if current == "json_schema" and "json_object" in error_text.lower():
        return "json_object"
    return "text"


class CapabilityCache:
    """Per (base URL, model) capabilities; in process, and persisted to `path` when given."""

    def __init__(self, path: Path | None = None, max_age_s: float = MAX_AGE_S):
        self.path, self.max_age_s = path, max_age_s
        self._lock = threading.Lock()
        self._mem: dict[str, Capabilities] = {}
        if path is not None and path.exists():
            try:
                raw = json.loads(path.read_text(encoding="utf-8"))
                now = time.time()
                self._mem = {k: Capabilities.model_validate(v) for k, v in raw.items()
                             if now - float(v.get("updated_at", 0)) < max_age_s}
            except (ValueError, TypeError, OSError):
                self._mem = {}  # a damaged cache only costs a probe

    @staticmethod
    def key(base_url: str, model: str) -> str:
        return f"{base_url.rstrip('/')}|{model}"

    def get(self, base_url: str, model: str) -> Capabilities:
        with self._lock:
            return self._mem.setdefault(self.key(base_url, model), Capabilities()).model_copy()

    def update(self, base_url: str, model: str, why: str = "", **changes) -> Capabilities:
        with self._lock:
            cur = self._mem.setdefault(self.key(base_url, model), Capabilities())
            for k, v in changes.items():
                setattr(cur, k, v)
            if why:
                cur.learned = (cur.learned + [why[:200]])[-5:]
            cur.updated_at = time.time()
            snapshot = {k: v.model_dump() for k, v in self._mem.items()}
            out = cur.model_copy()
        if self.path is not None:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                tmp = self.path.with_suffix(".tmp")
                tmp.write_text(json.dumps(snapshot, indent=1), encoding="utf-8")
                tmp.replace(self.path)
            except OSError:
                pass  # the in-process cache still holds; the next run probes again
        return out

    def confirm(self, base_url: str, model: str, feature: str) -> None:
        cur = self.get(base_url, model)
        if feature not in cur.confirmed:
            self.update(base_url, model, confirmed=sorted(set(cur.confirmed) | {feature}))

    def clear(self) -> None:
        with self._lock:
            self._mem.clear()


# One per process: every caller of the same endpoint + model shares what was learned.
PROCESS_CACHE = CapabilityCache()


def workspace_cache(workspace: Path) -> CapabilityCache:
    """A cache that also persists to workspace/llm_capabilities.json (shared by the runs of an installation)."""
    return CapabilityCache(Path(workspace) / "llm_capabilities.json")
