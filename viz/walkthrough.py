"""Figures for the step-by-step walkthrough: annotated matrix heatmaps, softmax bars, contributions.

Pure plotly built from dicts; every title and label is passed in. Values are only formatted here.
"""

from __future__ import annotations

import html

import numpy as np
import plotly.graph_objects as go

from .figure import figure
from .legend import FOOT, legend_room
from .matrix import text_em
from .memo import remembered

FONT = {"size": 16}
DIVERGING = "RdBu_r"
WEIGHTS = "Blues"
NO_GRID = {"showgrid": False, "zeroline": False}
MAX_ANNOTATED = (12, 10)  # print cell values when a matrix has at most this many rows and columns
DEMO_FONT = 15  # px: the scaling demo's ticks and legend (the projector enlarges them)
NARROW_ROW_EM = 20.0  # a legend's row beside a formula (two fifths of a 1280 px projector, ~21 px type)
WIDE_ROW_EM = 36.0  # its legend's row: a slide's live view (~780 px) in the projector's ~21 px type
# Margins that hold the axes' tick labels. The charts are drawn in Streamlit's theme, whose axes have automargin on:
# labels that stick out of a margin make plotly.js draw the figure a second time with a wider one, on every update
# (~70 ms of a step's chart, docs/capacity.md). Measured in Chromium: plotly needs the labels' width + 27 px beside a
# heatmap's rows, the numbers' + 19 px and the turned axis title's 34 px beside a bar chart's, 35 px under its one
# line of token labels. Labels wider than the estimate still fit: plotly then draws twice, as before.
THEME_TICK_PX = 12  # Streamlit's chart theme draws tick labels this size (static/chart_theme.json)
TICK_GAP_PX = 30  # beside a y axis's tick labels: their standoff and plotly's pad, with a few px to spare
AXIS_TITLE_PX = 34  # a turned y axis title (the theme's 14 px) and its standoff
TICK_LINE_PX = 40  # one line of x tick labels under a plot


def left_room(labels, size: float = THEME_TICK_PX) -> int:
    """A left margin that holds y tick labels `labels` (as typed, not escaped) drawn `size` px."""
    return int(size * max(map(text_em, map(str, labels)), default=1.0) + TICK_GAP_PX)


def right_room(last_label) -> int:
    """A right margin for an x axis whose last label, centred on the last column, may stick out by half its width."""
    return max(10, int(THEME_TICK_PX * text_em(str(last_label)) / 2) + 2)


def number_labels(values) -> list[str]:
    """The longest tick labels plotly would write on an axis spanning `values` (sign, integer digits, one decimal)."""
    finite = np.asarray(values, dtype=np.float64)
    finite = finite[np.isfinite(finite)]
    bound = float(np.abs(finite).max()) if finite.size else 1.0
    return ["−" + "9" * len(str(int(bound))) + ".5"]


def _fmt(x: float, digits: int) -> str:
    if np.isnan(x):
        return ""
    if np.isinf(x):
        return "−∞" if x < 0 else "∞"
    if x != 0 and (abs(x) >= 1e5 or abs(x) < 0.5 * 10**-digits):
        return f"{x:.1e}"
    return f"{x:.{digits}f}"


def plain(labels):
    """User text shown as typed: plotly renders a subset of HTML in labels, so escape &, < and >."""
    if isinstance(labels, str):
        return html.escape(labels, quote=False)
    return [html.escape(str(s), quote=False) for s in labels]


def _layout(title: str, height: int, **extra) -> dict:
    return {
        "title": {"text": plain(title), "font": {"size": 18}},
        "height": height,
        "margin": {"l": 10, "r": 10, "t": 50, "b": 10},
        "font": FONT,
        "plot_bgcolor": "rgba(0,0,0,0)",
        **extra,
    }


