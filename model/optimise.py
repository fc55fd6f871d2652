"""What every trainer here shares: the learning-rate schedule (linear warmup, then cosine decay to 0) and one step."""

from __future__ import annotations

import math

import torch


def warmup_cosine(step: int, lr: float, warmup: int, total: int, progress: float | None = None) -> float:
    """Linear warmup to lr over `warmup` steps, then cosine decay to 0 at step `total` (step counted from 0), or, when
    `progress` is given (a run with a time budget), at progress 1."""
    if step < warmup:
        return lr * (step + 1) / warmup
    if progress is None:
        progress = (step - warmup) / max(1, total - warmup)
    return lr * 0.5 * (1 + math.cos(math.pi * min(1.0, progress)))


def optimiser_step(
    model: torch.nn.Module, optimizer: torch.optim.Optimizer, loss: torch.Tensor, lr: float, clip: float
):
    """Backpropagate `loss` and take one step at learning rate `lr`, the gradients' norm clipped to `clip`."""
    for group in optimizer.param_groups:
        group["lr"] = lr
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
    optimizer.step()
