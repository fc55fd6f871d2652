"""Draw a plotly figure the same way on every page: full width, PNG export at 2× for slides."""

from __future__ import annotations

import streamlit as st

CHART_CONFIG = {
    "displaylogo": False,
    "toImageButtonOptions": {"format": "png", "scale": 2},
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
}


def show_chart(fig, key: str) -> None:
    """st.plotly_chart with a stable key and the lab's chart config."""
    st.plotly_chart(fig, key=key, width="stretch", config=CHART_CONFIG, theme=None)
