"""Draw a plotly figure the same way on every page: full width, and plotly's own camera button in the modebar
downloading it for a slide, at 1920×1080, under a file name that says what it shows.

plotly.js has one image button per chart, whose format the chart config sets (toImageButtonOptions); a button per
format would need JavaScript callbacks, which st.plotly_chart's JSON config cannot carry. So one choice in the
sidebar ("Chart downloads: PNG | SVG") sets the format of every chart's button. The figure is laid out at 960×540
and exported at scale 2: a 1920×1080 PNG, or an SVG of width 1920 and height 1080 (viewBox 960×540), with text at a
size that reads on a slide. In the presenter view every chart is restyled for a projector (viz.projector: larger
fonts, dark labels, higher-contrast colour scales).

Plotly never wraps a title, so every chart's words are fitted to the width it gets on the narrowest screen the lab
is made for (viz.fit): a 1280 px projector in the presenter view, a 1280 px screen with the sidebar open otherwise.
A chart in a column says what share of the page's width it has (`share`, or ui.widths.chart_share around a part of
the page, which nests: a lesson slide's live view, a column inside it).
"""

from __future__ import annotations

import streamlit as st

from model.io.export import file_stem
from viz.figure_json import figure_json
from viz.fit import fit_to_width, fitted_dict
from viz.memo import derived, dict_figure
from viz.projector import projector_layout

from .i18n import N_, _, current_language
from .in_place_chart import STREAMLIT_THEME, draw_in_place, plotly_colours, streamlit_theme_json
from .models import selected_model_name
from .presenter.state import presenting
from .widths import PAGE_WIDTH, page_share

FORMAT_KEY = "chart_format"
FORMATS = ("png", "svg")
SLIDE = {"width": 960, "height": 540, "scale": 2}  # → 1920 × 1080 px
CHART_CONFIG = {
    "displaylogo": False,
    "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
}
PLOTLY_LOCALES = {"zh": "zh-CN"}  # session language → plotly.js locale of the modebar's words
PLOTLY_WORDS = (  # what plotly.js itself writes on our charts (modebar tooltips, download notices), by its English
    N_("Download plot as a PNG"), N_("Download plot"), N_("Zoom"), N_("Pan"), N_("Zoom in"), N_("Zoom out"),
    N_("Reset axes"), N_("Preparing image - this may take a few seconds"), N_("Image download succeeded"),
    N_("Sorry, there was a problem downloading your image!"), N_("Double-click to zoom back out"),
)  # fmt: skip


def chart_format() -> str:
    """The format the camera buttons download in: "png" (default) or "svg"."""
    chosen = st.session_state.get(FORMAT_KEY)
    return chosen if chosen in FORMATS else FORMATS[0]


def chart_format_picker() -> None:
    """The sidebar's "Chart downloads: PNG | SVG" choice, for every chart of every page (labels are the same in
    every language)."""
    st.sidebar.segmented_control(
        _("Chart downloads"), FORMATS, format_func=str.upper, default=FORMATS[0], required=True, key=FORMAT_KEY,
        help=_("The camera button at the top right of every chart downloads it at {width}×{height} in this format.")
        .format(width=SLIDE["width"] * SLIDE["scale"], height=SLIDE["height"] * SLIDE["scale"]),
    )  # fmt: skip


def chart_name(page: str, *shows: object, layer: int | None = None, head: int | None = None, model=None) -> str:
    """A download's file name (no extension) from what the chart shows: page, model (the sidebar's unless given),
    what, then layer and head 1-based as on screen: chart_name("attention", "cross", layer=1, head=2) →
    "attention_translate_cross_L2_H3"."""
    where = [f"L{layer + 1}"] if layer is not None else []
    where += [f"H{head + 1}"] if head is not None else []
    return file_stem(page, selected_model_name() if model is None else model, *shows, *where)


def chart_config(name: str) -> dict:
    """The lab's plotly config with the camera button set to this session's format, slide size and file name, and
    plotly's own words (modebar, download notices) in the session's language."""
    config = {**CHART_CONFIG, "toImageButtonOptions": {"format": chart_format(), "filename": name, **SLIDE}}
    locale = PLOTLY_LOCALES.get(current_language())
    if locale is not None:
        config["locale"] = locale
        config["locales"] = {locale: {"dictionary": {word: _(word) for word in PLOTLY_WORDS}}}
    return config


def chart_width(share: float = 1.0) -> float:
    """The px a chart with `share` of the current part of the page is drawn at, on the narrowest screen."""
    return PAGE_WIDTH[presenting()] * page_share() * share


def fitted_json(fig, width: float) -> str:
    """The JSON of `fig` fitted to `width` px (viz.fit)."""
    return figure_json(fitted_dict(fig, width))


def show_chart(
    fig,
    key: str | None = None,
    *,
    name: str | None = None,
    theme: str | None = None,
    present_height: int | None = None,
    present_style: bool = True,
    where=None,
    share: float = 1.0,
) -> None:
    """st.plotly_chart with a stable key and the lab's chart config, in `where` (a container) or here; `name`
    (chart_name) names its download. Every chart of the lab passes one; without it, the download is named after the
    model and the chart's key. In the presenter view the figure gets the projector's styling (unless present_style
    is False: a dense figure whose larger labels would collide) and at most present_height px of height. Its words
    are fitted to the width it is drawn at (`share` of the current part of the page: chart_width)."""
    name = name if name is not None else chart_name(key or "chart")
    if presenting() and present_style:  # a figure every follower shares is restyled and fitted once (viz.memo)
        fig = derived(fig, ("projector", present_height), lambda f: projector_layout(f, max_height=present_height))
    width = chart_width(share)
    # its JSON fitted to the width, written from plotly's own dicts of it (viz.figure_json), once for every follower
    if theme is None:  # drawn in place
        figure_json = derived(fig, ("json", width), lambda f: plotly_colours(fitted_json(f, width)).encode())
        if draw_in_place(figure_json, chart_config(name), key, where):
            return
    elif theme == STREAMLIT_THEME:  # the same, themed in the browser as Streamlit's chart does
        themed_json = derived(fig, ("streamlit-json", width), lambda f: streamlit_theme_json(fitted_dict(f, width)))
        if themed_json is not None and draw_in_place(themed_json, chart_config(name), key, where, theme):
            return
    fitted = derived(fig, ("fit", width), lambda f: fit_to_width(f, width))  # Streamlit's own chart: no component
    drawn = dict_figure(derived(fitted, "dict", lambda f: f.to_dict()))  # its dict made once for every follower
    (where or st).plotly_chart(drawn, key=key, width="stretch", config=chart_config(name), theme=theme)
