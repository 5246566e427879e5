"""`python -m agents` as the runner launches it, with the scripted sub-agent model instead of the
offline reviewer's weights: tests of the runner need a worker process, not a trained model."""

from __future__ import annotations

from agents import cli
from agents.run import harness
from agents.offline.offline_root import OfflineRootPolicy
from tests.agents.doubles import ScriptedReviewer

harness.build_policies = lambda settings, items: (  # noqa: E731 - the one thing this worker changes
    OfflineRootPolicy(items, followup_k=settings.harness.followup_k), ScriptedReviewer())

if __name__ == "__main__":
    raise SystemExit(cli.main())
