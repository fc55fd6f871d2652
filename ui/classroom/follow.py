"""The one early call in app.py: join or resume a class from the URL, and show a student the teacher's view.

It runs after st.navigation and before any widget of the sidebar or the page, so the teacher's values can
still be written into st.session_state. A student's run_every fragment (student.py) reruns the app when the
room's version moves; this call then applies the room's state and switches to the teacher's page.

Only students apply the room's state. A teacher's own URL names the page and its view (ui/state/links.py keeps
every setting in it), so a teacher who opens a link of theirs, or reloads, lands where it says, and the publish
fragment (teacher.py) moves the class there; applying the room's last state would send them back to its page.
"""

from __future__ import annotations

import streamlit as st

from services.rooms import RoomClosed, RoomError, RoomNotFound, RoomSnapshot, WrongKey
from services.rooms.codes import normalize_code
from services.rooms.schema import PAGE

from ..class_role import (
    KEY_PARAM,
    ROOM_PARAM,
    ClassRole,
    current_role,
    end_class,
    leave_url,
    notice_error,
    room_store,
    set_role,
    show_notice,
    switch_to,
)
from ..models import model_names
from ..navigation import ATTENTION, NEXT_TOKEN, STEP_BY_STEP, TRAIN, page_path, page_spec
from ..streamlit_private import run_page_hash
from . import room_state
from .ask import teacher_question_bar, write_question_panel
from .following import before_apply, follow_bar, full_run_started, go_exploring, touched
from .scroll import changed_keys, scroll_to
from .student import student_question

PANEL_PAGES = frozenset(spec.url_path for spec in (ATTENTION, STEP_BY_STEP, TRAIN))  # pages that draw the ask panel
TRIED_KEY = "_class_tried"  # the (room, key) of the URL this session already tried to join


def follow_room(page: st.Page) -> None:
    """Resume or join the class the URL names; for a following student, apply the teacher's view, unless they have
    just changed it themselves (then they explore on their own: classroom.following)."""
    full_run_started()
    role = current_role() or _from_url()
    if role is not None:
        role.page_hash = run_page_hash()
        _keep_in_url(role)
        if not role.is_teacher and role.following and _drifted(role, page):
            go_exploring(role)
        if not role.is_teacher and (role.applied_version < 0 or role.following):
            _apply_if_moved(role, page)
        elif not role.is_teacher:
            _end_if_closed(role)  # exploring: the teacher's view waits, but the class's end does not
    show_notice()
    role = current_role()
    if role is not None and not role.is_teacher:
        follow_bar(role)
        student_question(role)
    elif role is not None and page_path(page) == NEXT_TOKEN.url_path:
        write_question_panel(role)  # what will the model write next? (above the page, which knows nothing of it)
    elif role is not None and page_path(page) not in PANEL_PAGES:
        teacher_question_bar(role)


def _drifted(role: ClassRole, page: st.Page) -> bool:
    """A following student changed a control of the view, or opened another page than the teacher's."""
    if role.applied_version < 0:
        return False  # joining, or told to apply the teacher's view afresh
    if touched(role, page_path(page)):
        return True
    try:
        snapshot = room_store().snapshot(role.code)
    except RoomError:
        return False
    teacher_page = snapshot.state.get(PAGE)
    same_version = snapshot.version == role.applied_version
    return same_version and isinstance(teacher_page, str) and teacher_page != page_path(page)


def _from_url() -> ClassRole | None:
    """Teacher (the URL's key opens the room), student (room only, or a key that does not), or None."""
    code, key = st.query_params.get(ROOM_PARAM), st.query_params.get(KEY_PARAM)
    if not code or st.session_state.get(TRIED_KEY) == (code, key):
        return None
    st.session_state[TRIED_KEY] = (code, key)
    try:
        store = room_store()
        if key:
            try:
                role = ClassRole(store.teacher_heartbeat(code, key).code, key=key)  # a teacher who reconnects
                set_role(role)
                return role
            except WrongKey as exc:
                notice_error(exc)  # a guessed or stale key: join as a student, without teacher controls
        role = ClassRole(normalize_code(code))
        role.student_id = store.join(role.code)
    except RoomError as exc:
        notice_error(exc, "error")
        leave_url()
        return None
    set_role(role)
    return role


def _keep_in_url(role: ClassRole) -> None:
    """The room (and, for the teacher, the key) stay in the URL across page changes, so a reload resumes."""
    if st.query_params.get(ROOM_PARAM) != role.code:
        st.query_params[ROOM_PARAM] = role.code
    if role.key is not None and st.query_params.get(KEY_PARAM) != role.key:  # a teacher (ClassRole.is_teacher)
        st.query_params[KEY_PARAM] = role.key
    elif not role.is_teacher and KEY_PARAM in st.query_params:
        del st.query_params[KEY_PARAM]


def _end_if_closed(role: ClassRole) -> None:
    """An exploring student's run: if the teacher ended the class (or it expired), say so and go on alone."""
    try:
        room_store().snapshot(role.code)
    except (RoomClosed, RoomNotFound) as exc:
        end_class(role, exc)
    except RoomError:
        pass  # the backend is away for a moment: the next run looks again


def _apply_if_moved(role: ClassRole, page: st.Page) -> None:
    """Apply the room's state if its version moved since this session last did; switch to the teacher's page."""
    try:
        snapshot = room_store().snapshot(role.code)
    except (RoomClosed, RoomNotFound) as exc:
        end_class(role, exc)
        return
    except RoomError:
        return  # the backend is away for a moment: keep the current view
    if snapshot.version == role.applied_version:
        return
    here = page_path(page)
    spec = page_spec(snapshot.state.get(PAGE))
    if spec is not None and spec.url_path != here:
        before_apply(role, here)
        room_state.apply(snapshot.state, st.session_state, model_names())
        role.applied_version = snapshot.version
        switch_to(role, spec.script)
    else:
        apply_here(role, snapshot, here, st.sidebar)


def apply_here(role: ClassRole, snapshot: RoomSnapshot, here: str, where) -> None:
    """Apply the room's view of this page `here` (the teacher is on it), then scroll to what changed; the scroll's
    script goes in `where` (the sidebar in a full run, the page's fragment in its own run)."""
    before = room_state.collect(st.session_state, here)
    before_apply(role, here, before)
    room_state.apply(snapshot.state, st.session_state, model_names())
    role.applied_version = snapshot.version
    after = room_state.collect(st.session_state, here)
    role.followed_page, role.followed_view = here, after  # the teacher's view is no touch of the student's
    scroll_to(changed_keys(here, before, after), snapshot.version, where)