@remembered
def matrix_heatmap(
    a,
    row_labels: list[str],
    col_labels: list[str],
    title: str,
    digits: int = 2,
    weights: bool = False,
    highlight_row: int | None = None,
    masked_label: str = "−∞",
) -> go.Figure:
    """One matrix as a heatmap with its values printed in the cells (when small enough).

    weights=True uses a 0..1 sequential scale (attention weights); otherwise a diverging scale around 0.
    −∞ cells (masked) are left grey and labelled masked_label. highlight_row is outlined.
    """
    arr = np.asarray(a, dtype=np.float64)
    if arr.ndim == 1:
        arr = arr[None, :]
    masked = np.isneginf(arr)
    z = np.where(np.isfinite(arr), arr, np.nan).astype(np.float32)
    rows, cols = arr.shape
    annotate = rows <= MAX_ANNOTATED[0] and cols <= MAX_ANNOTATED[1]
    texts = [[masked_label if masked[r, c] else _fmt(arr[r, c], digits) for c in range(cols)] for r in range(rows)]
    finite = z[np.isfinite(z)]
    bound = float(np.abs(finite).max()) if finite.size else 1.0
    trace = {
        "type": "heatmap",
        "z": z.tolist(),
        "x": list(range(cols)),
        "y": list(range(rows)),
        "colorscale": WEIGHTS if weights else DIVERGING,
        "zmin": 0.0 if weights else -bound or -1.0,
        "zmax": 1.0 if weights else bound or 1.0,
        "text": texts,
        "hovertemplate": "%{y} → %{x}: %{text}<extra></extra>",
        "xgap": 2,
        "ygap": 2,
        "showscale": False,
    }
    if annotate:
        trace["texttemplate"] = "%{text}"
        trace["textfont"] = {"size": 16 if cols <= 6 else 12}
    shapes = []
    if masked.any():  # grey tiles under the NaN gaps so masked cells read as "blocked"
        shapes += [
            {"type": "rect", "x0": c - 0.5, "x1": c + 0.5, "y0": r - 0.5, "y1": r + 0.5,
             "fillcolor": "#d9d9d9", "line": {"width": 0}, "layer": "below"}
            for r, c in zip(*np.nonzero(masked), strict=True)
        ]  # fmt: skip
    if highlight_row is not None and 0 <= highlight_row < rows:
        shapes.append({
            "type": "rect", "x0": -0.5, "x1": cols - 0.5, "y0": highlight_row - 0.5, "y1": highlight_row + 0.5,
            "line": {"color": "#d62728", "width": 3},
        })  # fmt: skip
    height = int(min(max(70 + 44 * rows, 180), 560))
    step = 1 if cols <= 12 else 4  # label every 4th column of a wide matrix
    col_ticks = list(range(0, cols, step))
    layout = _layout(
        title,
        height,
        xaxis={
            "tickvals": col_ticks,
            "ticktext": plain([col_labels[c] for c in col_ticks]),
            "side": "top",
            "showgrid": False,
        },
        yaxis={
            "tickvals": list(range(rows)),
            "ticktext": plain(row_labels),
            "autorange": "reversed",
            "showgrid": False,
        },
        shapes=shapes,
    )
    right = right_room(col_labels[col_ticks[-1]]) if col_ticks else 10
    layout["margin"].update(t=80, l=left_room(row_labels), r=right)
    return figure({"data": [trace], "layout": layout})


@remembered
def softmax_bars(weights, masked, key_labels: list[str], title: str, y_title: str, masked_label: str) -> go.Figure:
    """The chosen row's weights as bars over the keys; masked keys (bool `masked`) say masked_label."""
    w = np.asarray(weights, dtype=np.float64)
    text = [masked_label if m else _fmt(v, 3) for v, m in zip(w, np.asarray(masked, dtype=bool), strict=True)]
    trace = {
        "type": "bar",
        "x": list(range(len(w))),
        "y": w.astype(np.float32).tolist(),
        "text": text,
        "textposition": "outside",
        "marker": {"color": "#1f77b4"},
        "hovertemplate": "%{customdata}: %{y:.4f}<extra></extra>",
        "customdata": plain(key_labels),
    }
    layout = _layout(
        title,
        320,
        xaxis={"tickvals": list(range(len(w))), "ticktext": plain(key_labels)},
        yaxis={"title": {"text": y_title}, "range": [0, 1.15]},
    )
    right = right_room(key_labels[-1]) if len(key_labels) else 10
    layout["margin"].update(l=left_room(["0.8"]) + AXIS_TITLE_PX, r=right, b=TICK_LINE_PX)
    return figure({"data": [trace], "layout": layout})


