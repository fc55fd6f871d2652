"""The Attention page's random repeated sequence (AppTest), in English and Chinese: on gpt-en and gpt-zh the button
puts the model's own tokens, a segment repeated once, into the view (the input box and the link's ?text=, and the
focused head in ?layer= ?head=), the line names the repeat and the head that copies most, both checked against the
model run here with the induction score counted by hand; on the shipped induction checkpoint the focused head is
layer 2's and its stripe lies s − 1 below the diagonal; a class's students get the teacher's sequence; a model too
small for one is told why."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from model.gpt import LoadedGPT
from services.rooms import shared_room_store
from tests.toys import tiny_gpt
from ui.class_role import ROLE_KEY

from .charts import charts_of
from .training import heatmap_z

APP = str(Path(__file__).resolve().parents[2] / "app.py")
PAGE = "pages/attention.py"
MODELS = {"en": "gpt-en", "zh": "gpt-zh"}
LINE = {"en": "A segment of {s} tokens, from position {a}, is repeated from position {b}",
        "zh": "从位置 {a} 起的 {s} 个词元在位置 {b} 起重复了一遍"}  # fmt: skip
HIGHEST = {"en": "layer {l}, head {h}: {score}", "zh": "第 {l} 层第 {h} 个头：{score}"}


def run(target) -> AppTest:
    at = target.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def opened(lang: str, model: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(lang=lang, model=model, **params)
    run(at)
    return run(at.switch_page(PAGE))


def hand_repeat(tokens: list[str]) -> tuple[int, int]:
    """(start, segment) of the longest segment followed at once by its copy, found by trying every one."""
    for s in range(len(tokens) // 2, 3, -1):
        for a in range(len(tokens) - 2 * s + 1):
            if tokens[a : a + s] == tokens[a + s : a + 2 * s]:
                return a, s
    raise AssertionError(f"no repeat in {tokens}")


def weights_here(lm: LoadedGPT, text: str) -> np.ndarray:
    """(L, H, T, T): the model's attention weights run here, outside the app."""
    ids = torch.tensor([lm.vocab.encode(text)[0]])
    with torch.inference_mode():
        _, trace = lm.model(ids, record=True)
    return np.stack([trace[f"decoder.{i}.self_attn.weights"][0].numpy() for i in range(lm.config.n_layers)])


def hand_scores(weights: np.ndarray, a: int, s: int) -> np.ndarray:
    """(L, H): the mean weight from each query of the second copy to the token after its earlier occurrence."""
    queries = np.arange(a + s, a + 2 * s)
    return weights[:, :, queries, queries - s + 1].mean(-1)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_button_puts_a_repeated_sequence_into_the_view(lang):
    lm = load_pretrained(MODELS[lang])
    assert isinstance(lm, LoadedGPT)
    at = opened(lang, lm.name)
    before = at.text_input(key="text").value
    run(at.button(key="attention_repeat").click())
    text = str(at.text_input(key="text").value)
    assert text != before and at.query_params["text"] == text
    tokens = list(text)  # a character model: one token a character
    assert len(tokens) == 32 and set(tokens) <= set(lm.vocabulary) and "□" not in tokens
    a, s = hand_repeat(tokens)
    assert 6 <= s <= 16
    weights = weights_here(lm, text)
    scores = hand_scores(weights, a, s)
    layer, head = np.unravel_index(int(np.argmax(scores)), scores.shape)
    assert (at.session_state["layer"], at.session_state["head"]) == (layer, head)
    assert (at.query_params["layer"], at.query_params["head"]) == (str(layer + 1), str(head + 1))
    line = next(c.value for c in at.caption if LINE[lang].format(s=s, a=a, b=a + s) in c.value)
    score = f"{scores[layer, head]:.2f}"
    assert HIGHEST[lang].format(l=layer + 1, h=head + 1, score=score) in line
    focused = next(c for c in charts_of(at) if c.key == "focused")
    np.testing.assert_allclose(heatmap_z(focused.spec["data"][0]), weights[layer, head], rtol=1e-5, atol=1e-6)
    run(at.button(key="attention_repeat").click())  # again: another sequence
    assert at.text_input(key="text").value != text


