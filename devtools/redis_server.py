"""A real redis-server (Debian package) on a free loopback port, in a temp dir, without persistence.

Only the process started here is ever stopped, by its own handle. Outside CI a missing redis-server
skips the Redis tests with the reason; in CI (CI set) it fails them.
"""

from __future__ import annotations

import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import redis

from .processes import require_binary, stop_process

REDIS_SERVER = "/usr/bin/redis-server"
_START_TIMEOUT = 15.0


@dataclass
class RedisServer:
    """A started redis-server: its port, URL and process (stop() ends exactly that process)."""

    port: int
    process: subprocess.Popen
    log: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        stop_process(self.process)


def require_redis_server() -> str:
    """The redis-server binary, or skip (fail in CI) with the reason."""
    return require_binary(REDIS_SERVER, "redis-server", "Redis tests")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_redis_server(binary: str, workdir: Path, port: int | None = None) -> RedisServer:
    """Start redis-server on `port` (a free one if None) and wait until it answers PING."""
    port = port or free_port()
    log = workdir / f"redis-{port}.log"
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    args += ["--dir", str(workdir), "--daemonize", "no", "--logfile", str(log)]
    server = RedisServer(port, subprocess.Popen(args, cwd=workdir, stdin=subprocess.DEVNULL), log)
    deadline = time.monotonic() + _START_TIMEOUT
    client = redis.Redis(port=port, socket_connect_timeout=1)
    try:
        while True:
            if server.process.poll() is not None:
                tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise RuntimeError(f"redis-server exited with {server.process.returncode}:\n{tail}")
            try:
                if client.ping():
                    return server
            except redis.ConnectionError:
                pass
            if time.monotonic() > deadline:
                server.stop()
                raise RuntimeError(f"redis-server did not answer on port {port} within {_START_TIMEOUT} s")
            time.sleep(0.05)
    finally:
        client.close()


@contextmanager
def redis_server(workdir: Path) -> Iterator[RedisServer]:
    """A redis-server for the duration of the block (a free port; one retry if another process took it)."""
    binary = require_redis_server()
    try:
        server = start_redis_server(binary, workdir)
    except RuntimeError:
        server = start_redis_server(binary, workdir)
    try:
        yield server
    finally:
        server.stop()
