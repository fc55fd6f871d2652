"""Helpers the browser tests share: read the painted plotly figures, type into Input, excuse the
frontend's known 404 probes under a subpage path."""

from __future__ import annotations

from attention_lab.chart import CHARTS, WAITING_CHARTS
from devtools.harness import runs, wait_settled

# Reads every plotly chart on the page: its role (layout.meta), title, axis tick labels, first trace's size,
# the token labels of the head view, and the tick labels actually painted in the SVG.
FIGURES_JS = """
() => {
  // a z sent as a base64 typed array stays {dtype, bdata, shape} in el.data
  const rows = (z) => (!z ? null : z.shape ? parseInt(String(z.shape).split(',')[0]) : z.length);
  const out = {};
  for (const el of document.querySelectorAll('CHARTS .js-plotly-plot')) {
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
""".replace("CHARTS", CHARTS)
SUBPAGE_PROBES = ("/_stcore/health", "/_stcore/host-config")
# A chart an edit left out of sight keeps its figure until it comes near the screen (static/chart.js: marked
# data-waiting until it has drawn the newest one). This brings each such chart into view in turn, as a reader
# scrolling down the page does, waits until it has drawn, and puts the scroll back where it was.
SCROLL_THROUGH_CHARTS_JS = """
async () => {
  const main = document.querySelector('[data-testid="stMain"]');
  const top = main ? main.scrollTop : 0;
  const drawn = (el) => new Promise((done) => {
    const check = () => (!el.isConnected || el.dataset.waiting === undefined ? done() : requestAnimationFrame(check));
    check();
  });
  for (let seen = 0; seen < 100; seen++) {
    const el = document.querySelector('WAITING_CHARTS');
    if (!el) break;
    el.scrollIntoView({block: 'center'});
    await drawn(el);
  }
  if (main) main.scrollTop = top;
}
""".replace("WAITING_CHARTS", WAITING_CHARTS)
# The start of a wait's check (a function body): a chart waiting out of sight is brought into view, as a reader would
# scroll to it, so that it draws; the check says "not yet" this time.
SCROLL_TO_WAITING_JS = """
  const waiting = document.querySelector('WAITING_CHARTS');
  if (waiting) {
    waiting.scrollIntoView({block: 'center'});
    return false;
  }
""".replace("WAITING_CHARTS", WAITING_CHARTS)


def charts_in_sight(page) -> None:
    """Every chart drawn with its newest figure: those an edit left out of sight scrolled to in turn."""
    page.evaluate(SCROLL_THROUGH_CHARTS_JS)


def figures(page) -> dict:
    """FIGURES_JS's reading of every chart on the page, each drawn with its newest figure (charts_in_sight)."""
    charts_in_sight(page)
    return page.evaluate(FIGURES_JS)


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
    these waits look at the chart itself. A chart left out of sight with a newer figure waiting (static/chart.js)
    is scrolled into view, as a reader would, so that it draws."""
    page.wait_for_function(
        """([chartSelector, role, title]) => {
             const app = document.querySelector('[data-testid="stApp"]');
             if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
             if (document.querySelector('[data-stale="true"]')) return false;
             SCROLL_TO_WAITING
             const charts = Array.from(document.querySelectorAll(`${chartSelector} .js-plotly-plot`))
               .filter((el) => el.layout && el.layout.meta === role);
             return charts.length > 0 && charts.every((el) => el.querySelector('svg.main-svg')
               && (title === null || el.layout.title.text === title));
           }""".replace("SCROLL_TO_WAITING", SCROLL_TO_WAITING_JS),
        arg=[CHARTS, role, title], timeout=timeout_ms, polling=25,
    )  # fmt: skip


def type_input(page, text: str) -> None:
    box = page.get_by_label("Input", exact=True)
    before = runs(page)
    box.fill(text)
    box.press("Enter")
    wait_settled(page, before)


# Every painted word of every plotly chart on the page, with its box on screen (left, top, right, bottom) and font
# size: the chart's frame, its title, axis titles, annotations, legend items, tick labels and heatmap cell numbers.
TEXT_BOXES_JS = """
() => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const words = (root, test) => [...root.querySelectorAll('text')].filter(test)
    .filter((t) => t.textContent.trim() && t.getBoundingClientRect().width > 0)
    .map((t) => ({text: t.textContent, box: box(t), size: parseFloat(getComputedStyle(t).fontSize)}));
  const cls = (t) => t.getAttribute('class') || '';
  const parent = (t) => (t.parentElement && t.parentElement.getAttribute('class')) || '';
  return [...document.querySelectorAll('CHARTS .js-plotly-plot')].map((el) => ({
    role: el.layout && el.layout.meta,
    frame: box(el.querySelector('.svg-container')),
    titles: words(el, (t) => /^gtitle/.test(cls(t))),
    axisTitles: words(el, (t) => /^[xy]\\d*title$/.test(cls(t))),
    notes: words(el, (t) => cls(t) === 'annotation-text'),
    legend: words(el, (t) => cls(t) === 'legendtext'),
    ticks: words(el, (t) => /^[xy]\\d*tick$/.test(parent(t))),
    cells: words(el, (t) => parent(t) === 'heatmap-label'),
  }));
}
""".replace("CHARTS", CHARTS)


def overlap(a, b, slack: float = 1.0) -> bool:
    """Do two boxes (left, top, right, bottom) overlap by more than `slack` px both ways?"""
    return min(a[2], b[2]) - max(a[0], b[0]) > slack and min(a[3], b[3]) - max(a[1], b[1]) > slack


def cut(word: dict, frame, slack: float = 1.0) -> bool:
    """Does a word reach outside its chart's frame (where the chart cuts it off)?"""
    left, top, right, bottom = word["box"]
    return left < frame[0] - slack or top < frame[1] - slack or right > frame[2] + slack or bottom > frame[3] + slack


def figure_problems(chart: dict) -> list[str]:
    """What a reader would trip over in one painted chart: a title, axis title, note or legend item cut off at the
    chart's edge; two of them (or one and a tick label) on top of each other; cell numbers running together."""
    problems = []
    labels = chart["titles"] + chart["axisTitles"] + chart["notes"] + chart["legend"]
    for word in labels:
        if cut(word, chart["frame"]):
            problems.append(f"cut off: {word['text']!r} at {word['box']} (chart {chart['frame']})")
    for i, a in enumerate(labels):
        for b in labels[i + 1 :] + chart["ticks"]:
            if overlap(a["box"], b["box"]):
                problems.append(f"overlap: {a['text']!r} and {b['text']!r}")
    cells = chart["cells"]
    for i, a in enumerate(cells):
        together = [b for b in cells[i + 1 :] if overlap(a["box"], b["box"], 0)]
        problems += [f"cells run together: {a['text']!r} {b['text']!r}" for b in together]
    return problems
