"""Causal self-attention: our MultiHeadAttention, each position looking at itself and the positions before it.

GPT-2's c_attn is a Conv1D whose weight, transposed, is [W_Q; W_K; W_V]: MultiHeadAttention's in_proj_weight, so the
same parameters hold either. With a KVCache the new positions' keys and values join the cached ones, and only the
new rows of the attention are computed: query t (t counted from the cache's start) sees keys 0..t.
"""

from __future__ import annotations

import torch

from ..ablation import NO_ABLATION, Ablation
from ..transformer.layers import MultiHeadAttention, Record
from .cache import KVCache


def causal_rows(start: int, new: int, device: torch.device | None = None) -> torch.Tensor:
    """(new, start + new) bool: query start + r may attend keys 0..start + r (the causal mask's last `new` rows)."""
    keys = torch.arange(start + new, device=device)  # (Lk,)
    queries = torch.arange(start, start + new, device=device)  # (Lq,)
    return keys[None, :] <= queries[:, None]  # (Lq, Lk)


def padding_mask(keep: torch.Tensor, mask: torch.Tensor | None) -> torch.Tensor:
    """(B, 1, T, T) bool: `mask` (T, T) or all-True, with each padded key hidden from the other queries (keep (B, T)
    False there); every position keeps its own key, so no row is empty."""
    own = torch.eye(keep.shape[1], dtype=torch.bool, device=keep.device)  # (T, T)
    allowed = keep[:, None, None, :] | own  # (B, 1, T, T)
    return allowed if mask is None else allowed & mask


class CausalSelfAttention(MultiHeadAttention):
    """Masked multi-head self-attention of a decoder-only model, with an optional key/value cache."""

    def forward_causal(
        self,
        x: torch.Tensor,  # (B, T_new, d): the normed input of the new positions
        trace: Record = None,
        name: str = "attn",
        ablation: Ablation = NO_ABLATION,
        cache: KVCache | None = None,
        layer: int = 0,
        keep: torch.Tensor | None = None,  # (B, T) bool, False at padding: no query attends a padded key
    ) -> torch.Tensor:
        """(B, T_new, d). Without a cache every position is new; with one, K and V cover the cached positions too.
        With `keep` (a padded batch, no cache) a padded position's key is hidden from every other query; it still sees
        itself, so its own row is never empty (its output is never read)."""
        q, k, v = self.project(x, None)  # (B, H, T_new, dk)
        start = 0 if cache is None else cache.length
        if cache is not None:
            k, v = cache.extend(layer, k, v)  # (B, H, start + T_new, dk)
        new = q.shape[2]
        mask, is_causal = None, False  # ablation.causal off: every position sees every other
        if ablation.causal:
            if trace is None and start == 0:
                is_causal = True  # the fused kernel builds the square causal mask itself
            elif trace is not None or new > 1:
                mask = causal_rows(start, new, x.device)  # (T_new, start + T_new); a trace shows it as −inf
            # else: one new row after the cache sees every key, nothing to hide
        if keep is not None:
            causal = causal_rows(start, new, x.device) if ablation.causal else None  # (T, T)
            mask, is_causal = padding_mask(keep, causal), False  # (B, 1, T, T)
        return self.attend(q, k, v, mask, trace, name, ablation, is_causal=is_causal)
