"""A small room for the findings-flow tests: three sample-room contracts and one whose file
name and change-of-control clause carry markdown and HTML that would load a remote resource
or plant a link if anything rendered them as markup."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from core.settings import REPO_ROOT, EmbeddingSettings, Settings

SAMPLE = REPO_ROOT / "assets" / "sample_room"
ROOM = "planted"
IMG_MD = "![x](http://127.0.0.1:9/p.png)"
IMG_HTML = '<img src="http://127.0.0.1:9/q.png">'
LINK_MD = "[link](javascript:alert(1))"
PLANTED = f"{IMG_MD} {IMG_HTML} {LINK_MD}"
# A path cannot hold "//", so the name's markdown image URL reads "http:/"; a browser still resolves it remotely.
PLANTED_NAME = "p.png) <img src=q.png> [l](javascript:alert(1)).txt"
PLANTED_PATH = f"Deals/![x](http:/127.0.0.1:9/{PLANTED_NAME}"
CLAUSE = "if Supplier undergoes a Change of Control,"
OTHERS = ["Corporate/NDAs/Mutual_NDA_Bellweather_Instruments.txt",
          "IP/Licences/Patent_Licence_Harrowgate_University.txt"]


def build(dest: Path) -> Path:
    text = (SAMPLE / "Commercial/Customers/Supply_Agreement_Westmark_Foods_2019.txt").read_text()
    assert CLAUSE in text
    (dest / PLANTED_PATH).parent.mkdir(parents=True, exist_ok=True)
    (dest / PLANTED_PATH).write_text(text.replace(CLAUSE, f"{CLAUSE[:-1]} {PLANTED},"))
    for rel in OTHERS:
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SAMPLE / rel, dest / rel)
    return dest


def ingest_and_review(src: Path, workspace: Path) -> str:
    """Ingest the room into `workspace` and run the offline review once; returns the run id."""
    from agents.run.harness import run_review
    from ingest.pipeline import ingest_room

    settings = Settings(workspace=workspace, embedding=EmbeddingSettings(model="hash"))
    ingest_room(build(src), ROOM, settings)
    return asyncio.run(run_review(settings, ROOM))["run_id"]
