"""Choices shown with translated labels: the labels, and links that name a choice in any language.

A widget bound to the URL with bind="query-params" writes its shown label (?source=From+the+model in English,
?source=来自模型 in Chinese) and, on opening a link, accepts only a label of the session's language: anything
else is dropped and the default shown. So a link typed by hand with the id (?source=model), an English link
opened by a browser that defaults to Chinese, or a link from before the app spoke Chinese would silently lose
the choice. accept_any_language rewrites such a link to the label Streamlit reads, before the widget is drawn.
"""

from __future__ import annotations

import streamlit as st
from streamlit.errors import StreamlitAPIException

from ..i18n import LANGUAGES, _, translations


def translated_labels(labels: dict) -> dict:
    """{option: label in this session's language} for a widget's format_func (pass `.get` or `__getitem__`).
    Translated now, in the script run: Streamlit's test harness calls format_func again after the run, where the
    session's language is unknown."""
    return {option: _(msgid) for option, msgid in labels.items()}


def accept_any_language(choices: dict[str, dict[str, str]]) -> None:
    """For each {key: {option id: English msgid}}: if ?key= names an option by its id or by its label in a language
    other than this session's, put this session's label in the URL; then rerun once, so the bound widgets open on
    those options. Call it before anything is drawn. Only while a widget has no value yet (a link being opened):
    later the URL follows the widget, never the other way round."""
    rewritten = False
    for key, labels in choices.items():
        value = st.query_params.get(key)
        if key in st.session_state or value is None:
            continue
        shown = translated_labels(labels)
        if value in shown.values():
            continue  # Streamlit reads it as it is
        for option, msgid in labels.items():
            if value == option or value in {translations(lang).gettext(msgid) for lang in LANGUAGES}:
                try:
                    st.query_params[key] = shown[option]
                    rewritten = True
                except StreamlitAPIException:  # already bound to its widget: Streamlit handles the URL
                    pass
                break
    if rewritten:
        st.rerun()
