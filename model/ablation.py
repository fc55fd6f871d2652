"""Ablation: what to switch off at inference, so a student can see what each piece is for."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Ablation:
    """Inference-time interventions; the default changes nothing.

    heads_off holds (attention name, head) pairs, e.g. ("encoder.0.self_attn", 2): that head's
    output is zeroed before the concatenation, as if the head did not exist.
    """

    positional: bool = True  # add the positional encoding
    scale: bool = True  # divide QKᵀ by √d_k
    temperature: float = 1.0  # divide QKᵀ once more before the softmax
    causal: bool = True  # decoder self-attention may not look ahead
    heads_off: frozenset[tuple[str, int]] = frozenset()

    def __post_init__(self) -> None:
        if (
            not isinstance(self.temperature, (int, float))
            or not math.isfinite(self.temperature)
            or self.temperature <= 0
        ):
            raise ValueError(f"temperature must be a positive number, got {self.temperature!r}.")

    def heads_off_in(self, attn_name: str) -> list[int]:
        return sorted(h for name, h in self.heads_off if name == attn_name)


NO_ABLATION = Ablation()
