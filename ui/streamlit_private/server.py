"""The server around the sessions: whether one runs, its event loop, another session by id, and a rerun of it.

Streamlit 1.67 has no public way to reach another browser session (streamlit#2838: rerun another session;
#12306: a sessions API); the class (ui.classroom.wake) wakes each following student's session when the room moves.
AppSession is not thread-safe: everything here that touches a session runs on the server's event loop.
"""

from __future__ import annotations

import asyncio
import functools

from streamlit.proto.ClientState_pb2 import ClientState
from streamlit.runtime import Runtime

from .loop_wakes import coalesce_wakes


def server_running() -> bool:
    """Whether this process serves the app (`Runtime.exists()`); False under AppTest.

    Public replacement: none in 1.67 (`st.runtime.exists()` is the same check under another private name)."""
    return Runtime.exists()


def server_loop() -> asyncio.AbstractEventLoop:
    """Streamlit's own event loop (`Runtime._get_async_objs().eventloop`), where sessions may be touched.

    Public replacement: none in 1.67; st.App's lifespan runs on this loop (asyncio.get_running_loop() there), which
    an app started by `streamlit run app.py` without st.App does not have. streamlit#2838."""
    return Runtime.instance()._get_async_objs().eventloop


def app_session(session_id: str):
    """The AppSession of a connected browser tab by its id, or None (closed, disconnected, or no server).

    Public replacement: none in 1.67 (streamlit#12306)."""
    if not Runtime.exists():
        return None
    return Runtime.instance().get_app_session(session_id)


def session_state_of(session):
    """A session's SessionState (`AppSession.session_state`), to read its values from the event loop.

    Public replacement: none in 1.67 (st.session_state is the running session's only; streamlit#12306)."""
    return session.session_state


def has_fragment(session, fragment_id: str) -> bool:
    """Whether the session still holds the fragment (`AppSession.has_fragment`): a rerun of it alone can run.

    Public replacement: none in 1.67 (streamlit#2838)."""
    return bool(fragment_id) and session.has_fragment(fragment_id)


def rerun_session(session, page_script_hash: str, query_string: str, fragment_id: str = "") -> bool:
    """On the event loop: rerun another session with the widget values it holds, on its page and query string; only
    the fragment `fragment_id` when given. False when its own run changed its widget states just now (try again in a
    moment), else True (`AppSession.request_rerun` with a ClientState).

    Public replacement: streamlit#2838 (rerun another session); none in 1.67."""
    state = ClientState()
    state.page_script_hash = page_script_hash
    state.query_string = query_string
    if fragment_id:
        state.fragment_id = fragment_id
    try:
        widgets = session.session_state.get_widget_states()
    except RuntimeError:
        return False
    state.widget_states.widgets.extend(widgets)
    session.request_rerun(state)
    return True


async def wait_until_settled(session_id: str) -> None:
    """On the event loop: until the session's run is over and every message of it sent (AppSession.track_settling,
    wait_until_settled); at once for a session that has gone. The caller bounds the wait.

    Public replacement: none in 1.67 (streamlit#12306)."""
    session = app_session(session_id) if session_id else None
    if session is not None:
        session.track_settling()  # from now on: a session already tracked keeps its state
        await session.wait_until_settled()


@functools.cache
def coalesce_server_wakes_once() -> bool:
    """Patch the running server's event loop to wake once per burst of messages (loop_wakes.py), once per process
    (app.py runs every rerun); False where there is no server (AppTest) or its loop is not asyncio's selector loop.

    Public replacement: none (asyncio's self-pipe is its own; Streamlit would have to batch its
    call_soon_threadsafe calls); no upstream issue found."""
    if not Runtime.exists():
        return False
    return coalesce_wakes(server_loop()) is not None
