"""GPT: a decoder-only Transformer in the GPT-2 layout, with a traced forward and a key/value cache.

    ids (B, T) ─ wte + wpe ─▶ tgt.input (B, T, d) ─ N × GPTBlock ─▶ ln_f ─▶ decoder.final_norm ─ @ wteᵀ ─▶ logits

Token embedding wte and learned positions wpe are added (no scaling, no embedding LayerNorm), N pre-LN blocks of causal
self-attention and a GELU MLP follow (model/gpt/block.py), a final LayerNorm ln_f ends the stack, and the LM head is
wte itself (tied), so logits = ln_f(x) @ wteᵀ, with no bias; config.tied False gives it a head of its own, lm_head
(the induction run's small model: tied, it learns to copy far more slowly). Initialised as GPT-2 and nanoGPT do:
every weight N(0, 0.02), biases 0, and the two projections that write into the residual stream (attention's Wᴼ, the
MLP's second layer) N(0, 0.02 / √(2·n_layers)), so the stream's size does not grow with depth.
"""

from __future__ import annotations

import math
from typing import Literal, overload

import torch
import torch.nn.functional as F
from torch import nn

from ..ablation import NO_ABLATION, Ablation
from ..forward_checks import new_record
from ..naming import LOGITS, Side, Stack, embed_name, final_norm_name, input_name, pos_name
from ..trace import Deferred, Trace
from ..transformer.layers import Record
from .block import GPTBlock
from .cache import KVCache
from .config import GPTConfig

INIT_STD = 0.02  # GPT-2's initializer_range


