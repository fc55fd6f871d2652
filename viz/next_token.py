"""The Next-token page's figures: the candidates for the next token as bars, the newest token's attention row in
every layer and head, and the logit lens (each layer's guess at the next token).

Every number comes in computed (model.sampling's Chain, the trace, model.analysis.logit_lens); these builders only
lay it out. Words are arguments, so the figures speak the page's language.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from .figure import figure
from .matrix import FONT, float32, label_margins, text_em
from .memo import remembered

SHOWN_AS = {" ": "␣", "\n": "↵", "\t": "⇥", "\r": "␍"}  # characters that would print as nothing
KEPT_COLOUR, CUT_COLOUR, BEFORE_COLOUR, MARK_COLOUR = "#1f77b4", "#c8c8c8", "#9ecae1", "#d62728"
BAR_ROW_PX = 34
LEGEND_GAP_PX = 30  # the legend under the bars, clear of the axis' tick labels
LABEL_PX = 13  # a bar's label (the projector's view makes it larger)


def token_label(token: str) -> str:
    """A token as a reader can see it: a space as ␣, a line break as ↵ (a character-level model writes them)."""
    return "".join(SHOWN_AS.get(ch, ch) for ch in token)


def _percent(p: float) -> str:
    return f"{100 * p:.1f}%" if p >= 0.001 or p == 0 else "<0.1%"


def _row_label(before: float, after: float, kept: bool, cut_name: str) -> str:
    """One label per candidate, beside its dark bar: "2.6%", "2.6% → 3.1%" where the cut's renormalising changed it,
    "2.6% · cut" for a token the cut removed. One label a row, at a fixed size: two labels a row were shrunk by plotly
    to the bars' thickness, unreadable on a projector."""
    if not kept:
        return f"{_percent(before)} · {cut_name}"
    shown, renormalised = _percent(before), _percent(after)
    return renormalised if shown == renormalised else f"{shown} → {renormalised}"


@remembered
def candidates_figure(
    tokens: list[str],
    probs,
    renormalised,
    kept,
    *,
    marked: int | None,
    title: str,
    before_name: str,
    after_name: str,
    cut_name: str,
    marked_name: str,
) -> go.Figure:
    """The candidates (most likely first, top to bottom) as two bars each: softmax(logits / T) before the cut (light)
    and the renormalised probability after it (dark); a candidate the cut removed is grey, with "cut" beside it.
    `marked`: the row of the candidate the seeded sample draws, ringed, and named in the legend."""
    probs, renormalised, kept = float32(probs), float32(renormalised), np.asarray(kept, dtype=bool)
    n = len(tokens)
    labels = [f"{i + 1}. {token_label(t)}" for i, t in enumerate(tokens)]
    y = list(range(n))
    before = {
        "type": "bar", "orientation": "h", "name": before_name, "y": y, "x": probs,
        "marker": {"color": [BEFORE_COLOUR if k else CUT_COLOUR for k in kept]},
        "hovertemplate": "%{customdata}<br>" + before_name + ": %{x:.4f}<extra></extra>", "customdata": labels,
    }  # fmt: skip
    after = {
        "type": "bar", "orientation": "h", "name": after_name, "y": y,
        "x": np.where(kept, renormalised, 0.0).astype(np.float32),
        "marker": {"color": KEPT_COLOUR}, "customdata": labels,
        "text": [_row_label(float(p), float(q), bool(k), cut_name) for p, q, k in zip(probs, renormalised, kept,
                                                                                        strict=True)],
        "textposition": "outside", "cliponaxis": False, "constraintext": "none", "textfont": {"size": LABEL_PX},
        "hovertemplate": "%{customdata}<br>" + after_name + ": %{x:.4f}<extra></extra>",
    }  # fmt: skip
    shapes, legend_only = [], []
    if marked is not None and 0 <= marked < n:  # the row ringed, and named by a legend item of its own
        shapes.append({"type": "rect", "xref": "paper", "x0": 0, "x1": 1, "yref": "y", "y0": marked - 0.5,
                       "y1": marked + 0.5, "line": {"color": MARK_COLOUR, "width": 2}, "layer": "below"})  # fmt: skip
        legend_only.append({"type": "scatter", "x": [None], "y": [None], "mode": "markers", "name": marked_name,
                            "marker": {"symbol": "square-open", "size": 14, "color": MARK_COLOUR,
                                       "line": {"width": 2}}, "hoverinfo": "skip"})  # fmt: skip
    top = float(max(probs.max(initial=0.0), np.where(kept, renormalised, 0).max(initial=0.0)))
    longest = max((text_em(label) for label in labels), default=2.0)
    return figure(
        {
            "data": [before, after, *legend_only],
            "layout": {
                "title": {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 18}},
                "barmode": "group", "bargap": 0.25, "bargroupgap": 0.05,
                "xaxis": {"range": [0, min(1.0, top * 1.25 + 0.02)], "tickformat": ".0%", "zeroline": True,
                          "hoverformat": ".4f"},
                "yaxis": {"tickmode": "array", "tickvals": y, "ticktext": labels, "range": [n - 0.5, -0.5],
                          "automargin": False},
                "legend": {"orientation": "h", "y": -LEGEND_GAP_PX / (BAR_ROW_PX * n), "yanchor": "top", "x": 0.0,
                           "xanchor": "left"},
                "height": int(50 + 110 + BAR_ROW_PX * n), "font": FONT,
                "margin": {"l": int(24 + 14 * longest), "r": 96, "t": 50, "b": 110},  # r: a label "4.1% → 97.2%"
                "shapes": shapes, "plot_bgcolor": "rgba(0,0,0,0)", "meta": "next-token-candidates",
            },
        }
    )  # fmt: skip


