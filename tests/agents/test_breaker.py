"""A run tells the truth about a failing endpoint: `python -m agents run` against the local OpenAI-compatible
server answering 500 to every sub-agent call (or a dead port) stops early, exits non-zero, says why in plain
words, and a resume once the endpoint answers again reaches full coverage."""

from __future__ import annotations

import socket

import pytest

from agents import cli
from agents.runtime.breaker import CircuitBreaker, plain_error
from agents.store import open_review_store
from core.settings import HarnessSettings, get_settings
from devtools import fakeopenai as fo
from devtools import scripted
from devtools.synthroom import KEYWORDS, room_texts
from devtools.textroom import load_text_room

ROOT, SUB, KEY = "fake-root-b", "fake-sub-b", "sk-test-breaker-key"
DOCS = 8
CONSECUTIVE = 3


def _env(monkeypatch, base_url: str) -> None:
    for k, v in {"LLM__BASE_URL": base_url, "LLM__API_KEY": KEY, "LLM__ROOT_MODEL": ROOT, "LLM__SUB_MODEL": SUB,
                 "LLM__MAX_RETRIES": "0", "LLM__TIMEOUT_S": "10", "EMBEDDING__MODEL": "hash",
                 "HARNESS__MAX_CONCURRENCY": "2", "HARNESS__BREAKER_CONSECUTIVE_FAILURES": str(CONSECUTIVE),
                 # one document per sub-agent, so each failing call is one failed assignment
                 "HARNESS__SUB_PROMPT_RESERVE_TOKENS": "1000", "HARNESS__SUB_CONTEXT_TOKENS": "1400"}.items():
        monkeypatch.setenv(f"DATAROOM_{k}", v)
    get_settings.cache_clear()


@pytest.fixture
def room(no_network, monkeypatch):
    _env(monkeypatch, "http://127.0.0.1:9/v1")
    load_text_room(get_settings(), "room8", room_texts(DOCS, seed=3))
    return "room8"


@pytest.mark.slow
def test_500s_open_the_breaker_then_a_resume_on_a_healthy_server_covers_everything(room, monkeypatch, capsys):
    with fo.FakeOpenAI(api_key=KEY, models={ROOT, SUB}) as fake:
        _env(monkeypatch, fake.base_url)
        fake.respond_with(ROOT, scripted.ScriptedRoot())
        fake.respond_with(SUB, lambda body: fo.server_error(500))
        assert cli.main(["run", "--room", room, "--run-id", "b-1", "--quiet"]) == 4
        err = capsys.readouterr().err
        store = open_review_store(get_settings())
        run = store.run("b-1")
        assert run.status == "failed"
        assert f"{CONSECUTIVE} sub-agent reviews failed in a row" in run.error
        assert "answered with a server error (HTTP 500)" in run.error and fake.base_url in run.error
        assert "resume with --run-id b-1 --resume" in err
        # stopped early: the failures that opened it, plus at most one call per other lane in flight
        failed_calls = len(fake.calls(SUB))
        assert CONSECUTIVE <= failed_calls <= CONSECUTIVE + 2 * 2
        assert store.coverage("b-1").documents_reviewed == 0

        fake.respond_with(SUB, scripted.ScriptedReviewer(KEYWORDS))  # the endpoint is back
        assert cli.main(["run", "--room", room, "--run-id", "b-1", "--resume", "--quiet"]) == 0
        assert "coverage: 8/8 parsed documents (100.0%)" in capsys.readouterr().out
        run = store.run("b-1")
        assert run.status == "finished" and not run.error
        assert store.coverage("b-1").documents_ratio == 1.0
        fake.assert_clean()


def _dead_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again at once: nothing listens there


@pytest.mark.slow
def test_a_dead_endpoint_fails_the_run_with_a_non_zero_exit(room, monkeypatch, capsys):
    _env(monkeypatch, f"http://127.0.0.1:{_dead_port()}/v1")
    code = cli.main(["run", "--room", room, "--run-id", "d-1", "--quiet"])
    assert code != 0
    run = open_review_store(get_settings()).run("d-1")
    assert run.status == "failed" and run.error
    assert "run failed" in capsys.readouterr().err or code == 4


def test_breaker_rules():
    h = HarnessSettings(breaker_consecutive_failures=3, breaker_failure_rate=0.5, breaker_min_assignments=6)
    b = CircuitBreaker(h, "http://x/v1")
    err = "sub model 'm' failed after 1 attempt(s): InternalServerError: Error code: 500 - {}"
    for ok in (False, False, True, False, True):
        b.record(ok, err)
    assert not b.open  # two in a row at most; 3 of 5 failed, but fewer than 6 tried
    b.record(False, err)
    assert b.open and "4 of 6 sub-agent reviews failed" in b.reason  # the rate rule
    b = CircuitBreaker(h)
    for _ in range(3):
        b.record(False, "APIConnectionError: Connection error.")
    assert b.open and "3 sub-agent reviews failed in a row" in b.reason and "could not be reached" in b.reason
    with pytest.raises(RuntimeError):
        b.check()
    off = CircuitBreaker(HarnessSettings(breaker_consecutive_failures=0, breaker_failure_rate=0))
    for _ in range(50):
        off.record(False, "x")
    assert not off.open
    # the run's own budget running out mid-review is no endpoint failure (the SmolLM2 bench's follow-up passes were
    # cut by --max-run-seconds and the run ended "failed ... the endpoint failed")
    b = CircuitBreaker(h, "http://x/v1")
    for _ in range(10):
        b.record(False, "SubReviewerError: sub-81: time budget exhausted (1200.4s >= 1200.0s)")
    assert not b.open and b.tried == 0


def test_plain_error_names_what_the_endpoint_did():
    assert "rate limited" in plain_error("failed after 6 attempt(s): RateLimitError: Error code: 429 - {}")
    assert "refused the API key (HTTP 401)" in plain_error("rejected (401) after 1 attempt(s): AuthenticationError")
    assert "did not answer in time" in plain_error("APITimeoutError: Request timed out.")
