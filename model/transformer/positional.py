"""Positional encodings: the sinusoidal table of the 2017 paper, a learned table, or none."""

from __future__ import annotations

import math

import torch
from torch import nn


def sinusoidal_at(positions, d_model: int) -> torch.Tensor:
    """(n, d_model) float32: the 2017 encoding at any `positions` (a sequence of numbers, whole or not):
    PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(same). At whole positions these are the rows the
    model adds; between them, the smooth curves those rows are samples of (what a figure draws as a line)."""
    if d_model % 2:
        raise ValueError(f"the sinusoidal table pairs sines and cosines, so d_model must be even; got {d_model}.")
    position = torch.as_tensor(positions, dtype=torch.float64).reshape(-1, 1)  # (n, 1)
    inv_freq = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(10000.0) / d_model))
    angles = position * inv_freq  # (n, d/2)
    table = torch.empty(position.shape[0], d_model, dtype=torch.float64)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table.float()


def sinusoidal_table(length: int, d_model: int) -> torch.Tensor:
    """(length, d_model) float32: sinusoidal_at the whole positions 0 … length − 1."""
    return sinusoidal_at(torch.arange(length, dtype=torch.float64), d_model)


def sinusoidal_curve(length: int, d_model: int, per_position: int = 12) -> tuple[torch.Tensor, torch.Tensor]:
    """The encoding between the whole positions 0 … length − 1, `per_position` samples apart from one to the next:
    (positions (n,), values (n, d_model)), both float32. Every per_position-th row is the table's row at that whole
    position, exactly (the positions are i / per_position, computed in float64)."""
    positions = torch.arange((length - 1) * per_position + 1, dtype=torch.float64) / per_position
    return positions.float(), sinusoidal_at(positions, d_model)


class PositionalEncoding(nn.Module):
    """Returns the (L, d) table to add to the embeddings for a sequence of length L."""

    def __init__(self, kind: str, max_len: int, d_model: int):
        super().__init__()
        self.kind = kind
        self.max_len = max_len
        if kind == "sinusoidal":
            self.register_buffer("table", sinusoidal_table(max_len, d_model), persistent=False)
        elif kind == "learned":
            self.table = nn.Parameter(torch.randn(max_len, d_model) * 0.5)
        else:
            self.register_buffer("table", torch.zeros(max_len, d_model), persistent=False)

    def forward(self, length: int) -> torch.Tensor:
        if length > self.max_len:
            raise ValueError(f"sequence of {length} positions is longer than this model's limit of {self.max_len}.")
        return self.table[:length]  # (L, d)
