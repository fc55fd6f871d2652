"""Positional encodings: the sinusoidal table of the 2017 paper, a learned table, or none."""

from __future__ import annotations

import math

import torch
from torch import nn


def sinusoidal_table(length: int, d_model: int) -> torch.Tensor:
    """(length, d_model) float32: PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(same)."""
    if d_model % 2:
        raise ValueError(f"the sinusoidal table pairs sines and cosines, so d_model must be even; got {d_model}.")
    position = torch.arange(length, dtype=torch.float64)[:, None]  # (L, 1)
    inv_freq = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float64) * (-math.log(10000.0) / d_model))
    angles = position * inv_freq  # (L, d/2)
    table = torch.empty(length, d_model, dtype=torch.float64)
    table[:, 0::2] = torch.sin(angles)
    table[:, 1::2] = torch.cos(angles)
    return table.float()


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
