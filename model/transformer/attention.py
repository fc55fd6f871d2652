"""Scaled dot-product attention as a pure function that hands back every intermediate.

The dashboard, the step-by-step walkthrough and the model all call this one function, so the
numbers a student sees in a formula are the numbers the model computed.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import torch
import torch.nn.functional as F


class AttentionResult(NamedTuple):
    """What `attention` computed, in the order the paper writes it."""

    out: torch.Tensor  # (..., Lq, dv)  weights @ V
    scores: torch.Tensor  # (..., Lq, Lk)  Q Kᵀ
    scaled: torch.Tensor  # (..., Lq, Lk)  Q Kᵀ / (√d_k · temperature)
    masked: torch.Tensor  # (..., Lq, Lk)  scaled, −inf where the mask forbids
    weights: torch.Tensor  # (..., Lq, Lk)  softmax over the last axis; each row sums to 1


def scale_factor(d_k: int, *, scale: bool = True, temperature: float = 1.0) -> float:
    """The divisor of QKᵀ: √d_k · temperature (or temperature alone with scaling switched off)."""
    if not math.isfinite(temperature) or temperature <= 0:
        raise ValueError(f"temperature must be a positive number, got {temperature!r}.")
    return (math.sqrt(d_k) if scale else 1.0) * temperature


def attention(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    mask: torch.Tensor | None = None,
    *,
    temperature: float = 1.0,
    scale: bool = True,
    dropout_p: float = 0.0,
) -> AttentionResult:
    r"""Attention(Q, K, V) = softmax(Q Kᵀ / √d_k) V    (Vaswani et al., 2017, eq. 1).

    q: (..., Lq, d_k), k: (..., Lk, d_k), v: (..., Lk, d_v).
    mask: bool, broadcastable to (..., Lq, Lk), True where a query MAY attend to a key; forbidden
    cells become −∞ before the softmax, so their weight is exactly 0. A query row with no allowed
    key at all gets all-zero weights (and a zero output) instead of NaN.
    temperature divides the scores once more (1 = the paper); scale=False drops the √d_k.
    dropout_p drops attention weights on the way to V (training only; `weights` stays undropped).
    """
    divisor = scale_factor(q.shape[-1], scale=scale, temperature=temperature)
    scores = q @ k.transpose(-2, -1)  # (..., Lq, Lk)
    scaled = scores / divisor
    masked = scaled if mask is None else torch.where(mask, scaled, float("-inf"))
    weights = torch.softmax(masked, dim=-1)  # stable: softmax subtracts the row max first
    if mask is not None:
        empty_rows = ~mask.any(dim=-1, keepdim=True)
        if bool(empty_rows.any()):
            weights = weights.masked_fill(empty_rows, 0.0)
    mixed = F.dropout(weights, p=dropout_p) if dropout_p > 0 else weights
    out = mixed @ v  # (..., Lq, d_v)
    return AttentionResult(out, scores, scaled, masked, weights)


def causal_mask(length: int, device: torch.device | None = None) -> torch.Tensor:
    """(L, L) bool, True on and below the diagonal: position t may look at positions ≤ t."""
    return torch.ones(length, length, dtype=torch.bool, device=device).tril()
