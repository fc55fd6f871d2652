"""Helpers the browser tests share: read the painted plotly figures, type into Input, excuse the
frontend's known 404 probes under a subpage path."""

from __future__ import annotations

from devtools.harness import runs, wait_settled

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
