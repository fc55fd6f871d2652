"""The app on a phone (a screen at most NARROW px wide): formulas that fit or say they scroll, chart titles
that the plotly modebar does not cover.

- A formula wider than the screen (the walkthrough's `s_i = [0.792 3.2 …]`) is first shrunk, down to MIN_SCALE of
  its size (smaller would not read); what is still wider scrolls sideways, and fades out at each edge that has more
  to scroll to (a mask, so it reads in a light or a dark theme), so the cut is never silent. The fade is on at every
  width (a wide matrix in a laptop's column scrolls too); the script keeps it on the edges that have more.
- A chart's title wider than its chart (plotly never wraps one) is shrunk to fit, down to MIN_TITLE_PX; a heatmap
  whose cell numbers run into each other (a wide matrix on a phone) leaves them to the tap, as viz.fit does for the
  widths the server knows. Both are measured in the browser, at every width: only it knows the screen.
- Plotly's modebar sits over the top right of every chart, where a narrow chart's title runs; a tap shows it and
  it stays. On a phone it is hidden (its buttons zoom and download a slide, which a phone does not need), so the
  title reads.
- In the presenter view (ui.presenter.style says when) a formula wider than its column is shrunk to fit, with no
  lower bound: a projector shows the whole formula, never a scroll bar.
Injected once per run with the presenter's style (a style-only st.html takes no room on the page); the script goes
to the sidebar like ui.presenter.style's. Whatever it shrinks, it marks the edges to fade afterwards, so only a formula
still too wide fades.
"""

from __future__ import annotations

import streamlit as st

from attention_lab.chart import CHARTS

NARROW = 640  # px: at most this wide is a phone
MIN_SCALE = 0.72  # a formula is shrunk to at most this fraction of its size before it scrolls
MIN_TITLE_PX = 11  # a chart title is never shrunk below this

FADE = "3rem"  # the width over which a formula's cut edge fades out
# KaTeX ends a stacked box (a matrix's bracket, a fraction) with a `.vlist-s` cell that is 2 px wide at any font
# size, and at the right end of a formula it sticks out by those 2 px: empty, it hides nothing. A formula that
# overflows by at most this much fits: it is neither shrunk nor faded.
SLACK_PX = 2
CSS = f"""
[data-testid="stMain"] .katex-display {{ overflow-x: auto; overflow-y: hidden; scrollbar-width: thin; }}
[data-testid="stMain"] .katex-display.lab-more-right {{
  mask-image: linear-gradient(to right, #000 calc(100% - {FADE}), transparent);
}}
[data-testid="stMain"] .katex-display.lab-more-left {{
  mask-image: linear-gradient(to left, #000 calc(100% - {FADE}), transparent);
}}
[data-testid="stMain"] .katex-display.lab-more-left.lab-more-right {{
  mask-image: linear-gradient(to right, transparent, #000 {FADE}, #000 calc(100% - {FADE}), transparent);
}}
{CHARTS} g.hm.lab-crowded g.heatmap-label {{ display: none; }}
@media (max-width: {NARROW}px) {{
  [data-testid="stMain"] .katex-display {{ padding-bottom: 0.3rem; }}
  {CHARTS} .modebar-container {{ display: none !important; }}
}}
"""

SCRIPT = (
    """
(() => {
  const lab = window.__labPhone = window.__labPhone || {};
  if (lab.observer) return;
  const mark = (el) => {  // which edges have more to scroll to: the CSS fades those
    const more = el.scrollWidth > el.clientWidth + SLACK;
    el.classList.toggle('lab-more-right', more && el.scrollLeft + el.clientWidth < el.scrollWidth - SLACK);
    el.classList.toggle('lab-more-left', more && el.scrollLeft > 1);
  };
  const shrink = (el, floor) => {  // to its column's width, down to `floor` of its own size
    el.style.fontSize = '';
    if (el.scrollWidth > el.clientWidth + SLACK) {
      const size = parseFloat(getComputedStyle(el).fontSize);
      const scale = Math.max(floor, el.clientWidth / el.scrollWidth * 0.98);
      el.style.fontSize = (size * scale).toFixed(2) + 'px';
    }
  };
  const fit = () => {
    const phone = window.innerWidth <= NARROW, presenting = !!window.__labPresenter?.on;
    for (const el of document.querySelectorAll('[data-testid="stMain"] .katex-display')) {
      if (phone) shrink(el, MIN_SCALE);
      else if (presenting) shrink(el, 0);  // a projector: the whole formula, never a scroll bar
      else if (el.style.fontSize) el.style.fontSize = '';  // one shrunk while presenting: its own size back
      mark(el);  // after the shrinking: only a formula still too wide fades
    }
  };
  const fitTitles = () => {  // a title wider than its chart: shrunk to fit (plotly draws it again at its own size)
    for (const title of document.querySelectorAll('CHARTS .gtitle')) {
      const chart = title.ownerSVGElement?.getBoundingClientRect(), box = title.getBoundingClientRect();
      if (!chart || box.width === 0) continue;
      const room = chart.right - 4 - Math.max(box.left, chart.left);
      if (box.width > room) {
        const size = parseFloat(getComputedStyle(title).fontSize);
        title.style.fontSize = Math.max(MIN_TITLE_PX, size * room / box.width).toFixed(1) + 'px';
      }
    }
  };
  const crowded = (labels) => {  // two cell numbers of one row that touch
    const rows = new Map();
    for (const label of labels) {
      const box = label.getBoundingClientRect();
      if (box.width === 0) continue;
      const row = Math.round(box.top);
      if (!rows.has(row)) rows.set(row, []);
      rows.get(row).push(box);
    }
    for (const boxes of rows.values()) {
      boxes.sort((a, b) => a.left - b.left);
      for (let i = 1; i < boxes.length; i++) if (boxes[i].left < boxes[i - 1].right + 1) return true;
    }
    return false;
  };
  const fitCells = () => {
    for (const heatmap of document.querySelectorAll('CHARTS g.hm')) {
      heatmap.classList.remove('lab-crowded');  // measured afresh: plotly may have drawn new numbers in it
      heatmap.classList.toggle('lab-crowded', crowded(heatmap.querySelectorAll('g.heatmap-label text')));
    }
  };
  let queued = false;
  const all = () => { fit(); fitTitles(); fitCells(); };
  const later = () => { if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; all(); }); } };
  lab.observer = new MutationObserver(later);
  lab.observer.observe(document.body, {childList: true, subtree: true});
  window.addEventListener('resize', later);
  document.addEventListener('scroll', (event) => {
    if (event.target.classList?.contains('katex-display')) mark(event.target);
  }, true);
  later();
})();
""".replace("MIN_SCALE", str(MIN_SCALE))
    .replace("SLACK", str(SLACK_PX))
    .replace("CHARTS", CHARTS)
    .replace("MIN_TITLE_PX", str(MIN_TITLE_PX))
    .replace("NARROW", str(NARROW))
)


def phone_style() -> None:
    """This run's CSS and the formula-fitting script."""
    st.html(f"<style>{CSS}</style>")
    st.sidebar.html(f"<script>{SCRIPT}</script>", unsafe_allow_javascript=True)
