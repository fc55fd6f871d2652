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


# What CSS cannot do, in a few lines of script (our own constant code; no user text goes in): the sidebar follows
# the view when it is switched. Streamlit 1.67 applies set_page_config's initial_sidebar_state on a rerun only until
# the user has opened or closed the sidebar once (then the browser remembers their choice), so on a switch the script
# presses the sidebar's own collapse / expand button. It also tells ui.phone's script that the page is presenting,
# which then shrinks a formula wider than its column (the stage gives formulas three fifths of the width) to fit,
# instead of cutting it off behind a scroll bar.
SCRIPT = """
(() => {
  const lab = window.__labPresenter = window.__labPresenter || {};
  const switched = lab.on !== undefined && lab.on !== PRESENTING;
  lab.on = PRESENTING;
  const sidebar = document.querySelector('[data-testid="stSidebar"]');
  const collapsed = sidebar && sidebar.getAttribute('data-collapsed') === 'true';
  if (lab.on && !collapsed) document.querySelector('[data-testid="stSidebarCollapseButton"] button')?.click();
  if (!lab.on && switched && collapsed) document.querySelector('[data-testid="stExpandSidebarButton"]')?.click();
})();
"""


def inject_style(presenting: bool) -> None:
    """This run's CSS (key-only buttons hidden always; the presenter's sizes when presenting) and the script above.
    The script goes to the sidebar, where its empty element takes no room from the page."""
    big = f"@media (min-width: {NARROW + 1}px) {{ {PRESENTER} }}" if presenting else ""  # a phone keeps its sizes
    st.html(f"<style>{ALWAYS}{big}</style>")
    script = SCRIPT.replace("PRESENTING", "true" if presenting else "false")
    st.sidebar.html(f"<script>{script}</script>", unsafe_allow_javascript=True)
