"""A redis-server on a loopback port, without persistence (a room lives as long as its class): the launcher's
rooms store, and the tests' Redis."""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import redis

from .processes import end_with_parent, free_port, stop_process

REDIS_SERVER = "/usr/bin/redis-server"
START_TIMEOUT = 15.0


@dataclass
class RedisProcess:
    """A started redis-server: its port, URL and process (stop() ends exactly that process)."""

    port: int
    process: subprocess.Popen
    log: Path

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        stop_process(self.process)


def start_redis(binary: str, workdir: Path, port: int | None = None, tied: bool = False) -> RedisProcess:
    """Start redis-server on `port` (a free one if None) and wait until it answers PING; RuntimeError (with its
    log) if it exits or stays silent. `tied`: it ends when this process dies (the launcher, which runs no threads)."""
    port = port or free_port()
    log = workdir / f"redis-{port}.log"
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    args += ["--dir", str(workdir), "--daemonize", "no", "--logfile", str(log)]
    tie = end_with_parent if tied else None
    started = subprocess.Popen(args, cwd=workdir, stdin=subprocess.DEVNULL, preexec_fn=tie)
    server = RedisProcess(port, started, log)
    deadline = time.monotonic() + START_TIMEOUT
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
                raise RuntimeError(f"redis-server did not answer on port {port} within {START_TIMEOUT} s")
            time.sleep(0.05)
    finally:
        client.close()
