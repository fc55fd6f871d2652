"""The class's place in the sidebar: Start a class, or the teacher's or the student's panel."""

from __future__ import annotations

import streamlit as st

from ..class_role import current_role
from ..i18n import _
from ..navigation import page_path
from .student import student_sidebar
from .teacher import start_class, teacher_sidebar
from .wake import hold_wakes


def classroom_sidebar(page: st.Page) -> None:
    role = current_role()
    with st.sidebar:
        st.divider()
        if role is None:
            st.button(
                _("Start a class"), on_click=start_class, width="stretch", key="_class_start", icon="🎓",
                help=_("Students open a link or scan a QR code, and their screens follow yours."),
            )  # fmt: skip
        elif role.is_teacher:
            hold_wakes()  # the students' reruns wait for the end of this run (app.py): the teacher's page first
            teacher_sidebar(role, page_path(page))
        else:
            student_sidebar(role)
