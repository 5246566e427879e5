"""The ingest CLI, run as a user would, tries no outbound connection and writes under HOME only its own cache.

The test's own process has imported `ingest` (which sets the telemetry opt-outs in os.environ), so the
child's environment is built without them: the child must set them itself. Every process of the ingest
(the CLI, the parser forkserver, its workers) imports the socket guard through `sitecustomize`, which
records and refuses any non-loopback connect or name lookup. onnxruntime's telemetry is C++ and never
touches Python's socket module, so when strace can trace here the child also runs under it and every
connect(2) to an internet address counts. onnxruntime contacts its host about 10 s after it loads: the
child stays alive 12 s after the ingest so that attempt would be seen.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

from core.settings import REPO_ROOT

from .builders import text_pdf

pytestmark = pytest.mark.slow

GUARD = textwrap.dedent(
    '''
    import errno, os, socket

    _LOG = os.environ["NETGUARD_LOG"]


    def _local(address):
        if isinstance(address, (str, bytes)):
            return True  # AF_UNIX: the forkserver's and the workers' own sockets
        host = str(address[0])
        return host in ("localhost", "::1") or host.startswith("127.")


    def _record(what):
        with open(_LOG, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {what}\\n")


    def _guard(real):
        def call(self, address, *a):
            if not _local(address):
                _record(f"{real.__name__} {address!r}")
                raise OSError(errno.ENETUNREACH, "network refused by the test guard")
            return real(self, address, *a)
        return call


    def _sendto(real):
        def call(self, data, *a):
            if a and not _local(a[-1]):
                _record(f"sendto {a[-1]!r}")
                raise OSError(errno.ENETUNREACH, "network refused by the test guard")
            return real(self, data, *a)
        return call


    _real_gai = socket.getaddrinfo


    def getaddrinfo(host, *a, **kw):
        if host not in (None, "", "localhost", "::1") and not str(host).startswith("127."):
            _record(f"getaddrinfo {host!r}")
            raise socket.gaierror(socket.EAI_NONAME, "name lookup refused by the test guard")
        return _real_gai(host, *a, **kw)


    socket.socket.connect = _guard(socket.socket.connect)
    socket.socket.connect_ex = _guard(socket.socket.connect_ex)
    socket.socket.sendto = _sendto(socket.socket.sendto)
    socket.getaddrinfo = getaddrinfo
    '''
)
CHILD = "import sys, time; from ingest.cli import main; rc = main(sys.argv[1:]); time.sleep(12); sys.exit(rc)"
# strace prints internet addresses as inet_addr("a.b.c.d") / inet_pton(AF_INET6, "...")
_INET = re.compile(r'connect\(\d+, \{sa_family=AF_INET6?, .*?inet_(?:addr\("([^"]+)"\)|pton\(AF_INET6, "([^"]+)")')


def _strace_works() -> bool:
    if not shutil.which("strace"):
        return False
    probe = subprocess.run(["strace", "-f", "-qq", "-e", "trace=connect", "-o", os.devnull, "true"], capture_output=True)
    return probe.returncode == 0  # ptrace may be forbidden in a container


def test_ingest_cli_tries_no_connection_and_writes_only_its_cache_under_home(tmp_path):
    guard_dir, home, ws, src = tmp_path / "guard", tmp_path / "home", tmp_path / "ws", tmp_path / "room"
    for d in (guard_dir, home, src / "Contracts"):
        d.mkdir(parents=True)
    (guard_dir / "sitecustomize.py").write_text(GUARD)
    (src / "Contracts" / "license.pdf").write_bytes(
        text_pdf([["LICENSE AGREEMENT", "This license may not be assigned without the Licensor's consent."]])
    )
    (src / "notes.txt").write_text("Heading\n\nThe lease ends if the tenant becomes insolvent.\n")
    log = tmp_path / "attempts.log"
    opt_outs = {"ORT_DISABLE_TELEMETRY", "DO_NOT_TRACK", "SCARF_NO_ANALYTICS", "UNSTRUCTURED_DISABLE_NOTICE", "ANONYMIZED_TELEMETRY",
                "MPLCONFIGDIR"}
    env = {k: v for k, v in os.environ.items() if k not in opt_outs and not k.startswith(("PYTEST", "COV_"))}
    env.update(
        HOME=str(home), XDG_CACHE_HOME=str(home / ".cache"), DATAROOM_WORKSPACE=str(ws), NETGUARD_LOG=str(log),
        PYTHONPATH=os.pathsep.join([str(guard_dir), str(REPO_ROOT)]),
    )
    cmd = [sys.executable, "-c", CHILD, str(src), "--room", "offline", "--workers", "1"]  # the default embedder
    trace = tmp_path / "strace.log"
    traced = _strace_works()
    if traced:
        cmd = ["strace", "-f", "-qq", "--seccomp-bpf", "-e", "trace=connect", "-o", str(trace), *cmd]
    out = subprocess.run(cmd, env=env, cwd=REPO_ROOT, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "parsed 2, failed 0" in out.stdout, out.stdout
    attempts = log.read_text().splitlines() if log.exists() else []
    assert attempts == [], attempts
    if traced:
        inet = [m.group(1) or m.group(2) for m in _INET.finditer(trace.read_text())]
        assert [a for a in inet if not a.startswith("127.") and a != "::1"] == [], "connect(2) to the internet"
    written = sorted(p.relative_to(home).as_posix() for p in home.rglob("*"))
    assert not (home / ".cache" / "Microsoft").exists(), written
    # nothing outside the workspace but the project's own cache (the unpacked embedding model)
    assert [p for p in written if p != ".cache" and not p.startswith(".cache/dataroom-rlm")] == [], written
