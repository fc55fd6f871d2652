"""◀ Previous / Next ▶ buttons that move a numbered step kept in session state (and, when its widget is bound,
in the URL); Page Up / Page Down press them, which is what a presenter's clicker sends."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from .i18n import _

T = TypeVar("T")


def _move(key: str, delta: int, first: int, last: int) -> None:
    st.session_state[key] = min(max(int(st.session_state.get(key, first)) + delta, first), last)


def prev_next_buttons(key: str, last: int, middle: Callable[[], T], *, first: int = 1, button_key: str) -> T:
    """◀ Previous and Next ▶ either side of `middle` (e.g. a picker), moving session_state[key] within first..last.

    `button_key` names the two buttons ({button_key}_prev, {button_key}_next); returns what `middle` returns."""
    prev_col, mid_col, next_col = st.columns([2, 5, 2], vertical_alignment="center")
    current = int(st.session_state.get(key, first))
    prev_col.button(
        _("◀ Previous"), on_click=_move, args=(key, -1, first, last), disabled=current <= first, width="stretch",
        key=f"{button_key}_prev", shortcut="PageUp",
        help=_("Previous step (Page Up, or a presenter clicker's back button)"),
    )  # fmt: skip
    next_col.button(
        _("Next ▶"), on_click=_move, args=(key, 1, first, last), disabled=current >= last, width="stretch",
        key=f"{button_key}_next", shortcut="PageDown",
        help=_("Next step (Page Down, or a presenter clicker's forward button)"),
    )  # fmt: skip
    with mid_col:
        return middle()
