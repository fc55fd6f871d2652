"""Every chart of the eight steps leaves room for its tick labels in the margins the server sent (viz/walkthrough.py),
so plotly's automargin, which Streamlit's chart theme turns on, finds nothing sticking out and does not draw the chart
a second time on each update. Read from plotly's own layout in Chromium (the margins it ended with against those it
was sent) and from the labels' boxes on screen, on a model's block in English and the worked example in Chinese."""

from __future__ import annotations

import pytest

from devtools.harness import exceptions_on, new_page, open_page, runs, wait_settled

pytestmark = pytest.mark.browser

# Per chart: its title, the margins sent and the margins plotly drew with, and its y tick labels' leftmost edge
# against the chart's own left edge.
MARGINS_JS = """
() => [...document.querySelectorAll('[data-testid="labChart"] .js-plotly-plot')].map((gd) => {
  const layout = gd._fullLayout, size = layout._size, margin = layout.margin;
  const labels = [...gd.querySelectorAll('.yaxislayer-above .ytick text')].map((t) => t.getBoundingClientRect().left);
  return {
    title: (gd.layout.title && gd.layout.title.text) || gd.layout.meta || '',
    sent: [margin.l, margin.r, margin.t, margin.b],
    drawn: [size.l, size.r, size.t, size.b].map(Math.round),
    labelsLeft: labels.length ? Math.min(...labels) : null,
    chartLeft: gd.getBoundingClientRect().left,
  };
})
"""
PAGES = {"model, en": "source=model&model=reverse&lang=en", "example, zh": "source=example&lang=zh"}


def test_every_step_chart_holds_its_labels_in_the_margins_it_was_sent(browser, app_url):
    """Both PAGES in turn, in one browser context (a new one costs ~2.5 s of loading Streamlit and plotly into a new
    renderer)."""
    page = new_page(browser, viewport=(1400, 1000))
    try:
        for which in sorted(PAGES):
            every_step_chart_holds_its_labels(page, f"{app_url}/step-by-step?{PAGES[which]}&step=1")
    finally:
        page.context.close()


def every_step_chart_holds_its_labels(page, url: str) -> None:
    """From step 1 at `url`, Page Down through the eight steps, checking each step's charts."""
    seen = 0
    open_page(page, url)
    for step in range(1, 9):
        if step > 1:  # Page Down, a clicker's Next: each step's charts update the ones drawn before
            before = runs(page)
            page.keyboard.press("PageDown")
            wait_settled(page, before)
            assert f"step={step}" in page.url
        charts = page.evaluate(MARGINS_JS)
        assert charts, (url, step)  # every step draws at least one chart
        for chart in charts:
            assert chart["drawn"] == chart["sent"], (url, step, chart)
            if chart["labelsLeft"] is not None:
                assert chart["labelsLeft"] >= chart["chartLeft"], (url, step, chart)  # nothing cut off on the left
        seen += len(charts)
    assert seen >= 16, url  # 3 + 1 + 2 + 1 + 2 + 2 + (heads + 1) + 2 charts, 2 heads or more
    assert exceptions_on(page) == [], url
