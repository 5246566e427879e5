"""The one place an OpenAI client is built (everything else gets it injected)."""

from __future__ import annotations

from typing import Literal

from openai import AsyncOpenAI

from core.settings import LLMSettings

Role = Literal["root", "sub"]

# Keyless local servers (vLLM, llama.cpp, Ollama) still need a syntactically
# present key: the openai package refuses to build a client without one.
DUMMY_KEY = "sk-no-key-required"


def base_url_for(settings: LLMSettings, role: Role) -> str:
    return (settings.sub_base_url or settings.base_url) if role == "sub" else settings.base_url


def model_for(settings: LLMSettings, role: Role) -> str:
    return settings.sub_model if role == "sub" else settings.root_model


def get_client(settings: LLMSettings, role: Role) -> AsyncOpenAI:
    """Async client for the root or the sub-agent endpoint.

    The library's own retries are off (max_retries=0): `agents.llm.caller`
    retries, so that malformed output, Retry-After and the run budget are
    handled by one loop and every attempt is counted.
    """
    url = base_url_for(settings, role)
    if not url:
        raise ValueError(f"no endpoint configured for the {role} model (settings.llm.base_url is empty)")
    key = settings.api_key.get_secret_value() or DUMMY_KEY
    return AsyncOpenAI(base_url=url, api_key=key, timeout=settings.timeout_s, max_retries=0)
