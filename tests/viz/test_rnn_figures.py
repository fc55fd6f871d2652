"""The RNN page's formulas and curves print the numbers and words they are given, in the RNN's notation."""

from __future__ import annotations

import numpy as np

from model.teach.walkthrough import softmax_steps
from viz import rnn_latex as rtex
from viz import walkthrough_latex as tex
from viz.curves import Series, bars_figure, line_figure
from viz.latex import number, text


def test_score_lines_name_the_rule_and_put_each_score_under_its_token():
    rule, row = rtex.score_lines("additive", 3, [1.5, -0.25, 2.0], ["the", "a_b", "猫"])
    assert (
        rule
        == r"e_{3,i} = \operatorname{score}\!\left(s_{2}, h_i\right) = v^{\top} \tanh\!\left(W\, s_{2} + U\, h_i\right)"
    )
    assert row == (
        r"e_{3} = \begin{bmatrix}\underset{\text{the}}{1.50} & \underset{\text{a\_b}}{-0.25} & "
        r"\underset{\text{猫}}{2.00}\end{bmatrix}"
    )
    assert rtex.score_lines("general", 1, [0.0], ["x"])[0].endswith(r"s_{0}^{\top}\, W\, h_i")
    long = rtex.score_lines("dot", 2, np.arange(30.0), [str(i) for i in range(30)], max_cols=10)[1]
    assert long.count(r"\underset") == 9 and r"\cdots" in long and r"{29.00}" in long and r"{8.00}" not in long


def test_state_context_and_output_lines_carry_the_callers_words():
    assert rtex.state_update("lstm", 4, [1.0, 2.0]).startswith(r"s_{4} = \operatorname{LSTM}\!\left(\left[E\, y_{3}")
    fixed = rtex.fixed_context(2, [0.5, -1.0], "每一步都相同")
    assert (
        fixed
        == r"c_{2} = h_{\mathrm{fin}} = \begin{bmatrix}0.50 & -1.00\end{bmatrix} \quad \left(\text{每一步都相同}\right)"
    )
    _, chosen = rtex.output_lines(3, "le", 0.98765, "{token}，概率为 {p}")
    assert chosen.endswith(r"\text{le}\text{，概率为 }0.988")
    assert rtex.first_state([0.1], 8).startswith(r"s_{0} = \tanh\!\left(W_b\, h_{\mathrm{fin}} + b_b\right)")


def test_softmax_and_weighted_sum_in_the_rnns_letters():
    steps = softmax_steps([2.0, 1.0, 0.0])
    lines = tex.softmax_lines(2, text("chat"), steps, every_entry="every entry", notation=tex.RNN, digits=2)
    assert lines[0].startswith(r"t = 3\;\left(\text{chat}\right): \qquad e_t = ")
    assert lines[1] == r"m = \max_i e_{ti} = 2.00"
    assert lines[3].startswith(r"\exp\left(e_t - m\right) = ")
    assert lines[5].startswith(r"a_t = \frac{\exp\left(e_t - m\right)}{" + number(steps.total) + "}")
    assert lines[5].endswith(r"\textstyle\sum_i a_{ti} = 1.00")
    h = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    summed = tex.contribution_sum(2, steps.weights, h, ["x", "y", "z"], steps.weights @ h, notation=tex.RNN)
    assert summed.startswith(r"\begin{aligned}c_{3} &= \sum_i a_{3i}\, h_i")
    stacked = tex.softmax_lines(2, text("chat"), steps, every_entry="每一项", notation=tex.RNN, digits=2, stacked=True)
    assert stacked[2].startswith(r"\begin{gathered}e_t - m = ")  # the remark on a row of its own, for a narrow box
    assert stacked[2].endswith(r" \\ (\text{每一项} \le 0)\end{gathered}")
    assert stacked[5].endswith(r" \\ \textstyle\sum_i a_{ti} = 1.00\end{gathered}")
    assert [line.split(r"\begin{gathered}")[-1].split(" \\\\ ")[0] for line in stacked[2::3]] == [
        lines[2].split(r" \quad ")[0],
        lines[5].split(r", \qquad ")[0],
    ]  # the same rows as the one-line form
    wide = tex.softmax_lines(0, text("x"), softmax_steps(np.zeros(20)), every_entry="e", max_cols=6)
    assert wide[0].count("&") == 5 and r"\cdots" in wide[0]


