r"""The next token's chain with the real numbers, as LaTeX for st.latex: the formula, then a table of the top
candidates through every stage (logit z, z ÷ T, softmax p, then q: renormalised after the cut, — for a token the cut
removed, whose row is grey).

The numbers come in computed (model.sampling's Chain); words come in translated, so the formula speaks the page's
language.
"""

from __future__ import annotations

from dataclasses import dataclass

from .latex import number, text

CUT_COLOUR = "#999999"


@dataclass(frozen=True)
class ChainRow:
    """One candidate through the chain: its token as shown, and each stage's number for it."""

    token: str
    logit: float
    scaled: float
    prob: float
    kept: bool
    renormalised: float


def chain_formula(temperature: float, *, kept_word: str) -> str:
    r"""Two aligned lines: p_i = e^{z_i/T} / Σ_j e^{z_j/T} (T = 0: all on the largest z), q_i = p_i / Σ_{j kept} p_j."""
    kept = text(kept_word, max_chars=None)
    renormalise = rf"q_i &= \dfrac{{p_i}}{{\sum_{{j\,{kept}}} p_j}}"
    if temperature == 0:
        softmax = r"p_i &= \begin{cases} 1 & z_i = \max_j z_j \\ 0 & z_i < \max_j z_j \end{cases}\quad (T = 0)"
    else:
        t = number(temperature)
        softmax = r"p_i &= \operatorname{softmax}\!\left(\dfrac{z}{T}\right)_i = "
        softmax += rf"\dfrac{{e^{{z_i/{t}}}}}{{\sum_j e^{{z_j/{t}}}}}"
    return r"\begin{aligned}" + softmax + r" \\[4pt] " + renormalise + r"\end{aligned}"


def chain_table(rows: list[ChainRow], temperature: float, *, token_word: str) -> str:
    r"""\begin{array} of the candidates: token, z_i, z_i / T, p_i, q_i; a cut token's row grey, its q "—"."""
    scaled_head = r"z_i / T" if temperature != 0 else r"z_i"
    head = " & ".join([text(token_word, max_chars=None), "z_i", scaled_head, "p_i", "q_i"])
    lines = []
    for row in rows:
        cells = [text(row.token, max_chars=12), number(row.logit), number(row.scaled), number(row.prob, 4),
                 number(row.renormalised, 4) if row.kept else r"\text{—}"]  # fmt: skip
        if not row.kept:
            cells = [rf"\color{{{CUT_COLOUR}}}{{{cell}}}" for cell in cells]
        lines.append(" & ".join(cells))
    return r"\begin{array}{l|rrrr}" + head + r" \\ \hline " + r" \\ ".join(lines) + r"\end{array}"
