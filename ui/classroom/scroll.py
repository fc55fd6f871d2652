"""When the teacher changes something, the student's page scrolls to it.

After applying the teacher's view (follow.py), the settings that changed are known by their controls (views/),
and each control's widget is drawn under its session key, which Streamlit writes on the widget's box as the
CSS class st-key-<key>. A few lines of script wait for the run to finish drawing, then scroll the first changed
control's widget (the step picker above the step, the layer and head pickers above the head, the kind above the
overview) to the top of the screen, under Streamlit's header. A widget folded into a popover (a follower's page folds
its controls: ui.presenter.layout) is not on the page, so the fold that holds it (ui.presenter.folds) stands in for
it; when neither is there the page stays where it is. Charts above it may still be drawing when the run has finished
(on a slow phone, seconds later), and each pushes it down: for PIN_MS the script puts it back at the top whenever it
has moved once the scroll is over, and stops at once when the reader scrolls, taps or presses a key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import streamlit as st

from views import fields, view_class

from ..presenter.folds import holder

PIN_MS = 5000  # how long after the scroll the control is kept in place while the page above it grows
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
        pin(box);
        return;
      }
    }
  };
  const pin = (box) => {  // keep it there while what is above it still grows, until the reader moves the page
    const main = document.querySelector('[data-testid="stMain"]');
    const until = Date.now() + PIN_MS;
    const touches = ['wheel', 'touchstart', 'mousedown', 'keydown'];
    const mine = window.__labScrollPin = (window.__labScrollPin || 0) + 1;  // a later scroll ends this one's pin
    let left = false, last = null;
    const leave = () => { left = true; };
    touches.forEach((t) => addEventListener(t, leave, {capture: true, passive: true}));
    const check = () => {
      const at = main ? main.scrollTop : scrollY;
      if (left || Date.now() > until || !box.isConnected || window.__labScrollPin !== mine) {
        touches.forEach((t) => removeEventListener(t, leave, {capture: true}));
        return;
      }
      const off = box.getBoundingClientRect().top - parseFloat(getComputedStyle(box).scrollMarginTop);
      if (at === last && Math.abs(off) > 8) box.scrollIntoView({block: 'start'});  // the smooth scroll is over
      last = at;
      setTimeout(check, 150);
    };
    setTimeout(check, 150);
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
    (where or st.sidebar).html(f"<script>{scroll_script(targets, run)}</script>", unsafe_allow_javascript=True)


def scroll_script(targets: list[str], run: int) -> str:
    """The browser's part: scroll to the first of these boxes (by widget key) that is on the page, and keep it there."""
    return SCRIPT.replace("KEYS", json.dumps(targets)).replace("RUN", str(int(run))).replace("PIN_MS", str(PIN_MS))
