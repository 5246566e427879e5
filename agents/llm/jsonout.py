"""Getting one JSON object out of a model's text (for servers without structured output)."""

from __future__ import annotations

import json

_decoder = json.JSONDecoder()


def first_json_object(text: str) -> dict | None:
    """The first `{...}` in `text` that parses as a JSON object, or None.

    Chatty models wrap JSON in prose or ``` fences; raw_decode from each
    opening brace finds the object without guessing where it ends.
    """
    i = text.find("{")
    while i >= 0:
        try:
            obj, _ = _decoder.raw_decode(text, i)
        except json.JSONDecodeError:
            i = text.find("{", i + 1)
            continue
        if isinstance(obj, dict):
            return obj
        i = text.find("{", i + 1)
    return None
