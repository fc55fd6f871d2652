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


def overview_title(title: str, reading: str, size: int) -> str:
    """The overview's title, then a smaller line on how to read a tile (and how the tiles were pooled when they
    were): plotly never wraps a title, and on a phone one long line ran past the chart."""
    lines = [title, f"<sup>{reading}</sup>"]
    if size > 1:
        lines.append("<sup>" + _("each cell: a block of {n} tokens; the head below shows every token").format(n=size)
                     + "</sup>")  # fmt: skip
    return "<br>".join(lines)
