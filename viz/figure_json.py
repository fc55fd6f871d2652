"""A figure's JSON written from plotly's own dicts of it, not from a deep copy.

plotly.io.to_json(fig) first calls fig.to_dict(), which deep-copies every trace and the layout and then walks the
copy to turn numpy arrays into plotly.js typed arrays: ~1.8 ms of the ~2 ms it took per Attention figure, on every
new figure a page draws (docs/capacity.md, "One person's edit"). `figure_json` writes the
same JSON from `fig_dict(fig)`, the dicts plotly keeps (read, never changed): arrays become the same typed arrays, the
rest goes through plotly's own encoder (NaN and ±inf outside arrays as null). tests/viz/test_figure_json.py checks
it gives what plotly.io.to_json gives for every builder's figures.
"""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
from _plotly_utils.utils import PlotlyJSONEncoder, is_skipped_key, to_typed_array_spec


def fig_dict(fig: go.Figure) -> dict:
    """{"data": …, "layout": …}: plotly's own dicts of the figure (no copy: read it, never change it)."""
    if fig.frames:  # the lab draws no animations; plotly's own copy keeps a figure with frames right
        return fig.to_dict()
    return {"data": fig._data, "layout": fig._layout}


def _typed(value):
    """`value` with each numpy array held under a dict key (but those plotly leaves alone) as plotly.js's typed-array
    spec, where plotly.io.to_json converts them; a container with no array inside is returned itself, and none is
    changed (a converted one is a new container). A list of numbers or strings holds no dict, so it is not walked."""
    if isinstance(value, dict):
        converted = None
        for key, item in value.items():
            if is_skipped_key(key):
                continue
            new = to_typed_array_spec(item) if isinstance(item, np.ndarray) else _typed(item)
            if new is not item:
                converted = converted if converted is not None else dict(value)
                converted[key] = new
        return value if converted is None else converted
    if isinstance(value, list | tuple) and value and isinstance(value[0], dict | list | tuple):
        items = [_typed(item) for item in value]
        return value if all(new is old for new, old in zip(items, value, strict=True)) else items
    return value


def figure_json(spec: dict) -> str:
    """The JSON plotly.io.to_json(validate=False) writes for a figure whose dict is `spec` (fig_dict, or a fitted copy
    of it: viz.fit.fitted_dict), without the spaces after its commas and colons."""
    return json.dumps(_typed(spec), cls=PlotlyJSONEncoder, separators=(",", ":"))
