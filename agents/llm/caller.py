"""One chat call with retries, budget, token accounting and fallbacks for plain servers.

`LLMCaller.call` sends a chat request for one role (root or sub), retries
transient failures (429 honouring Retry-After, 5xx, timeouts, connection
errors, an unreadable body) and unusable output (the `parse` callback raises
`OutputInvalid`) with exponential backoff and jitter, up to
settings.max_retries. A server that rejects `response_format` or `tools` with
a 400 is remembered as not supporting it, and the request is re-sent in a
plain-text form: the schema or the tool list is described in the system
message and the first JSON object of the reply is used.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import openai
from openai import AsyncOpenAI

from agents.llm.budget import RunBudget
from agents.llm.client import Role, model_for
from agents.llm.jsonout import first_json_object
from core.settings import LLMSettings


class OutputInvalid(ValueError):
    """The model answered, but not in a usable form (bad JSON, wrong schema, unknown tool)."""


class LLMError(RuntimeError):
    """A call failed for good (retries spent, or a non-retryable error). Never carries the API key."""


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: dict


@dataclass
class Completion:
    """What one successful `call` returned, with what it cost."""

    content: str
    tool_calls: list[ToolCall]
    parsed: Any
    prompt_tokens: int = 0
    completion_tokens: int = 0
    attempts: int = 1
    calls: int = 1  # requests sent, retries and unsupported-feature probes included
    seconds: float = 0.0
    mode: str = "native"  # "fallback" when the server lacked response_format / tools
    errors: list[str] = field(default_factory=list)  # what the retries were for (redacted)
    transcript: list[dict] = field(default_factory=list)  # per request: messages, reply, tokens, latency


_RETRYABLE = (openai.RateLimitError, openai.InternalServerError, openai.APITimeoutError,
              openai.APIConnectionError, openai.APIResponseValidationError, json.JSONDecodeError)
_UNSUPPORTED_WORDS = ("not supported", "unsupported", "unknown parameter", "unrecognized", "extra inputs",
                      "not implemented", "does not support")

JSON_FALLBACK = (
    "\n\nThis endpoint has no structured output. Reply with exactly one JSON object and nothing else. "
    "It must validate against this JSON Schema:\n{schema}"
)
TOOLS_FALLBACK = (
    "\n\nThis endpoint has no native tool calling. To act, reply with exactly one JSON object and nothing else: "
    '{{"tool_calls": [{{"name": "<tool name>", "arguments": {{...}}}}]}}. The tools, as JSON Schema:\n{tools}'
)
CORRECTION = "Your previous reply could not be used: {error}. Reply again, following the required format exactly."


class LLMCaller:
    """Calls one role's model. Shared by every agent of that role in a run (capabilities are learned once)."""

    def __init__(self, client: AsyncOpenAI, settings: LLMSettings, role: Role, *, budget: RunBudget | None = None,
                 backoff_base_s: float = 0.5, backoff_max_s: float = 30.0, sleep=asyncio.sleep,
                 rng: random.Random | None = None, on_call: Callable[[dict], None] | None = None):
        self.client, self.settings, self.role, self.budget = client, settings, role, budget
        self.model = model_for(settings, role)
        self.backoff_base_s, self.backoff_max_s = backoff_base_s, backoff_max_s
        self._sleep, self._rng, self._on_call = sleep, rng or random.Random(), on_call
        self.supports = {"response_format": True, "tools": True}

    # --- public ----------------------------------------------------------
    async def call(self, messages: list[dict], *, parse: Callable[[Completion], Any],
                   json_schema: dict | None = None, schema_name: str = "output",
                   tools: list[dict] | None = None) -> Completion:
        """Send `messages` (system first) until `parse` accepts the reply; returns it with `parsed` set."""
        attempt, errors, extra = 0, [], []
        t_total = time.monotonic()
        tokens = [0, 0]
        sent = 0
        transcript: list[dict] = []
        while True:
            feature = "tools" if tools else ("response_format" if json_schema else "")
            native = bool(feature) and self.supports[feature]
            kwargs, msgs = self._request(messages + extra, json_schema, schema_name, tools, native)
            if self.budget is not None:
                self.budget.reserve_call(self.role)
            t0 = time.monotonic()
            sent += 1
            try:
                resp = await self.client.chat.completions.create(model=self.model, messages=msgs, **kwargs)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as e:
                self._log(attempt, t0, type(e).__name__, transcript, msgs)
                if native and _is_unsupported(e, feature):
                    self.supports[feature] = False  # learned once per caller; not a retry
                    errors.append(f"{feature} unsupported; using the text fallback")
                    continue
                raise LLMError(self._msg(f"rejected ({e.status_code})", e, attempt + 1)) from None
            except _RETRYABLE as e:
                self._log(attempt, t0, type(e).__name__, transcript, msgs)
                errors.append(self._redact(f"{type(e).__name__}: {e}"))
                if attempt >= self.settings.max_retries:
                    raise LLMError(self._msg("failed", e, attempt + 1)) from None
                await self._sleep(self._delay(attempt, e))
                attempt += 1
                continue
            except openai.APIStatusError as e:  # 401/403/404...: retrying will not help
                self._log(attempt, t0, type(e).__name__, transcript, msgs)
                raise LLMError(self._msg(f"rejected ({e.status_code})", e, attempt + 1)) from None
            comp = self._completion(resp, t0, native)
            tokens[0] += comp.prompt_tokens
            tokens[1] += comp.completion_tokens
            self._log(attempt, t0, "ok", transcript, msgs, comp)
            try:
                comp.parsed = parse(comp)
            except OutputInvalid as e:
                errors.append(self._redact(f"invalid output: {e}"))
                if attempt >= self.settings.max_retries:
                    raise LLMError(self._msg("gave unusable output", e, attempt + 1)) from None
                extra = [{"role": "user", "content": CORRECTION.format(error=str(e)[:500])}]
                await self._sleep(self._delay(attempt, None))
                attempt += 1
                continue
            comp.attempts, comp.calls, comp.errors, comp.transcript = attempt + 1, sent, errors, transcript
            comp.prompt_tokens, comp.completion_tokens = tokens
            comp.seconds = time.monotonic() - t_total
            return comp

    async def aclose(self) -> None:
        """Close the HTTP connections inside the event loop that used them."""
        await self.client.close()

    # --- request shaping -------------------------------------------------
    def _request(self, messages, json_schema, schema_name, tools, native) -> tuple[dict, list[dict]]:
        kwargs: dict[str, Any] = {"temperature": self.settings.temperature}
        timeout = self.settings.timeout_s
        if self.budget is not None:
            timeout = min(timeout, max(1.0, self.budget.remaining_seconds()))
        kwargs["timeout"] = timeout
        if native and tools:
            kwargs["tools"] = tools
            return kwargs, messages
        if native and json_schema:
            kwargs["response_format"] = {"type": "json_schema",
                                         "json_schema": {"name": schema_name, "schema": json_schema, "strict": True}}
            return kwargs, messages
        msgs = [dict(m) for m in messages]
        if tools:
            fns = [t["function"] for t in tools]
            msgs[0]["content"] += TOOLS_FALLBACK.format(tools=json.dumps(fns, indent=1))
            msgs = _flatten_tool_turns(msgs)
        elif json_schema:
            msgs[0]["content"] += JSON_FALLBACK.format(schema=json.dumps(json_schema, indent=1))
        return kwargs, msgs

    def _completion(self, resp, t0: float, native: bool) -> Completion:
        choices = getattr(resp, "choices", None) or []
        msg = choices[0].message if choices else None  # no choices: parse() sees an empty reply
        content = (msg.content if msg else "") or ""
        calls: list[ToolCall] = []
        for tc in (msg.tool_calls if msg else None) or []:
            try:
                args = json.loads(tc.function.arguments or "{}")
            except json.JSONDecodeError:
                args = {"__unparsed__": tc.function.arguments}
            calls.append(ToolCall(tc.id, tc.function.name, args if isinstance(args, dict) else {"__unparsed__": args}))
        usage = getattr(resp, "usage", None)
        pt = int(getattr(usage, "prompt_tokens", 0) or 0)
        ct = int(getattr(usage, "completion_tokens", 0) or 0)
        secs = time.monotonic() - t0
        if self.budget is not None:
            self.budget.record(self.role, pt, ct, secs)
        return Completion(content=content, tool_calls=calls, parsed=None, prompt_tokens=pt, completion_tokens=ct,
                          seconds=secs, mode="native" if native else "fallback")

    # --- retry policy ----------------------------------------------------
    def _delay(self, attempt: int, err: Exception | None) -> float:
        hinted = _retry_after(err)
        if hinted is not None:
            return min(hinted, self.backoff_max_s)
        # "Equal jitter": at least half the exponential step, so retries spread out but still back off.
        step = min(self.backoff_max_s, self.backoff_base_s * (2 ** attempt))
        return step / 2 + self._rng.uniform(0, step / 2)

    def _redact(self, text: str) -> str:
        key = self.settings.api_key.get_secret_value()
        return text.replace(key, "***") if key else text

    def _msg(self, what: str, err: Exception, attempts: int) -> str:
        return self._redact(f"{self.role} model {self.model!r} {what} after {attempts} attempt(s): "
                            f"{type(err).__name__}: {str(err)[:400]}")

    def _log(self, attempt: int, t0: float, outcome: str, transcript: list[dict], msgs: list[dict],
             comp: Completion | None = None) -> None:
        rec = {"role": self.role, "model": self.model, "attempt": attempt, "outcome": outcome,
               "seconds": round(time.monotonic() - t0, 4),
               "prompt_tokens": comp.prompt_tokens if comp else 0,
               "completion_tokens": comp.completion_tokens if comp else 0}
        if self._on_call is not None:
            self._on_call(dict(rec))
        rec["messages"] = msgs
        if comp is not None:
            rec["response"] = {"content": comp.content,
                               "tool_calls": [{"name": t.name, "arguments": t.arguments} for t in comp.tool_calls]}
        transcript.append(rec)


