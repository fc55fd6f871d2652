""" "Open this view": the slide's page with the slide's settings, in this session and in the page's URL.

A slide's settings use the class room's names (services.lessons.schema); ui/classroom/registry maps them to the
session keys the pages' widgets use. The button's callback writes those keys (before any widget exists, so the
sidebar's model picker takes the slide's model too), then the page opens with the settings its widgets keep in the
URL written the way those widgets write them (1-based layer and head, labels in this language) and lang=.
"""

from __future__ import annotations

import streamlit as st

from services.lessons import Slide

from ..attention.view import KINDS
from ..classroom.registry import EXTRAS, FIELDS
from ..i18n import LANG_KEY, _
from ..navigation import PAGES
from ..walkthrough.example import MASK_LABELS
from ..walkthrough.state import SOURCE_LABELS

OPEN_KEY = "_lesson_open"  # the page script and URL parameters the button asked for
SCRIPTS = {spec.url_path: spec.script for spec in PAGES}
LABELS = {"kind": KINDS, "source": SOURCE_LABELS, "mask": MASK_LABELS}  # the URL holds the shown label
PLAIN = {"model", "input", "target", "step", "query", "d_model", "length", "rnn_part", "bottleneck_task"}  # the value
ONE_BASED = {"layer", "head"}  # the URL holds the shown number


def session_key(name: str) -> str:
    """The session key of a slide setting: a room field's key, or an extra under its own name."""
    if name in FIELDS:
        return FIELDS[name]
    if name in EXTRAS:
        return name
    raise KeyError(name)


def url_value(name: str, value: object) -> str | None:
    """How a URL-bound widget writes this setting, or None for a setting kept only in the session (or off)."""
    if name in LABELS:
        return _(LABELS[name][value])
    if name in ONE_BASED:
        return str(int(value) + 1)
    if name in PLAIN and value is not None:
        return str(value)
    if name == "no_pe" and value is True:
        return "true"
    return None


def url_params(slide: Slide, lang: str) -> dict[str, str]:
    """The query parameters the slide's page shows for these settings, and lang=."""
    params = {LANG_KEY: lang}
    for name, value in slide.state.items():
        if name == "model":
            continue  # bound to the sidebar's picker on this page too: the picker writes it (from the session)
        if (shown := url_value(name, value)) is not None:
            params[session_key(name)] = shown
    return params


def _open(slide: Slide, lang: str) -> None:
    for name, value in slide.state.items():
        st.session_state[session_key(name)] = value
    st.session_state[OPEN_KEY] = (SCRIPTS[slide.page], url_params(slide, lang))


def open_button(slide: Slide, lang: str) -> None:
    """The button; when pressed on the last run, the page opens now."""
    target = st.session_state.pop(OPEN_KEY, None)
    if target is not None:
        st.switch_page(target[0], query_params=target[1])
    st.button(
        _("Open this view ↗"), on_click=_open, args=(slide, lang), key="lesson_open",
        help=_("The full page with this slide's model, input and settings, to explore on your own."),
    )  # fmt: skip