@remembered
def contribution_bars(
    contrib, z_row, key_labels: list[str], dim_labels: list[str], title: str, total_label: str,
    legend_row_em: float = NARROW_ROW_EM,
):  # fmt: skip
    """Stacked bars: for each output dimension, how much each source token's α_ij·v_j adds.

    contrib (Lk, dv) holds α_ij · v_j; z_row is z_i (their sum, from model/), marked with a diamond. The legend (one
    item per token) runs along the foot with its own room, in rows of legend_row_em font sizes.
    """
    c = np.asarray(contrib, dtype=np.float64)
    x = list(range(c.shape[1]))
    data = [
        {"type": "bar", "name": plain(key_labels[j]), "x": x, "y": c[j].astype(np.float32).tolist(),
         "hovertemplate": "%{fullData.name}: %{y:.3f}<extra></extra>"}
        for j in range(c.shape[0])
    ]  # fmt: skip
    data.append({
        "type": "scatter", "mode": "markers", "name": total_label, "x": x,
        "y": np.asarray(z_row, dtype=np.float32).tolist(),
        "marker": {"symbol": "diamond", "size": 14, "color": "black"},
    })  # fmt: skip
    bottom = legend_room([*key_labels, total_label], legend_row_em)
    layout = _layout(
        title,
        300 + bottom,
        barmode="relative",
        xaxis={"tickvals": x, "ticktext": plain(dim_labels)},
        legend=dict(FOOT),
    )
    totals = np.concatenate([c.clip(min=0).sum(axis=0), c.clip(max=0).sum(axis=0), np.asarray(z_row, dtype=np.float64)])
    layout["margin"].update(b=bottom, l=left_room(number_labels(totals)))
    return figure({"data": data, "layout": layout})


@remembered
def scaling_demo_figure(
    demo: dict,
    titles: tuple[str, str],
    x_title: str,
    names: tuple[str, str, str],
    current_d_k: int | None = None,
    legend_row_em: float = WIDE_ROW_EM,
) -> go.Figure:
    """Left: std of q·k against d_k (grows like √d_k, a straight line on log–log axes). Right: the mean largest
    softmax weight, raw vs scaled. current_d_k (the example's d_k) is marked with a dashed line on both.

    Made to be read from the back of a room: each panel is named above it (`titles`) instead of by a turned axis
    title, both x axes carry only the short `x_title` (the caption says how it was measured), every font is set
    (a theme's 12 px ticks would otherwise win), and the legend runs along the foot with its own room, in rows of
    legend_row_em font sizes, so it cannot meet the axis titles."""
    d_k = [int(v) for v in demo["d_k"]]
    std_name, raw_name, scaled_name = names
    data = [
        {"type": "scatter", "mode": "lines+markers", "x": d_k, "y": demo["dot_std"].tolist(), "name": std_name,
         "xaxis": "x", "yaxis": "y", "line": {"color": "#1f77b4", "width": 3}, "marker": {"size": 8}},
        {"type": "scatter", "mode": "lines+markers", "x": d_k, "y": demo["max_weight_unscaled"].tolist(),
         "name": raw_name, "xaxis": "x2", "yaxis": "y2", "line": {"color": "#d62728", "width": 3},
         "marker": {"size": 8}},
        {"type": "scatter", "mode": "lines+markers", "x": d_k, "y": demo["max_weight_scaled"].tolist(),
         "name": scaled_name, "xaxis": "x2", "yaxis": "y2", "line": {"color": "#2ca02c", "width": 3},
         "marker": {"size": 8}},
    ]  # fmt: skip
    ticks = {"size": DEMO_FONT}
    axis = {"type": "log", "title": {"text": plain(x_title), "font": {"size": DEMO_FONT + 1}}, "tickvals": d_k[::2],
            "tickangle": 0, "tickfont": ticks, "automargin": True}  # fmt: skip
    marks = [] if current_d_k is None else [
        {"type": "line", "xref": xref, "yref": f"{yref} domain", "x0": current_d_k, "x1": current_d_k, "y0": 0, "y1": 1,
         "line": {"dash": "dash", "color": "#7f7f7f", "width": 2}}
        for xref, yref in (("x", "y"), ("x2", "y2"))
    ]  # fmt: skip
    panel_titles = [
        {"text": plain(text), "xref": f"{x} domain", "yref": f"{y} domain", "x": 0.0, "y": 1.0, "xanchor": "left",
         "yanchor": "bottom", "yshift": 8, "showarrow": False, "font": {"size": DEMO_FONT + 2}}
        for text, x, y in ((titles[0], "x", "y"), (titles[1], "x2", "y2"))
    ]  # fmt: skip
    bottom = legend_room(names, legend_row_em)
    layout = _layout(
        "",
        300 + bottom,
        shapes=marks,
        annotations=panel_titles,
        xaxis={**axis, "domain": [0, 0.42]},
        xaxis2={**axis, "domain": [0.58, 1], "anchor": "y2"},
        yaxis={"type": "log", "tickvals": [1, 2, 4, 8, 16, 32], "tickfont": ticks, "automargin": True},
        yaxis2={"range": [0, 1.05], "anchor": "x2", "tickfont": ticks, "automargin": True},
        legend={**FOOT, "font": {"size": DEMO_FONT}},
        meta="scaling-demo",
    )
    layout["margin"].update(t=50, b=bottom, l=left_room(["32"], DEMO_FONT), r=10)
    return figure({"data": data, "layout": layout})
