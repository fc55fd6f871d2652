"""Inside-a-layer page glue: pick a stack, then draw the numbers of model.analysis_layers."""

from __future__ import annotations

import streamlit as st

from model import Trace
from model.analysis_layers import LayerAnalysis, analyse_layers
from viz.layers import ffn_figure, layernorm_stats_figure, row_heatmap

KIND_WORDS = {"self_attn": "self-attention", "cross_attn": "cross-attention", "ffn": "feed-forward"}
CHART = {"config": {"displayModeBar": False}}


def sublayer_label(name: str) -> str:
    _, layer, kind = name.split(".")
    return f"L{int(layer) + 1} {KIND_WORDS[kind]}"


def choose_stack(trace: Trace, norm: str) -> tuple[LayerAnalysis, list[str]]:
    stack = st.radio(
        "Stack", ["encoder", "decoder"], horizontal=True, key="layer_stack",
        format_func=lambda s: {"encoder": "Encoder (reads the input)", "decoder": "Decoder (writes the output)"}[s],
    )  # fmt: skip
    tokens = trace.tokens("src" if stack == "encoder" else "tgt")
    return analyse_layers(trace, stack, norm), tokens


def stream_section(a: LayerAnalysis, tokens: list[str]) -> None:
    rows = ["input (embedding + position)"] + [f"after {sublayer_label(n)}" for n in a.sublayers]
    st.plotly_chart(
        row_heatmap(a.stream_norms, rows, tokens, title="Residual stream: ‖x‖ at each position",
                    x_title="token", value_name="‖x‖"), key="layer_stream", **CHART,
    )  # fmt: skip
    st.plotly_chart(
        row_heatmap(a.update_ratios, [sublayer_label(n) for n in a.sublayers], tokens,
                    title="What each sublayer adds: ‖sublayer(x)‖ / ‖x‖", x_title="token",
                    value_name="ratio", colorscale="Oranges", text_format="%.2f"), key="layer_updates", **CHART,
    )  # fmt: skip


@st.fragment
def layernorm_section(a: LayerAnalysis, tokens: list[str]) -> None:
    left, right = st.columns([1, 2])
    i = left.selectbox("LayerNorm of", range(len(a.sublayers)), format_func=lambda k: sublayer_label(a.sublayers[k]),
                       key="layer_ln")  # fmt: skip
    where = "the stream entering the sublayer" if a.norm == "pre" else "the residual sum x + sublayer(x)"
    left.caption(
        f"{a.norm}-LN: the LayerNorm input is {where}. LayerNorm shifts each position's vector to mean 0 and "
        "scales it to standard deviation 1 across d_model, then applies its learned gain γ and bias β — so the "
        "output's mean and spread are set by γ and β, not by the input."
    )
    series = [("input mean", a.ln_in_mean[i]), ("input std", a.ln_in_std[i]),
              ("output mean", a.ln_out_mean[i]), ("output std", a.ln_out_std[i])]  # fmt: skip
    right.plotly_chart(
        layernorm_stats_figure(series, tokens, title=f"LayerNorm of {sublayer_label(a.sublayers[i])}",
                               x_title="token", y_title="over d_model"), key="layer_ln_chart", **CHART,
    )  # fmt: skip


@st.fragment
def ffn_section(a: LayerAnalysis, tokens: list[str]) -> None:
    left, _ = st.columns([1, 2])
    layer = left.selectbox("Feed-forward of layer", range(a.n_layers), format_func=lambda k: f"Layer {k + 1}",
                           key="layer_ffn")  # fmt: skip
    hidden = a.ffn_hidden[layer]
    st.plotly_chart(
        ffn_figure(hidden, a.ffn_active[layer], tokens, title=f"FFN hidden units, layer {layer + 1} (ReLU)",
                   unit_title=f"hidden unit (of {hidden.shape[1]})", token_title="token",
                   active_title="units firing (> 0)", value_name="activation"), key="layer_ffn_chart", **CHART,
    )  # fmt: skip
