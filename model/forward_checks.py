"""Checks every model family runs before a forward pass: id shapes, lengths, and eval mode for traces."""

from __future__ import annotations

import torch
from torch import nn


def check_ids(src: torch.Tensor, tgt: torch.Tensor, limit: int) -> None:
    """ValueError unless src and tgt are (batch, length) id tensors with 1..limit tokens."""
    for side, ids in (("source", src), ("target", tgt)):
        if ids.dim() != 2:
            raise ValueError(f"{side} ids must have shape (batch, length), got {tuple(ids.shape)}.")
        if ids.shape[1] == 0:
            raise ValueError(f"{side} is empty.")
        if ids.shape[1] > limit:
            raise ValueError(f"{side} has {ids.shape[1]} tokens; this model's limit is {limit} (max_len).")


def new_record(model: nn.Module, record: bool) -> dict[str, torch.Tensor] | None:
    """An empty dict to record into, or None; traces are only taken in eval mode (no dropout in a trace)."""
    if record and model.training:
        raise RuntimeError("traces are captured in eval mode (no dropout in a trace): call model.eval() first.")
    return {} if record else None
