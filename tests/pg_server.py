"""A real PostgreSQL server for the tests: `initdb` into a temporary folder, `pg_ctl start` on a free loopback port.

One server per test session (starting one takes a few seconds); each test gets its own database in it, so
tests stay independent as they are with one SQLite file each. Missing binaries are a failure, not a skip:
the store's Postgres half would otherwise go untested without anyone noticing.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from itertools import count
from pathlib import Path

MISSING = ("PostgreSQL server binaries (initdb, pg_ctl, postgres) were not found on PATH or in "
           "/usr/lib/postgresql/*/bin. Install them with `WITH_BROWSER=1 scripts/setup.sh` (Debian package "
           "`postgresql`) or `apt-get install postgresql`; the review store's tests run on SQLite and PostgreSQL.")


def find_bin_dir() -> Path | None:
    """Where initdb and pg_ctl are: PATH first, then Debian's versioned folder (the package does not put them
    on PATH)."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).resolve().parent
    for d in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(d) / "initdb").exists() and (Path(d) / "pg_ctl").exists():
            return Path(d)
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """A throwaway cluster: trust authentication on 127.0.0.1 only, no fsync (test data need not survive a
    power cut), C collation so text sorts by code point as SQLite's does."""

    def __init__(self, bin_dir: Path):
        self.bin_dir = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="dataroom-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.user = "dataroom"
        self._os_user = None
        if os.geteuid() == 0:  # initdb and postgres refuse to run as root
            name = "postgres" if _user_exists("postgres") else "nobody"
            self._os_user = name
            pw = pwd.getpwnam(name)
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self._names = count(1)

    def _run(self, *argv: str) -> subprocess.CompletedProcess:
        return subprocess.run(list(argv), check=True, capture_output=True, text=True, user=self._os_user,
                              cwd=self.root, timeout=120)

    def start(self) -> "PostgresServer":
        self._run(str(self.bin_dir / "initdb"), "-D", str(self.data), "-U", self.user, "--auth=trust",
                  "--no-locale", "-E", "UTF8", "--no-sync")
        opts = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        try:
            self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.root / "server.log"),
                      "-o", opts, "-w", "-t", "60", "start")
        except subprocess.CalledProcessError as e:
            log = (self.root / "server.log").read_text(errors="replace") if (self.root / "server.log").exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {e.stderr}\n{log[-2000:]}") from e
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; returns its URL."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run(str(self.bin_dir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False
