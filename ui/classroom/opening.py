"""A question as the asking session keeps it (with its true answer and evidence), and opening it in the class's room,
which gets only what students may see: the one place the Attention, Step-by-step, Next token and Train pages' questions
are made and sent."""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import streamlit as st

from services.rooms import RoomError

from ..class_role import ClassRole, room_store
from ..i18n import explain

ROOM_FIELDS = ("id", "kind", "options", "context")  # what the room (and every student) gets of a question


def new_question(
    kind: str, options: Sequence[str], context: dict, answer: int | None, evidence: dict, **extra: object
) -> dict:
    """A fresh question (a new id, not revealed); `answer` None: the run answers it later (copy_ask.py)."""
    return {
        "id": secrets.token_hex(6), "kind": kind, "options": list(options), "context": context, "answer": answer,
        "evidence": evidence, "revealed": False, **extra,
    }  # fmt: skip


def open_in_room(role: ClassRole, question: dict) -> bool:
    """Open `question` in the class's room (its students' fields only); False after an error shown on the page."""
    try:
        room_store().ask(role.code, role.teacher_key, {k: question[k] for k in ROOM_FIELDS})
    except RoomError as exc:
        st.error(explain(exc))
        return False
    return True
