"""Numbers computed from a trace for the dashboards: per-head entropy and peak weight, the mean over
heads, attention rollout, and the position·position similarity of a positional-encoding table.

Pure PyTorch/NumPy, so the pages and figures only draw what is computed here.
"""

from __future__ import annotations

import numpy as np
import torch

from ..memo import BoundedCache, kept
from ..naming import AttentionKind, attention_name, parse_attention_name, split_part
from ..trace import Trace


def _tensor(x) -> torch.Tensor:
    return torch.from_numpy(np.array(x, dtype=np.float64))  # a copy: inputs may be read-only views


def attention_layers(trace: Trace, kind: AttentionKind | str) -> np.ndarray:
    """Every layer's attention weights of one kind, stacked: (L, H, Lq, Lk) float32 (batch 0)."""
    names: list[str] = []
    while (name := attention_name(kind, len(names), "weights")) in trace:
        names.append(name)
    return np.stack([trace.numpy(name) for name in names]).astype(np.float32)


def attention_tokens(trace: Trace, kind: AttentionKind | str) -> tuple[list[str], list[str]]:
    """(query tokens, key tokens) along the two axes of an attention matrix of this kind."""
    kind = AttentionKind(kind)
    return trace.tokens(kind.query_side), trace.tokens(kind.key_side)


def attention_maps(trace: Trace, batch: int = 0) -> dict[str, np.ndarray]:
    """Every attention block of a trace as (H, Lq, Lk) float32, keyed by its name prefix, any family.

    A Transformer gives each `….weights` (B, H, Lq, Lk) as it is; the RNN's `rnn.attn.weights`
    (B, T, S) is one block with one head: (1, T, S). A model without attention gives {}.
    """
    maps = {}
    for name in trace.names():
        block, part = split_part(name)
        if part == "weights" and parse_attention_name(block) is not None:
            weights = trace.numpy(name, batch).astype(np.float32, copy=True)
            maps[block] = weights[None] if weights.ndim == 2 else weights
    return maps


def row_entropy(weights) -> np.ndarray:
    """Shannon entropy in nats of each attention row (last axis), with 0·log 0 = 0: (..., Lq)."""
    w = _tensor(weights)
    return torch.special.entr(w).sum(-1).float().numpy()


def head_entropy(weights) -> np.ndarray:
    """Mean row entropy of each head: weights (..., H, Lq, Lk) → (..., H). 0 = every query looks at one key."""
    return row_entropy(weights).mean(-1).astype(np.float32)


# A class's every follower opens on the same sharpest head: found once per weights (and layer) in this process.
_SHARPEST = BoundedCache(256)


@kept(_SHARPEST)
def sharpest_head(weights, layer: int | None = None) -> tuple[int, int]:
    """(layer, head) of the head whose rows are most focused, by mean row entropy (head_entropy): weights
    (L, H, Lq, Lk); within `layer` when given. Heads switched off (NaN, model.analysis.knockout) are passed over;
    with every head off, (layer or 0, 0). What a page opens on when nothing asked for a head: a nearly uniform head
    teaches nothing on a projector."""
    entropy = head_entropy(weights).astype(np.float64)  # (L, H)
    if layer is not None:
        entropy = np.where(np.arange(entropy.shape[0])[:, None] == layer, entropy, np.nan)
    if np.isnan(entropy).all():
        return (layer or 0, 0)
    found = np.unravel_index(int(np.nanargmin(entropy)), entropy.shape)
    return int(found[0]), int(found[1])


def head_peak(weights) -> np.ndarray:
    """Mean over queries of each row's largest weight: (..., H, Lq, Lk) → (..., H). 1 = one-hot rows."""
    return _tensor(weights).amax(-1).mean(-1).float().numpy()


def head_mean(weights) -> np.ndarray:
    """Average of the heads: (..., H, Lq, Lk) → (..., Lq, Lk); rows still sum to 1. Heads whose weights are NaN
    (switched off, model.analysis.knockout) are left out; a layer with every head off is NaN."""
    return _tensor(weights).nanmean(-3).float().numpy()


def attention_rollout(weights, residual: float = 0.5) -> np.ndarray:
    """Attention rollout (Abnar & Zuidema, 2020) over a stack of self-attention layers.

    weights (L, H, S, S): each layer's heads are averaged (heads switched off, NaN, left out; a layer with every
    head off mixes nothing and passes the residual path alone), the residual path is added as
    `residual`·I + (1 − residual)·A with rows renormalised, and the layers are multiplied from the
    bottom up. Entry [i, j] is how much of input token j reaches position i at the top: (S, S).
    """
    w = _tensor(weights)
    if w.dim() != 4 or w.shape[-1] != w.shape[-2]:
        raise ValueError(f"rollout needs self-attention weights (L, H, S, S), got shape {tuple(w.shape)}.")
    eye = torch.eye(w.shape[-1], dtype=w.dtype)
    rollout = eye
    for layer in w.nanmean(1).nan_to_num(0.0):  # (S, S) per layer, bottom first
        mixed = residual * eye + (1.0 - residual) * layer
        mixed = mixed / mixed.sum(-1, keepdim=True)
        rollout = mixed @ rollout
    return rollout.float().numpy()


def position_similarity(table) -> np.ndarray:
    """Dot product of every pair of positional-encoding rows: table (L, d) → (L, L) float32."""
    t = _tensor(table)
    return (t @ t.T).float().numpy()
