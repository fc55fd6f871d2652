"""KVCache: the keys and values a GPT already computed, so generation feeds one new token at a time.

A causal model's keys and values at position t never change once computed (position t sees only ≤ t), so a step
that appends one token needs only that token's query, key and value; the earlier rows come from here. Each layer's
buffer is allocated once, for the whole context, and written in place: a step allocates no new cache tensors.
"""

from __future__ import annotations

import torch

from .config import GPTConfig


class KVCache:
    """Per layer, K and V of the positions fed so far: (B, H, length, dk) views of (B, H, max_len, dk) buffers.

    One cache belongs to one generation (one thread); never share it, and never keep it on the model.
    """

    def __init__(self, config: GPTConfig):
        self.config = config
        self.length = 0  # positions already cached, the next token's position
        self._k: list[torch.Tensor] = []  # per layer (B, H, max_len, dk), allocated on the first step
        self._v: list[torch.Tensor] = []

    @property
    def room(self) -> int:
        """Positions left before the context (max_len) is full."""
        return self.config.max_len - self.length

    def extend(self, layer: int, k: torch.Tensor, v: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Write the new positions' k, v (B, H, T_new, dk) of one layer after the cached ones; return that layer's
        K, V over every position so far (B, H, length + T_new, dk). The length moves on in advance()."""
        new = k.shape[2]
        if new > self.room:
            raise ValueError(f"{new} new positions do not fit: {self.length} of {self.config.max_len} are cached.")
        if layer == len(self._k):  # first use of this layer: one buffer for the whole context
            B, H, _, dk = k.shape
            self._k.append(k.new_empty(B, H, self.config.max_len, dk))
            self._v.append(v.new_empty(B, H, self.config.max_len, dk))
        end = self.length + new
        self._k[layer][:, :, self.length : end] = k
        self._v[layer][:, :, self.length : end] = v
        return self._k[layer][:, :, :end], self._v[layer][:, :, :end]

    def advance(self, new: int) -> None:
        """Every layer has written `new` positions: they count as cached from now on."""
        self.length += new

    def keys(self, layer: int) -> torch.Tensor:
        """The cached keys of a layer, (B, H, length, dk)."""
        return self._k[layer][:, :, : self.length]

    def values(self, layer: int) -> torch.Tensor:
        """The cached values of a layer, (B, H, length, dk)."""
        return self._v[layer][:, :, : self.length]

    def __len__(self) -> int:
        return self.length
