"""Do learned positions resemble sinusoids? The position tables compared: each table's position × position cosine
similarity, how similarity falls with the distance between positions, and how alike the two similarity matrices are.

table (L, d): one row per position (sinusoidal: model.transformer.positional.sinusoidal_table; learned: a model's
trained rows: MiniLM's or a GPT's, learned_positions). Pure NumPy.
"""

from __future__ import annotations

import numpy as np

from ..bert.model import BertEncoder
from ..gpt.model import GPT


def learned_positions(model: BertEncoder | GPT, n: int) -> np.ndarray:
    """The first n rows of a model's learned position table (a BERT-family model's embeddings.position weight, a
    GPT's wpe): (n, d)."""
    table = model.wpe.weight if isinstance(model, GPT) else model.embeddings.position.weight  # (max_positions, d)
    if not 1 <= n <= table.shape[0]:
        raise ValueError(f"n must be 1 to {table.shape[0]}, got {n}.")
    return table[:n].detach().float().numpy().copy()


def cosine_matrix(table: np.ndarray) -> np.ndarray:
    """cos(row i, row j) for every pair of rows: (L, d) → (L, L) float32 in [−1, 1] (a zero row: 0)."""
    t = np.asarray(table, dtype=np.float64)
    norms = np.linalg.norm(t, axis=1, keepdims=True)
    unit = np.divide(t, norms, out=np.zeros_like(t), where=norms > 0)
    return (unit @ unit.T).astype(np.float32)


def similarity_by_distance(similarity: np.ndarray) -> np.ndarray:
    """The mean of an (L, L) similarity matrix along each diagonal: entry k is the mean over i of sim(i, i + k),
    k = 0 … L − 1 (how alike two positions k apart are, on average)."""
    s = np.asarray(similarity, dtype=np.float64)
    return np.array([np.diagonal(s, offset=k).mean() for k in range(s.shape[0])], dtype=np.float32)


def matrix_correlation(a: np.ndarray, b: np.ndarray) -> float:
    """Pearson correlation of two (L, L) similarity matrices over their off-diagonal cells (1: the same pattern)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    if a.shape != b.shape or a.ndim != 2 or a.shape[0] < 3:
        raise ValueError("two square matrices of the same size, at least 3 × 3, are needed.")
    off = ~np.eye(a.shape[0], dtype=bool)
    x, y = a[off] - a[off].mean(), b[off] - b[off].mean()
    denom = np.sqrt((x * x).sum() * (y * y).sum())
    return float((x * y).sum() / denom) if denom > 0 else 0.0
