"""Which sessions a recorded follower's run may be sent to (ui/classroom/fanout.py): those whose state holds the same
values, compared value by value on Streamlit's own SessionState."""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

import numpy as np
from streamlit.runtime.state.session_state import SessionState

from ui.class_role import ROLE_KEY, ClassRole
from ui.classroom.fanout import KEPT, Recording, RunKey, StateSnapshot, _copied, _Recordings, _snapshot
from ui.in_place_chart import CHART_KEY_PREFIX, is_chart_key


def session(**values) -> SessionState:
    state = SessionState()
    for key, value in values.items():
        state[key] = value
    return state


def student(**fields) -> ClassRole:
    return ClassRole("ABC123", student_id=fields.pop("student_id", "s1"), **fields)


def digest(state: SessionState) -> str:
    return StateSnapshot.of(state).digest


def test_sessions_holding_equal_values_are_alike_and_any_difference_tells_them_apart():
    base = {"step": 3, "lang": "en", "view": {"mask": "none", "heads": [1, 2]}, "present": False}
    assert digest(session(**base)) == digest(session(**base))
    assert digest(session(**{**base, "lang": "zh"})) != digest(session(**base))  # another language
    assert digest(session(**{**base, "present": True})) != digest(session(**base))  # the presenter view
    assert digest(session(**{**base, "view": {"mask": "none", "heads": [2, 1]}})) != digest(session(**base))
    assert digest(session(**{**base, "fold_1": True})) != digest(session(**base))  # an open fold
    assert digest(session(**{**base, "step": 3.0})) != digest(session(**base))  # 3.0 is not the int 3 a radio holds
    assert digest(session(**{**base, "present": 0})) != digest(session(**base))  # nor 0 False


def test_matrices_compare_by_content_and_other_objects_by_identity():
    matrix = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert digest(session(W_Q=matrix)) == digest(session(W_Q=matrix.copy()))
    edited = matrix.copy()
    edited[1, 2] = 5.5
    assert digest(session(W_Q=edited)) != digest(session(W_Q=matrix))
    assert digest(session(W_Q=matrix.astype(np.float64))) != digest(session(W_Q=matrix))
    model = object()  # a model both sessions share (the process's cache), or one of a session's own
    assert digest(session(model=model)) == digest(session(model=model))
    assert digest(session(model=object())) != digest(session(model=object()))


def test_who_a_student_is_does_not_count_where_they_are_in_the_class_does():
    assert digest(session(**{ROLE_KEY: student(student_id="a", heartbeat_at=1.0)})) == digest(
        session(**{ROLE_KEY: student(student_id="b", heartbeat_at=2.0)})
    )
    assert digest(session(**{ROLE_KEY: student(applied_version=4)})) != digest(
        session(**{ROLE_KEY: student(applied_version=5)})
    )
    assert digest(session(**{ROLE_KEY: student(following=False)})) != digest(session(**{ROLE_KEY: student()}))
    shut, open_ = student(stale_until=0.0), student(stale_until=time.monotonic() + 60)
    later = student(stale_until=time.monotonic() + 90)
    assert digest(session(**{ROLE_KEY: open_})) == digest(session(**{ROLE_KEY: later}))  # both windows open
    assert digest(session(**{ROLE_KEY: open_})) != digest(session(**{ROLE_KEY: shut}))


def test_a_copied_value_has_its_own_containers_and_shares_what_they_hold():
    trace = object()
    cache = OrderedDict([(("model", "1 2 3"), trace)])
    value: dict[str, Any] = {"cache": cache, "views": [{"step": 1}], "seen": {1, 2}, "matrix": np.ones(2)}
    copied = _copied(value)
    assert isinstance(copied, dict)
    assert copied == {**value, "matrix": copied["matrix"]} and np.array_equal(copied["matrix"], value["matrix"])
    assert type(copied["cache"]) is OrderedDict and copied["cache"] is not cache
    assert copied["cache"][("model", "1 2 3")] is trace  # the process's trace, not a copy of it
    copied["views"][0]["step"] = 2
    copied["matrix"][0] = 9.0
    assert value["views"][0]["step"] == 1 and value["matrix"][0] == 1.0


def test_the_process_keeps_its_most_recent_recordings_only():
    kept = _Recordings()
    keys = [RunKey("ABC123", version, (), "f", "p", "", "d") for version in range(KEPT + 5)]
    for key in keys:
        kept.put(key, Recording((), {}, (), {}))
    assert kept.get(keys[0]) is None and kept.get(keys[4]) is None
    assert all(kept.get(key) is not None for key in keys[5:])


def test_a_value_that_cannot_be_described_leaves_the_student_to_run_for_real():
    loop: list = []
    loop.append(loop)  # a list that holds itself
    assert _snapshot(session(loop=loop)) is None
    assert _snapshot(session(step=2)) is not None


def test_an_in_place_charts_widget_state_does_not_tell_two_students_apart():
    """A chart drawn in place is a component with a key, which Streamlit gives a widget state; a student who drew the
    page has one for each chart, a student sent that run has the charts but not their states. Nothing of the page is
    in them, so they are left out: with them, every Next split the class in two (tests/bench/test_fanout.py)."""
    chart = CHART_KEY_PREFIX + "walk_chart_1"
    assert is_chart_key(chart) and not is_chart_key("walk_chart_1")
    assert digest(session(step=3, **{chart: {"selection": None}})) == digest(session(step=3))
    assert digest(session(step=3, walk_chart_1=None)) != digest(session(step=3))  # a page's own key still counts
