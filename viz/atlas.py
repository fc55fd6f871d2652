"""The head atlas drawn: one grid, a row per attention block (layer) and a column per head, each cell coloured by the
head's dominant role and labelled with it; hovering a cell lists the head's share of attention per role and its
breadth. Numbers come from model.analysis.atlas; names and labels are arguments (language-free)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .figure import figure
from .matrix import FONT, FONT_SIZE, text_em
from .memo import remembered

ROLE_COLOURS = {  # one colour per dominant role (model.analysis.atlas.DOMINANT)
    "previous": "#1f77b4", "next": "#ff7f0e", "self": "#2ca02c", "cls": "#d62728", "sep": "#9467bd",
    "punctuation": "#8c564b", "mirror": "#e377c2", "previous_line": "#17becf", "induction": "#bcbd22",
    "broad": "#c7c7c7", "mixed": "#f2e394",
}  # fmt: skip


def _discrete_scale(n: int, colours: list[str]) -> list[list]:
    """A colorscale giving integer i (0 … n−1, z from −0.5 to n − 0.5) the colour colours[i] in flat bands."""
    scale = []
    for i, colour in enumerate(colours):
        scale += [[i / n, colour], [(i + 1) / n, colour]]
    return scale


@remembered
def atlas_figure(
    dominant: np.ndarray,
    scores: np.ndarray,
    entropy_norm: np.ndarray,
    *,
    title: str,
    row_names: list[str],
    head_names: list[str],
    roles: list[str],
    role_names: dict[str, str],
    score_names: list[str],
    breadth_name: str,
    role_title: str,
) -> go.Figure:
    """dominant (N, H) role ids ("" where a block has no such head), scores (N, H, R) in `score_names`' order (NaN:
    the role does not apply), entropy_norm (N, H); `roles`: every id that may appear (legend order)."""
    n_rows, n_heads = dominant.shape
    index = {role: i for i, role in enumerate(roles)}
    z = np.array([[index.get(str(r), np.nan) for r in row] for row in dominant], dtype=np.float32)
    cells = [[role_names.get(str(r), "") for r in row] for row in dominant]
    hover = []
    for b in range(n_rows):
        row = []
        for h in range(n_heads):
            lines = [
                f"<b>{row_names[b]} · {head_names[h]}</b>",
                f"{role_title}: {role_names.get(str(dominant[b, h]), '')}",
            ]
            lines += [f"{name}: {s:.2f}" for name, s in zip(score_names, scores[b, h], strict=True) if np.isfinite(s)]
            if np.isfinite(entropy_norm[b, h]):
                lines.append(f"{breadth_name}: {entropy_norm[b, h]:.2f}")
            row.append("<br>".join(lines))
        hover.append(row)
    colours = [ROLE_COLOURS.get(role, "#999") for role in roles]
    cell_px = 44 if n_heads > 8 else 60
    trace = {
        "type": "heatmap", "z": z, "zmin": -0.5, "zmax": len(roles) - 0.5,
        "colorscale": _discrete_scale(len(roles), colours), "text": cells, "texttemplate": "%{text}",
        "textfont": {"size": 11 if n_heads > 8 else 13}, "customdata": hover,
        "hovertemplate": "%{customdata}<extra></extra>", "xgap": 2, "ygap": 2, "hoverongaps": False,
        "colorbar": {"tickmode": "array", "tickvals": list(range(len(roles))),
                     "ticktext": [role_names[r] for r in roles], "thickness": 14, "len": 0.95},
    }  # fmt: skip
    return figure(
        {
            "data": [trace],
            "layout": {
                "title": {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 18}},
                "xaxis": {"tickmode": "array", "tickvals": list(range(n_heads)), "ticktext": head_names,
                          "side": "top", "showgrid": False, "zeroline": False},
                "yaxis": {"tickmode": "array", "tickvals": list(range(n_rows)), "ticktext": row_names,
                          "autorange": "reversed", "showgrid": False, "zeroline": False},
                "height": int(130 + cell_px * n_rows),
                "margin": {"l": int(20 + FONT_SIZE * max(map(text_em, row_names))), "r": 10, "t": 80, "b": 10},
                "font": FONT,
                "plot_bgcolor": "rgba(0,0,0,0)",
                "meta": "head-atlas",
            },
        }
    )  # fmt: skip
