"""One chat call with retries, budget, token accounting and fallbacks for plain servers.

`LLMCaller.call` sends a chat request for one role (root or sub), retries
transient failures (429 honouring Retry-After, 5xx, timeouts, connection
errors, an unreadable body) and unusable output (the `parse` callback raises
`OutputInvalid`) with exponential backoff and jitter, up to
settings.max_retries. Retries for unusable output differ from the attempt
before: the model's reply goes back with a correction saying what was wrong,
and the temperature rises, so a model at temperature 0 does not repeat the
same answer six times.

Which request form an endpoint takes (native tools or tools described in
text; json_schema, json_object or a schema described in text) is learned
from its answers and shared through agents.llm.capabilities: an error that
names the feature is "unsupported", and the request goes out again at once in
the next form, never counted as a retry. A response without `usage` is
counted with core.text.count_tokens (marked estimated), so budgets hold.
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
from agents.llm.capabilities import PROCESS_CACHE, CapabilityCache, next_output_mode, refusal_of
from agents.llm.client import Role, model_for
from agents.llm.toolparse import ToolTextError, parse_text_tool_calls
from core.settings import LLMSettings
from core.text import count_tokens


class OutputInvalid(ValueError):
    """The model answered, but not in a usable form (bad JSON, wrong schema, unknown tool)."""


class LLMError(RuntimeError):
    """A call failed for good (retries spent, or a non-retryable error). Never carries the API key.

    It keeps what the failed attempts cost, so the run's accounting still counts them.
    """

    def __init__(self, message: str, *, prompt_tokens: int = 0, completion_tokens: int = 0, calls: int = 0,
                 errors: list[str] | None = None):
        super().__init__(message)
        self.prompt_tokens, self.completion_tokens, self.calls = prompt_tokens, completion_tokens, calls
        self.errors = errors or []


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
    mode: str = "native"  # "json_object", or "fallback" when the server lacked response_format / tools
    errors: list[str] = field(default_factory=list)  # what the retries were for (redacted)
    transcript: list[dict] = field(default_factory=list)  # per request: messages, reply, tokens, latency
    tokens_estimated: bool = False  # some response had no `usage`: its tokens were counted from the text
    parse_form: str = ""  # how the accepted reply was read (tool_calls, tags, fenced, bare, json)


_TRANSIENT = (openai.APITimeoutError, openai.APIConnectionError, openai.APIResponseValidationError,
              json.JSONDecodeError)
RETRY_TEMPERATURE_STEP = 0.3  # per unusable reply; capped at 1.0

JSON_FALLBACK = (
    "\n\nThis endpoint has no structured output. Reply with exactly one JSON object and nothing else. "
    "It must validate against this JSON Schema:\n{schema}"
)
TOOLS_FALLBACK = (
    "\n\nThis endpoint has no native tool calling. To act, reply with exactly one JSON object and nothing else: "
    '{{"tool_calls": [{{"name": "<tool name>", "arguments": {{...}}}}]}}. The tools, as JSON Schema:\n{tools}'
)
CORRECTION = ("Your previous reply (above) could not be used: {error}. {hint} "
              "Reply again with only that, nothing else.")
HINT_TOOLS = 'Act with tool calls only: {"tool_calls": [{"name": "<tool name>", "arguments": {...}}]}.'
HINT_JSON = "Answer with one JSON object that validates against the schema."


class LLMCaller:
    """Calls one role's model. Shared by every agent of that role in a run (capabilities are learned once)."""

    def __init__(self, client: AsyncOpenAI, settings: LLMSettings, role: Role, *, budget: RunBudget | None = None,
                 backoff_base_s: float = 0.5, backoff_max_s: float = 30.0, sleep=asyncio.sleep,
                 rng: random.Random | None = None, on_call: Callable[[dict], None] | None = None,
                 capabilities: CapabilityCache | None = None):
        self.client, self.settings, self.role, self.budget = client, settings, role, budget
        self.model = model_for(settings, role)
        self.base_url = str(client.base_url)
        self.backoff_base_s, self.backoff_max_s = backoff_base_s, backoff_max_s
        self._sleep, self._rng, self._on_call = sleep, rng or random.Random(), on_call
        self.capabilities = capabilities if capabilities is not None else PROCESS_CACHE
        self._probe_locks: dict[str, asyncio.Lock] = {}

    @property
    def caps(self):
        return self.capabilities.get(self.base_url, self.model)

    # --- public ----------------------------------------------------------
    async def call(self, messages: list[dict], *, parse: Callable[[Completion], Any],
                   json_schema: dict | None = None, schema_name: str = "output",
                   tools: list[dict] | None = None) -> Completion:
        """Send `messages` (system first) until `parse` accepts the reply; returns it with `parsed` set.

        While the endpoint's form for this feature is unknown, one call at a time probes it: the others
        wait for its first answer instead of all sending a form the server may refuse.
        """
        feature = "tools" if tools else ("output" if json_schema else "")
        if not feature or feature in self.caps.confirmed:
            return await self._call(messages, parse, json_schema, schema_name, tools, lambda: None)
        lock = self._probe_locks.setdefault(feature, asyncio.Lock())
        await lock.acquire()
        held = [True]

        def answered() -> None:  # the server accepted the form it was sent: the probe is over
            if held[0]:
                self.capabilities.confirm(self.base_url, self.model, feature)
                held[0] = False
                lock.release()

        try:
            if feature in self.caps.confirmed:
                answered()  # learned while this call waited
            return await self._call(messages, parse, json_schema, schema_name, tools, answered)
        finally:
            if held[0]:
                lock.release()  # no answer (connection error, budget): the next call probes

    async def _call(self, messages, parse, json_schema, schema_name, tools, answered) -> Completion:
        attempt, invalid, errors, extra = 0, 0, [], []
        t_total = time.monotonic()
        tokens = [0, 0]
        sent, estimated = 0, False
        transcript: list[dict] = []

        def fail(what: str, err: Exception) -> LLMError:
            return LLMError(self._msg(what, err, attempt + 1), prompt_tokens=tokens[0], completion_tokens=tokens[1],
                            calls=sent, errors=errors)

        while True:
            caps = self.caps
            mode = caps.tools if tools else (caps.output if json_schema else "text")
            kwargs, msgs = self._request(messages + extra, json_schema, schema_name, tools, mode, invalid)
            form = request_form(bool(tools), bool(json_schema), mode)
            if self.budget is not None:
                self.budget.reserve_call(self.role)
            t0 = time.monotonic()
            sent += 1
            try:
                resp = await self.client.chat.completions.create(model=self.model, messages=msgs, **kwargs)
            except openai.APIStatusError as e:
                self._log(attempt, t0, type(e).__name__, transcript, msgs, form=form)
                refused = refusal_of(f"{e} {e.body}", mode if json_schema and not tools and mode != "text" else None,
                                     bool(tools) and mode == "native")
                if refused == "tools":
                    self.capabilities.update(self.base_url, self.model, tools="text", why=self._redact(str(e))[:200])
                    errors.append(f"tools unsupported ({e.status_code}); using tools described in text")
                    continue  # an answer about the server, not a fault: not a retry
                if refused == "output":
                    nxt = next_output_mode(mode, f"{e} {e.body}")
                    self.capabilities.update(self.base_url, self.model, output=nxt, why=self._redact(str(e))[:200])
                    errors.append(f"{mode} unsupported ({e.status_code}); using {nxt}")
                    continue
                answered()  # an error that is not about the form: the form stands
                if e.status_code == 429 or e.status_code >= 500:
                    errors.append(self._redact(f"{type(e).__name__}: {e}"))
                    if attempt >= self.settings.max_retries:
                        raise fail("failed", e) from None
                    await self._sleep(self._delay(attempt, e))
                    attempt += 1
                    continue
                raise fail(f"rejected ({e.status_code})", e) from None  # 400/401/403/404: retrying will not help
            except _TRANSIENT as e:
                self._log(attempt, t0, type(e).__name__, transcript, msgs, form=form)
                errors.append(self._redact(f"{type(e).__name__}: {e}"))
                if attempt >= self.settings.max_retries:
                    raise fail("failed", e) from None
                await self._sleep(self._delay(attempt, e))
                attempt += 1
                continue
            answered()
            comp = self._completion(resp, t0, mode, msgs, kwargs)
            tokens[0] += comp.prompt_tokens
            tokens[1] += comp.completion_tokens
            estimated = estimated or comp.tokens_estimated
            self._log(attempt, t0, "ok", transcript, msgs, comp, form=form)
            try:
                comp.parsed = parse(comp)
            except OutputInvalid as e:
                errors.append(self._redact(f"invalid output: {e}"))
                if attempt >= self.settings.max_retries:
                    raise fail("gave unusable output", e) from None
                extra = self._correction(comp, str(e), bool(tools))
                await self._sleep(self._delay(attempt, None))
                attempt += 1
                invalid += 1
                continue
            if tools and mode == "native" and not comp.tool_calls and comp.parse_form not in ("", "tool_calls"):
                caps = self.capabilities.get(self.base_url, self.model)
                self.capabilities.update(self.base_url, self.model, text_tool_replies=caps.text_tool_replies + 1)
            comp.attempts, comp.calls, comp.errors, comp.transcript = attempt + 1, sent, errors, transcript
            comp.prompt_tokens, comp.completion_tokens = tokens
            comp.tokens_estimated = estimated
            comp.seconds = time.monotonic() - t_total
            return comp

    async def aclose(self) -> None:
        """Close the HTTP connections inside the event loop that used them."""
        await self.client.close()

    # --- request shaping -------------------------------------------------
    def temperature(self, invalid: int) -> float:
        """The first attempt uses the configured temperature; each unusable reply raises it (capped at 1)."""
        base = self.settings.temperature
        return base if invalid == 0 else round(max(base, min(1.0, base + RETRY_TEMPERATURE_STEP * invalid)), 2)

    def _correction(self, comp: Completion, error: str, tools: bool) -> list[dict]:
        """The rejected reply and what was wrong with it, so the next attempt is not the same request."""
        reply = comp.content.strip()
        if not reply and comp.tool_calls:
            reply = json.dumps({"tool_calls": [{"name": t.name, "arguments": t.arguments} for t in comp.tool_calls]})
        hint = HINT_TOOLS if tools else HINT_JSON
        return [{"role": "assistant", "content": reply[:1500] or "(empty reply)"},
                {"role": "user", "content": CORRECTION.format(error=error[:500], hint=hint)}]

    def _request(self, messages, json_schema, schema_name, tools, mode, invalid) -> tuple[dict, list[dict]]:
        kwargs: dict[str, Any] = {"temperature": self.temperature(invalid)}
        timeout = self.settings.timeout_s
        if self.budget is not None:
            timeout = min(timeout, max(1.0, self.budget.remaining_seconds()))
        kwargs["timeout"] = timeout
        if tools and mode == "native":
            kwargs["tools"] = tools
            return kwargs, messages
        if json_schema and not tools and mode == "json_schema":
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
            if mode == "json_object":  # valid JSON guaranteed by the server, the schema by the prompt
                kwargs["response_format"] = {"type": "json_object"}
        return kwargs, msgs

    def _completion(self, resp, t0: float, mode: str, msgs: list[dict], kwargs: dict) -> Completion:
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
        estimated = not (pt or ct)
        if estimated:  # no usage (some local servers, some proxies): count the text so token budgets still hold
            pt, ct = estimate_tokens(msgs, kwargs.get("tools"), content, calls)
        secs = time.monotonic() - t0
        if self.budget is not None:
            self.budget.record(self.role, pt, ct, secs, estimated=estimated)
        label = {"native": "native", "json_schema": "native", "json_object": "json_object"}.get(mode, "fallback")
        return Completion(content=content, tool_calls=calls, parsed=None, prompt_tokens=pt, completion_tokens=ct,
                          seconds=secs, mode=label, tokens_estimated=estimated)

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
             comp: Completion | None = None, form: str = "") -> None:
        rec = {"role": self.role, "model": self.model, "attempt": attempt, "outcome": outcome, "form": form,
               "seconds": round(time.monotonic() - t0, 4),
               "prompt_tokens": comp.prompt_tokens if comp else 0,
               "completion_tokens": comp.completion_tokens if comp else 0,
               "usage": ("estimated" if comp.tokens_estimated else "reported") if comp else "none"}
        if self._on_call is not None:
            self._on_call(dict(rec))
        rec["messages"] = msgs
        if comp is not None:
            rec["response"] = {"content": comp.content,
                               "tool_calls": [{"name": t.name, "arguments": t.arguments} for t in comp.tool_calls]}
        transcript.append(rec)


