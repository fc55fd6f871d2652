"""The Next-token page's figures and formulas on small hand-made inputs: the bars' values and colours, the newest
token's rows laid out layer by layer, the logit lens's cells, the chain's LaTeX with its numbers; each figure's JSON
the same as plotly's validated figure's."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io
import pytest

from tests.app.test_attention_page import array
from viz import next_token
from viz.memo import forget_figures
from viz.next_token import (
    CUT_COLOUR,
    KEPT_COLOUR,
    candidates_figure,
    layer_head_rows,
    logit_lens_figure,
    newest_rows_figure,
    token_label,
)
from viz.next_token_latex import ChainRow, chain_formula, chain_table

PROBS = [0.5, 0.3, 0.2]
KEPT = [True, True, False]
RENORMALISED = [0.625, 0.375, 0.0]  # 0.5 / 0.8, 0.3 / 0.8


def bars(marked: int | None = 1) -> go.Figure:
    return candidates_figure(
        ["a", " ", "\n"], PROBS, RENORMALISED, KEPT, marked=marked, title="t", before_name="before",
        after_name="after", cut_name="cut", marked_name="sample",
    )  # fmt: skip


def rows() -> go.Figure:
    weights = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4) / 10
    names = [f"L{i} H{h}" for i in range(2) for h in range(3)]
    return newest_rows_figure(weights, title="t", row_names=names, key_tokens=list("abcd"), key_title="k",
                              hover_names=("row", "key", "w"))  # fmt: skip


def lens() -> go.Figure:
    return logit_lens_figure(
        [["a", "b"], ["b", "a"]], [[0.6, 0.3, 0.3], [0.7, 0.2, 0.2]], answer=["b · #2", "b · #1"], title="t",
        layer_names=["E", "L1"], rank_names=["#1", "#2"], answer_name="answer", hover_names=("l", "c", "p"),
    )  # fmt: skip


def test_a_candidate_the_cut_left_unchanged_is_labelled_once():
    fig = candidates_figure(
        ["a", "b"], [0.7, 0.3], [0.7, 0.3], [True, True], marked=None, title="t", before_name="before",
        after_name="after", cut_name="cut", marked_name="s",
    ).to_dict()  # fmt: skip
    assert fig["data"][1]["text"] == ["70.0%", "30.0%"]


def test_the_bars_show_both_stages_and_grey_what_the_cut_removed():
    fig = bars().to_dict()
    before, after, legend = fig["data"]
    np.testing.assert_allclose(array(before["x"]), PROBS, rtol=1e-6)
    np.testing.assert_allclose(array(after["x"]), RENORMALISED, rtol=1e-6)
    assert before["marker"]["color"][2] == CUT_COLOUR and after["marker"]["color"] == KEPT_COLOUR
    assert after["text"] == ["50.0% → 62.5%", "30.0% → 37.5%", "20.0% · cut"]  # one label a row: p → q, or cut
    assert "text" not in before and after["constraintext"] == "none"  # never shrunk to the bars' thickness
    assert fig["layout"]["yaxis"]["ticktext"] == ["1. a", "2. ␣", "3. ↵"]
    (ring,) = fig["layout"]["shapes"]
    assert (ring["y0"], ring["y1"]) == (0.5, 1.5) and legend["name"] == "sample"
    assert "shapes" not in bars(None).to_dict()["layout"] and len(bars(None).to_dict()["data"]) == 2


def test_the_rows_go_layer_by_layer_with_a_blank_row_between():
    weights = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    grid = layer_head_rows(weights)
    assert grid.shape == (7, 4)
    np.testing.assert_array_equal(grid[:3], weights[0])
    assert np.isnan(grid[3]).all()
    np.testing.assert_array_equal(grid[4:], weights[1])
    layout = rows().to_dict()["layout"]
    assert layout["yaxis"]["tickvals"] == [0, 1, 2, 4, 5, 6]
    assert layout["yaxis"]["ticktext"] == ["L0 H0", "L0 H1", "L0 H2", "L1 H0", "L1 H1", "L1 H2"]


def test_the_lens_writes_each_token_in_its_cell_and_the_answer_last():
    trace = lens().to_dict()["data"][0]
    assert trace["text"] == [["a", "b", "b · #2"], ["b", "a", "b · #1"]]
    np.testing.assert_allclose(array(trace["z"]), [[0.6, 0.3, 0.3], [0.7, 0.2, 0.2]], rtol=1e-6)


def test_token_labels_show_what_would_print_as_nothing():
    assert [token_label(t) for t in (" ", "\n", "\t", "床", "a b")] == ["␣", "↵", "⇥", "床", "a␣b"]


def test_the_chain_prints_every_stage_and_a_cut_row_grey():
    table = chain_table([ChainRow("a", 2.0, 2.5, 0.61234, True, 0.7), ChainRow("b", -1.0, -1.25, 0.1, False, 0.0)],
                        0.8, token_word="token")  # fmt: skip
    assert r"\text{a} & 2.00 & 2.50 & 0.6123 & 0.7000" in table
    assert r"\color{#999999}{\text{b}} & \color{#999999}{-1.00}" in table and r"\text{—}" in table
    assert r"z_i / T" in table and r"z_i / T" not in chain_table([], 0.0, token_word="token")
    assert "e^{z_i/0.80}" in chain_formula(0.8, kept_word="kept")
    greedy = chain_formula(0.0, kept_word="kept")
    assert r"\max_j z_j" in greedy and r"\text{kept}" in greedy


@pytest.mark.parametrize("build", [bars, rows, lens], ids=["bars", "rows", "lens"])
def test_each_figure_is_the_validated_one(build, monkeypatch):
    forget_figures()
    fast = json.loads(plotly.io.to_json(build(), validate=False))
    forget_figures()
    monkeypatch.setattr(next_token, "figure", lambda spec: go.Figure(spec))
    validated = json.loads(plotly.io.to_json(build(), validate=False))
    assert fast == validated and fast["data"]
