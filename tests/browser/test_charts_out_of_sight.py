"""Charts out of sight (static/chart.js): an edit draws the charts on screen at once; a chart below the fold keeps
its figure, dimmed, until the reader scrolls near it, and then draws only the newest figure sent meanwhile.
Printing draws every waiting chart first."""

from __future__ import annotations

import pytest

from attention_lab.chart import CHARTS, WAITING_CHARTS
from devtools.harness import exceptions_on, open_page

from .figures import real_console_errors, type_input

pytestmark = pytest.mark.browser

EXAMPLE = ["3", "1", "4", "1", "5", "9", "2", "6", "<eos>"]  # the reverse task's example input
# Counts each Plotly.react call by the role (layout.meta) of the figure it draws, in window.__draws.
COUNT_DRAWS_JS = """
() => {
  window.__draws = {};
  const react = window.Plotly.react;
  window.Plotly.react = function (el, figure, ...rest) {
    const role = (figure.layout || {}).meta;
    window.__draws[role] = (window.__draws[role] || 0) + 1;
    return react.call(this, el, figure, ...rest);
  };
}
"""
# Per chart role: where its box is (top, relative to the screen's height), whether it waits, its opacity, and the
# head view's token labels.
CHARTS_NOW_JS = """
() => Object.fromEntries(Array.from(document.querySelectorAll('CHARTS')).map((box) => {
  const el = box.querySelector('.js-plotly-plot');
  const last = el.data[el.data.length - 1] || {};
  return [el.layout.meta, {
    below: box.getBoundingClientRect().top - window.innerHeight,
    waiting: box.dataset.waiting === 'true',
    opacity: getComputedStyle(box).opacity,
    tokens: el.layout.meta === 'head-view' ? Array.from(last.text) : null,
  }];
}))
""".replace("CHARTS", CHARTS)
DRAWN_JS = f"(role) => !document.querySelector('{WAITING_CHARTS}') && window.__draws[role] > 0"


def test_an_edit_draws_the_charts_on_screen_and_the_others_as_the_reader_comes_to_them(page, app_url, probes):
    open_page(page, f"{app_url}/attention?model=reverse")
    before = page.evaluate(CHARTS_NOW_JS)
    assert before["attention-overview"]["below"] < 0  # on the first screen (1400 × 1000)
    assert before["head-view"]["below"] > 200 and before["attention-head"]["below"] > 200  # out of sight
    assert before["head-view"]["tokens"] == EXAMPLE  # a page's first draw draws every chart
    page.evaluate(COUNT_DRAWS_JS)

    type_input(page, "7 0 2 8 5")
    type_input(page, "1 2 3")
    now = page.evaluate(CHARTS_NOW_JS)
    assert page.evaluate("window.__draws") == {"attention-overview": 2}  # the chart on screen, at each edit
    assert now["attention-overview"]["waiting"] is False
    assert now["head-view"]["waiting"] is True and now["head-view"]["opacity"] == "0.35"
    assert now["head-view"]["tokens"] == EXAMPLE  # still the figure it was drawn with

    page.locator('[data-testid="labChart"]').nth(2).scroll_into_view_if_needed()
    page.wait_for_function(DRAWN_JS, arg="head-view")
    now = page.evaluate(CHARTS_NOW_JS)
    assert now["head-view"] == {
        **now["head-view"],
        "waiting": False,
        "opacity": "1",
        "tokens": ["1", "2", "3", "<eos>"],
    }
    assert now["attention-head"]["waiting"] is False  # beside it, drawn with it
    draws = page.evaluate("window.__draws")
    assert draws == {"attention-overview": 2, "head-view": 1, "attention-head": 1}  # the newest figure only
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


def test_printing_draws_every_chart_waiting_out_of_sight(page, app_url):
    open_page(page, f"{app_url}/attention?model=reverse")
    page.evaluate(COUNT_DRAWS_JS)
    type_input(page, "8 8 1")
    assert page.evaluate(CHARTS_NOW_JS)["head-view"]["waiting"] is True
    page.evaluate("window.dispatchEvent(new Event('beforeprint'))")  # what the browser fires before it prints
    page.wait_for_function(DRAWN_JS, arg="head-view")
    now = page.evaluate(CHARTS_NOW_JS)
    assert now["head-view"]["tokens"] == ["8", "8", "1", "<eos>"]
    assert now["head-view"]["below"] > 200  # drawn where it stands, the page not scrolled
    assert page.evaluate("window.__draws") == {"attention-overview": 1, "head-view": 1, "attention-head": 1}
