"""Past the limits a room sets, a student is told so at once and the page works alone (AppTest, en and zh): a full
class, a class that has ended, a server at its limit of classes. Nothing waits: each run finishes with the message."""

from __future__ import annotations

import dataclasses

import pytest

from services.rooms import MemoryRoomStore, shared_room_store
from ui.class_role import ROLE_KEY

from .test_classroom import STEP_PAGE, WORDS, run, session, start_class

FULL = {"en": "is full: it already has 1 students", "zh": "已满：已经有 1 名学生"}
TOO_MANY = {"en": "already runs {n} classes, its limit", "zh": "已经有 {n} 个课堂，达到上限"}


@pytest.fixture
def limits(monkeypatch):
    """limits(**bounds): the server's room store with these bounds for this test."""
    store = shared_room_store()

    def tighten(**bounds) -> None:
        monkeypatch.setattr(store, "limits", dataclasses.replace(store.limits, **bounds))

    return tighten


def messages(at) -> str:
    return " ".join(str(e.value) for e in [*at.error, *at.warning, *at.info])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_past_a_full_class_is_told_and_explores_alone(limits, lang):
    _teacher, role = start_class(lang, STEP_PAGE)
    limits(max_students=1)
    first = session(lang, room=role.code)
    assert first.session_state[ROLE_KEY].code == role.code
    second = session(lang, room=role.code)  # one student past the limit
    assert ROLE_KEY not in second.session_state and "room" not in second.query_params
    assert FULL[lang] in messages(second) and role.code in messages(second)
    assert not second.exception and second.title  # the page drew, alone
    run(second)  # and stays alone on its next run, with no wait
    assert ROLE_KEY not in second.session_state
    assert shared_room_store().snapshot(role.code).student_count == 1


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_student_of_a_class_that_ended_meanwhile_is_told_on_the_next_run(lang):
    _teacher, role = start_class(lang, STEP_PAGE)
    student = session(lang, room=role.code)
    shared_room_store().close(role.code, role.key)
    run(student)  # the run the room's change wakes
    assert ROLE_KEY not in student.session_state
    assert WORDS[lang]["ended"] in messages(student)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_teacher_past_the_servers_limit_of_classes_is_told(limits, lang):
    store = shared_room_store()
    assert isinstance(store, MemoryRoomStore)  # AppTest's sessions share this process's store
    store.create_room()  # earlier tests' classes may still run in this process: the limit is one more than now
    live = len(store._private)
    limits(max_rooms=live)
    teacher = session(lang)
    run(teacher.button(key="_class_start").click())
    assert ROLE_KEY not in teacher.session_state
    assert TOO_MANY[lang].format(n=live) in messages(teacher)


SEVERAL = {"en": "--servers 2", "zh": "--servers 2"}
SEVERAL_WORDS = {"en": "A class this size follows faster", "zh": "这么大的课堂"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_join_dialog_of_a_large_class_on_one_server_suggests_several(lang, monkeypatch):
    from attention_lab.command import REDIS_URL_ENV
    from ui.classroom.teacher import LARGE_CLASS, SHOW_JOIN_KEY

    monkeypatch.delenv(REDIS_URL_ENV, raising=False)
    teacher, role = start_class(lang, STEP_PAGE)
    store = shared_room_store()
    for _ in range(LARGE_CLASS - 1):
        store.join(role.code)
    teacher.session_state[SHOW_JOIN_KEY] = True
    run(teacher)
    assert not any(SEVERAL_WORDS[lang] in c.value for c in teacher.caption)  # one fewer: one server is enough
    store.join(role.code)
    teacher.session_state[SHOW_JOIN_KEY] = True
    run(teacher)
    (hint,) = [c.value for c in teacher.caption if SEVERAL_WORDS[lang] in c.value]
    assert SEVERAL[lang] in hint and "bash scripts/app.sh" in hint
    monkeypatch.setenv(REDIS_URL_ENV, "redis://127.0.0.1:1/0")  # several servers already: no hint
    teacher.session_state[SHOW_JOIN_KEY] = True
    run(teacher)
    assert not any(SEVERAL_WORDS[lang] in c.value for c in teacher.caption)
