r"""LaTeX strings for NumPy numbers and matrices, for st.latex (KaTeX).

Large matrices are abbreviated the way textbooks do: the first rows/columns, a \cdots / \vdots
/ \ddots gap, and the last one, so a 9 × 64 matrix still fits on a projector. −inf prints as −∞.
"""

from __future__ import annotations

import math
import re

import numpy as np

_TEXT_ESCAPES = {
    "\\": r"\backslash{}",
    "{": r"\{",
    "}": r"\}",
    "$": r"\$",
    "&": r"\&",
    "#": r"\#",
    "%": r"\%",
    "_": r"\_",
    "^": r"\^{}",
    "~": r"\sim{}",
}


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


def text(s: str, max_chars: int | None = 24) -> str:
    r"""Text (a token name, a word) safe inside math: \text{...} with every special character escaped;
    cut to max_chars (None: never)."""
    s = str(s)
    if max_chars is not None and len(s) > max_chars:
        s = s[: max_chars - 1] + "…"
    escaped = "".join(_TEXT_ESCAPES.get(ch, ch) for ch in s if ch.isprintable())
    return rf"\text{{{escaped}}}"


def words(template: str, **math: str) -> str:
    r"""A phrase with math in it: words("if {i} may attend to {j}", i="i", j="j") gives
    \text{if } i \text{ may attend to } j. The template's words are escaped, its {placeholders} become the
    given LaTeX, so a translated template can put the math where its language wants it."""
    parts = _PLACEHOLDER.split(template)
    return "".join(math[part] if k % 2 else text(part, max_chars=None) for k, part in enumerate(parts) if part)


def number(x: float, digits: int = 2) -> str:
    r"""One number: fixed decimals (tiny values round to 0.00), scientific (1.2 \times 10^{7}) when very large."""
    x = float(x)
    if math.isnan(x):
        return r"\text{NaN}"
    if math.isinf(x):
        return r"-\infty" if x < 0 else r"\infty"
    if x == 0:
        return "0" if digits == 0 else "0." + "0" * digits
    if abs(x) >= 10**5:
        mantissa, exponent = f"{x:.{max(digits - 1, 1)}e}".split("e")
        return rf"{mantissa} \times 10^{{{int(exponent)}}}"
    out = f"{x:.{digits}f}"
    return "0." + "0" * digits if out.lstrip("-") == "0." + "0" * digits else out


def scientific(x: float, digits: int = 1) -> str:
    r"""Always in scientific form: 1e-5 → 1.0 \times 10^{-5} (for constants such as LayerNorm's ε)."""
    mantissa, exponent = f"{float(x):.{digits}e}".split("e")
    return rf"{mantissa} \times 10^{{{int(exponent)}}}"


def shown_indices(n: int, limit: int) -> list[int | None]:
    """Which of n entries to print when at most `limit` fit: all, or the first limit − 2, None (the gap), the last."""
    if n <= limit:
        return list(range(n))
    head = max(limit - 2, 1)
    return [*range(head), None, n - 1]


def _cells(a: np.ndarray, max_rows: int, max_cols: int) -> tuple[list[int | None], list[int | None]]:
    """Row and column indices to print; None marks the elided gap."""
    return shown_indices(a.shape[0], max_rows), shown_indices(a.shape[1], max_cols)


def bmatrix(
    a,
    digits: int = 2,
    max_rows: int = 6,
    max_cols: int = 6,
    highlight_row: int | None = None,
    color: str = "#d62728",
) -> str:
    r"""A 1-D or 2-D array as \begin{bmatrix}...\end{bmatrix} (1-D = one row), abbreviated when large.

    highlight_row colours that row (e.g. the query token the softmax step follows).
    """
    arr = np.asarray(a, dtype=np.float64)
    if arr.ndim == 1:
        arr = arr[None, :]
    if arr.ndim != 2:
        raise ValueError(f"bmatrix takes a 1-D or 2-D array, got shape {arr.shape}.")
    rows, cols = _cells(arr, max_rows, max_cols)
    lines = []
    for r in rows:
        cells = []
        for c in cols:
            if r is None:
                cells.append(r"\ddots" if c is None else r"\vdots")
            elif c is None:
                cells.append(r"\cdots")
            else:
                cell = number(arr[r, c], digits)
                cells.append(rf"\color{{{color}}}{{{cell}}}" if r == highlight_row else cell)
        lines.append(" & ".join(cells))
    return r"\begin{bmatrix}" + r" \\ ".join(lines) + r"\end{bmatrix}"


def shape(a) -> str:
    """'4 \\times 2' for a (4, 2) array: the size under an abbreviated matrix."""
    return r" \times ".join(str(n) for n in np.shape(a))


def underbrace_shape(name_tex: str, a) -> str:
    r"""A matrix with its size under it: \underbrace{[...]}_{4 \times 2}."""
    return rf"\underbrace{{{name_tex}}}_{{{shape(a)}}}"
