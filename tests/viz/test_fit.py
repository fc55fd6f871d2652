"""viz.fit: a figure's words fitted to the width it is drawn at: long titles wrapped (the plot keeps its size),
axis titles wrapped to their axis, heatmap cell numbers no wider than their cells; a figure that fits is returned
as it is. The browser test (tests/browser/test_figure_geometry.py) measures the result on screen."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from viz.fit import LATIN_EM, fit_to_width, wrap
from viz.head_view import head_view_figure
from viz.layers import layernorm_stats_figure
from viz.matrix import matrix_figure
from viz.projector import projector_layout
from viz.walkthrough import matrix_heatmap

LONG = "src: the sinusoidal positional encoding this model adds to each input token"


def test_wrap_breaks_at_spaces_keeps_given_lines_and_breaks_chinese_anywhere():
    assert wrap("one two three four", 9 * LATIN_EM) == "one two<br>three<br>four"
    assert wrap("short", 100) == "short"
    assert wrap("a b<br>c d", 100) == "a b<br>c d"  # lines it has are kept
    assert wrap("unbreakable", 2) == "unbreakable"  # a word wider than a line stays whole
    assert wrap("加到每个输入词元上的位置编码", 5) == "加到每个输<br>入词元上的<br>位置编码"


def test_a_title_too_wide_is_wrapped_and_anchored_at_the_top_and_the_plot_keeps_its_size():
    fig = matrix_figure(np.eye(3), title=LONG, x_title="x", y_title="y", height=400)
    assert fit_to_width(fig, 1200) is fig  # fits: the same object, nothing copied
    before = fig.to_dict()["layout"]
    out = fit_to_width(fig, 380)
    go.Figure(out.to_dict())  # plotly accepts it
    layout = out.to_dict()["layout"]
    lines = layout["title"]["text"].split("<br>")
    assert len(lines) >= 2 and " ".join(lines) == LONG
    assert all(len(line) * LATIN_EM * 18 <= 380 for line in lines)
    assert (layout["title"]["yref"], layout["title"]["y"], layout["title"]["yanchor"]) == ("container", 1, "top")
    plot = lambda lay: lay["height"] - lay["margin"]["t"] - lay["margin"]["b"]
    assert plot(layout) == plot(before) and layout["margin"]["t"] >= len(lines) * 1.3 * 18
    assert fig.to_dict()["layout"] == before  # the original is left alone


def test_a_title_written_on_two_lines_gets_room_for_both():
    fig = matrix_figure(np.eye(3), title="PE[pos, 2i] = sin(…)<br>PE[pos, 2i+1] = cos(…)", x_title="", y_title="")
    layout = fit_to_width(fig, 1000).to_dict()["layout"]
    assert layout["title"]["yanchor"] == "top" and layout["margin"]["t"] >= 2 * 1.3 * 18


def test_an_axis_title_longer_than_its_axis_is_wrapped():
    series = [("input mean", np.zeros(9)), ("input std", np.ones(9))]
    title = "mean and standard deviation across the 64 numbers of each position"
    fig = layernorm_stats_figure(series, list("abcdefghi"), title="t", x_title="token", y_title=title, height=380)
    out = fit_to_width(fig, 800).to_dict()["layout"]["yaxis"]
    assert out["title"]["text"].replace("<br>", " ") == title and "<br>" in out["title"]["text"]
    assert out["automargin"] is True


def test_cell_numbers_shrink_to_their_cells_on_a_narrow_projector_column():
    z = np.array([[0.79, 3.27, 4.84, 2.60], [-0.34, -1.27, -2.04, -0.68]])
    fig = projector_layout(matrix_heatmap(z, ["the", "down"], list("abcd"), "Scaled scores"))
    size = fig.to_dict()["data"][0]["textfont"]["size"]
    assert fit_to_width(fig, 700).to_dict()["data"][0]["textfont"]["size"] == size  # wide enough
    narrow = fit_to_width(fig, 300).to_dict()["data"][0]
    assert narrow["textfont"]["size"] < size
    cell = (300 - 20 - (22 * 0.52 * 4 + 10)) / 4  # the plot's width less the margins and the row labels, per column
    assert narrow["textfont"]["size"] * 0.6 * len("-1.27") <= cell
    np.testing.assert_array_equal(np.asarray(narrow["z"], dtype=float), fig.to_dict()["data"][0]["z"])


def test_a_title_above_column_labels_is_anchored_at_the_top_with_room_for_the_turned_labels():
    """A heatmap with its column labels on top: nine tokens in a narrow column are turned by plotly, and the title,
    left in the middle of the top margin, would sit on them."""
    tokens = ["<bos>", "the", "big", "red", "dog", "sees", "a", "small", "cat"]
    fig = projector_layout(matrix_heatmap(np.eye(9), tokens, tokens, "Scaled scores"))
    wide = fit_to_width(fig, 1200).to_dict()["layout"]
    narrow = fit_to_width(fig, 400).to_dict()["layout"]
    for layout in (wide, narrow):
        assert (layout["title"]["yref"], layout["title"]["yanchor"]) == ("container", "top")
    size = narrow["xaxis"]["tickfont"]["size"]
    assert narrow["margin"]["t"] >= 10 + 1.3 * narrow["title"]["font"]["size"] + LATIN_EM * len("small") * size
    assert wide["margin"]["t"] < narrow["margin"]["t"]  # side by side, the labels need one line only


def test_token_labels_too_crowded_at_45_degrees_are_turned_upright_or_made_smaller():
    tokens = [f"{i} · {t}" for i, t in enumerate(["3", "1", "4", "1", "5", "9", "2", "6", "<eos>"])]
    fig = projector_layout(matrix_figure(np.eye(9), title="t", x_title="key", y_title="query", x_labels=tokens,
                                         y_labels=tokens, cell_text=False))  # fmt: skip
    size = fig.to_dict()["layout"]["xaxis"]["tickfont"]["size"]
    assert fig.to_dict()["layout"]["xaxis"]["tickangle"] == -45
    assert fit_to_width(fig, 1200).to_dict()["layout"]["xaxis"]["tickangle"] == -45  # room enough
    axis = fit_to_width(fig, 420).to_dict()["layout"]["xaxis"]
    assert axis["tickangle"] == -90 and axis["automargin"] and axis["tickfont"]["size"] == size
    axis = fit_to_width(fig, 260).to_dict()["layout"]["xaxis"]
    assert axis["tickangle"] == -90 and axis["tickfont"]["size"] < size


def test_cell_numbers_too_small_to_read_are_left_to_the_hover():
    z = np.linspace(-2, 2, 81).reshape(9, 9)
    tokens = ["<bos>", "the", "big", "red", "dog", "sees", "a", "small", "cat"]
    fig = projector_layout(matrix_heatmap(z, tokens, tokens, "Scaled scores"))
    out = fit_to_width(fig, 300).to_dict()["data"][0]
    assert out["texttemplate"] == "" and out["text"] == fig.to_dict()["data"][0]["text"]  # the hover keeps them


TOKENS = ["[CLS]", "the", "children", "were", "playing", "football", "in", "the", "park", "after", "school", ".",
          "[SEP]"]  # fmt: skip


def test_row_labels_squeezed_by_the_projectors_height_shrink_to_their_rows():
    # MiniLM's 13 tokens beside a heatmap capped at 300 px on the projector (18 px labels): rows of ~10 px
    fig = projector_layout(
        matrix_figure(np.eye(13), title="Layer 1 · Head 3", x_title="key", y_title="query", x_labels=TOKENS,
                      y_labels=TOKENS, height=600),
        max_height=300,
    )  # fmt: skip
    axis = fig.to_dict()["layout"]["yaxis"]
    assert axis["tickfont"]["size"] >= 18  # the projector's labels, taller than their rows
    layout = fit_to_width(fig, 700).to_dict()["layout"]
    rows_px = (layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]) / 13
    size, labels = layout["yaxis"]["tickfont"]["size"], layout["yaxis"]["ticktext"]
    if labels == TOKENS:  # every label, each no taller than its row, at 8 px or more
        assert size >= 8 and size * 1.15 <= rows_px
    else:  # too small to read: every k-th label, spaced at least a label's height apart
        step = layout["yaxis"]["tickvals"][1] - layout["yaxis"]["tickvals"][0]
        assert step > 1 and labels == TOKENS[::step] and rows_px * step >= size * 1.15


def test_a_head_view_of_many_heads_lists_them_beside_the_lines_and_its_tokens_fit_their_rows():
    weights = np.random.default_rng(0).dirichlet(np.ones(13), size=(12, 13))  # (H, Lq, Lk)
    names = [f"Head {h}" for h in range(1, 13)]
    fig = head_view_figure(weights, title="Head view", query_tokens=TOKENS, key_tokens=TOKENS, head_names=names,
                           query_title="Query", key_title="Key")  # fmt: skip
    assert fig.layout.legend.orientation == "v"  # 12 names under the lines would take the tokens' height
    few = head_view_figure(weights[:4], title="Head view", query_tokens=TOKENS, key_tokens=TOKENS,
                           head_names=names[:4], query_title="Query", key_title="Key")  # fmt: skip
    assert few.layout.legend.orientation == "h"
    out = fit_to_width(projector_layout(fig, max_height=330), 480).to_dict()
    layout = out["layout"]
    span = layout["yaxis"]["range"][1] - layout["yaxis"]["range"][0]
    row_px = (layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]) / span
    columns = [t for t in out["data"] if "text" in str(t.get("mode", ""))]
    assert len(columns) == 2
    for column in columns:
        assert column["textfont"]["size"] * 1.15 <= row_px and column["text"] == TOKENS
    tiny = fit_to_width(projector_layout(fig, max_height=200), 480).to_dict()
    kept = next(t for t in tiny["data"] if "text" in str(t.get("mode", "")))["text"]
    assert 1 < kept.count("") < len(TOKENS) and kept[0] == "[CLS]"  # every k-th token where none would be legible
