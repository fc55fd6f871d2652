r"""The walkthrough's formulas with the real numbers substituted, as LaTeX strings for st.latex.

Every function takes numbers already computed by model/ code and only prints them; symbols such as
"Q^{(1)}" and the words inside \text{...} are passed in, so the page decides how heads and tokens are named
and in which language the formulas speak. Matrices print at most
6 rows and `size` columns (the rest elided with ⋯), so a model's 9 × 64 matrices still fit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial

import numpy as np

from .latex import bmatrix, number, scientific, text, words

ROW_LIMIT = 12  # a single softmax / LayerNorm row is printed in full up to this many entries


MAX_LINE_COLUMNS = 8  # matrix columns that fit on one projector-sized line; more and the "= …" wrap


def _columns(latex: str) -> int:
    """Matrix columns printed across a line: the cells in the first row of every bmatrix."""
    firsts = re.findall(r"\\begin\{bmatrix\}(.*?)(?: \\\\ |\\end\{bmatrix\})", latex)
    return sum(row.count("&") + 1 for row in firsts)


def _chain(lhs: str, *sides: str, split: bool | None = None) -> str:
    """lhs = a = b = c on one line, or one "= …" per line aligned on the = signs: when split is True,
    or (split None) when the line would hold more than MAX_LINE_COLUMNS matrix columns."""
    if split is None:
        split = _columns(" ".join(sides)) > MAX_LINE_COLUMNS
    if not split:
        return " = ".join((lhs, *sides))
    return r"\begin{aligned}" + lhs + " &= " + r" \\ &= ".join(sides) + r"\end{aligned}"


def _m(digits: int, size: int):
    return partial(bmatrix, digits=digits, max_rows=6, max_cols=size)


def projection(out_sym: str, in_sym: str, w_sym: str, b_sym: str | None, X, W, b, out, digits=2, size=6, split=None):
    """Q = X W_Q (+ b_Q) = [X][W_Q] (+ [b_Q]) = [Q]."""
    m = _m(digits, size)
    bias_sym, bias = ("", "") if b_sym is None else (f" + {b_sym}", f" + {m(b)}")
    return _chain(out_sym, rf"{in_sym}\,{w_sym}{bias_sym}", rf"{m(X)}\,{m(W)}{bias}", m(out), split=split)


def scores(q_sym: str, k_sym: str, Q, K, S, digits=2, highlight_row=None, size=6, split=None) -> str:
    """Q Kᵀ = [Q][Kᵀ] = [S]."""
    m = _m(digits, size)
    q, s = m(Q, highlight_row=highlight_row), m(S, highlight_row=highlight_row)
    return _chain(rf"{q_sym}\,{{{k_sym}}}^{{\top}}", rf"{q}\,{m(np.asarray(K).T)}", s, split=split)


def scaling(
    S, scaled, d_k: int, temperature: float, scale: bool, digits=2, highlight_row=None, size=6, split: bool = False
) -> str:
    r"""QKᵀ / (√d_k · τ) with the divisor spelled out (τ only when it is not 1, √d_k only when on); split puts
    the result on a line of its own (for a narrow column)."""
    m = _m(digits, size)
    syms, nums = [], []
    if scale:
        syms.append(r"\sqrt{d_k}")
        nums.append(rf"\sqrt{{{d_k}}}")
    if temperature != 1.0 or not scale:
        syms.append(r"\tau")
        nums.append(number(temperature, 2))
    dot = r" \cdot "
    before, after = m(S, highlight_row=highlight_row), m(scaled, highlight_row=highlight_row)
    lhs = rf"\frac{{Q K^{{\top}}}}{{{dot.join(syms)}}}"
    return _chain(lhs, rf"\frac{{1}}{{{dot.join(nums)}}}\,{before}", after, split=split)


def masking(
    scaled, masked, *, allowed: str, otherwise: str, digits=2, highlight_row=None, size=6, stacked: bool = False
) -> str:
    r"""masked_ij = scaled_ij where allowed, −∞ elsewhere: the rule, then the matrices before → after (stacked:
    before ↓ after, one above the other, for a narrow column).

    allowed is the condition's words with {i} and {j} where the indices go ("if {i} may attend to {j}");
    otherwise the other case's ("otherwise")."""
    m = _m(digits, size)
    condition = words(allowed, i="i", j="j")
    rule = (
        rf"\operatorname{{mask}}(s)_{{ij}} = \begin{{cases}} s_{{ij}} & {condition} \\"
        rf" -\infty & {text(otherwise, max_chars=None)} \end{{cases}}"
    )
    arrow = r" \\ \big\downarrow \\ " if stacked else r" \;\longrightarrow\; "
    change = m(scaled, highlight_row=highlight_row) + arrow + m(masked, highlight_row=highlight_row)
    return rf"\begin{{gathered}}{rule} \\[1em] {change}\end{{gathered}}"


