"""A following student's page runs in a fragment, which the server reruns alone when the teacher moves on.

A follower's full rerun paid for the whole app around the page (navigation, the sidebar, the language switch, the
class's bars, the URL): about half its CPU (docs/capacity.md, "A class"), once per student for each change. The page
is what changes, so a following student's page is drawn inside one `st.fragment`; when the room moves, the server
reruns only that fragment (ui.classroom.wake), which applies the teacher's view to this page and draws it again.
Anything the fragment cannot show alone — the teacher went to another page, a question opened or was revealed, the
class ended, the student changed a control — reruns the whole app, which does it as before (follow.py). The
fragment's own run is recorded (fanout.py), so the students whose sessions were alike get it without running it.
"""

from __future__ import annotations

from contextlib import nullcontext

import streamlit as st

from services.rooms import RoomError
from services.rooms.schema import PAGE

from ..class_role import ClassRole, current_role, room_store
from ..navigation import page_path, run_page
from ..solo_page import reruns_alone, run_solo_page
from ..streamlit_private import fragment_run, running_fragment_id
from .fanout import Recorder
from .follow import apply_here
from .following import go_exploring, remember_view, touched
from .wake import release_wakes


def run_followed_page(navigation: st.Page) -> None:
    """app.py's page: a following student's in the follow fragment; one person's outside a class in a fragment of its
    own when the page reruns alone (ui/solo_page.py); anyone else's as it is."""
    role = current_role()
    if role is None and reruns_alone(navigation):
        run_solo_page(navigation)
        return
    if role is None or role.is_teacher or not role.following:
        run_page(navigation)
        return
    _follow_fragment(navigation)


@st.fragment
def _follow_fragment(navigation: st.Page) -> None:
    """The page; in the fragment's own runs, first the teacher's view of it (or the whole app, when that cannot
    do)."""
    own_run = fragment_run()
    role = current_role()
    recording = Recorder() if own_run and role is not None else nullcontext()
    with recording as recorder, st.container():  # the page in a container of its own: fanout.py says why
        if own_run and (role is None or not _caught_up(role, page_path(navigation))):
            release_wakes()  # this student's place in the class's queue goes to the next one; the app's run follows
            st.rerun(scope="app")
        if role is not None:
            role.follow_fragment = running_fragment_id()
        ended = False
        try:
            run_page(navigation, again=own_run)
            ended = True
        finally:
            if own_run:
                remember_view(page_path(navigation))
                if ended and isinstance(recorder, Recorder) and role is not None and role.following:
                    recorder.keep(role)  # before the next student's turn: they may take this run
                release_wakes()


def _caught_up(role: ClassRole, here: str) -> bool:
    """The fragment's own run: apply the room's view if it moved and stays on this page. False when the whole app
    must run instead (not following, the student changed a control, another page, a question moved, the room is
    away or ended: follow.py says what to do)."""
    if role.is_teacher or not role.following:
        return False
    if touched(role, here):
        go_exploring(role)
        return False
    try:
        snapshot = room_store().snapshot(role.code)
    except RoomError:
        return False
    if snapshot.question_marker != role.question_seen or snapshot.state.get(PAGE) != here:
        return False
    if snapshot.version != role.applied_version:
        apply_here(role, snapshot, here, st)
    return True
