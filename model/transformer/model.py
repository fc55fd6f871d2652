"""Seq2SeqTransformer: the encoder–decoder of "Attention Is All You Need", with a traced forward."""

from __future__ import annotations

import math

import torch
from torch import nn

from ..ablation import NO_ABLATION, Ablation
from ..forward_checks import check_ids, new_record
from ..naming import LOGITS, Side, Stack, embed_name, final_norm_name, input_name, layer_name, pos_name
from ..trace import Trace
from .attention import causal_mask
from .config import ModelConfig
from .layers import DecoderLayer, EncoderLayer, Record
from .positional import PositionalEncoding


class Seq2SeqTransformer(nn.Module):
    """Embeddings + positions → N encoder layers → M decoder layers → vocabulary logits."""

    def __init__(self, config: ModelConfig):
        super().__init__()
        c = self.config = config
        self.src_embed = nn.Embedding(c.src_vocab_size, c.d_model)
        self.tgt_embed = nn.Embedding(c.tgt_vocab_size, c.d_model)
        # N(0, d^-0.5): after the × √d scaling the embeddings have unit size, like the positions.
        # torch's default N(0, 1) × √d would drown the positional signal.
        for emb in (self.src_embed, self.tgt_embed):
            nn.init.normal_(emb.weight, std=c.d_model**-0.5)
        self.positional = PositionalEncoding(c.positional, c.max_len, c.d_model)
        self.embed_dropout = nn.Dropout(c.dropout)
        self.encoder = nn.ModuleList(
            EncoderLayer(c.d_model, c.n_heads, c.d_ff, c.norm, c.dropout) for _ in range(c.n_encoder_layers)
        )
        self.decoder = nn.ModuleList(
            DecoderLayer(c.d_model, c.n_heads, c.d_ff, c.norm, c.dropout) for _ in range(c.n_decoder_layers)
        )
        # Pre-LN stacks end with a LayerNorm (post-LN layers already end with one).
        self.encoder_norm = nn.LayerNorm(c.d_model) if c.norm == "pre" else None
        self.decoder_norm = nn.LayerNorm(c.d_model) if c.norm == "pre" else None
        self.generator = nn.Linear(c.d_model, c.tgt_vocab_size)
        self.embed_scale = math.sqrt(c.d_model) if c.scale_embedding else 1.0

    def _embed(self, ids: torch.Tensor, side: Side, trace: Record, ablation: Ablation) -> torch.Tensor:
        table = self.src_embed if side is Side.SRC else self.tgt_embed
        embed = table(ids) * self.embed_scale  # (B, L, d)
        pos = self.positional(ids.shape[1])  # (L, d)
        if not ablation.positional:
            pos = torch.zeros_like(pos)
        x = embed + pos
        if trace is not None:
            trace.update({embed_name(side): embed, pos_name(side): pos.detach(), input_name(side): x})
        return self.embed_dropout(x)

    def _key_padding(self, ids: torch.Tensor) -> torch.Tensor | None:
        """(B, 1, 1, L) bool, True at real tokens; None when nothing is padded (the common case)."""
        keep = ids != self.config.pad_id
        return None if bool(keep.all()) else keep[:, None, None, :]

    def encode(self, src: torch.Tensor, trace: Record = None, ablation: Ablation = NO_ABLATION):
        """src (B, S) ids → memory (B, S, d) and the source padding mask."""
        src_mask = self._key_padding(src)
        x = self._embed(src, Side.SRC, trace, ablation)
        for i, layer in enumerate(self.encoder):
            x = layer(x, src_mask, trace, layer_name(Stack.ENCODER, i), ablation)
        if self.encoder_norm is not None:
            x = self.encoder_norm(x)
            if trace is not None:
                trace[final_norm_name(Stack.ENCODER)] = x
        return x, src_mask

    def decode(self, tgt, memory, src_mask, trace: Record = None, ablation: Ablation = NO_ABLATION):
        """tgt (B, T) ids (teacher forcing), memory (B, S, d) → logits (B, T, V)."""
        T = tgt.shape[1]
        self_mask = causal_mask(T, tgt.device) if ablation.causal else None  # (T, T)
        tgt_keep = self._key_padding(tgt)
        if tgt_keep is not None:
            self_mask = tgt_keep if self_mask is None else (self_mask & tgt_keep)  # (B, 1, T, T)
        x = self._embed(tgt, Side.TGT, trace, ablation)
        for i, layer in enumerate(self.decoder):
            x = layer(x, memory, self_mask, src_mask, trace, layer_name(Stack.DECODER, i), ablation)
        if self.decoder_norm is not None:
            x = self.decoder_norm(x)
            if trace is not None:
                trace[final_norm_name(Stack.DECODER)] = x
        logits = self.generator(x)  # (B, T, V)
        if trace is not None:
            trace[LOGITS] = logits
        return logits

    def decode_next(self, tgt, memory, src_mask, cache=None, ablation: Ablation = NO_ABLATION):
        """Logits (B, V) of the next token after the prefix tgt (B, t); the decoder re-reads the whole
        prefix (no key/value cache), so `cache` is passed through unused (see RNNSeq2Seq.decode_next)."""
        return self.decode(tgt, memory, src_mask, ablation=ablation)[:, -1], cache

    def forward(self, src: torch.Tensor, tgt: torch.Tensor, *, record: bool = False, ablation: Ablation = NO_ABLATION):
        """Logits (B, T, V); with record=True, (logits, Trace) holding every named intermediate."""
        check_ids(src, tgt, self.config.max_len)
        trace: Record = new_record(self, record)
        memory, src_mask = self.encode(src, trace, ablation)
        logits = self.decode(tgt, memory, src_mask, trace, ablation)
        return logits if trace is None else (logits, Trace(trace))  # trace is None unless record