class GPT(nn.Module):
    """Token + learned position embeddings → N pre-LN causal blocks → ln_f → tied LM head."""

    def __init__(self, config: GPTConfig):
        super().__init__()
        c = self.config = config
        self.wte = nn.Embedding(c.vocab_size, c.d_model)  # (V, d), also the LM head
        self.wpe = nn.Embedding(c.max_len, c.d_model)  # (max_len, d): row p is position p
        self.embed_dropout = nn.Dropout(c.dropout)
        self.decoder = nn.ModuleList(GPTBlock(c) for _ in range(c.n_layers))
        self.ln_f = nn.LayerNorm(c.d_model, eps=c.layer_norm_eps)
        self.lm_head = None if c.tied else nn.Linear(c.d_model, c.vocab_size, bias=False)  # (V, d) when untied
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """GPT-2's initialisation: N(0, 0.02) weights, zero biases, residual projections ÷ √(2·n_layers)."""
        for module in self.modules():
            if isinstance(module, nn.Linear | nn.Embedding):
                nn.init.normal_(module.weight, std=INIT_STD)
            if isinstance(module, nn.Linear) and module.bias is not None:
                nn.init.zeros_(module.bias)
            if isinstance(module, nn.LayerNorm):
                nn.init.ones_(module.weight)
                nn.init.zeros_(module.bias)
        residual_std = INIT_STD / math.sqrt(2 * self.config.n_layers)
        for block in self.blocks:
            nn.init.normal_(block.self_attn.in_proj_weight, std=INIT_STD)
            nn.init.zeros_(block.self_attn.in_proj_bias)
            nn.init.normal_(block.self_attn.out_proj.weight, std=residual_std)
            if block.ffn is not None:
                nn.init.normal_(block.ffn.linear2.weight, std=residual_std)

    @property
    def blocks(self) -> list[GPTBlock]:
        """The blocks, typed (nn.ModuleList holds any nn.Module)."""
        return [block for block in self.decoder if isinstance(block, GPTBlock)]

    @property
    def head_weight(self) -> torch.Tensor:
        """(V, d): the LM head's weight, wte's own (tied) or lm_head's."""
        return self.wte.weight if self.lm_head is None else self.lm_head.weight

    def unembed(self, x: torch.Tensor) -> torch.Tensor:
        """Logits of a residual stream: ln_f(x) @ headᵀ, (..., d) → (..., V). The logit lens reads any layer so."""
        return F.linear(self.ln_f(x), self.head_weight)

    def _check(self, ids: torch.Tensor, start: int) -> None:
        if ids.dim() != 2 or ids.shape[1] == 0:
            raise ValueError(f"ids must have shape (batch, length) with at least one token, got {tuple(ids.shape)}.")
        if start + ids.shape[1] > self.config.max_len:
            raise ValueError(
                f"{start} cached + {ids.shape[1]} new tokens exceed this model's context of {self.config.max_len}."
            )
        low, high = int(ids.min()), int(ids.max())
        if low < 0 or high >= self.config.vocab_size:
            raise ValueError(f"token ids must be in 0..{self.config.vocab_size - 1}, got {low}..{high}.")

    @overload
    def forward(
        self,
        ids: torch.Tensor,
        *,
        record: Literal[False] = ...,
        ablation: Ablation = ...,
        cache: KVCache | None = ...,
        keep: torch.Tensor | None = ...,
        last_only: bool = ...,
    ) -> torch.Tensor: ...

    @overload
    def forward(
        self,
        ids: torch.Tensor,
        *,
        record: Literal[True],
        ablation: Ablation = ...,
        cache: KVCache | None = ...,
        keep: torch.Tensor | None = ...,
        last_only: bool = ...,
    ) -> tuple[torch.Tensor, Trace]: ...

    def forward(
        self,
        ids: torch.Tensor,  # (B, T): the new tokens (all of them without a cache)
        *,
        record: bool = False,
        ablation: Ablation = NO_ABLATION,
        cache: KVCache | None = None,  # keys and values of the earlier tokens; extended in place
        keep: torch.Tensor | None = None,  # (B, T) bool, False at padding: a padded batch (no cache)
        last_only: bool = False,  # the head at the last position only; a trace's logits computed when first read
    ) -> torch.Tensor | tuple[torch.Tensor, Trace]:
        """Logits (B, T, V) of the token after each position (last_only: (B, 1, V), the last position's); with
        record=True, (logits, Trace). With a cache, the
        ids continue the cached positions and the trace's attention rows are the new positions' (B, H, T, start + T)."""
        start = 0 if cache is None else cache.length
        self._check(ids, start)
        if keep is not None and (cache is not None or keep.shape != ids.shape):
            raise ValueError(f"keep must have the shape of ids {tuple(ids.shape)}, and a padded batch takes no cache.")
        if start and not ablation.causal:
            raise ValueError("without the causal mask earlier keys and values depend on later tokens: no KV cache.")
        trace: Record = new_record(self, record)
        T = ids.shape[1]
        embed = self.wte(ids)  # (B, T, d)
        pos = self.wpe.weight[start : start + T]  # (T, d): the position rows used
        if not ablation.positional:
            pos = torch.zeros_like(pos)
        x = embed + pos  # (B, T, d): the residual stream before block 0
        if trace is not None:
            tgt = Side.TGT
            trace.update({embed_name(tgt): embed, pos_name(tgt): pos.detach(), input_name(tgt): x})
        x = self.embed_dropout(x)
        for i, block in enumerate(self.decoder):
            x = block(x, trace, i, ablation, cache, keep)
        if cache is not None:
            cache.advance(T)
        final = self.ln_f(x)  # (B, T, d)
        positions = final[:, -1:] if last_only else final  # the head at the last position only, or at each
        logits = F.linear(positions, self.head_weight)  # (B, T or 1, V): the head, wte unless config.tied is False
        if trace is None:
            return logits
        trace[final_norm_name(Stack.DECODER)] = final
        entries: dict[str, torch.Tensor | Deferred] = dict(trace)
        entries[LOGITS] = self._deferred_logits(final) if last_only else logits  # (B, T, V) either way
        return logits, Trace(entries)

    def _deferred_logits(self, final: torch.Tensor) -> Deferred:
        """The trace's logits (B, T, V) from the final norm, computed when first read (never with autograd: the
        trace's tensors may be inference tensors, and a page reads it long after the forward)."""
        weight = self.head_weight

        def compute() -> torch.Tensor:
            with torch.no_grad():
                return F.linear(final, weight)

        return Deferred(compute, final.shape[0] * final.shape[1] * weight.shape[0] * final.element_size())
