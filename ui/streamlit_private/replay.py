"""One session's fragment run recorded and sent to another session as a run of its own (ui.classroom.fanout).

Streamlit 1.67 has no API for this: a session's messages go to its own browser only, and a rerun of another session
is private (streamlit#2838). This does what an AppSession does when its script runner reports a fragment run
(AppSession._handle_scriptrunner_event_on_event_loop: new_session, the run's messages, script_finished, the running
status), on the session's event loop, and only for a session that is not running a script; and it reads and writes
a SessionState's values the way SessionState.filtered_state does, without the presenters that make a read slow.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime.app_session import AppSessionState, _set_run_identity
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.run_descriptor import RunDescriptor
from streamlit.runtime.state.common import is_element_id, is_keyed_element_id
from streamlit.runtime.state.session_state import _is_internal_key

Message = ForwardMsg  # what a recording holds: Streamlit's wire message, whole (another browser may not hold it)


class RunMessages:
    """Around a part of this script run: a copy of every message it sends, kept in `messages` (its browser gets each
    as before). `state` is the run's SessionState, `fragment_ids` the fragments it reruns, `page_script_hash` and
    `query_string` what it was asked for; all None outside a script run (`ScriptRunContext.enqueue`, shadowed on the
    instance for the run).

    Public replacement: none in 1.67 (a run's messages are Streamlit's own); streamlit#2838."""

    def __init__(self) -> None:
        self._ctx = get_script_run_ctx()
        self.messages: list[Message] = []
        ctx = self._ctx
        self.state = getattr(ctx.session_state, "_state", ctx.session_state) if ctx is not None else None
        self.query_string = ctx.query_string if ctx is not None else ""  # the run may change the URL
        self.page_script_hash = ctx.page_script_hash if ctx is not None else ""

    @property
    def fragment_ids(self) -> tuple[str, ...]:
        """The fragments this run reruns (read at the end: Streamlit fills them in as the run goes)."""
        return tuple(self._ctx.fragment_ids_this_run or ()) if self._ctx is not None else ()

    def __enter__(self) -> RunMessages:
        ctx = self._ctx
        if ctx is not None:
            original = ctx.enqueue  # a bound method; the instance attribute below shadows it for this run only

            def enqueue(msg: Message) -> None:
                original(msg)  # gives the message its hash (and sends a reference if this browser has it cached)
                kept = ForwardMsg()
                kept.CopyFrom(msg)  # the whole message: another browser may not hold it
                self.messages.append(kept)

            ctx.enqueue = enqueue  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc_info) -> None:
        if self._ctx is not None:
            del self._ctx.enqueue  # back to the class's method


def state_items(session_state, skip: Callable[[str], bool]) -> Iterator[tuple[str, object]]:
    """(user key, value) of what a session's state holds (a SessionState, or the script's SafeSessionState around
    one), as SessionState.filtered_state lists them, but without its presenters (which wrap a component's value in
    a new object on every read: a third of a replay's time) and without the user keys `skip` names.

    Reaches SessionState's `_keys`, `_getitem`, `_get_widget_id` and `_key_id_mapper`. Public replacement: none in
    1.67 (iterating st.session_state goes through the presenters); no upstream issue found."""
    state = getattr(session_state, "_state", session_state)
    key_of = state._key_id_mapper.id_key_mapping
    for key in state._keys():
        if _is_internal_key(key) or skip(key_of.get(key, key)):
            continue
        if not is_element_id(key):
            yield key, state._getitem(state._get_widget_id(key), key)
        elif is_keyed_element_id(key) and key in key_of:
            yield key_of[key], state._getitem(key, key_of[key])


def set_by_run(state, key: str) -> bool:
    """Whether the run itself set this key (the page's code, not a widget drawn for the first time): a key of no
    widget, or one the run assigned (SessionState's `_key_id_mapper`, `_new_session_state`).

    Public replacement: none in 1.67; no upstream issue found."""
    return state._key_id_mapper.get_id_from_key(key, None) is None or key in state._new_session_state


def is_trigger(state, key: str) -> bool:
    """Whether the key is a button's (a trigger value, which Streamlit forbids setting through session state;
    SessionState's `_key_id_mapper`, `_new_widget_state`).

    Public replacement: none in 1.67; no upstream issue found."""
    widget_id = state._key_id_mapper.get_id_from_key(key, None)
    if widget_id is None:
        return False
    metadata = state._new_widget_state.widget_metadata.get(widget_id)
    return metadata is not None and "trigger" in metadata.value_type


def fragment_container(messages: list[Message]) -> Message | None:
    """The message of the container Streamlit draws a fragment's run in, made from the page's own first container.

    Streamlit sends that container before the fragment's code runs, so a recording does not hold it; a browser sent
    a recorded run without it would keep the container of an earlier run, in which it then clears nothing stale. The
    page's first element is a plain `st.container()` too (ui/classroom/page_fragment.py), the same block one level
    down: its message, moved up one level, is the one Streamlit sent. None when the run did not start so.

    Public replacement: none in 1.67 (the delta path is Streamlit's own)."""
    if not messages or messages[0].delta.WhichOneof("type") != "add_block":
        return None
    inner = messages[0]
    path = tuple(inner.metadata.delta_path)
    if not path or path[-1] != 0:
        return None
    outer = ForwardMsg()
    outer.CopyFrom(inner)
    outer.metadata.delta_path[:] = path[:-1]
    return outer


def session_idle(session) -> bool:
    """Whether the session runs no script now (`AppSession._scriptrunner`, `_state`): only then may a run be sent.

    Public replacement: none in 1.67 (streamlit#2838)."""
    return session._scriptrunner is None and session._state == AppSessionState.APP_NOT_RUNNING


def send_fragment_run(session, fragment_id: str, page_script_hash: str, messages: tuple[Message, ...]) -> None:
    """On the event loop: what AppSession sends for a fragment run its script runner made: the start, the messages,
    the end (`_clear_queue`, `_enqueue_forward_msg`, `_create_session_status_changed_message`,
    `_create_script_finished_message`, `_state`).

    Public replacement: none in 1.67 (streamlit#2838)."""
    run = RunDescriptor.create([fragment_id])
    session._state = AppSessionState.APP_IS_RUNNING
    session._clear_queue([fragment_id])
    session._enqueue_forward_msg(_start_message(session, page_script_hash, run))
    session._enqueue_forward_msg(session._create_session_status_changed_message())
    for message in messages:
        sent = ForwardMsg()
        sent.CopyFrom(message)  # the browser queue may merge or reorder what it holds: each session its own copy
        session._enqueue_forward_msg(sent)
    session._state = AppSessionState.APP_NOT_RUNNING
    session._enqueue_forward_msg(
        session._create_script_finished_message(ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY, run)
    )
    session._enqueue_forward_msg(session._create_session_status_changed_message())


_starts: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # session → (what its start names, the message)


def _start_message(session, page_script_hash: str, run: RunDescriptor) -> ForwardMsg:
    """The new_session message that starts a run: made once per session (its config, theme and environment fill
    half a replay's time on the event loop otherwise), again when its page or its pages' names change (another
    language), with this run's identity (`_pages_manager`, `_create_new_session_message`, `_set_run_identity`)."""
    pages = session._pages_manager.get_pages()
    names = (page_script_hash, repr(sorted(pages.items())))
    kept = _starts.get(session)
    if kept is None or kept[0] != names:
        kept = (names, session._create_new_session_message(page_script_hash, run, pages))
        _starts[session] = kept
    start = ForwardMsg()
    start.CopyFrom(kept[1])
    start.metadata.ClearField("run")
    _set_run_identity(start, run)
    return start
