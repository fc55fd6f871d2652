"""Formulas and charts on a phone (390×844), and formulas on a laptop (1280×900): a formula wider than the screen is
shrunk on a phone, and what is still too wide scrolls with a visible cue (it fades out at the edge that has more); a
tap on a chart leaves its title readable (no modebar over it). Measured from the page's boxes, in Chinese (the phone
of the class in issue 16) and English."""

from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from attention_lab.chart import CHARTS
from devtools.harness import new_page, open_page

pytestmark = pytest.mark.browser
PHONE = (390, 844)

# Each formula: its edges, whether it fits, whether it scrolls, whether it has the cue, and how it starts.
FORMULAS_JS = """
() => [...document.querySelectorAll('[data-testid="stMain"] .katex-display')].map((el) => {
  const r = el.getBoundingClientRect(), style = getComputedStyle(el);
  return {
    text: el.innerText.slice(0, 40), left: r.left, right: r.right, width: innerWidth,
    fits: el.scrollWidth <= el.clientWidth + 2,  // KaTeX's 2 px .vlist-s after a bracket: empty, at any size
    scrolls: ['auto', 'scroll'].includes(style.overflowX),
    cue: (el.classList.contains('lab-more-right') || el.classList.contains('lab-more-left'))
      && style.maskImage.includes('gradient'),
  };
})
"""

# Each visible modebar box and each chart title box on the page.
BOXES_JS = """
() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const shown = (el) => el.checkVisibility() && el.getBoundingClientRect().width > 0;
  return {
    modebars: [...document.querySelectorAll('.modebar')].filter(shown).map(box),
    titles: [...document.querySelectorAll('CHARTS .gtitle')].filter(shown).map(box),
  };
}
""".replace("CHARTS", CHARTS)


def overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


# One browser context per screen size (a new one costs ~2.5 s of loading Streamlit and plotly into a new renderer):
# on the phone both languages and both sources, on the laptop English on the model.
@pytest.mark.parametrize(
    ("size", "cases"),
    [(PHONE, [("zh", "model"), ("en", "example")]), ((1280, 900), [("en", "model")])],
    ids=["phone", "laptop"],
)
def test_every_formula_fits_or_scrolls_with_a_cue(browser, app_url, size, cases):
    page = new_page(browser, size)
    try:
        for lang, source in cases:
            for step in (2, 3, 5, 6, 8):
                check_formulas(page, f"{app_url}/step-by-step?lang={lang}&source={source}&step={step}")
    finally:
        page.context.close()


def check_formulas(page, url: str) -> None:
    """Open a step; each formula lies within the screen, and fits or scrolls with the cue (and only then)."""
    open_page(page, url)
    page.locator(".katex-display").first.wait_for(timeout=30_000)
    page.wait_for_function(  # the fitting script has run on this run's formulas
        "() => [...document.querySelectorAll('.katex-display')].every((el) => el.scrollWidth <= "
        "el.clientWidth + 2 || el.classList.contains('lab-more-right'))",
        timeout=30_000,
    )
    formulas = page.evaluate(FORMULAS_JS)
    assert formulas, f"{url}: no formula"
    bad = [f for f in formulas if f["left"] < -0.5 or f["right"] > f["width"] + 0.5]
    bad += [f for f in formulas if not f["fits"] and not (f["scrolls"] and f["cue"])]
    bad += [f for f in formulas if f["fits"] and f["cue"]]  # a formula that fits does not fade out
    assert bad == [], f"{url}: {bad}"


def test_on_a_phone_a_tap_on_a_chart_leaves_its_title_readable(browser, app_url):
    page = new_page(browser, PHONE)
    try:
        for url in (f"{app_url}/step-by-step?lang=zh&source=model&step=5", f"{app_url}/attention?lang=zh"):
            open_page(page, url)
            charts = page.locator(CHARTS)
            charts.first.wait_for(timeout=30_000)
            for i in range(min(charts.count(), 3)):
                chart = charts.nth(i)
                chart.scroll_into_view_if_needed()
                chart.click(position={"x": 60, "y": 60})  # a tap: plotly shows its modebar until the next one
                boxes = page.evaluate(BOXES_JS)
                assert boxes["modebars"] == [], f"{url}: chart {i} shows plotly's modebar on a phone"
                assert not any(overlaps(t, m) for t in boxes["titles"] for m in boxes["modebars"])
    finally:
        page.context.close()


