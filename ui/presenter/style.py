"""The presenter view's look, as CSS injected once per run: large text, a compact top, hidden key-only buttons.

A style-only st.html goes to Streamlit's event container, so it takes no room on the page. Sizes are in rem
(the normal body text is 1rem = 16 px): the presenter's body text is 1.5rem, 1.5× the normal view's.
"""

from __future__ import annotations

import streamlit as st

BODY_SCALE = 1.5  # presenter body text ÷ normal body text (the issue asks for at least 1.4)
KEYS_ONLY_PREFIX = "keys_only_"  # containers of buttons that exist only for their keyboard shortcut

ALWAYS = f"""
[class*="st-key-{KEYS_ONLY_PREFIX}"] {{ display: none; }}
"""

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
[data-testid="stMain"] [data-testid="stCaptionContainer"] p {{ font-size: 1.2rem; }}
[data-testid="stMain"] [data-testid="stMarkdown"] .katex-display {{ font-size: 1.25rem; margin: 0.3em 0; }}
[data-testid="stMain"] h1 {{ font-size: 2rem; padding: 0; }}
[data-testid="stMain"] h2 {{ font-size: 2rem; }}
[data-testid="stMain"] h3 {{ font-size: 1.9rem; padding: 0.25rem 0; }}
"""


# A formula wider than its column (the presenter's stage gives formulas two thirds of the width) is shrunk to fit
# it, instead of being cut off behind a scroll bar: CSS cannot size text by its own width, so a few lines of
# script do it whenever the main area changes (childList only: the font-size it sets does not re-trigger it).
FIT_FORMULAS = """
(() => {
  if (window.__labFitFormulas) return;
  window.__labFitFormulas = true;
  const fit = () => {
    if (!document.querySelector('.st-key-presenter_bar')) return;
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
  new MutationObserver(later).observe(document.body, {childList: true, subtree: true});
  window.addEventListener('resize', later);
  later();
})();
"""


def inject_style(presenting: bool) -> None:
    """The CSS of this run: key-only buttons hidden always, the presenter's sizes (and formula fitting) when
    presenting. The script goes to the sidebar, where its empty element takes no room from the page."""
    st.html(f"<style>{ALWAYS}{PRESENTER if presenting else ''}</style>")
    if presenting:
        st.sidebar.html(f"<script>{FIT_FORMULAS}</script>", unsafe_allow_javascript=True)
