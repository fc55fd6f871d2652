"""Figures that read on a projector, measured from the SVG text boxes in Chromium: on the lesson's √dₖ slide (4) and
positional-encoding slide (8), at 1280×720 in the presenter view and at 1400×1000 in the normal view, in both
languages, no title, axis title, note or legend item is cut off at its chart's edge or lies on another (or on a tick
label), no heatmap cell's numbers run into the next, and on the projector every tick, axis title and legend item is
at least the projector's smallest font."""

from __future__ import annotations

import pytest

from devtools.harness import exceptions_on, new_page, open_page
from viz.projector import MIN_FONT

from .figures import TEXT_BOXES_JS, figure_problems

pytestmark = pytest.mark.browser

SCREENS = {"presenter": ((1280, 720), "true"), "normal": ((1400, 1000), "false")}
SLIDES = {4: {"scaling-demo"}, 8: {"pe-table", "model-pe"}}  # the charts each slide must show (layout.meta)


# One page per screen, which opens each slide in each language in turn: a new browser context costs ~2.5 s of
# loading Streamlit's and plotly's scripts into a new renderer, more than a slide's own load.
@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_no_word_of_a_slide_figure_is_cut_or_overlaps(browser, app_url, screen):
    viewport, present = SCREENS[screen]
    page = new_page(browser, viewport=viewport)
    try:
        for lang in ("en", "zh"):
            for slide in sorted(SLIDES):
                check_slide(page, f"{app_url}/lesson?lang={lang}&present={present}&slide={slide}", slide, present)
    finally:
        page.context.close()


def check_slide(page, url: str, slide: int, present: str) -> None:
    """Open one slide and measure its figures' words."""
    open_page(page, url)
    charts = page.evaluate(TEXT_BOXES_JS)
    assert SLIDES[slide] <= {c["role"] for c in charts}, (url, [c["role"] for c in charts])
    for chart in charts:
        assert chart["axisTitles"] or chart["titles"], (url, chart["role"])  # something was measured
        assert figure_problems(chart) == [], (url, chart["role"])
        if present == "true":
            sizes = [w["size"] for w in chart["ticks"] + chart["axisTitles"] + chart["legend"]]
            assert min(sizes) >= MIN_FONT, (url, chart["role"], sorted(set(sizes)))
    assert exceptions_on(page) == [], url
