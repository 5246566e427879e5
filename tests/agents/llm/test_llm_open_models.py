"""How open models really answer (issue #20), replayed through the local OpenAI-compatible server.

Replies quoted from Qwen2.5-Coder 0.5B/1.5B Instruct behind llama.cpp / llama-cpp-python: tool calls as
bare JSON, in a ```json fence or in <tool_call> tags while `tools` was sent; an HTTP 500 naming the
response format; empty quotes; "the document does not contain X" findings quoting an unrelated line.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from llm_helpers import KEYWORDS, ROOT_MODEL, SUB_MODEL, SUPPLY_TEXT, make_assignment, make_document

from agents.llm.budget import BudgetExceeded, RunBudget
from agents.llm.capabilities import CapabilityCache, refusal_of
from agents.llm.caller import LLMCaller, LLMError
from agents.llm.client import get_client
from agents.llm.root import LLMPolicy
from agents.llm.sub import LLMSubReviewer, output_schema
from agents.llm.toolparse import ToolTextError, parse_text_tool_calls
from agents.tools import ROOT_TOOLS
from agents.verify import claims_absence, quote_backs_claim, verify_finding
from core.checklist import load_checklist
from core.types import Citation, Finding, Severity
from devtools import fakeopenai as fo

from test_llm_root import observation

BARE = '{"name": "list_documents", "arguments": {}}'
FENCED = 'I will list the documents first.\n```json\n{"name": "list_documents", "arguments": {}}\n```'
TAGS = ('<tool_call>\n{"name": "delegate", "arguments": {"batches": ["b1"]}}\n</tool_call>\n'
        '<tool_call>\n{"name": "delegate", "arguments": {"batches": ["b2"]}}\n</tool_call>')


def root_policy(settings, **kw) -> LLMPolicy:
    c = LLMCaller(get_client(settings.llm, "root"), settings.llm, "root", backoff_base_s=0.01, **kw)
    return LLMPolicy(settings, caller=c, nonce=lambda: "n0nce")


def sub_reviewer(settings, **kw) -> LLMSubReviewer:
    c = LLMCaller(get_client(settings.llm, "sub"), settings.llm, "sub", backoff_base_s=0.01, **kw)
    return LLMSubReviewer(settings, caller=c)


# --------------------------------------------------------------------------- tool calls in text

@pytest.mark.parametrize("text,form,names", [
    (BARE, "bare", ["list_documents"]),
    (FENCED, "fenced", ["list_documents"]),
    (TAGS, "tags", ["delegate", "delegate"]),
    ('[{"name": "search", "arguments": {"query": "assignment"}}, {"name": "finish", "arguments": {}}]', "bare",
     ["search", "finish"]),
    ('{"tool_calls": [{"name": "finish", "arguments": "{\\"reason\\": \\"done\\"}"}]}', "bare", ["finish"]),
    ('{"name": "peek", "parameters": {"document_id": "d1"}}', "bare", ["peek"]),  # Llama 3's spelling
    ('{"type": "function", "function": {"name": "finish", "arguments": {}}}', "bare", ["finish"]),
    ("<tool_call>\n{\"name\": \"finish\", \"arguments\": {}}", "tags", ["finish"]),  # unclosed tag
])
def test_text_tool_calls_in_every_common_form(text, form, names):
    calls = parse_text_tool_calls(text)
    assert [c.name for c in calls] == names and {c.form for c in calls} == {form}
    assert all(isinstance(c.arguments, dict) for c in calls)


@pytest.mark.parametrize("text,why", [
    ("", "empty"),
    ("I will now list the documents in the room.", "prose"),
    ('{"run_id": "r", "step": 0, "phase": "review"}', "no tool call"),  # the 0.5B echoed the observation
    ('{"name": "search", "arguments": "query=x"}', "not JSON"),
])
def test_what_is_wrong_with_a_reply_is_said(text, why):
    with pytest.raises(ToolTextError, match=why):
        parse_text_tool_calls(text)


@pytest.mark.parametrize("reply,form", [(BARE, "bare"), (FENCED, "fenced"), (TAGS, "tags")])
def test_native_mode_reads_tool_calls_written_as_text(llm_settings, fake, reply, form):
    fake.expect_tools(ROOT_MODEL, ROOT_TOOLS)
    fake.replay(ROOT_MODEL, reply)
    d = asyncio.run(root_policy(llm_settings).decide(observation(step=2)))
    assert d.tool_calls and d.calls == 1 and d.parse_form == form and d.mode == "native"
    assert d.tool_calls[0].id == "step2-1"
    (req,) = fake.calls()
    assert req.body["tools"] == ROOT_TOOLS  # still native mode: the text was read, nothing was re-sent
    fake.assert_clean()


def test_retries_differ_correction_quotes_the_error_and_temperature_rises(llm_settings, fake):
    fake.replay(ROOT_MODEL, "Sure! I will list the documents.", '{"run_id": "r"}', BARE)
    d = asyncio.run(root_policy(llm_settings).decide(observation()))
    assert [c.name for c in d.tool_calls] == ["list_documents"] and d.calls == 3
    first, second, third = fake.calls()
    temps = [c.body["temperature"] for c in (first, second, third)]
    assert temps[0] == llm_settings.llm.temperature and temps[0] < temps[1] < temps[2] <= 1.0
    msgs = second.body["messages"]
    assert msgs[-2] == {"role": "assistant", "content": "Sure! I will list the documents."}
    assert msgs[-1]["role"] == "user" and "prose with no tool call" in msgs[-1]["content"]
    assert "has JSON but no tool call" in third.body["messages"][-1]["content"]
    assert len(third.body["messages"]) == len(second.body["messages"])  # only the last correction is kept
    fake.assert_clean()


# --------------------------------------------------------------------------- capability detection

def test_http_500_naming_json_schema_falls_back_to_json_object_once_per_endpoint(llm_settings, fake, tmp_path):
    fake.response_formats = {"text", "json_object"}  # llama-cpp-python
    fake.replay(SUB_MODEL, json.dumps({"findings": [], "not_found": ["governing_law"], "report": "Nothing."}),
                json.dumps({"findings": [], "not_found": [], "report": "Again."}))
    cache = CapabilityCache(tmp_path / "caps.json")
    items = [i for i in load_checklist(llm_settings.checklist_path) if i.id in KEYWORDS]
    doc, chunks = make_document(SUPPLY_TEXT)

    async def twice():
        r = sub_reviewer(llm_settings, capabilities=cache)
        first = await r.review_document(make_assignment(doc), doc, chunks, items)
        await r.review_document(make_assignment(doc), doc, chunks, items)
        return first

    res = asyncio.run(twice())
    assert res.mode == "json_object" and res.calls == 2 and res.not_found == ["governing_law"]
    assert "json_schema unsupported (500); using json_object" in res.errors
    refused, plain, again = fake.calls()
    assert refused.status == 500 and refused.body["response_format"]["type"] == "json_schema"
    assert plain.body["response_format"] == {"type": "json_object"} == again.body["response_format"]
    assert '"minLength": 20' in plain.body["messages"][0]["content"]  # the schema travels in the prompt
    # remembered in the workspace: a new process (a new cache on the same file) goes straight to json_object
    assert CapabilityCache(tmp_path / "caps.json").get(fake.base_url, SUB_MODEL).output == "json_object"
    fake.assert_clean()


def test_tools_refused_by_the_server_means_tools_described_in_text(llm_settings, fake):
    fake.tools_supported = False  # llama.cpp without --jinja
    fake.replay(ROOT_MODEL, FENCED)
    d = asyncio.run(root_policy(llm_settings).decide(observation()))
    assert [c.name for c in d.tool_calls] == ["list_documents"] and d.mode == "fallback"
    refused, plain = fake.calls()
    assert refused.status == 500 and "tools" in refused.body and "tools" not in plain.body
    assert '"name": "delegate"' in plain.body["messages"][0]["content"]


def test_an_ordinary_500_is_still_retried_not_taken_for_unsupported(llm_settings, fake):
    fake.enqueue(SUB_MODEL, fo.server_error(500), fo.text(json.dumps({"findings": [], "report": "ok"})))
    items = [i for i in load_checklist(llm_settings.checklist_path) if i.id in KEYWORDS]
    doc, chunks = make_document(SUPPLY_TEXT)
    res = asyncio.run(sub_reviewer(llm_settings).review_document(make_assignment(doc), doc, chunks, items))
    assert res.mode == "native" and res.calls == 2
    assert [c.body["response_format"]["type"] for c in fake.calls()] == ["json_schema", "json_schema"]


def test_refusal_classification():
    assert refusal_of(fo.LLAMA_CPP_PY_FORMAT_ERROR, "json_schema", False) == "output"
    assert refusal_of(fo.LLAMA_CPP_TOOLS_ERROR, None, True) == "tools"
    assert refusal_of("'response_format' is not supported by this server", "json_schema", False) == "output"
    assert refusal_of("The server had an error while processing your request", "json_schema", True) is None
    assert refusal_of("tools param requires --jinja flag", None, False) is None  # tools were not sent


# --------------------------------------------------------------------------- token accounting without usage

def test_missing_usage_is_estimated_and_the_token_budget_still_holds(llm_settings, fake):
    fake.usage = False
    fake.replay(ROOT_MODEL, BARE)
    budget = RunBudget(max_tokens=500, max_calls=100, max_seconds=60)
    d = asyncio.run(root_policy(llm_settings, budget=budget).decide(observation()))
    assert d.tokens_estimated and d.tokens_in > 500 and d.tokens_out > 0  # tools + observation: counted
    u = budget.usage()["root"]
    assert u.estimated_calls == 1 and u.prompt_tokens == d.tokens_in
    assert budget.exceeded().startswith("token budget")  # would have read 0 tokens before


def test_estimated_tokens_trip_the_token_cap(llm_settings, fake):
    fake.usage = False
    fake.replay(SUB_MODEL, '{"answer": "x"}')
    budget = RunBudget(max_tokens=10, max_calls=100, max_seconds=60)
    c = LLMCaller(get_client(llm_settings.llm, "sub"), llm_settings.llm, "sub", budget=budget)

    async def go():
        comp = await c.call([{"role": "system", "content": "Answer in JSON, please, with one key."},
                             {"role": "user", "content": "Say x."}], parse=lambda comp: comp.content)
        assert comp.tokens_estimated and comp.transcript[-1]["usage"] == "estimated"
        with pytest.raises(BudgetExceeded, match="token budget"):
            await c.call([{"role": "system", "content": "s"}, {"role": "user", "content": "u"}], parse=lambda x: x)

    asyncio.run(go())
    assert len(fake.calls()) == 1


# --------------------------------------------------------------------------- findings are findings

def test_sub_schema_separates_found_from_not_found_and_bounds_lengths():
    schema = output_schema(["governing_law"], ["c1"])
    f = schema["properties"]["findings"]["items"]["properties"]
    assert f["quote"]["minLength"] >= 20 and f["summary"]["minLength"] >= 10
    assert schema["properties"]["not_found"]["items"]["enum"] == ["governing_law"]
    assert set(schema["required"]) == {"findings", "not_found", "report"}


def test_not_found_and_empty_quote_findings_never_become_findings(llm_settings, fake):
    items = [i for i in load_checklist(llm_settings.checklist_path) if i.id in KEYWORDS]
    doc, chunks = make_document(SUPPLY_TEXT)
    real = "This Agreement is governed by the laws of Delaware."
    fake.replay(SUB_MODEL, json.dumps({"findings": [
        {"category": "governing_law", "severity": "low", "summary": "Delaware law governs the agreement.",
         "quote": real, "chunk_id": chunks[4].id},
        # the 1.5B's favourite: an absence written as a finding, quoting a line that is really there
        {"category": "termination_for_convenience", "severity": "info",
         "summary": "The document does not contain a termination for convenience clause.",
         "quote": "SUPPLY AGREEMENT between Acme Corp. and Widget Ltd.", "chunk_id": chunks[0].id},
        {"category": "anti_assignment", "severity": "medium", "summary": "Assignment needs consent.",
         "quote": "", "chunk_id": chunks[2].id},
    ], "not_found": [], "report": "Reviewed."}))
    res = asyncio.run(sub_reviewer(llm_settings).review_document(make_assignment(doc), doc, chunks, items))
    assert [f.quote for f in res.findings] == [real] and res.findings[0].verified
    assert res.not_found == ["termination_for_convenience"]
    assert res.dropped == ["anti_assignment: quote shorter than 20 characters"]
    assert res.calls == 1  # one bad finding costs that finding, not a retry of the whole document


def test_a_quote_that_does_not_back_its_claim_is_unverified_even_if_it_is_in_the_text():
    text = "Effective Date\n\nThis Agreement is governed by the laws of Delaware."
    cit = Citation(document_id="d", document_path="a.txt", page=1, chunk_id="c")
    unrelated = Finding(category="non_compete", severity=Severity.info, summary="Non-compete obligations bind "
                        "the seller for five years.", quote="Effective Date", citation=cit, agent="sub-1",
                        extra={"summary_by": "model"})
    checked = verify_finding(unrelated, text)
    assert not checked.verified and checked.extra["unverified"] == "the quote shares no content word with the summary"
    # the offline reviewer's summaries are labels of the item, not claims: only a model's summary is checked
    assert verify_finding(unrelated.model_copy(update={"extra": {}}), text).verified
    absent = unrelated.model_copy(update={"summary": "The agreement does not contain a governing law clause.",
                                          "quote": "This Agreement is governed by the laws of Delaware."})
    assert not verify_finding(absent, text).verified
    good = unrelated.model_copy(update={"category": "governing_law", "summary": "Delaware law governs.",
                                        "quote": "This Agreement is governed by the laws of Delaware."})
    assert verify_finding(good, text).verified


@pytest.mark.parametrize("summary,absent", [
    ("The document does not contain a non-compete clause.", True),
    ("There is no change of control provision in the agreement.", True),
    ("No mention of exclusivity.", True),
    ("Not found", True),
    ("The agreement is silent on assignment.", True),
    ("Neither party may assign without consent.", False),
    ("The licence does not include the right to sublicense.", False),
    ("Licensee may not terminate for convenience before the third anniversary.", False),
])
def test_absence_claims(summary, absent):
    assert claims_absence(summary) is absent


def test_claim_words_meet_across_word_forms():
    assert quote_backs_claim("Neither party may assign this Agreement.", "Assignment needs consent.")
    assert not quote_backs_claim("Effective Date", "Governing law is New York.")
    assert quote_backs_claim("anything", "The agreement.")  # nothing to check in a summary of stop words


def test_unusable_root_output_after_retries_is_an_error_that_keeps_its_cost(llm_settings, fake):
    llm_settings.llm.max_retries = 1
    fake.replay(ROOT_MODEL, "I cannot help with that.", "Still no.")
    from agents.llm.root import RootPolicyError

    with pytest.raises(RootPolicyError) as ei:
        asyncio.run(root_policy(llm_settings).decide(observation()))
    assert ei.value.calls == 2 and ei.value.tokens_in > 0
    assert isinstance(ei.value.__cause__, (LLMError, type(None)))


def test_capability_cache_file_ages_out_and_survives_damage(tmp_path):
    path = tmp_path / "llm_capabilities.json"
    cache = CapabilityCache(path)
    cache.update("http://h/v1/", "m", output="json_object", why="500: Input should be 'text' or 'json_object'")
    cache.confirm("http://h/v1", "m", "output")
    again = CapabilityCache(path).get("http://h/v1", "m")  # the trailing slash is the same endpoint
    assert again.output == "json_object" and again.confirmed == ["output"] and again.learned
    assert CapabilityCache(path, max_age_s=0).get("http://h/v1", "m").output == "json_schema"  # probed again
    path.write_text("{not json", encoding="utf-8")
    assert CapabilityCache(path).get("http://h/v1", "m").output == "json_schema"  # a damaged file costs a probe
