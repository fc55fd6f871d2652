"""When the teacher changes something, the student's page scrolls to it.

After applying the teacher's view (follow.py), the settings that changed are known by their controls (views/),
and each control's widget is drawn under its session key, which Streamlit writes on the widget's box as the
CSS class st-key-<key>. A few lines of script wait for the run to finish drawing, then scroll the first changed
control's widget (the step picker above the step, the layer and head pickers above the head, the kind above the
overview) to the top of the screen, under Streamlit's header. A widget folded into a popover (a follower's page folds
its controls: ui.presenter.layout) is not on the page, so the fold that holds it (ui.presenter.folds) stands in for
it; when neither is there the page stays where it is.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import streamlit as st

from views import fields, view_class

from ..presenter.folds import holder

SCRIPT = """
(() => {
  const keys = KEYS;  // RUN
  const start = Date.now();
  const done = () => document.querySelector('[data-testid="stApp"]')?.getAttribute('data-test-script-state')
    === 'notRunning';
  const go = () => {
    if (!done() || Date.now() - start < 300) {
      if (Date.now() - start < 15000) setTimeout(go, 100);
      return;
    }
    for (const key of keys) {
      const box = document.querySelector('[data-testid="stMain"] .st-key-' + CSS.escape(key));
      if (box && box.offsetParent !== null) {
        box.style.scrollMarginTop = '4.5rem';
        box.scrollIntoView({block: 'start', behavior: 'smooth'});
        return;
      }
    }
  };
  go();
})();
"""


def changed_keys(page: object, before: Mapping, after: Mapping) -> list[str]:
    """The session keys of the controls of `page`'s view whose value differs between two room states of it, in
    the view's order (the shared part first: model and input sit above the page's own controls)."""
    cls = view_class(page) if isinstance(page, str) else None
    if cls is None:
        return []
    return [f.control.key for f in fields(cls) if f.name in after and before.get(f.name) != after.get(f.name)]


def scroll_to(keys: list[str], run: int, where=None) -> None:
    """Scroll this browser's page to the first of these widgets once the run has drawn it (`run` makes the script
    new for each apply, so the browser runs it again); the script goes in `where` (default: the sidebar)."""
    targets = [target for key in keys for target in (key, holder(key)) if target]
    if not targets:
        return
    script = SCRIPT.replace("KEYS", json.dumps(targets)).replace("RUN", str(int(run)))
    (where or st.sidebar).html(f"<script>{script}</script>", unsafe_allow_javascript=True)
