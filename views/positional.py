"""The Positional-encoding page's view: the sinusoidal table's size and positions, and positions switched off."""

from __future__ import annotations

from dataclasses import dataclass, field

from .base import PageView
from .common import Common
from .controls import Flag, Whole, control


@dataclass(frozen=True)
class PositionalView(PageView):
    PAGE = "positional-encoding"

    common: Common = field(default_factory=Common)
    d_model: int | None = control(Whole(8, 256, step=8, none_ok=True), None)  # None: the model's own width
    length: int = control(Whole(4, 128), 50)
    no_pe: bool = control(Flag(), False)
