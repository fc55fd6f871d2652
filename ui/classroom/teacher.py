"""A teacher's side of a class: Start a class, the join link and QR code for the projector, the live count of
students, End the class; and the publish fragment that sends the teacher's view to the room.

The publish fragment sits in the sidebar with run_every, so it runs in every full run of the app and also
between them: changes made inside a page's own fragments (the Attention page's layer and head) reach the
class within PUBLISH_EVERY seconds. A full run publishes again at its end (teacher_run_ends) when its page moved
a setting after the sidebar. A view this session already sent is not sent again, only the room kept
alive: a teacher with two tabs (the projector's, and a link opened on a laptop) moves the class from the one
they last changed, instead of each tab pulling it back to its own view twice a second.
"""

from __future__ import annotations

import copy
import json
import os
import time
from contextlib import suppress

import streamlit as st

from attention_lab.command import REDIS_URL_ENV
from model.io.checkpoint import checkpoint_bytes
from services.lessons import shipped_lessons
from services.rooms import InvalidState, RoomClosed, RoomError, RoomNotFound, RoomStore
from services.rooms.schema import PAGE
from views import LessonView

from ..class_role import ClassRole, current_role, end_class, notice_error, room_store, set_notice, set_role
from ..folder_upload import from_folder
from ..i18n import N_, _, explain, ngettext
from ..lesson.files import lesson_bytes
from ..lesson.state import find_lesson
from ..models import user_models
from ..presenter.layout import BAR_ITEMS
from ..sidebar import MODEL_KEY
from ..streamlit_private import fragment_run
from ..trace_cache import is_shared
from . import room_state
from .class_run import share_run
from .join import join_link, qr_png

PUBLISH_EVERY = 0.5  # s between publishes (and heartbeats) of the teacher's view
STALE_FOR = 10.0  # s after a full run during which the browser may still send values from before it
SHOW_JOIN_KEY = "_class_show_join"  # open the join dialog in this run
ENDED_BY_YOU = N_("You ended class {code}.")
BAR_COUNT_KEY = "presenter_class_count"  # the count's box in the presenter bar: one line, the bar's button size
BAR_COUNT_STYLE = f".st-key-{BAR_COUNT_KEY} p {{ white-space: nowrap; font-size: 1.2rem !important; }}"
# From this many students, one server process delivers a teacher's change in more than about a second (docs/
# capacity.md, "A class", the fan-out: 200 students p90 1.1 s on one process, 0.95 s on two): the join dialog
# suggests several processes (`attention-lab --servers 2`).
LARGE_CLASS = 150
SEVERAL_SERVERS = N_(
    "A class this size follows faster from several server processes: start the app with "
    "`bash scripts/app.sh --servers 2` (it needs redis-server and haproxy; docs/capacity.md)."
)
CODE_STYLE = "font-size:4.5rem;font-weight:700;letter-spacing:0.3em;line-height:1.1;font-family:monospace"


def start_class() -> None:
    """Create a room with this session as its teacher (the URL gets ?room=&key= on this run)."""
    try:
        ticket = room_store().create_room()
    except RoomError as exc:
        notice_error(exc, "error")
        return
    role = ClassRole(ticket.code, key=ticket.key)
    role.applied_version = room_store().version(ticket.code)  # a new room has no view to apply
    set_role(role)
    st.session_state[SHOW_JOIN_KEY] = True


def _end(role: ClassRole) -> None:
    with suppress(RoomError):  # already gone: the class is over either way
        room_store().close(role.code, role.teacher_key)
    end_class(role)
    set_notice(ENDED_BY_YOU, "info", code=role.code)


def _show_join() -> None:
    st.session_state[SHOW_JOIN_KEY] = True


def students_line(count: int) -> str:
    return ngettext("**{n}** student connected", "**{n}** students connected", count).format(n=count)


