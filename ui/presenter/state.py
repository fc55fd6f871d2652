"""Presenter view on or off: a sidebar toggle, kept in the link as ?present=true (every view's `present`, views/),
so a link opens a page ready for the projector."""

from __future__ import annotations

import streamlit as st

from ..i18n import _

PRESENT_KEY = "present"


def presenting() -> bool:
    """Is this run in the presenter view? (ui.state has read the link into the toggle's key before any widget.)"""
    return bool(st.session_state.get(PRESENT_KEY, False))


def presenter_toggle() -> bool:
    """The sidebar's "Presenter view" switch; returns whether the view is on."""
    # Set on every run (as ui.language does for its switch): a widget drawn under another running script (AppTest
    # reruns a page script, whose guard runs app.py inside it) would forget its value. The first run reads the link.
    st.session_state[PRESENT_KEY] = presenting()
    return st.sidebar.toggle(
        _("Presenter view"),
        key=PRESENT_KEY,
        help=_(
            "For a projector: large text and figures, the controls folded into one bar, the sidebar closed. "
            "Page Down / Page Up (a clicker) and ← / → step through the walkthrough and the training snapshots."
        ),
    )


def leave_presenter_view() -> None:
    """on_click of the visible Exit button."""
    st.session_state[PRESENT_KEY] = False
