"""Part 1: the RNN's attention (one matrix: decoder steps × encoder states) beside the Transformer's cross-attention
(one layer, one head or the mean of its heads) for the same input; the numbers are the traces' (attention_maps)."""

from __future__ import annotations

import streamlit as st

from model import LoadedModel, ModelConfig, Trace
from model.analysis.attention import attention_maps, head_mean
from model.naming import RNN_ATTN, AttentionKind, Side, attention_name
from viz.attention import head_figure

from ..attention.view import AXES, HOVER, hover_names, numbered, one_based
from ..charts import show_chart
from ..i18n import _
from ..state import implicit
from ..tokens import md_escape
from ..widths import chart_share
from .pairs import Pair, output_line, run_models
from .parts import keep_in

LAYER_KEY, MEAN_KEY, HEAD_KEY = "rnn_layer", "rnn_mean", "rnn_head"  # the Transformer side's block and head
HEIGHT = 520


def alignment_section(pair: Pair, text: str) -> None:
    models = {side: model for side, model in (("rnn", pair.rnn), ("transformer", pair.transformer)) if model}
    traces = run_models(list(models.values()), text)
    if traces is None:
        return
    runs = dict(zip(models, traces, strict=True))
    st.markdown(
        _(
            "Each row is one step of the decoder (the token it reads, `<bos>` first) and each column one input "
            "token; a row's weights sum to 1. The RNN has one attention per step; the Transformer has one in every "
            "decoder layer and head. On *translate* both learn the reordering: where an adjective moves behind its "
            "noun, the bright cells cross."
        )
    )
    if pair.transformer is not None:
        layer, head = transformer_controls(pair.transformer)
    for side, trace in runs.items():  # full width, so that both figures below start at the same height
        output_line(models[side], trace)
    columns = iter(st.columns(2))
    if pair.rnn is not None:
        with next(columns), chart_share(0.5):
            rnn_alignment(pair.rnn, runs["rnn"])
    if pair.transformer is not None:
        with next(columns), chart_share(0.5):
            transformer_alignment(runs["transformer"], layer, head)


def transformer_controls(model: LoadedModel) -> tuple[int, int | None]:
    """Which decoder layer's cross-attention, and one head or (None) the mean over the heads."""
    config = model.config
    assert isinstance(config, ModelConfig), config.arch  # the pair's Transformer (pairs.Pair.transformer)
    layers, heads = range(config.n_decoder_layers), range(config.n_heads)
    keep_in(LAYER_KEY, layers, layers[-1])
    keep_in(HEAD_KEY, heads, 0)
    if st.session_state.get(LAYER_KEY) is None:  # the view's default: the last decoder layer
        st.session_state[LAYER_KEY] = layers[-1]
    implicit(LAYER_KEY, layers[-1])
    layer_col, mean_col, head_col = st.columns([1, 1, 2], vertical_alignment="bottom")
    layer = layer_col.selectbox(
        _("Transformer decoder layer"), layers, format_func=one_based, key=LAYER_KEY,
    )  # fmt: skip
    mean = mean_col.toggle(_("Mean over heads"), key=MEAN_KEY)
    head = head_col.radio(
        _("Head"), heads, format_func=one_based, key=HEAD_KEY, horizontal=True, disabled=mean,
        help=_("Switch off “Mean over heads” to see one head."),
    )  # fmt: skip
    return int(layer), None if mean else int(head)


def _figure(weights, trace: Trace, title: str, subtitle: str, role: str):
    query_title, key_title = hover_names(*AXES[AttentionKind.CROSS])
    return head_figure(
        weights, title=title, subtitle=subtitle, query_tokens=numbered(trace.tokens(Side.TGT)),
        key_tokens=numbered(trace.tokens(Side.SRC)), query_title=query_title, key_title=key_title,
        hover_names=hover_names(*HOVER), height=HEIGHT, role=role,
    )  # fmt: skip


def rnn_alignment(model: LoadedModel, trace: Trace) -> None:
    maps = attention_maps(trace)
    if RNN_ATTN not in maps:
        st.info(
            _(
                "**{name}** has no attention: its decoder reads only the encoder's final state, one fixed vector for "
                "the whole input, so there is no alignment to draw. Step through its decoder (part 2) to see that "
                "vector, or pick {partner} in the sidebar."
            ).format(name=md_escape(model.name), partner=md_escape(f"{model.task.name}-rnn"))
        )
        return
    subtitle = _("a_t,i: each decoder step over the encoder states")
    show_chart(_figure(maps[RNN_ATTN][0], trace, _("RNN + attention"), subtitle, "rnn-alignment"), "rnn_alignment")


def transformer_alignment(trace: Trace, layer: int, head: int | None) -> None:
    block = attention_maps(trace)[attention_name(AttentionKind.CROSS, layer)]  # (H, T, S)
    if head is None:
        weights = head_mean(block)
        subtitle = _("layer {layer} · mean of {n} heads").format(layer=layer + 1, n=block.shape[0])
    else:
        weights = block[head]
        subtitle = _("layer {layer} · head {head}").format(layer=layer + 1, head=head + 1)
    figure = _figure(weights, trace, _("Transformer: cross-attention"), subtitle, "transformer-alignment")
    show_chart(figure, "transformer_alignment")
