"""The Step-by-step page's view: the step, where the numbers come from, the query row, the mask, the ablations,
and (numbers from the model) which attention block and head."""

from __future__ import annotations

from dataclasses import dataclass, field

from model.errors import N_
from model.naming import AttentionKind

from .attention import HEAD, KIND, LAYER, MAX_TOKENS
from .base import PageView
from .common import Common
from .controls import Choice, Flag, Grid, Number, Whole, control

N_STEPS = 8
SOURCE_LABELS = {"example": N_("Worked example"), "model": N_("From the model")}
MASK_LABELS = {"none": N_("No mask"), "causal": N_("Causal"), "padding": N_("Padding"), "custom": N_("Custom")}


@dataclass(frozen=True)
class StepByStepView(PageView):
    PAGE = "step-by-step"

    common: Common = field(default_factory=Common)
    source: str = control(Choice(tuple(SOURCE_LABELS), SOURCE_LABELS), "example")
    step: int = control(Whole(1, N_STEPS), 1)
    query: int = control(Whole(1, MAX_TOKENS), 1, fitted=True)  # the query row steps 5, 6 and 8 follow, counted from 1
    mask: str = control(Choice(tuple(MASK_LABELS), MASK_LABELS), "none")  # the worked example's mask
    custom_mask: str | None = control(Grid(), None, key="wt_custom_mask", url="custom")  # its grid when "custom"
    kind: str = control(KIND, AttentionKind.ENCODER.value, name="wt_kind")
    layer: int = control(LAYER, 0, name="wt_layer", fitted=True)
    head: int = control(HEAD, 0, name="wt_head", fitted=True)
    temperature: float = control(Number(0.1, 5.0), 1.0, name="wt_temperature")
    scale_off: bool = control(Flag(), False, name="wt_scale_off")
    mask_off: bool = control(Flag(), False, name="wt_mask_off")
