"""A figure in Streamlit's theme drawn in place (static/chart.js with static/chart_theme.json) is the figure Streamlit's
own chart draws: the same layout and traces handed to plotly.js, and the same pixels, in a light and a dark browser.
Streamlit's st.plotly_chart(theme="streamlit") is the reference, drawn beside it in the same page."""

from __future__ import annotations

import json
import os
import re
import tempfile
import textwrap
from pathlib import Path
from typing import cast

import pytest
from PIL import Image, ImageChops

from attention_lab.paths import APP_ROOT
from devtools.harness import new_page, streamlit_process

from .figures import SCROLL_TO_WAITING_JS

pytestmark = pytest.mark.browser

ANTI_ALIASING = 32  # of 255: the largest difference in a channel allowed between the two charts' pixels
FIGURES = ("heatmap", "bars", "two_panels")  # the walkthrough's kinds of figure
# Each figure twice: in place (the lab's chart) and by Streamlit's chart, one under the other at the same width.
PROBE_APP = textwrap.dedent(
    """
    import numpy as np
    import streamlit as st

    from model.teach.walkthrough import scaling_demo, softmax_steps
    from ui.charts import CHART_CONFIG
    from ui.in_place_chart import STREAMLIT_THEME, draw_in_place, streamlit_theme_json
    from viz import walkthrough as fig
    from viz.figure_json import fig_dict

    scores = np.array([[1.0, -0.5, 2.0], [0.3, 0.1, -1.2], [2.5, 0.0, 0.4]])
    masked = np.array([False, False, True])
    steps = softmax_steps(np.where(masked, -np.inf, scores[0]))
    figures = {
        "heatmap": fig.matrix_heatmap(scores, ["the", "cat", "sat"], ["1", "2", "3"], "Scores", highlight_row=1),
        "bars": fig.softmax_bars(steps.weights, masked, ["the", "cat", "sat"], "Row 1", "weight", "masked"),
        "two_panels": fig.scaling_demo_figure(
            scaling_demo(n_samples=50), ("std", "largest"), "d_k", ("a", "b", "c"), 16
        ),
    }
    for name, figure in figures.items():
        assert draw_in_place(streamlit_theme_json(fig_dict(figure)), CHART_CONFIG, f"lab_{name}", theme=STREAMLIT_THEME)
        st.plotly_chart(figure, theme="streamlit", key=f"st_{name}", config=CHART_CONFIG)
    """
)
# Per chart kind, what plotly.js was handed: the lab's charts in page order, then Streamlit's.
HANDED_JS = """() => {
  const handed = (el) => ({layout: el.layout, data: el.data});
  const plots = (selector) => Array.from(document.querySelectorAll(selector + ' .js-plotly-plot'));
  return {
    lab: plots('[data-testid="labChart"]').map(handed),
    streamlit: plots('[data-testid="stPlotlyChart"]').map(handed),
  };
}"""
# n charts of each kind drawn: a plot counts once it holds its svg (plotly draws two svg.main-svg per plot, so counting
# the svgs let a wait end with only half the charts drawn).
DRAWN_JS = """(n) => ['[data-testid="labChart"]', '[data-testid="stPlotlyChart"]'].every((chart) =>
  Array.from(document.querySelectorAll(chart + ' .js-plotly-plot')).filter((plot) =>
    plot.querySelector('svg.main-svg')).length >= n)"""


