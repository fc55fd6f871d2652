"""viz.figure_json writes a figure's JSON from plotly's own dicts of it, and viz.fit.fitted_dict fits a figure without
copying it whole: both must give what plotly.io.to_json gives (of the figure, and of fit_to_width's figure), and
neither may change the figure they read."""

from __future__ import annotations

import copy
import json

import numpy as np
import plotly.graph_objects as go
import plotly.io
import pytest

from viz.figure_json import fig_dict, figure_json
from viz.fit import fit_to_width, fitted_dict, fitted_spec

from .test_figure import builders

WIDTHS = (120, 300, 700, 1400)  # a phone's column that shrinks or drops cell numbers and wraps titles, … a wide page


def plotly_json(fig: go.Figure) -> dict:
    return json.loads(plotly.io.to_json(fig, validate=False))


@pytest.mark.parametrize("name", list(builders()))
def test_a_figures_json_is_plotlys(name):
    fig = builders()[name]()
    assert json.loads(figure_json(fig_dict(fig))) == plotly_json(fig)


def test_the_builders_arrays_go_as_typed_arrays():
    typed = [name for name, build in builders().items() if '"bdata"' in figure_json(fig_dict(build()))]
    assert {"overview", "head", "signed matrix"} <= set(typed)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", list(builders()))
def test_a_figure_fitted_without_a_copy_is_fit_to_widths_and_the_figure_is_left_as_it_was(name, width):
    fig = builders()[name]()
    before = plotly_json(fig)
    own = copy.deepcopy(fig_dict(fig))  # plotly's dicts, to check nothing in them was changed
    written = json.loads(figure_json(fitted_dict(fig, width)))
    assert written == plotly_json(fit_to_width(fig, width))
    assert plotly_json(fig) == before
    assert json.dumps(fig_dict(fig), default=repr) == json.dumps(own, default=repr)


def test_the_widths_above_do_fit_something_and_leave_a_wide_figure_alone():
    fitted = {width: fitted_spec(builders()["head"](), width) for width in WIDTHS}
    assert fitted[120] is not None and fitted[120]["data"][0]["texttemplate"] == ""  # numbers left to the hover
    assert fitted[700] is None


def test_nan_and_infinity_outside_arrays_are_null_and_inside_them_stay_in_the_typed_array():
    fig = go.Figure(go.Heatmap(z=np.array([[np.nan, -np.inf], [0.5, 1.0]]), text=[["a", "b"], ["c", "d"]]),
                    layout={"title": {"text": "t"}, "xaxis": {"range": [float("nan"), 1.0]}})  # fmt: skip
    written = json.loads(figure_json(fig_dict(fig)))
    assert written == plotly_json(fig)
    assert written["layout"]["xaxis"]["range"] == [None, 1.0]
    z = written["data"][0]["z"]
    assert z["dtype"] == "f8" and z["shape"] == "2, 2"
    decoded = np.frombuffer(__import__("base64").b64decode(z["bdata"])).reshape(2, 2)
    assert np.isnan(decoded[0, 0]) and decoded[0, 1] == -np.inf and decoded[1, 1] == 1.0
