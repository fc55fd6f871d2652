"""AppTest for the Train page: defaults, validation messages, a short run that lands in the model picker; in
English and Chinese."""

from __future__ import annotations

import json

import pytest
from streamlit.testing.v1 import AppTest

from model import TASKS
from ui.training.panels import name_problem


def open_train(lang: str = "en") -> AppTest:
    at = AppTest.from_file("../../app.py", default_timeout=60)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("pages/train.py").run()
    assert not at.exception
    return at


def start(at: AppTest) -> None:
    at.button(key="train_start").click().run()


def figure(at: AppTest, key: str) -> dict:
    return next(json.loads(c.proto.spec) for c in at.get("plotly_chart") if c.proto.id.endswith(key))


def test_defaults_are_the_fast_reverse_setup():
    at = open_train()
    assert at.selectbox(key="train_task").value == "reverse"
    assert at.selectbox(key="train_task").options == list(TASKS)
    assert (at.number_input(key="train_enc").value, at.number_input(key="train_dec").value) == (1, 1)
    assert (at.number_input(key="train_d").value, at.number_input(key="train_heads").value) == (64, 4)
    assert at.select_slider(key="train_lr").value == 2e-3
    assert at.selectbox(key="train_pos").value == "sinusoidal" and at.selectbox(key="train_norm").value == "post"
    assert at.number_input(key="train_goal").value == 99.0


@pytest.mark.parametrize(
    ("key", "value", "lang", "words"),
    [
        ("train_heads", 3, "en", "These settings cannot build a model: d_model (64) must be divisible by n_heads"),
        ("train_heads", 5, "en", "must be divisible by n_heads"),
        ("train_d", 66, "en", "must be divisible by n_heads"),
        ("train_heads", 3, "zh", "这些设置无法构建模型：d_model（64）必须能被 n_heads（3）整除"),  # the reason too
    ],
)
def test_impossible_settings_get_the_configs_message(key, value, lang, words):
    at = open_train(lang)
    at.number_input(key=key).set_value(value)
    start(at)
    assert not at.exception
    assert any(words in e.value for e in at.error)
    assert "train_job" not in at.session_state


@pytest.mark.parametrize(("lang", "done"), [("en", "Finished after 10 steps"), ("zh", "训练完成：共 10 步")])
def test_a_short_run_lands_in_this_sessions_model_picker(lang, done):
    at = open_train(lang)
    at.selectbox(key="train_task").set_value("translate")
    at.radio(key="train_rule").set_value("after steps")
    at.number_input(key="train_steps").set_value(10)
    start(at)
    job = at.session_state["train_job"]
    assert job.join(60)
    at.run()  # the progress fragment sees the finished job, registers the model and reruns the app
    assert not at.exception
    # AppTest runs the page script alone after switch_page (no sidebar); the browser test checks the picker.
    assert list(at.session_state["user_models"]) == ["my-translate"]
    assert at.session_state["user_models"]["my-translate"].task.name == "translate"
    assert any("my-translate" in s.value and s.value.startswith(done) for s in at.success)
    assert job.result.steps == 10


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "Type a name"),
        ("   ", "Type a name"),
        ("reverse", "shipped model"),
        ("<script>", "Use 1 to 40"),
        ("x" * 41, "Use 1 to 40"),
        ("../etc", "Use 1 to 40"),
        ("taken", "already have"),
    ],
)
def test_model_names_are_checked(name, problem):
    assert problem in name_problem(name, {"taken"})


def test_a_good_name_passes():
    assert name_problem("my model-2.1", {"other"}) is None


def test_a_run_of_another_page_stops_training_at_once_and_the_train_page_does_not():
    at = open_train()
    at.number_input(key="train_steps").set_value(20000)  # reverse until 99 %: many seconds of work
    start(at)
    job = at.session_state["train_job"]
    assert job.running
    at.run()  # a full run of the Train page itself keeps it going
    assert job.running and job.view().reason == ""
    at.switch_page("pages/attention.py").run()
    assert job.join(5), "training went on after the user left the Train page"
    assert (job.view().status, job.view().reason) == ("stopped", "the page was left")


def test_chinese_train_page_timeline_and_stop_reason():
    at = open_train("zh")
    assert at.title[0].value == "训练一个 Transformer"
    assert at.selectbox(key="train_pos").options == ["正弦", "可学习", "无"]
    at.selectbox(key="train_task").set_value("translate")
    at.radio(key="train_rule").set_value("after steps")
    at.number_input(key="train_steps").set_value(20)
    start(at)
    assert at.session_state["train_job"].join(60)
    at.run()
    assert not at.exception
    timeline = figure(at, "train_timeline")
    assert timeline["layout"]["sliders"][0]["currentvalue"]["prefix"] == "第 "
    assert timeline["layout"]["sliders"][0]["currentvalue"]["suffix"] == " 步"
    assert [b["label"] for b in timeline["layout"]["updatemenus"][0]["buttons"]] == ["▶ 播放", "❚❚ 暂停"]
    assert figure(at, "train_loss_chart")["layout"]["title"]["text"] == "训练损失"
    assert at.selectbox(key="snap_attn").value == "decoder.0.cross_attn"
    assert "解码器第 1 层 · 交叉注意力" in at.selectbox(key="snap_attn").options
    at.number_input(key="train_steps").set_value(20000)  # a long run, stopped by the Stop button
    start(at)
    job = at.session_state["train_job"]
    at.button(key="train_stop").click().run()
    assert job.join(10)
    at.run()
    assert not at.exception
    assert job.view().reason == "stopped by you"  # kept as its English msgid, shown translated
    assert any(s.value.startswith("已停止（你手动停止）：") for s in at.success)