# Each chart title's overflow past its chart (px), and each heatmap's visible cell numbers that run into their
# neighbour in the same row.
WORDS_JS = """
() => {
  const titles = [...document.querySelectorAll('CHARTS .gtitle')].map((t) => {
    const chart = t.ownerSVGElement.getBoundingClientRect(), box = t.getBoundingClientRect();
    return {text: t.textContent.slice(0, 40), over: Math.max(box.right - chart.right, chart.left - box.left)};
  });
  const touching = [];
  for (const heatmap of document.querySelectorAll('CHARTS g.hm')) {
    const boxes = [...heatmap.querySelectorAll('g.heatmap-label text')].filter((t) => t.checkVisibility())
      .map((t) => ({box: t.getBoundingClientRect(), text: t.textContent})).filter((b) => b.box.width > 0);
    for (const a of boxes) for (const b of boxes) {
      if (a !== b && Math.abs(a.box.top - b.box.top) < 1 && a.box.left < b.box.left && b.box.left < a.box.right)
        touching.push([a.text, b.text]);
    }
  }
  const underTitle = [];  // a title's last line on the tick labels above its plot (the overview's head names)
  for (const plot of document.querySelectorAll('CHARTS .js-plotly-plot')) {
    const title = plot.querySelector('.gtitle'), svg = plot.querySelector('.main-svg');
    if (!title || !svg) continue;
    const titleBottom = title.getBoundingClientRect().bottom;
    const plotTop = svg.getBoundingClientRect().top + plot._fullLayout._size.t;
    const above = [...plot.querySelectorAll('.xtick text')].map((t) => t.getBoundingClientRect())
      .filter((b) => b.height > 0 && b.bottom <= plotTop + 1);
    if (above.length && Math.min(...above.map((b) => b.top)) < titleBottom) {
      underTitle.push(title.textContent.slice(0, 40));
    }
  }
  return {titles, touching, underTitle};
}
""".replace("CHARTS", CHARTS)


# /attention's longest title is the decoder overview's ("Decoder masked self-attention: every layer and head", then
# how to read a tile); on one line it ran past the chart even at the smallest size the fitting script allows. MiniLM
# on a long input: 12 heads whose names plotly turns upright on a phone, under a title of three lines (the tiles are
# pooled), whose last line they ran into in Chinese.
LONG = "the+quick+brown+fox+jumps+over+the+lazy+dog+while+the+cat+sleeps+on+the+warm+mat+near+the+door+of+the+old+house"


PHONE_PAGES = [
    ("/inside-a-layer", "zh"), ("/attention", "en"), ("/attention?kind=decoder", "en"), ("/step-by-step", "zh"),
    (f"/attention?model=minilm&input={LONG}", "zh"), (f"/attention?model=minilm&input={LONG}", "en"),
]  # fmt: skip


def test_on_a_phone_chart_titles_fit_and_cell_numbers_never_run_together(browser, app_url):
    """Each of PHONE_PAGES in turn, in one phone's browser context."""
    page = new_page(browser, PHONE)
    try:
        for path, lang in PHONE_PAGES:
            open_page(page, f"{app_url}{path}{'&' if '?' in path else '?'}lang={lang}")
            page.locator(CHARTS).first.wait_for(timeout=30_000)
            page.wait_for_timeout(500)  # the fitting script runs on the next animation frame after plotly draws
            words = page.evaluate(WORDS_JS)
            assert words["titles"], f"{path}: no chart title measured"
            assert [t for t in words["titles"] if t["over"] > 1] == [], (path, lang)
            assert words["touching"] == [], (path, lang)
            assert words["underTitle"] == [], (path, lang)
    finally:
        page.context.close()


LANDSCAPE = (844, 390)
# Each chart's top margin and height as plotly laid it out.
LAYOUTS_JS = """
() => [...document.querySelectorAll('CHARTS .js-plotly-plot')]
  .map((plot) => [plot._fullLayout.margin.t, plot._fullLayout.height])
""".replace("CHARTS", CHARTS)
GREW_JS = f"(opened) => ({LAYOUTS_JS.strip()})().some(([top], i) => top > opened[i][0])"
SAME_JS = f"(opened) => JSON.stringify(({LAYOUTS_JS.strip()})()) === JSON.stringify(opened)"


def viewport(size: tuple[int, int]) -> dict[str, int]:
    return {"width": size[0], "height": size[1]}


def test_a_phone_turned_to_landscape_gives_a_chart_the_servers_layout_back(browser, app_url):
    """The MiniLM overview's title makes room for the head names on a phone's screen (above); turned to landscape,
    past a phone's width, each chart has the layout a page opened in landscape has, not the phone's larger margin."""
    page = new_page(browser, LANDSCAPE)
    try:
        open_page(page, f"{app_url}/attention?model=minilm&input={LONG}&lang=zh")
        opened = page.evaluate(LAYOUTS_JS)
        assert opened, "no chart drawn"
        page.set_viewport_size(viewport(PHONE))
        page.wait_for_function(GREW_JS, arg=opened, timeout=15_000)  # the phone's screen: a title made room
        assert page.evaluate(WORDS_JS)["underTitle"] == []
        page.set_viewport_size(viewport(LANDSCAPE))
        with contextlib.suppress(PlaywrightTimeout):  # the assertion below says what it found
            page.wait_for_function(SAME_JS, arg=opened, timeout=15_000)
        assert page.evaluate(LAYOUTS_JS) == opened
    finally:
        page.context.close()
