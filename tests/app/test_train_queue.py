"""AppTest for the Train page with the worker pool busy: the place in line and the wait, live; leaving the line;
each limit's message on Start; a crashed and an over-time worker. The app's pool has one worker (conftest), and
each session is its own AppTest; in English and Chinese."""

from __future__ import annotations

import os
import re
import signal

import pytest

from .charts import charts_of
from .training import open_train, set_limits, set_run, start, texts, wait_for

LONG = 20000  # steps: a run that goes on until it is stopped


def long_run(lang: str):
    at = open_train(lang)
    set_run(at, "reverse", LONG)
    return at


def started(at):
    """The session's job, once Start has queued it."""
    return at.session_state["train_job"]


def training(job) -> bool:
    return job.view().status == "running" and job.view().step > 0


PLACE = {
    "en": r"^You are {nth} in line — about \d+ (s|min)\.$",
    "zh": r"^你排在第 {n} 位，大约还要等 \d+ (秒|分钟)。$",
}
NTH = {1: "1st", 2: "2nd"}


def place_shown(at, lang: str, n: int) -> bool:
    pattern = PLACE[lang].format(nth=NTH[n], n=n)
    return any(re.match(pattern, text) for text in texts(at.info))


@pytest.mark.parametrize(
    ("lang", "left_the_line", "progress"),
    [("en", "Stopped (stopped by you) before it started: nothing was trained", "Step "),
     ("zh", "已停止（你手动停止）：训练还没开始，什么也没训练", "第 ")],
)  # fmt: skip
def test_sessions_wait_in_line_see_their_place_and_may_leave_it(train_pool, lang, left_the_line, progress):
    first, second, third = long_run(lang), long_run(lang), long_run(lang)
    start(first)
    wait_for(lambda: training(started(first)), what="the first run to train")
    start(second)
    start(third)
    a, b, c = started(first), started(second), started(third)
    assert [(j.view().status, j.view().position) for j in (b, c)] == [("queued", 1), ("queued", 2)]
    assert 0 < b.view().wait_seconds < c.view().wait_seconds
    second.run()
    third.run()
    assert place_shown(second, lang, 1) and place_shown(third, lang, 2), (texts(second.info), texts(third.info))
    assert charts_of(second) == [] and not second.button(key="train_stop").disabled  # no curves yet

    second.button(key="train_stop").click().run()  # leaves the line: nothing was trained, so no model
    assert b.finished and b.view().status == "stopped" and b.result is None and b.worker_pid is None
    second.run()
    assert not second.exception
    assert any(w.startswith(left_the_line) for w in texts(second.warning)), texts(second.warning)
    assert "my-reverse" not in second.session_state["user_models"]
    third.run()
    assert place_shown(third, lang, 1)  # moved up, shown on its next redraw

    first.button(key="train_stop").click().run()  # frees the worker: the third run starts on it
    assert a.join(30) and a.result is not None  # Stop waits 2 s for the model; a loaded machine may take longer
    wait_for(lambda: training(c), what="the third run to start")
    third.run()
    assert not third.exception and not place_shown(third, lang, 1)
    assert third.get("progress")[0].proto.text.startswith(progress)
    assert c.worker_pid == a.worker_pid != os.getpid()


@pytest.mark.parametrize(
    ("lang", "too_many", "busy", "full"),
    [
        ("en", "A run may take at most 100 steps; you asked for 500.",
         "You already have a training run going or waiting for a worker.",
         "The line of training runs waiting for a worker is full (at most 1). Try again in a minute."),
        ("zh", "一次训练最多 100 步，你设置了 500 步。", "你已经有一次训练正在进行或正在排队。",
         "等待训练的队列已满（最多 1 个）。请过一分钟再试。"),
    ],
)  # fmt: skip
def test_each_limit_gives_its_message_on_start_and_starts_nothing(train_pool, lang, too_many, busy, full):
    set_limits(train_pool, max_steps=100)
    first = open_train(lang)
    set_run(first, "reverse", 500)
    start(first)
    assert not first.exception and texts(first.error) == [too_many]
    assert "train_job" not in first.session_state and train_pool.active_jobs() == []

    set_limits(train_pool, max_steps=LONG, max_queue=1)
    set_run(first, "reverse", LONG)
    start(first)
    job = started(first)
    start(first)  # one run a session: the second Start is refused, the first goes on
    assert [e for e in texts(first.error) if e.startswith(busy)] and started(first) is job and job.running
    wait_for(lambda: training(job), what="the first run to train")
    second, third = long_run(lang), long_run(lang)
    start(second)
    assert started(second).view().status == "queued"
    start(third)
    assert texts(third.error) == [full] and "train_job" not in third.session_state
    assert len(train_pool.active_jobs()) == 2


