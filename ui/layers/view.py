"""Inside-a-layer page glue: pick a stack, then draw the numbers of model.analysis.layers."""

from __future__ import annotations

import streamlit as st

from model import Trace
from model.analysis.layers import LayerAnalysis, analyse_layers
from model.naming import CROSS_ATTN, FFN, SELF_ATTN, Stack, parse_sublayer_name, part_name, sublayer_name
from views import InsideLayerView
from views.layers import STACK_LABELS
from viz.layers import ffn_figure, layernorm_stats_figure, row_heatmap

from ..charts import chart_name, show_chart
from ..choices import shown_as
from ..i18n import N_, _
from ..presenter import controls, section_fragment
from ..state import fit, sync_url
from ..widths import chart_share

KIND_NAMES = {  # "L{n} {kind}" labels of the sublayers
    SELF_ATTN: N_("L{n} self-attention"),
    CROSS_ATTN: N_("L{n} cross-attention"),
    FFN: N_("L{n} feed-forward"),
}
STACKS = STACK_LABELS
LN_INPUT = {  # norm placement → what the LayerNorm reads
    "pre": N_(
        "pre-LN: the LayerNorm input is the stream entering the sublayer. LayerNorm shifts each position's vector to "
        "mean 0 and scales it to standard deviation 1 across d_model, then applies its learned gain γ and bias β — so "
        "the output's mean and spread are set by γ and β, not by the input."
    ),
    "post": N_(
        "post-LN: the LayerNorm input is the residual sum x + sublayer(x). LayerNorm shifts each position's vector to "
        "mean 0 and scales it to standard deviation 1 across d_model, then applies its learned gain γ and bias β — so "
        "the output's mean and spread are set by γ and β, not by the input."
    ),
}
PAGE = InsideLayerView.PAGE  # also the first word of every chart's file name


def sublayer_label(name: str) -> str:
    parsed = parse_sublayer_name(name)
    assert parsed is not None, name  # a LayerAnalysis's sublayers are sublayer names
    _stack, layer, sublayer = parsed
    return _(KIND_NAMES[sublayer]).format(n=layer + 1)


def choose_stack(trace: Trace, norm: str) -> tuple[LayerAnalysis, list[str]]:
    """The encoder or decoder stack's numbers (model.analysis.layers) and the tokens along its positions; only the
    stacks the model has are offered (MiniLM: the encoder)."""
    stacks = model_stacks(trace)
    stack = st.radio(
        _("Stack"), stacks, horizontal=True, key="layer_stack",
        format_func=shown_as({k: _(label) for k, label in STACKS.items()}),
    )  # fmt: skip
    return stack_analysis(trace, stack, norm)


def trace_stacks(trace: Trace) -> list[Stack]:
    """The stacks with layers in `trace` (MiniLM: the encoder; a GPT: the decoder, attention-only ones too)."""
    return [Stack(s) for s in STACKS if part_name(sublayer_name(Stack(s), 0, SELF_ATTN), "norm") in trace]


def model_stacks(trace: Trace) -> list[Stack]:
    """The stacks with layers in `trace`; a stack chosen before that this model lacks gives way to its first."""
    stacks = trace_stacks(trace)
    if st.session_state.get("layer_stack") not in stacks:
        st.session_state["layer_stack"] = stacks[0]
    return stacks


def stack_analysis(trace: Trace, stack: str, norm: str) -> tuple[LayerAnalysis, list[str]]:
    """model.analysis.layers' numbers for one stack ("encoder" or "decoder") and the tokens along its positions."""
    tokens = trace.tokens(Stack(stack).side)
    return analyse_layers(trace, stack, norm), tokens