def test_line_figure_draws_each_series_with_its_words_axes_and_band():
    fig = line_figure(
        [Series("有注意力", [1, 2, 3], [1.0, 0.5, 0.25], "#000"), Series("<b>x</b>", [1, 2, 3], [1, 1, 1], "#111")],
        title="准确率", x_title="长度", y_title="完全匹配率", percent=True, band=(1, 2), band_label="训练长度",
        role="r",
    )  # fmt: skip
    spec = fig.to_plotly_json()
    assert [d["name"] for d in spec["data"]] == ["有注意力", "&lt;b&gt;x&lt;/b&gt;"]  # plotly's HTML, escaped
    assert list(spec["data"][0]["y"]) == [1.0, 0.5, 0.25]
    layout = spec["layout"]
    assert layout["title"]["text"] == "准确率" and layout["yaxis"]["tickformat"] == ".0%" and layout["meta"] == "r"
    assert (layout["shapes"][0]["x0"], layout["shapes"][0]["x1"]) == (0.5, 2.5)
    assert layout["annotations"][0]["text"] == "训练长度"
    logs = line_figure([Series("a", [8, 16], [1, 100], "#000")], title="", x_title="", y_title="", log_x=True,
                       log_y=True).to_plotly_json()["layout"]  # fmt: skip
    assert logs["xaxis"]["type"] == logs["yaxis"]["type"] == "log" and list(logs["xaxis"]["ticktext"]) == ["8", "16"]


def test_bars_figure_groups_by_category():
    series = [("A", [1, 2], ["1", "2"], "#000"), ("B", [3, 4], ["3", "> 4"], "#111")]
    fig = bars_figure(["reverse", "translate"], series, title="t", y_title="steps").to_plotly_json()
    assert fig["layout"]["barmode"] == "group" and [list(d["y"]) for d in fig["data"]] == [[1.0, 2.0], [3.0, 4.0]]
    assert list(fig["data"][1]["text"]) == ["3", "&gt; 4"] and fig["layout"]["yaxis"]["range"][1] > 4


def test_legend_room_packs_names_into_rows_as_wide_as_the_column():
    from viz.legend import HALF_ROW_EM, legend_room

    short = ["Transformer", "RNN + attention"]  # 6.6 + 4 and 9.0 + 4 em: one row in half a column
    assert legend_room(short, HALF_ROW_EM) == 72 + 26
    long = ["Transformer：一次前向计算"] * 4  # 6.6 + 7 + 4 em each: one per row in half a column, two in a full one
    assert legend_room(long, HALF_ROW_EM) == 72 + 26 * 4
    assert legend_room(long) == 72 + 26 * 2


def test_log_axes_are_labelled_with_plain_numbers_one_two_five():
    """Milliseconds on a log axis: 20, 50, 100, … in the axis's own type, not 10² with smaller 2s and 5s between."""
    from viz.curves import Series, line_figure, log_ticks

    assert log_ticks([36.7, 7462.5]) == [20, 50, 100, 200, 500, 1000, 2000, 5000, 10000]
    assert log_ticks([0.0, -1.0]) == []
    fig = line_figure([Series("a", [8, 16], [36.7, 7462.5], "#000")], title="t", x_title="L", y_title="ms",
                      log_x=True, log_y=True)  # fmt: skip
    axis = fig.to_dict()["layout"]["yaxis"]
    assert axis["type"] == "log" and "exponentformat" not in axis
    assert axis["ticktext"][:3] == ["20", "50", "100"] and axis["ticktext"][-1] == "10000"
