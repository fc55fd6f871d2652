"""Which lesson and which slide a session shows, and the lessons it owns.

The lesson and slide are the Lesson page's view (views.LessonView), so a class follows the teacher's slide and
the link holds them (?slide=N, 1-based, and ?lesson=<id> for a lesson other than the default). A lesson is named
by an id: a shipped lesson by its file name, an uploaded or built one by services.lessons.LIBRARY's id (kept
server-wide). In a class, the teacher's lesson is also kept with the room (services.rooms share_lesson, in Redis
when the class runs across servers), so a student on another server than the teacher's opens it too.
"""

from __future__ import annotations

import streamlit as st

from services.lessons import DEFAULT_LESSON, LIBRARY, Lesson, LessonError, parse_lesson, shipped_lessons
from services.lessons.library import PREFIX
from services.rooms import RoomError
from views import LessonView, key_of

from ..class_role import current_role, room_store
from ..state import fit

LESSON_KEY, SLIDE_KEY = key_of(LessonView, "lesson"), key_of(LessonView, "slide")
OWN_KEY = "lesson_own"  # {id: Lesson}: the lessons this session uploaded or built (the newest last)
MINE_KEY = "lesson_mine"  # the lesson "add this view" builds (a Lesson), or absent
MAX_OWN = 8  # lessons a session keeps of its own; the oldest go first


def own_lessons() -> dict[str, Lesson]:
    return st.session_state.setdefault(OWN_KEY, {})


def keep_own(lesson: Lesson, replaces: str | None = None) -> str:
    """Keep `lesson` as this session's (and in the server's library); returns its id."""
    own = own_lessons()
    if replaces is not None:
        own.pop(replaces, None)
    lesson_id = LIBRARY.keep(lesson)
    own.pop(lesson_id, None)
    own[lesson_id] = lesson
    while len(own) > MAX_OWN:
        own.pop(next(iter(own)))
    return lesson_id


def find_lesson(lesson_id: object) -> Lesson | None:
    """The lesson of this id: shipped, this session's own, kept on this server, or kept with this session's class;
    None when unknown."""
    if not isinstance(lesson_id, str):
        return None
    found = shipped_lessons().get(lesson_id) or own_lessons().get(lesson_id) or LIBRARY.get(lesson_id)
    return found or _class_lesson(lesson_id)


def _class_lesson(lesson_id: str) -> Lesson | None:
    """The lesson kept with this session's class, read with the lesson format's strict reader, then kept on this
    server (so the class's other students here do not ask again); None outside a class, or when the room has none."""
    role = current_role()
    if role is None or not lesson_id.startswith(PREFIX):
        return None
    try:
        lesson = parse_lesson(room_store().get_room_lesson(role.code, lesson_id))
    except (RoomError, LessonError):
        return None
    if PREFIX + lesson.digest != lesson_id:  # not the lesson of that name: show none rather than another
        return None
    LIBRARY.keep(lesson)
    return lesson


def current() -> tuple[str, Lesson, bool]:
    """(lesson id, lesson, whether the lesson asked for was unknown), settled before any widget: an unknown lesson
    (an id from another server, or one the library has forgotten) falls back to the default one."""
    session = st.session_state
    lesson_id, unknown = session.get(LESSON_KEY, DEFAULT_LESSON), False
    lesson = find_lesson(lesson_id)
    if lesson is None:
        unknown, lesson_id = True, DEFAULT_LESSON
        lesson = shipped_lessons()[DEFAULT_LESSON]
        session[LESSON_KEY] = lesson_id
    return lesson_id, lesson, unknown


def current_slide(lesson: Lesson) -> int:
    """The slide to show (1-based), settled before the stepper is drawn: a slide `lesson` does not have (a link's
    slide=17 of 16, or one from another lesson) goes back to the first, and a link's is said on the page with this
    lesson's range (ui.state.fit, as a layer the model lacks)."""
    if not isinstance(st.session_state.get(SLIDE_KEY, 1), int):
        st.session_state[SLIDE_KEY] = 1
    fit(LessonView.PAGE, {"slide": len(lesson.slides)})
    return st.session_state.get(SLIDE_KEY, 1)


def go_to(lesson_id: str, slide: int = 1) -> None:
    """Show `lesson_id` at `slide` (in a callback, before the widgets are drawn)."""
    st.session_state[LESSON_KEY] = lesson_id
    st.session_state[SLIDE_KEY] = slide
