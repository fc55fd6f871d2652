"""The language switch in the sidebar (English / 中文), kept in the URL as ?lang=en|zh.

The switch is not bound to the URL with Streamlit's bind="query-params", because that writes the shown
label (?lang=中文); instead the URL is read once when the session starts and written on every run, so
every link carries its language.
"""

from __future__ import annotations

import streamlit as st

from views import VIEWS, fields

from .i18n import LANG_KEY, LANGUAGES, browser_language

VIEW_KEYS = {f.control.key for cls in VIEWS.values() for f in fields(cls)} - {LANG_KEY}  # every page's controls
# Other widgets whose options are shown translated. Streamlit keeps a choice as its shown label, so on a switch
# these are set again from their values, to be shown in the new language instead of reset.
KEEP_ON_SWITCH: set[str] = set()


def keep_on_language_switch(*keys: str) -> None:
    """Register widget keys whose translated option labels must survive a language switch."""
    KEEP_ON_SWITCH.update(keys)


def _carry_choices_over() -> None:
    for key in KEEP_ON_SWITCH | VIEW_KEYS:
        if key in st.session_state:
            st.session_state[key] = st.session_state[key]


def _language_at_start() -> str:
    """?lang= when given (an unknown value reads as English), else the browser's language."""
    if LANG_KEY in st.query_params:
        lang = st.query_params.get(LANG_KEY)
        return lang if lang in LANGUAGES else "en"
    return browser_language()


def language_switch() -> str:
    """English / 中文 at the top of the sidebar; returns the session's language."""
    # Set on every run, not only the first: when the switch is drawn as another widget than on the last run (its
    # id carries the running script: AppTest reruns a page script itself, whose guard then runs app.py inside it),
    # it forgot its value and fell back to English; in the browser, following a link to another page did the same
    # (measured: the sidebar turned English and ?lang= left the URL). A value set in the run is what it shows.
    lang = st.session_state.get(LANG_KEY)
    st.session_state[LANG_KEY] = lang if lang in LANGUAGES else _language_at_start()
    lang = st.sidebar.segmented_control(
        "English / 中文",
        list(LANGUAGES),
        format_func=LANGUAGES.__getitem__,
        required=True,
        key=LANG_KEY,
        on_change=_carry_choices_over,
        label_visibility="collapsed",
        width="stretch",
    )
    assert lang is not None  # required, and its key holds a language (set above): the switch is never empty
    if st.query_params.get(LANG_KEY) != lang:
        st.query_params[LANG_KEY] = lang
    return lang
