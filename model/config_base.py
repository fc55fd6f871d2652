"""What the configs of every model family share: a JSON round trip, and checks whose messages a student understands."""

from __future__ import annotations

from dataclasses import Field, asdict, fields
from typing import Any, ClassVar, Self

from .errors import N_, LabError


class DictConfig:
    """JSON round trip shared by the model configs: to_dict / from_dict with clear errors."""

    arch: ClassVar[str]  # which model family this config builds (see model/architectures.py)
    required: ClassVar[tuple[str, ...]] = ("src_vocab_size", "tgt_vocab_size")  # the settings without a default
    __dataclass_fields__: ClassVar[dict[str, Field[Any]]]  # every subclass is a dataclass (asdict, fields)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: object) -> Self:
        """Build from a JSON dict; anything else, or unknown or missing keys, give a clear ValueError."""
        if not isinstance(data, dict):
            raise LabError(N_("model config must be a JSON object, got {kind}."), kind=type(data).__name__)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise LabError(N_("model config has unknown settings: {names}."), names=", ".join(unknown))
        missing = sorted(n for n in cls.required if n not in data)
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


def require_heads_divide(d_model: int, n_heads: int) -> None:
    """LabError unless d_model splits evenly into n_heads heads (each head gets d_model / n_heads dimensions)."""
    if d_model % n_heads:
        raise LabError(
            N_("d_model ({d_model}) must be divisible by n_heads ({n_heads}): each head gets d_model / n_heads "
               "dimensions."),
            d_model=d_model, n_heads=n_heads,
        )  # fmt: skip


def require_probability(name: str, value) -> None:
    """LabError (a ValueError) unless value is a number in [0, 1)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value < 1.0:
        raise LabError(N_("{name} must be a probability in [0, 1); got {value}."), name=name, value=repr(value))


def require_pad_id(config) -> None:
    if min(config.src_vocab_size, config.tgt_vocab_size) <= config.pad_id or config.pad_id < 0:
        raise LabError(N_("pad_id ({pad_id}) must be a token id inside both vocabularies."), pad_id=config.pad_id)
