"""Where the browser gets plotly.js for the in-place chart: Streamlit's own chart chunk, found by its hashed name.

Streamlit 1.67 bundles plotly.js into one frontend chunk (static/js/PlotlyChart.<hash>.js, loaded by
st.plotly_chart), which sets window.Plotly when it runs. Streamlit serves its bundles cached for a year and never
compressed per request, so reusing that chunk costs the server nothing per page load, and a page with both kinds of
chart loads plotly.js once. tests/app/test_plotly_bundle.py checks both facts for the pinned Streamlit.
"""

from __future__ import annotations

import functools
from pathlib import Path

import streamlit

STREAMLIT_STATIC = Path(streamlit.__file__).parent / "static"
CHUNK_PATTERN = "static/js/PlotlyChart.*.js"


@functools.cache
def plotly_chunk_path() -> str | None:
    """The chunk's URL path relative to the server's base ("static/js/PlotlyChart.D9Z0_fxz.js"), or None if this
    Streamlit has not exactly one such chunk."""
    found = sorted(STREAMLIT_STATIC.glob(CHUNK_PATTERN))
    return found[0].relative_to(STREAMLIT_STATIC).as_posix() if len(found) == 1 else None
