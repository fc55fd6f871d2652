"""Building a lesson in the app: a slide from a page's current view, appended to a lesson within the limits."""

from __future__ import annotations

from collections.abc import Mapping

from .errors import LessonError
from .lesson import Lesson, Slide
from .parse import check_value
from .schema import LIMITS, PAGE_STATE, Limits


def view_state(page: str, values: Mapping[str, object]) -> dict[str, object]:
    """The settings of `values` that page `page` has and that pass its checks (a session's own model, a
    value out of range: left out, so the slide opens on the page's default for it). Unknown page: {}."""
    specs = PAGE_STATE.get(page, {})
    state = {}
    for key, spec in specs.items():
        if key in values:
            try:
                state[key] = check_value(f"state.{key}", spec, values[key])
            except LessonError:
                continue
    return state


def add_slide(lesson: Lesson, slide: Slide, limits: Limits = LIMITS) -> Lesson:
    """`lesson` with `slide` at the end; LessonError when the lesson already holds the most slides allowed."""
    if len(lesson.slides) >= limits.max_slides:
        raise LessonError(LessonError.FULL, limit=limits.max_slides)
    return Lesson(lesson.title, (*lesson.slides, slide))
