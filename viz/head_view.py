"""A BertViz-style head view: query tokens on the left, key tokens on the right, a line per
(query, key) pair whose thickness and opacity grow with the weight, one colour per head.

Lines are grouped by head and weight band, and each group is ONE layout path shape ("M x y L x y M …"),
so the browser draws ~5 SVG paths per head. (As scatter traces with None gaps, plotly drew one SVG path
per line: ~300 for 8 tokens × 4 heads, which made this the slowest chart of the Attention page.)
Clicking a head in the legend hides or shows its shapes (they share the legend item's legendgroup);
`focus` keeps only one query token's lines.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .figure import figure
from .matrix import FONT, float32
from .memo import remembered

HEAD_COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
    "#e377c2", "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#ad494a",
)  # fmt: skip
# (lower edge, line width px, opacity) of each weight band; weights below the first edge are not drawn
BANDS = ((0.05, 1.0, 0.25), (0.2, 2.0, 0.4), (0.4, 3.5, 0.6), (0.6, 5.0, 0.8), (0.8, 7.0, 0.95))
X_QUERY, X_KEY = 0.0, 1.0


def band_of(weight: float) -> int | None:
    """Index of the band a weight falls in (None when it is too small to draw)."""
    band = None
    for i, (low, _, _) in enumerate(BANDS):
        if weight >= low:
            band = i
    return band


def head_view_lines(weights, focus: int | None = None) -> dict[tuple[int, int], list[tuple[int, int]]]:
    """(head, band) → the (query, key) pairs drawn in that band; only query `focus` when it is set."""
    w = float32(weights)  # (H, Lq, Lk)
    lines: dict[tuple[int, int], list[tuple[int, int]]] = {}
    queries = range(w.shape[1]) if focus is None else [focus]
    for h in range(w.shape[0]):
        for i in queries:
            for j in np.flatnonzero(w[h, i] >= BANDS[0][0]):
                band = band_of(float(w[h, i, j]))
                if band is not None:  # always: j is at or above the lowest band
                    lines.setdefault((h, band), []).append((i, int(j)))
    return lines


MAX_LINES = 600  # lines drawn at most: past it the weakest bands are left out (72-head models, long inputs)


def thin_lines(
    lines: dict[tuple[int, int], list[tuple[int, int]]], max_lines: int = MAX_LINES
) -> tuple[dict[tuple[int, int], list[tuple[int, int]]], float]:
    """The lines with the weakest bands left out until at most max_lines remain (the strongest band always stays),
    and the weight under which lines were left out (BANDS[0]'s edge when none was)."""
    kept, lowest = dict(lines), 0
    while sum(map(len, kept.values())) > max_lines and lowest < len(BANDS) - 1:
        kept = {key: pairs for key, pairs in kept.items() if key[1] > lowest}
        lowest += 1
    return kept, BANDS[lowest][0]


def _path_shape(path: str, colour: str, width: float, opacity: float, group: str) -> dict:
    """A layout shape drawing `path` (data coordinates), shown and hidden with its head's legend item."""
    return {
        "type": "path",
        "path": path,
        "xref": "x",
        "yref": "y",
        "layer": "below",
        "opacity": opacity,
        "line": {"color": colour, "width": width},
        "legendgroup": group,
        "showlegend": False,
    }


ROW_PX, MIN_ROW_PX, TALL_PX = 30, 12, 960  # a token's row; past 32 tokens rows shrink to fit ~960 px, down to 12


def row_px(n: int) -> float:
    """Pixels per token row: 30 up to 32 tokens, then less (a 128-token input is not 4000 px tall), at least 12."""
    return ROW_PX if n * ROW_PX <= TALL_PX else max(MIN_ROW_PX, TALL_PX / n)


def _token_column(x: float, tokens: list[str], side: str, hover: str, highlight: int | None, size: int = 15) -> dict:
    colours = ["#111" if highlight is None or i == highlight else "#bbb" for i in range(len(tokens))]
    return {
        "type": "scatter",
        "mode": "markers+text",
        "x": [x] * len(tokens),
        "y": [-i for i in range(len(tokens))],
        "text": tokens,
        "textposition": side,
        "textfont": {"size": size, "color": colours},
        "marker": {"size": 7, "color": "#444"},
        "hovertext": [f"{hover}: {t} ({i})" for i, t in enumerate(tokens)],
        "hoverinfo": "text",
        "showlegend": False,
    }


SIDE_LEGEND_PAST = 8  # heads: more than this many are listed beside the lines, not under them


def legend_place(n_heads: int) -> dict:
    """The legend under the lines for a few heads; beside them for many (MiniLM's 12): rows of 12 names under the
    lines would take the height the tokens need, on a projector most of all."""
    if n_heads > SIDE_LEGEND_PAST:
        return {"orientation": "v", "y": 1.0, "yanchor": "top", "x": 1.0, "xanchor": "left"}
    return {"orientation": "h", "y": -0.02, "yanchor": "top", "x": 0.5, "xanchor": "center"}


@remembered
def head_view_figure(
    weights,
    *,
    title: str,
    query_tokens: list[str],
    key_tokens: list[str],
    head_names: list[str],
    query_title: str,
    key_title: str,
    focus: int | None = None,
    thinned: str = "",
) -> go.Figure:
    """weights (H, Lq, Lk) of one layer as lines between token columns, one colour per head. With more than MAX_LINES
    lines the weakest bands are left out, and `thinned` (a template with {weight}) says so under the title."""
    w = float32(weights)
    n_heads = w.shape[0]
    lines, floor = thin_lines(head_view_lines(w, focus))
    if thinned and floor > BANDS[0][0]:
        title = f"{title}<br><sup>{thinned.format(weight=floor)}</sup>"
    legend, shapes = [], []
    for h in range(n_heads):
        colour, group = HEAD_COLOURS[h % len(HEAD_COLOURS)], f"h{h}"
        # a line-less trace carries the legend item (a line symbol), so every head is listed even with no
        # line drawn; clicking it toggles the head's shapes too, as they share its legendgroup
        legend.append({"type": "scatter", "x": [None], "y": [None], "mode": "lines", "name": head_names[h],
                       "legendgroup": group, "line": {"color": colour, "width": 4}})  # fmt: skip
        for band, (_, width, opacity) in enumerate(BANDS):
            pairs = lines.get((h, band), [])
            if pairs:
                path = " ".join(f"M {X_QUERY} {-i} L {X_KEY} {-j}" for i, j in pairs)
                shapes.append(_path_shape(path, colour, width, opacity, group))
    n = max(len(query_tokens), len(key_tokens))
    size = min(15, int(row_px(n)) - 2)  # the tokens' font fits their rows
    data = [
        *legend,
        _token_column(X_QUERY, query_tokens, "middle left", query_title, focus, size),
        _token_column(X_KEY, key_tokens, "middle right", key_title, None, size),
    ]
    return figure(
        {
            "data": data,
            "layout": {
                "title": {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 18}},
                "xaxis": {"visible": False, "range": [-0.45, 1.45]},
                "yaxis": {"visible": False, "range": [-(n - 1) - 0.7, 0.7]},
                "annotations": [
                    {"x": X_QUERY, "y": 0.7, "text": f"<b>{query_title}</b>", "showarrow": False, "yanchor": "bottom"},
                    {"x": X_KEY, "y": 0.7, "text": f"<b>{key_title}</b>", "showarrow": False, "yanchor": "bottom"},
                ],
                "legend": legend_place(n_heads),
                "height": int(150 + row_px(n) * n),
                "margin": {"l": 10, "r": 10, "t": 70, "b": 10},
                "font": FONT,
                "plot_bgcolor": "rgba(0,0,0,0)",
                "hovermode": "closest",
                "shapes": shapes,
                "meta": "head-view",
            },
        }
    )
