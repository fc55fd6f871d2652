"""The walkthrough's figures, in Streamlit's theme, are drawn in place (ui/in_place_chart.py): each is sent without
its template, for static/chart.js to theme as Streamlit's chart does, under a key that the next step's chart in the
same place takes again, so Next redraws the charts the reader has instead of mounting new ones."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from attention_lab.paths import APP_ROOT
from ui.in_place_chart import STREAMLIT_THEME, chart_key, streamlit_theme_json, unused_key
from viz import walkthrough as walk_figures
from viz.figure_json import fig_dict

from .test_step_by_step import MODEL, click, open_page

THEME_FILE = APP_ROOT / "static" / "chart_theme.json"


def in_place_payloads(at) -> list[tuple[str, dict]]:
    """(element id, payload) of every in-place chart on the page, top to bottom as sent."""
    return [(e.proto.id, json.loads(e.proto.bytes)) for e in at.get("bidi_component")]


def test_every_step_sends_its_figures_in_streamlits_theme_without_the_template_under_stable_keys():
    at = open_page(source=MODEL)
    first_ids = None
    for step in range(1, 9):
        drawn = in_place_payloads(at)
        assert drawn, f"step {step} drew no chart in place"
        assert not at.get("plotly_chart"), f"step {step} still mounts a chart with st.plotly_chart"
        for _id, payload in drawn:
            assert payload["theme"] == STREAMLIT_THEME
            assert "template" not in payload["figure"]["layout"]
            assert payload["figure"]["data"], "a figure with its traces"
        ids = [element_id for element_id, _ in drawn]
        assert [chart_key(element_id) for element_id in ids] == [f"walk_chart_{n}" for n in range(len(ids))], ids
        if first_ids is not None:
            assert ids[0] == first_ids[0]  # the first chart of every step is the same chart, redrawn
        first_ids = ids
        if step < 8:
            click(at, "wt_next")


def test_a_figure_in_streamlits_template_is_sent_without_it_and_any_other_is_not_themed_here():
    figure = walk_figures.matrix_heatmap(np.eye(2), ["a", "b"], ["1", "2"], "title")
    themed = streamlit_theme_json(fig_dict(figure))
    assert themed is not None  # the figure is in Streamlit's template
    sent = json.loads(themed)
    full = json.loads(pio.to_json(figure, validate=False))
    assert full["layout"].pop("template")["layout"]["colorway"][0] == "#000001"  # Streamlit's placeholder
    assert sent == full  # everything else as plotly serializes it
    assert streamlit_theme_json(fig_dict(go.Figure(layout={"template": "plotly_white"}))) is None


def test_outside_a_run_the_first_key_is_number_zero():
    assert unused_key("walk_chart_") == "walk_chart_0"


def test_the_theme_file_colours_every_placeholder_in_each_scheme_as_streamlits_light_and_dark_themes_do():
    themes = json.loads(THEME_FILE.read_text())
    by_name = {scheme["name"]: scheme for scheme in themes["schemes"]}
    assert set(by_name) == {"light", "dark"}
    placeholders = {f"#0000{n:02d}" for n in range(1, 41) if n != 31}
    for scheme in by_name.values():
        assert set(scheme["colours"]) == placeholders
        assert not any(colour.startswith("#0000") for colour in scheme["colours"].values())
        assert "#0000" not in json.dumps(scheme["template"])  # the themed template holds no placeholder
    # The backgrounds Streamlit's light and dark themes give a component, and the first categorical colour of each
    # (Streamlit's documented palettes: blue #0068c9 first in light, light blue #83c9ff first in dark).
    assert by_name["light"]["background"].lower() == "#ffffff"
    assert by_name["dark"]["background"].lower() != "#ffffff"
    assert by_name["light"]["colours"]["#000001"] == "#0068c9"
    assert by_name["dark"]["colours"]["#000001"] == "#83c9ff"
