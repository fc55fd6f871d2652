"""A class in the app (AppTest): start, join, a wrong code, a guessed key, explore and follow, shared models,
predict-then-reveal alone and in a class, in English and Chinese. Teacher and students are separate sessions
of one process, so they share the server's room store as real browser sessions do."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from model import load_pretrained
from services.rooms import shared_room_store
from ui.class_role import ROLE_KEY
from ui.classroom.ask import ASK_FOLD_KEY, QUESTION_KEY
from ui.tokens import md_escape

from .charts import charts_of

APP = str(Path(__file__).resolve().parents[2] / "app.py")
STEP_PAGE, ATTENTION_PAGE = "pages/step-by-step.py", "pages/attention.py"
WORDS = {  # what each language's reader sees
    "en": {"start": "Start a class", "explore": "Explore on my own", "follow": "Follow the teacher",
           "no_class": "There is no class with the code", "ended": "has ended", "not_teacher": "teacher's key",
           "students": "students connected", "answer": "The model's answer:", "malformed": "is not a class code"},
    "zh": {"start": "开始上课", "explore": "自己探索", "follow": "跟随老师", "no_class": "没有代码为",
           "ended": "已经结束", "not_teacher": "教师密钥", "students": "名学生在线", "answer": "模型的答案：",
           "malformed": "不是课堂代码"},
}  # fmt: skip


def run(target) -> AppTest:
    """Run the app (an AppTest, or a widget just clicked or set); fail on any exception in the script."""
    at = target.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def session(lang: str = "en", page: str | None = None, **params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({"lang": lang, **params})
    run(at)
    if page:
        at.switch_page(page)
        run(at)
    return at


def text_of(at: AppTest) -> str:
    """Every element's content (its protobuf, printed): what the browser would be sent."""
    parts = []

    def walk(node):
        proto = getattr(node, "proto", None)
        if proto is not None:
            parts.append(str(proto))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(parts)


def start_class(lang: str = "en", page: str | None = None):
    teacher = session(lang, page)
    button = teacher.button(key="_class_start")
    assert button.label == WORDS[lang]["start"]
    run(button.click())
    role = teacher.session_state[ROLE_KEY]
    return teacher, role


def buttons(at: AppTest) -> dict[str, str]:
    return {b.key: b.label for b in at.button if b.key}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_start_a_class_shows_the_join_link_without_the_key(lang):
    teacher, role = start_class(lang)
    assert role.is_teacher and len(role.code) == 6
    assert teacher.query_params["room"] == role.code and teacher.query_params["key"] == role.key
    dialog = text_of(teacher)
    assert f"/?room={role.code}" in dialog  # the join link (a relative one: AppTest has no browser URL)
    assert role.code in "".join(m.value for m in teacher.markdown)
    assert WORDS[lang]["students"] in dialog
    assert {"_class_show", "_class_end"} <= set(buttons(teacher)) and "_class_start" not in buttons(teacher)
    assert role.key in json.dumps(dict(teacher.query_params))  # the teacher's own URL keeps it, to resume
    dialog_part = dialog[dialog.index("dialog") :] if "dialog" in dialog else dialog
    assert role.key not in dialog_part
    assert role.key not in json.dumps(shared_room_store().snapshot(role.code).state)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_joining_mid_lesson_gets_the_teachers_page_and_step(lang):
    teacher, role = start_class("en", STEP_PAGE)
    for _ in range(2):
        run(teacher.button(key="wt_next").click())
    assert teacher.session_state["step"] == 3
    student = session(lang, room=role.code.lower())  # a code typed in lower case still joins
    assert student.session_state[ROLE_KEY].code == role.code
    assert student.session_state["step"] == 3
    assert student.title[0].value == teacher.title[0].value or lang == "zh"  # the step-by-step page
    assert student.subheader[0].value.startswith(("Step 3 of 8", "第 3 步"))  # the teacher's step
    assert {"_class_explore", "_class_leave"} <= set(buttons(student))
    assert buttons(student)["_class_explore"] == WORDS[lang]["explore"]
    assert "_class_end" not in buttons(student) and "_class_start" not in buttons(student)
    assert "key" not in student.query_params and student.query_params["room"] == role.code
    assert role.key not in text_of(student)
    run(teacher)
    assert shared_room_store().snapshot(role.code).student_count == 1
    assert "**1** student connected" in [m.value for m in teacher.sidebar.markdown]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_wrong_or_ended_code_says_so_and_the_page_works_alone(lang):
    for code, words in (("ZZZZZZ", "no_class"), ("not a code!", "malformed")):
        at = session(lang, ATTENTION_PAGE, room=code)
        warnings = [e.value for e in at.error]
        assert any(WORDS[lang][words] in w for w in warnings), warnings
        assert ROLE_KEY not in at.session_state and "room" not in at.query_params
        assert charts_of(at), "the page still draws its figures"
        assert buttons(at)["_class_start"] == WORDS[lang]["start"]
    teacher, role = start_class()
    run(teacher.button(key="_class_end").click())
    at = session(lang, room=role.code)
    assert any(WORDS[lang]["ended"] in e.value for e in at.error)
    assert ROLE_KEY not in at.session_state


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_guessed_key_gets_no_teacher_controls(lang):
    _, role = start_class()
    guess = role.key[:-4] + ("AAAA" if not role.key.endswith("AAAA") else "BBBB")
    student = session(lang, room=role.code, key=guess)
    assert not student.session_state[ROLE_KEY].is_teacher
    assert any(WORDS[lang]["not_teacher"] in w.value for w in student.warning)
    assert "_class_end" not in buttons(student) and "_class_show" not in buttons(student)
    assert "key" not in student.query_params
    before = shared_room_store().snapshot(role.code)
    student.selectbox(key="model").set_value("reverse")
    run(student.button(key="_class_explore").click())  # whatever the student does, the room is unchanged
    after = shared_room_store().snapshot(role.code)
    assert (after.version, after.state) == (before.version, before.state) and after.state["model"] == "translate"


