"""A following student's page in a class (AppTest): its controls fold under their own names, each fold is known by
the widgets it holds so the teacher's change scrolls the page to that fold (a closed popover's widgets are not in the
browser's page), a follower's closed settings on Step by step are not drawn at all, and an exploring student still
learns that the class ended."""

from __future__ import annotations

import pytest

from ui.class_role import ROLE_KEY
from ui.presenter.folds import FOLDS, fold_key

from .charts import charts_of
from .test_classroom import ATTENTION_PAGE, STEP_PAGE, WORDS, buttons, run, session, start_class
from .test_presenter import figures, popovers, translated


def weights_drawn(at) -> list:
    """Each chart's role and the values of its heatmaps, as drawn (the same in either language)."""
    charts = figures(at)
    return [(f["layout"].get("meta"), [t.get("z") for t in f["data"] if t.get("type") == "heatmap"]) for f in charts]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_followers_controls_fold_by_name_and_the_teachers_change_scrolls_to_its_fold(lang):
    """On Attention, the kind and the layer/head/token pickers fold lazily: closed, their widgets are not drawn (the
    page draws the teacher's view from the room), yet each fold is known by the keys it holds, so the teacher's
    change of the layer scrolls the page to the pickers' fold; opened, it draws them with the teacher's values."""
    teacher, role = start_class("en", ATTENTION_PAGE)
    student = session(lang, room=role.code)
    assert student.session_state[ROLE_KEY].following
    folded = popovers(student)
    pickers, kind = translated(lang, "Layer, head, token"), translated(lang, "Attention kind")
    assert folded[pickers] == folded[kind] == set(), folded  # closed: no widget drawn
    assert translated(lang, "This page's settings") not in folded  # every fold on this page has its own name
    holders = student.session_state[FOLDS]
    assert holders["layer"] == holders["head"] == holders["token"] != holders["kind"]
    assert all(key.isascii() and key.startswith("fold_") for key in holders.values())  # a CSS class as written
    assert weights_drawn(student) == weights_drawn(teacher)  # the same head, drawn from the room's view

    layer = teacher.session_state["layer"]
    teacher.selectbox(key="layer").set_value(1 - layer)  # the translation model has two layers
    run(teacher)
    run(teacher)  # the publishing fragment runs with the full run here
    run(student)
    assert student.session_state["layer"] == 1 - layer
    scripts = [h.proto.body for h in student.get("html") if "scrollIntoView" in h.proto.body]
    assert len(scripts) == 1 and f'"layer", "{holders["layer"]}"' in scripts[0], scripts
    assert weights_drawn(student) == weights_drawn(teacher)

    student.session_state[holders["layer"]] = True  # the student opens the pickers
    run(student)
    assert {"layer", "head", "token"} <= popovers(student)[pickers], popovers(student)
    assert student.selectbox(key="layer").value == 1 - layer
    assert student.session_state[ROLE_KEY].following  # opening them is no change of the view
    assert weights_drawn(student) == weights_drawn(teacher)


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
    assert charts_of(student), "the page goes on alone"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_followers_step_is_the_teachers_drawn_without_widgets_until_the_settings_open(lang):
    """A following student's folded settings stay closed and undrawn (a follower's rerun is the class's cost per
    student): the page draws the teacher's view from the room, the same formulas and figures as the teacher's own
    page, which draws them from its widgets. Opening the settings draws the widgets, holding the teacher's values."""
    teacher, role = start_class(lang, STEP_PAGE)
    teacher.session_state["wt_head"] = 1
    for _ in range(4):  # step 5: a softmax row with the teacher's query
        run(teacher.button(key="wt_next").click())
    student = session(lang, room=role.code)
    assert student.session_state[ROLE_KEY].following and student.session_state["step"] == 5
    folded = popovers(student)
    settings = translated(lang, "This page's settings")
    assert folded == {settings: set()}, folded  # one fold, its widgets not drawn
    assert "wt_next" not in buttons(student) and "wt_next" in buttons(teacher)
    assert [h.value for h in student.subheader] == [h.value for h in teacher.subheader]
    assert [f.value for f in student.latex] == [f.value for f in teacher.latex]
    assert figures(student) == figures(teacher)

    student.session_state[fold_key(settings)] = True  # the student opens the settings
    run(student)
    assert {"step", "wt_head"} <= popovers(student)[settings], popovers(student)
    assert student.session_state["step"] == 5 and student.session_state["wt_head"] == 1
    assert student.session_state[ROLE_KEY].following  # opening them is no change of the view
    run(teacher.button(key="wt_next").click())
    run(student)
    assert student.session_state["step"] == 6
    assert [f.value for f in student.latex] == [f.value for f in teacher.latex]


def test_a_followers_step_on_a_models_block_is_the_teachers_without_widgets():
    """The closed settings' path on a model's block (the room's input, kind, layer and head) draws what the teacher's
    widgets draw."""
    teacher, role = start_class("en", STEP_PAGE)
    teacher.session_state["source"] = "model"
    run(teacher)
    for _ in range(2):  # step 3: scaling, with the model's numbers
        run(teacher.button(key="wt_next").click())
    student = session(room=role.code)
    assert student.session_state["source"] == "model" and student.session_state["step"] == 3
    assert popovers(student) == {"This page's settings": set()}
    assert [f.value for f in student.latex] == [f.value for f in teacher.latex]
    assert figures(student) == figures(teacher) and figures(student)
