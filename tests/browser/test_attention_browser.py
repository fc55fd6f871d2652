"""The Attention page in headless Chromium: type a new input and the painted heatmaps follow it;
a shared link reopens the exact view; no exception box and no console error."""

from __future__ import annotations

from urllib.parse import urlparse

import pytest

from .harness import exceptions_on, open_page, runs, wait_settled

pytestmark = pytest.mark.browser

# Reads every plotly chart on the page: its role (layout.meta), title, axis tick labels, first trace's size,
# the token labels of the head view, and the tick labels actually painted in the SVG.
FIGURES_JS = """
() => {
  // a z sent as a base64 typed array stays {dtype, bdata, shape} in el.data
  const rows = (z) => (!z ? null : z.shape ? parseInt(String(z.shape).split(',')[0]) : z.length);
  const out = {};
  for (const el of document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')) {
    const layout = el.layout || {}, data = el.data || [];
    const last = data[data.length - 1] || {};
    out[layout.meta] = {
      title: layout.title && layout.title.text,
      x: layout.xaxis && layout.xaxis.ticktext, y: layout.yaxis && layout.yaxis.ticktext,
      rows: rows(data[0] && data[0].z),
      tokens: last.text ? Array.from(last.text) : null,
      painted: Array.from(el.querySelectorAll('.xtick text')).map((t) => t.textContent),
    };
  }
  return out;
}
"""
SUBPAGE_PROBES = ("/_stcore/health", "/_stcore/host-config")


def numbered(tokens):
    return [f"{i} · {t}" for i, t in enumerate(tokens)]


@pytest.fixture
def probes(page):
    """404s of the frontend's health probes under a subpage path (streamlit#7074), recorded to be excused."""
    found = []
    page.on("response", lambda r: r.status == 404 and urlparse(r.url).path.endswith(SUBPAGE_PROBES) and found.append(r))
    return found


def real_console_errors(page, probes) -> list[str]:
    """Console errors, minus one generic 'Failed to load resource: 404' per known subpage probe."""
    errors, excused = list(page.console_errors), len(probes)
    for message in list(errors):
        if excused and "Failed to load resource" in message and "404" in message:
            errors.remove(message)
            excused -= 1
    return errors


def wait_for_figure(page, role: str, title: str | None = None, timeout_ms: int = 60_000) -> None:
    """Wait until the page is not running, nothing is stale, and every chart with this role is painted (with
    this title). Fragment reruns can be so quick that the harness's rerun counter never sees them running, so
    these waits look at the chart itself."""
    page.wait_for_function(
        """([role, title]) => {
             const app = document.querySelector('[data-testid="stApp"]');
             if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
             if (document.querySelector('[data-stale="true"]')) return false;
             const charts = Array.from(document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot'))
               .filter((el) => el.layout && el.layout.meta === role);
             return charts.length > 0 && charts.every((el) => el.querySelector('svg.main-svg')
               && (title === null || el.layout.title.text === title));
           }""",
        arg=[role, title], timeout=timeout_ms, polling=25,
    )  # fmt: skip


def type_input(page, text: str) -> None:
    box = page.get_by_label("Input", exact=True)
    before = runs(page)
    box.fill(text)
    box.press("Enter")
    wait_settled(page, before)


def test_typing_a_new_input_redraws_every_heatmap_with_its_tokens(page, app_url, probes):
    open_page(page, f"{app_url}/attention")
    first = page.evaluate(FIGURES_JS)
    assert first["attention-head"]["x"] == numbered(["the", "big", "red", "dog", "sees", "a", "small", "cat", "<eos>"])
    type_input(page, "the old cat follows a happy wolf")
    figs = page.evaluate(FIGURES_JS)
    tokens = ["the", "old", "cat", "follows", "a", "happy", "wolf", "<eos>"]
    assert figs["attention-head"]["x"] == numbered(tokens) == figs["attention-head"]["y"]
    assert figs["attention-head"]["painted"] == numbered(tokens)  # drawn in the SVG, not only in the data
    assert figs["head-view"]["tokens"] == tokens
    page.get_by_role("tab", name="Mean over heads").click()
    wait_for_figure(page, "head-mean")
    assert page.evaluate(FIGURES_JS)["head-mean"]["x"] == numbered(tokens)
    gap = 1
    assert figs["attention-overview"]["rows"] == 2 * (len(tokens) + gap) - gap
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


def test_shared_link_reopens_the_exact_view(page, app_url, probes):
    open_page(page, f"{app_url}/attention?model=reverse&text=1+2+3&kind=Cross-attention&layer=2&head=3")
    figs = page.evaluate(FIGURES_JS)
    assert figs["attention-head"]["title"] == "Layer 2 · Head 3"
    assert figs["attention-head"]["x"] == numbered(["1", "2", "3", "<eos>"])
    assert figs["attention-overview"]["title"].startswith("Cross-attention")
    assert "model=reverse" in page.url and "kind=Cross-attention" in page.url
    # choosing another head redraws the focused view (a fragment rerun) and updates the link
    page.get_by_test_id("stRadio").filter(has_text="Head").get_by_text("1", exact=True).click()
    wait_for_figure(page, "attention-head", "Layer 2 · Head 1")
    assert page.evaluate(FIGURES_JS)["attention-head"]["title"] == "Layer 2 · Head 1"
    assert "head=" not in page.url or "head=1" in page.url
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []


def test_script_in_the_input_is_shown_as_text(page, app_url, probes):
    open_page(page, f"{app_url}/attention")
    page.evaluate("window.__xss = 0")
    type_input(page, "the dog <img src=x onerror=window.__xss=1> sees a cat")
    assert page.evaluate("window.__xss") == 0
    alerts = " ".join(page.get_by_test_id("stAlert").all_inner_texts())
    assert "“<img”" in alerts and "“onerror=window.__xss=1>”" in alerts  # each unknown word, as typed
    assert exceptions_on(page) == []
    assert real_console_errors(page, probes) == []
