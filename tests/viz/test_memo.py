"""viz.memo: a builder's figure shared for equal arguments, what is derived from it kept with it, and the dict that
st.plotly_chart serializes handed over as it is."""

from __future__ import annotations

import inspect

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import plotly.tools
import pytest

from viz import memo
from viz.fit import fit_to_width
from viz.memo import derived, dict_figure, freeze, is_frozen, remembered
from viz.walkthrough import matrix_heatmap

RNG = np.random.default_rng(11)


def _heatmap_args():
    return RNG.standard_normal((3, 4)), ["a", "b", "c"], ["1", "2", "3", "4"]


def test_equal_arguments_share_one_frozen_figure_that_equals_a_fresh_build():
    z, rows, cols = _heatmap_args()
    fig = matrix_heatmap(z, rows, cols, "Scores", highlight_row=1)
    assert matrix_heatmap(z.copy(), list(rows), list(cols), "Scores", highlight_row=1) is fig
    assert is_frozen(fig)
    built = inspect.unwrap(matrix_heatmap)  # matrix_heatmap itself, without @remembered's cache
    assert fig.to_dict() == built(z, rows, cols, "Scores", highlight_row=1).to_dict()
    assert matrix_heatmap(z, rows, cols, "得分", highlight_row=1) is not fig  # another language's title
    assert matrix_heatmap(z, rows, cols, "Scores", highlight_row=2) is not fig
    z2 = z.copy()
    z2[0, 0] += 0.5
    other = matrix_heatmap(z2, rows, cols, "Scores", highlight_row=1)
    assert other is not fig and other.data[0].z[0][0] != fig.data[0].z[0][0]


def test_the_cache_is_bounded():
    z, rows, cols = _heatmap_args()
    first = matrix_heatmap(z, rows, cols, "title 0")
    for n in range(1, memo.MAX_FIGURES + 1):  # one more than it holds: the first is the least recently used
        matrix_heatmap(z, rows, cols, f"title {n}")
    assert len(memo._figures) == memo.MAX_FIGURES
    assert matrix_heatmap(z, rows, cols, "title 0") is not first


def test_a_figure_is_measured_by_its_numbers_and_the_cache_by_those_measures():
    z = np.zeros((100, 100))  # 80 000 bytes as an array; as rows of floats, a pointer and a float object per number
    empty = memo.figure_bytes(go.Figure())  # its layout's template
    as_array = memo.figure_bytes(go.Figure(go.Heatmap(z=z))) - empty
    assert 80_000 * memo.DERIVED_SHARE < as_array < (80_000 + 2_000) * memo.DERIVED_SHARE
    as_rows = memo.figure_bytes(go.Figure(go.Heatmap(z=z.tolist()))) - empty
    rows_bytes = 100 * (56 + 32 * 100)
    assert rows_bytes * memo.DERIVED_SHARE < as_rows < (rows_bytes + 2_000) * memo.DERIVED_SHARE

    @remembered
    def big(n: int) -> go.Figure:  # about a quarter of the cache's bytes each
        side = int((memo.MAX_FIGURE_BYTES / 4 / memo.DERIVED_SHARE / 8) ** 0.5)
        return go.Figure(go.Heatmap(z=np.full((side, side), float(n))))

    figures = [big(n) for n in range(6)]
    assert len(memo._figures) == 3 and memo._figures.nbytes <= memo.MAX_FIGURE_BYTES
    assert big(5) is figures[5] and big(0) is not figures[0]  # the oldest went to make room


def test_arguments_without_a_value_key_build_every_time():
    calls = []

    @remembered
    def build(thing) -> go.Figure:
        calls.append(thing)
        return go.Figure()

    thing = object()
    assert build(thing) is not build(thing)
    assert len(calls) == 2


def test_what_is_derived_from_a_shared_figure_is_derived_once():
    z, rows, cols = _heatmap_args()
    fig = matrix_heatmap(z, rows, cols, "A title long enough to be wrapped on a narrow phone screen, surely")
    calls = []

    def fit(f):
        calls.append(f)
        return fit_to_width(f, 300)

    fitted = derived(fig, ("fit", 300), fit)
    assert derived(fig, ("fit", 300), fit) is fitted and len(calls) == 1
    assert is_frozen(fitted) and fitted.to_dict() == fit_to_width(go.Figure(fig), 300).to_dict()
    assert derived(fig, ("fit", 900), fit) is not fitted and len(calls) == 2
    own = go.Figure(fig)  # not shared: derived anew each time
    derived(own, ("fit", 300), fit)
    derived(own, ("fit", 300), fit)
    assert len(calls) == 4


def test_st_plotly_charts_reading_of_a_dict_figure_is_the_dict_itself_and_serializes_as_the_figure():
    z, rows, cols = _heatmap_args()
    fig = freeze(go.Figure(matrix_heatmap(z, rows, cols, "T")))
    spec = derived(fig, "dict", lambda f: f.to_dict())
    read = plotly.tools.return_figure_from_figure_or_data(dict_figure(spec), validate_figure=True)
    assert read is spec
    assert pio.to_json(read, validate=False) == pio.to_json(fig, validate=False)


@pytest.fixture(autouse=True)
def _fresh_cache():
    memo.forget_figures()
    yield
    memo.forget_figures()