def test_a_student_exploring_is_not_pulled_back_until_they_follow():
    teacher, role = start_class("en", STEP_PAGE)
    student = session(room=role.code)
    assert student.session_state["step"] == 1
    run(student.button(key="_class_explore").click())
    run(teacher.button(key="wt_next").click())
    run(student)
    assert student.session_state["step"] == 1  # not pulled to step 2
    run(student.button(key="_class_follow").click())
    assert student.session_state["step"] == 2


def test_an_input_the_view_cannot_hold_is_not_sent_and_the_rest_still_follows():
    teacher, role = start_class("en", STEP_PAGE)
    teacher.session_state["text"] = "1 " * 1500  # 3000 characters: over the input's 2000 (the box stops at 2000)
    run(teacher.button(key="wt_next").click())
    state = shared_room_store().snapshot(role.code).state
    assert state["step"] == 2 and state["input"] is None  # a student reads the model's own example


def test_a_model_the_teacher_trained_is_shared_with_that_rooms_students_only():
    mine = replace(load_pretrained("reverse"), name="my-reverse")  # a model object of the teacher's own
    teacher = session()
    teacher.session_state["user_models"] = {"my-reverse": mine}
    run(teacher)
    run(teacher.button(key="_class_start").click())
    role = teacher.session_state[ROLE_KEY]
    teacher.selectbox(key="model").set_value("my-reverse")
    run(teacher)
    assert [m.name for m in shared_room_store().room_models(role.code)] == ["my-reverse"]
    student = session(room=role.code)
    picker = student.selectbox(key="model")
    assert picker.value == "my-reverse" and "my-reverse (shared by the teacher)" in picker.options
    loaded = _selected(student)
    assert loaded.model is not mine.model  # loaded from the room's safetensors bytes
    for name, tensor in mine.model.state_dict().items():
        assert np.array_equal(loaded.model.state_dict()[name].numpy(), tensor.numpy()), name
    outsider = session()
    assert not any("my-reverse" in label for label in outsider.selectbox(key="model").options)


def _selected(at: AppTest):
    from ui.room_models import _load

    role = at.session_state[ROLE_KEY]
    info = {m.name: m.size for m in shared_room_store().room_models(role.code)}
    return _load(role.code, "my-reverse", info["my-reverse"])


def attention_weights(model: str, text: str, kind_layer: str = "encoder.0.self_attn"):
    return load_pretrained(model).run(text)[f"{kind_layer}.weights"][0].numpy()  # (H, Lq, Lk)


def chart_counts(at: AppTest) -> list[list[int]]:
    """x values of every answers bar chart on the page."""
    counts = []
    for chart in charts_of(at):
        spec = chart.spec
        data = spec["data"][0]
        if data.get("type") == "bar":
            counts.append([int(x) for x in data["x"]])
    return counts


