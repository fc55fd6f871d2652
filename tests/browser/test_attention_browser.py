"""The Attention page in headless Chromium: type a new input and the painted heatmaps follow it;
a shared link reopens the exact view; no exception box and no console error."""

from __future__ import annotations

import pytest

from attention_lab.chart import CHARTS
from devtools.harness import exceptions_on, open_page, runs

from .figures import charts_in_sight, figures, numbered, real_console_errors, type_input, wait_for_figure

pytestmark = pytest.mark.browser


def test_typing_a_new_input_redraws_every_heatmap_with_its_tokens(page, app_url, probes):
    open_page(page, f"{app_url}/attention?kind=encoder")  # self-attention: the same tokens down and across
    first = figures(page)
    assert first["attention-head"]["x"] == numbered(["the", "big", "red", "dog", "sees", "a", "small", "cat", "<eos>"])
    type_input(page, "the old cat follows a happy wolf")
    figs = figures(page)
    tokens = ["the", "old", "cat", "follows", "a", "happy", "wolf", "<eos>"]
    assert figs["attention-head"]["x"] == numbered(tokens) == figs["attention-head"]["y"]
    assert figs["attention-head"]["painted"] == numbered(tokens)  # drawn in the SVG, not only in the data
    assert figs["head-view"]["tokens"] == tokens
    page.get_by_text("Summaries: entropy").click()  # a lazy expander, then a lazy tab: each reruns the section
    wait_for_figure(page, "head-entropy")
    page.get_by_role("radio", name="Mean over heads").click()
    wait_for_figure(page, "head-mean")
    assert figures(page)["head-mean"]["x"] == ["Layer 1", "Layer 2"]
    gap = 1
    assert figs["attention-overview"]["rows"] == 2 * (len(tokens) + gap) - gap
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


# Marks every chart's plotly element with its role (data-lab-mark), so a later look can tell the same element from a
# new one; returns the roles marked.
MARK_CHARTS_JS = """
() => Array.from(document.querySelectorAll('CHARTS .js-plotly-plot')).map((el) => {
  el.dataset.labMark = el.layout.meta;
  return el.layout.meta;
})
""".replace("CHARTS", CHARTS)
# Every chart's plotly element now: the marked ones with what they show (layout.meta, x tick labels, the head view's
# token labels, the x tick labels painted in the SVG), and the roles of any unmarked (newly mounted) ones.
MARKED_CHARTS_JS = """
() => {
  const els = Array.from(document.querySelectorAll('CHARTS .js-plotly-plot'));
  const shows = (el) => {
    const last = el.data[el.data.length - 1] || {};
    return {
      mark: el.dataset.labMark, role: el.layout.meta,
      x: el.layout.xaxis && el.layout.xaxis.ticktext ? Array.from(el.layout.xaxis.ticktext) : null,
      tokens: el.layout.meta === 'head-view' ? Array.from(last.text) : null,
      painted: Array.from(el.querySelectorAll('.xtick text')).map((t) => t.textContent),
    };
  };
  return {
    marked: els.filter((el) => el.dataset.labMark).map(shows),
    unmarked: els.filter((el) => !el.dataset.labMark).map((el) => el.layout && el.layout.meta),
  };
}
""".replace("CHARTS", CHARTS)