def test_a_crashed_worker_fails_only_its_run_with_a_clear_message(train_pool):
    first, second = long_run("en"), open_train("en")
    set_run(second, "translate", 20)
    start(first)
    victim = started(first)
    wait_for(lambda: training(victim), what="the run to train")
    start(second)  # waits behind it
    os.kill(victim.worker_pid, signal.SIGKILL)
    assert victim.join(10)
    first.run()
    assert not first.exception
    assert texts(first.error) == [
        f"The training worker stopped unexpectedly (exit code {-signal.SIGKILL}), so this run was lost. "
        "Press Start to try again."
    ]
    assert first.session_state["user_models"] == {} and not first.success
    bystander = started(second)  # the replacement worker takes the next run in line
    assert bystander.join(120) and bystander.view().status == "done"
    assert bystander.worker_pid not in (None, victim.worker_pid)
    second.run()
    assert list(second.session_state["user_models"]) == ["my-translate"]


def test_a_run_past_the_time_limit_is_ended_with_a_clear_message_in_chinese(train_pool):
    set_limits(train_pool, time_limit=3.0)
    at = long_run("zh")
    start(at)
    job = started(at)
    assert job.join(120)
    at.run()
    assert not at.exception
    assert texts(at.error) == ["这次训练超过了 3 秒的时间上限，已被结束。请减少步数，或换一个更小的模型。"]
    assert job.view().step > 0 and job.result is None and at.session_state["user_models"] == {}
    assert at.get("progress")  # the curves it drew until then stay


def _waiting_texts() -> None:
    import streamlit as st

    from ui.training.queue import waiting_text

    for position, seconds in [(1, 0.2), (2, 42.0), (3, 7.4), (4, 89.0), (11, 95.0), (12, 600.0), (23, 3600.0)]:
        st.markdown(waiting_text(position, seconds))
    st.markdown(waiting_text(None, None))


@pytest.mark.parametrize(
    ("lang", "want"),
    [
        ("en", ["You are 1st in line — about 1 s.", "You are 2nd in line — about 40 s.",
                "You are 3rd in line — about 7 s.", "You are 4th in line — about 90 s.",
                "You are 11th in line — about 2 min.", "You are 12th in line — about 10 min.",
                "You are 23rd in line — about 60 min.", "A training worker is taking your run…"]),
        ("zh", ["你排在第 1 位，大约还要等 1 秒。", "你排在第 2 位，大约还要等 40 秒。",
                "你排在第 3 位，大约还要等 7 秒。", "你排在第 4 位，大约还要等 90 秒。",
                "你排在第 11 位，大约还要等 2 分钟。", "你排在第 12 位，大约还要等 10 分钟。",
                "你排在第 23 位，大约还要等 60 分钟。", "一个训练进程正在接手你的训练……"]),
    ],
)  # fmt: skip
def test_the_place_in_line_and_the_wait_read_naturally(lang, want):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_waiting_texts, default_timeout=30)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception and texts(at.markdown) == want


def _progress_texts() -> None:
    import streamlit as st

    from services.training import JobView
    from ui.training.panels import progress_text

    for step, total, seconds, accuracies in [(248, 20000, 38.8, [(200, 0.382)]), (10, 40, 2.0, [])]:
        st.text(progress_text(JobView("running", "", "", step, total, seconds, [(step, 0.5)], accuracies, 0)))


@pytest.mark.parametrize(
    ("lang", "want"),
    [
        # 38.8 s / 248 steps × 19 752 steps left = 3090 s ≈ 52 min; 2.0 s / 10 × 30 = 6 s
        ("en", ["Step 248 of at most 20,000 · 38.8 s · at most 52 min left · held-out accuracy 38.2%",
                "Step 10 of at most 40 · 2.0 s · at most 6 s left"]),
        ("zh", ["第 248 步（最多 20,000 步）· 38.8 秒 · 最多还剩 52 分钟 · 留出集准确率 38.2%",
                "第 10 步（最多 40 步）· 2.0 秒 · 最多还剩 6 秒"]),
    ],
)  # fmt: skip
def test_the_progress_line_says_the_time_left_in_round_figures(lang, want):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_progress_texts, default_timeout=30)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception and texts(at.text) == want
