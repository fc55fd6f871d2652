"""The Inside-a-layer page's view: which stack, which LayerNorm and which feed-forward block."""

from __future__ import annotations

from dataclasses import dataclass, field

from model.errors import N_
from model.naming import Stack

from .attention import LAYER
from .base import PageView
from .common import Common
from .controls import Choice, Whole, control

STACK_LABELS = {Stack.ENCODER: N_("Encoder (reads the input)"), Stack.DECODER: N_("Decoder (writes the output)")}


@dataclass(frozen=True)
class InsideLayerView(PageView):
    PAGE = "inside-a-layer"

    common: Common = field(default_factory=Common)
    stack: str = control(
        Choice(tuple(s.value for s in Stack), STACK_LABELS), Stack.ENCODER.value, name="layer_stack", url="stack"
    )
    norm: int = control(
        Whole(0, 63), 0, name="layer_ln", url="ln", fitted=True
    )  # which sublayer's LayerNorm, in stack order
    ffn: int = control(LAYER, 0, name="layer_ffn", url="ffn", fitted=True)
