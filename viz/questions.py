"""The class's answers to a question: one horizontal bar per option, the true answer green once revealed.

Options read top to bottom in their own order (the y axis is numeric, so a repeated token keeps its bar).
"""

from __future__ import annotations

import plotly.graph_objects as go

from .matrix import FONT, FONT_SIZE

BAR = "#8a94a6"  # grey-blue: every option before the reveal
MUTED = "#c9ced8"  # the wrong options after the reveal
ANSWER = "#1a8f3c"  # the true answer (dark enough for a washed-out projector)


def answers_figure(
    labels: list[str], counts: list[int], *, answer: int | None, title: str, count_title: str, hover_name: str
) -> go.Figure:
    """How many chose each option; `answer` (an index) is drawn green, the others muted, once revealed."""
    n = len(labels)
    colors = [BAR] * n if answer is None else [ANSWER if i == answer else MUTED for i in range(n)]
    top = max([*counts, 1])
    return go.Figure(
        go.Bar(
            x=list(counts), y=list(range(n)), orientation="h", marker={"color": colors},
            text=[str(c) for c in counts], textposition="outside", cliponaxis=False,
            customdata=labels, hovertemplate=f"%{{customdata}}<br>{hover_name}: %{{x}}<extra></extra>",
        ),
        layout={
            "title": {"text": title}, "font": FONT, "height": 90 + 34 * n, "showlegend": False,
            "margin": {"l": 16 + int(0.6 * FONT_SIZE * max((len(t) for t in labels), default=3)), "r": 30,
                       "t": 50, "b": 40},
            "xaxis": {"title": {"text": count_title}, "range": [0, top * 1.15], "dtick": max(1, -(-top // 8)),
                      "rangemode": "tozero"},
            "yaxis": {"tickmode": "array", "tickvals": list(range(n)), "ticktext": labels,
                      "range": [n - 0.5, -0.5], "showgrid": False},
            "plot_bgcolor": "white", "paper_bgcolor": "white", "bargap": 0.25,
        },
    )  # fmt: skip


MODEL = "#4c78a8"  # the model's probabilities, beside the class's shares


def answers_beside_model_figure(
    labels: list[str], class_shares: list[float], model_probs: list[float] | None, *, answer: int | None,
    title: str, class_name: str, model_name: str, share_title: str,
) -> go.Figure:  # fmt: skip
    """Each option's share of the class's answers beside the model's probability of it (two bars per option, both
    from 0 to 1); the true answer's class bar green. model_probs None: the class's bars alone."""
    n = len(labels)
    colors = [ANSWER if i == answer else BAR for i in range(n)]
    rows = list(range(n))
    bars = [
        go.Bar(
            x=list(class_shares), y=rows, orientation="h", name=class_name, marker={"color": colors},
            text=[f"{s:.0%}" for s in class_shares], textposition="outside", cliponaxis=False, customdata=labels,
            hovertemplate=f"%{{customdata}}<br>{class_name}: %{{x:.1%}}<extra></extra>",
        )
    ]  # fmt: skip
    if model_probs is not None:
        bars.append(
            go.Bar(
                x=list(model_probs), y=rows, orientation="h", name=model_name, marker={"color": MODEL},
                text=[f"{p:.0%}" for p in model_probs], textposition="outside", cliponaxis=False, customdata=labels,
                hovertemplate=f"%{{customdata}}<br>{model_name}: %{{x:.1%}}<extra></extra>",
            )
        )  # fmt: skip
    return go.Figure(
        bars,
        layout={
            "meta": "answers-beside-model", "title": {"text": title}, "font": FONT,
            "height": 110 + (52 if model_probs is not None else 34) * n,
            "barmode": "group", "showlegend": model_probs is not None, "legend": {"orientation": "h", "y": -0.15},
            "margin": {"l": 16 + int(0.6 * FONT_SIZE * max((len(t) for t in labels), default=3)), "r": 40,
                       "t": 50, "b": 60},
            "xaxis": {"title": {"text": share_title}, "range": [0, 1.15], "tickformat": ".0%"},
            "yaxis": {"tickmode": "array", "tickvals": rows, "ticktext": labels, "range": [n - 0.5, -0.5],
                      "showgrid": False},
            "plot_bgcolor": "white", "paper_bgcolor": "white", "bargap": 0.25,
        },
    )  # fmt: skip
