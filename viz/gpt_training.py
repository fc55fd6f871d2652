"""Figures of a GPT training live: the loss with the held-out loss, and an induction run's head scores over the steps
above its losses (one shared step axis, so the phase change and the loss bump line up).

Pure plotly from numpy; every title, name and label comes in as an argument.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .training import BIG_FONT, GOAL_GREY, LINE_BLUE

LINE_ORANGE, LINE_RED = "#ff7f0e", "#d62728"
# The heads' lines: plotly's ten colours without the loss's blue and the in-context loss's red, so that no head reads
# as a loss in the legend (eight colours: the induction model's 2 × 4 heads each its own; layers differ by dash too).
HEAD_COLOURS = ("#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")


def _thin(steps: Sequence[int], values: Sequence[float], max_points: int) -> tuple[np.ndarray, np.ndarray]:
    stride = max(1, -(-len(steps) // max_points))  # at most max_points points: the browser redraws often
    return np.asarray(steps, dtype=np.int64)[::stride], np.asarray(values, dtype=np.float32)[::stride]


def _mark(fig: go.Figure, step: int | None, label: str, rows: int = 1) -> None:
    """A dashed vertical line at `step` across every row, labelled at the top."""
    if step is None:
        return
    for row in range(1, rows + 1):
        fig.add_vline(x=step, line={"color": GOAL_GREY, "dash": "dash", "width": 2}, row=row, col=1)
    fig.add_annotation(x=step, y=1, yref="paper", text=label, showarrow=False, yanchor="bottom", xanchor="left")


def gpt_loss_figure(
    train: tuple[Sequence[int], Sequence[float]],
    held_out: tuple[Sequence[int], Sequence[float]],
    *,
    title: str,
    x_title: str,
    y_title: str,
    names: tuple[str, str],  # (train, held-out)
    step_name: str,
    total_steps: int | None = None,
    height: int = 340,
    max_points: int = 300,
) -> go.Figure:
    """The batch loss per step and the held-out loss at each evaluation (nats per token, linear axis)."""
    fig = go.Figure()
    x, y = _thin(*train, max_points)
    fig.add_scatter(x=x, y=y, mode="lines", name=names[0], line={"color": LINE_BLUE, "width": 1.5},
                    hovertemplate=f"{step_name} %{{x}}<br>{names[0]} %{{y:.3f}}<extra></extra>")  # fmt: skip
    if len(held_out[0]):
        hx, hy = _thin(*held_out, max_points)
        fig.add_scatter(x=hx, y=hy, mode="lines+markers", name=names[1], line={"color": LINE_ORANGE, "width": 3},
                        hovertemplate=f"{step_name} %{{x}}<br>{names[1]} %{{y:.3f}}<extra></extra>")  # fmt: skip
    fig.update_layout(
        title={"text": title, "font": {"size": 20}}, height=height, font=BIG_FONT,
        margin={"l": 70, "r": 20, "t": 60, "b": 60}, legend={"orientation": "h", "y": -0.25},
        xaxis={"title": {"text": x_title}, **({"range": [0, total_steps]} if total_steps else {})},
        yaxis={"title": {"text": y_title}},
    )  # fmt: skip
    return fig


def induction_curves_figure(
    steps: Sequence[int],
    induction: np.ndarray,  # (N, L, H): every head's induction score at each scored step
    previous: np.ndarray,  # (N, L, H): every head's previous-token score
    loss: Sequence[float],  # (N,) loss on the scored sequences
    in_context_loss: Sequence[float],  # (N,) second copy − first copy
    *,
    head_names: Sequence[Sequence[str]],  # [layer][head] → "L2 H1"
    titles: tuple[str, str],  # (induction score panel, previous-token score panel)
    loss_title: str,
    x_title: str,
    score_title: str,
    loss_axis_title: str,
    loss_names: tuple[str, str],  # (loss, in-context loss)
    step_name: str,
    formed_step: int | None = None,
    formed_label: str = "",
    total_steps: int | None = None,
    height: int = 620,
) -> go.Figure:
    """Three rows on one step axis: every head's induction score, every head's previous-token score, then the loss
    and the in-context loss; a dashed line where the head formed."""
    fig = make_subplots(rows=3, cols=1, shared_xaxes=True, vertical_spacing=0.08,
                        subplot_titles=(*titles, loss_title))  # fmt: skip
    x = np.asarray(steps, dtype=np.int64)
    layers, heads = induction.shape[1:] if induction.ndim == 3 else (0, 0)
    for row, scores in ((1, induction), (2, previous)):
        for layer in range(layers):
            for head in range(heads):
                name = head_names[layer][head]
                fig.add_scatter(
                    x=x, y=np.asarray(scores[:, layer, head], dtype=np.float32), mode="lines", name=name,
                    legendgroup=name, showlegend=row == 1, row=row, col=1,
                    line={"color": HEAD_COLOURS[(layer * heads + head) % len(HEAD_COLOURS)], "width": 2,
                          "dash": "solid" if layer else "dot"},
                    hovertemplate=f"{name}<br>{step_name} %{{x}}<br>%{{y:.2f}}<extra></extra>",
                )  # fmt: skip
        fig.update_yaxes(range=[0, 1.02], title={"text": score_title}, row=row, col=1)
    for values, name, colour in ((loss, loss_names[0], LINE_BLUE), (in_context_loss, loss_names[1], LINE_RED)):
        fig.add_scatter(x=x, y=np.asarray(values, dtype=np.float32), mode="lines", name=name, row=3, col=1,
                        line={"color": colour, "width": 3},
                        hovertemplate=f"{name}<br>{step_name} %{{x}}<br>%{{y:.3f}}<extra></extra>")  # fmt: skip
    fig.update_yaxes(title={"text": loss_axis_title}, row=3, col=1)
    fig.update_xaxes(title={"text": x_title}, row=3, col=1)
    if total_steps:
        fig.update_xaxes(range=[0, total_steps])
    _mark(fig, formed_step, formed_label, rows=3)
    fig.update_layout(height=height, font=BIG_FONT, margin={"l": 70, "r": 20, "t": 60, "b": 60},
                      legend={"orientation": "v", "x": 1.01, "y": 1})  # fmt: skip
    return fig
