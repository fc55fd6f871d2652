""" "Add this view to my lesson": a sidebar button on every page a slide can show, building the session's own lesson.

The slide holds the page's view (views/) as this session shows it, as a class would follow it; settings a lesson
cannot hold (a session's own model) are left out and the slide opens on the page's default for them.
"""

from __future__ import annotations

import streamlit as st

from services.lessons import LANGUAGES, Lesson, LessonError, Slide, add_slide, view_state
from views import SLIDE_PAGES, VIEWS

from ..i18n import N_, _, explain, ngettext, translations
from ..navigation import PAGES as NAV_PAGES
from ..state.session import read
from .state import MINE_KEY, keep_own

NOTICE_KEY = "_lesson_added"  # what the last press did: ("ok", count) or ("full", LessonError)
MINE_ID_KEY = "_lesson_mine_id"  # the library id of the current version of the session's own lesson
MY_LESSON = N_("My lesson")
SLIDE_TEXT = N_("The page “{page}” as it was when this slide was added. Edit this text in the lesson's file.")
TITLES = {spec.url_path: spec.title for spec in NAV_PAGES}


def in_both(msgid: str, **params: object) -> dict[str, str]:
    """{"en": …, "zh": …}: a message in every language of a lesson, formatted."""
    return {lang: translations(lang).gettext(msgid).format(**params) for lang in LANGUAGES}


def view_slide(page: str, session) -> Slide:
    """The slide of this session's current view of `page`."""
    titles = in_both(TITLES[page])
    texts = {lang: translations(lang).gettext(SLIDE_TEXT).format(page=titles[lang]) for lang in LANGUAGES}
    return Slide(page, view_state(read(VIEWS[page], session)), titles, texts)


def _add(page: str) -> None:
    mine = st.session_state.get(MINE_KEY) or Lesson(in_both(MY_LESSON), ())
    try:
        mine = add_slide(mine, view_slide(page, st.session_state))
    except LessonError as exc:
        st.session_state[NOTICE_KEY] = ("full", exc)
        return
    st.session_state[MINE_KEY] = mine
    st.session_state[MINE_ID_KEY] = keep_own(mine, replaces=st.session_state.get(MINE_ID_KEY))
    st.session_state[NOTICE_KEY] = ("ok", len(mine.slides))


def my_lesson_id() -> str | None:
    return st.session_state.get(MINE_ID_KEY)


def add_view_button(page: str) -> None:
    """In the sidebar of a page a slide can show: the button, and what its last press did."""
    if page not in SLIDE_PAGES:
        return
    with st.sidebar:
        st.button(
            _("➕ Add this view to my lesson"), on_click=_add, args=(page,), key="lesson_add_view", width="stretch",
            help=_("Appends this page, with its model, input and settings, as a slide of your own lesson."),
        )  # fmt: skip
        notice = st.session_state.pop(NOTICE_KEY, None)
        if notice is not None and notice[0] == "ok":
            added = ngettext(
                "Added: your lesson has {n} slide now.", "Added: your lesson has {n} slides now.", notice[1]
            )
            st.caption(added.format(n=notice[1]))
        elif notice is not None:
            st.error(explain(notice[1]))
