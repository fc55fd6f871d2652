"""AppTest for the Train page: defaults, the options of each model family, validation messages, short runs in the
worker pool that land in the model picker (Transformer and RNN), leaving and Stop; in English and Chinese."""

from __future__ import annotations

import os

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from services.rooms import shared_room_store
from ui.class_role import ROLE_KEY
from ui.training.panels import name_problem

from .charts import charts_of
from .training import figure, heatmap_z, open_train, set_run, start, texts, wait_for

TRANSFORMER_KEYS = ("train_pos", "train_enc", "train_dec", "train_d", "train_heads", "train_norm")
RNN_KEYS = ("train_cell", "train_score", "train_bidir", "train_hidden", "train_forcing")


def keys_shown(at) -> set[str]:
    return {w.key for kind in ("selectbox", "number_input", "checkbox", "slider") for w in at.get(kind)}


def test_defaults_are_the_fast_reverse_setup():
    at = open_train()
    assert at.radio(key="train_arch").value == "transformer"
    assert at.selectbox(key="train_task").value == "reverse"
    assert at.selectbox(key="train_task").options == [  # each task by what it does, not by its id
        "Copy the digits", "Reverse the digits", "Sort the digits", "Toy translation (adjectives after the noun)",
        "Toy translation into Chinese",
    ]  # fmt: skip
    assert open_train("zh").selectbox(key="train_task").options[:3] == ["照抄数字", "倒序数字", "数字排序"]
    assert (at.number_input(key="train_enc").value, at.number_input(key="train_dec").value) == (1, 1)
    assert (at.number_input(key="train_d").value, at.number_input(key="train_heads").value) == (64, 4)
    assert at.select_slider(key="train_lr").value == 2e-3
    assert at.selectbox(key="train_pos").value == "sinusoidal" and at.selectbox(key="train_norm").value == "post"
    assert at.number_input(key="train_goal").value == 99.0
    assert keys_shown(at).isdisjoint(RNN_KEYS)


@pytest.mark.parametrize(
    ("lang", "families", "cells", "scores"),
    [
        ("en", ["Transformer", "RNN + attention", "GPT (decoder-only)"], ["GRU", "LSTM", "plain RNN (tanh)"],
         ["additive (Bahdanau)", "dot (Luong)", "general (Luong)", "none (no attention)"]),
        ("zh", ["Transformer", "RNN + 注意力", "GPT（仅解码器）"], ["GRU", "LSTM", "普通 RNN（tanh）"],
         ["加性（Bahdanau）", "点积（Luong）", "一般式（Luong）", "无（没有注意力）"]),
    ],
)  # fmt: skip
def test_each_family_shows_only_its_own_options(lang, families, cells, scores):
    at = open_train(lang)
    assert at.radio(key="train_arch").options == families
    at.radio(key="train_arch").set_value("rnn").run()
    assert not at.exception
    shown = keys_shown(at)
    assert set(RNN_KEYS) <= shown and shown.isdisjoint(TRANSFORMER_KEYS)
    assert at.selectbox(key="train_cell").options == cells and at.selectbox(key="train_cell").value == "gru"
    assert at.selectbox(key="train_score").options == scores and at.selectbox(key="train_score").value == "additive"
    assert (at.number_input(key="train_hidden").value, at.checkbox(key="train_bidir").value) == (64, False)
    assert at.slider(key="train_forcing").value == 1.0
    at.radio(key="train_arch").set_value("transformer").run()
    assert set(TRANSFORMER_KEYS) <= keys_shown(at) and keys_shown(at).isdisjoint(RNN_KEYS)


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
def test_a_short_run_trains_in_a_worker_and_lands_in_this_sessions_model_picker(train_pool, lang, done):
    at = open_train(lang)
    set_run(at, "translate", 10)
    start(at)
    job = at.session_state["train_job"]
    assert job.join(120)
    assert job.worker_pid is not None and job.worker_pid != os.getpid()  # trained in a worker, not here
    assert job.worker_pid in train_pool.worker_pids()
    at.run()  # the progress fragment sees the finished job, registers the model and reruns the app
    assert not at.exception
    # AppTest runs the page script alone after switch_page (no sidebar); the browser test checks the picker.
    assert list(at.session_state["user_models"]) == ["my-translate"]
    assert at.session_state["user_models"]["my-translate"].task.name == "translate"
    assert any("my-translate" in s and s.startswith(done) for s in texts(at.success))
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
    said = name_problem(name, {"taken"})
    assert said is not None and problem in said


def test_a_good_name_passes():
    assert name_problem("my model-2.1", {"other"}) is None


def test_a_run_of_another_page_stops_training_at_once_and_frees_the_worker(train_pool):
    at = open_train()
    at.number_input(key="train_steps").set_value(20000)  # reverse until 99 %: many seconds of work
    start(at)
    job = at.session_state["train_job"]
    assert job.running
    at.run()  # a full run of the Train page itself keeps it going
    assert job.running and job.view().reason == ""
    at.switch_page("pages/attention.py").run()
    assert job.join(10), "training went on after the user left the Train page"
    assert (job.view().status, job.view().reason) == ("stopped", "the page was left")
    assert train_pool.active_jobs() == []  # its worker is free for the next student


