"""Circuit breaker over a run's sub-agent assignments.

An endpoint that answers every call with an error used to be called hundreds of
times, after which the run ended "finished" at 0 % coverage. The breaker counts
the assignments a run executes (reused ones from a resumed run are not
counted); once N fail in a row, or a share of all tried fail, it opens: the lane
that saw it raises CircuitOpen, LangGraph cancels the other lanes, and the
worker marks the run failed with the endpoint's error in plain words. Nothing
the failed lanes would have done is saved as done, so a resume once the endpoint
is back re-runs exactly what is missing.
"""

from __future__ import annotations

import re

from core.settings import HarnessSettings


_OWN_BUDGET = re.compile(r"\b(?:token|call|time) budget exhausted\b")


class CircuitOpen(RuntimeError):
    """The run stops: too many of its sub-agent reviews failed (the message is for the reviewer)."""


def plain_error(error: str, endpoint: str = "") -> str:
    """A sub-agent's error as a reviewer reads it: what the endpoint did, then the raw detail."""
    where = f"the endpoint {endpoint}" if endpoint else "the sub-agent's endpoint"
    status = re.search(r"Error code: (\d{3})|rejected \((\d{3})\)", error)
    code = next((g for g in status.groups() if g), "") if status else ""
    if code == "429":
        said = f"{where} kept refusing requests (HTTP 429, rate limited)"
    elif code.startswith("5"):
        said = f"{where} answered with a server error (HTTP {code})"
    elif code in ("401", "403"):
        said = f"{where} refused the API key (HTTP {code})"
    elif code:
        said = f"{where} rejected the request (HTTP {code})"
    elif "APIConnectionError" in error or "Connection" in error:
        said = f"{where} could not be reached (connection failed)"
    elif "Timeout" in error:
        said = f"{where} did not answer in time (timeout)"
    elif "unusable output" in error or "OutputInvalid" in error:
        said = f"{where} answered, but not with a usable review"
    else:
        said = f"{where} failed"
    return f"{said}. Detail: {error[:300]}"


class CircuitBreaker:
    """Counts executed assignments of one worker process; see the module docstring."""

    def __init__(self, h: HarnessSettings, endpoint: str = "") -> None:
        self.consecutive_limit = h.breaker_consecutive_failures
        self.rate_limit = h.breaker_failure_rate
        self.min_tried = h.breaker_min_assignments
        self.endpoint = endpoint
        self.tried = self.failed = self.in_a_row = 0
        self.reason = ""

    @property
    def open(self) -> bool:
        return bool(self.reason)

    def record(self, ok: bool, error: str = "") -> None:
        """One executed assignment's outcome; opens the breaker when a rule is met."""
        if not ok and _OWN_BUDGET.search(error):
            # the run's own token, call or time budget ran out mid-review: the endpoint did nothing wrong, and the
            # root finishes with the coverage reached (a budget-stopped run is not a failed one)
            return
        self.tried += 1
        if ok:
            self.in_a_row = 0
            return
        self.failed += 1
        self.in_a_row += 1
        if self.open:
            return
        if self.consecutive_limit and self.in_a_row >= self.consecutive_limit:
            why = f"{self.in_a_row} sub-agent reviews failed in a row"
        elif self.rate_limit and self.tried >= self.min_tried and self.failed / self.tried >= self.rate_limit:
            why = f"{self.failed} of {self.tried} sub-agent reviews failed"
        else:
            return
        self.reason = (f"Run stopped: {why}; {plain_error(error, self.endpoint)} "
                       "Resume the run once the endpoint works again: finished reviews are kept.")

    def check(self) -> None:
        """Raise CircuitOpen once open, so that no lane starts another assignment."""
        if self.reason:
            raise CircuitOpen(self.reason)
