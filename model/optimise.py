"""The learning-rate schedule every trainer here uses: linear warmup, then cosine decay to 0."""

from __future__ import annotations

import math


def warmup_cosine(step: int, lr: float, warmup: int, total: int) -> float:
    """Linear warmup to lr over `warmup` steps, then cosine decay to 0 at step `total` (step counted from 0)."""
    if step < warmup:
        return lr * (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return lr * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))
