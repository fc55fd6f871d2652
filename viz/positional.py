"""Positional-encoding figures: the table as a heatmap, chosen dimensions as curves over position."""

from __future__ import annotations

import plotly.graph_objects as go

from .head_view import HEAD_COLOURS
from .legend import FOOT, HALF_ROW_EM, legend_room
from .matrix import FONT, SIGNED_SCALE, float32, matrix_figure


def encoding_figure(
    table,
    *,
    title: str,
    position_title: str,
    dimension_title: str,
    position_labels: list[str] | None = None,
    height: int = 420,
    role: str = "pe-table",
) -> go.Figure:
    """(positions, d) table: positions down, dimensions across, red/blue around 0."""
    t = float32(table)
    bound = float(max(1.0, abs(t).max())) if t.size else 1.0
    return matrix_figure(
        t,
        title=title,
        x_title=dimension_title,
        y_title=position_title,
        y_labels=position_labels,
        colorscale=SIGNED_SCALE,
        zmin=-bound,
        zmax=bound,
        cell_text=False,
        height=height,
        role=role,
    )


def curves_figure(
    table,
    dims: list[int],
    *,
    title: str,
    position_title: str,
    value_title: str,
    names: list[str],
    curve=None,
    max_marked: int = 64,
    legend_row_em: float = HALF_ROW_EM,
) -> go.Figure:
    """One line per chosen dimension: its value against position (names label the lines).

    `table` (positions, d) holds the values at the whole positions 0, 1, …; `curve` = (positions, values) the same
    encoding at finer, fractional positions (model.transformer.positional.sinusoidal_at), drawn as the line, with
    the whole positions marked on it (up to `max_marked` of them). Without `curve` the line joins the whole
    positions, which makes a fast dimension (0 and 1 turn by one radian per position) look like a zigzag.
    The legend runs along the foot of the figure (rows of legend_row_em font sizes), so the curves keep the width."""
    t = float32(table)
    positions = list(range(t.shape[0]))
    colours = [HEAD_COLOURS[k % len(HEAD_COLOURS)] for k in range(len(dims))]
    line_x, line_y = (positions, t) if curve is None else (float32(curve[0]).tolist(), float32(curve[1]))
    lines = [
        {"type": "scatter", "mode": "lines", "x": line_x, "y": line_y[:, d], "name": name, "legendgroup": str(d),
         "line": {"color": colour, "width": 2.5}, "hovertemplate": "%{x:.2f}: %{y:.3f}<extra>%{fullData.name}</extra>"}
        for d, name, colour in zip(dims, names, colours, strict=True)
    ]  # fmt: skip
    marked = t.shape[0] <= max_marked
    marks = [
        {"type": "scatter", "mode": "markers", "x": positions, "y": t[:, d], "name": name, "legendgroup": str(d),
         "showlegend": False, "marker": {"color": colour, "size": 7},
         "hovertemplate": "%{x}: %{y:.3f}<extra>%{fullData.name}</extra>"}
        for d, name, colour in zip(dims, names, colours, strict=True)
    ] if marked else []  # fmt: skip
    bottom = legend_room(names, legend_row_em)
    return go.Figure(
        {
            "data": lines + marks,
            "layout": {
                "title": {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 18}},
                "xaxis": {"title": {"text": position_title}, "zeroline": False},
                "yaxis": {"title": {"text": value_title}, "range": [-1.1, 1.1]},
                "height": 380 + bottom,
                "margin": {"l": 60, "r": 10, "t": 50, "b": bottom},
                "font": FONT,
                "legend": dict(FOOT),
                "meta": "pe-curves",
            },
        }
    )
