"""The running script's own run, read from Streamlit's ScriptRunContext (streamlit.runtime: no public API).

`st.context` (public) gives a session's headers, cookies, URL and locale, but not which fragment is running, which
page script the run draws, which widget keys it has registered so far, or the session's id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from streamlit import runtime
from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState, get_script_run_ctx
from streamlit.runtime.state.common import user_key_from_element_id


@dataclass(frozen=True)
class RunIdentity:
    """Which session runs the script, on which page, with which query string (what a rerun of it asks for)."""

    session_id: str
    page_script_hash: str
    query_string: str


def fragment_run() -> bool:
    """Whether this run is a fragment's own run (the app around it does not run): Streamlit lists the fragments it
    reruns in `ScriptRunContext.fragment_ids_this_run`; a full run lists none.

    Public replacement: none in 1.67 (`st.fragment` runs the body but does not tell it whether the app runs too;
    `st.rerun(scope="fragment")` only raises outside a fragment's run); no upstream issue found."""
    context = get_script_run_ctx()
    return bool(context is not None and context.fragment_ids_this_run)


def running_fragment_id() -> str:
    """The id of the fragment whose body is running now, "" outside one (`ThreadState.get().fragment_id`): a
    following student's page fragment, which the server reruns alone when the room moves (ui.classroom.wake).

    Public replacement: none in 1.67 (a fragment's id is Streamlit's own); with a public way to rerun another
    session's fragment (streamlit#2838) the lab would not need it."""
    return ThreadState.get().fragment_id or ""


def run_page_hash() -> str:
    """The page this run draws: Streamlit's hash of the page script (`ScriptRunContext.page_script_hash`; a fragment
    run carries the one its browser asked with), "" outside a run. A rerun of another session names its page so.

    Public replacement: `st.navigation(...)` returns the page (its `url_path`), but a rerun request (ClientState)
    names the hash; with streamlit#2838 the hash would not be needed."""
    context = get_script_run_ctx()
    return context.page_script_hash if context is not None else ""


def run_identity() -> RunIdentity | None:
    """This run's session id, page script hash and query string; None outside a script run.

    Public replacement: none for the session id in 1.67; another session is woken by its id (streamlit#2838,
    #12306)."""
    context = get_script_run_ctx()
    if context is None:
        return None
    return RunIdentity(context.session_id, context.page_script_hash, context.query_string)


def registered_user_keys() -> frozenset[str]:
    """The widget and element keys registered so far in this run (`ctx.shared.widget_user_keys_this_run`), empty
    outside a run. A fold notes the keys drawn inside it; a chart picks the next key no element has taken.

    Public replacement: none in 1.67 (Streamlit raises DuplicateWidgetID for a taken key, but lists none); no
    upstream issue found."""
    context = get_script_run_ctx()
    return frozenset(context.shared.widget_user_keys_this_run.snapshot()) if context is not None else frozenset()


def user_key_of_element(element_id: str) -> str | None:
    """The user key an element was drawn with, from its element id (Streamlit writes the key into the id), or None
    for an element drawn without one: tests and the load client tell an in-place chart by its key.

    Public replacement: none in 1.67 (the element id's layout is Streamlit's own); no upstream issue found."""
    return user_key_from_element_id(element_id)


def session_alive_check() -> Callable[[], bool] | None:
    """A thread-safe "is this browser session still connected?" check for a thread that outlives the run (a training
    job), or None outside a server (`Runtime.is_active_session`).

    Public replacement: none in 1.67 (`st.context` has no connection state); the sessions API asked for in
    streamlit#12306 would give it."""
    context = get_script_run_ctx()
    if not runtime.exists() or context is None:
        return None
    instance, session_id = runtime.get_instance(), context.session_id
    return lambda: instance.is_active_session(session_id)


def allow_page_run_again(page) -> None:
    """Let `page.run()` run the page st.navigation chose once more in this script run (`StreamlitPage._can_be_called`,
    which st.navigation sets and page.run() clears): a fragment's own run draws the page its app's run drew, and in a
    fragment's run st.navigation does not run again.

    Public replacement: none in 1.67 (page.run() raises when called twice in one run of the app); no upstream issue
    found."""
    page._can_be_called = True
