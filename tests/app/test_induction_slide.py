"""The lesson's slide "an induction head forms" (AppTest), in English and Chinese: it stands after the poem written
live, its words in each language; Open this view opens the Train page on the GPT family's induction task with that
task's defaults (the form drawn, nothing started: the run ready to start), the link naming the family and task; a
link to /train?arch=gpt&task=induction opens the same, and a class follows the teacher's family and task. The slide
draws the circuit's two heads of the shipped induction checkpoint (and, for a slide without a model of its own, of the
run's model before training): the heads and their weights checked against the model run here, the induction and
previous-token scores counted by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from model.gpt import LoadedGPT
from model.gpt.induction import InductionSettings, repeated_batch
from services.lessons import shipped_lessons
from services.rooms import shared_room_store
from services.training.gpt_worker import SCORE_SEED, page_probe
from ui.class_role import ROLE_KEY
from ui.i18n import translations
from ui.lesson.text import inert_markdown
from ui.training.gpt_settings import DEFAULTS
from ui.training.gpt_slide import untrained_induction

from .charts import charts_of
from .training import heatmap_z

APP = str(Path(__file__).resolve().parents[2] / "app.py")
SHIPPED = shipped_lessons()["attention-basics"]
SLIDE = next(n for n, s in enumerate(SHIPPED.slides, 1) if s.title["en"] == "An induction head forms")
TITLES = {"en": "An induction head forms", "zh": "归纳头的形成"}


def run(target) -> AppTest:
    at = target.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def opened(lang: str, page: str, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update(lang=lang, **params)
    run(at)
    return run(at.switch_page(page))


def ready_to_start(at: AppTest) -> None:
    """The Train page on the GPT family's induction task, its form at the task's defaults, nothing training."""
    assert at.radio(key="train_arch").value == "gpt"
    assert at.selectbox(key="train_gpt_task").value == "induction"
    defaults = DEFAULTS["induction"]
    assert at.number_input(key="train_gpt_layers_induction").value == defaults.n_layers
    assert at.number_input(key="train_gpt_heads_induction").value == defaults.n_heads
    assert at.checkbox(key="train_gpt_mlp_induction").value is False
    assert "train_start" in {b.key for b in at.button} and "train_job" not in at.session_state
    assert (at.query_params["arch"], at.query_params["task"]) == ("gpt", "induction")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_slide_follows_the_poem_and_opens_the_run_ready_to_start(lang):
    assert SLIDE == 18 and SHIPPED.slides[SLIDE - 2].title["en"] == "A poem written live"
    at = opened(lang, "pages/lesson.py", slide=str(SLIDE))
    assert at.header[0].value == TITLES[lang]
    assert inert_markdown(SHIPPED.slides[SLIDE - 1].text[lang]) in [m.value for m in at.markdown]
    run(at.button(key="lesson_open").click())
    assert at.title[0].value == translations(lang).gettext("Train a model")
    ready_to_start(at)
    assert at.query_params["lang"] == lang


def test_a_link_opens_the_induction_task_and_a_class_follows_the_teachers_choice():
    at = opened("zh", "pages/train.py", arch="gpt", task="induction")
    ready_to_start(at)
    teacher = opened("en", "pages/train.py")
    run(teacher.button(key="_class_start").click())
    code = teacher.session_state[ROLE_KEY].code
    run(teacher.radio(key="train_arch").set_value("gpt"))
    run(teacher.selectbox(key="train_gpt_task").set_value("induction"))
    state = shared_room_store().snapshot(code).state
    assert (state["page"], state["arch"], state["gpt_task"]) == ("train", "gpt", "induction")
    student = AppTest.from_file(APP, default_timeout=120)
    student.query_params.update(lang="zh", room=code)
    run(student)
    assert (student.session_state["train_arch"], student.session_state["train_gpt_task"]) == ("gpt", "induction")
    assert any("老师按下" in i.value for i in student.info)  # no run yet: where it will appear


def one_slide_lesson(state: dict) -> bytes:
    """A lesson of one train slide with `state` (the shipped slide's words), as a teacher would upload it."""
    slide = {**SHIPPED.to_dict()["slides"][SLIDE - 1], "state": state}
    return json.dumps({**SHIPPED.to_dict(), "slides": [slide]}).encode()


@pytest.mark.parametrize(
    ("state", "model", "words"),
    [({}, "induction", "Trained: **induction**"),
     ({"arch": "gpt", "gpt_task": "induction"}, None, "Random weights, before training")],
)  # fmt: skip
def test_the_slide_draws_the_circuits_two_heads_as_the_run_scores_them(state, model, words):
    at = opened("en", "pages/lesson.py", slide=str(SLIDE))
    if state:  # the same slide without a model of its own: the run's model before training
        at.file_uploader(key="lesson_upload").set_value(("mine.json", one_slide_lesson(state), "application/json"))
        run(at)
    fig = next(c.spec for c in charts_of(at) if c.key == "train_slide_circuit")
    left, right = (heatmap_z(trace) for trace in fig["data"])
    lm = load_pretrained(model) if model else untrained_induction()
    assert isinstance(lm, LoadedGPT) and any(words in c.value for c in at.caption), [c.value for c in at.caption]
    settings = InductionSettings(context=lm.max_len)
    scored = repeated_batch(settings, 100, torch.Generator().manual_seed(SCORE_SEED))
    with torch.inference_mode():
        _, trace = lm.model(scored.ids, record=True)
    weights = np.stack([trace[f"decoder.{i}.self_attn.weights"].numpy() for i in range(2)], 1)  # (B, L, H, T, T)
    induction = np.zeros((lm.config.n_layers, lm.config.n_heads))
    previous = weights.diagonal(offset=-1, axis1=-2, axis2=-1).mean((0, -1))  # (L, H): attention to t − 1
    for b, (s, a) in enumerate(zip(scored.segment.tolist(), scored.start.tolist(), strict=True)):
        q = np.arange(a + s, a + 2 * s)
        induction += weights[b][:, :, q, q - s + 1].mean(-1) / len(scored)
    ind_head = int(np.argmax(induction[1]))  # layer 2's best copier, then layer 1's best previous-token head
    prev_head = int(np.argmax(previous[0]))
    if model:
        assert induction[1, ind_head] >= 0.5  # the checkpoint's head has formed
    assert f"Layer 1, head {prev_head + 1}: previous token" in str(fig["layout"])
    assert f"Layer 2, head {ind_head + 1}: induction" in str(fig["layout"])
    probe = page_probe(settings)  # the run's own probe sequence
    end = int(probe.start[0] + 2 * probe.segment[0])
    with torch.inference_mode():
        _, on_probe = lm.model(probe.ids[:, :end], record=True)
    np.testing.assert_allclose(left, on_probe["decoder.0.self_attn.weights"][0, prev_head].numpy(), atol=1e-6)
    np.testing.assert_allclose(right, on_probe["decoder.1.self_attn.weights"][0, ind_head].numpy(), atol=1e-6)


def test_a_teacher_opening_the_link_in_a_class_can_ask_at_once():
    teacher = opened("en", "pages/train.py")
    run(teacher.button(key="_class_start").click())
    role = teacher.session_state[ROLE_KEY]
    again = opened("zh", "pages/train.py", room=role.code, key=role.key, arch="gpt", task="induction")
    ready_to_start(again)
    assert again.button(key="_q_ask_copy").label == "❓ 问全班：哪个头会负责复制？"
