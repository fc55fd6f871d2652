"""A teacher's link opens what it names (AppTest): a teacher who opens /attention?room=&key= in a new session, or
reloads a page, lands on that page with the link's view, not on the room's last page, and the class follows there.
A second tab of the same teacher does not pull the class back to its own view. A lesson the teacher uploaded is kept
with the room, so a student on a server that does not have it still opens it (the two-server test is in
tests/browser/test_classroom_links.py)."""

from __future__ import annotations

import json
from dataclasses import replace

from streamlit.testing.v1 import AppTest

from services.lessons import LIBRARY, parse_lesson, shipped_file
from services.rooms import shared_room_store
from ui.class_role import ROLE_KEY

from .charts import charts_of
from .test_classroom import ATTENTION_PAGE, STEP_PAGE, run, session, start_class

LESSON_PAGE = "pages/lesson.py"


def open_link(page: str, **params) -> AppTest:
    """A fresh session (a new tab, a second device, a reload) whose URL is `page` with `params`."""
    at = session()
    at.query_params.update(params)
    return run(at.switch_page(page))


def steps_shown(at) -> list[str]:
    """The walkthrough steps the page heads (a follower's Step by step draws no step buttons: its settings fold)."""
    return [h.value.split(" · ")[0] for h in at.subheader if h.value.startswith("Step ")]


def test_a_teachers_link_to_another_page_opens_that_page_and_the_class_follows():
    teacher, role = start_class("en", STEP_PAGE)
    run(teacher.button(key="wt_next").click())
    student = session(room=role.code)
    assert student.session_state["step"] == 2 and steps_shown(student) == ["Step 2 of 8"]  # Step by step
    text = "1 2 3 4 5"
    laptop = open_link(ATTENTION_PAGE, room=role.code, key=role.key, model="reverse", text=text)
    assert laptop.session_state[ROLE_KEY].is_teacher
    assert laptop.session_state["text"] == text and laptop.session_state["model"] == "reverse"
    assert charts_of(laptop) and "wt_next" not in {b.key for b in laptop.button}  # the Attention page
    state = shared_room_store().snapshot(role.code).state
    assert (state["page"], state["input"], state["model"]) == ("attention", text, "reverse")
    run(student)  # the student's follow tick reruns the app when the room moves: this is that run
    assert student.session_state["text"] == text and student.session_state["model"] == "reverse"
    assert not steps_shown(student) and charts_of(student)  # the Attention page
    run(teacher)  # the first tab, unchanged since, does not pull the class back to step 2
    assert shared_room_store().snapshot(role.code).state["page"] == "attention"
    run(teacher.button(key="wt_next").click())  # until the teacher changes something there: the last change wins
    state = shared_room_store().snapshot(role.code).state
    assert (state["page"], state["step"]) == ("step-by-step", 3)


def test_a_teacher_who_reloads_keeps_the_page_and_step_of_the_link():
    teacher, role = start_class("en", STEP_PAGE)
    for _ in range(2):
        run(teacher.button(key="wt_next").click())
    link = dict(teacher.query_params)
    assert link["step"] == "3" and link["key"] == role.key
    reloaded = open_link(STEP_PAGE, **link)
    assert reloaded.session_state[ROLE_KEY].is_teacher and reloaded.session_state["step"] == 3
    assert "wt_next" in {b.key for b in reloaded.button}
    link["step"] = "5"  # a link of the teacher's that names another step than the room's
    reloaded = open_link(STEP_PAGE, **link)
    assert reloaded.session_state["step"] == 5
    assert shared_room_store().snapshot(role.code).state["step"] == 5
    student = session(room=role.code)
    assert student.session_state["step"] == 5


def _lesson_shown_to_a_class(title: str):
    """A teacher showing an uploaded lesson (slide 1 titled `title`) to a class; the lesson is then forgotten by this
    server's library, as on a server the teacher is not on. Returns (teacher, role, lesson id)."""
    lesson = parse_lesson(shipped_file("attention-basics")).to_dict()
    lesson["slides"][0]["title"]["en"] = title
    uploaded = parse_lesson(json.dumps(lesson).encode())
    lesson_id = LIBRARY.keep(uploaded)
    teacher, role = start_class("en", LESSON_PAGE)
    teacher.session_state["lesson_own"] = {lesson_id: uploaded}  # as files.receive keeps an upload
    run(teacher)
    run(teacher.selectbox(key="lesson").set_value(lesson_id))
    assert shared_room_store().snapshot(role.code).state["lesson"] == lesson_id
    LIBRARY._lessons.pop(lesson_id)
    return teacher, role, lesson_id


def test_a_lesson_the_teacher_shows_reaches_a_student_whose_server_lacks_it():
    _teacher, role, lesson_id = _lesson_shown_to_a_class("Kept with the class")
    student = session(room=role.code)
    assert student.session_state["lesson"] == lesson_id
    assert "Kept with the class" in [h.value for h in student.header]
    assert not [w.value for w in student.warning if "not on this server" in w.value]


def test_a_lesson_over_the_rooms_bound_is_explained_to_the_teacher(monkeypatch):
    store = shared_room_store()
    monkeypatch.setattr(store, "limits", replace(store.limits, max_lesson_bytes=1024))
    teacher, role, _lesson_id = _lesson_shown_to_a_class("Too large for the class")
    warnings = [w.value for w in teacher.sidebar.warning]
    assert any("a class can be shown lessons of up to 1 KB" in w for w in warnings), warnings
    student = session(room=role.code)  # the shipped lesson, and the page says why
    assert any("not on this server" in w.value for w in student.warning)
    assert "Too large for the class" not in [h.value for h in student.header]