def stream_section(a: LayerAnalysis, tokens: list[str]) -> None:
    rows = [_("input (embedding + position)")] + [
        _("after {sublayer}").format(sublayer=sublayer_label(n)) for n in a.sublayers
    ]
    fig = row_heatmap(a.stream_norms, rows, tokens, title=_("Residual stream: ‖x‖ at each position"),
                      x_title=_("token"), value_name="‖x‖")  # fmt: skip
    show_chart(fig, "layer_stream", name=chart_name(PAGE, a.stack, "residual-stream"), theme="streamlit")
    if a.final_norms is not None:
        first, last, final = a.growth()
        st.caption(
            _(
                "Pre-LN, as in GPT-2: each sublayer reads LayerNorm(x) and adds its update to x itself, so nothing "
                "normalises the stream between blocks: ‖x‖ is {first:.2f} at the input and {last:.2f} after the "
                "last block (means over the positions). The final LayerNorm brings it to {final:.2f} "
                "before the output scores are read from it."
            ).format(first=first, last=last, final=final)
        )
    fig = row_heatmap(a.update_ratios, [sublayer_label(n) for n in a.sublayers], tokens,
                      title=_("What each sublayer adds: ‖sublayer(x)‖ / ‖x‖"), x_title=_("token"),
                      value_name=_("ratio"), colorscale="Oranges", text_format="%.2f")  # fmt: skip
    show_chart(fig, "layer_updates", name=chart_name(PAGE, a.stack, "sublayer-updates"), theme="streamlit")


@section_fragment
def layernorm_section(a: LayerAnalysis, tokens: list[str]) -> None:
    left, right = st.columns([1, 2])
    labels = dict(enumerate(map(sublayer_label, a.sublayers)))
    fit(PAGE, {"layer_ln": len(a.sublayers) - 1})
    with controls(left, _("LayerNorm of")):
        i = st.selectbox(_("LayerNorm of"), range(len(a.sublayers)), format_func=shown_as(labels), key="layer_ln")
    left.caption(_(LN_INPUT[a.norm]))
    series = [(_("input mean"), a.ln_in_mean[i]), (_("input std"), a.ln_in_std[i]),
              (_("output mean"), a.ln_out_mean[i]), (_("output std"), a.ln_out_std[i])]  # fmt: skip
    fig = layernorm_stats_figure(series, tokens,
                                 title=_("LayerNorm of {sublayer}").format(sublayer=sublayer_label(a.sublayers[i])),
                                 x_title=_("token"), y_title=_("mean and std across d_model"))  # fmt: skip
    with right, chart_share(2 / 3):
        show_chart(fig, "layer_ln_chart", name=chart_name(PAGE, a.sublayers[i], "layernorm"), theme="streamlit")
    sync_url(PAGE)


@section_fragment
def ffn_section(a: LayerAnalysis, tokens: list[str], activation: str = "relu") -> None:
    """The feed-forward block's hidden units of one layer (`activation`: relu for our models, gelu for MiniLM,
    gelu_tanh for a GPT); an attention-only model has none, and the section says so."""
    if not a.n_layers:
        st.caption(_("This model is attention-only: its blocks have no feed-forward layer."))
        return
    left, _right = st.columns([1, 2])
    labels = {k: _("Layer {n}").format(n=k + 1) for k in range(a.n_layers)}
    fit(PAGE, {"layer_ffn": a.n_layers - 1})
    with controls(left, _("Feed-forward of layer")):
        layer = st.selectbox(
            _("Feed-forward of layer"), range(a.n_layers), key="layer_ffn", format_func=shown_as(labels)
        )
    hidden = a.ffn_hidden[layer]
    fig = ffn_figure(hidden, a.ffn_active[layer], tokens,
                     title=(_("FFN hidden units, layer {n} (GELU)") if activation.startswith("gelu") else
                            _("FFN hidden units, layer {n} (ReLU)")).format(n=layer + 1),
                     unit_title=_("hidden unit (of {n})").format(n=hidden.shape[1]), token_title=_("token"),
                     active_title=_("units firing (> 0)"), value_name=_("activation"),
                     hover=(_("unit"), _("token"), _("activation")), count_hover=_("{n} units fire"))  # fmt: skip
    show_chart(fig, "layer_ffn_chart", name=chart_name(PAGE, a.stack, "ffn", layer=layer), theme="streamlit")
    sync_url(PAGE)
