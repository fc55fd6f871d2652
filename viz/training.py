"""Training figures: loss and accuracy curves, an attention head forming over training, before/after.

Pure plotly from numpy; every title and label comes in as an argument. Token axes are numeric with
tick labels, so repeated tokens (the two 1s of "3 1 4 1 5") keep their own rows and columns.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

BIG_FONT = {"size": 16}
LINE_BLUE, LINE_GREEN, GOAL_GREY = "#1f77b4", "#2ca02c", "#888888"
ATTENTION_SCALE = "Blues"


def _layout(title: str, x_title: str, y_title: str, height: int) -> dict:
    return {
        "title": {"text": title, "font": {"size": 20}},
        "xaxis": {"title": {"text": x_title}},
        "yaxis": {"title": {"text": y_title}},
        "height": height,
        "margin": {"l": 70, "r": 20, "t": 60, "b": 60},
        "font": BIG_FONT,
        "showlegend": False,
    }


def loss_figure(
    steps: Sequence[int],
    losses: Sequence[float],
    *,
    title: str,
    x_title: str,
    y_title: str,
    hover_names: tuple[str, str],
    total_steps: int | None = None,
    height: int = 320,
    max_points: int = 400,
) -> go.Figure:
    """Training loss per step on a log scale (it falls by orders of magnitude); hover_names = (step, loss) words."""
    stride = max(1, -(-len(steps) // max_points))  # keep at most max_points points (the browser redraws often)
    x = np.asarray(steps, dtype=np.int64)[::stride]
    y = np.asarray(losses, dtype=np.float32)[::stride]
    layout = _layout(title, x_title, y_title, height)
    layout["yaxis"].update(type="log", dtick=1, exponentformat="power")  # one tick per decade
    if total_steps:
        layout["xaxis"]["range"] = [0, total_steps]
    step_word, loss_word = hover_names
    trace = {"type": "scatter", "mode": "lines", "x": x, "y": y, "line": {"color": LINE_BLUE, "width": 2},
             "hovertemplate": f"{step_word} %{{x}}<br>{loss_word} %{{y:.4f}}<extra></extra>"}  # fmt: skip
    return go.Figure({"data": [trace], "layout": layout})


def accuracy_figure(
    steps: Sequence[int],
    accuracies: Sequence[float],
    *,
    title: str,
    x_title: str,
    y_title: str,
    step_name: str,
    goal: float | None = None,
    total_steps: int | None = None,
    height: int = 320,
) -> go.Figure:
    """Held-out exact match (0–1, shown as %) with the goal as a dashed line; step_name is the hover's word."""
    layout = _layout(title, x_title, y_title, height)
    layout["yaxis"].update(range=[0, 1.02], tickformat=".0%")
    if total_steps:
        layout["xaxis"]["range"] = [0, total_steps]
    if goal is not None:
        layout["shapes"] = [{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": goal, "y1": goal,
                             "line": {"color": GOAL_GREY, "dash": "dash", "width": 2}}]  # fmt: skip
    trace = {"type": "scatter", "mode": "lines+markers", "x": np.asarray(steps, dtype=np.int64),
             "y": np.asarray(accuracies, dtype=np.float32), "line": {"color": LINE_GREEN, "width": 3},
             "marker": {"size": 8}, "hovertemplate": f"{step_name} %{{x}}<br>%{{y:.1%}}<extra></extra>"}  # fmt: skip
    return go.Figure({"data": [trace], "layout": layout})


def _heatmap(weights: np.ndarray, x_tokens: Sequence[str], y_tokens: Sequence[str], weight_name: str,
             xaxis: str = "x", yaxis: str = "y", show_scale: bool = True) -> dict:  # fmt: skip
    """One attention matrix (Lq, Lk) as a heatmap on numeric axes, colour fixed to [0, 1]; hover names the
    query → key tokens and the weight (`weight_name`)."""
    return {
        "type": "heatmap", "z": weights.astype(np.float32), "x": np.arange(len(x_tokens)),
        "y": np.arange(len(y_tokens)), "zmin": 0.0, "zmax": 1.0, "colorscale": ATTENTION_SCALE,
        "showscale": show_scale, "xaxis": xaxis, "yaxis": yaxis,
        "customdata": np.array([[f"{q} → {k}" for k in x_tokens] for q in y_tokens], dtype=object),
        "hovertemplate": f"%{{customdata}}<br>{weight_name} %{{z:.2f}}<extra></extra>", "xgap": 1, "ygap": 1,
    }  # fmt: skip


def _token_axis(tokens: Sequence[str], title: str, reverse: bool = False, domain: list[float] | None = None) -> dict:
    axis = {"tickmode": "array", "tickvals": list(range(len(tokens))), "ticktext": list(tokens),
            "title": {"text": title}, "showgrid": False, "zeroline": False, "tickfont": {"size": 16}}  # fmt: skip
    if reverse:
        axis["autorange"] = "reversed"
    if domain is not None:
        axis["domain"] = domain
    return axis


