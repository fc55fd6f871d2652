"""Start N app servers, a redis-server for their rooms and HAProxy in front, watch them, and stop exactly what was
started: on Ctrl+C, on SIGTERM, or when any of them ends."""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path

from attention_lab.command import REDIS_URL_ENV, serve_command
from attention_lab.paths import APP_ROOT

from .haproxy_config import HAPROXY, config_env, config_text, server_name
from .options import Public, split_public
from .processes import end_with_parent, find_binary, free_port, stop_process, wait_healthy
from .redis_process import REDIS_SERVER, start_redis

MAX_SERVERS = 16
START_TIMEOUT = 120.0  # s: a loaded laptop importing Streamlit in every server at once
COOKIE_SECRET_ENV = "STREAMLIT_SERVER_COOKIE_SECRET"  # servers behind one balancer must share it


@dataclass
class Started:
    """A process the launcher started: its name, the URL it answers on, its handle and its log file."""

    name: str
    url: str
    process: subprocess.Popen
    log: Path

    def tail(self, chars: int = 3000) -> str:
        return self.log.read_text(errors="replace")[-chars:] if self.log.exists() else ""


@dataclass
class Cluster:
    """What `start` started and watches: the app servers and the balancer (Redis is stopped with them)."""

    servers: list[Started]
    balancer: Started

    def ended(self) -> Started | None:
        """The first of the started processes that is no longer running, if any."""
        return next((p for p in [self.balancer, *self.servers] if p.process.poll() is not None), None)


def required_binaries(count: int) -> tuple[str, str]:
    """The redis-server and haproxy binaries; RuntimeError naming the Debian packages that are missing."""
    found = {"redis-server": find_binary(REDIS_SERVER), "haproxy": find_binary(HAPROXY)}
    missing = [package for package, binary in found.items() if binary is None]
    if missing:
        packages = " and ".join(missing)
        raise RuntimeError(f"--servers {count} needs {packages} (Debian: apt-get install {' '.join(missing)})")
    return found["redis-server"] or "", found["haproxy"] or ""


def _spawn(name: str, url: str, command: list[str], log: Path, env: dict[str, str], cwd: Path) -> Started:
    with log.open("w") as out:
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            preexec_fn=end_with_parent,
        )  # fmt: skip
    return Started(name, url, process, log)


@contextmanager
def start(count: int, public: Public, rest: list[str], binaries: tuple[str, str], workdir: Path) -> Iterator[Cluster]:
    """Redis, `count` app servers on free loopback ports (each given the options `rest`), HAProxy on `public`;
    yields once the app answers through the balancer, stops everything it started (balancer, servers, Redis) when
    the block ends. `binaries`: redis-server's and haproxy's (required_binaries). RuntimeError with the failing
    process's log if one does not start."""
    redis_binary, haproxy_binary = binaries
    with ExitStack() as stack:
        redis = start_redis(redis_binary, workdir, tied=True)
        stack.callback(redis.stop)
        env = {**os.environ, REDIS_URL_ENV: redis.url}
        env.setdefault(COOKIE_SECRET_ENV, secrets.token_hex(32))
        servers = []
        for i in range(count):
            port = free_port()
            command = serve_command([*rest, "--server.port", str(port), "--server.address", "127.0.0.1"])
            started = _spawn(server_name(i), f"http://127.0.0.1:{port}", command, workdir / f"{server_name(i)}.log",
                             env, APP_ROOT)  # fmt: skip
            stack.callback(stop_process, started.process)
            servers.append(started)
        for server in servers:
            wait_healthy(server.url, server.process, START_TIMEOUT, server.tail, f"app server {server.name}")
        config = workdir / "haproxy.cfg"
        config.write_text(config_text(count))
        addresses = [s.url.removeprefix("http://") for s in servers]
        haproxy_env = {"PATH": os.environ.get("PATH", ""), **config_env(public.bind, addresses)}
        balancer = _spawn("haproxy", public.url, [haproxy_binary, "-db", "-f", str(config)],
                          workdir / "haproxy.log", haproxy_env, workdir)  # fmt: skip
        stack.callback(stop_process, balancer.process)
        url = f"http://127.0.0.1:{public.port}"
        wait_healthy(url, balancer.process, START_TIMEOUT, balancer.tail, "haproxy")
        yield Cluster(servers, balancer)
        # The ExitStack stops them in reverse: the balancer first, then the servers, Redis last.


def _stop_on_sigterm(signum, frame) -> None:
    raise SystemExit(128 + signum)


def serve(count: int, options: list[str]) -> int:
    """The launcher's life: start, print where the class connects, wait until Ctrl+C, SIGTERM or a process ends;
    its exit code (0 after Ctrl+C or SIGTERM, 1 when a process ended or did not start)."""
    signal.signal(signal.SIGTERM, _stop_on_sigterm)
    try:
        public, rest = split_public(options)
        binaries = required_binaries(count)
    except (RuntimeError, ValueError) as error:  # before anything is started or written
        print(f"attention-lab: {error}", flush=True)
        return 1
    workdir = Path(tempfile.mkdtemp(prefix="attention-lab-"))
    try:
        with start(count, public, rest, binaries, workdir) as cluster:
            print(f"\n  Attention Lab: {count} app servers behind HAProxy, class rooms in Redis", flush=True)
            print(f"  URL: {public.url}    (logs: {workdir})\n", flush=True)
            while (ended := cluster.ended()) is None:
                time.sleep(0.5)
            print(f"attention-lab: {ended.name} ended with {ended.process.returncode}:\n{ended.tail()}", flush=True)
            return 1
    except RuntimeError as error:
        print(f"attention-lab: {error}", flush=True)
        return 1
    except (KeyboardInterrupt, SystemExit):
        print("attention-lab: stopped", flush=True)
        shutil.rmtree(workdir, ignore_errors=True)  # a clean stop: no log worth keeping
        return 0
