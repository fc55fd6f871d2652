"""How big the training pool is and what it allows, from ATTENTION_LAB_TRAIN_* environment variables.

Variables:
    ATTENTION_LAB_TRAIN_WORKERS      worker processes (default: cores − 1, at least 1)
    ATTENTION_LAB_TRAIN_QUEUE        jobs that may wait for a worker, server-wide (default 20)
    ATTENTION_LAB_TRAIN_MAX_STEPS    most optimiser steps one job may ask for (default 20000)
    ATTENTION_LAB_TRAIN_TIME_LIMIT   seconds one job may run on its worker before it is ended (default 1800)
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields


def available_cores() -> int:
    """CPU cores this process may run on (its affinity mask where the OS has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def default_workers() -> int:
    """Cores minus one for the serving process, and at least one."""
    return max(1, available_cores() - 1)


ENV = {  # setting → its environment variable
    "workers": "ATTENTION_LAB_TRAIN_WORKERS",
    "max_queue": "ATTENTION_LAB_TRAIN_QUEUE",
    "max_steps": "ATTENTION_LAB_TRAIN_MAX_STEPS",
    "time_limit": "ATTENTION_LAB_TRAIN_TIME_LIMIT",
}


@dataclass(frozen=True)
class PoolSettings:
    """Size and limits of the training pool; the defaults suit one small server."""

    workers: int = field(default_factory=default_workers)  # worker processes at most
    max_queue: int = 20  # jobs waiting for a worker, server-wide
    max_steps: int = 20_000  # optimiser steps one job may ask for
    time_limit: float = 1800.0  # seconds a job may run on its worker
    stop_grace: float = 2.0  # seconds a worker has to acknowledge Stop before it is replaced
    max_snapshots: int = 120  # attention snapshots kept per job; thinned to every other one when full
    torch_threads: int = 1  # intra-op threads in each worker, so serving keeps its core
    nice: int = 5  # added to each worker's nice level (0: leave it)

    def __post_init__(self) -> None:
        for name in ("workers", "max_queue", "max_steps", "max_snapshots", "torch_threads"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{_label(name)} must be a whole number of at least 1, got {value!r}.")
        for name in ("time_limit", "stop_grace"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < float("inf"):
                raise ValueError(f"{_label(name)} must be a number of seconds above 0, got {value!r}.")

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ, **overrides) -> PoolSettings:
        """Settings from ATTENTION_LAB_TRAIN_*; a malformed value raises ValueError naming its variable."""
        kinds = {f.name: f.type for f in fields(cls)}
        values = {}
        for name, variable in ENV.items():
            raw = environ.get(variable, "").strip()
            if not raw:
                continue
            whole = kinds[name] == "int"
            try:
                values[name] = int(raw) if whole else float(raw)
            except ValueError:
                raise ValueError(f"{variable} must be a {'whole ' if whole else ''}number, got {raw!r}.") from None
        return cls(**(values | overrides))


def _label(name: str) -> str:
    """The environment variable a setting comes from, or its name."""
    return ENV.get(name, name)
