"""The arithmetic behind the step-by-step walkthrough, on a user's own small matrices.

Everything goes through `model.attention`, the function the model itself uses, so the numbers in
the walkthrough's formulas are computed exactly as the model computes its own. Arrays come back as
float64 NumPy so the page can print them; nothing here knows about Streamlit.
"""

from __future__ import annotations

from typing import Literal, NamedTuple, overload

import numpy as np
import torch
import torch.nn.functional as F

from ..memo import BoundedCache, kept
from ..transformer.attention import attention, causal_mask

# Attention-level arrays carry a head axis first: (H, L, ...). Head-independent ones do not.
PER_HEAD = ("Q", "K", "V", "scores", "scaled", "masked", "weights", "heads")
MASK_KINDS = ("none", "causal", "padding", "custom")
EXAMPLES_KEPT = 64  # worked examples kept per process (a few kB each)
_EXAMPLES = BoundedCache(EXAMPLES_KEPT)
MAX_ABS_INPUT = 1e6  # |x| above this could overflow QKᵀ in float64 (d · (d·1e154)² > 1.8e308)


def _t(a) -> torch.Tensor:
    return torch.as_tensor(np.asarray(a, dtype=np.float64))


def _split_heads(x: torch.Tensor, n_heads: int) -> torch.Tensor:
    L, width = x.shape
    return x.view(L, n_heads, width // n_heads).transpose(0, 1)  # (H, L, dk)


def _read_only(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    for array in arrays.values():
        array.flags.writeable = False
    return arrays


# kept per process for equal values (a class's followers walk the teacher's example): a new dict each call, of
# read-only arrays that every caller shares
@kept(_EXAMPLES, keep=_read_only, give=dict)
def worked_example(
    X,
    W_Q,
    W_K,
    W_V,
    W_O,
    n_heads: int,
    mask=None,
    temperature: float = 1.0,
    scale: bool = True,
) -> dict[str, np.ndarray]:
    """Multi-head self-attention on a hand-made example, every intermediate returned.

    X: (L, d); W_Q, W_K, W_V: (d, d), head i using columns i·dk:(i+1)·dk; W_O: (d, d).
    mask: bool (L, L), True where a query may attend, or None. Q = X W_Q (no bias, as in the paper),
    then `attention` per head, concat, out = concat W_O, resid = X + out, norm = LayerNorm(resid)
    (γ = 1, β = 0).
    """
    x, wq, wk, wv, wo = (_t(a) for a in (X, W_Q, W_K, W_V, W_O))
    d = x.shape[1]
    if d % n_heads:
        raise ValueError(f"d_model ({d}) must be divisible by the number of heads ({n_heads}).")
    q, k, v = (_split_heads(x @ w, n_heads) for w in (wq, wk, wv))  # (H, L, dk)
    mask_t = None if mask is None else torch.tensor(np.asarray(mask, dtype=bool))
    res = attention(q, k, v, mask_t, temperature=temperature, scale=scale)
    H, L, dk = res.out.shape
    concat = res.out.transpose(0, 1).reshape(L, H * dk)  # (L, d)
    out = concat @ wo  # (L, d)
    resid = x + out
    norm = F.layer_norm(resid, (d,))
    arrays = {
        "X": x, "M": x, "W_Q": wq, "W_K": wk, "W_V": wv, "W_O": wo,
        "b_Q": torch.zeros(d, dtype=torch.float64), "b_K": torch.zeros(d, dtype=torch.float64),
        "b_V": torch.zeros(d, dtype=torch.float64), "b_O": torch.zeros(d, dtype=torch.float64),
        "Q": q, "K": k, "V": v, "scores": res.scores, "scaled": res.scaled, "masked": res.masked,
        "weights": res.weights, "heads": res.out, "concat": concat, "out": out, "R": x,
        "resid": resid, "norm": norm,
        "ln_gamma": torch.ones(d, dtype=torch.float64), "ln_beta": torch.zeros(d, dtype=torch.float64),
    }  # fmt: skip
    return {name: t.numpy() for name, t in arrays.items()} | {"ln_eps": np.asarray(1e-5, dtype=np.float64)}


def select_head(full: dict[str, np.ndarray], head: int) -> dict[str, np.ndarray]:
    """One head's view: per-head arrays sliced to `head`, W_Q/W_K/W_V/b_* to its columns.

    Keeps `heads` (all heads' outputs), concat, W_O and out whole: they belong to the multi-head step.
    """
    n_heads = full["heads"].shape[0]
    dk = full["W_Q"].shape[1] // n_heads
    cols = slice(head * dk, (head + 1) * dk)
    view = dict(full)
    for name in PER_HEAD:
        if name != "heads":
            view[name] = full[name][head]
    for name in ("W_Q", "W_K", "W_V"):
        view[name] = full[name][:, cols]
    for name in ("b_Q", "b_K", "b_V"):
        view[name] = full[name][cols]
    view["Z"] = full["heads"][head]
    return view


@overload
def build_mask(
    kind: Literal["causal", "padding", "custom"], n_queries: int, n_keys: int, n_padding: int = 1, custom=None
) -> np.ndarray: ...
@overload
def build_mask(kind: str, n_queries: int, n_keys: int, n_padding: int = 1, custom=None) -> np.ndarray | None: ...
def build_mask(kind: str, n_queries: int, n_keys: int, n_padding: int = 1, custom=None) -> np.ndarray | None:
    """bool (Lq, Lk), True = may attend: none → None, causal, padding (the last n_padding keys are
    padding), or a user's custom grid."""
    if kind == "none":
        return None
    if kind == "causal":
        return causal_mask(max(n_queries, n_keys)).numpy()[:n_queries, :n_keys]
    if kind == "padding":
        keep = np.ones((n_queries, n_keys), dtype=bool)
        keep[:, n_keys - min(max(n_padding, 0), n_keys) :] = False
        return keep
    if kind == "custom":
        grid = np.asarray(custom, dtype=bool)
        if grid.shape != (n_queries, n_keys):
            raise ValueError(f"custom mask must have shape ({n_queries}, {n_keys}), got {grid.shape}.")
        return grid
    raise ValueError(f"mask kind must be one of {MASK_KINDS}, got {kind!r}.")


class SoftmaxSteps(NamedTuple):
    """softmax(s) the numerically stable way: e^(s − max s) / Σ e^(s − max s)."""

    row: np.ndarray  # the (scaled, masked) scores; −inf where masked
    max: float  # max over the allowed entries
    shifted: np.ndarray  # row − max: every entry ≤ 0, so exp never overflows
    exps: np.ndarray  # e^shifted, each in (0, 1]; exactly 0 where masked
    total: float  # Σ exps (≥ 1: the max contributes e^0 = 1)
    weights: np.ndarray  # exps / total; sums to 1
    weights_sum: float  # Σ weights: 1 (0 for a fully masked row)


def softmax_steps(row) -> SoftmaxSteps:
    """The intermediate numbers of one softmax row. A fully masked row gives all-zero weights,
    as `attention` does."""
    s = np.asarray(row, dtype=np.float64)
    allowed = np.isfinite(s)
    if not allowed.any():
        zeros = np.zeros_like(s)
        return SoftmaxSteps(s, float("-inf"), np.full_like(s, -np.inf), zeros, 0.0, zeros, 0.0)
    top = float(s[allowed].max())
    shifted = s - top
    exps = np.exp(shifted)  # e^−inf = 0 for masked keys
    total = float(exps.sum())
    weights = exps / total
    return SoftmaxSteps(s, top, shifted, exps, total, weights, float(weights.sum()))


def contributions(weights_row, V) -> np.ndarray:
    """(Lk, dv): α_ij · v_j for one query row i; the rows add up to z_i."""
    return np.asarray(weights_row, dtype=np.float64)[:, None] * np.asarray(V, dtype=np.float64)


class LayerNormSteps(NamedTuple):
    mean: float
    var: float
    normalized: np.ndarray  # (x − μ) / √(σ² + ε)
    out: np.ndarray  # γ ⊙ normalized + β


def layer_norm_steps(row, gamma, beta, eps: float = 1e-5) -> LayerNormSteps:
    """LayerNorm of one position, with its mean and (biased) variance, as nn.LayerNorm does it."""
    x = np.asarray(row, dtype=np.float64)
    mean, var = float(x.mean()), float(x.var())
    normalized = (x - mean) / np.sqrt(var + eps)
    return LayerNormSteps(mean, var, normalized, np.asarray(gamma) * normalized + np.asarray(beta))


def scaling_demo(d_ks=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512), n_keys: int = 8, n_samples: int = 2000, seed: int = 0):
    """Why divide by √d_k: for q, k with independent N(0, 1) entries, q·k has std √d_k, so raw
    scores spread out as d_k grows and the softmax saturates on one key. Returns, per d_k, the
    measured std of q·k and the mean largest softmax weight over n_keys keys with and without scaling.
    """
    gen = torch.Generator().manual_seed(seed)
    dot_std, top_scaled, top_raw = [], [], []
    for d_k in d_ks:
        q = torch.randn(n_samples, 1, d_k, generator=gen, dtype=torch.float64)
        k = torch.randn(n_samples, n_keys, d_k, generator=gen, dtype=torch.float64)
        v = torch.zeros(n_samples, n_keys, 1, dtype=torch.float64)
        scaled = attention(q, k, v, scale=True)
        raw = attention(q, k, v, scale=False)
        dot_std.append(float(raw.scores.std()))
        top_scaled.append(float(scaled.weights.max(dim=-1).values.mean()))
        top_raw.append(float(raw.weights.max(dim=-1).values.mean()))
    return {
        "d_k": np.asarray(d_ks),
        "dot_std": np.asarray(dot_std),
        "max_weight_scaled": np.asarray(top_scaled),
        "max_weight_unscaled": np.asarray(top_raw),
    }


DEFAULT_TOKENS = ("the", "cat", "sat", "down")


def default_example(d_model: int = 4) -> dict[str, np.ndarray]:
    """Round numbers a class can follow by hand (d_model 4 or 6, two heads)."""
    rng = np.random.default_rng(2017 + d_model)
    X = rng.integers(-1, 3, size=(4, d_model)).astype(np.float64)
    weights = {n: np.round(rng.uniform(-1, 1, size=(d_model, d_model)), 1) for n in ("W_Q", "W_K", "W_V", "W_O")}
    return {"X": X, **weights}


def random_example(d_model: int, seed: int) -> dict[str, np.ndarray]:
    """A fresh example: X ~ N(0, 1), weights ~ N(0, 1/d), one decimal each, reproducible from seed."""
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(0, 1, size=(4, d_model)), 1)
    std = 1 / np.sqrt(d_model)
    weights = {n: np.round(rng.normal(0, std, size=(d_model, d_model)), 1) for n in ("W_Q", "W_K", "W_V", "W_O")}
    return {"X": X, **weights}