def test_chinese_train_page_timeline_and_stop_reason(train_pool):
    at = open_train("zh")
    assert at.title[0].value == "训练一个模型"
    assert at.selectbox(key="train_pos").options == ["正弦", "可学习", "无"]
    set_run(at, "translate", 20)
    start(at)
    assert at.session_state["train_job"].join(120)
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
    assert any(s.startswith("已停止（你手动停止）：") for s in texts(at.success))


@pytest.mark.parametrize(
    ("lang", "label", "done"),
    [("en", "Decoder · attention over the encoder states", "Finished after 30 steps"),
     ("zh", "解码器 · 对编码器状态的注意力", "训练完成：共 30 步")],
)  # fmt: skip
def test_an_rnn_run_lands_an_rnn_model_and_shows_its_one_attention(train_pool, lang, label, done):
    at = open_train(lang)
    set_run(at, "translate", 30, arch="rnn")
    at.selectbox(key="train_cell").set_value("lstm")
    at.slider(key="train_forcing").set_value(0.5)
    start(at)
    job = at.session_state["train_job"]
    assert job.join(120) and job.worker_pid != os.getpid()
    at.run()
    assert not at.exception
    loaded = at.session_state["user_models"]["my-translate-rnn"]
    assert (loaded.config.arch, loaded.config.cell, loaded.config.score) == ("rnn", "lstm", "additive")
    assert job.train_config.teacher_forcing == 0.5
    assert any(s.startswith(done) and "my-translate-rnn" in s for s in texts(at.success))
    assert at.selectbox(key="snap_attn").options == [label]
    assert "snap_head" not in {w.key for w in at.selectbox}  # one head: nothing to choose
    timeline = figure(at, "train_timeline")
    source, target = job.probe_tokens
    assert timeline["layout"]["title"]["text"] == label
    assert timeline["layout"]["xaxis"]["ticktext"] == source and timeline["layout"]["yaxis"]["ticktext"] == target
    want = job.snapshot_list()[-1].weights["rnn.attn"][0]  # (T, S): the last snapshot's one head
    np.testing.assert_array_equal(heatmap_z(timeline["data"][0]), want)
    assert want.shape == (len(target), len(source))


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [("en", "This model has no attention (score *none*)"), ("zh", "这个模型没有注意力（打分函数为 *none*）")],
)
def test_an_rnn_without_attention_says_so_instead_of_an_empty_figure(train_pool, lang, sentence):
    at = open_train(lang)
    set_run(at, "translate", 10, arch="rnn")
    at.selectbox(key="train_score").set_value("none")
    start(at)
    job = at.session_state["train_job"]
    assert job.join(120)
    at.run()
    assert not at.exception
    assert at.session_state["user_models"]["my-translate-rnn"].config.score == "none"
    assert any(i.startswith(sentence) for i in texts(at.info))
    assert not [c for c in charts_of(at) if "train_timeline" in c.id or "train_live" in c.id]


def test_start_right_after_stop_keeps_the_stopped_runs_model(train_pool):
    at = open_train()
    set_run(at, "reverse", 20000)
    start(at)
    first = at.session_state["train_job"]
    wait_for(lambda: first.view().step > 0, what="the first run to train")
    first.stop("stopped by you")  # as the Stop button does, without its wait: the worker may still be handing back
    start(at)  # Start again at once: the stopped run's model is kept, then a new run goes in line
    assert not at.exception and not at.error
    second = at.session_state["train_job"]
    assert second is not first and first.finished and first.result is not None
    assert first.registered_as == "my-reverse" and second.name == "my-reverse-2"
    assert at.session_state["user_models"]["my-reverse"].model is first.result.loaded.model


def test_a_model_the_teacher_trains_in_class_reaches_the_rooms_students(train_pool):
    teacher = open_train()
    teacher.button(key="_class_start").click().run()
    code = teacher.session_state[ROLE_KEY].code
    set_run(teacher, "translate", 10, arch="rnn")
    start(teacher)
    job = teacher.session_state["train_job"]
    assert job.join(120) and job.worker_pid != os.getpid()
    teacher.run()  # the model lands in the teacher's list, and the next publish shares it with the room
    teacher.run()
    assert not teacher.exception
    assert [m.name for m in shared_room_store().room_models(code)] == ["my-translate-rnn"]
    student = AppTest.from_file("../../app.py", default_timeout=60)
    student.query_params.update(lang="zh", room=code)
    student.run()
    assert not student.exception
    assert "my-translate-rnn（老师共享）" in student.selectbox(key="model").options
    shared = room_model_for(student, "my-translate-rnn")
    assert shared.config.arch == "rnn" and shared.model is not job.result.loaded.model  # rebuilt from the room's bytes
    for name, tensor in job.result.loaded.model.state_dict().items():
        np.testing.assert_array_equal(shared.model.state_dict()[name].numpy(), tensor.numpy(), err_msg=name)


def room_model_for(at, name: str):
    """The room's model as the student's session loads it (the classroom's loader, from the room's bytes)."""
    from ui.room_models import _load

    code = at.session_state[ROLE_KEY].code
    size = {m.name: m.size for m in shared_room_store().room_models(code)}[name]
    return _load(code, name, size)
