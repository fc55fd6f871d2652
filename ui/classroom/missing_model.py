"""A student whose server lacks the teacher's model is told so, instead of a page that quietly shows another model:
a model opened from a folder is on a server only if that server was started with its --model-dir (every server of
`--servers N` is), and one the teacher opened in their browser stays in the teacher's session."""

from __future__ import annotations

import streamlit as st

from services.rooms import RoomError

from ..class_role import ClassRole, room_store
from ..i18n import N_, _
from ..models import model_names, selected_model_name
from ..tokens import md_escape
from .room_state import MODEL

MISSING = N_(
    "The teacher is using **{name}**, which this server does not have: a model opened from a folder is here only when "
    "this server was started with the same `--model-dir`, and one opened in the teacher's browser stays there. Your "
    "page shows **{yours}** instead."
)


def missing_model_line(role: ClassRole) -> None:
    """For a following student: a warning when the room's model is not one this session can pick."""
    if not role.following:
        return
    try:
        name = room_store().snapshot(role.code).state.get(MODEL)
    except RoomError:
        return
    if isinstance(name, str) and name and name not in model_names():
        st.warning(_(MISSING).format(name=md_escape(name), yours=md_escape(selected_model_name())), icon="🧩")
