"""The client, the retry loop and the budget, against a real local HTTP server."""

from __future__ import annotations

import asyncio
import json

import pytest
from llm_helpers import API_KEY, ROOT_MODEL, SUB_MODEL
from pydantic import SecretStr

from agents.llm.budget import BudgetExceeded, RunBudget
from agents.llm.caller import Completion, LLMCaller, LLMError, OutputInvalid
from agents.llm.client import DUMMY_KEY, get_client
from agents.llm.jsonout import first_json_object
from core.settings import LLMSettings
from devtools import fakeopenai as fo

SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"],
          "additionalProperties": False}


def parse_answer(comp: Completion) -> str:
    obj = first_json_object(comp.content)
    if not obj or not isinstance(obj.get("answer"), str):
        raise OutputInvalid("expected {'answer': str}")
    return obj["answer"]


def caller(settings, role="sub", budget=None, **kw) -> LLMCaller:
    kw.setdefault("backoff_base_s", 0.01)
    return LLMCaller(get_client(settings.llm, role), settings.llm, role, budget=budget, **kw)


MSGS = [{"role": "system", "content": "Answer in JSON."}, {"role": "user", "content": "Say hi."}]


def test_get_client_uses_role_endpoints_and_dummy_key():
    s = LLMSettings(base_url="http://127.0.0.1:1/v1", sub_base_url="http://127.0.0.1:2/v1")
    assert str(get_client(s, "root").base_url).startswith("http://127.0.0.1:1/v1")
    assert str(get_client(s, "sub").base_url).startswith("http://127.0.0.1:2/v1")
    assert get_client(s, "root").api_key == DUMMY_KEY
    assert get_client(s, "root").max_retries == 0  # our loop retries, not the library's
    with pytest.raises(ValueError):
        get_client(LLMSettings(), "root")


def test_first_json_object_finds_object_in_prose():
    assert first_json_object('Sure! ```json\n{"a": {"b": [1, "}"]}}\n``` ok') == {"a": {"b": [1, "}"]}}
    assert first_json_object("[1,2] then {broken then {\"x\": 1}") == {"x": 1}
    assert first_json_object("no json here") is None


def test_json_schema_request_is_well_formed_and_usage_counted(llm_settings, fake):
    fake.enqueue(SUB_MODEL, fo.text('{"answer": "hi"}'))
    budget = RunBudget(10_000, 100, 60)
    comp = asyncio.run(caller(llm_settings, budget=budget).call(MSGS, json_schema=SCHEMA, parse=parse_answer))
    assert comp.parsed == "hi" and comp.attempts == 1 and comp.mode == "native"
    (req,) = fake.calls()
    assert req.path == "/v1/chat/completions"
    assert req.headers["authorization"] == f"Bearer {API_KEY}"
    assert req.body["model"] == SUB_MODEL
    assert req.body["response_format"]["type"] == "json_schema"
    assert req.body["response_format"]["json_schema"]["schema"] == SCHEMA
    assert [m["role"] for m in req.body["messages"]] == ["system", "user"]
    u = budget.usage()["sub"]
    assert u.calls == 1 and u.prompt_tokens == comp.prompt_tokens > 0 and u.completion_tokens > 0
    fake.assert_clean()


@pytest.mark.parametrize("fault", [fo.rate_limited(0.05), fo.server_error(500), fo.server_error(503),
                                   fo.malformed_body(), fo.hang(3.0)], ids=lambda f: f.kind)
def test_transient_faults_are_retried(llm_settings, fake, fault):
    llm_settings.llm.timeout_s = 0.5  # the hang outlasts it
    fake.enqueue(SUB_MODEL, fault, fault, fo.text('{"answer": "ok"}'))
    budget = RunBudget(10_000, 100, 60)
    comp = asyncio.run(caller(llm_settings, budget=budget).call(MSGS, json_schema=SCHEMA, parse=parse_answer))
    assert comp.parsed == "ok"
    assert comp.attempts == 3 and len(comp.errors) == 2
    assert budget.usage()["sub"].calls == 3
    assert len(fake.calls()) == 3
    fake.assert_clean()


