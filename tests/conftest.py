"""Shared fixtures: every test gets its own workspace; nothing reaches the network."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from core.settings import REPO_ROOT, get_settings

CUAD_DIR = REPO_ROOT.parent / "shared" / "datasets" / "cuad-dev"


@pytest.fixture(autouse=True)
def _workspace(tmp_path, monkeypatch):
    """Point the workspace at tmp_path and keep real endpoints out of tests."""
    ws = tmp_path / "workspace"
    monkeypatch.setenv("DATAROOM_WORKSPACE", str(ws))
    for var in ("DATAROOM_LLM__BASE_URL", "DATAROOM_LLM__API_KEY", "OPENAI_API_KEY", "OPENAI_BASE_URL",
                "DATAROOM_DATABASE__URL"):  # SQLite unless a test asks for PostgreSQL (db_backend)
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("ANONYMIZED_TELEMETRY", "False")
    get_settings.cache_clear()
    yield ws
    get_settings.cache_clear()


@pytest.fixture
def settings(_workspace):
    return get_settings()


class _NetworkBlocked(RuntimeError):
    pass


@pytest.fixture
def no_network(monkeypatch):
    """Refuse every socket connection that is not to loopback or a unix socket."""
    real_connect = socket.socket.connect
    real_create = socket.create_connection

    def _allowed(address) -> bool:
        if isinstance(address, (str, bytes)):
            return True  # AF_UNIX
        host = address[0]
        return host in ("127.0.0.1", "localhost", "::1") or str(host).startswith("127.")

    def guarded_connect(self, address):
        if not _allowed(address):
            raise _NetworkBlocked(f"network access to {address!r} attempted in a no-network test")
        return real_connect(self, address)

    def guarded_create(address, *a, **kw):
        if not _allowed(address):
            raise _NetworkBlocked(f"network access to {address!r} attempted in a no-network test")
        return real_create(address, *a, **kw)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket, "create_connection", guarded_create)
    yield


@pytest.fixture(scope="session")
def cuad_dir() -> Path:
    if not (CUAD_DIR / "labels.csv").exists():
        pytest.skip(f"CUAD dev set not found at {CUAD_DIR}; integration test skipped")
    return CUAD_DIR


# ---------------------------------------------------------------- the review store on SQLite and on PostgreSQL
@pytest.fixture(scope="session")
def postgres_server():
    """One real PostgreSQL server for the session (tests/pg_server.py); fails, never skips, without binaries."""
    from tests.pg_server import MISSING, PostgresServer, find_bin_dir

    bin_dir = find_bin_dir()
    if bin_dir is None:
        pytest.fail(MISSING, pytrace=False)
    server = PostgresServer(bin_dir).start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def db_backend(request, monkeypatch, _workspace):
    """Run the test once on each review-store backend: the default SQLite file, then a fresh database on the
    session's PostgreSQL server (DATAROOM_DATABASE__URL, which open_review_store and the harness read)."""
    monkeypatch.delenv("DATAROOM_DATABASE__URL", raising=False)
    if request.param == "postgres":
        monkeypatch.setenv("DATAROOM_DATABASE__URL", request.getfixturevalue("postgres_server").new_database())
    get_settings.cache_clear()
    return request.param
