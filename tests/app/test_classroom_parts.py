"""The classroom glue's pure parts: the view registry, the guard against stale browser values, the join link
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
from ui.classroom import registry
from ui.classroom.join import join_link, qr_png

TEACHER = {
    "model": "reverse", "text": "1 2 3", "target": "", "kind": "cross", "step": np.int64(5), "layer": 1,
    "head": 3, "query": 2, "present": True, "lesson_slide": 4, "lesson": "intro",
    "source": "model", "wt_temperature": 1.5, "wt_scale_off": True, "token": None, "wt_kind": "decoder",
    "user_models": {"mine": object()}, "_class_role": "secret", "lang": "zh", "wt_values": {"X": [1]},
}  # fmt: skip


def test_collect_takes_the_listed_keys_as_room_fields_and_extras():
    state = registry.collect(TEACHER, "attention")
    assert state["page"] == "attention"
    assert state["model"] == "reverse" and state["input"] == "1 2 3" and state["kind"] == "cross"
    assert state["step"] == 5 and type(state["step"]) is int  # a NumPy scalar becomes a plain int
    assert (state["layer"], state["head"], state["query"], state["slide"], state["lesson"]) == (1, 3, 2, 4, "intro")
    assert state["present"] is True
    assert state["extra"] == {"source": "model", "wt_temperature": 1.5, "wt_scale_off": True, "token": None,
                              "wt_kind": "decoder"}  # fmt: skip
    assert "lang" not in json.dumps(state) and "secret" not in json.dumps(state)  # never the session's own keys
    assert json.loads(state_json(state, RoomLimits())) == state  # the room takes it as it is


def test_collect_leaves_out_values_of_the_wrong_type():
    state = registry.collect({"step": "5", "layer": True, "head": -1, "text": 3, "wt_temperature": float("nan")}, "x")
    assert state == {"page": "x"}


def test_apply_writes_only_listed_keys_and_only_a_model_this_session_has():
    session = {"step": 1, "model": "translate"}
    hostile = {"step": 4, "model": "someone-elses", "input": "9 8",
               "extra": {"_class_role": "x", "user_models": {}, "source": "model", "lang": "en"},
               "_class_role": "y"}  # fmt: skip
    changed = registry.apply(hostile, session, models=["translate", "reverse"])
    assert session == {"step": 4, "model": "translate", "text": "9 8", "source": "model"}
    assert sorted(changed) == ["source", "step", "text"]
    registry.apply({"model": "reverse"}, session, models=["translate", "reverse"])
    assert session["model"] == "reverse"


def test_a_view_goes_from_teacher_to_student_unchanged():
    state = json.loads(state_json(registry.collect(TEACHER, "step-by-step"), RoomLimits()))
    student: dict = {}
    registry.apply(state, student, models=["reverse"])
    for key in ("model", "text", "kind", "step", "layer", "head", "query", "present", "lesson_slide", "source",
                "wt_temperature", "wt_scale_off", "token", "wt_kind"):  # fmt: skip
        assert student[key] == TEACHER[key], key
    assert "user_models" not in student and "_class_role" not in student


def test_a_room_from_before_the_one_attention_vocabulary_applies_in_it():
    """A room published by an older server says "encoder self" / "decoder self" for the walkthrough's block."""
    student: dict = {}
    old = {"page": "step-by-step", "kind": "cross", "extra": {"wt_kind": "decoder self", "source": "model"}}
    registry.apply(old, student, models=[])
    assert (student["wt_kind"], student["kind"]) == ("decoder", "cross") and type(student["wt_kind"]) is str
    registry.apply({"extra": {"wt_kind": "encoder self"}}, student, models=[])
    assert student["wt_kind"] == "encoder"
    registry.apply({"extra": {"wt_kind": "sideways"}}, student, models=[])  # not a kind: the widget drops it
    assert student["wt_kind"] == "sideways"


def test_an_attention_kind_in_the_session_is_published_as_plain_text():
    state = registry.collect({"kind": AttentionKind.CROSS, "wt_kind": AttentionKind.DECODER}, "attention")
    assert (state["kind"], state["extra"]["wt_kind"]) == ("cross", "decoder")
    assert type(state["kind"]) is str and type(state["extra"]["wt_kind"]) is str


def test_stale_browser_values_after_a_full_run_are_put_back_until_the_browser_catches_up():
    before_full = {"page": "step-by-step", "step": 1, "extra": {"wt_head": 0}}
    tick_before = {"page": "step-by-step", "step": 1, "layer": 0, "extra": {"wt_head": 0}}
    after = {"page": "step-by-step", "step": 2, "layer": 0, "extra": {"wt_head": 1}}
    pending = registry.moved([before_full, tick_before], after)
    assert pending == {"step": ((1,), 2), "extra.wt_head": ((0,), 1), "layer": ((None,), 0)}
    stale = {"page": "step-by-step", "step": 1, "layer": 0, "extra": {"wt_head": 0}}  # sent before the run drew
    assert registry.undo_stale(stale, pending) == after
    assert "layer" not in pending  # the browser reported the new layer: nothing to guard there
    caught_up = {"page": "step-by-step", "step": 2, "layer": 0, "extra": {"wt_head": 0}}
    assert registry.undo_stale(caught_up, pending)["extra"] == {"wt_head": 1}  # head still pending
    assert "step" not in pending
    moved_on = {"page": "step-by-step", "step": 2, "layer": 0, "extra": {"wt_head": 3}}  # the teacher chose head 4
    assert registry.undo_stale(moved_on, pending) == moved_on and pending == {}


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