def attention_timeline_figure(
    weights: Sequence[np.ndarray],  # one (Lq, Lk) matrix per snapshot
    steps: Sequence[int],
    x_tokens: Sequence[str],
    y_tokens: Sequence[str],
    *,
    title: str,
    x_title: str,
    y_title: str,
    step_label: str,
    play_label: str,
    pause_label: str,
    weight_name: str,
    height: int = 560,
    active: int | None = None,
) -> go.Figure:
    """One head's weights at every snapshot as animation frames, with a slider and Play/Pause buttons
    (played in the browser, so the animation is smooth on a projector). step_label is the slider's current
    value with {n} where the step goes ("step {n}"). The figure opens on snapshot `active` (default: the last)."""
    # Frames carry only z: plotly merges them into the base trace (labels, hover, colours stay).
    frames = [
        {"name": str(s), "data": [{"type": "heatmap", "z": w.astype(np.float32)}]}
        for w, s in zip(weights, steps, strict=True)
    ]
    jump = {"mode": "immediate", "frame": {"duration": 0, "redraw": True}, "transition": {"duration": 0}}
    slider_steps = [{"label": str(s), "method": "animate", "args": [[str(s)], jump]} for s in steps]
    play_args = {"frame": {"duration": 250, "redraw": True}, "fromcurrent": True, "transition": {"duration": 0}}
    prefix, _, suffix = step_label.partition("{n}")
    shown = len(steps) - 1 if active is None else min(max(active, 0), len(steps) - 1)
    layout = {
        "title": {"text": title, "font": {"size": 20}},
        "xaxis": _token_axis(x_tokens, x_title),
        "yaxis": _token_axis(y_tokens, y_title, reverse=True),
        "height": height,
        "font": BIG_FONT,
        "margin": {"l": 80, "r": 20, "t": 60, "b": 150},
        "updatemenus": [{
            "type": "buttons", "direction": "left", "x": 0.0, "y": -0.24, "xanchor": "left", "yanchor": "top",
            "showactive": False, "pad": {"r": 10, "t": 10},
            "buttons": [
                {"label": play_label, "method": "animate", "args": [None, play_args]},
                {"label": pause_label, "method": "animate",
                 "args": [[None], {"mode": "immediate", "frame": {"duration": 0, "redraw": False}}]},
            ],
        }],
        "sliders": [{
            "active": shown, "x": 0.3, "y": -0.2, "len": 0.7, "xanchor": "left", "yanchor": "top",
            "currentvalue": {"prefix": prefix, "suffix": suffix, "font": {"size": 18}, "xanchor": "right"},
            "pad": {"t": 30},
            "steps": slider_steps,
        }],
    }  # fmt: skip
    first = weights[shown] if len(weights) else np.zeros((len(y_tokens), len(x_tokens)), np.float32)
    return go.Figure({"data": [_heatmap(first, x_tokens, y_tokens, weight_name)], "layout": layout, "frames": frames})


def attention_heatmap_figure(
    weights: np.ndarray,
    x_tokens: Sequence[str],
    y_tokens: Sequence[str],
    *,
    title: str,
    x_title: str,
    y_title: str,
    weight_name: str,
    subtitle: str = "",
    height: int = 440,
) -> go.Figure:
    """One head's weights (Lq, Lk), colour fixed to [0, 1]."""
    layout = {
        "title": {"text": title, "font": {"size": 20}, "subtitle": {"text": subtitle}},
        "xaxis": _token_axis(x_tokens, x_title),
        "yaxis": _token_axis(y_tokens, y_title, reverse=True),
        "height": height,
        "font": BIG_FONT,
        "margin": {"l": 80, "r": 20, "t": 80, "b": 60},
    }
    return go.Figure({"data": [_heatmap(weights, x_tokens, y_tokens, weight_name)], "layout": layout})


def before_after_figure(
    before: np.ndarray,
    after: np.ndarray,
    x_tokens: Sequence[str],
    y_tokens: Sequence[str],
    *,
    before_title: str,
    after_title: str,
    x_title: str,
    y_title: str,
    weight_name: str,
    height: int = 460,
    title_size: int = 20,
) -> go.Figure:
    """The same head at the first and the last snapshot (or any two matrices of one sequence), side by side, same
    colour scale; each title centred over its matrix."""
    data = [
        _heatmap(before, x_tokens, y_tokens, weight_name, "x", "y", show_scale=False),
        _heatmap(after, x_tokens, y_tokens, weight_name, "x2", "y2", show_scale=True),
    ]
    layout = {
        "xaxis": _token_axis(x_tokens, x_title, domain=[0.0, 0.45]),
        "yaxis": _token_axis(y_tokens, y_title, reverse=True),
        "xaxis2": {**_token_axis(x_tokens, x_title, domain=[0.53, 0.98]), "anchor": "y2"},
        "yaxis2": {**_token_axis(y_tokens, "", reverse=True), "anchor": "x2"},
        "height": height,
        "font": BIG_FONT,
        "margin": {"l": 80, "r": 20, "t": 60, "b": 60},
        "annotations": [
            {"text": before_title, "x": 0.225, "y": 1.08, "xref": "paper", "yref": "paper", "showarrow": False,
             "xanchor": "center", "font": {"size": title_size}},
            {"text": after_title, "x": 0.755, "y": 1.08, "xref": "paper", "yref": "paper", "showarrow": False,
             "xanchor": "center", "font": {"size": title_size}},
        ],
    }  # fmt: skip
    return go.Figure({"data": data, "layout": layout})
