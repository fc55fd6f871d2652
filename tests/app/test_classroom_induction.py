"""A class watches an induction head form (AppTest): the teacher, in a class on the Train page, asks "which head will
copy?" before Start, then starts ONE induction run in the worker pool; two students (Chinese and English) follow.
Each student's page draws the teacher's run from the room (no run of their own): the same loss and head-score curves
as the teacher's page, the same step the head formed at; the question opens on their pages with every head an
option, and is revealed when the head forms with the head the run's own scores name (counted here with NumPy)."""

from __future__ import annotations

import base64
import re
import time
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from services.rooms import shared_room_store
from services.training import JobHandle
from ui.class_role import ROLE_KEY
from ui.classroom.ask import QUESTION_KEY

from .charts import charts_of
from .training import WAIT, set_run

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TRAIN = "pages/train.py"
WORDS = {
    "en": {"prompt": "Which head will copy?", "run": "The teacher's run", "formed": "An induction head formed at step",
           "answer": "The model's answer:", "head": "Layer {l} · Head {h}", "yours": "Your answer"},
    "zh": {"prompt": "哪个头会负责复制？", "run": "老师的训练", "formed": "归纳头在第", "answer": "模型的答案：",
           "head": "第 {l} 层 · 头 {h}", "yours": "你的答案"},
}  # fmt: skip


COPIED = {"en": r"(?P<right>\d+) of \d+ right", "zh": r"个里对了 (?P<right>\d+) 个"}  # a sample's copy, counted


def run(target) -> AppTest:
    at = target.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def charts(at: AppTest) -> dict[str, dict]:
    return {c.key: c.spec for c in charts_of(at) if c.key}


