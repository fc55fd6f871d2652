"""Hostile edits to the Step-by-step page's editable tables (X with its token names, W_Q, W_K, W_V, W_O): NaN,
infinities, 1e308 and beyond, numbers too long for a float, NUL; rows deleted, every row deleted, rows or cells
that do not exist (the tables have fixed rows: only a hand-made request sends those); huge and LaTeX token names.
Each gets a message naming the table, never a traceback, and the last valid numbers stay in use: the page then
takes a good edit as before.

Covered elsewhere, not repeated here: "abc", an empty cell, nan, inf, -inf and 1e308 typed into W_Q in both
languages, an empty token name, `$x}\\` and `<b>x</b>*y*` as token names (tests/app/test_step_by_step.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pytest

from tests.app.charts import charts_of

from .apptest import Says, open_page, run

MATRICES = ("X", "W_Q", "W_K", "W_V", "W_O")
TOO_LARGE = Says("is too large: keep |x| ≤ 1,000,000", "太大了：请保持 |x| ≤ 1,000,000")
FIXED = Says("its rows and columns are fixed; the edit was undone.", "行数和列数是固定的，这次编辑已撤销。")
NAN = Says("X row 2, column 2: NaN (not a number) is not allowed", "X 第 2 行第 2 列：不能用 NaN")
MINUS_INF = Says("W_V row 4, column 4: -inf is infinite", "W_V 第 4 行第 4 列：-inf 是无穷大")
LONG_NAME = Says("Token 1: the name is longer than 20", "第 1 个词元：名称超过了 20")
LATEX_TOKENS = ["\\\\", "}", "$", "\\text{", "\\href{javascript:alert(1)}{x}"]


def cells(rows: dict | None = None, added: list | None = None, deleted: list | None = None) -> dict:
    """A data editor's state as the browser sends it."""
    return {"edited_rows": rows or {}, "added_rows": added or [], "deleted_rows": deleted or []}


@dataclass(frozen=True)
class MatrixCase:
    id: str
    table: str
    edit: dict
    says: Says | None  # None: nothing to refuse (the edit is shown inert or skipped)
    langs: tuple[str, ...] = ("en",)


CASES = [
    MatrixCase("NaN-in-X", "X", cells({1: {"2": "NaN"}}), NAN),
    MatrixCase("inf-in-W_K", "W_K", cells({0: {"1": "Infinity"}}), Says("Infinity is infinite", "Infinity 是无穷大")),
    MatrixCase("-inf-in-W_V", "W_V", cells({3: {"4": "-inf"}}), MINUS_INF, ("en", "zh")),
    MatrixCase("1e308-in-W_O", "W_O", cells({2: {"3": "1e308"}}), TOO_LARGE, ("en", "zh")),
    MatrixCase("-1e309-reads-as-infinity", "W_Q", cells({0: {"1": "-1e309"}}), TOO_LARGE),
    MatrixCase("100000-digits", "W_O", cells({0: {"1": "9" * 100_000}}), TOO_LARGE),
    MatrixCase("NUL-in-a-cell", "W_K", cells({1: {"1": "1\x00"}}), Says("is not a number.", "不是一个数。")),
    MatrixCase("a-row-deleted", "W_Q", cells(deleted=[0]), FIXED, ("en", "zh")),
    MatrixCase("every-row-deleted", "W_K", cells(deleted=[0, 1, 2, 3]), FIXED),
    MatrixCase("a-token-row-deleted", "X", cells(deleted=[3]), FIXED),
    MatrixCase("a-column-that-does-not-exist", "W_V", cells({0: {"99": "1"}}), FIXED),
    MatrixCase("a-row-that-does-not-exist", "W_O", cells({7: {"1": "1"}}), FIXED),
    MatrixCase("2000-rows-added", "X", cells(added=[{"token": f"t{i}", "1": "1"} for i in range(2000)]), None),
    MatrixCase("a-short-row-added", "W_O", cells(added=[{"1": "1"}]), None),
    MatrixCase("1MB-token-name", "X", cells({0: {"token": "a" * 2**20}}), LONG_NAME),
]


def editor(at, table: str) -> str:
    """The table's editor key now (a refused shape starts the editors afresh under a new version)."""
    try:
        version = at.session_state["wt_version"]
    except KeyError:
        version = 0
    return f"wt_edit_{table}_{version}"


def values_of(at) -> dict:
    values = at.session_state["wt_values"]
    return {"tokens": list(values["tokens"]), **{m: np.array(values[m]) for m in MATRICES}}


@pytest.mark.parametrize(
    ("case", "lang"), [pytest.param(c, lang, id=f"{c.id}-{lang}") for c in CASES for lang in c.langs]
)
def test_hostile_edit(case: MatrixCase, lang: str):
    at = open_page("step-by-step", lang, {"step": "6"})
    at.session_state[editor(at, "W_Q")] = cells({0: {"1": "0.25"}})  # a valid edit first: the last valid values
    before = values_of(run(at))
    assert before["W_Q"][0, 0] == 0.25
    at.session_state[editor(at, case.table)] = case.edit
    run(at)
    errors = " ".join(e.value for e in at.error)
    if case.says is None:
        assert not errors, errors
    else:
        assert case.says[lang] in errors, errors
        assert len(errors) < 1000, "the message repeats the input instead of naming it"
    after = values_of(at)
    assert after["tokens"] == before["tokens"]
    for m in MATRICES:
        np.testing.assert_array_equal(after[m], before[m], err_msg=m)
    assert at.latex and charts_of(at), "the step still shows its formulas and figures"
    at.session_state[editor(at, "W_K")] = cells({1: {"2": "-0.5"}})  # the page still takes a good edit
    run(at)
    assert values_of(at)["W_K"][1, 1] == -0.5 and values_of(at)["W_Q"][0, 0] == 0.25


def balanced(tex: str) -> bool:
    """Every unescaped { has its }: KaTeX can parse the formula."""
    depth = 0
    for brace in re.sub(r"\\[{}]|\\\\", "", tex):
        depth += {"{": 1, "}": -1}.get(brace, 0)
        if depth < 0:
            return False
    return depth == 0


ESCAPED = [r"\text{\backslash{}\backslash{}}", r"\text{\}}", r"\text{\$}", r"\text{\backslash{}text\{}"]  # as typed


@pytest.mark.parametrize(("step", "named"), [(1, 0), (5, 1), (6, 4)])  # how many token names each step's formulas show
def test_latex_in_token_names_stays_text_in_every_formula(step, named):
    at = open_page("step-by-step", "en", {"step": str(step)})
    at.session_state[editor(at, "X")] = cells({i: {"token": t} for i, t in enumerate(LATEX_TOKENS[:4])})
    run(at)
    assert not at.error
    formulas = [tex.value for tex in at.latex]
    assert formulas and all(balanced(tex) for tex in formulas), formulas
    joined = "\n".join(formulas)
    for escaped in ESCAPED[:named]:
        assert escaped in joined, escaped
    at.session_state[editor(at, "X")] = cells({0: {"token": LATEX_TOKENS[4][:20]}})
    run(at)
    assert not at.error and all(balanced(tex.value) for tex in at.latex)
    assert "\\href{" not in "\n".join(tex.value for tex in at.latex)  # never a live link command
