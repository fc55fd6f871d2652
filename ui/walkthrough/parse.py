"""Check what a user typed into the walkthrough's editors; every problem names its cell.

The editors hold text, so anything can be typed; only finite numbers with |x| ≤ MAX_ABS_INPUT get
through. Larger values could overflow Q Kᵀ itself (1e308 · 1e308 = inf) before the softmax sees them.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from model.teach.walkthrough import MAX_ABS_INPUT

from ..i18n import _

MAX_TOKEN_CHARS = 20


def _cell_problem(value) -> tuple[float | None, str | None]:
    """(number, None) or (None, what is wrong with it)."""
    raw = "" if value is None or (not isinstance(value, str) and pd.isna(value)) else str(value).strip()
    if not raw:
        return None, _("the cell is empty; type a number.")
    shown = raw if len(raw) <= 20 else raw[:19] + "…"
    try:
        x = float(raw.replace("−", "-"))
    except ValueError:
        return None, _("“{text}” is not a number.").format(text=shown)
    if math.isnan(x):
        return None, _("NaN (not a number) is not allowed; type a number.")
    if math.isinf(x) and "inf" in raw.lower():
        return None, _("{text} is infinite; type a finite number.").format(text=shown)
    if abs(x) > MAX_ABS_INPUT:  # also a number too long for a float (1e309 reads as infinity)
        return None, _(
            "{text} is too large: keep |x| ≤ {limit}, or the products in Q Kᵀ could overflow to infinity."
        ).format(text=shown, limit=f"{MAX_ABS_INPUT:,.0f}")
    return x, None


def parse_matrix(frame: pd.DataFrame, name: str, columns: list[str] | None = None) -> tuple[np.ndarray | None, list]:
    """The numbers in `columns` of `frame` as a float64 array, or None and one message per bad cell
    ("W_Q row 2, column 3: “abc” is not a number."), rows and columns counted from 1."""
    columns = list(frame.columns) if columns is None else columns
    out = np.zeros((len(frame), len(columns)), dtype=np.float64)
    problems = []
    for r in range(len(frame)):
        for c, col in enumerate(columns):
            x, problem = _cell_problem(frame[col].iloc[r])
            if problem:
                where = {"matrix": name, "row": r + 1, "column": c + 1, "problem": problem}
                problems.append(_("{matrix} row {row}, column {column}: {problem}").format(**where))
            else:
                out[r, c] = x
    return (None, problems) if problems else (out, [])


def parse_tokens(values) -> tuple[list[str] | None, list[str]]:
    """Token names: non-empty, at most MAX_TOKEN_CHARS characters each."""
    tokens, problems = [], []
    for i, value in enumerate(values):
        name = "" if value is None or (not isinstance(value, str) and pd.isna(value)) else str(value).strip()
        if not name:
            problems.append(_("Token {i}: the name is empty; type a word.").format(i=i + 1))
        elif len(name) > MAX_TOKEN_CHARS:
            problems.append(_("Token {i}: the name is longer than {n} characters.").format(i=i + 1, n=MAX_TOKEN_CHARS))
        tokens.append(name)
    return (None, problems) if problems else (tokens, [])


def as_text_frame(a: np.ndarray, columns: list[str], index: list[str]) -> pd.DataFrame:
    """Numbers as editable text cells, in their shortest exact form (0.1 stays "0.1"; −0.0 prints as 0)."""
    cells = [[np.format_float_positional(float(v) + 0.0, trim="-") for v in row] for row in np.asarray(a)]
    return pd.DataFrame(cells, columns=columns, index=index, dtype="string")
