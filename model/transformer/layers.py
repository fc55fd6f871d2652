"""Multi-head attention, the feed-forward block, and the encoder and decoder layers.

Every forward takes an optional `trace` dict and a dotted `name` (model/naming.py): when a dict is given the layer
writes its intermediates into it (no copies, nothing kept on the module, so one model can serve
many threads). Without a dict, attention runs through torch's fused kernel.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
import torch.nn.functional as F
from torch import nn

from ..ablation import NO_ABLATION, Ablation
from ..naming import CROSS_ATTN, FFN, SELF_ATTN, Stack, layer_name, named, part_name
from .attention import attention, scale_factor

Record = dict[str, torch.Tensor] | None


class MultiHeadAttention(nn.Module):
    """MultiHead(Q, K, V) = Concat(head_1..head_h) Wᴼ, head_i = Attention(Q W_Qi, K W_Ki, V W_Vi).

    Parameters are laid out as in torch.nn.MultiheadAttention (in_proj_weight = [W_Q; W_K; W_V]).
    """

    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0):
        super().__init__()
        self.d_model, self.n_heads, self.d_head = d_model, n_heads, d_model // n_heads
        self.dropout = dropout
        self.in_proj_weight = nn.Parameter(torch.empty(3 * d_model, d_model))
        self.in_proj_bias = nn.Parameter(torch.zeros(3 * d_model))
        self.out_proj = nn.Linear(d_model, d_model)
        nn.init.xavier_uniform_(self.in_proj_weight)
        nn.init.zeros_(self.out_proj.bias)

    def _split_heads(self, x: torch.Tensor) -> torch.Tensor:
        B, L, _ = x.shape
        return x.view(B, L, self.n_heads, self.d_head).transpose(1, 2)  # (B, H, L, dk)

    def project(self, query: torch.Tensor, memory: torch.Tensor | None):
        """Q from `query`; K, V from `memory` (or from `query` itself for self-attention)."""
        d = self.d_model
        if memory is None:
            B, L, _ = query.shape
            qkv = F.linear(query, self.in_proj_weight, self.in_proj_bias)  # (B, L, 3d)
            qkv = qkv.view(B, L, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)  # (3, B, H, L, dk)
            return qkv[0], qkv[1], qkv[2]
        q = F.linear(query, self.in_proj_weight[:d], self.in_proj_bias[:d])
        kv = F.linear(memory, self.in_proj_weight[d:], self.in_proj_bias[d:])  # (B, S, 2d)
        B, S, _ = kv.shape
        kv = kv.view(B, S, 2, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)  # (2, B, H, S, dk)
        return self._split_heads(q), kv[0], kv[1]

    def forward(
        self,
        query: torch.Tensor,  # (B, Lq, d)
        memory: torch.Tensor | None,  # (B, Lk, d), or None for self-attention
        mask: torch.Tensor | None,  # bool, broadcastable to (B, H, Lq, Lk), True = may attend
        trace: Record = None,
        name: str = "attn",
        ablation: Ablation = NO_ABLATION,
    ) -> torch.Tensor:
        q, k, v = self.project(query, memory)  # (B, H, L, dk)
        return self.attend(q, k, v, mask, trace, name, ablation)

    def attend(
        self,
        q: torch.Tensor,  # (B, H, Lq, dk)
        k: torch.Tensor,  # (B, H, Lk, dk)
        v: torch.Tensor,  # (B, H, Lk, dk)
        mask: torch.Tensor | None,  # bool, broadcastable to (B, H, Lq, Lk), True = may attend
        trace: Record = None,
        name: str = "attn",
        ablation: Ablation = NO_ABLATION,
        *,
        is_causal: bool = False,  # mask is the plain causal mask (Lq == Lk): the fused kernel builds its own
    ) -> torch.Tensor:
        """The heads' attention over projected q, k, v, then concat @ Wᴼ + b: (B, Lq, d). Fused without a trace,
        the explicit attention() with one (every intermediate written under `name`)."""
        p = self.dropout if self.training else 0.0
        if trace is None:
            divisor = scale_factor(self.d_head, scale=ablation.scale, temperature=ablation.temperature)
            fused_mask = None if is_causal else mask
            head_out = F.scaled_dot_product_attention(
                q, k, v, attn_mask=fused_mask, dropout_p=p, is_causal=is_causal, scale=1.0 / divisor
            )
        else:
            res = attention(q, k, v, mask, temperature=ablation.temperature, scale=ablation.scale, dropout_p=p)
            head_out = res.out  # (B, H, Lq, dk)
        off = ablation.heads_off_in(name) if ablation.heads_off else ()
        if off:
            head_out = head_out.clone()
            head_out[:, off] = 0.0
        B, H, Lq, dk = head_out.shape
        concat = head_out.transpose(1, 2).reshape(B, Lq, H * dk)  # (B, Lq, d)
        out = self.out_proj(concat)
        if trace is not None:
            trace.update(named(
                name, q=q, k=k, v=v, scores=res.scores, scaled=res.scaled, masked=res.masked, weights=res.weights,
                head_out=head_out, concat=concat, out=out,
            ))  # fmt: skip
        return out


def gelu_tanh(x: torch.Tensor) -> torch.Tensor:
    """GELU's tanh approximation, 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))): GPT-2's activation ("gelu_new")."""
    return F.gelu(x, approximate="tanh")


# gelu: the exact erf form, which BERT's config calls "gelu"; gelu_tanh: the approximation GPT-2 was trained with
Activation = Callable[[torch.Tensor], torch.Tensor]
ACTIVATIONS: dict[str, Activation] = {"relu": F.relu, "gelu": F.gelu, "gelu_tanh": gelu_tanh}


class FeedForward(nn.Module):
    """FFN(x) = max(0, x W₁ + b₁) W₂ + b₂, applied to each position alone (the paper's ReLU; BERT-family encoders
    use GELU(x W₁ + b₁) instead: activation="gelu"; GPT-2 its tanh approximation: activation="gelu_tanh")."""

    def __init__(self, d_model: int, d_ff: int, dropout: float = 0.0, activation: str = "relu"):
        super().__init__()
        self.linear1 = nn.Linear(d_model, d_ff)
        self.linear2 = nn.Linear(d_ff, d_model)
        self.dropout = nn.Dropout(dropout)
        self.activation = ACTIVATIONS[activation]

    def forward(self, x: torch.Tensor, trace: Record = None, name: str = "ffn") -> torch.Tensor:
        hidden = self.activation(self.linear1(x))  # (B, L, d_ff)
        out = self.linear2(self.dropout(hidden))  # (B, L, d)
        if trace is not None:
            trace.update(named(name, hidden=hidden, out=out))
        return out


class Sublayer(nn.Module):
    """Residual connection and LayerNorm around one sublayer, post-LN (paper) or pre-LN.

    post: norm = LayerNorm(x + sublayer(x)), the output is `norm`.
    pre:  norm = LayerNorm(x) feeds the sublayer, the output is resid = x + sublayer(norm).
    """

    def __init__(self, d_model: int, placement: str, dropout: float, eps: float = 1e-5):
        super().__init__()
        self.pre = placement == "pre"
        self.norm = nn.LayerNorm(d_model, eps=eps)  # eps: torch's default; BERT's checkpoints use 1e-12
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, sublayer, trace: Record, name: str) -> torch.Tensor:
        if self.pre:
            normed = self.norm(x)
            resid = x + self.dropout(sublayer(normed))
            out = resid
        else:
            resid = x + self.dropout(sublayer(x))
            normed = out = self.norm(resid)
        if trace is not None:
            trace.update(named(name, resid=resid, norm=normed))
        return out


class EncoderLayer(nn.Module):
    """Self-attention over the source, then the feed-forward block; each wrapped in Sublayer."""

    def __init__(self, d_model: int, n_heads: int, d_ff: int, norm: str = "post", dropout: float = 0.0):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.ffn = FeedForward(d_model, d_ff, dropout)
        self.attn_block = Sublayer(d_model, norm, dropout)
        self.ffn_block = Sublayer(d_model, norm, dropout)

    def forward(
        self, x, mask=None,
        trace: Record = None, name: str = layer_name(Stack.ENCODER, 0), ablation: Ablation = NO_ABLATION,
    ):  # fmt: skip
        a, f = part_name(name, SELF_ATTN), part_name(name, FFN)
        x = self.attn_block(x, lambda h: self.self_attn(h, None, mask, trace, a, ablation), trace, a)
        return self.ffn_block(x, lambda h: self.ffn(h, trace, f), trace, f)


class DecoderLayer(nn.Module):
    """Masked self-attention, cross-attention over the encoder output (memory), feed-forward."""

    def __init__(self, d_model: int, n_heads: int, d_ff: int, norm: str = "post", dropout: float = 0.0):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.cross_attn = MultiHeadAttention(d_model, n_heads, dropout)
        self.ffn = FeedForward(d_model, d_ff, dropout)
        self.self_block = Sublayer(d_model, norm, dropout)
        self.cross_block = Sublayer(d_model, norm, dropout)
        self.ffn_block = Sublayer(d_model, norm, dropout)

    def forward(
        self, x, memory, self_mask=None, memory_mask=None,
        trace: Record = None, name: str = layer_name(Stack.DECODER, 0), ablation: Ablation = NO_ABLATION,
    ):  # fmt: skip
        s, c, f = part_name(name, SELF_ATTN), part_name(name, CROSS_ATTN), part_name(name, FFN)
        x = self.self_block(x, lambda h: self.self_attn(h, None, self_mask, trace, s, ablation), trace, s)
        x = self.cross_block(x, lambda h: self.cross_attn(h, memory, memory_mask, trace, c, ablation), trace, c)
        return self.ffn_block(x, lambda h: self.ffn(h, trace, f), trace, f)
