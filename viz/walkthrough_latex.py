r"""The walkthrough's formulas with the real numbers substituted, as LaTeX strings for st.latex.

Every function takes numbers already computed by model/ code and only prints them; symbols such as
"Q^{(1)}" are passed in, so the page decides how heads and tokens are named.
"""

from __future__ import annotations

import numpy as np

from .latex import bmatrix, number, text


def _plus_bias(b, digits: int, **kw) -> str:
    return "" if b is None else " + " + bmatrix(b, digits, **kw)


def projection(out_sym: str, in_sym: str, w_sym: str, b_sym: str | None, X, W, b, out, digits: int = 2) -> str:
    """Q = X W_Q (+ b_Q) = [X][W_Q] (+ [b_Q]) = [Q]."""
    bias = "" if b_sym is None else f" + {b_sym}"
    return (
        rf"{out_sym} = {in_sym}\,{w_sym}{bias} = {bmatrix(X, digits)}\,{bmatrix(W, digits)}"
        rf"{_plus_bias(None if b_sym is None else b, digits)} = {bmatrix(out, digits)}"
    )


def scores(q_sym: str, k_sym: str, Q, K, S, digits: int = 2, highlight_row: int | None = None) -> str:
    """Q Kᵀ = [Q][Kᵀ] = [S]."""
    return (
        rf"{q_sym}\,{k_sym}^{{\top}} = {bmatrix(Q, digits, highlight_row=highlight_row)}\,"
        rf"{bmatrix(np.asarray(K).T, digits)} = {bmatrix(S, digits, highlight_row=highlight_row)}"
    )


def scaling(S, scaled, d_k: int, temperature: float, scale: bool, digits: int = 2, highlight_row=None) -> str:
    r"""QKᵀ / (√d_k · τ) with the divisor spelled out (τ only when it is not 1, √d_k only when on)."""
    syms, nums = [], []
    if scale:
        syms.append(r"\sqrt{d_k}")
        nums.append(rf"\sqrt{{{d_k}}}")
    if temperature != 1.0 or not scale:
        syms.append(r"\tau")
        nums.append(number(temperature, 2))
    dot = r" \cdot "
    sym_tex, num_tex = dot.join(syms), dot.join(nums)
    return (
        rf"\frac{{Q K^{{\top}}}}{{{sym_tex}}} = \frac{{1}}{{{num_tex}}}\,"
        rf"{bmatrix(S, digits, highlight_row=highlight_row)} = {bmatrix(scaled, digits, highlight_row=highlight_row)}"
    )


def masking(scaled, masked, digits: int = 2, highlight_row=None) -> str:
    r"""masked_ij = scaled_ij where allowed, −∞ elsewhere."""
    return (
        r"\operatorname{mask}(s)_{ij} = \begin{cases} s_{ij} & \text{if } i \text{ may attend to } j \\"
        r" -\infty & \text{otherwise} \end{cases}"
        rf" \quad\Rightarrow\quad {bmatrix(scaled, digits, highlight_row=highlight_row)} \;\to\; "
        rf"{bmatrix(masked, digits, highlight_row=highlight_row)}"
    )


def softmax_lines(query_tex: str, steps, digits: int = 3) -> list[str]:
    """The five lines of one row's softmax: row, max, shift, exp, sum, divide (steps: SoftmaxSteps)."""
    i = query_tex
    return [
        rf"s_{{{i}}} = {bmatrix(steps.row, digits)}",
        rf"m = \max_j s_{{{i}j}} = {number(steps.max, digits)}",
        rf"s_{{{i}}} - m = {bmatrix(steps.shifted, digits)} \quad (\text{{every entry}} \le 0)",
        rf"e^{{s_{{{i}}} - m}} = {bmatrix(steps.exps, digits)}",
        rf"\textstyle\sum_j e^{{s_{{{i}j}} - m}} = {number(steps.total, digits)}",
        rf"\alpha_{{{i}}} = \frac{{e^{{s_{{{i}}} - m}}}}{{{number(steps.total, digits)}}} = "
        rf"{bmatrix(steps.weights, digits)}, \qquad \textstyle\sum_j \alpha_{{{i}j}} = "
        rf"{number(steps.weights_sum, digits)}",
    ]


