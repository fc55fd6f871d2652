"""What a teacher sees on the first screen, measured in Chromium: Step by step's formula starts on it at 1400×1000
(the less-used controls folded) and its eight steps are one row at 1280; in the presenter's Controls popover the
source's "From the model" is whole; /attention on a 1280×720 projector shows its focused head and the head view
above the fold."""

from __future__ import annotations

import pytest

from attention_lab.chart import CHARTS
from devtools.harness import exceptions_on, new_page, open_page

pytestmark = pytest.mark.browser

FORMULA_TOP_JS = """() => { const f = document.querySelector('[data-testid="stMain"] .katex-display');
                            return f ? f.getBoundingClientRect().top : null; }"""
STEPS_ROW_JS = """() => { const g = document.querySelector('.st-key-step [role="radiogroup"]');
                          const tops = [...g.children].map((c) => Math.round(c.getBoundingClientRect().top));
                          return new Set(tops).size; }"""
SOURCE_JS = """() => {
  const body = document.querySelector('[data-testid="stPopoverBody"]');
  const group = body.querySelector('[data-testid="stButtonGroup"]');
  const column = group.closest('[data-testid="stColumn"]');
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.right]; };
  const buttons = [...group.querySelectorAll('button')].filter((b) => b.innerText.trim())  // not the ⓘ help
    .map((b) => [b.innerText, ...box(b)]);
  return {column: box(column), buttons};
}"""
CHART_BOTTOM_JS = """(role) => {
  const el = [...document.querySelectorAll('CHARTS .js-plotly-plot')]
    .find((e) => e.layout && e.layout.meta === role);
  return el ? el.getBoundingClientRect().bottom : null;
}""".replace("CHARTS", CHARTS)


# Each test opens its pages in turn in one browser context (a new context costs ~2.5 s of loading Streamlit and
# plotly into a new renderer): both languages, and on the projector both languages' controls and then /attention.


def test_the_steps_formula_starts_on_the_first_screen(browser, app_url):
    page = new_page(browser, viewport=(1400, 1000))
    try:
        for lang in ("en", "zh"):
            page.set_viewport_size({"width": 1400, "height": 1000})
            open_page(page, f"{app_url}/step-by-step?lang={lang}")
            top = page.evaluate(FORMULA_TOP_JS)
            assert top is not None and top < 1000 - 60, (lang, top)  # the formula's first line, not only its top edge
            page.set_viewport_size({"width": 1280, "height": 900})
            page.wait_for_timeout(500)
            assert page.evaluate(STEPS_ROW_JS) == 1, lang  # the eight steps in one row
            assert exceptions_on(page) == [], lang
    finally:
        page.context.close()


def test_on_a_projector_the_source_choice_is_whole_and_attention_shows_the_head_and_the_head_view(browser, app_url):
    page = new_page(browser, viewport=(1280, 720))
    try:
        for lang in ("en", "zh"):
            presenter_controls_show_the_source_choice_whole(page, f"{app_url}/step-by-step?lang={lang}&present=true")
        open_page(page, f"{app_url}/attention?lang=en&present=true")
        for role in ("attention-head", "head-view"):
            bottom = page.evaluate(CHART_BOTTOM_JS, role)
            assert bottom is not None and bottom <= 720, (role, bottom)
        assert page.locator(".gtitle", has_text="Layer 2 · Head 4").count() == 1  # cross-attention's sharpest head
        assert exceptions_on(page) == []
    finally:
        page.context.close()


def presenter_controls_show_the_source_choice_whole(page, url: str) -> None:
    """In the presenter's Controls popover both source buttons lie within their column."""
    open_page(page, url)
    page.locator('[data-testid="stPopover"] button').first.click()
    page.locator('[data-testid="stPopoverBody"] [data-testid="stButtonGroup"]').wait_for()
    found = page.evaluate(SOURCE_JS)
    left, right = found["column"]
    assert len(found["buttons"]) == 2, (url, found)
    for text, start, end in found["buttons"]:
        assert left - 1 <= start and end <= right + 1, (url, text, start, end, found["column"])
