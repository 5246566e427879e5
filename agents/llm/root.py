"""The LLM root policy: observation in, validated tool calls out (agents.policy.RootPolicy).

Stateless like the offline policy: every step is one fresh request, the
system prompt plus the observation as a DATA block, so a resumed run asks the
model exactly what the interrupted one would have. Tool calls are validated
against agents.tools before they reach the graph; an unknown tool or invalid
arguments is sent back to the model as a correction (bounded retries).
"""

from __future__ import annotations

import secrets
from typing import Callable

from pydantic import Field, ValidationError

from agents.llm.budget import BudgetExceeded, RunBudget
from agents.llm.caller import Completion, LLMCaller, LLMError, OutputInvalid, tool_calls_from_text
from agents.llm.client import get_client
from agents.llm.prompts import Template, load_template
from agents.policy import RootDecision, RootObservation, ToolCall
from agents.tools import ROOT_TOOL_NAMES, ROOT_TOOLS, parse_arguments
from core.checklist import load_checklist
from core.settings import Settings
from core.types import ChecklistItem


class RootPolicyError(RuntimeError):
    """The root model could not produce a usable step (retries spent or budget exhausted); no secrets inside.

    Carries what the failed attempts cost, so the step that the built-in planner then takes still counts them.
    """

    def __init__(self, message: str, *, tokens_in: int = 0, tokens_out: int = 0, calls: int = 0,
                 errors: list[str] | None = None):
        super().__init__(message)
        self.tokens_in, self.tokens_out, self.calls, self.errors = tokens_in, tokens_out, calls, errors or []


class LLMRootDecision(RootDecision):
    """A RootDecision plus what only the LLM path knows (read by the root node for the trajectory)."""

    parse_form: str = Field("", description="How the tool calls were read: tool_calls, tags, fenced or bare.")
    mode: str = Field("native", description="'native' (tools parameter) or 'fallback' (tools described in text).")
    tokens_estimated: bool = Field(False, description="Some response had no `usage`; its tokens were estimated.")
    errors: list[str] = Field(default_factory=list, description="What the retries were for (no secrets).")


def parse_tool_calls(comp: Completion, step: int) -> list[ToolCall]:
    """Native or textual tool calls -> validated ToolCalls with run-unique ids ('step3-1').

    Text is read in native mode too: many open models behind a server without a tool parser answer a
    `tools` request with the call written in their text.
    """
    if comp.tool_calls:
        raw, comp.parse_form = comp.tool_calls, "tool_calls"
    else:
        raw = tool_calls_from_text(comp)
    out = []
    for i, tc in enumerate(raw):
        if tc.name not in ROOT_TOOL_NAMES:
            raise OutputInvalid(f"unknown tool {tc.name!r}; the tools are {ROOT_TOOL_NAMES}")
        if "__unparsed__" in tc.arguments:
            raise OutputInvalid(f"the arguments of {tc.name} are not a JSON object")
        try:
            parse_arguments(tc.name, tc.arguments)
        except ValidationError as e:
            raise OutputInvalid(f"invalid arguments for {tc.name}: {e.errors()[:3]}") from None
        out.append(ToolCall(id=f"step{step}-{i + 1}", name=tc.name, arguments=tc.arguments))
    return out


def render_observation(obs: RootObservation) -> str:
    # No indentation: the root's context is the run's overhead. Defaults stay in (memo_stale=True is one).
    return obs.model_dump_json()


class LLMPolicy:
    """agents.policy.RootPolicy over an OpenAI-compatible endpoint (settings.llm, role 'root')."""

    def __init__(self, settings: Settings, *, caller: LLMCaller | None = None, budget: RunBudget | None = None,
                 items: list[ChecklistItem] | None = None, template: Template | None = None,
                 nonce: Callable[[], str] = lambda: secrets.token_hex(6)):
        if caller is None:
            budget = budget if budget is not None else RunBudget.from_settings(settings.harness)
            caller = LLMCaller(get_client(settings.llm, "root"), settings.llm, "root", budget=budget)
        self.caller = caller
        self.items = items if items is not None else load_checklist(settings.checklist_path)
        self.template = template or load_template("root")
        self._nonce = nonce
        self.name = f"llm:{caller.model}"

    async def aclose(self) -> None:
        await self.caller.aclose()

    def messages(self, obs: RootObservation, nonce: str) -> list[dict]:
        checklist = "\n".join(f"- {i.id}: {i.title}" for i in self.items if i.enabled)
        return self.template.render(checklist=checklist, nonce=nonce, step=str(obs.step), phase=obs.phase,
                                    observation=render_observation(obs))

    async def decide(self, observation: RootObservation) -> RootDecision:
        msgs = self.messages(observation, self._nonce())
        try:
            comp = await self.caller.call(msgs, tools=ROOT_TOOLS, parse=lambda c: parse_tool_calls(c, observation.step))
        except LLMError as e:
            raise RootPolicyError(f"root step {observation.step}: {e}", tokens_in=e.prompt_tokens,
                                  tokens_out=e.completion_tokens, calls=e.calls, errors=e.errors) from None
        except BudgetExceeded as e:
            raise RootPolicyError(f"root step {observation.step}: {e}") from None
        return LLMRootDecision(tool_calls=comp.parsed, content=comp.content, tokens_in=comp.prompt_tokens,
                               tokens_out=comp.completion_tokens, calls=comp.calls, seconds=comp.seconds,
                               messages=msgs, parse_form=comp.parse_form, mode=comp.mode,
                               tokens_estimated=comp.tokens_estimated, errors=comp.errors)