@dataclass(frozen=True)
class Notation:
    """The letters a softmax row and a weighted sum are written with: the Transformer's (row i, keys j, scores s,
    weights α, values v, output z) by default; an RNN decoder writes step t over encoder states i (e, a, h, c)."""

    row: str = "i"  # the row followed (a query; a decoder step)
    key: str = "j"  # what the sum runs over (keys; encoder states)
    score: str = "s"
    weight: str = r"\alpha"
    value: str = "v"
    out: str = "z"

    def exp(self, x: str) -> str:
        r"""e^{x}, or \exp(x) when the scores are themselves called e."""
        return rf"\exp\left({x}\right)" if self.score == "e" else f"e^{{{x}}}"


TRANSFORMER = Notation()
RNN = Notation(row="t", key="i", score="e", weight="a", value="h", out="c")


def softmax_lines(
    query: int,
    query_tex: str,
    steps,
    *,
    every_entry: str,
    digits: int = 3,
    notation: Notation = TRANSFORMER,
    max_cols: int = ROW_LIMIT,
    stacked: bool = False,
) -> list[str]:
    """One row's softmax line by line: row, max, shift, exp, sum, divide (steps: SoftmaxSteps).

    query is the 0-based row; it prints as i = query + 1 next to the token's name. every_entry is the
    words before "≤ 0" on the shifted row ("every entry"). Rows longer than max_cols are elided with ⋯.
    stacked puts the shifted row's remark and the weights' sum under their rows, for a narrower column.
    """
    n = notation
    row = partial(bmatrix, digits=digits, max_cols=max_cols)
    total = number(steps.total, digits)
    s_row, cell = f"{n.score}_{n.row}", f"{n.score}_{{{n.row}{n.key}}}"
    remark = rf"({text(every_entry, max_chars=None)} \le 0)"
    weights_sum = rf"\textstyle\sum_{n.key} {n.weight}_{{{n.row}{n.key}}} = {number(steps.weights_sum, digits)}"
    shifted = rf"{s_row} - m = {row(steps.shifted)}"
    weights = rf"{n.weight}_{n.row} = \frac{{{n.exp(f'{s_row} - m')}}}{{{total}}} = {row(steps.weights)}"
    if stacked:
        shifted_line = rf"\begin{{gathered}}{shifted} \\ {remark}\end{{gathered}}"
        weights_line = rf"\begin{{gathered}}{weights} \\ {weights_sum}\end{{gathered}}"
    else:
        shifted_line, weights_line = rf"{shifted} \quad {remark}", rf"{weights}, \qquad {weights_sum}"
    return [
        rf"{n.row} = {query + 1}\;\left({query_tex}\right): \qquad {s_row} = {row(steps.row)}",
        rf"m = \max_{n.key} {cell} = {number(steps.max, digits)}",
        shifted_line,
        rf"{n.exp(f'{s_row} - m')} = {row(steps.exps)}",
        rf"\textstyle\sum_{n.key} {n.exp(f'{cell} - m')} = {total}",
        weights_line,
    ]


def weighted_sum(weights, V, Z, digits=2, highlight_row=None, size=6, split=None) -> str:
    """Z = α V = [α][V] = [Z]."""
    m = _m(digits, size)
    product = rf"{m(weights, highlight_row=highlight_row)}\,{m(V)}"
    return _chain("Z", r"\alpha V", product, m(Z, highlight_row=highlight_row), split=split)


TERMS_PER_LINE = 2  # weighted vectors per line of the contribution sum: four did not fit a 1400 px window


