"""A chart is laid out again only when its width changes (static/chart.js): a chart drawn afresh grows from nothing
to its height, and answering that with plotly's resize drew every new chart of a Next a second time, 100 ms after
its first draw. A window made narrower still redraws every chart to the new width."""

from __future__ import annotations

import pytest

from devtools.harness import exceptions_on, new_page, open_page, runs, wait_settled

pytestmark = pytest.mark.browser

# Counts Plotly.Plots.resize calls in window.__resizes.
COUNT_RESIZES_JS = """
() => {
  window.__resizes = 0;
  const resize = window.Plotly.Plots.resize;
  window.Plotly.Plots.resize = function (...args) {
    window.__resizes += 1;
    return resize.apply(this, args);
  };
}
"""
# Per chart: the width plotly laid it out at, and the width of the box it is drawn in.
WIDTHS_JS = """
() => [...document.querySelectorAll('[data-testid="labChart"]')].map((box) => [
  box.querySelector('.js-plotly-plot')._fullLayout.width, Math.round(box.getBoundingClientRect().width),
])
"""


def test_a_new_chart_is_drawn_once_and_a_narrower_window_redraws_it(browser, app_url):
    page = new_page(browser, viewport=(1400, 1000))
    try:
        open_page(page, f"{app_url}/step-by-step?source=model&model=reverse&step=1")
        page.evaluate(COUNT_RESIZES_JS)
        for step in (2, 3):  # new charts: step 2's scores, step 3's scaled scores and the scaling demo
            before = runs(page)
            page.keyboard.press("PageDown")
            wait_settled(page, before)
            assert f"step={step}" in page.url
        page.wait_for_timeout(400)  # past plotly's 100 ms wait before a resize lays a chart out
        assert page.evaluate("window.__resizes") == 0

        wide = page.evaluate(WIDTHS_JS)
        assert len(wide) == 2 and all(abs(drawn - box) <= 1 for drawn, box in wide), wide
        page.set_viewport_size({"width": 1000, "height": 1000})
        page.wait_for_function(
            f"(wide) => ({WIDTHS_JS})().every(([drawn, box], i) => Math.abs(drawn - box) <= 1 && box < wide[i][1])",
            arg=wide,
            timeout=10_000,
        )
        assert page.evaluate("window.__resizes") >= 2  # each chart, once its box was narrower
        assert exceptions_on(page) == []
    finally:
        page.context.close()
