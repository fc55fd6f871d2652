""" "Open this view": the slide's page with the slide's view (views/), in this session and in the page's link.

The button's callback writes the view into the session's keys (before any widget exists, so the sidebar's model
picker takes the slide's model too); the page then opens with the view's own link parameters and lang=.
"""

from __future__ import annotations

import streamlit as st

from services.lessons import Slide
from views import PageView, get, to_params
from views.base import fields

from ..i18n import LANG_KEY, _
from ..navigation import PAGES
from ..state import apply_view
from .views import shown_view

OPEN_KEY = "_lesson_open"  # the page script and URL parameters the button asked for
SCRIPTS = {spec.url_path: spec.script for spec in PAGES}


def url_params(view: PageView, lang: str) -> dict[str, str]:
    """The query parameters of a slide's view, and lang=."""
    return {LANG_KEY: lang} | to_params(view)


def _open(slide: Slide, lang: str) -> None:
    """The slide's view as it shows now (what was written on it live too) into the session and the page's link."""
    view, written = shown_view(slide), slide.view()
    changed = {f.name for f in fields(type(view)) if get(view, f.name) != get(written, f.name)}
    apply_view(view, set(slide.state) | changed)
    st.session_state[OPEN_KEY] = (SCRIPTS[slide.page], url_params(view, lang))


def open_button(slide: Slide, lang: str) -> None:
    """The button; when pressed on the last run, the page opens now."""
    target = st.session_state.pop(OPEN_KEY, None)
    if target is not None:
        st.switch_page(target[0], query_params=target[1])
    st.button(
        _("Open this view ↗"), on_click=_open, args=(slide, lang), key="lesson_open",
        help=_("The full page with this slide's model, input and settings, to explore on your own."),
    )  # fmt: skip