def weighted_sum(weights, V, Z, digits: int = 2, highlight_row=None) -> str:
    """Z = α V = [α][V] = [Z]."""
    return (
        rf"Z = \alpha V = {bmatrix(weights, digits, highlight_row=highlight_row)}\,{bmatrix(V, digits)}"
        rf" = {bmatrix(Z, digits, highlight_row=highlight_row)}"
    )


def contribution_sum(query_tex: str, weights_row, V, key_labels: list[str], z_row, digits: int = 2) -> str:
    r"""z_i = Σ_j α_ij v_j = 0.12·[v_the] + ... = [z_i] (at most 8 terms, then \cdots)."""
    terms = []
    n = len(weights_row)
    shown = list(range(n)) if n <= 8 else [*range(6), n - 1]
    for j in shown:
        if n > 8 and j == n - 1:
            terms.append(r"\cdots")
        terms.append(rf"{number(weights_row[j], digits)}\,{bmatrix(V[j], digits, max_cols=4)}_{{{text(key_labels[j])}}}")
    return rf"z_{{{query_tex}}} = \sum_j \alpha_{{{query_tex}j}}\, v_j = " + " + ".join(terms) + rf" = {bmatrix(z_row, digits)}"


def concat_heads(head_syms: list[str], heads, concat, digits: int = 2) -> str:
    r"""Concat(Z¹, …, Zʰ) = [Z¹ | Z² | …] as one matrix."""
    names = ", ".join(head_syms)
    shown = " ".join(bmatrix(h, digits, max_cols=4) for h in heads[:4])
    more = r"\;\cdots" if len(heads) > 4 else ""
    return rf"\operatorname{{Concat}}({names}) = \operatorname{{Concat}}\!\left({shown}{more}\right) = {bmatrix(concat, digits)}"


def output_projection(concat, W_O, b_O, out, with_bias: bool, digits: int = 2) -> str:
    """out = Concat W_O (+ b_O) = [..][..] = [out]."""
    bias_sym = " + b_O" if with_bias else ""
    return (
        rf"\text{{out}} = \operatorname{{Concat}}\,W_O{bias_sym} = {bmatrix(concat, digits)}\,{bmatrix(W_O, digits)}"
        rf"{_plus_bias(b_O if with_bias else None, digits)} = {bmatrix(out, digits)}"
    )


def residual(R, out, resid, digits: int = 2) -> str:
    """x + out = [x] + [out] = [resid]."""
    return rf"x + \text{{out}} = {bmatrix(R, digits)} + {bmatrix(out, digits)} = {bmatrix(resid, digits)}"


def layer_norm_lines(query_tex: str, row, steps, eps: float, digits: int = 3) -> list[str]:
    """μ, σ², the normalised row and γ ⊙ · + β for one position (steps: LayerNormSteps)."""
    i = query_tex
    return [
        rf"r_{{{i}}} = {bmatrix(row, digits, max_cols=8)}",
        rf"\mu = {number(steps.mean, digits)}, \qquad \sigma^2 = {number(steps.var, digits)}, \qquad "
        rf"\varepsilon = {number(eps, 1)}",
        rf"\hat r_{{{i}}} = \frac{{r_{{{i}}} - \mu}}{{\sqrt{{\sigma^2 + \varepsilon}}}} = "
        rf"{bmatrix(steps.normalized, digits, max_cols=8)}",
        rf"\operatorname{{LayerNorm}}(r_{{{i}}}) = \gamma \odot \hat r_{{{i}}} + \beta = {bmatrix(steps.out, digits, max_cols=8)}",
    ]