def teacher_sidebar(role: ClassRole, page: str) -> None:
    """The class's code, the live count, and the buttons to show the join link again and to end the class."""
    st.markdown(_("🎓 **Class {code}** · you are the teacher").format(code=role.code))
    publish_tick(page)
    st.button(_("Show the join link"), on_click=_show_join, width="stretch", key="_class_show")
    with st.popover(_("End the class"), width="stretch"):  # one click away from every student's class: confirm
        st.markdown(_("End class **{code}** for everyone? Every student's page goes on alone.").format(code=role.code))
        st.button(
            _("End it for everyone"), on_click=_end, args=(role,), type="primary", width="stretch", key="_class_end"
        )
    if st.session_state.pop(SHOW_JOIN_KEY, False):
        link = join_link(st.context.url, page if page != "home" else "", role.code)
        st.dialog(_("Join the class"), width="large")(_join_dialog)(role, link)


def teacher_in_bar() -> None:
    """The class's code and live student count in the presenter bar (the sidebar is closed while presenting, and
    its count sits below the fold of a 720-pixel projector)."""
    role = current_role()
    if role is not None and role.is_teacher:
        _bar_count(role.code)


@st.fragment(run_every=2.0)
def _bar_count(code: str) -> None:
    try:
        count = room_store().snapshot(code).student_count
    except RoomError:
        return
    words = ngettext("🎓 {code} · **{n}** student", "🎓 {code} · **{n}** students", count).format(code=code, n=count)
    st.html(f"<style>{BAR_COUNT_STYLE}</style>")
    st.container(key=BAR_COUNT_KEY, width="content").markdown(words, width="content")


if teacher_in_bar not in BAR_ITEMS:
    BAR_ITEMS.append(teacher_in_bar)


def _join_dialog(role: ClassRole, link: str) -> None:
    """Large enough for the back of a room: the QR code, the short code and the link (never the key)."""
    st.markdown(_("Open this link or scan the code, on a laptop or a phone:"))
    qr_col, text_col = st.columns([2, 3], vertical_alignment="center")
    qr_col.image(qr_png(link), width=400, alt=_("QR code of the join link"))  # fits a 720-pixel-high projector
    with text_col:
        st.caption(_("Class code"))
        st.markdown(f'<div style="{CODE_STYLE}">{role.code}</div>', unsafe_allow_html=True)
        st.code(link, language=None, wrap_lines=True)
        _dialog_count(role.code)


@st.fragment(run_every=2.0)
def _dialog_count(code: str) -> None:
    try:
        count = room_store().snapshot(code).student_count
    except RoomError as exc:
        st.warning(explain(exc))
        return
    st.markdown(f"### {students_line(count)}")
    if count >= LARGE_CLASS and not os.environ.get(REDIS_URL_ENV):  # one server process holds this class
        st.caption(_(SEVERAL_SERVERS))


@st.fragment(run_every=PUBLISH_EVERY)
def publish_tick(page: str) -> None:
    """Send this view (and models trained or uploaded here, and the run training now) to the room; show how many
    students are connected."""
    full_run = not fragment_run()  # in the app's full run, or in the fragment's own (every PUBLISH_EVERY s)
    role = current_role()
    if role is None or not role.is_teacher:
        return
    try:
        store = room_store()
        _share_models(store, role)
        share_run(store, role)
        view = room_state.collect(st.session_state, page) if full_run else _tick_view(role, page)
        _publish_if_moved(store, role, view)
        snapshot = store.snapshot(role.code)
    except (RoomClosed, RoomNotFound) as exc:
        end_class(role, exc)
        st.rerun(scope="app")
        return
    except RoomError as exc:
        st.warning(explain(exc))
        return
    for error in [*role.refused, *role.shared_errors.values()]:
        st.warning(explain(error))
    st.markdown(students_line(snapshot.student_count))


def teacher_run_ends(page: str) -> None:
    """The end of a teacher's full run (app.py): the page may have moved settings after the sidebar published
    (a layer fitted to the model, the sharpest head of a new input): publish the view it ends on, so its students'
    wakes, held until the teacher's page is sent, carry it; and note what the run moved (see _tick_view)."""
    role = current_role()
    if role is None or not role.is_teacher:
        return
    session = st.session_state
    ended = room_state.held(session, page)
    role.pending = room_state.moved([role.full_run_held, role.tick_held], ended)
    role.pending_since, role.full_run_held = time.monotonic(), ended
    with suppress(RoomError):  # a room gone meanwhile: the next tick ends the class and says so
        _publish_if_moved(room_store(), role, room_state.collect(session, page))


