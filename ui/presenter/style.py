"""The presenter view's look, as CSS injected once per run: large text, a compact top, hidden key-only buttons.

A style-only st.html goes to Streamlit's event container, so it takes no room on the page. Sizes are in rem
(the normal body text is 1rem = 16 px): the presenter's body text is 1.5rem, 1.5× the normal view's. A phone (a
student following a presenting teacher) keeps its own sizes, and ui.phone fits its formulas.
"""

from __future__ import annotations

import streamlit as st

from ..phone import NARROW

BODY_SCALE = 1.5  # presenter body text ÷ normal body text (the issue asks for at least 1.4)
KEYS_ONLY_PREFIX = "keys_only_"  # containers of buttons that exist only for their keyboard shortcut

ALWAYS = f"""
[class*="st-key-{KEYS_ONLY_PREFIX}"] {{ display: none; }}
[data-testid="stElementContainer"]:has(> [data-testid="stHtml"] > script:only-child) {{ display: none; }}
"""  # the second: a script-only st.html (this one's, ui.phone's) leaves no gap in the sidebar

PRESENTER = f"""
[data-testid="stMainBlockContainer"] {{
  padding: 3.75rem 2rem 2rem 2rem; max-width: none;
}}
[data-testid="stMain"] [data-testid="stMarkdown"] p,
[data-testid="stMain"] [data-testid="stMarkdown"] li,
[data-testid="stMain"] [data-testid="stAlert"] p,
[data-testid="stMain"] [data-testid="stPageLink"] p,
[data-testid="stMain"] [data-testid="stTable"] td,
[data-testid="stMain"] [data-testid="stTable"] th {{
  font-size: {BODY_SCALE}rem; line-height: 1.4;
}}
[data-testid="stMain"] [data-testid="stCaptionContainer"] p,
[data-testid="stMain"] [data-testid="stProgress"] p {{ font-size: 1.2rem; }}
[data-testid="stMain"] [data-testid="stMarkdown"] .katex-display {{ font-size: 1.25rem; margin: 0.3em 0; }}
[data-testid="stMain"] h1 {{ font-size: 2rem; padding: 0; }}
.st-key-presenter_bar button p {{ font-size: 1.2rem; }}
[data-testid="stMain"] h2 {{ font-size: 2rem; }}
[data-testid="stMain"] h3 {{ font-size: 1.9rem; padding: 0.25rem 0; }}
"""


# Two things CSS cannot do, in a few lines of script (our own constant code; no user text goes in):
# - The sidebar follows the view when it is switched: Streamlit 1.67 applies set_page_config's
#   initial_sidebar_state on a rerun only until the user has opened or closed the sidebar once (then the browser
#   remembers their choice), so on a switch the script presses the sidebar's own collapse / expand button.
# - A formula wider than its column (the presenter's stage gives formulas three fifths of the width) is shrunk to
#   fit instead of being cut off behind a scroll bar, whenever the main area changes (childList only: the
#   font-size it sets does not trigger it again).
SCRIPT = """
(() => {
  const lab = window.__labPresenter = window.__labPresenter || {};
  const switched = lab.on !== undefined && lab.on !== PRESENTING;
  lab.on = PRESENTING;
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  const collapsed = sidebar && sidebar.getAttribute('data-collapsed') === 'true';
  if (lab.on && !collapsed) document.querySelector('[data-testid="stSidebarCollapseButton"] button')?.click();
  if (!lab.on && switched && collapsed) document.querySelector('[data-testid="stExpandSidebarButton"]')?.click();
  if (lab.observer) return;
  const fit = () => {
    if (!lab.on || window.innerWidth <= NARROW) return;  // a phone's formulas: ui.phone
    for (const el of document.querySelectorAll('[data-testid="stMain"] .katex-display')) {
      el.style.fontSize = '';
      if (el.scrollWidth > el.clientWidth + 1) {
        const size = parseFloat(getComputedStyle(el).fontSize);
        el.style.fontSize = (size * el.clientWidth / el.scrollWidth * 0.98).toFixed(2) + 'px';
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
"""


def inject_style(presenting: bool) -> None:
    """This run's CSS (key-only buttons hidden always; the presenter's sizes when presenting) and the script above.
    The script goes to the sidebar, where its empty element takes no room from the page."""
    big = f"@media (min-width: {NARROW + 1}px) {{ {PRESENTER} }}" if presenting else ""  # a phone keeps its sizes
    st.html(f"<style>{ALWAYS}{big}</style>")
    script = SCRIPT.replace("PRESENTING", "true" if presenting else "false").replace("NARROW", str(NARROW))
    st.sidebar.html(f"<script>{script}</script>", unsafe_allow_javascript=True)
