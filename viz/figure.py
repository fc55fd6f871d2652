"""A figure from the lab's own dict without plotly's property-by-property validation.

go.Figure(dict) runs a validator over every value it is given (every hover string of a heatmap, every shape): about
half the time of building the Attention page's figures (13.5 → 5.3 ms for its three, bench/ui_latency.py
conditions). The builders write only what plotly accepts, so the one change validation makes to their dicts is done
here: a named colour scale ("Blues") becomes plotly.py's list of stops (plotly.js knows other scales by the same
names), and an empty list of shapes or annotations is left out. tests/viz/test_figure.py checks that every
builder's JSON is the same as a validated figure's.
"""

from __future__ import annotations

from functools import lru_cache

import plotly.graph_objects as go
from _plotly_utils.basevalidators import ColorscaleValidator

_SCALE = ColorscaleValidator("colorscale", "heatmap")


@lru_cache(maxsize=64)
def _stops(name: str) -> tuple[tuple[float, str], ...]:
    return tuple((float(at), str(colour)) for at, colour in _SCALE.validate_coerce(name))


def colour_scale(scale):
    """A named scale as plotly.py's list of [position, colour] stops (what validation would make of it); others
    as given."""
    return [list(stop) for stop in _stops(scale)] if isinstance(scale, str) else scale


def figure(spec: dict) -> go.Figure:
    """go.Figure(spec) without validation (see the module docstring); `spec` is the lab's own, never user input."""
    for trace in spec.get("data", ()):
        if "colorscale" in trace:
            trace["colorscale"] = colour_scale(trace["colorscale"])
    layout = spec.get("layout", {})
    for name in ("shapes", "annotations", "images"):
        if name in layout and not len(layout[name]):
            del layout[name]
    return go.Figure(spec, _validate=False)
