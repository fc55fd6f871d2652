"""Until the teacher reveals the answer, a student's page does not give it away.

A question asks what the model computed for the teacher's view: one attention row (a head of a layer of a kind),
the next token, or what a GPT will write next (the Next token page's bars). That number is on many parts of the
pages a class follows: the focused head, the head view, the overview, the summaries (a mean over heads, the
rollout), the walkthrough's softmax bars and formulas, the model's output line, the exports and every chart's hover
data. Blanking each of them would leave one forgotten; so while a question is open and not revealed, a student on a
page that draws the model's numbers sees the page's title and a line saying it comes back at the reveal (the
question, with its answer buttons, stays at the top).
The reveal moves the room's version, so every follower redraws the page at once; an explorer reruns when the
question's marker moves (student.py).
"""

from __future__ import annotations

import streamlit as st

from services.rooms import RoomError

from ..class_role import current_role, room_store
from ..i18n import _
from ..navigation import ATTENTION, INSIDE_A_LAYER, LESSON, NEXT_TOKEN, RNN_VS_TRANSFORMER, STEP_BY_STEP

HELD_PAGES = frozenset(
    spec.url_path for spec in (ATTENTION, STEP_BY_STEP, INSIDE_A_LAYER, RNN_VS_TRANSFORMER, NEXT_TOKEN, LESSON)
)


def answer_hidden(page_path: str) -> bool:
    """Is this session a student of a class whose question is open and unrevealed, on a page that could show it?"""
    role = current_role()
    if role is None or role.is_teacher or page_path not in HELD_PAGES:
        return False
    try:
        snapshot = room_store().snapshot(role.code)
    except RoomError:
        return False  # the class has ended or is away: the page works on its own
    return snapshot.question is not None and snapshot.revealed is None


def hold_back(page: st.Page, page_path: str) -> bool:
    """Draw the held page (its title and why it waits) instead of the page, and say so; False: draw the page."""
    if not answer_hidden(page_path):
        return False
    st.title(page.title)
    st.info(
        _("This page comes back when the teacher reveals the answer: its figures would give the answer away."),
        icon="🙈",
    )
    return True
