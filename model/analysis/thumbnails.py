"""Thumbnails of many attention heads: each head's (Lq, Lk) weights pooled into blocks of consecutive tokens, so a grid
of 72 heads (MiniLM's 6 × 12) or of 128-token inputs stays a few thousand cells to draw.

A thumbnail cell is the attention a block of queries gives a block of keys: the mean over the block's query rows of
the sum over the block's keys. Each thumbnail row still sums to 1 (what a typical query of the block gives each block
of keys), so the colour scale of a weight still applies. A head switched off (NaN) stays NaN.
"""

from __future__ import annotations

import math

import numpy as np

DEFAULT_BUDGET = 6_000  # cells of the whole grid: MiniLM's 72 heads at 64 tokens pool into 8 × 8 blocks of 8


def block_size(n_blocks: int, n_heads: int, n_queries: int, n_keys: int, budget: int = DEFAULT_BUDGET) -> int:
    """The fewest tokens per block (1: no pooling) for which n_blocks × n_heads pooled tiles fit in `budget` cells."""
    if min(n_blocks, n_heads, n_queries, n_keys) < 1:
        raise ValueError("a grid of heads needs at least one block, head, query and key.")
    size = 1
    while n_blocks * n_heads * math.ceil(n_queries / size) * math.ceil(n_keys / size) > budget:
        size += 1
    return size


def token_blocks(n: int, size: int) -> list[tuple[int, int]]:
    """[start, stop) of each block of `size` consecutive tokens out of n (the last one may be shorter)."""
    if n < 1 or size < 1:
        raise ValueError("token_blocks needs n >= 1 and size >= 1.")
    return [(start, min(start + size, n)) for start in range(0, n, size)]


def pool_heads(weights: np.ndarray, size: int) -> np.ndarray:
    """(…, Lq, Lk) weights → (…, ⌈Lq/size⌉, ⌈Lk/size⌉): mean over each block of queries of the sum over each block
    of keys (size 1 returns the weights as float32)."""
    w = np.asarray(weights, dtype=np.float64)
    if size == 1:
        return w.astype(np.float32)
    n_q, n_k = w.shape[-2:]
    rows = token_blocks(n_q, size)
    cols = token_blocks(n_k, size)
    summed = np.stack([w[..., a:b].sum(-1) for a, b in cols], axis=-1)  # (…, Lq, Bk)
    return np.stack([summed[..., a:b, :].mean(-2) for a, b in rows], axis=-2).astype(np.float32)  # (…, Bq, Bk)


def block_labels(tokens: list[str], size: int, max_chars: int = 0) -> list[str]:
    """A label per block of `size` tokens: its positions ("4–7"), with its tokens cut to max_chars when max_chars > 0
    ("4–7 · play ##ing in the"); the tokens themselves when size is 1. (Positions alone keep a grid's per-cell hover
    text short: it is sent for every cell.)"""
    if size == 1:
        return list(tokens)
    labels = []
    for a, b in token_blocks(len(tokens), size):
        words = " ".join(tokens[a:b])
        words = words if len(words) <= max_chars else words[: max_chars - 1] + "…"
        labels.append(f"{a}–{b - 1} · {words}" if max_chars > 0 else f"{a}–{b - 1}")
    return labels
