"""One following student's page run, sent to every student it would have been the same for.

A following student's page is a pure function of their session state and the room's version: when the teacher
moves on, N students whose sessions hold the same state would each rerun the page fragment and each send the same
messages (docs/capacity.md §11: ~10–20 ms of the script's CPU per student, one after another under the GIL). So the
first of them runs for real, and its run is recorded: the messages it sent, and what it changed in its session state.
Every next student of the class whose session state is the same as that one's was before its run (same view, same
language, same presenter choice, same folds: compared value by value, `StateSnapshot`) gets that run instead of a
run of their own: the same messages, framed as a fragment run of their session (its own run id), and the same changes
to their session state, so their next own run starts where a run would have left them. A student whose state differs
in anything (another language, an open fold, a model of their own) runs for real, as before, and may start a
recording of their own for the students like them.

Streamlit 1.67 has no API for this: the recording and the sending go through ui.streamlit_private (replay.py there
says what of Streamlit's it does).
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import hashlib
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from ..class_role import ROLE_KEY, ClassRole
from ..in_place_chart import is_chart_key
from ..streamlit_private import (
    Message,
    RunMessages,
    fragment_container,
    is_trigger,
    send_fragment_run,
    session_idle,
    session_state_of,
    set_by_run,
    state_items,
)

_LOG = logging.getLogger(__name__)
KEPT = 32  # recordings kept per process (a room's versions × its students' languages and choices)
ROLE_STATE = (  # the fields of a student's ClassRole a page run reads or writes (the others are who they are)
    "code", "following", "applied_version", "question_seen", "page_hash", "follow_fragment", "touched",
    "followed_page", "followed_view", "stale_values",
)  # fmt: skip
_OBJECT = "obj"  # the tag of a value compared by identity (a model, a trace): equal only when it is the same object


@dataclass(frozen=True)
class StateSnapshot:
    """A session's state at one moment: a digest of every value (for comparing two sessions) and the values."""

    digest: str
    values: dict  # user key → (its canonical text, the value)
    role: ClassRole | None  # the session's own (compared by its ROLE_STATE fields, not as an object)

    @classmethod
    def of(cls, session_state) -> StateSnapshot:
        """Snapshot a SessionState (or the script's SafeSessionState). The role's stale window is compared as
        open or shut: its end is a moment, not a setting."""
        values = {}
        role: ClassRole | None = None
        for key, value in _items(session_state):
            if key == ROLE_KEY and isinstance(value, ClassRole):
                role = value
            else:
                values[key] = (_canonical(value), value)
        role_fields = {name: getattr(role, name) for name in ROLE_STATE} if role is not None else {}
        open_window = role is not None and role.stale_until >= time.monotonic()
        described = [f"{key}={canonical}" for key, (canonical, _) in sorted(values.items())]
        described += [_canonical(role_fields), str(open_window), str(role is not None)]
        digest = hashlib.blake2b("\n".join(described).encode(), digest_size=16).hexdigest()
        return cls(digest, values, role)


@dataclass(frozen=True)
class Recording:
    """A following student's page run: the messages it sent and what it changed in its session state."""

    messages: tuple[Message, ...]
    changed: dict  # user key → its value after the run
    removed: tuple[str, ...]
    role: dict  # ClassRole field (ROLE_STATE, stale_until) → its value after the run


@dataclass(frozen=True)
class RunKey:
    """Which run a recording stands for: the room's version on one page's fragment, from one state before it."""

    code: str
    version: int
    question: tuple
    fragment_id: str
    page_script_hash: str
    query_string: str
    digest: str


class _Recordings:
    """The process's recent recordings, by RunKey (bounded; thread-safe: written by script threads)."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._lock = threading.Lock()
        self._by_key: OrderedDict[RunKey, Recording] = OrderedDict()

    def put(self, key: RunKey, recording: Recording) -> None:
        with self._lock:
            self._by_key[key] = recording
            self._by_key.move_to_end(key)
            while len(self._by_key) > self._kept:
                self._by_key.popitem(last=False)

    def get(self, key: RunKey) -> Recording | None:
        with self._lock:
            return self._by_key.get(key)


recordings = _Recordings()


class Recorder:
    """In a following student's page run: the state before it and the messages it sends, kept as a Recording if the
    run ends normally (`keep`). Restores the run's message path whatever happens."""

    def __init__(self) -> None:
        self._run = RunMessages()
        self._before = _snapshot(self._run.state) if self._run.state is not None else None

    def __enter__(self) -> Recorder:
        self._run.__enter__()
        return self

    def __exit__(self, *exc_info) -> None:
        self._run.__exit__(*exc_info)

    def keep(self, role: ClassRole) -> None:
        """The run ended normally: keep it for the students whose state was the same as this one's before it."""
        run, before = self._run, self._before
        if run.state is None or before is None or before.role is None:
            return
        after = _snapshot(run.state)
        if after is None or after.role is None:
            return
        changed = {
            key: value for key, (canonical, value) in after.values.items()
            if before.values.get(key, (None,))[0] != canonical and set_by_run(run.state, key)
        }  # fmt: skip
        if any(is_trigger(run.state, key) for key in changed):
            return  # a button's value: Streamlit forbids setting it through session state
        fragment_ids = run.fragment_ids
        outer = fragment_container(run.messages)
        if len(fragment_ids) != 1 or outer is None:
            return
        key = RunKey(role.code, role.applied_version, tuple(role.question_seen), fragment_ids[0],
                     run.page_script_hash, run.query_string, before.digest)  # fmt: skip
        removed = tuple(k for k in before.values if k not in after.values)
        copied = {name: _copied(value) for name, value in changed.items()}
        recordings.put(key, Recording((outer, *run.messages), copied, removed, _role_state(role)))


