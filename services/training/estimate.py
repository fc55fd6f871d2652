"""How long a queued job will wait: the busy workers' time left, then the jobs ahead of it, first come first served."""

from __future__ import annotations

import heapq

DEFAULT_SECONDS_PER_STEP = 0.05  # before anything has been measured (a small model's step on this machine)


def queue_waits(busy: list[float], queued: list[float], workers: int) -> list[float]:
    """Seconds until each queued job starts, in queue order.

    busy: seconds left of each job now running; queued: the expected seconds of each waiting job, in
    order; workers: how many jobs run at once. A free worker takes the next job as soon as it is free.
    """
    free = sorted([*busy, *[0.0] * max(0, workers - len(busy))])
    heapq.heapify(free)
    waits = []
    for seconds in queued:
        start = heapq.heappop(free)
        waits.append(start)
        heapq.heappush(free, start + seconds)
    return waits


def seconds_left(
    total_steps: int, step: int, seconds_per_step: float, used_fraction: float = 1.0,
    budget: float | None = None, seconds: float = 0.0,
) -> float:  # fmt: skip
    """Expected seconds until a job ends: its steps left × seconds per step, scaled by the fraction of their
    steps recent jobs used (a job with an accuracy goal usually stops early), and at most what is left of its time
    budget (`budget` seconds in all, `seconds` spent: a GPT run ends at its minutes)."""
    left = max(0, total_steps - step) * used_fraction * seconds_per_step
    return left if budget is None else min(left, max(0.0, budget - seconds))
