"""Presenter view: `?present=true` (or the sidebar's switch) turns every page into a projector view.

app.py calls `presenter_view()` once per run. A page calls `page_header(title, intro)` instead of st.title +
intro, wraps its widgets in `with controls(bar):` (folded for a student following the teacher: `folding()`), and
may step with `step_buttons(...)`; the walkthrough puts each step in `with stage():` so its formula and figure sit
side by side. Charts drawn with ui.charts.show_chart get the projector's fonts and colour scales.
"""

from __future__ import annotations

import streamlit as st

from .fragments import section_fragment
from .keys import StepLabels, step_buttons
from .layout import controls, folding, in_order, page_header, shut, slot, stage, stage_columns
from .state import PRESENT_KEY, presenter_toggle, presenting
from .style import inject_style

__all__ = [
    "PRESENT_KEY", "StepLabels", "controls", "folding", "in_order", "page_header", "presenter_set_up",
    "presenter_view", "presenting", "section_fragment", "shut", "slot", "stage", "stage_columns", "step_buttons",
]  # fmt: skip


SET_UP_KEY = "_presenter_set_up"  # whether the app's last run set the presenter view up (its sidebar, its CSS)


def presenter_view() -> bool:
    """Once per run, after the language switch: the sidebar switch, the sidebar closed while presenting, the CSS."""
    on = presenter_toggle()
    st.session_state[SET_UP_KEY] = on
    st.set_page_config(initial_sidebar_state="collapsed" if on else "auto")
    inject_style(on)
    return on


def presenter_set_up() -> bool:
    """Whether the app's last run set the view up as it is now: False after the page's own Exit button in a page that
    reruns alone (ui/solo_page.py), which then reruns the app to open the sidebar and drop the projector's CSS."""
    return bool(st.session_state.get(SET_UP_KEY, presenting())) == presenting()
