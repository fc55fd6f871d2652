"""ModelConfig: every size and option of the Transformer, validated with messages a student understands."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import ClassVar

from .errors import N_, LabError, one_of

POSITIONAL_KINDS = ("sinusoidal", "learned", "none")
NORM_PLACEMENTS = ("post", "pre")


class DictConfig:
    """JSON round trip shared by the model configs: to_dict / from_dict with clear errors."""

    arch: ClassVar[str]  # which model family this config builds (see model/architectures.py)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict):
        """Build from a JSON dict; unknown or missing keys give a clear ValueError."""
        if not isinstance(data, dict):
            raise LabError(N_("model config must be a JSON object, got {kind}."), kind=type(data).__name__)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise LabError(N_("model config has unknown settings: {names}."), names=", ".join(unknown))
        missing = sorted(n for n in ("src_vocab_size", "tgt_vocab_size") if n not in data)
        if missing:
            raise LabError(N_("model config is missing: {names}."), names=", ".join(missing))
        return cls(**data)


def require_whole(name: str, value, low: int = 1, high: int | None = None) -> None:
    """LabError (a ValueError) unless value is an int (not a bool) in [low, high]."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        if high is None:
            template = N_("{name} must be a whole number of at least {low}, got {value}.")
        else:
            template = N_("{name} must be a whole number from {low} to {high}, got {value}.")
        raise LabError(template, name=name, low=low, high=high, value=repr(value))


def require_probability(name: str, value) -> None:
    """LabError (a ValueError) unless value is a number in [0, 1)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value < 1.0:
        raise LabError(N_("{name} must be a probability in [0, 1); got {value}."), name=name, value=repr(value))


def require_pad_id(config) -> None:
    if min(config.src_vocab_size, config.tgt_vocab_size) <= config.pad_id or config.pad_id < 0:
        raise LabError(N_("pad_id ({pad_id}) must be a token id inside both vocabularies."), pad_id=config.pad_id)


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
    max_len: int = 64
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
        if self.d_model % self.n_heads:
            raise LabError(
                N_("d_model ({d_model}) must be divisible by n_heads ({n_heads}): each head gets d_model / n_heads "
                   "dimensions."),
                d_model=self.d_model, n_heads=self.n_heads,
            )  # fmt: skip
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
