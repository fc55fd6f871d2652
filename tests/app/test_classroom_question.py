"""A class's question from ask to close (AppTest): the student's page hides the answer until the reveal, a revealed
question leaves when the teacher moves on or closes it, an answer survives a page change, the options are the
asked kind's tokens, a touch while following goes exploring, and ending the class asks first."""

from __future__ import annotations

import pytest

from model import load_pretrained
from services.rooms import shared_room_store
from ui.class_role import ROLE_KEY
from ui.classroom.ask import QUESTION_KEY
from ui.presenter.folds import FOLDS

from .charts import charts_of
from .elements import elements
from .test_classroom import ATTENTION_PAGE, STEP_PAGE, buttons, open_ask, run, session, start_class, text_of

HIDDEN = {"en": "comes back when the teacher reveals the answer", "zh": "老师揭晓答案后"}


def ask(teacher, query: int = 1, kind: str = "cross") -> dict:
    """The teacher asks which key `query` attends to most in the head in focus; returns the question."""
    open_ask(teacher)
    teacher.radio(key="_q_kind").set_value("attend")
    teacher.selectbox(key=f"_q_query_attention_{kind}").set_value(query)
    run(teacher.button(key="_q_ask_attention").click())
    return teacher.session_state[QUESTION_KEY]


def question_box(at) -> bool:
    return "_class_pick_" in text_of(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_students_page_holds_back_its_figures_until_the_reveal(lang):
    teacher, role = start_class("en", ATTENTION_PAGE)
    student = session(lang, room=role.code)
    assert charts_of(student)  # the teacher's page, with its figures
    question = ask(teacher)
    run(student)
    shown = text_of(student)
    assert not charts_of(student) and "_class_pick_" in shown
    assert any(HIDDEN[lang] in i.value for i in student.info)
    assert "trace" not in " ".join(b.label for b in elements(student, "download_button")).lower()
    weight = question["evidence"]["weight"]
    assert f"{weight:.3f}" not in shown and f"{weight:.2f}" not in shown  # no number of the asked row, anywhere
    run(teacher.button(key="_q_reveal_class").click())
    run(student)
    assert charts_of(student) and not any(HIDDEN[lang] in i.value for i in student.info)


def test_a_revealed_question_leaves_every_page_when_the_teacher_moves_on():
    teacher, role = start_class("en", ATTENTION_PAGE)
    students = [session(lang, room=role.code) for lang in ("en", "zh")]
    ask(teacher)
    run(teacher.button(key="_q_reveal_class").click())
    for student in students:
        assert question_box(run(student))
    assert question_box(run(teacher.switch_page(STEP_PAGE))) is False
    snapshot = shared_room_store().snapshot(role.code)
    assert snapshot.question is None and snapshot.revealed is None
    for student in students:
        run(student)
        assert student.session_state["step"] == 1 and not question_box(student)  # followed, and no box
    run(teacher.switch_page(ATTENTION_PAGE))
    assert QUESTION_KEY not in teacher.session_state and "_q_reveal_class" not in buttons(teacher)


def test_the_teacher_closes_a_revealed_question_or_asks_another():
    teacher, role = start_class("en", ATTENTION_PAGE)
    student = session(room=role.code)
    ask(teacher)
    run(teacher.button(key="_q_reveal_class").click())
    assert {"_q_again", "_q_close"} <= set(buttons(teacher))
    run(teacher.button(key="_q_close").click())
    assert shared_room_store().snapshot(role.code).question is None and QUESTION_KEY not in teacher.session_state
    assert not question_box(run(student))
    ask(teacher, query=2)
    run(teacher.button(key="_q_reveal_class").click())
    run(teacher.button(key="_q_again").click())
    assert shared_room_store().snapshot(role.code).question is None
    assert teacher.button(key="_q_ask_attention")  # the ask controls, open for the next question


def test_an_answer_survives_the_teachers_page_change_and_reads_right_at_the_reveal():
    teacher, role = start_class("en", ATTENTION_PAGE)
    student = session(room=role.code)
    question = ask(teacher)
    pick = f"_class_pick_{question['id']}"
    run(student)
    student.button_group(key=pick).set_value(question["answer"])
    run(student)
    run(teacher.switch_page(STEP_PAGE))  # the teacher moves on before the reveal
    run(student)
    assert student.session_state["step"] == 1 and student.button_group(key=pick).value == question["answer"]
    run(teacher.switch_page(ATTENTION_PAGE))
    run(teacher.button(key="_q_reveal_class").click())
    run(student)
    assert any("is right" in m.value for m in student.markdown), [m.value for m in student.markdown]
    assert not any("You did not answer" in m.value for m in student.markdown)


def test_the_options_are_the_tokens_of_the_kind_asked():
    teacher, _role = start_class("en", ATTENTION_PAGE)
    run(teacher.radio(key="kind").set_value("decoder"))
    trace = load_pretrained("translate").run(teacher.text_input(key="text").value)
    decoder, source = trace.tokens("tgt"), trace.tokens("src")
    open_ask(teacher)
    options = teacher.selectbox(key="_q_query_attention_decoder").options
    assert options == [f"{i} · {t}" for i, t in enumerate(decoder)] and decoder != source
    question = ask(teacher, query=2, kind="decoder")
    assert question["context"]["token"] == decoder[2] and question["context"]["attention"] == "decoder"
    assert list(question["options"]) == [f"{j} · {t}" for j, t in enumerate(decoder)]  # keys: the decoder's too


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_who_touches_a_control_while_following_goes_exploring(lang):
    teacher, role = start_class("en", ATTENTION_PAGE)
    student = session(lang, room=role.code)
    assert student.session_state[ROLE_KEY].following and "_class_explore" in buttons(student)
    student.session_state[student.session_state[FOLDS]["kind"]] = True  # open the kind's fold (lazy: drawn once open)
    run(student)
    assert student.session_state[ROLE_KEY].following  # opening a fold is no change of the view
    run(student.radio(key="kind").set_value("encoder"))  # the page opens on cross-attention
    assert not student.session_state[ROLE_KEY].following
    assert "_class_follow" in buttons(student) and "_class_explore" not in buttons(student)
    own = (student.session_state["kind"], student.session_state["layer"])
    teachers_layer = 1 - teacher.session_state["layer"]  # the other of the model's two layers: a real change
    run(teacher.selectbox(key="layer").set_value(teachers_layer))
    run(student)
    assert own[0] == "encoder" and (student.session_state["kind"], student.session_state["layer"]) == own
    run(student.button(key="_class_follow").click())  # not pulled back until they ask
    assert (student.session_state["kind"], student.session_state["layer"]) == ("cross", teachers_layer)


def test_a_student_who_opens_another_page_while_following_goes_exploring():
    _teacher, role = start_class("en", ATTENTION_PAGE)
    student = session(room=role.code)
    run(student.switch_page(STEP_PAGE))
    assert not student.session_state[ROLE_KEY].following and "_class_follow" in buttons(student)


def test_a_following_student_is_not_sent_exploring_by_the_teachers_own_changes():
    teacher, role = start_class("en", STEP_PAGE)
    student = session(room=role.code)
    for step in (2, 3):
        run(teacher.button(key="wt_next").click())
        run(student)
        assert student.session_state["step"] == step and student.session_state[ROLE_KEY].following
    run(teacher.switch_page(ATTENTION_PAGE))
    run(student)
    assert student.session_state[ROLE_KEY].following and "_class_explore" in buttons(student)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ending_the_class_asks_first(lang):
    teacher, role = start_class(lang)
    student = session(room=role.code)
    popovers = [p.proto.popover.label for p in teacher.sidebar.get("popover")]
    assert popovers == [{"en": "End the class", "zh": "下课"}[lang]]
    assert buttons(teacher)["_class_end"] == {"en": "End it for everyone", "zh": "为所有人下课"}[lang]
    run(teacher.button(key="_class_end").click())
    assert ROLE_KEY not in teacher.session_state
    run(student)
    assert ROLE_KEY not in student.session_state


def test_the_teachers_student_count_is_in_the_presenter_bar():
    teacher, role = start_class("en", STEP_PAGE)
    session(room=role.code)
    run(teacher.toggle(key="present").set_value(True))
    bar = [m.value for m in teacher.main.markdown if role.code in m.value]
    assert bar == [f"🎓 {role.code} · **1** student"]


def test_a_question_left_open_is_within_the_teachers_reach_on_every_page():
    teacher, role = start_class("en", ATTENTION_PAGE)
    student = session(room=role.code)
    ask(teacher)
    run(teacher.switch_page("pages/home.py"))  # a page without the ask panel
    assert {"_q_reveal_bar", "_q_close_bar"} <= set(buttons(teacher))
    run(teacher.button(key="_q_reveal_bar").click())
    assert shared_room_store().snapshot(role.code).revealed is not None and "_q_reveal_bar" not in buttons(teacher)
    assert any("The model's answer:" in s.value for s in teacher.success)
    run(student)
    assert question_box(student)
    run(teacher.button(key="_q_close_bar").click())
    assert shared_room_store().snapshot(role.code).question is None and "_q_close_bar" not in buttons(teacher)
    assert not question_box(run(student))
