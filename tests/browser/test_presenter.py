"""The presenter view in a real browser, on a projector's screen (1280×720, and 1024×768 in Chinese): every step's
formula and figure above the fold, text 1.4× larger, Page Down / → step, the sidebar closed; on /attention the
focused head above the fold; the sidebar switch and Exit."""

import pytest

from attention_lab.chart import CHARTS
from devtools.harness import exceptions_on, new_page, open_page, runs, wait_settled

from .figures import real_console_errors

pytestmark = pytest.mark.browser

SCREENS = pytest.mark.parametrize(("width", "height", "lang"), [(1280, 720, "en"), (1024, 768, "zh")])
STEP_HEADING = {"en": "Step {step} of 8", "zh": "第 {step} 步（共 8 步）"}
PROSE = {"en": "The score s_ij", "zh": "分数 s_ij"}  # step 2's first sentence

# Boxes of the first formula (KaTeX block) in the main area and of the first chart in the stage's figure column
# (ui.presenter.stage), how far the formula overflows its own width (a cut-off formula scrolls; KaTeX's 2 px
# `.vlist-s` cell after a bracket sticks out at any size and hides nothing), whether it fades out as a cut formula
# does, and whether the sidebar is collapsed.
LAYOUT_JS = """
() => {
  const box = (el) => { if (!el) return null; const r = el.getBoundingClientRect();
                        return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const formula = document.querySelector('[data-testid="stMain"] .katex-display');
  const chart = document.querySelector('.st-key-presenter_stage_figure CHARTS');
  return {formula: box(formula), chart: box(chart),
          overflow: formula ? formula.scrollWidth - formula.clientWidth : null,
          faded: formula ? formula.classList.contains('lab-more-right') || formula.classList.contains('lab-more-left')
                         : null,
          collapsed: document.querySelector('[data-testid="stSidebar"]').getAttribute('data-collapsed')};
}
""".replace("CHARTS", CHARTS)
FONT_JS = """
(text) => {
  const p = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stMarkdown"] p')]
    .find((el) => el.innerText.includes(text));
  return p ? parseFloat(getComputedStyle(p).fontSize) : null;
}
"""
FITTED_JS = """
() => { const f = document.querySelector('[data-testid="stMain"] .katex-display');
        return !!f && f.scrollWidth - f.clientWidth <= 2; }
"""
CHART_JS = """
(role) => { const el = [...document.querySelectorAll('CHARTS .js-plotly-plot')]
              .find((e) => e.layout && e.layout.meta === role);
            if (!el || !el.querySelector('svg.main-svg')) return null;
            const r = el.getBoundingClientRect(); return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; }
""".replace("CHARTS", CHARTS)


def inside(box: dict, width: int, height: int) -> bool:
    return (
        box is not None and box["left"] >= 0 and box["top"] >= 0 and box["right"] <= width and box["bottom"] <= height
    )


def press(page, key: str) -> None:
    before = runs(page)
    page.keyboard.press(key)
    wait_settled(page, before)


@SCREENS
def test_every_step_fits_above_the_fold_the_clicker_steps_and_the_focused_head_too(
    browser, app_url, width, height, lang, probes_for
):
    """One projector's context walks the eight steps, then opens /attention in the presenter view (a context of its
    own cost ~2.5 s more of loading Streamlit and plotly into a new renderer)."""
    page = new_page(browser, viewport=(width, height))
    probes = probes_for(page)
    try:
        open_page(page, f"{app_url}?lang={lang}")  # a first session, so the server knows its pages
        open_page(page, f"{app_url}/step-by-step?lang={lang}&step=2")
        normal = page.evaluate(FONT_JS, PROSE[lang])
        open_page(page, f"{app_url}/step-by-step?lang={lang}&present=true")
        for step in range(1, 9):
            heading = page.locator(
                '[data-testid="stHeadingWithActionElements"]', has_text=STEP_HEADING[lang].format(step=step)
            )
            assert heading.count() == 1, f"not on step {step}"
            page.wait_for_function(FITTED_JS, timeout=10_000)
            layout = page.evaluate(LAYOUT_JS)
            assert layout["collapsed"] == "true"
            assert inside(layout["formula"], width, height), (step, layout)
            assert inside(layout["chart"], width, height), (step, layout)
            assert layout["overflow"] <= 2, (step, layout)  # the formula is all there, not cut behind a scroll bar
            assert layout["faded"] is False, (step, layout)  # and not faded out as if it were
            if step == 2:
                assert page.evaluate(FONT_JS, PROSE[lang]) >= 1.4 * normal, (
                    normal,
                    page.evaluate(FONT_JS, PROSE[lang]),
                )
            if step < 8:
                press(page, "PageDown" if step % 2 else "ArrowRight")  # a clicker's forward button, or →
        assert "step=8" in page.url and "present=true" in page.url
        press(page, "PageUp")
        press(page, "ArrowLeft")
        assert "step=6" in page.url
        assert exceptions_on(page) == []
        focused_head_above_the_fold(page, f"{app_url}/attention?lang={lang}&present=true&model=reverse", width, height)
        assert real_console_errors(page, probes) == []
    finally:
        page.context.close()


def focused_head_above_the_fold(page, url: str, width: int, height: int) -> None:
    """On /attention in the presenter view the focused head is drawn above the fold, the sidebar collapsed."""
    open_page(page, url)
    page.wait_for_function(CHART_JS, arg="attention-head", timeout=30_000)
    head = page.evaluate(CHART_JS, "attention-head")
    assert inside(head, width, height), head
    assert page.evaluate(LAYOUT_JS)["collapsed"] == "true"
    assert exceptions_on(page) == []


def test_the_sidebar_switch_turns_it_on_and_exit_turns_it_off(browser, app_url):
    page = new_page(browser, viewport=(1280, 720))
    try:
        open_page(page, f"{app_url}?lang=en")
        open_page(page, f"{app_url}/step-by-step?lang=en")
        assert page.evaluate(LAYOUT_JS)["collapsed"] == "false"
        before = runs(page)
        page.get_by_test_id("stSidebar").get_by_text("Presenter view").click()
        wait_settled(page, before)
        page.wait_for_function("""() => document.querySelector('[data-testid="stSidebar"]')
                                         .getAttribute('data-collapsed') === 'true'""")  # fmt: skip
        assert "present=true" in page.url and page.locator(".st-key-presenter_bar").is_visible()
        before = runs(page)
        page.get_by_role("button", name="Exit").click()
        wait_settled(page, before)
        page.wait_for_function("""() => document.querySelector('[data-testid="stSidebar"]')
                                         .getAttribute('data-collapsed') === 'false'""")  # fmt: skip
        assert "present" not in page.url and page.locator(".st-key-presenter_bar").count() == 0
        assert exceptions_on(page) == []
    finally:
        page.context.close()
