"""One labelled heatmap: a matrix with token (or number) labels on both axes and a readable hover.

Axes are numeric with tick labels, so repeated tokens ("the … the") keep their own row and column.
"""

from __future__ import annotations

import unicodedata

import numpy as np
import plotly.graph_objects as go

from .figure import figure
from .memo import remembered

WEIGHT_SCALE = "Blues"  # sequential: 0 = white, 1 = dark blue
SIGNED_SCALE = "RdBu"  # diverging around 0, for encodings and similarities
FONT_SIZE = 14
FONT = {"family": "Inter, 'Source Sans Pro', sans-serif", "size": FONT_SIZE}
MAX_HOVER_TEXT_CELLS = 12_000  # above this, hover shows the value only (per-cell text would bloat the page)
MAX_CELL_TEXT = 144  # write the value inside each cell up to 12 × 12


def float32(a) -> np.ndarray:
    return np.asarray(a, dtype=np.float32)


def text_em(text: str) -> float:
    """Rough width of a label in font sizes: ~0.6 per Latin glyph, 1 per Chinese (wide) one."""
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.6 for c in text)


def hover_grid(y_labels: list[str], x_labels: list[str], y_name: str, x_name: str, value_name: str, z) -> list:
    """Per-cell hover text "y_name: token / x_name: token / value_name: 0.123" (rows = y)."""
    rows = []
    for i, y in enumerate(y_labels):
        prefix = f"{y_name}: {y} ({i})<br>{x_name}: "
        rows.append([f"{prefix}{x} ({j})<br>{value_name}: {z[i, j]:.3f}" for j, x in enumerate(x_labels)])
    return rows


def label_margins(x_labels: list[str] | None, y_labels: list[str] | None, x_title: str, y_title: str) -> dict:
    """Fixed margins wide enough for the tick labels (x labels are turned 45°). Plotly's automargin would
    measure them and draw the figure a second time, which costs ~20 ms per chart in the browser."""
    size = FONT_SIZE
    longest_y = max((text_em(t) for t in y_labels or ["000"]), default=1.8)
    longest_x = max((text_em(t) for t in x_labels or ["000"]), default=1.8)
    return {
        "l": int(16 + size * longest_y + (28 if y_title else 0)),
        "b": int(20 + size * longest_x * 0.75 + (28 if x_title else 0)),
        "r": 10,
        "t": 50,
    }


def tick_axis(labels: list[str] | None, title: str, n: int, max_ticks: int = 64, reverse: bool = False) -> dict:
    """A numeric axis 0..n-1 showing `labels` as tick text (every k-th one when there are many)."""
    span = [n - 0.5, -0.5] if reverse else [-0.5, n - 0.5]
    axis = {"title": {"text": title}, "showgrid": False, "zeroline": False, "range": span}
    if labels is not None:
        step = max(1, -(-n // max_ticks))
        axis.update(tickmode="array", tickvals=list(range(0, n, step)), ticktext=list(labels[::step]))
    return axis


@remembered
def matrix_figure(
    z,
    *,
    title: str,
    x_title: str,
    y_title: str,
    x_labels: list[str] | None = None,
    y_labels: list[str] | None = None,
    hover_names: tuple[str, str, str] | None = None,
    colorscale: str = WEIGHT_SCALE,
    zmin: float | None = 0.0,
    zmax: float | None = 1.0,
    zmid: float | None = None,
    cell_text: bool | None = None,
    height: int = 480,
    role: str = "matrix",
    subtitle: str = "",
) -> go.Figure:
    """Heatmap of z (rows × columns), first row at the top.

    hover_names = (row name, column name, value name) gives per-cell hover text with the labels;
    `role` goes into layout.meta so tests can find the figure in the page; a subtitle goes under the title.
    """
    z = float32(z)
    n_rows, n_cols = z.shape
    trace = {
        "type": "heatmap",
        "z": z,
        "colorscale": colorscale,
        "zmin": zmin,
        "zmax": zmax,
        "zmid": zmid,
        "xgap": 1 if n_cols <= 32 else 0,
        "ygap": 1 if n_rows <= 32 else 0,
        "colorbar": {"thickness": 14, "len": 0.9},
    }
    if hover_names and x_labels is not None and y_labels is not None and z.size <= MAX_HOVER_TEXT_CELLS:
        trace["text"] = hover_grid(y_labels, x_labels, *hover_names, z)
        trace["hovertemplate"] = "%{text}<extra></extra>"
    else:
        trace["hovertemplate"] = f"{y_title} %{{y}}<br>{x_title} %{{x}}<br>%{{z:.3f}}<extra></extra>"
    if cell_text if cell_text is not None else z.size <= MAX_CELL_TEXT:
        trace["texttemplate"] = "%{z:.2f}"
        trace["textfont"] = {"size": 12}
        trace["showscale"] = False  # the numbers in the cells say what a colorbar would (and paint faster)
    title_spec = {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 18}}
    margin = label_margins(x_labels, y_labels, x_title, y_title)
    if subtitle:
        title_spec["subtitle"] = {"text": subtitle, "font": {"size": 15}}
        margin["t"] += 24
    return figure(
        {
            "data": [trace],
            "layout": {
                "title": title_spec,
                "xaxis": {**tick_axis(x_labels, x_title, n_cols), "side": "bottom", "tickangle": -45},
                "yaxis": tick_axis(y_labels, y_title, n_rows, reverse=True),
                "height": height,
                "margin": margin,
                "font": FONT,
                "plot_bgcolor": "rgba(0,0,0,0)",
                "meta": role,
            },
        }
    )
