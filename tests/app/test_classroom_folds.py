"""A following student's page in a class (AppTest): its controls fold under their own names, each fold is known by
the widgets it holds so the teacher's change scrolls the page to that fold (a closed popover's widgets are not in the
browser's page), and an exploring student still learns that the class ended."""

from __future__ import annotations

import pytest

from ui.class_role import ROLE_KEY
from ui.presenter.folds import FOLDS

from .test_classroom import ATTENTION_PAGE, WORDS, run, session, start_class
from .test_presenter import popovers, translated


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_followers_controls_fold_by_name_and_the_teachers_change_scrolls_to_its_fold(lang):
    teacher, role = start_class("en", ATTENTION_PAGE)
    student = session(lang, room=role.code)
    assert student.session_state[ROLE_KEY].following
    folded = popovers(student)
    pickers, kind = translated(lang, "Layer, head, token"), translated(lang, "Attention kind")
    assert {"layer", "head", "token"} <= folded[pickers], folded
    assert "kind" in folded[kind], folded
    assert translated(lang, "This page's settings") not in folded  # every fold on this page has its own name
    holders = student.session_state[FOLDS]
    assert holders["layer"] == holders["head"] == holders["token"] != holders["kind"]
    assert all(key.isascii() and key.startswith("fold_") for key in holders.values())  # a CSS class as written

    layer = teacher.session_state["layer"]
    teacher.selectbox(key="layer").set_value(1 - layer)  # the translation model has two layers
    run(teacher)
    run(teacher)  # the publishing fragment runs with the full run here
    run(student)
    assert student.session_state["layer"] == 1 - layer
    scripts = [h.proto.body for h in student.get("html") if "scrollIntoView" in h.proto.body]
    assert len(scripts) == 1 and f'"layer", "{holders["layer"]}"' in scripts[0], scripts


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_an_exploring_student_is_told_when_the_teacher_ends_the_class(lang):
    teacher, role = start_class("en", ATTENTION_PAGE)
    student = session(lang, room=role.code)
    run(student.button(key="_class_explore").click())
    assert not student.session_state[ROLE_KEY].following
    run(teacher.button(key="_class_end").click())
    run(student)
    assert ROLE_KEY not in student.session_state and "room" not in student.query_params
    assert any(WORDS[lang]["ended"] in i.value for i in student.info), [i.value for i in student.info]
    assert student.get("plotly_chart"), "the page goes on alone"
