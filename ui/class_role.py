"""This session's part in a class: the teacher (holding the room's key), a student, or none; and its end.

Kept in st.session_state, so it lasts while the browser tab stays connected; the URL carries it too
(?room=CODE, and &key=... for the teacher), so a reload or a second device resumes it. Messages about the
class (a wrong code, the end of the class) wait in the session until shown, translated when shown.

Below ui/classroom/ (and ui/models.py, whose picker lists the models a student's room shares): the class's
panels and its early call in app.py (ui/classroom/follow.py) all build on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import streamlit as st

from services.rooms import RoomClosed, RoomError, RoomNotFound, RoomStore, RoomUnavailable, shared_room_store

from .i18n import LANG_KEY, N_, _, current_language, explain

ROLE_KEY = "_class_role"
NOTICE_KEY = "_class_notice"
ROOM_PARAM, KEY_PARAM = "room", "key"
ENDED = N_("Class {code} has ended; this page now works on its own.")


@dataclass
class ClassRole:
    """A teacher has `key`; a student has `student_id`. Never shown to anyone but this session."""

    code: str
    key: str | None = field(default=None, repr=False)
    student_id: str | None = field(default=None, repr=False)
    following: bool = True  # a student following the teacher (False: exploring on their own)
    applied_version: int = -1  # the room version whose view this session applied last
    question_seen: tuple = ()  # (question id, revealed) this session last drew: an explorer reruns when it moves
    heartbeat_at: float = 0.0  # monotonic time of the student's last heartbeat
    page_hash: str = ""  # the page of this session's last full run (Streamlit's page script hash)
    follow_fragment: str = ""  # student: the id of the fragment a following student's page last ran in (page_fragment)
    shared: dict = field(default_factory=dict, repr=False)  # teacher: model name → the model object shared under it
    shared_errors: dict = field(default_factory=dict, repr=False)  # teacher: model name → why the room refused it
    shared_lessons: set = field(default_factory=set, repr=False)  # teacher: ids of the lessons kept with the room
    full_run_held: dict = field(default_factory=dict, repr=False)  # teacher: the widget values a full run ended on
    tick_held: dict = field(default_factory=dict, repr=False)  # teacher: those the last fragment run got
    pending: dict = field(default_factory=dict, repr=False)  # teacher: settings that run moved (room_state.moved)
    pending_since: float = 0.0  # teacher: monotonic time of that full run
    published: dict | None = field(default=None, repr=False)  # teacher: the view this session last sent the room
    refused: list = field(default_factory=list, repr=False)  # teacher: the settings the room refused of that view
    touched: bool = False  # student: went exploring by changing the view themselves (the bar says so)
    followed_page: str = ""  # student: the page of the last full run while following (classroom.following)
    followed_view: dict = field(default_factory=dict, repr=False)  # student: that run's view at its end
    stale_values: dict = field(default_factory=dict, repr=False)  # student: values the recent applies replaced
    stale_until: float = 0.0  # student: monotonic time until which those may still come back from the browser

    @property
    def teacher_key(self) -> str:
        """The room's key, for the calls only a teacher makes (code that runs for a teacher's role only)."""
        assert self.key is not None, "not the teacher's role"
        return self.key

    @property
    def is_teacher(self) -> bool:
        return self.key is not None


def current_role() -> ClassRole | None:
    role = st.session_state.get(ROLE_KEY)
    return role if isinstance(role, ClassRole) else None


def set_role(role: ClassRole | None) -> None:
    if role is None:
        st.session_state.pop(ROLE_KEY, None)
    else:
        st.session_state[ROLE_KEY] = role


def room_store() -> RoomStore:
    """The server's room store; RoomUnavailable if its backend (Redis) cannot be reached."""
    try:
        return shared_room_store()
    except RoomError:
        raise
    except Exception as exc:  # a broken deployment setting: a message, not a traceback
        raise RoomUnavailable() from exc


def set_notice(template: str, level: str = "warning", **params: object) -> None:
    """Keep a message about the class (an English template marked with N_) to show until dismissed."""
    st.session_state[NOTICE_KEY] = (level, template, params)


def notice_error(error: Exception, level: str = "warning") -> None:
    """Keep an error from services/rooms or model/ (its template and params) as the waiting message."""
    set_notice(getattr(error, "template", None) or str(error), level, **getattr(error, "params", {}))


def _dismiss() -> None:
    st.session_state.pop(NOTICE_KEY, None)


def show_notice() -> None:
    """The waiting message at the top of the page, in this session's language, with a button that dismisses it."""
    notice = st.session_state.get(NOTICE_KEY)
    if notice is None:
        return
    level, template, params = notice
    message_col, button_col = st.columns([6, 1], vertical_alignment="center")
    getattr(message_col, level)(explain(RoomError(template, **params)), icon="🎓")
    button_col.button(_("OK"), key="_class_notice_ok", on_click=_dismiss, width="stretch")


def leave_url() -> None:
    """Take the room and the key out of the URL."""
    for param in (ROOM_PARAM, KEY_PARAM):
        if param in st.query_params:
            del st.query_params[param]


def end_class(role: ClassRole, error: RoomError | None = None) -> None:
    """Forget the class in this session (it ended, or the teacher ended it); the page goes on alone."""
    set_role(None)
    leave_url()
    if isinstance(error, RoomClosed | RoomNotFound) or error is None:
        set_notice(ENDED, "info", code=role.code)
    else:
        notice_error(error)


def switch_to(role: ClassRole, script: str) -> None:
    """st.switch_page, keeping the room (and the teacher's key) and the language in the URL."""
    params = {ROOM_PARAM: role.code, LANG_KEY: current_language()}
    if role.key is not None:  # a teacher (is_teacher)
        params[KEY_PARAM] = role.key
    st.switch_page(script, query_params=params)
