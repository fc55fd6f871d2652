"""A plotly chart redrawn in place: a Streamlit component (static/chart.js) that keeps its plot and calls Plotly.react
with each run's figure.

st.plotly_chart (Streamlit 1.67) hashes the figure into its element's id, so a changed figure arrives as a new
element and the browser purges the old chart and draws a new one from scratch (docs/capacity.md, "One person's
edit"). This component's id is its key alone, so an edit updates the chart the reader is looking at. The figure
goes as the JSON bytes the shared figure was serialized to once (viz.memo.derived), for every follower alike.
"""

from __future__ import annotations

import functools
import json
import logging
import re

import plotly.graph_objects as go
import plotly.io
import streamlit as st

from viz.figure_json import figure_json

from .phone import NARROW
from .plotly_bundle import STREAMLIT_STATIC, plotly_chunk_path
from .streamlit_private import registered_user_keys, user_key_of_element

_LOG = logging.getLogger(__name__)
COMPONENT = "attention_lab_chart"
# The component's own script, sent with every chart, only imports the page's copy of static/chart.js (served with an
# ETag by Streamlit's static file serving, so a browser fetches it once) and hands it plotly.js's URL. Every page's URL
# is one segment under the server's base path, so a path resolved against the page's URL is right under any base path.
LOADER_JS = """\
export default async function (chart) {
  const sent = (window.__labChartsSent = (window.__labChartsSent || 0) + 1);
  const lab = await import(new URL("app/static/chart.js", document.baseURI));
  return lab.drawChart(chart, new URL("PLOTLY_CHUNK", document.baseURI).href, sent, PHONE_WIDTH);
}
"""  # (several lines: Streamlit reads a one-line string as a file's path)

# Importing Streamlit makes its plotly template the default ("streamlit"), whose colours are placeholders
# ("#000001"…) that Streamlit's chart replaces in the browser: with plotly's own colours for a chart not in
# Streamlit's theme (PlotlyChart chunk, Streamlit 1.67). The in-place chart gets them replaced the same way, here.
PLACEHOLDER_COLOURS = {
    # categorical (colorway)
    "#000001": "#636efa", "#000002": "#EF553B", "#000003": "#00cc96", "#000004": "#ab63fa", "#000005": "#FFA15A",
    "#000006": "#19d3f3", "#000007": "#FF6692", "#000008": "#B6E880", "#000009": "#FF97FF", "#000010": "#FECB52",
    # sequential colour scale
    "#000011": "#0d0887", "#000012": "#46039f", "#000013": "#7201a8", "#000014": "#9c179e", "#000015": "#bd3786",
    "#000016": "#d8576b", "#000017": "#ed7953", "#000018": "#fb9f3a", "#000019": "#fdca26", "#000020": "#f0f921",
    # diverging colour scale
    "#000021": "#8e0152", "#000022": "#c51b7d", "#000023": "#de77ae", "#000024": "#f1b6da", "#000025": "#fde0ef",
    "#000026": "#e6f5d0", "#000027": "#b8e186", "#000028": "#7fbc41", "#000029": "#4d9221", "#000030": "#276419",
    # increasing, decreasing, …, grid and line colours
    "#000032": "#3D9970", "#000033": "#FF4136", "#000034": "#4499FF", "#000035": "#B2B5BE", "#000036": "#2a3f5f",
    "#000037": "#2a3f5f", "#000038": "#EBF0F8", "#000039": "white", "#000040": "#C8D4E3",
}  # fmt: skip
_PLACEHOLDER = re.compile("|".join(PLACEHOLDER_COLOURS))


def plotly_colours(figure_json: str) -> str:
    """A figure's JSON with Streamlit's template placeholders replaced by plotly's colours."""
    return _PLACEHOLDER.sub(lambda found: PLACEHOLDER_COLOURS[found.group()], figure_json)


@functools.cache
def _component():
    """The component, made on its first use in a script run, or None if this Streamlit has no chart chunk to take
    plotly.js from (ui.plotly_bundle)."""
    chunk = plotly_chunk_path()
    if chunk is None:
        _LOG.warning("Charts are drawn by st.plotly_chart, not in place: no plotly.js chunk in %s", STREAMLIT_STATIC)
        return None
    loader = LOADER_JS.replace("PLOTLY_CHUNK", chunk).replace("PHONE_WIDTH", str(NARROW))
    return st.components.v2.component(COMPONENT, js=loader, isolate_styles=False)  # plotly styles the page


STREAMLIT_THEME = "streamlit"  # a figure chart.js themes as Streamlit's chart does (static/chart_theme.json)


@functools.cache
def _default_template() -> dict | None:
    """The template every figure gets by default once Streamlit is imported ("streamlit", placeholder colours), as
    JSON: the one static/chart_theme.json holds themed; None if another default was set."""
    if plotly.io.templates.default != "streamlit":
        return None
    return json.loads(plotly.io.to_json(go.Figure(), validate=False))["layout"]["template"]


def streamlit_theme_json(spec: dict) -> bytes | None:
    """The JSON of a figure's dict (viz.fit.fitted_dict, viz.figure_json.fig_dict) for chart.js to draw in Streamlit's
    theme: without its template, which is Streamlit's default one (chart.js puts in the themed copy for the reader's
    colour scheme); None for a figure with another template, which only Streamlit's own chart can theme."""
    layout = {**spec.get("layout", {})}
    template = layout.pop("template", None)
    default = _default_template()
    if default is None or template is None or json.loads(figure_json({"template": template}))["template"] != default:
        return None
    return figure_json({**spec, "layout": layout}).encode()


CHART_KEY_PREFIX = "lab_chart:"  # a chart's key in the component's own: its widget state is not the page's


def is_chart_key(user_key: str) -> bool:
    """Whether a session-state key is an in-place chart's (whose widget state is not the page's: ui.classroom.fanout
    leaves it out when comparing two students' states)."""
    return user_key.startswith(CHART_KEY_PREFIX)


def chart_key(element_id: str) -> str | None:
    """The key a chart was drawn under (show_chart's), from its element's id; None for a chart drawn without one."""
    user_key = user_key_of_element(element_id)
    return user_key.removeprefix(CHART_KEY_PREFIX) if user_key else None


def unused_key(prefix: str) -> str:
    """prefix + the first number no element of this run has taken as its key: charts drawn in a varying number and
    order (a walkthrough step's) keep their keys from run to run, first chart to first chart, so each is redrawn in
    place."""
    taken = registered_user_keys()
    number = 0
    while f"{CHART_KEY_PREFIX}{prefix}{number}" in taken:
        number += 1
    return f"{prefix}{number}"


def draw_in_place(figure_json: bytes, config: dict, key: str | None, where=None, theme: str | None = None) -> bool:
    """Draw the figure (plotly JSON bytes) with plotly's `config`, in `where` (a container) or here, and say so;
    False if the component cannot be served here (the caller draws it otherwise). With a key, the next run's figure
    for the same key redraws the same chart; without one, a changed figure is a new chart. `theme` STREAMLIT_THEME:
    the figure is streamlit_theme_json's, drawn in Streamlit's theme."""
    mount = _component()
    if mount is None:
        return False
    themed = b'"theme":"' + theme.encode() + b'",' if theme == STREAMLIT_THEME else b""
    payload = b'{"config":' + json.dumps(config).encode() + b"," + themed + b'"figure":' + figure_json + b"}"
    own_key = None if key is None else CHART_KEY_PREFIX + key
    if where is None:
        mount(key=own_key, data=payload)
    else:
        with where:
            mount(key=own_key, data=payload)
    return True
