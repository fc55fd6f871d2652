"""One GPT-2 block: pre-LN causal self-attention, then a pre-LN GELU MLP, each added to the residual stream.

    a = x + Attn(LN₁(x))          decoder.{i}.self_attn.norm = LN₁(x), .resid = a
    y = a + MLP(LN₂(a))           decoder.{i}.ffn.norm = LN₂(a), .hidden = GELU_tanh(LN₂(a) W₁ + b₁), .resid = y

An attention-only block (config.mlp False, the two-layer models of the induction-head papers) stops at a: it has no
LN₂ and no MLP, and its trace no decoder.{i}.ffn.* rows.

Built from our Transformer's parts (Sublayer with placement "pre", FeedForward with GPT-2's activation), under
DecoderLayer's attribute names (self_attn, self_block.norm, ffn.linear1 / linear2, ffn_block.norm), so code that
opens a decoder block of ours opens this one. GPT-2's names map onto them: ln_1 → self_block.norm, attn.c_attn →
self_attn.in_proj (weight transposed), attn.c_proj → self_attn.out_proj, ln_2 → ffn_block.norm, mlp.c_fc →
ffn.linear1, mlp.c_proj → ffn.linear2.
"""

from __future__ import annotations

import torch
from torch import nn

from ..ablation import NO_ABLATION, Ablation
from ..naming import FFN, SELF_ATTN, Stack, layer_name, part_name
from ..transformer.layers import FeedForward, Record, Sublayer
from .attention import CausalSelfAttention
from .cache import KVCache
from .config import GPTConfig


class GPTBlock(nn.Module):
    """Causal self-attention and the MLP, each wrapped in a pre-LN Sublayer (residual around a normed input)."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        d, eps, p = config.d_model, config.layer_norm_eps, config.dropout
        self.self_attn = CausalSelfAttention(d, config.n_heads, p)
        self.self_block = Sublayer(d, "pre", p, eps=eps)
        self.ffn: FeedForward | None = None
        self.ffn_block: Sublayer | None = None
        if config.mlp:
            self.ffn = FeedForward(d, config.d_ff, p, activation=config.activation)
            self.ffn_block = Sublayer(d, "pre", p, eps=eps)

    def forward(
        self,
        x: torch.Tensor,  # (B, T_new, d): the residual stream at the new positions
        trace: Record = None,
        layer: int = 0,
        ablation: Ablation = NO_ABLATION,
        cache: KVCache | None = None,
        keep: torch.Tensor | None = None,  # (B, T) bool, False at padding (a padded batch, no cache)
    ) -> torch.Tensor:
        name = layer_name(Stack.DECODER, layer)
        a, f = part_name(name, SELF_ATTN), part_name(name, FFN)
        attend = lambda h: self.self_attn.forward_causal(h, trace, a, ablation, cache, layer, keep)
        x = self.self_block(x, attend, trace, a)
        ffn = self.ffn
        if ffn is None or self.ffn_block is None:
            return x  # (B, T_new, d): attention-only
        return self.ffn_block(x, lambda h: ffn(h, trace, f), trace, f)  # (B, T_new, d)