def array(values) -> np.ndarray:
    """A trace's x or y as plotly's JSON carries it (a typed array in base64, or a list)."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"]).astype(float)
    return np.asarray(values, dtype=float)


def texts(at: AppTest) -> list[str]:
    return [e.value for e in [*at.markdown, *at.success, *at.caption, *at.info]]


@pytest.fixture(scope="module")
def lesson(app_pool):
    """The class, its question asked, its run trained until the head formed; (teacher, students, job, seconds)."""
    started = time.monotonic()
    teacher = AppTest.from_file(APP, default_timeout=120)
    teacher.query_params["lang"] = "en"
    run(teacher)
    run(teacher.switch_page(TRAIN))
    run(teacher.button(key="_class_start").click())
    role = teacher.session_state[ROLE_KEY]
    run(teacher.radio(key="train_arch").set_value("gpt"))
    run(teacher.selectbox(key="train_gpt_task").set_value("induction"))
    students = {}
    for lang in ("zh", "en"):
        students[lang] = AppTest.from_file(APP, default_timeout=120)
        students[lang].query_params.update(lang=lang, room=role.code)
        run(students[lang])
    run(teacher.button(key="_q_ask_copy").click())
    pick = f"_class_pick_{teacher.session_state[QUESTION_KEY]['id']}"
    heads = teacher.number_input(key="train_gpt_heads_induction").value
    run(students["zh"]).button_group(key=pick).set_value(heads)  # "layer 2, head 1", before training
    run(students["zh"])
    teacher.number_input(key="train_gpt_minutes_induction").set_value(10.0)  # a busy machine: steps, not minutes
    run(teacher.button(key="train_start").click())
    job = teacher.session_state["train_job"]
    assert isinstance(job, JobHandle)
    deadline = time.monotonic() + 3 * WAIT
    while (progress := job.view().gpt) is None or progress.formed is None:
        view = job.view()
        best = (
            max((float(s.induction.max()), at) for at, s in view.gpt.scores) if view.gpt and view.gpt.scores else None
        )
        assert job.running and time.monotonic() < deadline, f"no head formed: {view.status} at step {view.step}, {best}"
        time.sleep(1.0)
        run(teacher)  # the page's heartbeat; the publish tick sends the class its run
        for student in students.values():
            run(student)  # following: the room's run, nothing of their own
        assert app_pool.active_jobs() == [job]  # ONE run for the class
    run(teacher)  # the head has formed: this run sends it and reveals the question
    job.stop()
    job.join(30)
    yield teacher, students, job, time.monotonic() - started
    job.stop()


def test_the_question_opens_on_every_students_page_with_every_head(lesson):
    teacher, students, _job, _ = lesson
    question = teacher.session_state[QUESTION_KEY]
    config = teacher.session_state["train_job"].model_config
    heads = [(layer, head) for layer in range(config.n_layers) for head in range(config.n_heads)]
    assert config.n_layers == 2 and question["options"] == [f"{layer}.{head}" for layer, head in heads]
    for lang, student in students.items():
        run(student)
        pills = student.button_group(key=f"_class_pick_{question['id']}")
        assert pills.options == [WORDS[lang]["head"].format(l=layer + 1, h=head + 1) for layer, head in heads]


def test_students_draw_the_teachers_one_run_with_the_same_curves(lesson):
    teacher, students, job, seconds = lesson
    print(f"class run: head formed and class fixture done in {seconds:.1f} s")
    view = job.view()
    formed = view.gpt.formed
    mine = charts(run(teacher))
    for lang, student in students.items():
        run(student)
        assert "train_job" not in student.session_state  # nothing trains for a student
        theirs = charts(student)
        assert any(WORDS[lang]["run"] in t for t in texts(student))
        scores, teachers = theirs["class_train_gpt_scores"]["data"], mine["train_gpt_scores"]["data"]
        heads = job.model_config.n_layers * job.model_config.n_heads
        assert len(scores) == len(teachers) == 2 * heads + 2  # induction and previous-token of every head, 2 losses
        record = shared_room_store().snapshot(student.session_state[ROLE_KEY].code).run
        assert record is not None
        upto = record["score_steps"][-1]
        for got, want in zip(scores, teachers, strict=True):
            x, y = array(got["x"]), array(got["y"])  # the teacher's run has ended: its last record is all of it
            assert x.tolist() == array(want["x"]).tolist() and x[-1] == upto
            np.testing.assert_allclose(y, array(want["y"]), atol=5e-4)
        got, want = theirs["class_train_gpt_loss"]["data"][0], mine["train_gpt_loss"]["data"][0]
        assert array(got["x"]).tolist() == array(want["x"]).tolist() and array(got["x"])[0] == 1
        np.testing.assert_allclose(array(got["y"]), array(want["y"]), rtol=5e-4)
        assert any(f"{WORDS[lang]['formed']} {formed.step:,}" in t for t in texts(student)), texts(student)
        assert [c.value for c in student.code] == [c.value for c in teacher.code]  # the samples written so far
        right = [int(m.group("right")) for c in student.caption if (m := re.search(COPIED[lang], c.value))]
        assert right == [sample.right for sample in reversed(view.gpt.samples)][: len(right)] and right


def test_the_answer_is_revealed_when_the_head_forms_from_the_runs_scores(lesson):
    teacher, students, job, _ = lesson
    gpt = job.view().gpt
    scores = dict(gpt.scores)[gpt.formed.step]  # the scores that formed it
    layer, head = np.unravel_index(int(np.argmax(scores.induction[1:])), scores.induction[1:].shape)
    layer += 1  # an induction head reads from a head before it: layer 2 or later
    question = teacher.session_state[QUESTION_KEY]
    assert question["revealed"] and question["options"][question["answer"]] == f"{layer}.{head}"
    snapshot = shared_room_store().snapshot(teacher.session_state[ROLE_KEY].code)
    assert snapshot.revealed is not None and snapshot.revealed.answer == question["answer"]
    for lang, student in students.items():
        run(student)
        label = WORDS[lang]["head"].format(l=layer + 1, h=head + 1)
        assert any(WORDS[lang]["answer"] in s.value and label in s.value for s in student.success), [
            s.value for s in student.success
        ]
    right = (layer, head) == (1, 0)  # the Chinese student answered layer 2, head 1
    mine = [m.value for m in students["zh"].markdown if "你的答案" in m.value]
    assert mine and ("✅" in mine[0]) == right and "第 2 层 · 头 1" in mine[0], mine
    assert any(f"At step {gpt.formed.step}" in c.value for c in teacher.caption)


def test_a_toy_run_takes_an_earlier_gpt_runs_record_down(train_pool):
    teacher = AppTest.from_file(APP, default_timeout=120)
    teacher.query_params["lang"] = "en"
    run(teacher)
    run(teacher.switch_page(TRAIN))
    run(teacher.button(key="_class_start").click())
    role = teacher.session_state[ROLE_KEY]
    shared_room_store().publish_run(role.code, role.key, {"id": "old", "name": "my-induction", "status": "done"})
    set_run(teacher, "reverse", steps=5)
    run(teacher.button(key="train_start").click())  # the toy run, queued or training: not the class's to watch
    assert teacher.session_state["train_job"].view().gpt is None
    run(teacher)  # the next run's publish tick (the sidebar's, drawn before the page started the job)
    assert shared_room_store().snapshot(role.code).run is None  # students see their own Train page again
