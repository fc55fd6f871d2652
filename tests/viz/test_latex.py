"""viz.latex / viz.walkthrough_latex: numbers print as themselves, big matrices abbreviate, user text is escaped."""

import re

import numpy as np
import pytest

from model.teach.walkthrough import softmax_steps
from viz import walkthrough_latex as tex
from viz.latex import bmatrix, number, text, words


@pytest.mark.parametrize(
    ("x", "digits", "want"),
    [
        (1.234, 2, "1.23"),
        (-0.005, 2, "-0.01"),
        (-0.0004, 2, "0.00"),  # no "-0.00"
        (0.0, 3, "0.000"),
        (2.0, 0, "2"),
        (float("-inf"), 2, r"-\infty"),
        (float("inf"), 2, r"\infty"),
        (float("nan"), 2, r"\text{NaN}"),
        (1.5e7, 2, r"1.5 \times 10^{7}"),
        (-123456.0, 3, r"-1.23 \times 10^{5}"),
    ],
)
def test_number(x, digits, want):
    assert number(x, digits) == want


def rows_of(latex: str) -> list[list[str]]:
    found = re.search(r"\\begin\{bmatrix\}(.*)\\end\{bmatrix\}", latex)
    assert found is not None, latex
    body = found.group(1)
    return [[c.strip() for c in row.split("&")] for row in body.split(r" \\ ")]


def test_small_matrix_prints_every_entry():
    a = np.array([[1.0, -2.5], [0.125, 3.0], [4.0, -0.0]])
    assert rows_of(bmatrix(a, 3)) == [["1.000", "-2.500"], ["0.125", "3.000"], ["4.000", "0.000"]]
    assert rows_of(bmatrix([1, 2, 3], 0)) == [["1", "2", "3"]]  # 1-D = one row


def test_large_matrix_is_abbreviated_keeping_the_corners():
    a = np.arange(9 * 64, dtype=np.float64).reshape(9, 64) / 100
    rows = rows_of(bmatrix(a, 2, max_rows=6, max_cols=5))
    assert len(rows) == 6 and all(len(r) == 5 for r in rows)
    assert rows[0] == ["0.00", "0.01", "0.02", r"\cdots", "0.63"]
    assert rows[4] == [r"\vdots", r"\vdots", r"\vdots", r"\ddots", r"\vdots"]
    assert rows[5][0] == number(a[8, 0]) and rows[5][-1] == number(a[8, 63])


def test_masked_entries_print_as_minus_infinity_and_highlight_colours_one_row():
    a = np.array([[0.5, -np.inf], [1.0, 2.0]])
    latex = bmatrix(a, 1, highlight_row=1)
    assert rows_of(latex)[0] == ["0.5", r"-\infty"]
    assert latex.count(r"\color") == 2 and r"\color{#d62728}{2.0}" in latex


def test_text_escapes_latex_specials():
    assert text("a_b") == r"\text{a\_b}"
    assert text("<eos>") == r"\text{<eos>}"
    escaped = text(r"x}\evil{$%&#^~")
    assert escaped == r"\text{x\}\backslash{}evil\{\$\%\&\#\^{}\sim{}}"
    assert text("a" * 40, max_chars=10) == r"\text{aaaaaaaaa…}"


def test_softmax_lines_show_the_real_numbers():
    steps = softmax_steps([2.0, 1.0, -np.inf])
    lines = tex.softmax_lines(0, text("cat"), steps, every_entry="every entry")
    assert r"\text{cat}" in lines[0] and r"-\infty" in lines[0]
    assert r"(\text{every entry} \le 0)" in lines[2]
    assert "m = \\max_j s_{ij} = 2.000" in lines[1]
    e = np.exp(-1.0)
    assert number(e, 3) in lines[3] and number(1 + e, 3) in lines[4]
    assert number(1 / (1 + e), 3) in lines[5] and lines[5].endswith("1.000")


def test_split_formulas_align_on_equals():
    Q = np.ones((2, 2))
    one_line = tex.scores("Q", "K", Q, Q, Q @ Q.T)
    split = tex.scores("Q", "K", Q, Q, Q @ Q.T, split=True)
    assert r"\begin{aligned}" not in one_line and one_line.count(" = ") == 2
    assert split.startswith(r"\begin{aligned}") and split.count("&=") == 2


