"""◀ Previous / Next ▶ through the slides: Page Up / Page Down (a presenter's clicker) and ← / → press them.

Streamlit 1.67's st.button(shortcut=...) takes one key per button, so each direction also has a hidden twin
bound to its arrow key (hidden by a style rule on its keyed container). Streamlit ignores these shortcuts while
the focus is in a text box or a select, so typing is never taken for stepping. (Main had no shared stepper when
this was written; ui/presenter's step_buttons does the same for the presenter view.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from ..i18n import _

R = TypeVar("R")
HIDDEN = "lesson_arrow_keys"  # the keyed container of the arrow twins: class st-key-lesson_arrow_keys
STYLE = f"<style>.st-key-{HIDDEN} {{display: none;}}</style>"


def _move(key: str, delta: int, last: int) -> None:
    st.session_state[key] = min(max(int(st.session_state.get(key, 1)) + delta, 1), last)


def slide_buttons(key: str, last: int, middle: Callable[[], R]) -> R:
    """◀ | middle() | ▶ in a row, moving st.session_state[key] within 1..last; returns middle()'s value."""
    current = int(st.session_state.get(key, 1))
    prev_col, mid_col, next_col = st.columns([2, 5, 2], vertical_alignment="center")
    prev_col.button(
        _("◀ Previous"), on_click=_move, args=(key, -1, last), disabled=current <= 1, width="stretch",
        key="lesson_prev", shortcut="PageUp", help=_("Previous slide (Page Up or ←)"),
    )  # fmt: skip
    next_col.button(
        _("Next ▶"), on_click=_move, args=(key, 1, last), disabled=current >= last, width="stretch",
        key="lesson_next", shortcut="PageDown", help=_("Next slide (Page Down or →)"),
    )  # fmt: skip
    st.html(STYLE)
    hidden = st.container(key=HIDDEN)
    for symbol, delta, off, arrow in (("←", -1, current <= 1, "Left"), ("→", 1, current >= last, "Right")):
        hidden.button(
            symbol, on_click=_move, args=(key, delta, last), disabled=off, key=f"lesson_{arrow}", shortcut=arrow
        )
    with mid_col:
        return middle()
