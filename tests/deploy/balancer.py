"""The Debian HAProxy started for real with deploy/haproxy.cfg in front of local app servers, and its log read back.

Only the process started here is ever stopped, by its own handle. Outside CI a missing haproxy skips the test
with the reason; in CI (CI set) it fails it.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from attention_lab.cluster.haproxy_config import CONFIG, HAPROXY, config_env
from devtools.harness import free_port, wait_healthy
from devtools.processes import require_binary, stop_process

COOKIE = "ATTENTION_LAB_SERVER"
_START_TIMEOUT = 15.0

# One line of `option httplog` (the fields haproxy's configuration manual, section 8.2.3, lists).
_LOG_LINE = re.compile(
    r"^(?P<client>\S+) \[[^\]]+\] (?P<frontend>\S+) (?P<backend>[^/\s]+)/(?P<server>\S+) \S+ (?P<status>-?\d+) "
    r"\+?\d+ (?P<request_cookie>\S+) (?P<response_cookie>\S+) (?P<termination>\S{4}) .*\"(?P<request>[^\"]*)\"$"
)


@dataclass(frozen=True)
class Logged:
    """One request as haproxy logged it: which server took it, and what the sticky cookie did."""

    server: str  # "<NOSRV>" when none was chosen
    status: int
    request_cookie: str | None  # the server named by the cookie the browser sent, None without one
    cookie_state: str  # what the browser's cookie did: N none sent, V valid (sent to its server), I invalid, D down
    cookie_action: str  # what haproxy did with the cookie in the response: I inserted it, N nothing, ...
    method: str
    path: str

    @property
    def websocket(self) -> bool:
        return self.path.startswith("/_stcore/stream")


def parse_log_line(line: str) -> Logged | None:
    """A request line of the log, or None for anything else (start-up notices)."""
    match = _LOG_LINE.match(line.strip())
    if not match:
        return None
    method, _, rest = match["request"].partition(" ")
    cookie = match["request_cookie"]
    return Logged(
        server=match["server"],
        status=int(match["status"]),
        request_cookie=cookie.removeprefix(f"{COOKIE}=") if cookie != "-" else None,
        cookie_state=match["termination"][2],
        cookie_action=match["termination"][3],
        method=method,
        path=rest.rsplit(" ", 1)[0],
    )


@dataclass
class Balancer:
    """A running haproxy: its URL, its environment and the requests it has logged."""

    url: str
    servers: dict[str, str]  # name in the config (app1, app2) → the app server's own base URL
    env: dict[str, str]
    log: Path
    process: subprocess.Popen

    def requests(self, since: int = 0) -> list[Logged]:
        """Every request logged, from the `since`-th on (pass len(requests()) taken earlier)."""
        lines = self.log.read_text(errors="replace").splitlines()
        return [r for r in map(parse_log_line, lines) if r is not None][since:]

    def log_tail(self, chars: int = 4000) -> str:
        return self.log.read_text(errors="replace")[-chars:]

    def stop(self) -> None:
        stop_process(self.process)


def require_haproxy() -> str:
    """The haproxy binary, or skip (fail in CI) with the reason."""
    return require_binary(HAPROXY, "haproxy", "the load-balancer test")


def check_config(binary: str, env: Mapping[str, str], config: Path = CONFIG) -> subprocess.CompletedProcess:
    """`haproxy -c` on deploy/haproxy.cfg (or `config`) with exactly these variables (and PATH) set."""
    return subprocess.run(
        [binary, "-c", "-f", str(config)],
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        timeout=30,
    )


@contextmanager
def haproxy(servers: Mapping[str, str], workdir: Path) -> Iterator[Balancer]:
    """haproxy in the foreground with deploy/haproxy.cfg in front of `servers` (name → base URL), on a free
    loopback port; yields once the app's health answers through it."""
    binary = require_haproxy()
    port = free_port()
    env = config_env(f"127.0.0.1:{port}", [url.removeprefix("http://").rstrip("/") for url in servers.values()])
    log = workdir / f"haproxy-{port}.log"
    with open(log, "w") as out:
        process = subprocess.Popen(
            [binary, "-db", "-f", str(CONFIG)],
            env={**os.environ, **env},
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    balancer = Balancer(f"http://127.0.0.1:{port}", dict(servers), env, log, process)
    try:
        wait_healthy(balancer.url, process, _START_TIMEOUT, balancer.log_tail, "haproxy")
        yield balancer
    finally:
        balancer.stop()