def _tick_view(role: ClassRole, page: str) -> dict:
    """This session's view in a fragment run, with the widget values the last full run moved put back while the
    browser has not caught up with them (room_state.undo_stale). Read on the values, not on the view: the sharpest
    head the run computed for a new input reads as None in the view, as the old one did, yet a browser still sending
    the old head would publish it as a choice."""
    session = st.session_state
    values = role.tick_held = room_state.held(session, page)
    if role.pending and time.monotonic() - role.pending_since < STALE_FOR:
        values = room_state.undo_stale(values, role.pending)
    else:
        role.pending = {}
    return room_state.collect_held(values, session, page)


def _publish_if_moved(store: RoomStore, role: ClassRole, view: dict) -> None:
    """Publish `view` unless this session sent it last; else only keep the room alive, and leave it to another tab of
    ours."""
    if view == role.published:
        store.teacher_heartbeat(role.code, role.teacher_key)
        return
    _share_lesson(store, role, view)
    role.refused = publish_view(store, role, view)
    role.published = view


def publish_view(store: RoomStore, role: ClassRole, state: dict) -> list[InvalidState]:
    """Publish the view `state`; a setting the room refuses (too long, say) is left out, and its error returned,
    so the rest of the view still reaches the class."""
    state, key = copy.deepcopy(state), role.teacher_key
    refused: list[InvalidState] = []
    while True:
        try:
            store.publish(role.code, key, state)
            return refused
        except InvalidState as exc:
            culprit = _culprit(state, exc, key)
            if culprit is None:
                raise
            refused.append(exc)
            _drop(state, culprit)


def _culprit(state: dict, error: InvalidState, key: str) -> str | None:
    """The setting to leave out: the one the error names, else one holding the key, else the largest."""
    named = str(error.params.get("field", ""))
    if named in state and named != PAGE:
        return named
    flat = {name: value for name, value in state.items() if name != PAGE}
    if not flat:
        return None
    holding_key = [name for name, value in flat.items() if key in json.dumps(value)]
    return holding_key[0] if holding_key else max(flat, key=lambda name: len(json.dumps(flat[name])))


def _drop(state: dict, name: str) -> None:
    state.pop(name, None)


def _share_lesson(store: RoomStore, role: ClassRole, view: dict) -> None:
    """Before a view of the Lesson page on an uploaded or built lesson reaches the class: keep that lesson with the
    room, so a student on another server can open it (once per lesson; a refusal is shown like a model's)."""
    lesson_id = view.get("lesson")
    if view.get(PAGE) != LessonView.PAGE or not isinstance(lesson_id, str) or lesson_id in role.shared_lessons:
        return
    lesson = find_lesson(lesson_id)
    if lesson is None or lesson_id in shipped_lessons():
        return
    role.shared_lessons.add(lesson_id)  # tried once per lesson, whatever the outcome
    try:
        store.share_lesson(role.code, role.teacher_key, lesson_id, lesson_bytes(lesson_id, lesson))
    except (RoomClosed, RoomNotFound):
        raise
    except RoomError as exc:
        role.shared_errors[lesson_id] = exc


def _share_models(store: RoomStore, role: ClassRole) -> None:
    """Share with the room each model this teacher trained or uploaded (the one in use first), once per model."""
    mine = user_models()
    selected = st.session_state.get(MODEL_KEY)
    for name in sorted(mine, key=lambda n: n != selected):
        loaded = mine[name]
        if role.shared.get(name) is loaded.model or is_shared(loaded) or from_folder(loaded):  # a folder: too big
            continue
        role.shared[name] = loaded.model  # tried once per model object, whatever the outcome
        role.shared_errors.pop(name, None)
        try:
            store.share_model(role.code, role.teacher_key, name, *checkpoint_bytes(loaded))
        except (RoomClosed, RoomNotFound):
            raise
        except RoomError as exc:
            role.shared_errors[name] = exc