def open_ask(at) -> None:
    """Open the ask controls' fold, as a reader does (lazy: closed, its pickers are not drawn)."""
    at.session_state[ASK_FOLD_KEY] = True
    run(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_predict_then_reveal_alone_counts_my_answer_and_reveals_the_argmax(lang):
    at = session(lang, ATTENTION_PAGE, kind="encoder", layer="1", head="1")  # (the page opens on cross-attention)
    open_ask(at)
    at.radio(key="_q_kind").set_value("attend")
    at.selectbox(key="_q_query_attention_encoder").set_value(2)
    run(at.button(key="_q_ask_attention").click())
    question = at.session_state[QUESTION_KEY]
    text = at.text_input(key="text").value
    assert text is not None
    expected = int(np.argmax(attention_weights("translate", text)[0, 2]))  # head 1, query 2, layer 1, encoder
    assert question["answer"] == expected
    wrong = (expected + 1) % len(question["options"])
    at.button_group(key=f"_q_pick_{question['id']}").set_value(wrong)
    run(at)
    run(at.button(key="_q_reveal").click())
    revealed = [s.value for s in at.success]
    assert any(WORDS[lang]["answer"] in s and md_escape(question["options"][expected]) in s for s in revealed), revealed
    counts = chart_counts(at)
    assert counts == [[int(i == wrong) for i in range(len(question["options"]))]]  # my one answer
    run(at.button(key="_q_again").click())
    assert QUESTION_KEY not in at.session_state


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_ask_fold_draws_its_pickers_only_while_open_and_keeps_what_they_hold(lang):
    at = session(lang, ATTENTION_PAGE, kind="encoder", layer="1", head="1")
    assert "_q_kind" not in keys(at) and "_q_ask_attention" not in keys(at)  # closed: nothing of it drawn
    open_ask(at)
    run(at.radio(key="_q_kind").set_value("attend"))
    run(at.selectbox(key="_q_query_attention_encoder").set_value(2))
    at.session_state[ASK_FOLD_KEY] = False  # closed again, and an edit of the page meanwhile
    run(at.text_input(key="text").set_value("the big dog sees a cat"))
    assert "_q_kind" not in keys(at)
    open_ask(at)
    assert at.radio(key="_q_kind").value == "attend" and at.selectbox(key="_q_query_attention_encoder").value == 2


def keys(at: AppTest) -> set[str]:
    """The keys of the radios, pickers and buttons the run drew."""
    return {str(w.key) for kind in (at.radio, at.selectbox, at.button) for w in kind if w.key}


def test_a_question_about_a_row_with_one_key_or_an_empty_trace_gets_a_message():
    at = session(page=ATTENTION_PAGE)
    at.radio(key="kind").set_value("decoder")
    run(at)
    open_ask(at)
    at.radio(key="_q_kind").set_value("attend")
    at.selectbox(key="_q_query_attention_decoder").set_value(0)
    run(at.button(key="_q_ask_attention").click())
    assert any("can see only one key" in w.value for w in at.warning)
    assert QUESTION_KEY not in at.session_state

    def empty_panel():
        from model import load_pretrained
        from ui.classroom.ask import question_panel

        question_panel(load_pretrained("reverse"), "", "", None)

    empty = AppTest.from_function(empty_panel, default_timeout=60)
    run(empty)
    assert [i.value for i in empty.info] == ["There is nothing to ask about yet: type an input first."]


def test_a_class_question_counts_two_students_and_reveals_the_argmax():
    teacher, role = start_class("en", ATTENTION_PAGE)
    run(teacher.radio(key="kind").set_value("encoder"))  # the page opens on cross-attention: ask about encoder
    run(teacher.selectbox(key="layer").set_value(0))  # self-attention's layer 1, head 1
    run(teacher.radio(key="head").set_value(0))
    students = [session(lang, room=role.code) for lang in ("en", "zh")]
    open_ask(teacher)
    teacher.radio(key="_q_kind").set_value("attend")
    teacher.selectbox(key="_q_query_attention_encoder").set_value(1)
    run(teacher.button(key="_q_ask_attention").click())
    question = teacher.session_state[QUESTION_KEY]
    expected = int(np.argmax(attention_weights("translate", teacher.text_input(key="text").value)[0, 1]))
    assert question["answer"] == expected
    choices = [expected, (expected + 1) % len(question["options"])]
    for student, choice in zip(students, choices, strict=True):
        run(student)  # the question appears at the top of the student's page
        student.button_group(key=f"_class_pick_{question['id']}").set_value(choice)
        run(student)
    counts = shared_room_store().answer_counts(role.code, role.key)
    assert counts is not None
    assert counts.total == 2 and counts.counts[choices[0]] == 1 and counts.counts[choices[1]] == 1
    run(teacher)
    assert chart_counts(teacher) == [list(counts.counts)]
    run(teacher.button(key="_q_reveal_class").click())
    for student, lang in zip(students, ("en", "zh"), strict=True):
        run(student)
        shown = [s.value for s in student.success]
        assert any(WORDS[lang]["answer"] in s and md_escape(question["options"][expected]) in s for s in shown), shown


def test_followers_of_a_shipped_model_share_one_trace_and_a_private_model_shares_none():
    from ui.trace_cache import SHARED_TRACES

    text = "4 1 3 9 9 2"
    first = session(page=ATTENTION_PAGE, model="reverse", text=text)
    computed = SHARED_TRACES.stats.computed
    second = session(page=ATTENTION_PAGE, model="reverse", text=text)
    assert SHARED_TRACES.stats.computed == computed  # the second session reused the first one's trace
    assert first.session_state["_trace_cache"] and second.session_state["_trace_cache"]
    trace_of = lambda at: next(iter(at.session_state["_trace_cache"].values()))
    assert trace_of(first) is trace_of(second)
    mine = replace(load_pretrained("reverse"), name="mine")
    private = session()
    private.session_state["user_models"] = {"mine": mine}
    run(private)
    private.session_state["model"] = "mine"
    private.session_state["text"] = text
    run(private.switch_page(ATTENTION_PAGE))
    assert private.selectbox(key="model").value == "mine"
    assert next(iter(private.session_state["_trace_cache"].values())).tokens("src")[:6] == text.split()
    assert SHARED_TRACES.stats.computed == computed
    assert all(isinstance(key, tuple) and key[0] is not mine.model for key in SHARED_TRACES.kept_keys())


def test_a_class_following_the_teachers_new_input_runs_the_model_once(monkeypatch):
    from model import LoadedModel
    from ui.trace_cache import SHARED_TRACES

    text = "8 0 0 2 7 5 1"
    calls = []
    original = LoadedModel.run

    def counted(self, *a, **k):
        calls.append(a[0])
        return original(self, *a, **k)

    monkeypatch.setattr(LoadedModel, "run", counted)
    SHARED_TRACES.clear()  # an earlier test in this process may have traced this input
    teacher, role = start_class("en", ATTENTION_PAGE)
    run(teacher.selectbox(key="model").set_value("reverse"))
    students = [session(lang, room=role.code) for lang in ("en", "zh", "en")]
    run(teacher.text_input(key="text").input(text))
    assert calls.count(text) == 1  # the teacher's own run
    for student in students:
        run(student)
        assert student.session_state["text"] == text and student.session_state["model"] == "reverse"
    assert calls.count(text) == 1  # three followers, still one run of the model for this input
    traces = [next(reversed(at.session_state["_trace_cache"].values())) for at in (teacher, *students)]
    assert all(trace is traces[0] for trace in traces) and traces[0].tokens("src")[:7] == text.split()


def test_a_student_who_leaves_is_told_and_no_longer_counted():
    _, role = start_class()
    student = session(room=role.code)
    assert shared_room_store().snapshot(role.code).student_count == 1
    run(student.button(key="_class_leave").click())
    assert ROLE_KEY not in student.session_state and "room" not in student.query_params
    assert any(f"You left class {role.code}" in i.value for i in student.info)
    assert shared_room_store().snapshot(role.code).student_count == 0


def test_a_class_follows_the_teachers_custom_mask():
    """The worked example's custom grid is a control of the view (views.StepByStepView.custom_mask): it travels."""
    teacher, role = start_class("en", STEP_PAGE)
    teacher.session_state["mask"] = "custom"
    teacher.session_state["wt_custom_mask"] = "1000/0100/0010/0001"  # each query sees only itself
    run(teacher.button(key="wt_next").click())
    assert shared_room_store().snapshot(role.code).state["custom_mask"] == "1000/0100/0010/0001"
    student = session(room=role.code)
    assert (student.session_state["mask"], student.session_state["wt_custom_mask"]) == ("custom", "1000/0100/0010/0001")
    assert student.session_state["step"] == 2
