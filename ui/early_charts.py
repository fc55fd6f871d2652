"""Start loading the charts' code with the first message a run sends, before the page's imports and model run.

A fresh server's first run spends seconds importing torch and the lab before the first chart is sent, and only then
did the browser fetch and compile plotly.js (~2 s of its own, docs/capacity.md "Cold start"). Importing
static/chart.js and starting plotly.js's load here lets the browser do that work meanwhile; later runs send the same
element, which the browser keeps without running it again. Imports nothing but Streamlit.
"""

from __future__ import annotations

import streamlit as st

from .plotly_bundle import plotly_chunk_path

EARLY_JS = """<script>
import(new URL("app/static/chart.js", document.baseURI))
  .then((lab) => lab.loadPlotly(new URL("PLOTLY_CHUNK", document.baseURI).href))
  .catch(() => {});
</script>"""


def load_charts_early() -> None:
    """The sidebar's script element that starts loading static/chart.js and plotly.js (a script-only element takes
    no room: ui.presenter.style)."""
    chunk = plotly_chunk_path()
    if chunk is not None:
        st.sidebar.html(EARLY_JS.replace("PLOTLY_CHUNK", chunk), unsafe_allow_javascript=True)