def request_form(tools: bool, json_schema: bool, mode: str) -> str:
    """The form a request went out in, as reports name it: native tools, tools in text, json_schema,
    json_object or text (a schema described in the prompt, or no structure asked)."""
    if tools:
        return "native tools" if mode == "native" else "tools in text"
    return mode if json_schema else "text"


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


def estimate_tokens(msgs: list[dict], tools: list[dict] | None, content: str, calls: list[ToolCall]) -> tuple[int, int]:
    """Prompt and completion tokens of one request by core.text.count_tokens (~10 % of cl100k on English prose)."""
    prompt = sum(count_tokens(m.get("content") or "") for m in msgs) + (count_tokens(json.dumps(tools)) if tools else 0)
    completion = count_tokens(content) + sum(count_tokens(json.dumps(c.arguments)) + 1 for c in calls)
    return prompt, max(1, completion)


def tool_calls_from_text(comp: Completion) -> list[ToolCall]:
    """Tool calls written in a reply's text (JSON, fenced JSON, <tool_call> tags); sets comp.parse_form."""
    try:
        found = parse_text_tool_calls(comp.content)
    except ToolTextError as e:
        raise OutputInvalid(str(e)) from None
    comp.parse_form = found[0].form
    return [ToolCall(f"text_call_{i}", c.name, c.arguments) for i, c in enumerate(found)]
