"""The one door to Streamlit's private internals: every private name of Streamlit the lab uses, and every patch.

Anything of Streamlit's beyond its public API (`streamlit` as st, st.components.v1/v2, streamlit.testing.v1,
streamlit.delta_generator's DeltaGenerator type) is reached here and nowhere else (tests/test_layers.py checks it),
one function per need, each saying why it exists and which public API would replace it. Other modules import this
package, never its modules, but for two the app does not load: `wire` (Streamlit's wire messages, for the load
client) and `instrument` (the benches' timeline hooks). tests/app/test_streamlit_private.py fails, naming the
function, when an upgrade of Streamlit takes away what one reaches for; docs/streamlit-internals.md lists them with
the measurements behind them.

- run_context: the running script's own run (fragment or full, its page, its session, the keys it registered).
- server: the server's event loop, another session by id, a rerun of it (the class's wakes).
- replay: one session's recorded fragment run sent to another session (the class's fan-out).
- config: Streamlit's options read without its config lock (a patch of config.get_option).
- loop_wakes: asyncio's self-pipe write skipped while a wake is pending (a patch of Streamlit's server loop).
- wire: Streamlit's protobuf messages, re-exported (devtools/load/ speaks to a server as a browser does).
- instrument: hooks into script runs and messages for devtools/timeline.py.
- SessionStateProxy: the type of st.session_state, for annotations.
"""

from __future__ import annotations

from streamlit.runtime.state import SessionStateProxy

from .config import read_options_without_lock_once
from .replay import (
    Message,
    RunMessages,
    fragment_container,
    is_trigger,
    send_fragment_run,
    session_idle,
    set_by_run,
    state_items,
)
from .run_context import (
    RunIdentity,
    allow_page_run_again,
    fragment_run,
    registered_user_keys,
    run_identity,
    run_page_hash,
    running_fragment_id,
    session_alive_check,
    user_key_of_element,
)
from .server import (
    app_session,
    coalesce_server_wakes_once,
    has_fragment,
    rerun_session,
    server_loop,
    server_running,
    session_state_of,
    wait_until_settled,
)

__all__ = [
    "Message", "RunIdentity", "RunMessages", "SessionStateProxy", "allow_page_run_again", "app_session",
    "coalesce_server_wakes_once", "fragment_container", "fragment_run", "has_fragment", "is_trigger",
    "read_options_without_lock_once", "registered_user_keys", "rerun_session", "run_identity", "run_page_hash",
    "running_fragment_id", "send_fragment_run", "server_loop", "server_running", "session_alive_check",
    "session_idle", "session_state_of", "set_by_run", "state_items", "user_key_of_element", "wait_until_settled",
]  # fmt: skip