@pytest.fixture(scope="module")
def probe_url():
    """A server of the probe app, with the lab's static/ (chart.js, chart_theme.json) beside it."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "app.py").write_text(PROBE_APP)
        os.symlink(APP_ROOT / "static", Path(folder) / "static")
        with streamlit_process(options=("--server.enableStaticServing", "true"), root=Path(folder)) as (url, _):
            yield url


def comparable(handed: dict) -> dict:
    """What Streamlit's chart sets that a chart drawn at its container's width does not (its width and height) left
    out, as is plotly's autosize, which a chart without them gets; the title's bold, which Streamlit's chart applies
    twice (<b><b>…</b></b>, drawn alike), once."""
    layout = {key: value for key, value in handed["layout"].items() if key not in ("width", "height", "autosize")}
    if "title" in layout:
        text = re.sub(r"^(<b>)+(.*?)(</b>)+$", r"<b>\2</b>", layout["title"]["text"])
        layout["title"] = {**layout["title"], "text": text}
    return _rounded({"layout": layout, "data": handed["data"]})


def _rounded(value):
    """Numbers to 6 decimals: the axis ranges plotly computes and writes back differ in the 8th between a chart given
    a width and one that measures its own."""
    if isinstance(value, float):
        return round(value, 6)
    if isinstance(value, dict):
        return {key: _rounded(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_rounded(item) for item in value]
    return value


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_figure_drawn_in_place_in_streamlits_theme_is_the_one_streamlits_chart_draws(browser, probe_url, scheme):
    page = new_page(browser, color_scheme=scheme)
    try:
        page.goto(probe_url)
        page.wait_for_function(DRAWN_JS, arg=len(FIGURES), timeout=60_000)
        page.mouse.move(1, 1)  # no modebar shown on either chart
        page.wait_for_timeout(500)
        handed = page.evaluate(HANDED_JS)
        assert len(handed["lab"]) == len(handed["streamlit"]) == len(FIGURES)
        for name, lab, streamlit in zip(FIGURES, handed["lab"], handed["streamlit"], strict=True):
            assert comparable(lab) == comparable(streamlit), name
            assert "#0000" not in str(lab), f"{name}: a placeholder colour left"
        background = handed["lab"][0]["layout"]["template"]["layout"]["paper_bgcolor"].lower()
        assert background == ("#ffffff" if scheme == "light" else "#171614")  # the scheme the reader's browser asked
        labs = page.locator('[data-testid="labChart"]')
        streamlits = page.locator('[data-testid="stPlotlyChart"]')
        for i, name in enumerate(FIGURES):
            ours = _shot(labs.nth(i), page)
            theirs = _shot(streamlits.nth(i), page)
            assert ours.size == theirs.size, name
            # the same pixels, but for anti-aliasing where a line's ends fall a fraction of a pixel apart (the axis
            # range differs in its 8th decimal); a wrong colour or font differs by far more than this anywhere
            extrema = ImageChops.difference(ours, theirs).getextrema()  # RGB: (low, high) per band
            worst = max(high for _low, high in cast(tuple[tuple[int, int], ...], extrema))
            assert worst <= ANTI_ALIASING, f"{name}: pixels differ by up to {worst} of 255 ({scheme})"
    finally:
        page.context.close()


def _shot(locator, page) -> Image.Image:
    locator.scroll_into_view_if_needed()
    page.mouse.move(1, 1)
    page.wait_for_timeout(300)
    path = Path(tempfile.mkstemp(suffix=".png")[1])
    try:
        locator.screenshot(path=path, animations="disabled")
        return Image.open(path).convert("RGB")
    finally:
        path.unlink()


def test_when_the_reader_switches_to_a_dark_scheme_the_charts_are_drawn_as_a_page_opened_dark_draws_them(
    browser, probe_url
):
    """Streamlit hands every component its data again when its theme changes, and chart.js themes the figure anew
    for the scheme now in force. (Streamlit's own chart, switched live, keeps the trace colours it was first given,
    its colour placeholders gone by then, under a dark layout: the reference here is a page opened dark.) A chart
    out of sight is themed anew as it comes into view (static/chart.js), so the wait scrolls to each such chart."""
    opened_dark = new_page(browser, color_scheme="dark")
    page = new_page(browser, color_scheme="light")
    try:
        opened_dark.goto(probe_url)
        opened_dark.wait_for_function(DRAWN_JS, arg=len(FIGURES), timeout=60_000)
        reference = [comparable(lab) for lab in opened_dark.evaluate(HANDED_JS)["lab"]]
        page.goto(probe_url)
        page.wait_for_function(DRAWN_JS, arg=len(FIGURES), timeout=60_000)
        assert _backgrounds(page) == {"lab": ["#ffffff"] * len(FIGURES), "streamlit": ["#ffffff"] * len(FIGURES)}
        page.emulate_media(color_scheme="dark")  # the operating system went dark: Streamlit's theme follows
        dark = {"lab": ["#171614"] * len(FIGURES), "streamlit": ["#171614"] * len(FIGURES)}
        wanted = json.dumps(dark, separators=(",", ":"))  # as JSON.stringify writes it
        page.wait_for_function(BACKGROUNDS_ARE_JS, arg=wanted)
        assert [comparable(lab) for lab in page.evaluate(HANDED_JS)["lab"]] == reference
    finally:
        page.context.close()
        opened_dark.context.close()


# The paper colour of every chart's figure as plotly.js has it, the lab's and Streamlit's.
BACKGROUNDS_JS = """() => {
  const paper = (el) => ((el.layout.template || {}).layout || {}).paper_bgcolor.toLowerCase();
  const plots = (selector) => Array.from(document.querySelectorAll(selector + ' .js-plotly-plot'));
  return {
    lab: plots('[data-testid="labChart"]').map(paper),
    streamlit: plots('[data-testid="stPlotlyChart"]').map(paper),
  };
}"""


# Whether the backgrounds are the wanted ones (as JSON); a chart out of sight with a newer figure waiting is brought
# into view first (and the answer is no, this time).
BACKGROUNDS_ARE_JS = """(wanted) => {
  SCROLL_TO_WAITING
  return JSON.stringify((BACKGROUNDS)()) === wanted;
}""".replace("SCROLL_TO_WAITING", SCROLL_TO_WAITING_JS).replace("BACKGROUNDS", BACKGROUNDS_JS)


def _backgrounds(page) -> dict:
    return page.evaluate(BACKGROUNDS_JS)
