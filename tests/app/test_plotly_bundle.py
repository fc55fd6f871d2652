"""The in-place chart takes plotly.js from Streamlit's own chart chunk (ui/plotly_bundle.py). What that relies on is
checked here against the pinned Streamlit's files: exactly one such chunk, holding plotly.js, which publishes itself
as window.Plotly when it runs; and the server serves it where the component's loader asks for it."""

from __future__ import annotations

import json
import urllib.request

import pytest

from devtools.harness import streamlit_server
from ui.plotly_bundle import STREAMLIT_STATIC, plotly_chunk_path


def test_there_is_one_chart_chunk_and_it_holds_plotly_js_that_sets_window_plotly():
    path = plotly_chunk_path()
    assert path is not None and path.startswith("static/js/PlotlyChart.") and path.endswith(".js")
    source = (STREAMLIT_STATIC / path).read_text(encoding="utf-8")
    assert "plotly.js v4" in source
    assert source.count("window.Plotly=") == 1


@pytest.mark.slow
def test_the_server_serves_the_chunk_chart_js_and_the_chart_theme_to_the_browser():
    scripts = (plotly_chunk_path(), "app/static/chart.js")
    with streamlit_server(timeout=120) as url:
        served = {path: fetched(f"{url}/{path}") for path in (*scripts, "app/static/chart_theme.json")}
    assert all(served[path][0] in {"application/javascript", "text/javascript"} for path in scripts), served.keys()
    chart_js = served["app/static/chart.js"][1]
    assert b"export function drawChart" in chart_js and b"Plotly.react" in chart_js
    themes = json.loads(served["app/static/chart_theme.json"][1])
    assert [scheme["name"] for scheme in themes["schemes"]] == ["light", "dark"]


def fetched(url: str) -> tuple[str, bytes]:
    """(media type, body) of a GET that must succeed."""
    with urllib.request.urlopen(url, timeout=30) as response:
        assert response.status == 200
        return response.headers["Content-Type"].split(";")[0], response.read()
