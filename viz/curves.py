"""Measured curves and bars: several named series against one x axis (accuracy by length, milliseconds by length,
gradient norm by distance), and grouped bars (steps to 99 %). Every word comes in as an argument."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from .legend import FOOT, FULL_ROW_EM, legend_room
from .matrix import FONT
from .walkthrough import plain

BAND = "rgba(44, 160, 44, 0.12)"  # the shaded x range (e.g. the lengths seen in training)


@dataclass(frozen=True)
class Series:
    """One line: its name (legend and hover), x and y values, and how it is drawn."""

    name: str
    x: Sequence[float]
    y: Sequence[float]
    color: str
    dash: str = "solid"  # plotly dash: solid | dash | dot | dashdot
    symbol: str = "circle"


def _layout(title: str, x_title: str, y_title: str, height: int, role: str) -> dict:
    return {
        "title": {"text": plain(title), "x": 0.0, "xanchor": "left", "font": {"size": 18}},
        "xaxis": {"title": {"text": plain(x_title)}, "showgrid": True, "zeroline": False},
        "yaxis": {"title": {"text": plain(y_title)}, "showgrid": True, "zeroline": False},
        "height": height,
        "margin": {"l": 70, "r": 20, "t": 60, "b": 60},
        "font": FONT,
        "legend": dict(FOOT),
        "plot_bgcolor": "rgba(0,0,0,0)",
        "meta": role,
        "hovermode": "x unified",
    }


def log_ticks(values: Sequence[float]) -> list[float]:
    """Ticks 1, 2, 5, 10, 20, 50, … covering the positive `values`, labelled as plain numbers: plotly's own log
    ticks write 10² and label the 2s and 5s between in a smaller type, too small to read on a projector."""
    positive = [v for v in values if v > 0 and np.isfinite(v)]
    if not positive:
        return []
    low, high = min(positive), max(positive)
    first, last = int(np.floor(np.log10(low))), int(np.ceil(np.log10(high)))
    ticks = [m * 10.0**k for k in range(first, last + 1) for m in (1, 2, 5)]
    return [t for t in ticks if low / 2 <= t <= high * 2]


def line_figure(
    series: Sequence[Series],
    *,
    title: str,
    x_title: str,
    y_title: str,
    log_x: bool = False,
    log_y: bool = False,
    percent: bool = False,
    band: tuple[float, float] | None = None,
    band_label: str = "",
    height: int = 420,
    role: str = "curves",
    legend_row_em: float = FULL_ROW_EM,
) -> go.Figure:
    """Lines with markers, one per series. percent: y is a share 0–1 shown as %. band: an x range shaded (and named
    band_label), e.g. the input lengths a model was trained on."""
    y_format = ".1%" if percent else (".3g" if log_y else ".1f")
    data = [
        {
            "type": "scatter", "mode": "lines+markers", "name": plain(s.name),
            "x": np.asarray(s.x, dtype=np.float64).tolist(), "y": np.asarray(s.y, dtype=np.float64).tolist(),
            "line": {"color": s.color, "dash": s.dash, "width": 3}, "marker": {"size": 8, "symbol": s.symbol},
            "hovertemplate": f"%{{y:{y_format}}}",
        }
        for s in series
    ]  # fmt: skip
    layout = _layout(title, x_title, y_title, height, role)
    layout["margin"]["b"] = legend_room([s.name for s in series], legend_row_em)
    layout["height"] = height + layout["margin"]["b"] - 60  # the plot keeps its size; the legend adds to it
    if log_x:
        ticks = sorted({float(v) for s in series for v in s.x})
        layout["xaxis"].update(type="log", tickvals=ticks, ticktext=[f"{v:g}" for v in ticks])
    if log_y:
        ticks = log_ticks([float(v) for s in series for v in s.y])
        layout["yaxis"].update(type="log", tickvals=ticks, ticktext=[f"{v:g}" for v in ticks])
    if percent:
        layout["yaxis"].update(range=[-0.02, 1.04], tickformat=".0%")
    if band is not None:
        low, high = band
        layout["shapes"] = [{"type": "rect", "xref": "x", "yref": "paper", "x0": low - 0.5, "x1": high + 0.5,
                             "y0": 0, "y1": 1, "fillcolor": BAND, "line": {"width": 0}, "layer": "below"}]  # fmt: skip
        layout["annotations"] = [{"xref": "x", "yref": "paper", "x": (low + high) / 2, "y": 1.0, "yanchor": "bottom",
                                  "text": plain(band_label), "showarrow": False, "font": {"size": 13}}]  # fmt: skip
    return go.Figure({"data": data, "layout": layout})


def bars_figure(
    categories: Sequence[str],
    series: Sequence[tuple[str, Sequence[float], Sequence[str], str]],
    *,
    title: str,
    y_title: str,
    height: int = 380,
    role: str = "bars",
    legend_row_em: float = FULL_ROW_EM,
) -> go.Figure:
    """Grouped bars: one group per category, one bar per series (name, values, the text on each bar, colour)."""
    data = [
        {"type": "bar", "name": plain(name), "x": plain(list(categories)), "y": [float(v) for v in values],
         "text": plain(list(texts)), "textposition": "outside", "marker": {"color": color},
         "hovertemplate": "%{x}: %{text}<extra>%{fullData.name}</extra>"}
        for name, values, texts, color in series
    ]  # fmt: skip
    layout = _layout(title, "", y_title, height, role)
    layout["margin"]["b"] = legend_room([name for name, _values, _texts, _color in series], legend_row_em)
    layout["height"] = height + layout["margin"]["b"] - 60
    top = max((float(v) for _, values, _, _ in series for v in values), default=1.0)
    layout.update(barmode="group", hovermode="closest")
    layout["yaxis"]["range"] = [0, top * 1.18]
    return go.Figure({"data": data, "layout": layout})
