"""One step of the walkthrough drawn for a Walk: its header and its panel. The Step-by-step page draws it under its
controls; a lesson slide draws it for the slide's own source, step and query."""

from __future__ import annotations

import streamlit as st

from views.walkthrough import MASK_LABELS

from ..i18n import _
from ..presenter import stage
from ..widths import chart_share
from .state import Walk
from .steps import header, step_mask, step_projections, step_scaling, step_scores
from .steps_late import step_multi_head, step_residual_norm, step_softmax, step_weighted_sum

FRAMED = 0.96  # of the width around it, what the step's frame leaves its charts
RENDERERS = {1: step_projections, 2: step_scores, 3: step_scaling, 5: step_softmax,
             6: step_weighted_sum, 7: step_multi_head, 8: step_residual_norm}  # fmt: skip


def example_mask_note(mask_kind: str, mask_on: bool) -> str:
    """What step 4 says about the worked example's mask."""
    in_use = _(MASK_LABELS[mask_kind]) if mask_on else _("none (mask off)")
    return _("Mask in use: **{mask}**.").format(mask=in_use)


def model_mask_note() -> str:
    """What step 4 says about a model block's mask."""
    return _(
        "This block uses the model's own mask: causal in the decoder's self-attention (unless switched off), "
        "none elsewhere (a single input has no padding)."
    )


def show_step(step: int, walk: Walk, query: int, mask_note: str) -> None:
    """Step `step` (1–8) of `walk` in a bordered box, following query row `query` (0-based); in the presenter view
    its formulas and figures stand side by side on the stage."""
    with st.container(border=True), chart_share(FRAMED):
        header(step, walk)
        with stage():
            if step == 4:
                step_mask(walk, query, mask_note)
            else:
                RENDERERS[step](walk, query)
