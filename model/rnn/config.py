"""RNNConfig: every size and option of the recurrent encoder–decoder, validated like ModelConfig."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..config_base import DictConfig, require_pad_id, require_probability, require_whole
from ..errors import N_, LabError, one_of

CELLS = ("rnn", "gru", "lstm")  # plain tanh RNN, gated recurrent unit, long short-term memory
SCORES = ("additive", "dot", "general", "none")  # Bahdanau vᵀtanh(Ws+Uh), Luong sᵀh, Luong sᵀWh, no attention


@dataclass(frozen=True)
class RNNConfig(DictConfig):
    """Sizes and options of a recurrent sequence-to-sequence model (defaults: a small Bahdanau GRU).

    The encoder's states are d_enc = d_hidden × (2 if bidirectional else 1) wide; the decoder's state
    is as wide (d_dec = d_enc), so every score function, `dot` included, fits any setting.
    """

    arch: ClassVar[str] = "rnn"

    src_vocab_size: int
    tgt_vocab_size: int
    d_embed: int = 32
    d_hidden: int = 64
    cell: str = "gru"  # rnn | gru | lstm
    bidirectional: bool = False
    score: str = "additive"  # additive | dot | general | none
    max_len: int = 64  # longest sequence accepted (the model itself has no length limit)
    dropout: float = 0.0
    pad_id: int = 0

    def __post_init__(self) -> None:
        self.validate()

    @property
    def d_enc(self) -> int:
        """Width of one encoder state h_i (both directions concatenated when bidirectional)."""
        return self.d_hidden * (2 if self.bidirectional else 1)

    @property
    def d_dec(self) -> int:
        """Width of the decoder state s_t (equal to d_enc, so s·h is defined)."""
        return self.d_enc

    @property
    def attention(self) -> bool:
        """False for the classic fixed-vector encoder–decoder (score 'none')."""
        return self.score != "none"

    def validate(self) -> None:
        """Raise ValueError naming the first setting that cannot build a working model."""
        for name in ("src_vocab_size", "tgt_vocab_size", "d_embed", "d_hidden", "max_len"):
            require_whole(name, getattr(self, name))
        if self.cell not in CELLS:
            raise one_of("cell", CELLS, self.cell)
        if self.score not in SCORES:
            raise one_of("score", SCORES, self.score)
        if not isinstance(self.bidirectional, bool):
            raise LabError(N_("bidirectional must be true or false, got {value}."), value=repr(self.bidirectional))
        require_probability("dropout", self.dropout)
        require_pad_id(self)
