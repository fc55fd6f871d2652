"""A chart drawn in place (ui/in_place_chart.py) has plotly's colours, as st.plotly_chart showed it: importing
Streamlit makes its template the default, whose colours are placeholders ("#000001"…) that Streamlit's own chart
replaces in the browser; the in-place chart gets them replaced on the server. Checked against plotly's own "plotly"
template on the Positional-encoding page, whose curves take their colours from the template's colorway."""

from __future__ import annotations

import json
import re

import plotly.io as pio

from .charts import charts_of
from .test_attention_page import open_page

PLACEHOLDER = re.compile(r"#0000[0-4][0-9]\b")


def test_in_place_charts_carry_plotlys_own_colours_not_streamlits_placeholders():
    at = open_page("pages/positional-encoding.py", lang="en")
    drawn = at.get("bidi_component")
    assert len(drawn) >= 3
    plotly_template = pio.templates["plotly"].layout
    for element in drawn:
        text = element.proto.bytes.decode()
        assert not PLACEHOLDER.search(text), PLACEHOLDER.findall(text)[:5]
        template = json.loads(text)["figure"]["layout"]["template"]["layout"]
        assert template["colorway"] == list(plotly_template.colorway)
        assert template["colorscale"]["sequential"] == [list(stop) for stop in plotly_template.colorscale.sequential]
    curves = [chart.spec for chart in charts_of(at) if any(t.get("type") == "scatter" for t in chart.spec["data"])]
    assert curves, "the page draws its sinusoid curves"