def replay(session, key: RunKey) -> bool:
    """On the server's event loop: send `session` the recorded run for `key` (its digest left empty: this session's
    state now fills it in) as a run of its own, and make the same changes to its state. False (nothing done) when the
    session is running a script, or no run was recorded from the state it holds: the caller runs it then."""
    if not session_idle(session):
        return False
    state = session_state_of(session)
    before = _snapshot(state)
    if before is None or before.role is None:
        return False
    role = before.role
    recording = recordings.get(dataclasses.replace(key, digest=before.digest))
    if recording is None:
        return False
    for name, value in recording.changed.items():
        state[name] = _copied(value)
    for name in recording.removed:
        if name in state:
            del state[name]
    for name, value in recording.role.items():
        setattr(role, name, copy.deepcopy(value))
    send_fragment_run(session, key.fragment_id, key.page_script_hash, recording.messages)
    return True


def _snapshot(session_state) -> StateSnapshot | None:
    """The state's snapshot, or None if a value cannot be read or described (then the session runs for real)."""
    try:
        return StateSnapshot.of(session_state)
    except Exception:  # a value nested too deep, a widget's state Streamlit cannot read back: no shortcut, no harm
        _LOG.warning("A student's state could not be compared; their page runs for real", exc_info=True)
        return None


def _role_state(role: ClassRole) -> dict:
    """The fields of a role a run reads or writes, as they are now (a run goes on changing its dicts in place)."""
    return {**copy.deepcopy({name: getattr(role, name) for name in ROLE_STATE}), "stale_until": role.stale_until}


def _items(session_state):
    """(user key, value) of what a session's state holds, leaving out Streamlit's own keys and the charts' (a replay
    draws the chart, and its widget state is no one's)."""
    return state_items(session_state, is_chart_key)


_PLAIN = (str, int, float, bool, bytes, type(None))


def _canonical(value: object) -> str:
    """A value written out as text comparable across sessions: plain values and containers by content (dicts and
    sets in sorted order, each type named: 3, 3.0 and True differ), arrays by content, frozen dataclasses by their
    fields, other objects by identity (equal only when both sessions hold the very same one: a model, a trace)."""
    if type(value) in _PLAIN:
        return f"{type(value).__name__}:{value!r}"
    if isinstance(value, enum.Enum):
        return f"{type(value).__qualname__}:{value.value!r}"
    if isinstance(value, list | tuple):
        return f"{type(value).__name__}[{','.join(map(_canonical, value))}]"
    if isinstance(value, dict):
        return "dict{" + ",".join(sorted(f"{_canonical(k)}={_canonical(v)}" for k, v in value.items())) + "}"
    if isinstance(value, set | frozenset):
        return "set{" + ",".join(sorted(map(_canonical, value))) + "}"
    if isinstance(value, np.ndarray):  # the walkthrough's own matrices
        return f"ndarray:{value.dtype}:{value.shape}:{hashlib.blake2b(value.tobytes(), digest_size=16).hexdigest()}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and type(value).__dataclass_params__.frozen:  # type: ignore[attr-defined]
        fields = ",".join(f"{f.name}={_canonical(getattr(value, f.name))}" for f in dataclasses.fields(value))
        return f"{type(value).__qualname__}({fields})"
    return f"{_OBJECT}:{type(value).__qualname__}:{id(value)}"


def _copied(value: object) -> object:
    """A copy of a value's containers (a session may change them in place), sharing the objects they hold: the models
    and traces in a session's state come from the process's caches (ui/trace_cache.py), so a run from the same state
    would have put the very same objects there."""
    if isinstance(value, dict):  # a dict or an OrderedDict (ui/trace_cache.py's)
        return type(value)((key, _copied(item)) for key, item in value.items())
    if isinstance(value, list):
        return [_copied(item) for item in value]
    if isinstance(value, set):
        return {_copied(item) for item in value}
    if isinstance(value, np.ndarray):
        return value.copy()
    return value  # immutable (tuples of such, numbers, strings) or shared
