"""viz.projector: a figure restyled for a projector keeps its data and labels, gets larger fonts and
higher-contrast colour scales, and is still a figure plotly accepts."""

from __future__ import annotations

import base64
import re
from itertools import pairwise

import numpy as np
import plotly.colors as pc
import plotly.graph_objects as go
import pytest

from viz import walkthrough_latex as tex
from viz.attention import overview_figure
from viz.matrix import matrix_figure
from viz.projector import FONT_SCALE, INK, MIN_FONT, WHITE, projector_layout
from viz.training import attention_timeline_figure
from viz.walkthrough import matrix_heatmap

RNG = np.random.default_rng(0)


def array(value) -> np.ndarray:
    """A figure dict's array: plotly writes numpy arrays as base64 typed arrays {dtype, bdata, shape}."""
    if isinstance(value, dict):
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        return flat.reshape([int(n) for n in str(value["shape"]).split(",")])
    return np.asarray(value)


def rgb(colour: str) -> np.ndarray:
    return np.array(pc.unlabel_rgb(colour), dtype=float)


def colour_at(scale, t: float) -> np.ndarray:
    """The colour a plotly scale gives the value t in [0, 1] (linear between stops, as plotly draws it)."""
    stops = [(float(p), rgb(c)) for p, c in scale]
    for (p0, c0), (p1, c1) in pairwise(stops):
        if p0 <= t <= p1:
            return c0 + (c1 - c0) * ((t - p0) / (p1 - p0) if p1 > p0 else 0.0)
    raise ValueError(t)


def test_data_labels_and_ranges_stay_fonts_grow_and_plotly_accepts_it():
    z = RNG.random((5, 7)).astype(np.float32)
    labels = ["the", "cat", "<b>x</b>", "a", "b", "c", "d"]
    fig = matrix_figure(z, title="T", x_title="key", y_title="query", x_labels=labels, y_labels=labels[:5])
    before = fig.to_dict()
    out = projector_layout(fig, max_height=300)
    spec = out.to_dict()
    go.Figure(spec)  # validates: the restyled figure is one plotly accepts
    np.testing.assert_array_equal(array(spec["data"][0]["z"]), z)
    for axis in ("xaxis", "yaxis"):
        assert spec["layout"][axis]["ticktext"] == before["layout"][axis]["ticktext"]
        assert spec["layout"][axis]["range"] == before["layout"][axis]["range"]
        assert spec["layout"][axis]["tickfont"]["size"] >= MIN_FONT and spec["layout"][axis]["automargin"]
    assert (spec["data"][0]["zmin"], spec["data"][0]["zmax"]) == (0.0, 1.0)
    assert spec["layout"]["font"]["size"] == round(before["layout"]["font"]["size"] * FONT_SCALE)
    assert spec["data"][0]["textfont"]["size"] > before["data"][0]["textfont"]["size"]
    assert spec["layout"]["height"] == 300 and before["layout"]["height"] == 480
    assert fig.to_dict() == before  # the original is left alone


def test_uncoloured_text_turns_dark_chosen_colours_and_cell_text_keep_theirs():
    z = RNG.random((3, 4)).astype(np.float32)
    fig = go.Figure(matrix_heatmap(z, ["a", "b", "c"], ["1", "2", "3", "4"], "T", highlight_row=1))  # a copy to change
    fig.update_layout(yaxis_tickfont_color="rgb(200,0,0)")  # a colour the figure chose
    before = fig.to_dict()
    spec = projector_layout(fig).to_dict()
    go.Figure(spec)
    layout = spec["layout"]
    assert layout["font"]["color"] == INK and layout["title"]["font"]["color"] == INK
    assert layout["xaxis"]["tickfont"]["color"] == INK and layout["xaxis"]["title"]["font"]["color"] == INK
    assert layout["yaxis"]["tickfont"]["color"] == "rgb(200,0,0)"
    assert "color" not in before["data"][0]["textfont"]  # plotly picks dark or light text per cell: kept so
    assert "color" not in spec["data"][0]["textfont"] and "color" not in layout["hoverlabel"]["font"]
    assert spec["data"][0]["colorbar"]["tickfont"]["color"] == INK


def test_the_weight_scale_starts_white_and_is_darker_in_the_middle():
    """0 stays white (no attention), 1 stays the scale's darkest blue, and a middling weight such as 0.3 is
    drawn darker (less washed out) than Blues draws it."""
    fig = matrix_figure(RNG.random((3, 3)), title="", x_title="", y_title="")
    blues = fig.to_dict()["data"][0]["colorscale"]
    scale = projector_layout(fig).to_dict()["data"][0]["colorscale"]
    positions = [p for p, _ in scale]
    assert positions == sorted(positions) and positions[0] == 0.0 and positions[-1] == pytest.approx(1.0)
    assert scale[0] == [0.0, WHITE]
    np.testing.assert_allclose(colour_at(scale, 1.0), colour_at(blues, 1.0))
    for t in (0.1, 0.3, 0.5, 0.7):
        assert colour_at(scale, t).sum() < colour_at(blues, t).sum() - 30, t  # darker by a visible margin