def test_a_new_input_redraws_each_chart_in_place(page, app_url, probes):
    """Typing a new input updates the charts the reader is looking at (ui/in_place_chart.py): every chart's plotly
    element from before the edit is still in the page after it, none unmounted and drawn anew (st.plotly_chart
    mounts a new element, drawn from scratch, for every changed figure), and each now shows the new input."""
    open_page(page, f"{app_url}/attention?model=reverse")
    example = ["3", "1", "4", "1", "5", "9", "2", "6", "<eos>"]  # the reverse task's example input
    roles = page.evaluate(MARK_CHARTS_JS)
    assert sorted(roles) == ["attention-head", "attention-overview", "head-view"]
    assert figures(page)["head-view"]["tokens"] == example
    type_input(page, "7 0 2 8 5")
    charts_in_sight(page)  # those below the fold draw as the reader scrolls to them (static/chart.js)
    after = page.evaluate(MARKED_CHARTS_JS)
    assert after["unmarked"] == []  # no chart mounted anew
    assert sorted(chart["mark"] for chart in after["marked"]) == sorted(roles)  # the same elements, each still there
    assert all(chart["mark"] == chart["role"] for chart in after["marked"])  # and still showing its own figure
    tokens = ["7", "0", "2", "8", "5", "<eos>"]
    charts = {chart["role"]: chart for chart in after["marked"]}
    assert charts["head-view"]["tokens"] == tokens
    assert charts["attention-head"]["x"] == numbered(tokens)  # cross-attention: its keys are the input's tokens
    assert charts["attention-head"]["painted"] == numbered(tokens)  # drawn in the SVG, not only in the data
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


def test_an_edit_made_while_the_charts_code_still_loads_ends_on_every_chart(page, app_url, probes):
    """On a slow network a page's first figures and an edit's figures both reach the charts before static/chart.js
    has loaded. Streamlit hands both over, in either order, and calls the first one's cleanup at once with the chart
    still on the page. Every chart must end showing the edit: chart.js numbers the figures as they were handed over
    and keeps a chart until its element leaves the page (an earlier chart.js lost charts this way)."""
    held = []
    page.route("**/app/static/chart.js*", lambda route: held.append(route))  # answered only after the edit
    page.goto(f"{app_url}/attention?model=reverse&lang=en")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=\"stBidiComponentRegular\"]').length >= 3", timeout=60_000
    )
    box = page.get_by_label("Input", exact=True)
    box.fill("7 0 2 8 5")
    before = runs(page)
    box.press("Enter")
    page.wait_for_function("(b) => window.__lab.finished > b.finished", arg=before, timeout=60_000)
    assert held and figures(page) == {}, "no chart drawn yet: chart.js is still on its way"
    for route in held:
        route.continue_()
    for role in ("attention-overview", "attention-head", "head-view"):
        wait_for_figure(page, role)
    tokens = ["7", "0", "2", "8", "5", "<eos>"]
    figs = figures(page)
    assert sorted(figs) == ["attention-head", "attention-overview", "head-view"]
    assert figs["head-view"]["tokens"] == tokens and figs["attention-head"]["x"] == numbered(tokens)
    assert page.locator(CHARTS).count() == 3  # one chart each: none lost, none doubled
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


def shared_link_reopens_the_exact_view(page, app_url, probes):
    open_page(page, f"{app_url}/attention?model=reverse&text=1+2+3&kind=Encoder+self-attention&layer=2&head=3")
    figs = figures(page)
    assert figs["attention-head"]["title"] == "Layer 2 · Head 3"
    assert figs["attention-head"]["x"] == numbered(["1", "2", "3", "<eos>"])
    assert figs["attention-overview"]["title"].startswith("Encoder self-attention")
    assert "model=reverse" in page.url and "kind=encoder" in page.url  # an old label link: now it holds the id
    # choosing another head redraws the focused view (a fragment rerun) and updates the link
    page.get_by_test_id("stRadio").filter(has_text="Head").get_by_text("1", exact=True).click()
    wait_for_figure(page, "attention-head", "Layer 2 · Head 1")
    assert figures(page)["attention-head"]["title"] == "Layer 2 · Head 1"
    assert "head=" not in page.url or "head=1" in page.url
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


def script_in_the_input_is_shown_as_text(page, app_url, probes):
    open_page(page, f"{app_url}/attention")
    page.evaluate("window.__xss = 0")
    type_input(page, "the dog <img src=x onerror=window.__xss=1> sees a cat")
    assert page.evaluate("window.__xss") == 0
    alerts = " ".join(page.get_by_test_id("stAlert").all_inner_texts())
    assert "“<img”" in alerts and "“onerror=window.__xss=1>”" in alerts  # each unknown word, as typed
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


