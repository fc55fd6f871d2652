"""Which lesson and which slide a session shows, and the lessons it owns.

The lesson and slide live in the class room's session keys (ui/classroom/registry.FIELDS: `lesson`, `lesson_slide`),
so a class follows the teacher's slide. A lesson is named by an id: a shipped lesson by its file name, an uploaded or
built one by services.lessons.LIBRARY's id (kept server-wide, so the students of a class on this server can open it).
The URL carries ?slide=N (1-based) and, for a lesson other than the default, ?lesson=<id>.
"""

from __future__ import annotations

import streamlit as st

from services.lessons import DEFAULT_LESSON, LIBRARY, Lesson, shipped_lessons

from ..classroom.registry import FIELDS

LESSON_KEY, SLIDE_KEY = FIELDS["lesson"], FIELDS["slide"]
OWN_KEY = "lesson_own"  # {id: Lesson}: the lessons this session uploaded or built (the newest last)
MINE_KEY = "lesson_mine"  # the lesson "add this view" builds (a Lesson), or absent
SHADOW_KEY = "_lesson_at"  # (lesson id, slide) kept while another page is open (widget keys are dropped then)
MAX_OWN = 8  # lessons a session keeps of its own; the oldest go first
URL_SLIDE, URL_LESSON = "slide", "lesson"


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
    """The lesson of this id: shipped, this session's own, or kept on this server; None when unknown."""
    if not isinstance(lesson_id, str):
        return None
    return shipped_lessons().get(lesson_id) or own_lessons().get(lesson_id) or LIBRARY.get(lesson_id)


def _slide_from_url(n_slides: int) -> int:
    try:
        return min(max(int(st.query_params.get(URL_SLIDE, 1)), 1), n_slides)
    except ValueError:
        return 1


def current() -> tuple[str, Lesson, int, bool]:
    """(lesson id, lesson, slide 1-based, whether the lesson asked for was unknown), settled before any widget."""
    session = st.session_state
    shadow = session.get(SHADOW_KEY) or (None, None)
    if LESSON_KEY not in session:
        session[LESSON_KEY] = st.query_params.get(URL_LESSON) or shadow[0] or DEFAULT_LESSON
    lesson_id, unknown = session[LESSON_KEY], False
    lesson = find_lesson(lesson_id)
    if lesson is None:  # an id from another server, or a library that has forgotten it
        unknown, lesson_id = True, DEFAULT_LESSON
        lesson = shipped_lessons()[DEFAULT_LESSON]
        session[LESSON_KEY] = lesson_id
    if SLIDE_KEY not in session:
        same = shadow[0] == lesson_id and isinstance(shadow[1], int)
        session[SLIDE_KEY] = shadow[1] if same else _slide_from_url(len(lesson.slides))
    slide = session[SLIDE_KEY]
    if not isinstance(slide, int) or not 1 <= slide <= len(lesson.slides):
        slide = min(max(slide, 1), len(lesson.slides)) if isinstance(slide, int) else 1
        session[SLIDE_KEY] = slide
    return lesson_id, lesson, slide, unknown


def remember(lesson_id: str, slide: int) -> None:
    """After the widgets: the URL says where we are, and the session remembers it for when the user comes back."""
    st.session_state[SHADOW_KEY] = (lesson_id, slide)
    st.query_params[URL_SLIDE] = str(slide)
    if lesson_id == DEFAULT_LESSON:
        st.query_params.pop(URL_LESSON, None)
    else:
        st.query_params[URL_LESSON] = lesson_id


def go_to(lesson_id: str, slide: int = 1) -> None:
    """Show `lesson_id` at `slide` (in a callback, before the widgets are drawn)."""
    st.session_state[LESSON_KEY] = lesson_id
    st.session_state[SLIDE_KEY] = slide
