"""Draw a plotly figure the same way on every page: full width, PNG export at 2× for slides; in the presenter
view restyled for a projector (viz.projector: larger fonts, higher-contrast colour scales)."""

from __future__ import annotations

import streamlit as st

from viz.projector import projector_layout

from .presenter.state import presenting

CHART_CONFIG = {
    "displaylogo": False,
    "toImageButtonOptions": {"format": "png", "scale": 2},
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
}


def show_chart(
    fig,
    key: str | None = None,
    *,
    config: dict | None = None,
    theme: str | None = None,
    present_height: int | None = None,
    present_style: bool = True,
    where=None,
) -> None:
    """st.plotly_chart with a stable key and the lab's chart config (or `config`, `theme`), in `where` (a container)
    or here; in the presenter view the figure gets the projector's styling (unless present_style is False: a dense
    figure whose larger labels would collide) and at most present_height px of height (to fit above the fold)."""
    if presenting() and present_style:
        fig = projector_layout(fig, max_height=present_height)
    config = CHART_CONFIG if config is None else config
    (where or st).plotly_chart(fig, key=key, width="stretch", config=config, theme=theme)