HEAD_VIEW_SHAPES_JS = """
() => {
  const el = Array.from(document.querySelectorAll('CHARTS .js-plotly-plot'))
    .find((e) => e.layout && e.layout.meta === 'head-view');
  return {
    groups: el.layout.shapes.map((s) => [s.legendgroup, s.visible === 'legendonly' ? 'hidden' : 'shown']),
    painted: el.querySelectorAll('.shapelayer path').length,
  };
}
""".replace("CHARTS", CHARTS)


def clicking_a_head_in_the_head_view_legend_hides_its_lines(page, app_url, probes):
    open_page(page, f"{app_url}/attention")
    before = page.evaluate(HEAD_VIEW_SHAPES_JS)
    assert {state for _, state in before["groups"]} == {"shown"}
    assert before["painted"] == len(before["groups"]) > 0
    chart = page.locator(CHARTS).filter(has=page.locator(".legend"))
    chart.locator(".legend .traces").filter(has_text="Head 1").locator(".legendtoggle").click()
    page.wait_for_function(  # plotly waits out its double-click delay before applying a single click
        "() => document.querySelectorAll('.shapelayer path').length < " + str(before["painted"]), timeout=5_000
    )
    after = page.evaluate(HEAD_VIEW_SHAPES_JS)
    assert all((state == "hidden") == (group == "h0") for group, state in after["groups"])
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


GLYPHS_DIFFER_JS = """
(font) => {
  // A missing CJK font draws every character as the same empty box: then 头 and 口 paint the same pixels.
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = 40;
  const g = canvas.getContext('2d');
  const paint = (ch) => { g.clearRect(0, 0, 40, 40); g.font = '30px ' + font; g.fillText(ch, 2, 32);
                          return g.getImageData(0, 0, 40, 40).data.join(','); };
  return paint('头') !== paint('口');
}
"""


def a_chinese_link_paints_chinese_titles_axes_and_hover(page, app_url, probes):
    open_page(page, f"{app_url}/attention?model=reverse&text=1+2+3&kind=交叉注意力&layer=2&head=1&lang=zh")
    assert page.get_by_role("heading", name="注意力", exact=True).is_visible()
    figs = figures(page)
    assert figs["attention-overview"]["title"].startswith("交叉注意力：")
    assert figs["attention-head"]["title"] == "第 2 层 · 头 1"
    chart = page.locator(CHARTS).filter(has=page.locator(".xtitle")).first
    assert chart.locator(".xtitle").text_content() == "键：源词元"  # painted in the SVG
    font = page.evaluate("getComputedStyle(document.querySelector('.js-plotly-plot .gtitle')).fontFamily")
    assert page.evaluate(GLYPHS_DIFFER_JS, font), f"no CJK glyphs for {font}"
    chart.scroll_into_view_if_needed()
    box = chart.locator(".nsewdrag").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.2, box["y"] + box["height"] * 0.2)
    page.wait_for_function("document.querySelectorAll('.hoverlayer text').length > 0", timeout=5_000)
    hover = " ".join(page.locator(".hoverlayer text").all_text_contents())
    assert "查询" in hover and "键" in hover and "权重" in hover, hover
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


def test_a_link_reopens_its_view_script_stays_text_a_legend_hides_a_head_and_chinese_paints(page, app_url, probes):
    """The four checks above in turn, in one browser context (a new one costs ~2.5 s of loading Streamlit and plotly
    into a new renderer; the edit made while the charts' code still loads keeps a context of its own)."""
    shared_link_reopens_the_exact_view(page, app_url, probes)
    script_in_the_input_is_shown_as_text(page, app_url, probes)
    clicking_a_head_in_the_head_view_legend_hides_its_lines(page, app_url, probes)
    a_chinese_link_paints_chinese_titles_axes_and_hover(page, app_url, probes)
