"""A student's side of a class: follow the teacher or explore alone, and answer the teacher's question.

A student's session is woken by the room, not by a timer: each full run registers it with the room (wake.py), and
the server reruns it when the teacher's view moves (or, while it explores, when the question does); that run's
early call (follow.py) applies the teacher's view.
"""

from __future__ import annotations

from contextlib import suppress

import streamlit as st

from model.teach.questions import WRITE
from services.rooms import RoomError

from ..class_role import ClassRole, end_class, notice_error, room_store, set_notice
from ..i18n import N_, _
from .answers import answer_pills, distribution, prompt, reveal_line, your_answer_line
from .missing_model import missing_model_line
from .scroll import scroll_to
from .wake import forget_room, watch_room
from .write import beside_model, write_answer

LEFT = N_("You left class {code}; this page now works on its own.")
QUESTION_BOX = "class_question"  # the key of the question's box (the page scrolls to it when the question moves)


def _student_id(role: ClassRole) -> str:
    """The id the room knows this student by: this module's functions run for a student's role only, which gets it
    when it joins (follow._from_url)."""
    assert role.student_id is not None, "not a student's role"
    return role.student_id


def _leave(role: ClassRole) -> None:
    with suppress(RoomError):  # leaving a class that has gone is not an error
        forget_room(room_store(), role)
        room_store().leave(role.code, _student_id(role))
    end_class(role)
    set_notice(LEFT, "info", code=role.code)


def student_sidebar(role: ClassRole) -> None:
    """The class's code, whether this student follows the teacher (the switch is the bar at the top of the page,
    classroom.following), and Leave."""
    st.markdown(_("🎓 **Class {code}**").format(code=role.code))
    if role.following:
        st.caption(_("Your screen follows the teacher's."))
        missing_model_line(role)
    else:
        st.caption(_("You are exploring on your own; the teacher's changes wait until you follow again."))
    st.button(_("Leave the class"), on_click=_leave, args=(role,), width="stretch", key="_class_leave")
    with suppress(RoomError):  # the room is away for a moment: the next run watches again
        watch_room(room_store(), role)


# ---- the teacher's question, at the top of the student's page ----------------------------------------------------


def _send_answer(role: ClassRole, question_id: str, key: str) -> None:
    choice = st.session_state.get(key)
    if choice is None:
        return
    try:
        room_store().answer(role.code, _student_id(role), question_id, int(choice))
    except RoomError as exc:
        notice_error(exc)


def _my_answer(role: ClassRole, question_id: str) -> int | None:
    """This student's answer as the room holds it (None when unanswered, or the room cannot be read)."""
    try:
        return room_store().my_answer(role.code, _student_id(role), question_id)
    except RoomError:
        return None


def student_question(role: ClassRole) -> None:
    """The open question with big answer buttons; after the reveal, the answer beside the class's answers.

    The answer is the room's (services.rooms my_answer), not only the widget's: a page change gives the buttons a
    fresh widget, which starts from the answer the room holds, so it is never lost."""
    try:
        snapshot = room_store().snapshot(role.code)
    except RoomError:
        return
    marker = snapshot.question_marker
    if marker and marker != role.question_seen:  # a new question, or its reveal: bring the box into view
        scroll_to([QUESTION_BOX], snapshot.version)
    role.question_seen = marker
    question = snapshot.question
    if question is None:
        return
    key = f"_class_pick_{question.id}"
    if st.session_state.get(key) is None:
        stored = _my_answer(role, question.id)
        if stored is not None:
            st.session_state[key] = stored
    with st.container(border=True, key=QUESTION_BOX):
        st.markdown(_("#### ❓ The teacher asks"))
        st.markdown(prompt(question.kind, question.context))
        revealed = snapshot.revealed
        if question.kind == WRITE:  # the candidates, or a typed character
            choice = write_answer(question.options, question.context, key, _send_answer, (role, question.id, key),
                                  disabled=revealed is not None)  # fmt: skip
        else:
            choice = answer_pills(
                question.kind, question.options, key, on_change=_send_answer, args=(role, question.id, key),
                disabled=revealed is not None,
            )  # fmt: skip
        if revealed is None:
            if choice is not None:
                st.caption(_("Your answer is in. You can change it until the teacher reveals the answer."))
            return
        mine = _my_answer(role, question.id)
        mine = choice if mine is None else mine
        words, chart = st.columns([2, 3])  # side by side on a laptop, so the page starts higher; stacked on a phone
        words.success(reveal_line(question.kind, question.options, revealed.answer))
        words.markdown(your_answer_line(question.kind, question.options, mine, revealed.answer))
        counts = revealed.counts.counts
        with chart:
            if question.kind == WRITE:  # the model's probabilities from this page, which follows the teacher's
                beside_model(question.options, list(counts), revealed.answer, "student_answers", None, question.context)
            else:
                distribution(question.kind, question.options, counts, revealed.answer, "student_answers",
                             question.context)  # fmt: skip
