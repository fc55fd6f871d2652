"""The Attention page opens on what teaches most: cross-attention at its sharpest head by the model's own mean row
entropy (recomputed here in NumPy), in the normal and the presenter view; the default is computed for the kind and
layer shown, so a link naming a kind or a layer gets that one's sharpest head, a head someone chose stays, and a
student following a teacher who never chose one sees the same head."""

from __future__ import annotations

import numpy as np
import pytest

from model import load_pretrained
from services.rooms import shared_room_store
from ui.class_role import ROLE_KEY

from .test_attention_page import array, figures, open_page, sharpest

TEXT = "the big red dog sees a small cat"


def blocks(kind: str) -> np.ndarray:
    """(L, H, Lq, Lk) weights of the translate model on TEXT, from its trace."""
    trace = load_pretrained("translate").run(TEXT)
    name = {"encoder": "encoder.{i}.self_attn", "decoder": "decoder.{i}.self_attn", "cross": "decoder.{i}.cross_attn"}
    return np.stack([trace[name[kind].format(i=i) + ".weights"][0].numpy() for i in range(2)])


def shown(at) -> tuple[str, int, int]:
    return at.radio(key="kind").value, at.selectbox(key="layer").value, at.radio(key="head").value


@pytest.mark.parametrize("present", ["false", "true"])
def test_it_opens_on_the_sharpest_cross_attention_head(present):
    at = open_page(text=TEXT, present=present)
    layer, head = sharpest(blocks("cross"))
    assert shown(at) == ("cross", layer, head) == ("cross", 1, 3)
    focused = figures(at)["attention-head"]
    np.testing.assert_allclose(array(focused["data"][0]["z"]), blocks("cross")[layer, head], rtol=1e-5, atol=1e-7)
    uniform = np.log(9)  # 9 source tokens
    entropy = lambda w: float(-(w * np.log(np.where(w > 0, w, 1.0))).sum(-1).mean())
    assert entropy(blocks("cross")[layer, head]) < 0.25 * uniform < entropy(blocks("encoder")[0, 0])


def test_a_link_naming_a_kind_or_a_layer_gets_its_sharpest_head_and_a_named_head_wins():
    at = open_page(text=TEXT, kind="encoder")
    assert shown(at) == ("encoder", *sharpest(blocks("encoder"))) == ("encoder", 1, 2)
    at = open_page(text=TEXT, layer="1")  # cross-attention, layer 1: that layer's sharpest head
    weights = blocks("cross")[:1]
    assert shown(at) == ("cross", 0, sharpest(weights)[1])
    assert at.query_params["layer"] == "1" and "head" not in at.query_params
    at = open_page(text=TEXT, kind="encoder", layer="1", head="1")
    assert shown(at) == ("encoder", 0, 0)
    np.testing.assert_allclose(
        array(figures(at)["attention-head"]["data"][0]["z"]), blocks("encoder")[0, 0], rtol=1e-5, atol=1e-7
    )


def test_switching_the_kind_follows_its_sharpest_head_until_a_head_is_chosen():
    at = open_page(text=TEXT)
    at.radio(key="kind").set_value("decoder").run()
    assert shown(at) == ("decoder", *sharpest(blocks("decoder")))
    at.radio(key="head").set_value(2).run()  # chosen: it stays from now on
    at.radio(key="kind").set_value("encoder").run()
    assert not at.exception and shown(at)[2] == 2
    assert at.query_params["head"] == "3"


def test_a_student_following_sees_the_teachers_default_head():
    teacher = open_page(text=TEXT)
    teacher.button(key="_class_start").click().run()
    code = teacher.session_state[ROLE_KEY].code
    teacher.run()
    state = shared_room_store().snapshot(code).state
    assert state["page"] == "attention" and state["layer"] is None and state["head"] is None  # computed by each
    student = open_page(text=TEXT, room=code)
    assert not student.exception and shown(teacher) == ("cross", 1, 3)
    # the follower's pickers are folded and not drawn: its view, and the head it draws, are the teacher's
    assert (student.session_state["kind"], student.session_state["layer"], student.session_state["head"]) == shown(
        teacher
    )
    assert figures(student)["attention-head"] == figures(teacher)["attention-head"]