def contribution_sum(
    query: int, weights_row, V, key_labels: list[str], z_row, digits: int = 2, notation: Notation = TRANSFORMER
) -> str:
    r"""z_i = Σ_j α_ij v_j = 0.12·[v_the] + ... = [z_i] (at most 4 terms, else the first two, ⋯, the last),
    aligned on "=" with TERMS_PER_LINE terms per line, so it stays inside a projector-sized page."""
    vec = partial(bmatrix, digits=digits, max_cols=4)
    n = len(weights_row)
    shown = list(range(n)) if n <= 4 else [0, 1, n - 1]
    terms = []
    for j in shown:
        if n > 4 and j == n - 1:
            terms.append(r"\cdots")
        terms.append(rf"{number(weights_row[j], digits)}\,\underbrace{{{vec(V[j])}}}_{{{text(key_labels[j])}}}")
    lines = [" + ".join(terms[k : k + TERMS_PER_LINE]) for k in range(0, len(terms), TERMS_PER_LINE)]
    i, sym = query + 1, notation
    return (
        rf"\begin{{aligned}}{sym.out}_{{{i}}} &= \sum_{sym.key} {sym.weight}_{{{i}{sym.key}}}\, {sym.value}_{sym.key}"
        rf" \\ &= {lines[0]}"
        + "".join(rf" \\ &\quad + {line}" for line in lines[1:])
        + rf" \\ &= {vec(z_row)}\end{{aligned}}"
    )


def concat_heads(head_syms: list[str], heads, concat, digits=2, size=6, split=None) -> str:
    r"""Concat(Z¹, …, Zʰ) = [Z¹ | Z² | …] as one matrix (at most 4 heads printed)."""
    m = _m(digits, size)
    shown = " ".join(bmatrix(h, digits, max_rows=6, max_cols=3) for h in heads[:4])
    more = r"\;\cdots" if len(heads) > 4 else ""
    names = ", ".join(head_syms)
    parts = rf"\operatorname{{Concat}}\!\left({shown}{more}\right)"
    return _chain(rf"\operatorname{{Concat}}({names})", parts, m(concat), split=True if split is None else split)


def output_projection(concat, W_O, b_O, out, with_bias: bool, *, out_name: str, digits=2, size=6, split=None) -> str:
    """out = Concat W_O (+ b_O) = [..][..] = [out]; out_name is the output's name ("out")."""
    m = _m(digits, size)
    bias_sym, bias = (" + b_O", f" + {m(b_O)}") if with_bias else ("", "")
    product = rf"{m(concat)}\,{m(W_O)}{bias}"
    return _chain(
        text(out_name, max_chars=None), rf"\operatorname{{Concat}}\,W_O{bias_sym}", product, m(out), split=split
    )


def residual(R, out, resid, *, out_name: str, digits=2, size=6, split=None, wrap_terms: bool = False) -> str:
    """x + out = [x] + [out] = [resid]; out_name is the attention output's name ("out"). wrap_terms (with split)
    puts "+ [out]" on a line of its own, for a narrow column."""
    m = _m(digits, size)
    lhs = rf"x + {text(out_name, max_chars=None)}"
    if wrap_terms and split:
        return rf"\begin{{aligned}}{lhs} &= {m(R)} \\ &\quad + {m(out)} \\ &= {m(resid)}\end{{aligned}}"
    return _chain(lhs, rf"{m(R)} + {m(out)}", m(resid), split=split)


def layer_norm_lines(query: int, query_tex: str, row, steps, eps: float, digits: int = 3) -> list[str]:
    """μ, σ², the normalised row and γ ⊙ · + β for one position (steps: LayerNormSteps)."""
    vec = partial(bmatrix, digits=digits, max_cols=8)
    return [
        rf"i = {query + 1}\;\left({query_tex}\right): \qquad r_i = {vec(row)}",
        rf"\mu = {number(steps.mean, digits)}, \qquad \sigma^2 = {number(steps.var, digits)}, \qquad "
        rf"\varepsilon = {scientific(eps)}",
        rf"\hat r_i = \frac{{r_i - \mu}}{{\sqrt{{\sigma^2 + \varepsilon}}}} = {vec(steps.normalized)}",
        rf"\operatorname{{LayerNorm}}(r_i) = \gamma \odot \hat r_i + \beta = {vec(steps.out)}",
    ]
