"""The classroom glue's pure parts: the room state of a view, the guard against stale browser values, the join link
and its QR code (read back with zxing-cpp)."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
import zxingcpp
from PIL import Image

from model.naming import AttentionKind
from services.rooms import RoomLimits
from services.rooms.schema import state_json
from ui.classroom import room_state
from ui.classroom.join import join_link, qr_png
from ui.state.session import IMPLICIT_KEY

TEACHER = {
    "model": "reverse", "text": "1 2 3", "target": "", "kind": "cross", "step": np.int64(5), "layer": 1,
    "head": 3, "query": 2, "present": True, "lesson_slide": 4, "lesson": "intro",
    "source": "model", "wt_temperature": 1.5, "wt_scale_off": True, "token": None, "wt_kind": "decoder",
    "user_models": {"mine": object()}, "_class_role": "secret", "lang": "zh", "wt_values": {"X": [1]},
}  # fmt: skip


def test_collect_takes_the_controls_of_the_pages_view():
    state = room_state.collect(TEACHER, "attention")
    assert state["page"] == "attention"
    assert state["model"] == "reverse" and state["input"] == "1 2 3" and state["kind"] == "cross"
    assert (state["layer"], state["head"], state["token"], state["present"]) == (1, 3, None, True)
    assert "step" not in state and "wt_kind" not in state  # the walkthrough's: not the Attention page's view
    assert "lang" not in json.dumps(state) and "secret" not in json.dumps(state)  # never the session's own keys
    assert json.loads(state_json(state, RoomLimits())) == state  # the room takes it as it is
    walk = room_state.collect(TEACHER, "step-by-step")
    assert walk["step"] == 5 and type(walk["step"]) is int  # a NumPy scalar becomes a plain int
    assert (walk["source"], walk["wt_temperature"], walk["wt_scale_off"], walk["wt_kind"]) == (
        "model", 1.5, True, "decoder")  # fmt: skip
    lesson = room_state.collect(TEACHER, "lesson")
    assert (lesson["lesson"], lesson["slide"]) == ("intro", 4)


def test_collect_gives_defaults_for_values_of_the_wrong_type():
    state = room_state.collect({"step": "5", "query": True, "wt_head": -1, "text": 3, "wt_temperature": float("nan")},
                               "step-by-step")  # fmt: skip
    assert (state["step"], state["query"], state["wt_head"], state["input"], state["wt_temperature"]) == (
        1, 1, 0, None, 1.0)  # fmt: skip
    assert room_state.collect({"step": 3}, "no-such-page") == {"page": "no-such-page"}


def test_apply_writes_only_the_views_keys_and_only_a_model_this_session_has():
    session = {"step": 1, "model": "translate"}
    hostile = {"page": "step-by-step", "step": 4, "model": "someone-elses", "input": "9 8", "source": "model"}
    changed = room_state.apply(hostile, session, models=["translate", "reverse"])
    assert (session["step"], session["model"], session["text"], session["source"]) == (4, "translate", "9 8", "model")
    assert {"source", "step", "text"} <= set(changed) and "model" not in changed
    assert room_state.apply({**hostile, "_class_role": "y"}, session, models=["translate"]) == []  # not a view: nothing
    assert room_state.apply({"page": "<b>", "step": 2}, session, models=["translate"]) == []
    room_state.apply({"page": "step-by-step", "model": "reverse"}, session, models=["translate", "reverse"])
    assert session["model"] == "reverse" and "_class_role" not in session


def test_a_view_goes_from_teacher_to_student_unchanged():
    state = json.loads(state_json(room_state.collect(TEACHER, "step-by-step"), RoomLimits()))
    student: dict = {}
    room_state.apply(state, student, models=["reverse"])
    for key in ("model", "text", "step", "query", "present", "source", "wt_temperature", "wt_scale_off", "wt_kind"):
        assert student[key] == TEACHER[key], key
    assert "user_models" not in student and "_class_role" not in student and "lang" not in student


def test_a_room_from_before_the_one_attention_vocabulary_applies_in_it():
    """A room written by an older server says "encoder self" / "decoder self" for the walkthrough's block."""
    student: dict = {}
    room_state.apply({"page": "step-by-step", "wt_kind": "decoder self", "source": "model"}, student, models=[])
    assert student["wt_kind"] == "decoder" and type(student["wt_kind"]) is str
    room_state.apply({"page": "step-by-step", "wt_kind": "encoder self"}, student, models=[])
    assert student["wt_kind"] == "encoder"
    assert room_state.apply({"page": "step-by-step", "wt_kind": "sideways"}, student, models=[]) == []  # not a kind
    assert student["wt_kind"] == "encoder"


