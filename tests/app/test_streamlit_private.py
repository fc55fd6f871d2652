"""ui.streamlit_private, one test per function: each fails naming the function when the installed Streamlit lacks what
it reaches for (a module, a class, a method with its parameters, an attribute its instances carry), and runs it for
real where that is cheap (a script run under AppTest: its context, a fragment, widget keys, the messages it sends, a
SessionState's values).

The two patches are run for real in tests of their own: tests/app/test_streamlit_config_reads.py (config.get_option
without the lock) and tests/app/test_loop_wakes.py (the event loop's self-pipe)."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Literal

import pytest
import streamlit
from streamlit import config
from streamlit.navigation.page import StreamlitPage
from streamlit.runtime import Runtime
from streamlit.runtime.app_session import AppSession, AppSessionState
from streamlit.runtime.scriptrunner.script_runner import ScriptRunner
from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext
from streamlit.runtime.scriptrunner_utils.shared_run_state import SharedRunState
from streamlit.runtime.state.session_state import KeyIdMapper, SessionState, WStates
from streamlit.testing.v1 import AppTest

import ui.streamlit_private as door
from ui.streamlit_private import instrument, wire

VERSION = streamlit.__version__


def reaches(function: str, owner: object, *names: str) -> None:
    """`owner` (a class or module) has every attribute in `names`; else fail naming the adapter function."""
    missing = [name for name in names if not hasattr(owner, name)]
    assert not missing, f"ui.streamlit_private.{function}: Streamlit {VERSION}'s {owner!r} has no {missing}"


def carries(function: str, cls: type, *names: str) -> None:
    """`cls`'s instances carry each of `names`: a dataclass field, or an attribute its source sets on self."""
    fields = {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set()
    source = inspect.getsource(cls)
    missing = [n for n in names if n not in fields and f"self.{n} " not in source and f"self.{n}:" not in source]
    assert not missing, f"ui.streamlit_private.{function}: Streamlit {VERSION}'s {cls.__name__} has no {missing}"


def takes(function: str, method, *params: str) -> None:
    """`method` takes the parameters `params` first (after self)."""
    found = [p for p in inspect.signature(method).parameters if p != "self"]
    assert found[: len(params)] == list(params), (
        f"ui.streamlit_private.{function}: Streamlit {VERSION}'s {method.__qualname__} takes {found}, not {params}"
    )


def test_every_function_of_the_door_has_its_test_here():
    tested = {name.removeprefix("test_") for name in globals() if name.startswith("test_")}
    functions = {name for name in door.__all__ if inspect.isfunction(getattr(door, name))}
    assert functions - tested == set(), f"functions of ui.streamlit_private without a test: {functions - tested}"


def _script():
    """Under AppTest: what the run-context functions see, kept in session state for the tests below."""
    import streamlit as st

    from ui import streamlit_private as door

    st.text_input("a box", key="box_key")
    st.session_state.seen = {
        "fragment_run": door.fragment_run(), "keys": door.registered_user_keys(), "page": door.run_page_hash(),
        "identity": door.run_identity(), "alive": door.session_alive_check(), "outside": door.running_fragment_id(),
    }  # fmt: skip

    @st.fragment
    def part():
        st.session_state.in_fragment = (door.fragment_run(), door.running_fragment_id())

    part()
    with st.container(), door.RunMessages() as run, st.container():  # the page's first container, as page_fragment's
        st.write("recorded")
    st.session_state.recorded = (run.messages, run.state, run.fragment_ids)


@pytest.fixture(scope="module")
def ran() -> AppTest:
    at = AppTest.from_function(_script, default_timeout=60).run()
    assert not at.exception, at.exception
    return at


def test_fragment_run(ran):
    reaches("fragment_run", door.run_context, "get_script_run_ctx")
    carries("fragment_run", ScriptRunContext, "fragment_ids_this_run")
    assert ran.session_state.seen["fragment_run"] is False  # the app's run
    assert ran.session_state.in_fragment[0] is False  # a fragment's body drawn by the app's run: still the app's


def test_running_fragment_id(ran):
    reaches("running_fragment_id", door.run_context.ThreadState, "get")
    outside, (_, inside) = ran.session_state.seen["outside"], ran.session_state.in_fragment
    assert outside == "" and isinstance(inside, str) and inside, (outside, inside)


def test_run_page_hash(ran):
    carries("run_page_hash", ScriptRunContext, "page_script_hash")
    page = ran.session_state.seen["page"]
    assert isinstance(page, str) and len(page) == 32, page  # Streamlit's md5 hex of the page script


def test_run_identity(ran):
    carries("run_identity", ScriptRunContext, "session_id", "page_script_hash", "query_string")
    identity = ran.session_state.seen["identity"]
    assert identity is not None and identity.session_id and identity.page_script_hash == ran.session_state.seen["page"]


def test_registered_user_keys(ran):
    carries("registered_user_keys", ScriptRunContext, "shared")
    carries("registered_user_keys", SharedRunState, "widget_user_keys_this_run")
    assert "box_key" in ran.session_state.seen["keys"]


def test_user_key_of_element(ran):
    reaches("user_key_of_element", door.run_context, "user_key_from_element_id")
    assert door.user_key_of_element(ran.text_input[0].id) == "box_key"
    assert door.user_key_of_element("$$ID-0123456789abcdef-None") is None  # an element drawn without a key


def test_session_alive_check(ran):
    reaches("session_alive_check", door.run_context.runtime, "exists", "get_instance")
    reaches("session_alive_check", Runtime, "is_active_session")
    alive = ran.session_state.seen["alive"]  # AppTest's Runtime is a mock: the check exists, it answers a mock
    assert alive is None or callable(alive)


def test_allow_page_run_again():
    carries("allow_page_run_again", StreamlitPage, "_can_be_called")
    page = StreamlitPage(lambda: None, title="only", url_path="only")
    door.allow_page_run_again(page)
    assert page._can_be_called is True


def test_server_running():
    reaches("server_running", Runtime, "exists")
    assert door.server_running() is False  # no server in this process


def test_server_loop():
    reaches("server_loop", Runtime, "instance", "_get_async_objs")
    from streamlit.runtime.runtime import AsyncObjects

    assert "eventloop" in AsyncObjects._fields, f"ui.streamlit_private.server_loop: no eventloop in Streamlit {VERSION}"


def test_app_session():
    reaches("app_session", Runtime, "get_app_session")
    takes("app_session", Runtime.get_app_session, "session_id")
    assert door.app_session("no-such-session") is None


def test_session_state_of():
    reaches("session_state_of", AppSession, "session_state")


def test_has_fragment():
    takes("has_fragment", AppSession.has_fragment, "fragment_id")
    assert door.has_fragment(object(), "") is False  # no fragment named: not asked


def test_rerun_session():
    takes("rerun_session", AppSession.request_rerun, "client_state")
    reaches("rerun_session", SessionState, "get_widget_states")
    reaches("rerun_session", wire.ClientState(), "page_script_hash", "query_string", "fragment_id", "widget_states")


def test_wait_until_settled():
    reaches("wait_until_settled", AppSession, "track_settling", "wait_until_settled")
    assert inspect.iscoroutinefunction(AppSession.wait_until_settled), "wait_until_settled is no longer a coroutine"


def test_coalesce_server_wakes_once():
    reaches("coalesce_server_wakes_once", Runtime, "exists")
    assert door.coalesce_server_wakes_once() is False  # no server here (tests/app/test_loop_wakes.py runs the patch)


def test_read_options_without_lock_once():
    reaches("read_options_without_lock_once", config, "_config_options", "get_option")
    assert isinstance(config._config_options, dict | type(None))


def _widget_state() -> SessionState:
    """A real SessionState: a plain key, a widget's value under its key, and a button's (a trigger)."""
    from streamlit.runtime.state.common import WidgetMetadata

    state = SessionState()
    state["plain"] = 3
    widgets: tuple[tuple[str, Literal["string_value", "trigger_value"], object], ...] = (
        ("box", "string_value", "typed"), ("button", "trigger_value", False),
    )  # fmt: skip
    for key, kind, value in widgets:
        widget_id = f"$$ID-0123-{key}"
        metadata = WidgetMetadata(widget_id, lambda v: v, lambda v: v, value_type=kind)
        state._set_widget_metadata(metadata)
        state._key_id_mapper[key] = widget_id
        state._new_widget_state.set_from_value(widget_id, value)
    return state


def test_state_items():
    reaches("state_items", SessionState, "_keys", "_getitem", "_get_widget_id")
    carries("state_items", SessionState, "_key_id_mapper")
    reaches("state_items", KeyIdMapper, "id_key_mapping")
    items = dict(door.state_items(_widget_state(), lambda key: key == "button"))
    assert items == {"plain": 3, "box": "typed"}, items


def test_set_by_run():
    carries("set_by_run", SessionState, "_key_id_mapper", "_new_session_state")
    state = _widget_state()
    assert door.set_by_run(state, "plain") and not door.set_by_run(state, "box")


def test_is_trigger():
    carries("is_trigger", SessionState, "_new_widget_state")
    reaches("is_trigger", WStates, "widget_metadata")
    state = _widget_state()
    assert door.is_trigger(state, "button") and not door.is_trigger(state, "box") and not door.is_trigger(state, "x")


def test_fragment_container(ran):
    messages, state, fragment_ids = ran.session_state.recorded
    assert len(messages) >= 2 and fragment_ids == ()  # the container and the text; the app's run reruns no fragment
    assert isinstance(state, SessionState)
    outer = door.fragment_container(messages)
    assert outer is not None, "ui.streamlit_private.fragment_container: a run's first container is not add_block"
    assert list(outer.metadata.delta_path) == list(messages[0].metadata.delta_path)[:-1]


def test_session_idle():
    carries("session_idle", AppSession, "_scriptrunner", "_state")
    reaches("session_idle", AppSessionState, "APP_NOT_RUNNING", "APP_IS_RUNNING")


def test_send_fragment_run():
    reaches(
        "send_fragment_run", AppSession, "_clear_queue", "_enqueue_forward_msg",
        "_create_session_status_changed_message", "_create_script_finished_message", "_create_new_session_message",
    )  # fmt: skip
    carries("send_fragment_run", AppSession, "_pages_manager", "_state")
    takes("send_fragment_run", AppSession._create_new_session_message, "page_script_hash", "run_descriptor")
    takes("send_fragment_run", AppSession._create_script_finished_message, "status", "run_descriptor")
    reaches("send_fragment_run", door.replay, "_set_run_identity", "RunDescriptor")
    reaches("send_fragment_run", wire.ForwardMsg, "FINISHED_FRAGMENT_RUN_SUCCESSFULLY")


def test_instrument_hooks():
    """Not in the package's functions (the app never loads them): the benches' timeline hooks."""
    reaches("instrument.wrap_script_runs", ScriptRunner, "_run_script")
    takes("instrument.wrap_script_runs", ScriptRunner._run_script, "rerun_data")
    carries("instrument.wrap_script_runs", ScriptRunner, "_session_id")
    reaches("instrument.on_message_enqueued", ScriptRunContext, "enqueue")
    reaches("instrument.on_script_finished_sent", Runtime, "_send_message")
    takes("instrument.on_script_finished_sent", Runtime._send_message, "session_info", "msg")
    assert callable(instrument.streamlit_cli)
