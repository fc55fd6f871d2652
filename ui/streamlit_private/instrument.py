"""Hooks into a server's script runs and messages for the benches' timeline (devtools/timeline.py): the app never
installs them. Each wraps one private method of Streamlit's, in this process, from the call on.

Public replacement: none in 1.67 (Streamlit has no run or message hooks; `on_script_error` of st.App sees only
exceptions); no upstream issue found.
"""

from __future__ import annotations

from collections.abc import Callable

from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner.script_runner import ScriptRunner
from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext
from streamlit.web.cli import main as _streamlit_cli

# wrap(run, session id, whether it is a fragment's run): calls run() and returns what it returns
RunWrapper = Callable[[Callable[[], object], str, bool], object]


def wrap_script_runs(wrap: RunWrapper) -> None:
    """Every script run of the server goes through `wrap` (`ScriptRunner._run_script`, `_session_id`, RerunData's
    `fragment_id` and `fragment_id_queue`)."""
    original = ScriptRunner._run_script

    def run_script(self, rerun_data):
        fragment = bool(rerun_data.fragment_id or rerun_data.fragment_id_queue)
        return wrap(lambda: original(self, rerun_data), self._session_id, fragment)

    ScriptRunner._run_script = run_script  # type: ignore[method-assign]


def on_message_enqueued(note: Callable[[], None]) -> None:
    """`note()` in the script thread for each message a run sends (`ScriptRunContext.enqueue`)."""
    original = ScriptRunContext.enqueue

    def enqueue(self, msg):
        note()
        return original(self, msg)

    ScriptRunContext.enqueue = enqueue  # type: ignore[method-assign]


def on_script_finished_sent(note: Callable[[str], None]) -> None:
    """`note(session id)` on the event loop when a run's script_finished message leaves for its browser
    (`Runtime._send_message`)."""
    original = Runtime._send_message

    def send_message(self, session_info, msg):
        original(self, session_info, msg)
        if msg.HasField("script_finished"):
            note(session_info.session.id)

    Runtime._send_message = send_message  # type: ignore[method-assign]


def streamlit_cli() -> None:
    """`python -m streamlit` in this process, reading `run app.py …` from sys.argv (`streamlit.web.cli.main`), for a
    server with the hooks above installed first."""
    _streamlit_cli(prog_name="streamlit")
