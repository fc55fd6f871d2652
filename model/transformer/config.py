"""ModelConfig: every size and option of the Transformer, validated with messages a student understands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..config_base import DictConfig, require_heads_divide, require_pad_id, require_probability, require_whole
from ..errors import N_, LabError, one_of

POSITIONAL_KINDS = ("sinusoidal", "learned", "none")
NORM_PLACEMENTS = ("post", "pre")


@dataclass(frozen=True)
class ModelConfig(DictConfig):
    """Sizes and options of an encoder–decoder Transformer (defaults: a small 2017-style model)."""

    arch: ClassVar[str] = "transformer"

    src_vocab_size: int
    tgt_vocab_size: int
    d_model: int = 64
    n_heads: int = 4
    n_encoder_layers: int = 1
    n_decoder_layers: int = 1
    d_ff: int = 128
    max_len: int = 128  # longest sequence, <eos> or <bos> included; the shipped checkpoints say 64
    positional: str = "sinusoidal"  # sinusoidal | learned | none
    norm: str = "post"  # post (2017 paper) | pre
    dropout: float = 0.0
    scale_embedding: bool = True  # multiply embeddings by sqrt(d_model), as in the paper
    pad_id: int = 0

    def __post_init__(self) -> None:
        self.validate()

    @property
    def d_head(self) -> int:
        """Width of one head's query/key/value vectors, d_k = d_model / n_heads."""
        return self.d_model // self.n_heads

    def validate(self) -> None:
        """Raise ValueError naming the first setting that cannot build a working model."""
        for name in ("src_vocab_size", "tgt_vocab_size", "d_model", "n_heads", "d_ff", "max_len"):
            require_whole(name, getattr(self, name))
        for name in ("n_encoder_layers", "n_decoder_layers"):
            require_whole(name, getattr(self, name), 1, 12)
        require_heads_divide(self.d_model, self.n_heads)
        if self.positional not in POSITIONAL_KINDS:
            raise one_of("positional", POSITIONAL_KINDS, self.positional)
        if self.positional == "sinusoidal" and self.d_model % 2:
            raise LabError(
                N_(
                    "sinusoidal positional encoding pairs a sine with a cosine, so d_model must be even; got {d_model}."
                ),
                d_model=self.d_model,
            )
        if self.norm not in NORM_PLACEMENTS:
            raise LabError(N_("norm must be 'post' or 'pre'; got {value}."), value=repr(self.norm))
        require_probability("dropout", self.dropout)
        require_pad_id(self)
