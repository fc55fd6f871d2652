"""The Lesson page: choose a lesson, step through its slides, each slide's words and its live view.

Normal view: the pickers, ◀ slide ▶, then the slide's words above its live view. Presenter view (ui.presenter): the
pickers and files fold into one popover named by the slide number, ◀ ▶ sit in the bar, and the words stand in a
narrow column beside the live view so the view starts at the top of the projector's screen."""

from __future__ import annotations

import streamlit as st

from services.lessons import Lesson, in_language, shipped_lessons
from views import LessonView

from ..choices import shown_as
from ..i18n import _, current_language, ngettext
from ..language import keep_on_language_switch
from ..presenter import StepLabels, controls, folding, page_header, presenting, step_buttons
from ..state import sync_url
from ..widths import chart_share
from .add import my_lesson_id
from .files import files_panel
from .links import open_button
from .state import LESSON_KEY, SLIDE_KEY, current, current_slide, own_lessons
from .text import inert_markdown
from .views import live_view

VIEW_SHARE = {True: 0.64, False: 0.96}  # of the page's width, the live view's: beside the words, in the slide's frame

keep_on_language_switch(LESSON_KEY, SLIDE_KEY)


def words(texts: dict[str, str], lang: str) -> str:
    return in_language(texts, lang)[0]


def lesson_picker(lesson_id: str, picked: Lesson, lang: str) -> None:
    """The shipped lessons, then this session's own (uploaded, built), and the one a class shows, by title."""
    lessons: dict[str, Lesson] = dict(shipped_lessons()) | own_lessons()
    if lesson_id not in lessons:  # a class's lesson kept on this server
        lessons[lesson_id] = picked
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


def slide_stepper(lesson: Lesson, lang: str, bar=None, fold=None) -> int:
    """◀ Previous | slide picker | Next ▶, with Page Up / Page Down and ← / → (ui.presenter.step_buttons)."""
    labels = StepLabels(
        _("◀ Previous"), _("Next ▶"), _("Previous slide (Page Up or ←)"), _("Next slide (Page Down or →)")
    )
    slides = range(1, len(lesson.slides) + 1)
    slide_no = step_buttons(
        SLIDE_KEY, slides, labels, button_key="lesson", where=bar, fold=fold, arrows_always=True,
        middle=lambda: slide_picker(lesson, lang),
    )  # fmt: skip
    assert slide_no is not None  # step_buttons returns middle()'s value, and middle is given
    return slide_no


def slide_words(slide, lang: str) -> None:
    st.header(inert_markdown(words(slide.title, lang)), anchor=False)
    st.markdown(inert_markdown(words(slide.text, lang)))
    open_button(slide, lang)


def render(view: LessonView, *, slide: bool = False) -> None:
    """The Lesson page (the view's lesson and slide are in the session's keys; no slide shows this page)."""
    lang = current_language()
    lesson_id, lesson, unknown = current()
    bar = page_header(_("Lesson"))
    if unknown:
        st.warning(
            _("That lesson is not on this server (it may have been uploaded to another one); here is the shipped one.")
        )
    slide_no = current_slide(lesson)
    if presenting() or folding():  # folding: a following student sees the teacher's slide first
        with controls(bar, f"{slide_no} / {len(lesson.slides)}") as folded:
            lesson_picker(lesson_id, lesson, lang)
            slide_no = slide_stepper(lesson, lang, bar, folded)
            if not folding():
                files_panel(lesson_id, lesson)
    else:
        pick_col, files_col = st.columns([3, 2], vertical_alignment="bottom")
        with pick_col:
            lesson_picker(lesson_id, lesson, lang)
        slide_no = slide_stepper(lesson, lang)
        with files_col, st.popover(_("Download, upload"), width="stretch"):
            files_panel(lesson_id, lesson)
    shown = lesson.slides[slide_no - 1]
    sync_url(LessonView.PAGE)  # the slide the stepper moved to, before the slide's view draws
    with st.container(border=True):
        if presenting():
            words_col, view_col = st.columns([1, 2], gap="medium")
            with words_col:
                slide_words(shown, lang)
            with view_col, chart_share(VIEW_SHARE[True]):
                live_view(shown)
        else:
            slide_words(shown, lang)
            with chart_share(VIEW_SHARE[False]):
                live_view(shown)
