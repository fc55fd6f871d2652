"""viz.figure builds the lab's figures without plotly's validation: each builder that uses it must give the same JSON
as the figure plotly would have validated (named colour scales expanded as plotly.py expands them)."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io
import pytest

from model.teach.walkthrough import scaling_demo
from viz import attention, figure, head_view, matrix, walkthrough
from viz.figure import colour_scale

RNG = np.random.default_rng(0)
TOKENS = ["the", "cat", "the", "<eos>"]
WEIGHTS = RNG.dirichlet(np.ones(4), size=(2, 3, 4)).astype(np.float32)  # (L, H, Lq, Lk), rows sum to 1
WEIGHTS[1, 2] = np.nan  # a head switched off
HOVER = ("query", "key", "weight")
SIGNED, ROWS, CONTRIB, Z_ROW = (
    RNG.normal(size=(3, 5)),
    RNG.normal(size=(2, 3)),
    RNG.normal(size=(3, 4)),
    RNG.normal(size=4),
)


def builders() -> dict:
    """Each builder that goes through viz.figure, on small real inputs."""
    return {
        "overview": lambda: attention.overview_figure(
            WEIGHTS,
            title="t",
            layer_names=["L1", "L2"],
            head_names=["H1", "H2", "H3"],
            query_tokens=TOKENS,
            key_tokens=TOKENS,
            hover_names=HOVER,
        ),
        "overview, every head on": lambda: attention.overview_figure(
            WEIGHTS[:1],
            title="t",
            layer_names=["L1"],
            head_names=["H1", "H2", "H3"],
            query_tokens=TOKENS,
            key_tokens=TOKENS,
            hover_names=HOVER,
        ),
        "head": lambda: attention.head_figure(
            WEIGHTS[0, 1],
            title="t",
            query_tokens=TOKENS,
            key_tokens=TOKENS,
            query_title="q",
            key_title="k",
            hover_names=HOVER,
        ),
        "head view": lambda: head_view.head_view_figure(
            WEIGHTS[0],
            title="t",
            query_tokens=TOKENS,
            key_tokens=TOKENS,
            head_names=["H1", "H2", "H3"],
            query_title="q",
            key_title="k",
            focus=1,
        ),
        "signed matrix": lambda: matrix.matrix_figure(
            SIGNED,
            title="t",
            x_title="x",
            y_title="y",
            colorscale=matrix.SIGNED_SCALE + "_r",
            zmin=None,
            zmax=None,
            zmid=0.0,
        ),
        "walk heatmap": lambda: walkthrough.matrix_heatmap(
            np.array([[0.5, -np.inf], [0.2, 0.8]]), ["a", "b"], ["c", "d"], "t", weights=True, highlight_row=1
        ),
        "walk diverging": lambda: walkthrough.matrix_heatmap(ROWS, ["a", "b"], ["x", "y", "z"], "t"),
        "softmax bars": lambda: walkthrough.softmax_bars(
            np.array([0.7, 0.3, 0.0]), np.array([False, False, True]), ["a", "b", "c"], "t", "w", "masked"
        ),
        "contributions": lambda: walkthrough.contribution_bars(
            CONTRIB, Z_ROW, ["a", "b", "c"], ["1", "2", "3", "4"], "t", "z"
        ),
        "scaling demo": lambda: walkthrough.scaling_demo_figure(
            scaling_demo(d_ks=(1, 4, 16), n_samples=50), ("a", "b"), "d_k", ("s", "raw", "scaled"), 4
        ),
    }


def as_json(fig: go.Figure) -> dict:
    return json.loads(plotly.io.to_json(fig, validate=False))


@pytest.mark.parametrize("name", list(builders()))
def test_a_figure_built_without_validation_is_the_validated_one(name, monkeypatch):
    build = builders()[name]
    fast = as_json(build())
    monkeypatch.setattr(figure, "figure", lambda spec: go.Figure(spec))  # what the builders did before
    for module in (attention, head_view, matrix, walkthrough):
        monkeypatch.setattr(module, "figure", figure.figure)
    validated = as_json(build())
    assert fast == validated
    assert fast["data"], "the builder drew nothing"


def test_a_named_scale_becomes_plotly_pys_stops_and_a_list_stays():
    blues = colour_scale("Blues")
    assert blues[0] == [0.0, "rgb(247,251,255)"] and blues[-1] == [1.0, "rgb(8,48,107)"]
    assert colour_scale("Blues_r")[0] == [0.0, "rgb(8,48,107)"]  # reversed, as plotly reads the "_r" suffix
    stops = [[0.0, "#fff"], [1.0, "#000"]]
    assert colour_scale(stops) is stops
