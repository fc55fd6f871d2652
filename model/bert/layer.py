"""One BERT layer, built from our Transformer's own parts so the pages read it like an encoder layer of ours.

BERT's layer is the 2017 post-LN encoder layer with GELU in the feed-forward block:
    a = LayerNorm(x + MultiHead(x, x, x) Wᴼ)        (attention.output.LayerNorm)
    y = LayerNorm(a + GELU(a W₁ + b₁) W₂ + b₂)      (output.LayerNorm)
so it reuses MultiHeadAttention (the paper's equation 1 through model/transformer/attention.py's attention()),
Sublayer (residual + LayerNorm, with BERT's eps) and FeedForward (activation="gelu"). The attribute names are our
EncoderLayer's (self_attn, attn_block.norm, ffn.linear1/linear2, ffn_block.norm), so model/teach/inspect.py reads
W_Q, W_K, W_V, Wᴼ and the LayerNorms of MiniLM the way it reads our own models'. model/bert/weights.py maps
Hugging Face's names (attention.self.query, …) onto these.
"""

from __future__ import annotations

import torch
from torch import nn

from ..ablation import NO_ABLATION, Ablation
from ..naming import FFN, SELF_ATTN, Stack, layer_name, part_name
from ..transformer.layers import FeedForward, MultiHeadAttention, Record, Sublayer
from .config import BertConfig


class BertLayer(nn.Module):
    """Self-attention over the sentence, then the GELU feed-forward block, each wrapped in a post-LN Sublayer."""

    def __init__(self, config: BertConfig):
        super().__init__()
        d, eps = config.d_model, config.layer_norm_eps
        self.self_attn = MultiHeadAttention(d, config.n_heads)
        self.attn_block = Sublayer(d, "post", 0.0, eps=eps)
        self.ffn = FeedForward(d, config.d_ff, activation="gelu")
        self.ffn_block = Sublayer(d, "post", 0.0, eps=eps)

    def forward(
        self,
        x: torch.Tensor,  # (B, S, d)
        mask: torch.Tensor | None = None,  # (B, 1, 1, S) bool, True at real tokens; None: nothing padded
        trace: Record = None,
        name: str = layer_name(Stack.ENCODER, 0),
        ablation: Ablation = NO_ABLATION,
    ) -> torch.Tensor:
        a, f = part_name(name, SELF_ATTN), part_name(name, FFN)
        x = self.attn_block(x, lambda h: self.self_attn(h, None, mask, trace, a, ablation), trace, a)
        return self.ffn_block(x, lambda h: self.ffn(h, trace, f), trace, f)  # (B, S, d)
