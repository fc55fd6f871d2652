"""What a sentence encoder outputs: one vector per sentence, and how alike two sentences are.

all-MiniLM-L6-v2's model card: run the encoder, average the last layer's vectors over the real tokens ([CLS] and
[SEP] included, padding left out), then divide by the length (L2 norm). Two sentences are compared by the cosine of
their embeddings, which for unit vectors is their dot product.
"""

from __future__ import annotations

import numpy as np
import torch

from ..naming import Stack, ffn_name
from ..trace import Trace


def mean_pool(hidden: torch.Tensor, keep: torch.Tensor | None = None) -> torch.Tensor:
    """hidden (B, S, d), keep (B, S) True at real tokens (None: all real) → (B, d): the mean over real tokens."""
    if keep is None:
        return hidden.mean(dim=1)
    weights = keep.to(hidden.dtype)[..., None]  # (B, S, 1)
    return (hidden * weights).sum(dim=1) / weights.sum(dim=1).clamp_min(1e-9)  # (B, d)


def l2_normalize(x: torch.Tensor, eps: float = 1e-12) -> torch.Tensor:
    """x / ‖x‖ along the last axis (a zero vector stays zero), as torch.nn.functional.normalize."""
    return x / torch.linalg.vector_norm(x, dim=-1, keepdim=True).clamp_min(eps)


def cosine_similarity(a: np.ndarray | torch.Tensor, b: np.ndarray | torch.Tensor) -> float:
    """cos(a, b) = a·b / (‖a‖ ‖b‖) of two vectors, in float64; 0 when either is zero."""
    u, v = _vector(a), _vector(b)
    if u.shape != v.shape:
        raise ValueError(f"vectors of different sizes: {u.numel()} and {v.numel()}.")
    return float((l2_normalize(u) * l2_normalize(v)).sum())


def _vector(x: np.ndarray | torch.Tensor) -> torch.Tensor:
    if isinstance(x, torch.Tensor):
        return x.detach().double().reshape(-1)
    return torch.from_numpy(np.array(x, dtype=np.float64)).reshape(-1)


def last_hidden(trace: Trace) -> torch.Tensor:
    """The encoder's output (B, S, d) in a trace: the last layer's encoder.{N−1}.ffn.norm (post-LN)."""
    n = 0
    while ffn_name(Stack.ENCODER, n, "norm") in trace:
        n += 1
    if n == 0:
        raise ValueError("this trace holds no encoder layer.")
    return trace[ffn_name(Stack.ENCODER, n - 1, "norm")]


def sentence_embedding(trace: Trace, keep: torch.Tensor | None = None) -> np.ndarray:
    """The sentence embeddings of a traced run: normalize(mean_pool(last hidden)), (B, d) float32; row 0 is the one
    sentence of a run from the app."""
    pooled = l2_normalize(mean_pool(last_hidden(trace).float(), keep))
    return pooled.detach().numpy().astype(np.float32)
