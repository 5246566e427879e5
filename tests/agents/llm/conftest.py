"""Fixtures of the LLM path: a local OpenAI-compatible server and settings pointing at it."""

from __future__ import annotations

import pytest
from llm_helpers import API_KEY, ROOT_MODEL, SUB_MODEL
from pydantic import SecretStr

from core.settings import LLMSettings
from devtools.fakeopenai import FakeOpenAI


@pytest.fixture(autouse=True)
def _fresh_capabilities():
    """What endpoints support is cached per process by base URL; a port reused by a later test is another server."""
    from agents.llm.capabilities import PROCESS_CACHE

    PROCESS_CACHE.clear()
    yield
    PROCESS_CACHE.clear()


@pytest.fixture
def fake(no_network):
    with FakeOpenAI(api_key=API_KEY, models={ROOT_MODEL, SUB_MODEL}) as srv:
        yield srv


@pytest.fixture
def llm_settings(settings, fake):
    s = settings.model_copy(deep=True)
    s.llm = LLMSettings(base_url=fake.base_url, api_key=SecretStr(API_KEY), root_model=ROOT_MODEL,
                        sub_model=SUB_MODEL, timeout_s=5.0, max_retries=3)
    return s