def test_retry_after_is_honoured(llm_settings, fake):
    fake.enqueue(SUB_MODEL, fo.rate_limited(0.4), fo.text('{"answer": "ok"}'))
    sleeps: list[float] = []

    async def record_sleep(s):
        sleeps.append(s)
        await asyncio.sleep(s)

    c = caller(llm_settings, backoff_base_s=20.0, sleep=record_sleep)  # backoff alone would wait ~10 s
    asyncio.run(c.call(MSGS, json_schema=SCHEMA, parse=parse_answer))
    assert sleeps == [pytest.approx(0.4)]  # waited as told, as the server's clock below confirms (a lower bound)
    first, second = fake.calls()
    assert second.t_start - first.t_end >= 0.39


def test_backoff_grows_exponentially_with_jitter(llm_settings):
    c = caller(llm_settings, backoff_base_s=1.0, backoff_max_s=8.0)
    delays = [c._delay(a, None) for a in range(6)]
    for a, d in enumerate(delays):
        step = min(8.0, 2 ** a)
        assert step / 2 <= d <= step


def test_gives_up_after_max_retries_without_leaking_the_key(llm_settings, fake):
    leaky = fo.Reply(status=500, error=f"upstream rejected key {API_KEY}", kind="500")
    fake.enqueue(SUB_MODEL, *[leaky] * 4)
    with pytest.raises(LLMError) as ei:
        asyncio.run(caller(llm_settings).call(MSGS, json_schema=SCHEMA, parse=parse_answer))
    assert "after 4 attempt" in str(ei.value)
    assert API_KEY not in str(ei.value) and "***" in str(ei.value)
    assert len(fake.calls()) == 4  # max_retries=3 -> 4 attempts


def test_auth_error_is_not_retried(llm_settings, fake):
    fake.enqueue(SUB_MODEL, fo.Reply(status=401, error="Incorrect API key", kind="401"))
    with pytest.raises(LLMError, match="rejected \\(401\\)"):
        asyncio.run(caller(llm_settings).call(MSGS, json_schema=SCHEMA, parse=parse_answer))
    assert len(fake.calls()) == 1


def test_unusable_output_is_retried_with_a_correction(llm_settings, fake):
    fake.enqueue(SUB_MODEL, fo.text("I think the answer is hi."), fo.text('{"answer": 3}'),
                 fo.text('{"answer": "hi"}'))
    comp = asyncio.run(caller(llm_settings).call(MSGS, json_schema=SCHEMA, parse=parse_answer))
    assert comp.parsed == "hi" and comp.attempts == 3
    last = fake.calls()[-1].body["messages"]
    assert last[:2] == MSGS and last[-1]["role"] == "user" and "could not be used" in last[-1]["content"]
    assert len(comp.transcript) == 3 and comp.transcript[0]["response"]["content"].startswith("I think")


def test_server_without_structured_output_gets_plain_json_instructions(llm_settings, fake):
    fake.unsupported_params = {"response_format"}
    fake.enqueue(SUB_MODEL, fo.text('Here you go: {"answer": "hi"}'), fo.text('{"answer": "again"}'))
    async def twice():
        c = caller(llm_settings)  # one client per event loop
        first = await c.call(MSGS, json_schema=SCHEMA, parse=parse_answer)
        await c.call(MSGS, json_schema=SCHEMA, parse=parse_answer)
        return first

    comp = asyncio.run(twice())
    assert comp.parsed == "hi" and comp.mode == "fallback" and comp.calls == 2 and comp.attempts == 1
    probe, plain, again = fake.calls()
    assert probe.status == 400 and "response_format" in probe.body
    assert "response_format" not in plain.body
    assert json.dumps(SCHEMA, indent=1) in plain.body["messages"][0]["content"]
    assert "response_format" not in again.body  # learned once: the next call goes straight to the fallback
    fake.assert_clean()


