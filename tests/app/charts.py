"""The charts a page drew, as AppTest sees them, whichever way ui.charts drew them: in place (a
component, ui.in_place_chart) or with st.plotly_chart (a chart in Streamlit's theme)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Node

from ui.in_place_chart import COMPONENT as IN_PLACE
from ui.in_place_chart import chart_key

from .elements import elements


@dataclass(frozen=True)
class Chart:
    id: str  # the element's id, ending in the chart's key
    key: str | None  # the key show_chart drew it under (ui.in_place_chart.chart_key)
    spec: dict  # the plotly figure: {"data": […], "layout": {…}}
    config: dict  # plotly's config: modebar, download options, locale
    element: Node = field(compare=False)  # the element in AppTest's tree (to find the column it is in)


def charts_of(at: AppTest) -> list[Chart]:
    """Every chart on the page, top to bottom."""
    drawn = []
    for element in elements(at, "bidi_component") + elements(at, "plotly_chart"):
        proto = element.proto
        if element.type == "plotly_chart":
            drawn.append(
                Chart(proto.id, chart_key(proto.id), json.loads(proto.spec), json.loads(proto.config), element)
            )
        elif proto.component_name == IN_PLACE:
            payload = json.loads(proto.bytes)
            drawn.append(Chart(proto.id, chart_key(proto.id), payload["figure"], payload["config"], element))
    order = {id(node): i for i, node in enumerate(at._tree)}  # AppTest's own walk of the page, top to bottom
    return sorted(drawn, key=lambda chart: order[id(chart.element)])
