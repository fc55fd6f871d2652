"""BERT's input: word-piece embedding + learned position row + token-type row, then a LayerNorm.

Unlike our Transformer (embedding × √d + a sinusoid, no norm), BERT learns its positions as a table with one row per
position, adds a token-type (segment) row, and normalises the sum before the first layer. Every piece goes into the
trace under model/naming.py's names: src.embed, src.pos (the rows used, no batch axis), src.type, src.sum, src.input.
"""

from __future__ import annotations

import torch
from torch import nn

from ..ablation import NO_ABLATION, Ablation
from ..naming import Side, embed_name, input_name, pos_name, sum_name, type_name
from ..transformer.layers import Record
from .config import BertConfig


class BertEmbeddings(nn.Module):
    """ids (B, S) → the encoder's input (B, S, d). Inference only: no dropout."""

    def __init__(self, config: BertConfig):
        super().__init__()
        self.word = nn.Embedding(config.vocab_size, config.d_model)  # (V, d)
        self.position = nn.Embedding(config.max_positions, config.d_model)  # (P, d): row p is position p
        self.token_type = nn.Embedding(config.type_vocab_size, config.d_model)  # (2, d)
        self.norm = nn.LayerNorm(config.d_model, eps=config.layer_norm_eps)

    def forward(
        self,
        ids: torch.Tensor,  # (B, S) word-piece ids
        types: torch.Tensor,  # (B, S) token-type ids (all 0 for one sentence)
        trace: Record = None,
        ablation: Ablation = NO_ABLATION,
    ) -> torch.Tensor:
        length, rows = ids.shape[1], self.position.num_embeddings
        if length > rows:
            raise ValueError(f"{length} tokens is more than this model's {rows} positions.")
        embed = self.word(ids)  # (B, S, d)
        pos = self.position.weight[:length]  # (S, d): positions 0…S−1, the same for every sentence of the batch
        if not ablation.positional:
            pos = torch.zeros_like(pos)
        segment = self.token_type(types)  # (B, S, d)
        total = embed + pos + segment  # (B, S, d)
        x = self.norm(total)  # (B, S, d)
        if trace is not None:
            src = Side.SRC
            trace.update({
                embed_name(src): embed, pos_name(src): pos.detach(), type_name(src): segment,
                sum_name(src): total, input_name(src): x,
            })  # fmt: skip
        return x
