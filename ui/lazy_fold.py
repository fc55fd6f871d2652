"""A fold whose body is drawn only while it is open: a stateful st.expander that reruns the page when it opens or
closes. Closed, its widgets are not sent at all; every element a run sends is redrawn by the browser, so a closed
fold of controls cost each edit its share (docs/capacity.md). What its widgets hold stays in the session meanwhile."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator


def lazy_fold(label: str, key: str, *, start_open: bool = False, open_now: bool = False) -> DeltaGenerator | None:
    """The fold kept under `key`: the expander to draw its body into while it is open, else None. It opens the first
    time when `start_open`, and in this run when `open_now`. A stateful expander's identity includes its label, so a
    new label (another language, a setting named in it) is a new expander: it starts as the last one was."""
    was_open = bool(st.session_state.get(key, start_open))
    fold = st.expander(label, expanded=was_open or open_now, key=key, on_change="rerun")
    return fold if fold.open else None
