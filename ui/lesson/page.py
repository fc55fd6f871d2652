"""The Lesson page: choose a lesson, step through its slides, each slide's words beside its live view."""

from __future__ import annotations

import streamlit as st

from services.lessons import Lesson, in_language, shipped_lessons

from ..choices import shown_as
from ..i18n import _, current_language, ngettext
from ..language import keep_on_language_switch
from .add import my_lesson_id
from .files import files_panel
from .links import open_button
from .state import LESSON_KEY, SLIDE_KEY, current, find_lesson, own_lessons, remember
from .stepper import slide_buttons
from .text import inert_markdown
from .views import live_view

keep_on_language_switch(LESSON_KEY, SLIDE_KEY)


def words(texts: dict[str, str], lang: str) -> str:
    return in_language(texts, lang)[0]


def lesson_picker(lesson_id: str, lang: str) -> None:
    """The shipped lessons, then this session's own (uploaded, built), and the one a class shows, by title."""
    lessons: dict[str, Lesson] = dict(shipped_lessons()) | own_lessons()
    if lesson_id not in lessons:  # a class's lesson kept on this server
        lessons[lesson_id] = find_lesson(lesson_id)
    labels = {}
    for key, lesson in lessons.items():
        title = words(lesson.title, lang)
        if key == my_lesson_id():
            n = len(lesson.slides)
            labels[key] = ngettext("{title} (built here, {n} slide)", "{title} (built here, {n} slides)", n).format(
                title=title, n=n
            )
        elif key in own_lessons():
            labels[key] = _("{title} (uploaded)").format(title=title)
        else:
            labels[key] = title
    st.selectbox(_("Lesson"), list(lessons), format_func=shown_as(labels), key=LESSON_KEY, on_change=_first_slide)


def _first_slide() -> None:
    st.session_state[SLIDE_KEY] = 1


def slide_picker(lesson: Lesson, lang: str) -> int:
    labels = {n: f"{n} / {len(lesson.slides)} · {words(s.title, lang)}" for n, s in enumerate(lesson.slides, 1)}
    return st.selectbox(
        _("Slide"), list(labels), format_func=shown_as(labels), key=SLIDE_KEY, label_visibility="collapsed"
    )


def lesson_page() -> None:
    lang = current_language()
    lesson_id, lesson, _slide, unknown = current()
    st.title(_("Lesson"))
    if unknown:
        st.warning(
            _("That lesson is not on this server (it may have been uploaded to another one); here is the shipped one.")
        )
    pick_col, files_col = st.columns([3, 2], vertical_alignment="bottom")
    with pick_col:
        lesson_picker(lesson_id, lang)
    slide_no = slide_buttons(SLIDE_KEY, len(lesson.slides), lambda: slide_picker(lesson, lang))
    slide = lesson.slides[slide_no - 1]
    remember(lesson_id, slide_no)
    with st.container(border=True):
        st.header(inert_markdown(words(slide.title, lang)), anchor=False)
        st.markdown(inert_markdown(words(slide.text, lang)))
        open_button(slide, lang)
        live_view(slide)
    with files_col, st.popover(_("Download, upload"), width="stretch"):
        files_panel(lesson_id, lesson)
