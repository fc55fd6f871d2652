"""Positional-encoding figures: the table as a heatmap, chosen dimensions as curves over position."""

from __future__ import annotations

import plotly.graph_objects as go

from .head_view import HEAD_COLOURS
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
    table, dims: list[int], *, title: str, position_title: str, value_title: str, names: list[str]
) -> go.Figure:
    """One line per chosen dimension: its value against position (names label the lines)."""
    t = float32(table)
    positions = list(range(t.shape[0]))
    data = [
        {
            "type": "scatter",
            "mode": "lines+markers" if t.shape[0] <= 40 else "lines",
            "x": positions,
            "y": t[:, d],
            "name": name,
            "line": {"color": HEAD_COLOURS[k % len(HEAD_COLOURS)], "width": 2.5},
            "marker": {"size": 5},
        }
        for k, (d, name) in enumerate(zip(dims, names, strict=True))
    ]
    return go.Figure(
        {
            "data": data,
            "layout": {
                "title": {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 18}},
                "xaxis": {"title": {"text": position_title}, "zeroline": False},
                "yaxis": {"title": {"text": value_title}, "range": [-1.1, 1.1]},
                "height": 420,
                "margin": {"l": 60, "r": 10, "t": 50, "b": 50},
                "font": FONT,
                "legend": {"orientation": "v", "y": 1, "yanchor": "top", "x": 1.02, "xanchor": "left"},
                "meta": "pe-curves",
            },
        }
    )
