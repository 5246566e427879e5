"""A Ray cluster on this machine, for the tests and bench/ray_ingest.py: a head node plus worker nodes.

Each node is a `ray start --block` child of ours (its own process group), so
stopping it ends exactly the processes it started: `ray stop` would end every
Ray process on the machine, other people's included. Ports are free ones, the
dashboard is off and no usage statistics are sent (RAY_USAGE_STATS_ENABLED=0 and
--disable-usage-stats). Ray's servers listen on every interface whatever the node
address, so the cluster runs with token authentication (RAY_AUTH_MODE=token): a
process without this cluster's token cannot join it or send it work.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from core.settings import REPO_ROOT

OBJECT_STORE_BYTES = 100 * 1024 * 1024  # results are one document's text: the default (30 % of RAM) is waste
# One token per driver process: Ray's C++ loader caches the token it read first, so a second cluster
# started by the same process must use the same one.
_TOKEN = secrets.token_hex(32)
_AUTH_ENV = ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH", "RAY_AUTH_TOKEN")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ray_cli() -> str:
    return str(Path(sys.executable).with_name("ray"))


class LocalCluster:
    """`with LocalCluster(head_cpus=1, worker_cpus=[1]) as c:` then ingest with settings.ingest.ray_address = c.address.

    A node's CPUs are how many parse tasks it runs at once (one worker process each).
    """

    def __init__(self, head_cpus: int = 1, worker_cpus: tuple[int, ...] = (1,), start_timeout_s: float = 90.0):
        self.head_cpus, self.worker_cpus, self.timeout = head_cpus, tuple(worker_cpus), start_timeout_s
        self.port = _free_port()
        self.address = f"127.0.0.1:{self.port}"
        # short: Ray's unix socket paths under it must stay within 107 characters
        self.temp_dir = tempfile.mkdtemp(prefix="ray", dir="/tmp")
        self.procs: list[subprocess.Popen] = []
        self.token_path = Path(self.temp_dir) / "auth_token"
        self.token_path.write_text(_TOKEN)
        self.token_path.chmod(0o600)
        self.auth_env = {"RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(self.token_path)}
        self._saved_env: dict[str, str | None] = {}
        self.env = {k: v for k, v in os.environ.items() if k != "RAY_AUTH_TOKEN"}
        self.env.update(self.auth_env, RAY_USAGE_STATS_ENABLED="0",
                        PYTHONPATH=os.pathsep.join(p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p))

    def _node(self, args: list[str]) -> None:
        common = ["--block", "--node-ip-address=127.0.0.1", f"--temp-dir={self.temp_dir}",
                  f"--object-store-memory={OBJECT_STORE_BYTES}", f"--dashboard-agent-listen-port={_free_port()}",
                  "--disable-usage-stats"]
        log = open(Path(self.temp_dir) / f"node{len(self.procs)}.log", "wb")
        self.procs.append(subprocess.Popen([_ray_cli(), "start", *args, *common], env=self.env, stdout=log,
                                           stderr=subprocess.STDOUT, start_new_session=True))

    def _wait(self, ok, what: str) -> None:
        deadline = time.monotonic() + self.timeout
        while not ok():
            if time.monotonic() > deadline or any(p.poll() is not None for p in self.procs):
                logs = "\n".join(p.read_text(errors="replace")[-2000:] for p in Path(self.temp_dir).glob("node*.log"))
                raise RuntimeError(f"local Ray cluster: {what} did not come up\n{logs}")
            time.sleep(0.2)

    def start(self) -> "LocalCluster":
        self._node(["--head", f"--port={self.port}", f"--num-cpus={self.head_cpus}", "--include-dashboard=false",
                    f"--ray-client-server-port={_free_port()}"])

        def gcs_up() -> bool:
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", self.port)) == 0

        self._wait(gcs_up, "the head node")
        for cpus in self.worker_cpus:
            self._node([f"--address={self.address}", f"--num-cpus={cpus}"])
        from core.settings import IngestSettings

        from . import ray_exec

        # this process is the driver: it joins with the cluster's token (restored by stop())
        self._saved_env = {k: os.environ.get(k) for k in _AUTH_ENV}
        os.environ.pop("RAY_AUTH_TOKEN", None)
        os.environ.update(self.auth_env)
        ray_exec.connect(IngestSettings(ray_address=self.address))
        import ray

        want = self.head_cpus + sum(self.worker_cpus)
        self._wait(lambda: len([n for n in ray.nodes() if n["Alive"]]) == 1 + len(self.worker_cpus)
                   and ray.cluster_resources().get("CPU", 0) == want, "every node")
        return self

    def stop(self) -> None:
        from . import ray_exec

        ray_exec.disconnect()
        for p in reversed(self.procs):  # workers first; `ray start --block` stops its processes on SIGTERM
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                pass
            try:  # anything of that node still in its process group (raylet's workers)
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
        shutil.rmtree(self.temp_dir, ignore_errors=True)
        for k, v in self._saved_env.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        self._saved_env = {}

    def __enter__(self) -> "LocalCluster":
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()
