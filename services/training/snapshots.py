"""Attention snapshots of the probe input: which steps get one, and how the list stays bounded.

The worker decides when to take a snapshot and the serving process keeps them; both apply the same
thinning rule to the same sequence of steps, so the worker knows when to snapshot half as often.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Snapshot:
    """Attention weights of the probe at one step: trace name prefix → (H, Lq, Lk) float32."""

    step: int
    weights: dict[str, np.ndarray]


def keep_bounded(items: list, limit: int) -> tuple[list, bool]:
    """items, or when there are more than `limit`, the first and every other one after it; and whether it thinned."""
    if len(items) <= limit:
        return items, False
    return items[:1] + items[2::2], True


class SnapshotSchedule:
    """Step 1, every `every` steps and the last step get a snapshot; the stride doubles each time the list thins."""

    def __init__(self, every: int, limit: int):
        self.stride, self.limit = every, limit
        self.steps: list[int] = []

    def due(self, step: int, total_steps: int) -> bool:
        return step == 1 or step % self.stride == 0 or step == total_steps

    def taken(self, step: int) -> None:
        self.steps, thinned = keep_bounded([*self.steps, step], self.limit)
        if thinned:
            self.stride *= 2

    @property
    def last(self) -> int | None:
        return self.steps[-1] if self.steps else None
