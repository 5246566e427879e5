"""Worker process for the kill test: one harness run (or resume) with the scripted sub-reviewer.

python -m tests.agents.kill_worker ROOM RUN_ID  — settings come from DATAROOM_* like the CLI.
"""

from __future__ import annotations

import asyncio
import sys

from core.checklist import load_checklist
from core.settings import get_settings

from agents.run.harness import run_review
from agents.offline.offline_root import OfflineRootPolicy
from tests.agents.doubles import ScriptedReviewer


def main() -> None:
    room, run_id = sys.argv[1], sys.argv[2]
    s = get_settings()
    policy = OfflineRootPolicy(load_checklist(s.checklist_path), followup_k=s.harness.followup_k)
    asyncio.run(run_review(s, room, run_id, resume=True, policy=policy, reviewer=ScriptedReviewer()))


if __name__ == "__main__":
    main()
