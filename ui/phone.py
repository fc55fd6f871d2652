"""The app on a phone (a screen at most NARROW px wide): formulas that fit or say they scroll, chart titles
that the plotly modebar does not cover.

- A formula wider than the screen (the walkthrough's `s_i = [0.792 3.2 …]`) is first shrunk, down to MIN_SCALE of
  its size (smaller would not read); what is still wider scrolls sideways, with a shadow at the edge that has more
  (CSS scroll shadows: two white covers that scroll with the content over two shadows that do not), so the cut is
  never silent.
- Plotly's modebar sits over the top right of every chart, where a narrow chart's title runs; a tap shows it and
  it stays. On a phone it is hidden (its buttons zoom and download a slide, which a phone does not need), so the
  title reads.
Injected once per run with the presenter's style (a style-only st.html takes no room on the page); the script goes
to the sidebar like ui.presenter.style's, and does nothing on a wider screen.
"""

from __future__ import annotations

import streamlit as st

NARROW = 640  # px: at most this wide is a phone
MIN_SCALE = 0.72  # a formula is shrunk to at most this fraction of its size before it scrolls

CSS = f"""
@media (max-width: {NARROW}px) {{
  [data-testid="stMain"] .katex-display {{
    overflow-x: auto; overflow-y: hidden; scrollbar-width: thin; padding-bottom: 0.3rem;
    background:
      linear-gradient(to right, #fff 40%, rgba(255, 255, 255, 0)) left center / 2rem 100% no-repeat local,
      linear-gradient(to left, #fff 40%, rgba(255, 255, 255, 0)) right center / 2rem 100% no-repeat local,
      radial-gradient(farthest-side at 0 50%, rgba(0, 0, 0, 0.28), rgba(0, 0, 0, 0)) left center / 0.9rem 100%
        no-repeat scroll,
      radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, 0.28), rgba(0, 0, 0, 0)) right center / 0.9rem 100%
        no-repeat scroll;
  }}
  [data-testid="stMain"] .katex-display > .katex {{ padding: 0 0.2rem; }}
  [data-testid="stPlotlyChart"] .modebar-container {{ display: none !important; }}
}}
"""

SCRIPT = """
(() => {
  const lab = window.__labPhone = window.__labPhone || {};
  if (lab.observer) return;
  const fit = () => {
    if (window.innerWidth > NARROW) return;
    for (const el of document.querySelectorAll('[data-testid="stMain"] .katex-display')) {
      el.style.fontSize = '';
      if (el.scrollWidth > el.clientWidth + 1) {
        const size = parseFloat(getComputedStyle(el).fontSize);
        const scale = Math.max(MIN_SCALE, el.clientWidth / el.scrollWidth * 0.98);
        el.style.fontSize = (size * scale).toFixed(2) + 'px';
      }
    }
  };
  let queued = false;
  const later = () => { if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; fit(); }); } };
  lab.observer = new MutationObserver(later);
  lab.observer.observe(document.body, {childList: true, subtree: true});
  window.addEventListener('resize', later);
  later();
})();
""".replace("MIN_SCALE", str(MIN_SCALE)).replace("NARROW", str(NARROW))


def phone_style() -> None:
    """This run's phone CSS and the formula-fitting script (both inert on a wider screen)."""
    st.html(f"<style>{CSS}</style>")
    st.sidebar.html(f"<script>{SCRIPT}</script>", unsafe_allow_javascript=True)
