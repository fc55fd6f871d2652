"""Inside-a-layer figures: residual-stream norms, sublayer updates, LayerNorm statistics, FFN activity.

Pure plotly from the numpy arrays of model.analysis.layers; titles and labels come in as arguments.
Token axes are numeric with tick labels so repeated tokens keep their own columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from .legend import FOOT, HALF_ROW_EM, legend_room

FONT = {"size": 15}
FIRING_SCALE = [[0.0, "#ffffff"], [0.02, "#fee8c8"], [0.4, "#fc8d59"], [1.0, "#7f0000"]]  # zero stays white
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728")


def _token_axis(tokens: Sequence[str], title: str) -> dict:
    return {"tickmode": "array", "tickvals": list(range(len(tokens))), "ticktext": list(tokens),
            "title": {"text": title}, "showgrid": False, "zeroline": False}  # fmt: skip


def _base(title: str, height: int) -> dict:
    return {"title": {"text": title, "font": {"size": 19}}, "height": height, "font": FONT,
            "margin": {"l": 150, "r": 20, "t": 60, "b": 60}}  # fmt: skip


def row_heatmap(
    values: np.ndarray,  # (R, L)
    row_labels: Sequence[str],
    tokens: Sequence[str],
    *,
    title: str,
    x_title: str,
    value_name: str,
    colorscale: str = "Viridis",
    text_format: str = "%.1f",
) -> go.Figure:
    """Rows (stream points or sublayers) × token positions, each cell printed with its value."""
    z = np.asarray(values, dtype=np.float32)
    trace = {
        "type": "heatmap", "z": z, "x": np.arange(len(tokens)), "y": np.arange(len(row_labels)),
        "colorscale": colorscale, "text": np.char.mod(text_format, z), "texttemplate": "%{text}",
        "hovertemplate": f"%{{y}} · %{{x}}<br>{value_name} %{{z:.3f}}<extra></extra>",
        "colorbar": {"title": {"text": value_name}}, "xgap": 1, "ygap": 1,
    }  # fmt: skip
    layout = _base(title, 110 + 42 * len(row_labels))
    layout["xaxis"] = _token_axis(tokens, x_title)
    layout["yaxis"] = {"tickmode": "array", "tickvals": list(range(len(row_labels))), "ticktext": list(row_labels),
                       "autorange": "reversed"}  # fmt: skip
    return go.Figure({"data": [trace], "layout": layout})


def layernorm_stats_figure(
    series: Sequence[tuple[str, np.ndarray]],  # (legend name, (L,) values)
    tokens: Sequence[str],
    *,
    title: str,
    x_title: str,
    y_title: str,
    height: int = 380,
) -> go.Figure:
    """Mean and standard deviation per position before and after a LayerNorm, as lines; the legend along the foot
    with its own room (under the x axis title, never on it)."""
    data = []
    for i, (name, values) in enumerate(series):
        dash = "dot" if i % 2 else "solid"
        data.append({"type": "scatter", "mode": "lines+markers", "name": name, "x": np.arange(len(tokens)),
                     "y": np.asarray(values, dtype=np.float32), "line": {"color": COLOURS[i % 4], "dash": dash,
                     "width": 3}, "marker": {"size": 8}})  # fmt: skip
    bottom = legend_room([name for name, _values in series], HALF_ROW_EM)
    layout = _base(title, height - 100 + bottom)
    layout.update(xaxis=_token_axis(tokens, x_title), yaxis={"title": {"text": y_title}, "zeroline": True},
                  legend=dict(FOOT), margin={"l": 70, "r": 20, "t": 60, "b": bottom})  # fmt: skip
    return go.Figure({"data": data, "layout": layout})


def ffn_figure(
    hidden: np.ndarray,  # (L, d_ff) ReLU activations
    active: np.ndarray,  # (L,) units above zero
    tokens: Sequence[str],
    *,
    title: str,
    unit_title: str,
    token_title: str,
    active_title: str,
    value_name: str,
    hover: tuple[str, str, str],
    count_hover: str,
) -> go.Figure:
    """Heatmap of every hidden unit at every token, and beside it how many units fire per token.

    hover = the (unit, token, value) words of the heatmap's hover; count_hover = the bars' hover with {n}."""
    z = np.asarray(hidden, dtype=np.float32)
    y = np.arange(len(tokens))
    unit_word, token_word, value_word = hover
    heat_hover = f"{unit_word} %{{x}}<br>{token_word} %{{y}}<br>{value_word} %{{z:.3f}}<extra></extra>"
    heat = {"type": "heatmap", "z": z, "y": y, "x": np.arange(z.shape[1]), "colorscale": FIRING_SCALE, "zmin": 0,
            "xaxis": "x", "yaxis": "y",
            "colorbar": {"title": {"text": value_name, "side": "top"}, "x": 0.71, "thickness": 14},
            "hovertemplate": heat_hover}  # fmt: skip
    bars = {"type": "bar", "orientation": "h", "x": np.asarray(active, dtype=np.int64), "y": y, "xaxis": "x2",
            "yaxis": "y", "marker": {"color": COLOURS[1]}, "text": np.asarray(active, dtype=np.int64),
            "textposition": "outside",
            "hovertemplate": count_hover.replace("{n}", "%{x}") + "<extra></extra>"}  # fmt: skip
    layout = _base(title, 140 + 34 * len(tokens))
    layout.update(
        xaxis={"domain": [0.0, 0.7], "title": {"text": unit_title}},
        xaxis2={"domain": [0.8, 1.0], "title": {"text": active_title}, "range": [0, z.shape[1] * 1.25]},
        yaxis={**_token_axis(tokens, token_title), "autorange": "reversed"},
        showlegend=False, margin={"l": 90, "r": 20, "t": 60, "b": 60},
    )  # fmt: skip
    return go.Figure({"data": [heat, bars], "layout": layout})
