"""A student's side of a class: follow the teacher or explore alone, and answer the teacher's question.

The follow fragment reruns every FOLLOW_EVERY seconds and only reads the room's version from this server's
memory (services/rooms keeps it current, from pub/sub with Redis); when it has moved, it reruns the app,
whose early call (follow.py) applies the teacher's view. It also keeps the student counted as connected.
"""

from __future__ import annotations

import time
from contextlib import suppress

import streamlit as st

from services.rooms import RoomClosed, RoomError, RoomNotFound, RoomSnapshot

from ..i18n import _
from .answers import answer_pills, distribution, prompt, reveal_line, your_answer_line
from .role import ClassRole, current_role, notice_error, room_store

FOLLOW_EVERY = 0.5  # s between looks at the room's version: the follow latency is this plus one rerun
HEARTBEAT_EVERY = 10.0  # s between student heartbeats (the room counts a student for 30 s after each)


def _room_ended(role: ClassRole, error: RoomError) -> None:
    from .follow import end_class  # follow.py draws this module's question at the top of the page

    end_class(role, error)
    st.rerun(scope="app")


@st.fragment(run_every=FOLLOW_EVERY)
def follow_tick(script: str) -> None:
    """Rerun the app when the teacher's view (or the question) has changed; keep this student counted.
    `script`: the page this session's last full run drew."""
    role = current_role()
    if role is None or role.is_teacher:
        return
    from .follow import run_page_hash, switch_to

    if role.page_hash and run_page_hash() != role.page_hash:
        # The browser's timer asked for this run before it had drawn the page the last full run switched to, so
        # Streamlit runs it on the old page, and the browser clears the page it shows. Draw the right page again.
        role.applied_version = -1
        switch_to(role, script)
    store = room_store()
    try:
        version = store.version(role.code)
        if time.monotonic() - role.heartbeat_at >= HEARTBEAT_EVERY:
            store.student_heartbeat(role.code, role.student_id)
            role.heartbeat_at = time.monotonic()
    except (RoomClosed, RoomNotFound) as exc:
        _room_ended(role, exc)
        return
    except RoomError:
        return  # the backend is away for a moment: try again next time
    if role.following:
        if version != role.applied_version:
            st.rerun(scope="app")
    elif _question_marker(store.snapshot(role.code)) != role.question_seen:
        st.rerun(scope="app")  # an explorer still sees the teacher's questions


def _question_marker(snapshot: RoomSnapshot) -> tuple:
    question = snapshot.question
    return () if question is None else (question.id, snapshot.revealed is not None)


def _explore(role: ClassRole) -> None:
    role.following = False


def _follow(role: ClassRole) -> None:
    role.following = True
    role.applied_version = -1  # apply the teacher's view now


def _leave(role: ClassRole) -> None:
    from .follow import end_class

    with suppress(RoomError):  # leaving a class that has gone is not an error
        room_store().leave(role.code, role.student_id)
    end_class(role)


def student_sidebar(role: ClassRole, script: str) -> None:
    """The class's code, whether this student follows the teacher, and the buttons to change it."""
    st.markdown(_("🎓 **Class {code}**").format(code=role.code))
    if role.following:
        st.caption(_("Your screen follows the teacher's."))
        st.button(_("Explore on my own"), on_click=_explore, args=(role,), width="stretch", key="_class_explore")
    else:
        st.caption(_("You are exploring on your own; the teacher's changes wait until you follow again."))
        st.button(
            _("Follow the teacher"), on_click=_follow, args=(role,), type="primary", width="stretch",
            key="_class_follow",
        )  # fmt: skip
    st.button(_("Leave the class"), on_click=_leave, args=(role,), width="stretch", key="_class_leave")
    follow_tick(script)


# ---- the teacher's question, at the top of the student's page ----------------------------------------------------


def _send_answer(role: ClassRole, question_id: str, key: str) -> None:
    choice = st.session_state.get(key)
    if choice is None:
        return
    try:
        room_store().answer(role.code, role.student_id, question_id, int(choice))
    except RoomError as exc:
        notice_error(exc)


def student_question(role: ClassRole) -> None:
    """The open question with big answer buttons; after the reveal, the answer beside the class's answers."""
    try:
        snapshot = room_store().snapshot(role.code)
    except RoomError:
        return
    role.question_seen = _question_marker(snapshot)
    question = snapshot.question
    if question is None:
        return
    with st.container(border=True):
        st.markdown(_("#### ❓ The teacher asks"))
        st.markdown(prompt(question.kind, question.context))
        key = f"_class_pick_{question.id}"
        revealed = snapshot.revealed
        choice = answer_pills(
            question.kind, question.options, key, on_change=_send_answer, args=(role, question.id, key),
            disabled=revealed is not None,
        )  # fmt: skip
        if revealed is None:
            if choice is not None:
                st.caption(_("Your answer is in. You can change it until the teacher reveals the answer."))
            return
        st.success(reveal_line(question.kind, question.options, revealed.answer))
        st.markdown(your_answer_line(question.kind, question.options, choice, revealed.answer))
        distribution(question.kind, question.options, revealed.counts.counts, revealed.answer, "student_answers")