def test_an_attention_kind_in_the_session_is_published_as_plain_text():
    state = room_state.collect({"kind": AttentionKind.CROSS}, "attention")
    walk = room_state.collect({"wt_kind": AttentionKind.DECODER}, "step-by-step")
    assert (state["kind"], walk["wt_kind"]) == ("cross", "decoder")
    assert type(state["kind"]) is str and type(walk["wt_kind"]) is str


def test_stale_browser_values_after_a_full_run_are_put_back_until_the_browser_catches_up():
    before_full = {"page": "step-by-step", "step": 1, "wt_head": 0}
    tick_before = {"page": "step-by-step", "step": 1, "wt_layer": 0, "wt_head": 0}
    after = {"page": "step-by-step", "step": 2, "wt_layer": 0, "wt_head": 1}
    pending = room_state.moved([before_full, tick_before], after)
    assert pending == {"step": ((1,), 2), "wt_head": ((0,), 1), "wt_layer": ((None,), 0)}
    stale = {"page": "step-by-step", "step": 1, "wt_layer": 0, "wt_head": 0}  # sent before the run drew
    assert room_state.undo_stale(stale, pending) == after
    assert "wt_layer" not in pending  # the browser reported the new layer: nothing to guard there
    caught_up = {"page": "step-by-step", "step": 2, "wt_layer": 0, "wt_head": 0}
    assert room_state.undo_stale(caught_up, pending)["wt_head"] == 1  # head still pending
    assert "step" not in pending
    moved_on = {"page": "step-by-step", "step": 2, "wt_layer": 0, "wt_head": 3}  # the teacher chose head 4
    assert room_state.undo_stale(moved_on, pending) == moved_on and pending == {}


@pytest.mark.parametrize(
    ("app_url", "page", "expected"),
    [
        ("http://10.0.0.5:8501/step-by-step", "step-by-step", "http://10.0.0.5:8501/?room=K7QX3M"),
        ("http://10.0.0.5:8501/", "", "http://10.0.0.5:8501/?room=K7QX3M"),
        ("https://lab.example.org/teach/attention", "attention", "https://lab.example.org/teach/?room=K7QX3M"),
        (None, "attention", "/?room=K7QX3M"),
    ],
)
def test_the_join_link_is_the_apps_root_with_the_room_only(app_url, page, expected):
    assert join_link(app_url, page, "K7QX3M") == expected


def test_the_qr_code_reads_back_as_the_join_link_and_never_holds_the_key():
    key = "pz9BZ5vswu4Ct1K_ftWnG-2UGHOn-M0161UdyZGEHKY"
    link = join_link("http://192.168.1.20:8501/attention", "attention", "K7QX3M")
    decoded = [r.text for r in zxingcpp.read_barcodes(Image.open(io.BytesIO(qr_png(link))))]
    assert decoded == ["http://192.168.1.20:8501/?room=K7QX3M"]
    assert key not in decoded[0] and "key=" not in decoded[0]


def test_a_stale_computed_head_is_put_back_on_the_values_the_view_reads_as_its_default():
    """The sharpest head moves from 3 to 2 with a new input: None in the view both times, so the view alone cannot
    tell that a browser still sending head 3 is stale; the values held can (ui/classroom/teacher.py _tick_view)."""
    before = {"head": 2, IMPLICIT_KEY: {"head": 2}}
    after = {"head": 1, IMPLICIT_KEY: {"head": 1}}
    assert room_state.collect(before, "attention")["head"] is None
    assert room_state.collect(after, "attention")["head"] is None
    pending = room_state.moved([room_state.held(before, "attention")] * 2, room_state.held(after, "attention"))
    assert pending == {"head": ((2,), 1)}
    stale = {"head": 2, IMPLICIT_KEY: {"head": 1}}  # the browser's old head, the run's computed one
    assert room_state.collect(stale, "attention")["head"] == 2  # what went to the class before
    values = room_state.undo_stale(room_state.held(stale, "attention"), pending)
    assert room_state.collect_held(values, stale, "attention")["head"] is None
    chosen = {"head": 3, IMPLICIT_KEY: {"head": 1}}  # the teacher picks head 4: that goes out
    assert room_state.collect_held(room_state.undo_stale(room_state.held(chosen, "attention"), pending), chosen,
                                   "attention")["head"] == 3  # fmt: skip


def test_settings_that_moved_are_compared_by_value_so_a_grid_held_as_rows_can_move():
    assert room_state.moved([{"m": [[1]]}, {"m": [[1]]}], {"m": [[0]]}) == {"m": (([[1]],), [[0]])}
