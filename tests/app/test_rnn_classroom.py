"""A class on the RNN page: a student (in either language) joins on the teacher's part, model and decoder step,
and follows the Transformer head and the bottleneck task the teacher picks next."""

from __future__ import annotations

import pytest

from ui.class_role import ROLE_KEY
from ui.rnn.align import HEAD_KEY, LAYER_KEY, MEAN_KEY
from ui.rnn.bottleneck import PER_LENGTH_KEY, TASK_KEY
from ui.rnn.decoder import STEP_KEY
from ui.rnn.gradients import BIAS_KEY, LENGTH_KEY
from ui.rnn.parts import PART_KEY
from views import RnnView, fields

from .charts import charts_of
from .test_classroom import run, session, start_class

RNN_PAGE = "pages/rnn-vs-transformer.py"


def test_every_key_the_rnn_page_keeps_its_view_in_is_followed():
    keys = {PART_KEY, STEP_KEY, LAYER_KEY, MEAN_KEY, HEAD_KEY, TASK_KEY, PER_LENGTH_KEY, LENGTH_KEY, BIAS_KEY}
    assert keys <= {f.control.key for f in fields(RnnView) if f.control.room}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_follows_the_teacher_through_the_rnn_page(lang):
    teacher, role = start_class("en", RNN_PAGE)
    teacher.selectbox(key="model").set_value("translate-rnn")
    run(teacher.radio(key=PART_KEY).set_value(2))
    run(teacher.button(key="rnn_next").click())
    run(teacher.button(key="rnn_next").click())
    assert teacher.session_state[STEP_KEY] == 3
    student = session(lang, room=role.code)
    assert student.session_state[ROLE_KEY].code == role.code
    assert (student.session_state["model"], student.radio(key=PART_KEY).value) == ("translate-rnn", 2)
    assert student.radio(key=STEP_KEY).value == 3 and charts_of(student)
    run(teacher.radio(key=PART_KEY).set_value(1))
    run(teacher.toggle(key=MEAN_KEY).set_value(False))
    run(teacher.radio(key=HEAD_KEY).set_value(2))
    run(student)
    assert (student.radio(key=PART_KEY).value, student.toggle(key=MEAN_KEY).value) == (1, False)
    assert student.radio(key=HEAD_KEY).value == 2
    run(teacher.radio(key=PART_KEY).set_value(3))
    run(teacher.radio(key=TASK_KEY).set_value("translate"))
    run(student)
    assert (student.radio(key=PART_KEY).value, student.radio(key=TASK_KEY).value) == (3, "translate")