def test_root_and_sub_use_their_own_models(llm_settings, fake):
    fake.enqueue(ROOT_MODEL, fo.text('{"answer": "root"}'))
    fake.enqueue(SUB_MODEL, fo.text('{"answer": "sub"}'))
    budget = RunBudget(10_000, 100, 60)
    r = asyncio.run(caller(llm_settings, "root", budget).call(MSGS, json_schema=SCHEMA, parse=parse_answer))
    s = asyncio.run(caller(llm_settings, "sub", budget).call(MSGS, json_schema=SCHEMA, parse=parse_answer))
    assert (r.parsed, s.parsed) == ("root", "sub")
    assert [c.body["model"] for c in fake.calls()] == [ROOT_MODEL, SUB_MODEL]
    assert set(budget.usage()) == {"root", "sub"}


def test_budget_caps_calls_tokens_and_time():
    clock = [0.0]
    b = RunBudget(max_tokens=100, max_calls=2, max_seconds=10, clock=lambda: clock[0])
    b.reserve_call("sub")
    b.record("sub", 40, 10, 0.1)
    b.reserve_call("sub")
    with pytest.raises(BudgetExceeded, match="call budget"):
        b.reserve_call("sub")
    b2 = RunBudget(max_tokens=100, max_calls=10, max_seconds=10, clock=lambda: clock[0])
    b2.reserve_call("sub")
    b2.record("sub", 90, 10, 0.1)
    with pytest.raises(BudgetExceeded, match="token budget"):
        b2.reserve_call("sub")
    b3 = RunBudget(max_tokens=100, max_calls=10, max_seconds=10, clock=lambda: clock[0], root_grace=2)
    clock[0] = 11
    with pytest.raises(BudgetExceeded, match="time budget"):
        b3.reserve_call("sub")
    b3.reserve_call("root")  # the root may still write the memo and finish...
    b3.reserve_call("root")
    with pytest.raises(BudgetExceeded, match="time budget"):
        b3.reserve_call("root")  # ...within its grace


def test_budget_stops_a_call_before_it_is_sent(llm_settings, fake):
    budget = RunBudget(10_000, 1, 60)
    fake.enqueue(SUB_MODEL, fo.text("not json"))
    with pytest.raises(BudgetExceeded):
        asyncio.run(caller(llm_settings, budget=budget).call(MSGS, json_schema=SCHEMA, parse=parse_answer))
    assert len(fake.calls()) == 1  # the retry was refused, not sent


def test_secret_never_in_repr_or_settings_dump(llm_settings):
    assert API_KEY not in repr(llm_settings) and API_KEY not in llm_settings.model_dump_json()
    assert isinstance(llm_settings.llm.api_key, SecretStr)


def test_key_not_in_debug_logs(llm_settings, fake, caplog):
    import logging

    caplog.set_level(logging.DEBUG)
    fake.enqueue(SUB_MODEL, fo.server_error(500), fo.text('{"answer": "ok"}'))
    asyncio.run(caller(llm_settings).call(MSGS, json_schema=SCHEMA, parse=parse_answer))
    assert caplog.records  # the openai/httpx debug logging did run
    assert API_KEY not in caplog.text


def test_remote_server_process_records_requests(llm_settings, no_network):
    """The benchmark's out-of-process server: same protocol checks, timings readable after exit."""
    from devtools.scripted import ScriptedReviewer

    with fo.RemoteFakeOpenAI(api_key=API_KEY, models={SUB_MODEL}, latency_s=0.05,
                             responders={SUB_MODEL: ScriptedReviewer({"x": ["hi"]})}) as srv:
        llm_settings.llm.base_url = srv.base_url
        parse = lambda c: first_json_object(c.content) or (_ for _ in ()).throw(OutputInvalid("no JSON"))  # noqa: E731
        comp = asyncio.run(caller(llm_settings).call(MSGS, parse=parse))
    assert comp.parsed["findings"] == []
    (rec,) = srv.calls(SUB_MODEL)
    assert rec.status == 200 and rec.t_end - rec.t_start >= 0.05
    srv.assert_clean()