def _is_unsupported(err: openai.APIStatusError, feature: str) -> bool:
    text = str(err).lower()
    names = ("response_format", "json_schema", "structured") if feature == "response_format" else ("tool",)
    return any(w in text for w in _UNSUPPORTED_WORDS) or any(n in text for n in names)


def _retry_after(err: Exception | None) -> float | None:
    """Seconds the server asked us to wait (retry-after-ms, Retry-After seconds or HTTP date)."""
    resp = getattr(err, "response", None)
    headers = getattr(resp, "headers", None)
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    ra = headers.get("retry-after")
    if not ra:
        return None
    try:
        return max(0.0, float(ra))
    except ValueError:
        when = email.utils.parsedate_to_datetime(ra) if email.utils.parsedate_tz(ra) else None
        return max(0.0, when.timestamp() - time.time()) if when else None


def _flatten_tool_turns(msgs: list[dict]) -> list[dict]:
    """Tool-call turns as plain text, for servers that reject the `tool` role."""
    out = []
    for m in msgs:
        if m["role"] == "assistant" and m.get("tool_calls"):
            calls = [{"name": tc["function"]["name"], "arguments": json.loads(tc["function"]["arguments"] or "{}")}
                     for tc in m["tool_calls"]]
            out.append({"role": "assistant", "content": json.dumps({"tool_calls": calls})})
        elif m["role"] == "tool":
            out.append({"role": "user", "content": f"Result of tool call {m.get('name', '')}:\n{m['content']}"})
        else:
            out.append(m)
    return out


def tool_calls_from_text(comp: Completion) -> list[ToolCall]:
    """Tool calls of a fallback reply: {"tool_calls": [...]} or a single {"name":..., "arguments":...}."""
    obj = first_json_object(comp.content)
    if obj is None:
        raise OutputInvalid("no JSON object with tool_calls in the reply")
    raw = obj.get("tool_calls", [obj] if "name" in obj else None)
    if not isinstance(raw, list) or not raw:
        raise OutputInvalid("the JSON object has no tool_calls list")
    out = []
    for i, c in enumerate(raw):
        if not isinstance(c, dict) or not isinstance(c.get("name"), str):
            raise OutputInvalid(f"tool call {i} has no name")
        args = c.get("arguments", {})
        if isinstance(args, str):
            try:
                args = json.loads(args)
            except json.JSONDecodeError:
                raise OutputInvalid(f"tool call {i}: arguments are not JSON") from None
        if not isinstance(args, dict):
            raise OutputInvalid(f"tool call {i}: arguments must be an object")
        out.append(ToolCall(f"text_call_{i}", c["name"], args))
    return out
