"""Socket guard for spawned parser processes (the no_network fixture only patches the test process)."""

from __future__ import annotations

import socket

from ingest.parsing.parse import ParseTask, parse_file

ATTEMPTS: list[str] = []


class NetworkBlocked(RuntimeError):
    pass


def _allowed(address) -> bool:
    if isinstance(address, (str, bytes)):
        return True
    return str(address[0]) in ("localhost", "::1") or str(address[0]).startswith("127.")


def install() -> None:
    if getattr(socket.socket.connect, "_guard", False):
        return
    real_connect, real_create = socket.socket.connect, socket.create_connection

    def connect(self, address):
        if not _allowed(address):
            raise NetworkBlocked(f"parser process tried to reach {address!r}")
        return real_connect(self, address)

    def create(address, *a, **kw):
        if not _allowed(address):
            raise NetworkBlocked(f"parser process tried to reach {address!r}")
        return real_create(address, *a, **kw)

    connect._guard = True
    socket.socket.connect = connect
    socket.create_connection = create
    # getaddrinfo is what urllib hits first; refuse name lookups too
    real_gai = socket.getaddrinfo

    def gai(host, *a, **kw):
        if host not in (None, "localhost") and not str(host).startswith("127.") and host != "::1":
            raise NetworkBlocked(f"parser process tried to resolve {host!r}")
        return real_gai(host, *a, **kw)

    socket.getaddrinfo = gai


def guarded_parse(task: ParseTask):
    install()
    return parse_file(task)
