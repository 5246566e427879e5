"""scripts/team.sh starts a team installation on one machine: PostgreSQL and a Chroma server on loopback, with
their data in the workspace; a room ingested and reviewed with its settings lives in those two services."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from core.settings import REPO_ROOT
from tests.pg_server import _free_port, find_bin_dir

pytestmark = pytest.mark.slow
SCRIPT = REPO_ROOT / "scripts" / "team.sh"
FILES = {"Commercial/supply.txt": "SUPPLY AGREEMENT\n\nThis Supply Agreement is made between Acme Corp. (\"Supplier\") "
         "and Beta LLC (\"Customer\").\n\n12. Change of control. Customer may terminate this Agreement on thirty (30) "
         "days' notice if Supplier undergoes a change of control.\n\n14. Governing law. This Agreement is governed "
         "by the laws of the State of New York.\n"}


def _script(env: dict, *args: str) -> str:
    return subprocess.run(["bash", str(SCRIPT), *args], env=env, check=True, capture_output=True, text=True,
                          timeout=600).stdout


def test_team_services_hold_the_review_store_and_the_vectors(tmp_path):
    assert find_bin_dir() is not None, "PostgreSQL binaries missing: WITH_BROWSER=1 scripts/setup.sh installs them"
    # run as root, PostgreSQL runs as the postgres user, who cannot enter pytest's private tmp_path
    ws = Path(tempfile.mkdtemp(prefix="dataroom-team-")) / "ws"
    ws.parent.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATAROOM_")}
    env.update(DATAROOM_WORKSPACE=str(ws), TEAM_PG_PORT=str(_free_port()), TEAM_CHROMA_PORT=str(_free_port()),
               ANONYMIZED_TELEMETRY="False")
    try:
        _script(env, "services")
        _script(env, "services")  # idempotent: running services are left as they are
        exports = _script(env, "env")
        assert "postgresql://dataroom:" in exports and "DATAROOM_CHROMA__MODE=http" in exports
        assert oct((ws / "team" / "pg.password").stat().st_mode & 0o777) == "0o600"
        for line in exports.splitlines():
            key, _, value = line.removeprefix("export ").partition("=")
            env[key] = value.strip("'")
        src = tmp_path / "room"
        for rel, text in FILES.items():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            (src / rel).write_text(text, encoding="utf-8")
        env["DATAROOM_EMBEDDING__MODEL"] = "hash"
        py = str(REPO_ROOT / ".venv" / "bin" / "python")
        subprocess.run([py, "-m", "ingest", str(src), "--room", "deal"], env=env, check=True, capture_output=True,
                       cwd=REPO_ROOT, timeout=300)
        out = subprocess.run([py, "-m", "agents", "run", "--room", "deal", "--run-id", "team-1", "--quiet"], env=env,
                             capture_output=True, text=True, cwd=REPO_ROOT, timeout=300)
        assert out.returncode == 0, out.stderr[-2000:]
        assert not (ws / "review.sqlite").exists() and not (ws / "checkpoints.sqlite").exists()
        probe = ("import os, psycopg, chromadb\n"
                 "with psycopg.connect(os.environ['DATAROOM_DATABASE__URL']) as c:\n"
                 "    print(c.execute(\"SELECT count(*) FROM findings WHERE run_id='team-1'\").fetchone()[0])\n"
                 "cl = chromadb.HttpClient(host='127.0.0.1', port=int(os.environ['DATAROOM_CHROMA__PORT']))\n"
                 "print(sum(c.count() for c in cl.list_collections()))\n")
        findings, vectors = subprocess.run([py, "-c", probe], env=env, check=True, capture_output=True, text=True,
                                           cwd=REPO_ROOT, timeout=120).stdout.split()
        assert int(findings) >= 2 and int(vectors) >= 1
    finally:
        _script(env, "stop")
    assert not (ws / "team" / "chroma.pid").exists()
    shutil.rmtree(ws.parent, ignore_errors=True)
