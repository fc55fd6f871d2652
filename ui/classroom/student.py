"""A student's side of a class: follow the teacher or explore alone, and answer the teacher's question.

The follow fragment's run waits (up to WAIT_FOR seconds) for the room's version to move, in this server's
memory (services/rooms keeps it current, from pub/sub with Redis); when it moves, it reruns the app, whose
early call (follow.py) applies the teacher's view. So a follower is told at once, and its browser starts a
fragment run only every FOLLOW_EVERY seconds: each run makes the browser redraw the app, which on a page full
of formulas cost a student's browser ~0.3 CPU-seconds per second at a 0.5 s poll (measured). A follower hears
a change at once only while a run waits, and the runs do not follow each other back to back: with a 3 s timer
and a 2.7 s wait a change took 0.2-2.8 s to show, with 1 s and 0.9 s 0.2-0.8 s (a one-header app in Chromium).
The wait gives way at once to the student's own clicks (Streamlit's yield check); a change inside one of the
page's own fragments waits for the end of the wait. It also keeps the student counted as connected.
"""

from __future__ import annotations

import time
from contextlib import suppress

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.script_run_context import get_run_yield_check

from services.rooms import RoomClosed, RoomError, RoomNotFound, RoomSnapshot

from ..class_role import (
    ClassRole,
    current_role,
    end_class,
    notice_error,
    room_store,
    run_page_hash,
    set_notice,
    switch_to,
)
from ..i18n import N_, _
from .answers import answer_pills, distribution, prompt, reveal_line, your_answer_line
from .following import go_exploring, touched
from .scroll import scroll_to

FOLLOW_EVERY = 1.0  # s: the browser's timer for the follow fragment
WAIT_FOR = 0.9  # s a follower's fragment run waits for the room to change (under FOLLOW_EVERY)
WAIT_SLICE = 0.25  # s between looks at whether the student has clicked something meanwhile
LEFT = N_("You left class {code}; this page now works on its own.")
QUESTION_BOX = "class_question"  # the key of the question's box (the page scrolls to it when the question moves)
HEARTBEAT_EVERY = 10.0  # s between student heartbeats (the room counts a student for 30 s after each)


def _room_ended(role: ClassRole, error: RoomError) -> None:
    end_class(role, error)
    st.rerun(scope="app")


@st.fragment(run_every=FOLLOW_EVERY)
def follow_tick(script: str) -> None:
    """Rerun the app when the teacher's view (or the question) has changed; keep this student counted.
    `script`: the page this session's last full run drew."""
    role = current_role()
    if role is None or role.is_teacher:
        return
    if role.page_hash and run_page_hash() != role.page_hash:
        # The browser's timer asked for this run before it had drawn the page the last full run switched to, so
        # Streamlit runs it on the old page, and the browser clears the page it shows. Draw the right page again.
        role.applied_version = -1
        switch_to(role, script)
    try:
        store = room_store()
        if time.monotonic() - role.heartbeat_at >= HEARTBEAT_EVERY:
            store.student_heartbeat(role.code, role.student_id)
            role.heartbeat_at = time.monotonic()
        if _fragment_run() and touched(role, role.followed_page):  # a control changed in one of the page's fragments
            go_exploring(role)
            st.rerun(scope="app")
        moved = _moved(store, role)
        if not moved and role.following and _fragment_run():
            moved = _wait_for_change(store, role)
    except (RoomClosed, RoomNotFound) as exc:
        _room_ended(role, exc)
        return
    except RoomError:
        return  # the backend is away for a moment: try again next time
    if moved:
        st.rerun(scope="app")


def _moved(store, role: ClassRole) -> bool:
    """A follower: the room's version moved since the view was applied. An explorer: the question changed."""
    if role.following:
        return store.version(role.code) != role.applied_version
    return _question_marker(store.snapshot(role.code)) != role.question_seen


def _fragment_run() -> bool:
    """This is a run of the fragment alone (in a full run of the app, the page must not wait)."""
    ctx = get_script_run_ctx()
    return bool(ctx is not None and ctx.fragment_ids_this_run)


def _wait_for_change(store, role: ClassRole) -> bool:
    """Wait up to WAIT_FOR seconds for the room to move; the student's own click ends the wait at once."""
    give_way = get_run_yield_check()  # raises Streamlit's rerun or stop when a click asks for a new run
    deadline = time.monotonic() + WAIT_FOR
    while (left := deadline - time.monotonic()) > 0:
        store.wait_for_change(role.code, role.applied_version, timeout=min(WAIT_SLICE, left))
        if _moved(store, role):
            return True
        if give_way is not None:
            give_way()
    return False


def _question_marker(snapshot: RoomSnapshot) -> tuple:
    question = snapshot.question
    return () if question is None else (question.id, snapshot.revealed is not None)


def _leave(role: ClassRole) -> None:
    with suppress(RoomError):  # leaving a class that has gone is not an error
        room_store().leave(role.code, role.student_id)
    end_class(role)
    set_notice(LEFT, "info", code=role.code)


def student_sidebar(role: ClassRole, script: str) -> None:
    """The class's code, whether this student follows the teacher (the switch is the bar at the top of the page,
    classroom.following), and Leave."""
    st.markdown(_("🎓 **Class {code}**").format(code=role.code))
    if role.following:
        st.caption(_("Your screen follows the teacher's."))
    else:
        st.caption(_("You are exploring on your own; the teacher's changes wait until you follow again."))
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


def _my_answer(role: ClassRole, question_id: str) -> int | None:
    """This student's answer as the room holds it (None when unanswered, or the room cannot be read)."""
    try:
        return room_store().my_answer(role.code, role.student_id, question_id)
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
    marker = _question_marker(snapshot)
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
            distribution(question.kind, question.options, counts, revealed.answer, "student_answers", question.context)
