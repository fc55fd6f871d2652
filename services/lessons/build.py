"""Building a lesson in the app: a slide from a page's current view, appended to a lesson within the limits."""

from __future__ import annotations

from views import PageView, get, to_mapping

from .errors import LessonError
from .lesson import Lesson, Slide
from .parse import check_state
from .schema import LIMITS, PAGES, Limits


def view_state(view: PageView, limits: Limits = LIMITS) -> dict[str, object]:
    """The slide settings of `view`: each lesson setting a lesson file can hold (a session's own model or an input
    over the lesson's limit is left out, so the slide opens on the page's default for it; an unset one too). A page
    no slide can show: {}."""
    if type(view).PAGE not in PAGES:
        return {}
    state: dict[str, object] = {}
    for name, value in to_mapping(view, "lesson").items():
        if value is None:
            continue
        try:
            state |= check_state(type(view).PAGE, {name: get(view, name)}, limits)
        except LessonError:
            continue
    return state


def add_slide(lesson: Lesson, slide: Slide, limits: Limits = LIMITS) -> Lesson:
    """`lesson` with `slide` at the end; LessonError when the lesson already holds the most slides allowed."""
    if len(lesson.slides) >= limits.max_slides:
        raise LessonError(LessonError.FULL, limit=limits.max_slides)
    return Lesson(lesson.title, (*lesson.slides, slide))
