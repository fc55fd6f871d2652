"""The head atlas's "previous line" role on hand-built poems and attention matrices: the lines and offsets counted
here by hand, a causal head that reads the same place one line above (share 1, dominant), one that reads the
previous token instead, a uniform causal head (share 1/(i+1) per row), and the role absent from a text of one line
and from cross-attention."""

from __future__ import annotations

import math

import numpy as np
import pytest

from model.analysis.atlas import ROLES, head_roles
from model.analysis.lines import line_and_offset, line_starts, previous_line_keys
from model.naming import AttentionKind

POEM = list("床前明月光，疑是地上霜。\n举头望")  # lines: 0…5, 6…12 (。 and the newline end it), 13…15
ABOVE = [-1] * 6 + [0, 1, 2, 3, 4, 5, -1] + [6, 7, 8]  # 霜(10)→光(4), 。(11)→，(5); \n(12): offset 6, line 0 has 6


def share(roles, role: str, head: int = 0) -> float:
    return float(roles.scores[head, ROLES.index(role)])


def test_lines_end_at_a_run_of_breaks_and_offsets_count_from_each_line_start():
    assert line_starts(POEM) == [0, 6, 13]
    line, offset = line_and_offset(POEM)
    assert line.tolist() == [0] * 6 + [1] * 7 + [2] * 3
    assert offset.tolist() == [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 0, 1, 2]
    assert previous_line_keys(POEM).tolist() == ABOVE
    assert line_starts(list("，，ab")) == [0, 2]  # breaks at the very start make the first line
    assert line_starts([]) == [] and previous_line_keys([]).tolist() == []


def test_english_lines_break_at_newlines_only():
    text = list("To be\nor no")
    assert line_starts(text) == [0, 6]
    assert previous_line_keys(text).tolist() == [-1] * 6 + [0, 1, 2, 3, 4]  # "," and "." do not end an English line


def test_a_causal_head_on_the_line_above_has_share_one_and_dominates():
    n = len(POEM)
    w = np.eye(n)  # rows without a line above stay on themselves
    for i, j in enumerate(ABOVE):
        if j >= 0:
            w[i] = 0.0
            w[i, j] = 1.0
    assert np.allclose(np.triu(w, 1), 0) and np.allclose(w.sum(-1), 1)
    roles = head_roles(w[None], POEM, POEM, AttentionKind.DECODER)
    assert share(roles, "previous_line") == 1.0  # the 9 rows with a line above all read it
    assert share(roles, "self") == pytest.approx(7 / 16)  # rows 0…5 and the newline (12) stay on themselves
    assert share(roles, "previous") == 0.0
    assert roles.dominant() == ["previous_line"]


def test_a_previous_token_head_and_a_uniform_head_score_the_line_above_by_hand():
    n = len(POEM)
    previous = np.eye(n)
    previous[1:] = np.eye(n)[:-1]  # row i on i − 1 (row 0 on itself)
    uniform = np.tril(np.ones((n, n)))
    uniform /= uniform.sum(-1, keepdims=True)  # row i: 1/(i+1) on keys 0…i
    roles = head_roles(np.stack([previous, uniform]), POEM, POEM, AttentionKind.DECODER)
    rows = [i for i, j in enumerate(ABOVE) if j >= 0]
    assert share(roles, "previous_line", 0) == 0.0  # i − 1 is never the same place one line above here
    assert share(roles, "previous_line", 1) == pytest.approx(np.mean([1 / (i + 1) for i in rows]))
    assert roles.dominant()[0] == "previous"


def test_no_line_above_and_cross_attention_have_no_such_role():
    one_line = list("床前明月光，")
    w = np.tril(np.ones((6, 6)))
    w /= w.sum(-1, keepdims=True)
    assert math.isnan(share(head_roles(w[None], one_line, one_line, AttentionKind.DECODER), "previous_line"))
    cross = head_roles(np.full((1, 16, 16), 1 / 16), POEM, POEM, AttentionKind.CROSS)
    assert math.isnan(share(cross, "previous_line"))
