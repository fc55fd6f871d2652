"""The overview's thumbnails: with many heads or long inputs, each head's tile is pooled into blocks of tokens
(model.analysis.thumbnails) so the grid stays fast to paint; the focused head below always shows every token."""

from __future__ import annotations

import numpy as np

from model.analysis.thumbnails import block_labels, block_size, pool_heads

from ..i18n import _


def thumbnails(
    weights: np.ndarray, queries: list[str], keys: list[str]
) -> tuple[np.ndarray, list[str], list[str], int]:
    """(tiles (L, H, Bq, Bk), their query labels, key labels, tokens per block) of weights (L, H, Lq, Lk)."""
    size = block_size(*weights.shape)
    return pool_heads(weights, size), block_labels(queries, size), block_labels(keys, size), size


def overview_title(title: str, size: int) -> str:
    """The overview's title, with a line saying how the tiles were pooled when they were."""
    if size == 1:
        return title
    note = _("thumbnails: each cell is a block of {n} tokens (what a block of queries gives a block of keys); the "
             "head below shows every token").format(n=size)  # fmt: skip
    return f"{title}<br><sup>{note}</sup>"