def layer_head_rows(rows) -> np.ndarray:
    """(L, H, T) rows → one (L·(H+1)−1, T) grid: layers down, one blank (NaN) row between layers."""
    w = float32(rows)
    n_layers, n_heads, n_keys = w.shape
    grid = np.full((n_layers * (n_heads + 1) - 1, n_keys), np.nan, dtype=np.float32)
    for layer in range(n_layers):
        grid[layer * (n_heads + 1) : layer * (n_heads + 1) + n_heads] = w[layer]
    return grid


@remembered
def newest_rows_figure(
    rows,
    *,
    title: str,
    row_names: list[str],
    key_tokens: list[str],
    key_title: str,
    hover_names: tuple[str, str, str],
) -> go.Figure:
    """The newest token's attention row (its weights over every token so far) in each layer and head: `rows` (L, H,
    T) drawn as one heatmap of L·H rows, a blank row between layers; `row_names` names the L·H rows ("L1 · H1")."""
    w = float32(rows)
    n_layers, n_heads, n_keys = w.shape
    grid = layer_head_rows(w)
    names = [""] * grid.shape[0]
    for layer in range(n_layers):
        for head in range(n_heads):
            names[layer * (n_heads + 1) + head] = row_names[layer * n_heads + head]
    keys = [f"{j} · {token_label(t)}" for j, t in enumerate(key_tokens)]
    row_name, key_name, value_name = hover_names
    text = [[f"{name}<br>{key_name}: {k}<br>{value_name}: {v:.3f}" if name else "" for k, v in zip(keys, row,
             strict=True)] for name, row in zip(names, grid, strict=True)]  # fmt: skip
    step = max(1, -(-n_keys // 48))
    margin = label_margins(keys[::step], [n for n in names if n], key_title, "")
    return figure(
        {
            "data": [
                {"type": "heatmap", "z": grid, "colorscale": "Blues", "zmin": 0.0, "zmax": 1.0, "xgap": 1,
                 "ygap": 0, "text": text, "hovertemplate": "%{text}<extra></extra>", "hoverongaps": False,
                 "colorbar": {"thickness": 14, "len": 0.9}, "name": row_name},
            ],
            "layout": {
                "title": {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 18}},
                "xaxis": {"title": {"text": key_title}, "tickmode": "array", "tickvals": list(range(0, n_keys, step)),
                          "ticktext": keys[::step], "tickangle": -45, "showgrid": False, "zeroline": False,
                          "range": [-0.5, n_keys - 0.5]},
                "yaxis": {"tickmode": "array", "tickvals": [i for i, n in enumerate(names) if n],
                          "ticktext": [n for n in names if n], "range": [len(names) - 0.5, -0.5], "showgrid": False,
                          "zeroline": False},
                "height": int(140 + 18 * len(names) + margin["b"]), "margin": margin, "font": FONT,
                "plot_bgcolor": "rgba(0,0,0,0)", "meta": "next-token-rows",
            },
        }
    )  # fmt: skip


@remembered
def logit_lens_figure(
    tokens: list[list[str]],
    probs,
    *,
    answer: list[str],
    title: str,
    layer_names: list[str],
    rank_names: list[str],
    answer_name: str,
    hover_names: tuple[str, str, str],
) -> go.Figure:
    """The logit lens as a table of colour: a row per layer (the residual stream read through ln_f and the LM head),
    its top candidates across (cell text: the token; colour: its probability), and a last column with the final
    answer's probability at that layer (`answer`: the cell text, "token · #rank"). `probs` (layers, k + 1): the
    top-k probabilities, then the answer's."""
    z = float32(probs)
    n_rows, n_cols = z.shape
    cells = [[token_label(t) for t in row] + [a] for row, a in zip(tokens, answer, strict=True)]
    columns = [*rank_names, answer_name]
    layer_name, column_name, value_name = hover_names
    hover = [[f"{layer_name}: {layer_names[i]}<br>{column_name}: {columns[j]}<br>{cells[i][j]}<br>{value_name}: "
              f"{z[i, j]:.3f}" for j in range(n_cols)] for i in range(n_rows)]  # fmt: skip
    margin = label_margins(columns, layer_names, "", "")
    return figure(
        {
            "data": [
                {"type": "heatmap", "z": z, "colorscale": "Greens", "zmin": 0.0, "zmax": 1.0, "xgap": 2, "ygap": 2,
                 "text": cells, "texttemplate": "%{text}<br>%{z:.1%}", "textfont": {"size": 14}, "customdata": hover,
                 "hovertemplate": "%{customdata}<extra></extra>", "showscale": False},
            ],
            "layout": {
                "title": {"text": title, "x": 0.0, "xanchor": "left", "font": {"size": 18}},
                "xaxis": {"tickmode": "array", "tickvals": list(range(n_cols)), "ticktext": columns, "side": "top",
                          "showgrid": False, "zeroline": False, "range": [-0.5, n_cols - 0.5]},
                "yaxis": {"tickmode": "array", "tickvals": list(range(n_rows)), "ticktext": layer_names,
                          "range": [n_rows - 0.5, -0.5], "showgrid": False, "zeroline": False},
                "height": int(120 + 52 * n_rows), "font": FONT,
                "margin": {**margin, "t": 90, "b": 20}, "plot_bgcolor": "rgba(0,0,0,0)", "meta": "logit-lens",
            },
        }
    )  # fmt: skip
