"""Per-run caps on model calls, tokens and wall time, shared by root and sub-agents."""

from __future__ import annotations

import threading
import time

from pydantic import BaseModel, Field

from core.settings import HarnessSettings


class BudgetExceeded(RuntimeError):
    """A run cap was reached; the harness stops delegating and reports it."""


class RoleUsage(BaseModel):
    calls: int = Field(0, description="Model requests sent (every retry counts).")
    prompt_tokens: int = Field(0, description="Sum of usage.prompt_tokens (estimated where a response had none).")
    completion_tokens: int = Field(0, description="Sum of usage.completion_tokens.")
    seconds: float = Field(0.0, description="Summed request latency.")
    estimated_calls: int = Field(0, description="Responses without `usage` whose tokens were counted from the text.")


class RunBudget:
    """Counts every model call of a run; refuses new ones once a cap is hit.

    A call is reserved before it is sent, so concurrent sub-agents cannot
    overshoot the call cap; tokens are only known afterwards, so the token
    cap stops the next call, not the one in flight. Once a cap is hit the
    root still gets `root_grace` calls, so it can write the memo from what it
    has and finish instead of being cut off mid-run.
    """

    def __init__(self, max_tokens: int, max_calls: int, max_seconds: float, clock=time.monotonic,
                 root_grace: int = 3):
        self.max_tokens, self.max_calls, self.max_seconds = max_tokens, max_calls, max_seconds
        self.root_grace = root_grace
        self._clock = clock
        self._t0 = clock()
        self._lock = threading.Lock()
        self._usage: dict[str, RoleUsage] = {}

    @classmethod
    def from_settings(cls, h: HarnessSettings) -> "RunBudget":
        return cls(h.max_run_tokens, h.max_run_calls, h.max_run_seconds)

    def elapsed(self) -> float:
        return self._clock() - self._t0

    def remaining_seconds(self) -> float:
        return self.max_seconds - self.elapsed()

    @property
    def calls(self) -> int:
        return sum(u.calls for u in self._usage.values())

    @property
    def tokens(self) -> int:
        return sum(u.prompt_tokens + u.completion_tokens for u in self._usage.values())

    def exceeded(self) -> str:
        """Why the run is out of budget, or '' when it is not."""
        if self.tokens >= self.max_tokens:
            return f"token budget exhausted ({self.tokens} >= {self.max_tokens})"
        if self.calls >= self.max_calls:
            return f"call budget exhausted ({self.calls} >= {self.max_calls})"
        if self.elapsed() >= self.max_seconds:
            return f"time budget exhausted ({self.elapsed():.1f}s >= {self.max_seconds}s)"
        return ""

    def reserve_call(self, role: str) -> None:
        with self._lock:
            why = self.exceeded()
            if why:
                if role != "root" or self.root_grace <= 0:
                    raise BudgetExceeded(why)
                self.root_grace -= 1
            self._usage.setdefault(role, RoleUsage()).calls += 1

    def record(self, role: str, prompt_tokens: int, completion_tokens: int, seconds: float,
               estimated: bool = False) -> None:
        with self._lock:
            u = self._usage.setdefault(role, RoleUsage())
            u.estimated_calls += int(estimated)
            u.prompt_tokens += prompt_tokens
            u.completion_tokens += completion_tokens
            u.seconds += seconds

    def usage(self) -> dict[str, RoleUsage]:
        with self._lock:
            return {k: v.model_copy() for k, v in self._usage.items()}

    def root_token_share(self) -> float:
        u = self.usage()
        total = self.tokens
        root = u.get("root", RoleUsage())
        return (root.prompt_tokens + root.completion_tokens) / total if total else 0.0
