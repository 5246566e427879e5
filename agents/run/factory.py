"""Picks the policy pair from settings: offline when no endpoint is configured, else the LLM path."""

from __future__ import annotations

from core.settings import Settings
from core.types import ChecklistItem

from agents.policy import RootPolicy, SubReviewer


def build_policies(settings: Settings, items: list[ChecklistItem]) -> tuple[RootPolicy, SubReviewer]:
    if settings.llm.offline:
        from agents.offline.offline_root import OfflineRootPolicy
        from agents.offline.subagents import OfflineSubReviewer

        return OfflineRootPolicy(items, followup_k=settings.harness.followup_k), OfflineSubReviewer()
    from agents.llm import build_llm_policies

    return build_llm_policies(settings, items)
