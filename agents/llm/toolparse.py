"""Tool calls written as text, in the forms open models actually use.

Small open models served without a tool-call parser (llama.cpp without
--jinja, older vLLM/Ollama templates) answer a `tools` request with the call
in their text. Seen on Qwen2.5 0.5B/1.5B Instruct: a bare
`{"name": ..., "arguments": ...}` object, the same in a ```json fence, and
Qwen/Hermes `<tool_call>{...}</tool_call>` tags. Llama 3 writes "parameters"
for "arguments"; OpenAI-shaped `{"function": {...}}` and `{"tool_calls": [...]}`
objects appear too. Each form is read here; anything else raises
OutputInvalid with what was wrong, so the retry can tell the model.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

_decoder = json.JSONDecoder()
_TAG = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.S)
_FENCE = re.compile(r"```[a-zA-Z0-9_-]*\s*\n?(.*?)```", re.S)


class ToolTextError(ValueError):
    """The text holds no readable tool call; the message says what was wrong with it."""


@dataclass
class TextToolCall:
    name: str
    arguments: dict
    form: str  # "tags", "fenced" or "bare": how the model wrote it, for the run's parse-mode counts


def _values(text: str) -> list:
    """Every top-level JSON object or array in `text`, in order (prose around them is ignored)."""
    out, i = [], 0
    while True:
        starts = [p for p in (text.find("{", i), text.find("[", i)) if p >= 0]
        if not starts:
            return out
        i = min(starts)
        try:
            obj, end = _decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i += 1
            continue
        if isinstance(obj, (dict, list)):
            out.append(obj)
        i = end


def _as_calls(obj) -> list[dict] | None:
    """The call objects inside one JSON value, or None when it is not shaped like tool calls."""
    if isinstance(obj, list):
        calls = [c for o in obj for c in (_as_calls(o) or [])]
        return calls if calls and len(calls) >= len(obj) else None
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("tool_calls"), list):
        return _as_calls(obj["tool_calls"])
    if isinstance(obj.get("function"), dict) and "name" in obj["function"]:
        return [obj["function"]]
    if isinstance(obj.get("name"), str) and not set(obj) - {"name", "arguments", "parameters", "id", "type"}:
        return [obj]
    return None


def _arguments(c: dict, i: int) -> dict:
    args = c.get("arguments", c.get("parameters", {}))
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except json.JSONDecodeError:
            raise ToolTextError(f"tool call {i} ({c.get('name')}): its arguments are a string that is not JSON") from None
    if args is None:
        args = {}
    if not isinstance(args, dict):
        raise ToolTextError(f"tool call {i} ({c.get('name')}): arguments must be a JSON object, got {type(args).__name__}")
    return args


def parse_text_tool_calls(text: str) -> list[TextToolCall]:
    """Tool calls written in `text`: tags first, then fenced JSON, then bare JSON. Raises ToolTextError."""
    text = text or ""
    if not text.strip():
        raise ToolTextError("the reply was empty: no tool call")
    for form, parts in (("tags", _TAG.findall(text)), ("fenced", _FENCE.findall(text)), ("bare", [text])):
        found: list[dict] = []
        for part in parts:
            for value in _values(part):
                found += _as_calls(value) or []
        if found:
            return [TextToolCall(str(c.get("name")), _arguments(c, i), form) for i, c in enumerate(found)]
    if _values(text):
        raise ToolTextError('the reply has JSON but no tool call in it: write {"name": "<tool>", "arguments": {...}}')
    raise ToolTextError("the reply is prose with no tool call: answer with a tool call only, no explanation")
