"""BertEncoder: a BERT-family encoder (MiniLM) with the same traced forward and the same names as our encoder.

    ids (B, S) ─ BertEmbeddings ─▶ src.input (B, S, d) ─ N × BertLayer ─▶ encoder.{N−1}.ffn.norm (B, S, d)

There is no decoder and no output vocabulary: what a sentence encoder gives is its last layer's vectors, which
model/bert/pooling.py averages into one sentence embedding. The layers are model/bert/layer.py's, whose modules are
laid out like our EncoderLayer's, under the same attribute (`encoder`), so model/teach/inspect.py, the Inside-a-layer
analysis and the exports read MiniLM as they read our Transformer's encoder.
"""

from __future__ import annotations

from typing import Literal, overload

import torch
from torch import nn

from ..ablation import NO_ABLATION, Ablation
from ..forward_checks import new_record
from ..naming import Stack, layer_name
from ..trace import Trace
from ..transformer.layers import Record
from .config import BertConfig
from .embeddings import BertEmbeddings
from .layer import BertLayer


class BertEncoder(nn.Module):
    """Embeddings (word + learned position + token type, LayerNorm) → N post-LN GELU layers. Inference only."""

    def __init__(self, config: BertConfig):
        super().__init__()
        self.config = config
        self.embeddings = BertEmbeddings(config)
        self.encoder = nn.ModuleList(BertLayer(config) for _ in range(config.n_encoder_layers))

    def _check(self, ids: torch.Tensor, keep: torch.Tensor | None, types: torch.Tensor | None) -> None:
        if ids.dim() != 2 or ids.shape[1] == 0:
            raise ValueError(f"ids must have shape (batch, length) with at least one token, got {tuple(ids.shape)}.")
        if ids.shape[1] > self.config.max_positions:
            raise ValueError(f"{ids.shape[1]} tokens; this model has {self.config.max_positions} positions.")
        for label, other in (("keep", keep), ("types", types)):
            if other is not None and other.shape != ids.shape:
                raise ValueError(f"{label} must have the shape of ids {tuple(ids.shape)}, got {tuple(other.shape)}.")

    def encode(
        self,
        ids: torch.Tensor,  # (B, S)
        trace: Record = None,
        ablation: Ablation = NO_ABLATION,
        keep: torch.Tensor | None = None,  # (B, S) bool, True at real tokens, False at padding; None: all real
        types: torch.Tensor | None = None,  # (B, S) token types; None: all 0 (one sentence)
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        """ids → the last layer's output (B, S, d) and the key mask the layers used ((B, 1, 1, S) or None)."""
        self._check(ids, keep, types)
        mask = None if keep is None or bool(keep.all()) else keep[:, None, None, :]  # (B, 1, 1, S)
        x = self.embeddings(ids, torch.zeros_like(ids) if types is None else types, trace, ablation)
        for i, layer in enumerate(self.encoder):
            x = layer(x, mask, trace, layer_name(Stack.ENCODER, i), ablation)
        return x, mask

    @overload
    def forward(
        self, ids: torch.Tensor, *, keep: torch.Tensor | None = ..., types: torch.Tensor | None = ...,
        record: Literal[False] = ..., ablation: Ablation = ...,
    ) -> torch.Tensor: ...  # fmt: skip

    @overload
    def forward(
        self, ids: torch.Tensor, *, keep: torch.Tensor | None = ..., types: torch.Tensor | None = ...,
        record: Literal[True], ablation: Ablation = ...,
    ) -> tuple[torch.Tensor, Trace]: ...  # fmt: skip

    def forward(
        self,
        ids: torch.Tensor,
        *,
        keep: torch.Tensor | None = None,
        types: torch.Tensor | None = None,
        record: bool = False,
        ablation: Ablation = NO_ABLATION,
    ) -> torch.Tensor | tuple[torch.Tensor, Trace]:
        """The last hidden state (B, S, d); with record=True, (hidden, Trace) holding every named intermediate."""
        trace: Record = new_record(self, record)
        hidden, _ = self.encode(ids, trace, ablation, keep, types)
        return (hidden, Trace(trace)) if trace is not None else hidden