def test_the_diverging_scale_keeps_a_white_middle_and_its_ends():
    fig = matrix_heatmap(RNG.normal(size=(4, 4)), list("abcd"), list("1234"), "Q")  # RdBu_r around 0
    plain = fig.to_dict()["data"][0]["colorscale"]
    scale = projector_layout(fig).to_dict()["data"][0]["colorscale"]
    np.testing.assert_allclose(colour_at(scale, 0.5), rgb(WHITE))
    for t in (0.0, 1.0):
        np.testing.assert_allclose(colour_at(scale, t), colour_at(plain, t))
    for t in (0.3, 0.7):  # a moderate value, either side of 0, gets a stronger colour
        assert np.abs(colour_at(scale, t) - 255).sum() > np.abs(colour_at(plain, t) - 255).sum() + 30


def test_other_scales_are_left_alone():
    fig = matrix_figure(RNG.random((3, 3)), title="", x_title="", y_title="", colorscale="Viridis")
    assert projector_layout(fig).to_dict()["data"][0]["colorscale"] == fig.to_dict()["data"][0]["colorscale"]


def test_numbered_ticks_are_thinned_token_ticks_kept():
    wide = matrix_heatmap(RNG.normal(size=(3, 64)), list("abc"), [str(i + 1) for i in range(64)], "X")
    spec = projector_layout(wide).to_dict()["layout"]
    assert len(spec["xaxis"]["ticktext"]) <= 10 and spec["xaxis"]["ticktext"][0] == "1"
    assert len(spec["xaxis"]["ticktext"]) == len(spec["xaxis"]["tickvals"])
    tokens = [f"t{i}" for i in range(30)]
    long_input = matrix_figure(RNG.random((30, 30)), title="", x_title="", y_title="", x_labels=tokens, y_labels=tokens)
    assert projector_layout(long_input).to_dict()["layout"]["xaxis"]["ticktext"] == tokens


def test_animation_and_tiles_survive():
    frames = [RNG.random((3, 4)).astype(np.float32) for _ in range(5)]
    timeline = attention_timeline_figure(
        frames, [0, 10, 20, 30, 40], list("abcd"), list("xyz"), title="T", x_title="k", y_title="q",
        step_label="step {n}", play_label="▶", pause_label="❚❚", weight_name="w", active=1,
    )  # fmt: skip
    spec = projector_layout(timeline).to_dict()
    go.Figure(spec)
    assert len(spec["frames"]) == 5 and spec["layout"]["sliders"][0]["active"] == 1
    np.testing.assert_array_equal(array(spec["data"][0]["z"]), frames[1])
    assert spec["layout"]["sliders"][0]["currentvalue"]["font"]["size"] >= MIN_FONT
    tiled = overview_figure(
        RNG.random((2, 4, 3, 3)), title="O", layer_names=["L1", "L2"], head_names=list("1234"),
        query_tokens=list("abc"), key_tokens=list("abc"), hover_names=("q", "k", "w"),
    )  # fmt: skip
    go.Figure(projector_layout(tiled).to_dict())


def test_narrow_formulas_hold_the_same_numbers():
    """The presenter's split layouts of three formulas differ from the one-line ones only in line breaks."""
    s, scaled = RNG.normal(size=(4, 4)), RNG.normal(size=(4, 4))
    masked = np.where(np.tril(np.ones((4, 4))) > 0, scaled, -np.inf)

    def numbers(latex: str) -> list[str]:
        return re.findall(r"-?\d+\.\d+", latex)

    one, split = tex.scaling(s, scaled, 2, 1.0, True), tex.scaling(s, scaled, 2, 1.0, True, split=True)
    assert split.startswith(r"\begin{aligned}") and " = " in one and r"\begin{aligned}" not in one
    assert numbers(one) == numbers(split) and len(numbers(one)) == 32
    side, stacked = (tex.masking(scaled, masked, allowed="if {i} sees {j}", otherwise="else", stacked=flag)
                     for flag in (False, True))  # fmt: skip
    assert r"\longrightarrow" in side and r"\downarrow" in stacked
    assert side.replace(r" \;\longrightarrow\; ", "|") == stacked.replace(r" \\ \big\downarrow \\ ", "|")
    wrapped = tex.residual(s, scaled, s + scaled, out_name="out", split=True, wrap_terms=True)
    plain = tex.residual(s, scaled, s + scaled, out_name="out", split=True)
    assert r"&\quad +" in wrapped and r"&\quad +" not in plain
    assert numbers(wrapped) == numbers(plain) and len(numbers(plain)) == 48
