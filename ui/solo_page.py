"""One person's page reruns alone: an edit on the page reruns the page's fragment, not the app around it.

A full run of the app redraws the navigation, the language switch, the sidebar (the model picker, the chart
format, the class panel, the lesson button) and runs app.py's setup, none of which an edit on the page changes:
~11 of an Attention edit's ~80 messages and a share of its script time (docs/capacity.md, "One person's edit").
A page marked `reruns_alone` (ui.navigation.PageSpec) is therefore drawn inside one `st.fragment` for a session
outside a class; a widget on it reruns that fragment only. Its own run does what app.py does for a page around it:
settle the view's keys before any widget (a widget drawn under a new id keeps its value) and write the link after.
Anything outside the page (the sidebar, the language, another page, a class) is a full run, as before. A class's
sessions do not take this path: a teacher's publish and a student's follow belong to the app's run.
"""

from __future__ import annotations

import streamlit as st

from .navigation import page_path, page_spec, run_page
from .presenter import presenter_set_up
from .sidebar import model_choices
from .state import settle, sync_url
from .streamlit_private import fragment_run


def reruns_alone(page: st.Page) -> bool:
    """Whether this page is drawn in a fragment of its own for one person (PageSpec.reruns_alone)."""
    spec = page_spec(page_path(page))
    return spec is not None and spec.reruns_alone


@st.fragment
def run_solo_page(page: st.Page) -> None:
    """The page; in the fragment's own runs, with the view settled before it and the link written after it."""
    own_run = fragment_run()
    path = page_path(page)
    if own_run and not presenter_set_up():  # the page's Exit left the presenter view: the app's sidebar and CSS
        st.rerun(scope="app")
    if own_run:
        settle(path, model_choices())
    run_page(page, again=own_run)
    if own_run:
        sync_url(path)
