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
    "PRESENT_KEY", "StepLabels", "controls", "folding", "in_order", "page_header", "presenter_view", "presenting",
    "section_fragment", "shut", "slot", "stage", "stage_columns", "step_buttons",
]  # fmt: skip


def presenter_view() -> bool:
    """Once per run, after the language switch: the sidebar switch, the sidebar closed while presenting, the CSS."""
    on = presenter_toggle()
    st.set_page_config(initial_sidebar_state="collapsed" if on else "auto")
    inject_style(on)
    return on
