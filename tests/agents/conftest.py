"""Fixtures of the harness tests: settings on the hashing embedder, small rooms, a run helper."""

from __future__ import annotations

import asyncio

import pytest

from core.checklist import load_checklist

from agents.run.harness import run_review
from agents.offline.offline_root import OfflineRootPolicy
from agents.store import open_review_store


@pytest.fixture
def hsettings(settings):
    """Settings for harness tests: no model is loaded for embeddings."""
    s = settings.model_copy(deep=True)
    s.embedding.model = "hash"
    return s


@pytest.fixture
def short_checklist(hsettings, tmp_path):
    """The clause kinds the scripted reviewer knows plus one it never finds: keeps the follow-up pass small."""
    from core.checklist import save_checklist

    keep = ("change_of_control", "anti_assignment", "governing_law", "exclusivity", "non_compete")
    path = tmp_path / "checklist.yaml"
    save_checklist([i for i in load_checklist(hsettings.checklist_path) if i.id in keep], path)
    hsettings.checklist_path = path
    return hsettings


@pytest.fixture
def run_offline_root():
    """Run the real graph with the offline root policy and a given sub-reviewer; returns (stats, store)."""

    def _run(settings, room, reviewer, run_id="run-1"):
        items = load_checklist(settings.checklist_path)
        policy = OfflineRootPolicy(items, followup_k=settings.harness.followup_k)
        store = open_review_store(settings)
        stats = asyncio.run(run_review(settings, room, run_id, policy=policy, reviewer=reviewer, store=store))
        return stats, store

    return _run
