"""The timed samples of one Locust run, and how bench/load/run.py reads them back.

Locust loads each `-f` file as its own module; this one is imported from the installed devtools package by all of
them, so the users (bench/load/locustfile.py) and the ramp (bench/load/ramp.py) share one list.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

SAMPLES: list[dict] = []  # {"t": unix seconds, "users": running users, "name": ..., "ms": ..., "ok": ...} or server


def write(path: str | Path) -> None:
    with open(path, "w") as out:
        out.writelines(json.dumps(sample) + "\n" for sample in SAMPLES)


def read(path: str | Path) -> list[dict]:
    with open(path) as lines:
        return [json.loads(line) for line in lines if line.strip()]


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by the nearest-rank method (a value that was measured); nan when empty."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


@dataclass(frozen=True)
class Window:
    """Figures of the samples between two times: latencies of the named actions and the server's CPU and RSS."""

    users: int
    count: int
    failures: int
    p50_ms: float
    p90_ms: float
    server_cores: float  # CPU seconds of the server processes per second (1.0 = one core busy)
    worker_cores: float  # the same for its child processes (training workers)
    server_rss_mb: float  # the server processes' RSS summed, at its highest


def window(samples: list[dict], names: set[str], start: float, end: float, users: int = 0) -> Window:
    timed = [s for s in samples if s["name"] in names and start <= s["t"] < end]
    ms = [s["ms"] for s in timed if s["ok"]]
    server = [s for s in samples if s["name"] == "server" and start <= s["t"] < end]
    cores = workers = rss = math.nan
    if len(server) >= 2:
        first, last = server[0], server[-1]
        pids, seconds = [str(p) for p in first["server_pids"]], last["t"] - first["t"]
        cores = sum(last["cpu"][p] - first["cpu"][p] for p in pids) / seconds
        children = set(first["cpu"]) & set(last["cpu"]) - set(pids)
        workers = sum(last["cpu"][c] - first["cpu"][c] for c in children) / seconds
        rss = max(sum(s["rss"][p] for p in pids) for s in server) / 2**20
    return Window(users, len(timed), len(timed) - len(ms), percentile(ms, 50), percentile(ms, 90), cores, workers, rss)
