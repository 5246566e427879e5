"""Trajectories: every root step and sub-agent call as JSONL, and export to training data.

`workspace/runs/<run_id>/trajectory.jsonl`, one JSON object per line:
- {"type": "root_step", step, observation, messages, tool_calls, content, results, tokens_in, tokens_out, seconds}
- {"type": "sub_call", assignment_id, agent, document_id, messages, response, tokens_in, tokens_out, seconds}
Secrets never enter: settings are not written here, and policies hand over messages only.
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

from core.settings import Settings

from agents.tools import ROOT_TOOLS


class Trajectory:
    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._fh = None

    def write(self, record: dict[str, Any]) -> None:
        """Append one line. The file stays open for the run (one open per call cost more than the write);
        every line is flushed to the OS at once, so a killed run keeps what it wrote."""
        line = json.dumps({"at": time.time(), **record}, default=str, ensure_ascii=False)
        with self._lock:
            if self._fh is None or self._fh.closed:
                self._fh = self.path.open("a", encoding="utf-8")
            self._fh.write(line + "\n")
            self._fh.flush()

    def close(self) -> None:
        with self._lock:
            if self._fh is not None:
                self._fh.close()

    def read(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        with self.path.open(encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]


def trajectory_for(settings: Settings, run_id: str) -> Trajectory:
    return Trajectory(settings.run_dir(run_id) / "trajectory.jsonl")


def _assistant_turn(step: dict[str, Any]) -> dict[str, Any]:
    calls = [
        {"id": c["id"], "type": "function",
         "function": {"name": c["name"], "arguments": json.dumps(c.get("arguments", {}), sort_keys=True)}}
        for c in step.get("tool_calls", [])
    ]
    turn: dict[str, Any] = {"role": "assistant", "content": step.get("content") or None}
    if calls:
        turn["tool_calls"] = calls
    return turn


def root_examples(steps: list[dict[str, Any]], system_prompt: str) -> list[dict[str, Any]]:
    """One fine-tuning example per root step: the policy's own messages if it sent any (LLM policy),
    else the observation as the user turn (offline policy as teacher), then its tool calls."""
    out = []
    for step in steps:
        messages = list(step.get("messages") or [])
        if not messages:
            messages = [
                {"role": "system", "content": system_prompt},
                {"role": "user", "content": json.dumps(step["observation"], sort_keys=True)},
            ]
        out.append({"messages": messages + [_assistant_turn(step)], "tools": ROOT_TOOLS})
    return out


def sub_examples(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Sub-agent calls that went through a model and got an answer (they carry messages and a response)."""
    out = []
    for c in calls:
        resp = c.get("response")
        if not c.get("messages") or not resp:
            continue
        content = resp.get("content") if isinstance(resp, dict) else resp
        if content:
            out.append({"messages": list(c["messages"]) + [{"role": "assistant", "content": content}]})
    return out
