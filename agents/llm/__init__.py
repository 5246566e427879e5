"""The LLM path of the harness: any OpenAI-compatible endpoint drives the root and the sub-agents.

`build_llm_policies(settings)` gives a root policy and a sub-reviewer that
share one run budget (settings.harness.max_run_*); constructing
`LLMPolicy(settings)` / `LLMSubReviewer(settings)` separately gives each its
own budget.
"""

from __future__ import annotations

from agents.llm.budget import BudgetExceeded, RunBudget
from agents.llm.capabilities import CapabilityCache, workspace_cache
from agents.llm.caller import LLMCaller, LLMError
from agents.llm.client import get_client
from agents.llm.root import LLMPolicy, RootPolicyError
from agents.llm.sub import LLMSubReviewer
from core.settings import Settings
from core.types import ChecklistItem

__all__ = ["BudgetExceeded", "CapabilityCache", "LLMCaller", "LLMError", "LLMPolicy", "LLMSubReviewer", "RootPolicyError",
           "RunBudget", "build_llm_policies", "get_client"]


def build_llm_policies(settings: Settings, items: list[ChecklistItem] | None = None,
                       budget: RunBudget | None = None, **caller_kw) -> tuple[LLMPolicy, LLMSubReviewer]:
    """Root policy + sub-reviewer sharing one budget; `items` is the run's checklist (default: settings').

    `caller_kw` goes to both LLMCallers (e.g. backoff_base_s, on_call, capabilities). What each endpoint
    supports is remembered in workspace/llm_capabilities.json unless `capabilities` is given.
    """
    budget = budget if budget is not None else RunBudget.from_settings(settings.harness)
    caller_kw.setdefault("capabilities", workspace_cache(settings.workspace))
    root = LLMCaller(get_client(settings.llm, "root"), settings.llm, "root", budget=budget, **caller_kw)
    sub = LLMCaller(get_client(settings.llm, "sub"), settings.llm, "sub", budget=budget, **caller_kw)
    return LLMPolicy(settings, caller=root, items=items), LLMSubReviewer(settings, caller=sub)
