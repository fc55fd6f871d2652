"""The app's pages in one list, shared by app.py and by the guard at the top of every page script.

Why the guard: with a folder named pages/ beside app.py, Streamlit serves a deep link (say /step-by-step)
as an old-style multipage app until st.navigation has been called once in the server process, running the
bare page script with no sidebar (or showing "Page not found" when the file name differs from the URL
path). Page files are therefore named after their URL paths, and each page first calls `require_entry()`:
when app.py is not the script running it, it runs app.py in place (whose st.navigation switches the server
to the app's own navigation for good, and which then runs this same page), then stops the bare run. The
same run goes on, so nothing the user did is lost. (Streamlit's AppTest decides afresh on every run, so
there every run takes that detour.)
"""

from __future__ import annotations

import runpy
from dataclasses import dataclass

import streamlit as st

from attention_lab.paths import APP_ROOT

from .i18n import N_, _
from .streamlit_private import allow_page_run_again

ENTRY_KEY = "_entry_running"  # set while app.py runs a page
ENTRY_SCRIPT = APP_ROOT / "app.py"


@dataclass(frozen=True)
class PageSpec:
    """One page: its script (named after its URL path), title and icon."""

    script: str
    title: str  # English msgid, translated when the navigation is built
    icon: str
    reruns_alone: bool = False  # for one person outside a class, an edit reruns the page alone (ui/solo_page.py)

    @property
    def url_path(self) -> str:
        return self.script.removeprefix("pages/").removesuffix(".py")


HOME = PageSpec("pages/home.py", N_("Home"), "🏠")
STEP_BY_STEP = PageSpec("pages/step-by-step.py", N_("Step by step"), "🧮", reruns_alone=True)
ATTENTION = PageSpec("pages/attention.py", N_("Attention"), "🔦", reruns_alone=True)
POSITIONAL = PageSpec("pages/positional-encoding.py", N_("Positional encoding"), "〰️", reruns_alone=True)
TRAIN = PageSpec("pages/train.py", N_("Train"), "🏋️")
INSIDE_A_LAYER = PageSpec("pages/inside-a-layer.py", N_("Inside a layer"), "🔬", reruns_alone=True)
RNN_VS_TRANSFORMER = PageSpec("pages/rnn-vs-transformer.py", N_("RNN vs Transformer"), "🔁", reruns_alone=True)
NEXT_TOKEN = PageSpec("pages/next-token.py", N_("Next token"), "✍️", reruns_alone=True)
LESSON = PageSpec("pages/lesson.py", N_("Lesson"), "🎓")
PAGES = (HOME, STEP_BY_STEP, ATTENTION, POSITIONAL, TRAIN, INSIDE_A_LAYER, RNN_VS_TRANSFORMER, NEXT_TOKEN, LESSON)


def app_pages() -> list[st.Page]:
    """st.Page objects for st.navigation, titled in this session's language."""
    return [
        st.Page(p.script, title=_(p.title), icon=p.icon, url_path=None if p is HOME else p.url_path, default=p is HOME)
        for p in PAGES
    ]


def page_path(page: st.Page) -> str:
    """The URL path of a page, as a class publishes it and views are keyed: its file name (the home page is "home")."""
    return page.url_path or "home"


def page_spec(path: object) -> PageSpec | None:
    """The page whose URL path is `path`, or None."""
    return next((spec for spec in PAGES if spec.url_path == path), None)


def run_page(page: st.Page, *, again: bool = False) -> None:
    """app.py runs the chosen page through this, so the page's guard knows app.py is running it; `again`: a fragment's
    own run draws the page its app's run drew (Streamlit lets st.navigation's page run once per run of app.py; in
    a fragment's run app.py does not run, so the page's once is this fragment's)."""
    if again:
        allow_page_run_again(page)
    st.session_state[ENTRY_KEY] = True
    try:
        page.run()
    finally:
        st.session_state[ENTRY_KEY] = False


def require_entry() -> None:
    """First line of every page script: make sure app.py (navigation, sidebar) is what runs this page."""
    if not st.session_state.get(ENTRY_KEY):
        runpy.run_path(str(ENTRY_SCRIPT), run_name="__main__")  # app.py declares the pages and runs this one
        st.stop()  # the page has been drawn by app.py's run: end this bare run of it
