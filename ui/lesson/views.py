"""A slide's live view: the components its page draws, run now on the slide's own model, input and settings.

Nothing here is a picture of a page: each view runs the model (through the session's trace cache) and draws the
page's own figures and formulas. The settings come from a checked lesson (services.lessons.schema), so each is of
its type and range; layers, heads and rows beyond the model's are clamped to its last one. In the presenter view
a view has two thirds of the width (its slide's words take the rest): heatmaps there leave their values to the
hover, and the positional view stacks its two tables.
"""

from __future__ import annotations

import streamlit as st
import torch

from model import LoadedModel, Trace
from model.analysis.attention import attention_layers, attention_tokens
from model.architectures import build_model
from model.naming import AttentionKind, Stack
from model.teach.inspect import n_layers
from model.teach.walkthrough import build_mask
from services.lessons import Slide
from services.lessons.schema import RNN_TASKS

from ..attention.view import focused_charts
from ..i18n import _
from ..layers.view import stack_analysis, stream_section
from ..models import DEFAULT_MODEL, get_model
from ..positional.view import cross_attention_chart, model_encoding, pe_table_chart
from ..presenter import presenting
from ..rnn.bottleneck import bottleneck_view
from ..trace_cache import cached_run
from ..walkthrough.example import N_HEADS, default_values, example_walk
from ..walkthrough.model import model_walk
from ..walkthrough.show import example_mask_note, model_mask_note, show_step
from ..walkthrough.state import EXAMPLE, Ablations, md_plain

UNTRAINED_SEED = 0
PER_LESSON = 100  # inputs per length in the bottleneck view: the RNN page's default, so both share its cache


def cells() -> bool | None:
    """Values in heatmap cells: left out (False) in the presenter view's narrow view column, else as each figure
    decides by its size (None)."""
    return False if presenting() else None


def within(value: object, count: int) -> int:
    """A 0-based index from a lesson clamped to 0..count-1 (a lesson is written without knowing the model)."""
    return min(max(int(value), 0), count - 1) if isinstance(value, int) else 0


def model_of(state: dict) -> LoadedModel:
    return get_model(str(state.get("model", DEFAULT_MODEL)))


def input_of(state: dict, loaded: LoadedModel) -> str:
    text = state.get("input")
    return text if isinstance(text, str) and text.strip() else loaded.task.example


def run_line(loaded: LoadedModel, text: str, trace: Trace) -> None:
    """Which model read what, and what it wrote."""
    words = {"model": md_plain(loaded.name), "input": md_plain(text), "output": md_plain(trace.prediction or "")}
    st.caption(_("Model **{model}** · input “{input}” · output “{output}”").format(**words))


def step_view(state: dict) -> None:
    """A walkthrough step on the worked example or on one block of a model."""
    temperature = float(state.get("wt_temperature", 1.0))
    ablations = Ablations(temperature, not state.get("wt_scale_off", False), not state.get("wt_mask_off", False))
    if state.get("source", EXAMPLE) == EXAMPLE:
        values = default_values()
        n = len(values["tokens"])
        mask_kind = str(state.get("mask", "none"))
        mask = build_mask(mask_kind, n, n, n_padding=1) if ablations.mask else None
        walk = example_walk(ablations, within(state.get("wt_head", 0), N_HEADS), mask, values)
        note = example_mask_note(mask_kind, ablations.mask)
    else:
        loaded = model_of(state)
        kind = AttentionKind.parse(state.get("wt_kind", AttentionKind.ENCODER))  # checked by services.lessons
        layer = within(state.get("wt_layer", 0), n_layers(loaded.model, kind))
        head = within(state.get("wt_head", 0), loaded.config.n_heads)
        walk = model_walk(loaded, input_of(state, loaded), kind, layer, head, ablations)
        if walk is None:
            return
        note = model_mask_note()
    query = within(int(state.get("query", 1)) - 1, len(walk.q_tokens))
    show_step(int(state.get("step", 1)), walk, query, note)


def attention_view(state: dict) -> None:
    """One head of one layer large, beside its layer's head view."""
    loaded = model_of(state)
    text = input_of(state, loaded)
    trace = cached_run(loaded, text, str(state.get("target", "")))
    if trace is None:
        return
    run_line(loaded, text, trace)
    kind = AttentionKind.parse(state.get("kind", AttentionKind.ENCODER))
    weights = attention_layers(trace, kind)  # (L, H, Lq, Lk)
    queries, keys = attention_tokens(trace, kind)
    token = state.get("token")
    token = token if isinstance(token, int) and token < len(queries) else None
    layer, head = within(state.get("layer", 0), weights.shape[0]), within(state.get("head", 0), weights.shape[1])
    focused_charts(weights, kind, layer, head, token, queries, keys, cell_text=cells())


def positional_view(state: dict) -> None:
    """The sinusoidal table beside the encoding the slide's model adds to its input."""
    loaded = model_of(state)
    text = input_of(state, loaded)
    trace = cached_run(loaded, text)
    table_col, model_col = (st.container(), st.container()) if presenting() else st.columns(2)
    with table_col:
        pe_table_chart(int(state.get("d_model", 64)), int(state.get("length", 50)))
    if trace is not None:
        with model_col:
            model_encoding(loaded, trace)


def layer_view(state: dict) -> None:
    """The residual stream of one stack and what each sublayer adds to it."""
    loaded = model_of(state)
    text = input_of(state, loaded)
    trace = cached_run(loaded, text)
    if trace is None:
        return
    run_line(loaded, text, trace)
    analysis, tokens = stack_analysis(trace, Stack(state.get("layer_stack", Stack.ENCODER)), loaded.config.norm)
    stream_section(analysis, tokens)


@st.cache_resource(show_spinner=False)
def untrained(name: str) -> LoadedModel:
    """The shipped model's architecture with fresh random weights (seeded): what training starts from."""
    loaded = get_model(name)
    torch.manual_seed(UNTRAINED_SEED)
    return LoadedModel(build_model(loaded.config), loaded.task, name=f"{name}-untrained")


def training_view(state: dict) -> None:
    """Cross-attention before training (random weights) and after (the shipped model), on the same input and the
    same decoder input (the correct output, teacher-forced)."""
    loaded = model_of(state)
    text = input_of(state, loaded)
    target = loaded.task.target_for(text) or ""  # both decoders read the correct output: the same rows
    columns = st.columns(2)
    runs = [(columns[0], untrained(loaded.name), _("Random weights: before training"), "untrained"),
            (columns[1], loaded, _("Trained: {model}").format(model=loaded.name), "trained")]  # fmt: skip
    for column, model, title, key in runs:
        trace = cached_run(model, text, target)
        if trace is None:
            return
        with column:
            cross_attention_chart(trace, title, key, cell_text=cells())
    st.caption(_("Cross-attention of the last decoder layer, mean over heads; both decoders read the correct output."))


def rnn_view(state: dict) -> None:
    """The RNN page's bottleneck: exact match by input length for the task's Transformer and RNNs with and
    without attention (measured once per server, as on the page)."""
    bottleneck_view(str(state.get("bottleneck_task", RNN_TASKS[0])), PER_LESSON, explain=False)


VIEWS = {
    "step-by-step": step_view,
    "attention": attention_view,
    "positional-encoding": positional_view,
    "inside-a-layer": layer_view,
    "train": training_view,
    "rnn-vs-transformer": rnn_view,
}


def live_view(slide: Slide) -> None:
    """Draw `slide`'s view (its page is one of services.lessons.PAGE_STATE's, all of which are in VIEWS)."""
    VIEWS[slide.page](dict(slide.state))