def test_a_link_with_a_repeat_shows_the_line_without_the_button():
    at = opened("en", "gpt-en", text="Qx!wvQx!wvQx!wv")
    assert any(LINE["en"].format(s=5, a=0, b=5) in c.value for c in at.caption)
    at = opened("en", "gpt-en", text="To be, or not to be, that is the question")
    assert not any("is repeated from position" in c.value for c in at.caption)


def test_a_class_follows_the_teachers_sequence():
    teacher = AppTest.from_file(APP, default_timeout=120)
    teacher.query_params.update(lang="en", model="gpt-en")
    run(teacher)
    run(teacher.switch_page(PAGE))
    run(teacher.button(key="_class_start").click())
    role = teacher.session_state[ROLE_KEY]
    run(teacher.button(key="attention_repeat").click())
    text, layer, head = (teacher.session_state[k] for k in ("text", "layer", "head"))
    state = shared_room_store().snapshot(role.code).state
    assert (state["page"], state["input"], state["layer"], state["head"]) == ("attention", text, layer, head)
    student = AppTest.from_file(APP, default_timeout=120)
    student.query_params.update(lang="zh", room=role.code)
    run(student)
    assert (student.session_state["text"], student.session_state["layer"], student.session_state["head"]) == (
        text, layer, head,
    )  # fmt: skip
    a, s = hand_repeat(list(text))
    assert any(LINE["zh"].format(s=s, a=a, b=a + s) in c.value for c in student.caption)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_model_too_small_for_a_repeat_is_told_why(lang):
    lm = tiny_gpt(lang, max_len=3)
    at = AppTest.from_file(APP, default_timeout=120)
    at.session_state["user_models"] = {lm.name: lm}
    at.query_params.update(lang=lang, model=lm.name)
    run(at)
    run(at.switch_page(PAGE))
    before = at.text_input(key="text").value
    run(at.button(key="attention_repeat").click())
    assert at.text_input(key="text").value == before
    words = {"en": "A repeated sequence needs a model that reads at least 4 tokens", "zh": "至少能读 4 个词元"}
    assert any(words[lang] in w.value for w in at.warning), [w.value for w in at.warning]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_on_the_induction_checkpoint_the_stripe_is_where_the_repeat_puts_it(lang):
    lm = load_pretrained("induction")
    assert isinstance(lm, LoadedGPT)
    at = opened(lang, "induction")
    run(at.button(key="attention_repeat").click())
    text = str(at.text_input(key="text").value)
    tokens = list(text)
    assert set(tokens) <= set(lm.vocabulary[:-1])  # the task's drawn tokens (never □)
    a, s = hand_repeat(tokens)
    scores = hand_scores(weights_here(lm, text), a, s)
    layer, head = np.unravel_index(int(np.argmax(scores)), scores.shape)
    assert layer == 1 and scores[layer, head] >= 0.4  # layer 2 copies (300 random sequences: 0.48 at the least)
    assert (at.session_state["layer"], at.session_state["head"]) == (layer, head)
    focused = heatmap_z(next(c for c in charts_of(at) if c.key == "focused").spec["data"][0])  # the head on screen
    queries = np.arange(a + s, a + 2 * s)  # the second copy
    assert focused[queries, queries - s + 1].mean() == pytest.approx(scores[layer, head], abs=1e-5)
    # The stripe: of every diagonal, the one s − 1 below the main one holds the second copy's most weight (the token
    # after each earlier occurrence); on 300 random sequences it did every time, by 0.08 at the least.
    by_offset = [focused[queries[queries >= d], queries[queries >= d] - d].mean() for d in range(queries[-1] + 1)]
    assert int(np.argmax(by_offset)) == s - 1, by_offset
    line = next(c.value for c in at.caption if LINE[lang].format(s=s, a=a, b=a + s) in c.value)
    assert HIGHEST[lang].format(l=2, h=head + 1, score=f"{scores[layer, head]:.2f}") in line