def test_projection_prints_bias_only_when_given():
    X, W, b = np.eye(2), np.full((2, 2), 0.5), np.array([0.1, 0.2])
    without = tex.projection("Q", "X", "W_Q", None, X, W, b, X @ W)
    with_bias = tex.projection("Q", "X", "W_Q", "b_Q", X, W, b, X @ W + b)
    assert "b_Q" not in without and "0.10" not in without
    assert "+ b_Q" in with_bias and "0.10 & 0.20" in with_bias


def test_wide_formulas_wrap_by_themselves():
    wide = np.ones((4, 4))
    auto = tex.output_projection(wide, wide, None, wide, with_bias=False, out_name="out")  # 4 + 4 + 4 columns
    assert auto.startswith(r"\begin{aligned}") and auto.count("&=") == 3
    narrow = tex.weighted_sum(np.ones((2, 2)), np.ones((2, 1)), np.ones((2, 1)))
    assert r"\begin{aligned}" not in narrow


def test_scientific():
    from viz.latex import scientific

    assert scientific(1e-5) == r"1.0 \times 10^{-5}"
    assert scientific(-2.5e12, 2) == r"-2.50 \times 10^{12}"


def test_words_wrap_the_phrase_and_keep_the_math_where_the_template_puts_it():
    assert words("if {i} may attend to {j}", i="i", j="j") == r"\text{if }i\text{ may attend to }j"
    assert words("当 {i} 可以关注 {j} 时", i="i", j="j") == r"\text{当 }i\text{ 可以关注 }j\text{ 时}"
    assert words("{j} 被 {i} 关注", i="i", j="j") == r"j\text{ 被 }i\text{ 关注}"  # the order is the template's
    assert words("50% & more_{i}", i=r"\alpha") == r"\text{50\% \& more\_}\alpha"  # words escaped, math as given
    assert words("a rather long phrase of many words", i="i") == r"\text{a rather long phrase of many words}"


def test_formula_words_are_the_callers_in_any_language():
    scaled = np.array([[1.0, 2.0], [3.0, 4.0]])
    masked = np.array([[1.0, -np.inf], [3.0, 4.0]])
    english = tex.masking(scaled, masked, allowed="if {i} may attend to {j}", otherwise="otherwise")
    assert r"s_{ij} & \text{if }i\text{ may attend to }j \\ -\infty & \text{otherwise}" in english
    chinese = tex.masking(scaled, masked, allowed="若 {i} 可以关注 {j}", otherwise="其他情况")
    assert r"\text{若 }i\text{ 可以关注 }j" in chinese and r"\text{其他情况}" in chinese
    assert "may attend" not in chinese and "otherwise" not in chinese
    steps = softmax_steps([2.0, 1.0])
    assert r"(\text{每一项} \le 0)" in tex.softmax_lines(0, text("猫"), steps, every_entry="每一项")[2]
    out = np.ones((2, 2))
    residual = tex.residual(out, out, 2 * out, out_name="输出")
    assert residual.startswith(r"x + \text{输出} = ")
    projection = tex.output_projection(out, out, None, out, with_bias=False, out_name="输出")
    assert projection.startswith(r"\text{输出} = \operatorname{Concat}\,W_O")


def test_contribution_sum_puts_two_weighted_vectors_per_line():
    V = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]])
    row = np.array([0.1, 0.2, 0.3, 0.4])
    latex = tex.contribution_sum(0, row, V, ["the", "cat", "sat", "down"], row @ V)
    lines = latex.removeprefix(r"\begin{aligned}").removesuffix(r"\end{aligned}").split(r" \\ ")
    assert lines[0] == r"z_{1} &= \sum_j \alpha_{1j}\, v_j"
    assert lines[1].startswith("&= 0.10") and lines[1].count(r"\underbrace") == 2 and r"_{\text{cat}}" in lines[1]
    assert lines[2].startswith(r"&\quad + 0.30") and r"_{\text{down}}" in lines[2]
    assert lines[3] == r"&= \begin{bmatrix}5.00 & 6.00\end{bmatrix}"  # z_1 = 0.1·v1 + 0.2·v2 + 0.3·v3 + 0.4·v4
    many = tex.contribution_sum(2, np.full(6, 1 / 6), np.ones((6, 2)), list("abcdef"), np.ones(2))
    assert many.count(r"\underbrace") == 3 and r"&\quad + \cdots + 0.17" in many  # first two, ⋯, the last
