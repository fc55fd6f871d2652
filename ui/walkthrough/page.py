"""The Step-by-step page as a function of its view: `render(view)` draws the page; `render(view, slide=True)` draws
the step a lesson slide shows, on the worked example or one block of a model, with no controls."""

from __future__ import annotations

import numpy as np
import streamlit as st

from model import transformer_of
from model.naming import AttentionKind
from model.teach.inspect import kinds_of, n_layers
from model.teach.walkthrough import build_mask
from views import StepByStepView
from views.validate import grid_cells

from ..attention.page import slide_input
from ..attention.view import within
from ..classroom.ask import walk_question_panel
from ..i18n import _
from ..lazy_fold import lazy_fold
from ..models import get_model
from ..presenter import controls, folding, page_header, shut
from ..rnn.notice import transformer_only
from . import state as nav
from .example import N_HEADS, default_values, example_inputs, example_walk, mask_controls
from .export import export_section
from .model import model_controls, model_walk
from .show import example_mask_note, model_mask_note, show_step
from .state import EXAMPLE, Ablations, Walk, md_plain

PAGE = StepByStepView.PAGE
# Numbers from | Head | Mask: the source's two choices are its widest words ("Worked example | From the model",
# "示例 | 来自模型"), so its column must hold them in the presenter's controls popover too (~700 px wide)
CONTROL_COLUMNS = (5, 2, 3)
MORE_KEY = "wt_more"  # the fold of the temperature and the switches: open or not


def ablations_of(view: StepByStepView) -> Ablations:
    return Ablations(view.temperature, not view.scale_off, not view.mask_off)


def render(view: StepByStepView, *, slide: bool = False) -> None:
    """The page for `view`; with `slide`, only its step."""
    if slide:
        render_slide(view)
        return
    bar = page_header(
        _("Attention, step by step"),
        _(
            "Softmax(Q Kᵀ / √dₖ) V, one step at a time, with every symbol replaced by the number the computation "
            "produced. Change any input and every number updates."
        ),
    )
    with controls(bar, lazy=True) as folded:
        drawn = None if shut(folded) else _from_controls(view)
    if shut(folded):  # a following student's settings, folded and closed: the teacher's view as the room sent it
        _follow(view)
        return
    if drawn is None:
        return
    walk, step, mask_note = drawn
    query = nav.step_buttons(lambda: nav.query_picker(walk.q_tokens), bar=bar, fold=folded)
    show_step(step, walk, query, mask_note)
    if not folding():  # a following student: the teacher's step only (its downloads cost every follower's rerun)
        export_section(walk)
    walk_question_panel(walk, query)


def _from_controls(view: StepByStepView) -> tuple[Walk, int, str] | None:
    """The page's widgets, drawn; the walk they choose, its step and what step 4 says of the mask (None: the model
    cannot be walked, and the page said why)."""
    source_col, head_col, mask_col = st.columns(CONTROL_COLUMNS, vertical_alignment="bottom")
    with source_col:
        source = nav.source_picker()
    # folded, so that the formula starts on the first screen; and lazy (closed, its slider still measured itself on
    # every run: ~16 ms of each Next, docs/capacity.md). Its label names a changed setting: lazy_fold keeps it open.
    if more := lazy_fold(nav.more_label(), MORE_KEY):
        with more:
            ablations = nav.ablation_controls()
    else:
        ablations = ablations_of(view)
    if source == EXAMPLE:
        values = example_inputs()
        n_heads = N_HEADS
    else:
        loaded = get_model(view.common.model)
        if not transformer_only(loaded):
            return None
        text, kind, layer = model_controls(loaded)
        n_heads = transformer_of(loaded).config.n_heads
    head = nav.head_picker(head_col, n_heads)
    if source == EXAMPLE:
        with mask_col:
            mask = mask_controls(values["tokens"], ablations.mask)
        walk = example_walk(ablations, head, mask, values)
        mask_note = example_mask_note(str(st.session_state.get(nav.MASK_KIND_KEY, "none")), ablations.mask)
    else:
        mask_col.caption(_("Model **{name}** · the sidebar picks another.").format(name=md_plain(loaded.name)))
        model = model_walk(loaded, text, kind, layer, head, ablations)
        if model is None:
            return None
        walk, mask_note = model, model_mask_note()
    return walk, nav.step_picker(), mask_note


def _follow(view: StepByStepView) -> None:
    """A follower's step with no widgets drawn: the view's walk (on this session's example numbers: the room does not
    carry the teacher's), its step and query row, and the class's question panel. Drawn the same as with the
    settings open, at about a quarter less of a rerun's cost (docs/capacity.md)."""
    if view.source != EXAMPLE and not transformer_only(get_model(view.common.model)):
        return
    shown = _walk_of(view, example_inputs())
    if shown is None:
        return
    walk, note = shown
    query = within(view.query - 1, len(walk.q_tokens))
    show_step(view.step, walk, query, note)
    walk_question_panel(walk, query)


def _walk_of(view: StepByStepView, values: dict) -> tuple[Walk, str] | None:
    """The walk `view` names, on the worked example's `values` or on one block of its model (layers, heads and rows
    past the model's clamped to its last one), with what step 4 says of the mask; None when the model cannot be
    walked."""
    ablations = ablations_of(view)
    if view.source == EXAMPLE:
        n = len(values["tokens"])
        custom: list[list[bool]] | np.ndarray | None = grid_cells(view.custom_mask) if view.custom_mask else None
        if view.mask == "custom" and (custom is None or len(custom) != n):
            custom = build_mask("causal", n, n)  # no grid, or one for another number of tokens
        mask = build_mask(view.mask, n, n, n_padding=1, custom=custom) if ablations.mask else None
        walk = example_walk(ablations, within(view.head, N_HEADS), mask, values)
        return walk, example_mask_note(view.mask, ablations.mask)
    loaded = get_model(view.common.model)
    walked = transformer_of(loaded)
    kinds = list(kinds_of(walked))
    kind = AttentionKind.parse(view.kind)
    kind = kind if kind in kinds else kinds[0]  # a slide's kind this model lacks (cross-attention on MiniLM)
    layer = within(view.layer, n_layers(walked, kind))
    head = within(view.head, walked.config.n_heads)
    model = model_walk(loaded, slide_input(view, loaded), kind, layer, head, ablations)
    return None if model is None else (model, model_mask_note())


def render_slide(view: StepByStepView) -> None:
    """A step on the worked example or on one block of a model; layers, heads and rows past the model's are clamped
    to its last one (a lesson is written without knowing the model)."""
    shown = _walk_of(view, default_values())
    if shown is not None:
        walk, note = shown
        show_step(view.step, walk, within(view.query - 1, len(walk.q_tokens)), note)
