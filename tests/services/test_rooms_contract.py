"""The room contract, on both backends: codes and keys, publishing, following, presence, limits, expiry."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from services.rooms import (
    InvalidState,
    NotJoined,
    RoomClosed,
    RoomFull,
    RoomNotFound,
    TooManyRooms,
    WrongKey,
)
from services.rooms.codes import CODE_ALPHABET, hash_key, new_key
from views import ViewError

from .conftest import TEST_LIMITS

STATE = {"page": "step-by-step", "model": "reverse", "input": "a b c", "step": 5, "wt_layer": 1, "wt_head": 2}
NEXT = {**STATE, "step": 6}


def test_create_room_gives_a_short_code_and_a_long_secret_key(store):
    first, second = store.create_room(), store.create_room()
    for ticket in (first, second):
        assert len(ticket.code) == 6 and set(ticket.code) <= set(CODE_ALPHABET)
        assert not set(ticket.code) & set("0O1I")
        assert len(ticket.key) >= 40
        assert ticket.key not in repr(ticket)
    assert first.code != second.code and first.key != second.key  # two teachers: two rooms
    store.publish(first.code, first.key, STATE)
    assert store.snapshot(second.code).state == {}
    with pytest.raises(WrongKey):  # one teacher's key does not open the other's room
        store.publish(second.code, first.key, STATE)


def test_a_new_room_is_empty_at_version_1(store):
    ticket = store.create_room()
    snap = store.snapshot(ticket.code)
    assert (snap.code, snap.version, snap.state, snap.question, snap.revealed) == (ticket.code, 1, {}, None, None)
    assert (snap.student_count, snap.teacher_connected, snap.models) == (0, True, ())


def test_student_joining_mid_lesson_sees_the_current_state(store):
    ticket = store.create_room()
    assert store.publish(ticket.code, ticket.key, STATE) == 2
    assert store.publish(ticket.code, ticket.key, NEXT) == 3
    student = store.join(ticket.code.lower())  # a typed code: case and dashes are forgiven
    snap = store.snapshot(f"{ticket.code[:3]}-{ticket.code[3:]}")
    assert snap.version == 3 and snap.state == NEXT and snap.student_count == 1
    assert isinstance(student, str) and len(student) >= 16


def test_publishing_the_same_state_again_does_not_move_the_version(store):
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, STATE)
    assert store.publish(ticket.code, ticket.key, dict(reversed(STATE.items()))) == 2  # key order is not a change
    assert store.version(ticket.code) == 2


def test_snapshot_state_is_a_copy_the_caller_may_change(store):
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, {"page": "attention", "heads_off_code": "e1.2"})
    store.snapshot(ticket.code).state["page"] = "changed"
    assert store.snapshot(ticket.code).state == {"page": "attention", "heads_off_code": "e1.2"}


@pytest.mark.parametrize("key", [None, "", "guess", 123, "x" * 10_000, "A" * 43])
def test_no_one_without_the_key_changes_the_room(store, key):
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, STATE)
    student = store.join(ticket.code)
    calls = [
        lambda: store.publish(ticket.code, key, NEXT),
        lambda: store.teacher_heartbeat(ticket.code, key),
        lambda: store.ask(ticket.code, key, {"id": "q", "kind": "k", "options": ["a", "b"]}),
        lambda: store.clear_question(ticket.code, key),
        lambda: store.reveal(ticket.code, key, 0),
        lambda: store.answer_counts(ticket.code, key),
        lambda: store.share_model(ticket.code, key, "m", b"{}", b""),
        lambda: store.close(ticket.code, key),
    ]
    for call in calls:
        with pytest.raises(WrongKey) as caught:
            call()
        assert caught.value.params == {"code": ticket.code}
    snap = store.snapshot(ticket.code)
    assert (snap.version, snap.state, snap.question, snap.student_count) == (2, STATE, None, 1)
    store.student_heartbeat(ticket.code, student)  # the room still runs


def test_a_guessed_well_formed_key_fails(store):
    ticket = store.create_room()
    for _ in range(20):
        with pytest.raises(WrongKey):
            store.publish(ticket.code, new_key(), NEXT)
    assert store.version(ticket.code) == 1


def test_a_teacher_who_reconnects_with_the_key_continues_the_room(store):
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, STATE)
    store.join(ticket.code)
    resumed = store.teacher_heartbeat(ticket.code.lower(), ticket.key)  # a new session, the same URL
    assert (resumed.code, resumed.version, resumed.state, resumed.student_count) == (ticket.code, 2, STATE, 1)
    assert store.publish(ticket.code, ticket.key, NEXT) == 3
    assert store.snapshot(ticket.code).state == NEXT


def test_a_wrong_code_is_not_found(store):
    store.create_room()
    code = "ZZZZZZ"  # well formed; a random code equals it once in 10⁹
    with pytest.raises(RoomNotFound) as caught:
        store.snapshot(code)
    assert caught.value.params == {"code": code} and code in str(caught.value)
    for call in (store.join, store.version, store.room_models):
        with pytest.raises(RoomNotFound):
            call(code)


@pytest.mark.parametrize("code", ["", "ABC", "ABCDEFG", "O0I1O0", "AB CD\x00E", "<b>XX</b>", "x" * 100_000, None, 42])
def test_a_malformed_code_is_refused_without_echoing_it(store, code):
    with pytest.raises(RoomNotFound) as caught:
        store.join(code)
    assert caught.value.template == RoomNotFound.MALFORMED and caught.value.params == {"length": 6}
    assert str(caught.value) == "That is not a class code: a class code has 6 letters and digits."


def test_a_closed_room_tells_everyone_it_has_ended(store, clock):
    ticket = store.create_room()
    student = store.join(ticket.code)
    store.close(ticket.code, ticket.key)
    for call in (store.snapshot, store.join, store.version):
        with pytest.raises(RoomClosed) as caught:
            call(ticket.code)
        assert str(caught.value) == f"Class {ticket.code} has ended."
    with pytest.raises(RoomClosed):
        store.publish(ticket.code, ticket.key, STATE)
    with pytest.raises(RoomClosed):
        store.student_heartbeat(ticket.code, student)
    store.leave(ticket.code, student)  # leaving an ended class is not an error
    store.close(ticket.code, ticket.key)  # nor is closing it twice
    clock.advance(TEST_LIMITS["ended_memory"] + 1)
    with pytest.raises(RoomNotFound):
        store.snapshot(ticket.code)


def test_a_closed_room_frees_its_place(store):
    tickets = [store.create_room() for _ in range(TEST_LIMITS["max_rooms"])]
    store.close(tickets[0].code, tickets[0].key)
    assert store.create_room().code not in {t.code for t in tickets}


def test_very_long_input_is_refused_and_nothing_changes(store):
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, STATE)
    with pytest.raises(InvalidState) as caught:
        store.publish(ticket.code, ticket.key, {**STATE, "input": "x" * 2001})
    assert caught.value.template == InvalidState.TOO_LONG
    assert caught.value.params == {"field": "input", "length": 2001, "limit": 2000}
    assert str(caught.value) == "“input” is too long: 2001 characters, at most 2000."
    snap = store.snapshot(ticket.code)
    assert (snap.version, snap.state) == (2, STATE)
    assert store.publish(ticket.code, ticket.key, {**STATE, "input": "字" * 2000}) == 3  # the limit itself is fine
    assert store.snapshot(ticket.code).state["input"] == "字" * 2000


@pytest.mark.parametrize(
    ("state", "template", "params"),
    [
        ("page=x", InvalidState.NOT_A_MAPPING, {}),
        ({"step": 5}, InvalidState.UNKNOWN_PAGE, {"page": ""}),
        ({"page": 7}, InvalidState.UNKNOWN_PAGE, {"page": "7"}),
        ({"page": "p" * 65}, InvalidState.UNKNOWN_PAGE, {"page": "p" * 39 + "…"}),
        ({"page": "step-by-step", "password": "x"}, InvalidState.UNKNOWN_KEY, {"field": "password"}),
        ({"page": "attention", "wt_layer": 1}, InvalidState.UNKNOWN_KEY, {"field": "wt_layer", "page": "attention"}),
        ({"page": "step-by-step", "lang": "zh"}, InvalidState.UNKNOWN_KEY, {"field": "lang"}),  # each reads their own
        ({"page": "step-by-step", "step": True}, InvalidState.NOT_INT, {"field": "step", "low": 1, "high": 8}),
        ({"page": "step-by-step", "step": "5"}, InvalidState.NOT_INT, {"field": "step", "low": 1, "high": 8}),
        ({"page": "step-by-step", "step": 9}, InvalidState.NOT_INT, {"field": "step", "low": 1, "high": 8}),
        ({"page": "attention", "head": -1}, InvalidState.NOT_INT, {"field": "head", "low": 0, "high": 15}),
        ({"page": "attention", "present": 1}, InvalidState.NOT_BOOL, {"field": "present"}),
        ({"page": "attention", "kind": "sideways"}, InvalidState.NOT_CHOICE, {"field": "kind"}),
        ({"page": "attention", "input": "bad \ud800 text"}, InvalidState.NOT_VALID_TEXT, {"field": "input"}),
        (
            {"page": "step-by-step", "wt_temperature": float("nan")},
            ViewError.NOT_NUMBER,
            {"field": "wt_temperature", "low": "0.1", "high": "5"},
        ),
        ({"page": "step-by-step", "wt_temperature": {"nested": 1}}, ViewError.NOT_NUMBER, {"field": "wt_temperature"}),
        (
            {"page": "attention", "\x1b[31m" + "k" * 100: 1},
            InvalidState.UNKNOWN_KEY,
            {"field": "[31m" + "k" * 35 + "…"},
        ),
    ],
)
def test_malformed_state_gets_its_own_message_and_changes_nothing(store, state, template, params):
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, STATE)
    with pytest.raises(InvalidState) as caught:
        store.publish(ticket.code, ticket.key, state)
    assert caught.value.template == template
    assert {name: caught.value.params[name] for name in params} == params
    assert str(caught.value) == template.format(**caught.value.params)
    assert (store.version(ticket.code), store.snapshot(ticket.code).state) == (2, STATE)


def test_state_too_large_as_a_whole_is_refused(make_store):
    store = make_store(max_state_bytes=1000)
    ticket = store.create_room()
    with pytest.raises(InvalidState) as caught:
        store.publish(ticket.code, ticket.key, {"page": "attention", "input": "x" * 600, "target": "y" * 600})
    assert caught.value.template == InvalidState.TOO_LARGE and caught.value.params["limit"] == 1000
    assert caught.value.params["size"] == len('{"input":"","page":"attention","target":""}') + 1200


def test_a_flood_of_rooms_meets_the_room_limit(store, clock):
    tickets = [store.create_room() for _ in range(TEST_LIMITS["max_rooms"])]
    for _ in range(3):
        with pytest.raises(TooManyRooms) as caught:
            store.create_room()
        assert caught.value.params == {"limit": 5}
        assert str(caught.value) == "The server already runs 5 classes, its limit. Try again when one has ended."
    assert [store.snapshot(t.code).version for t in tickets] == [1] * 5  # the rooms that exist are unharmed
    clock.advance(TEST_LIMITS["teacher_timeout"] + 1)  # every teacher gone: their places are free again
    assert len({store.create_room().code for _ in range(5)}) == 5


def test_a_flood_of_joins_meets_the_student_limit(store, clock):
    ticket = store.create_room()
    students = [store.join(ticket.code) for _ in range(TEST_LIMITS["max_students"])]
    for _ in range(3):
        with pytest.raises(RoomFull) as caught:
            store.join(ticket.code)
        assert caught.value.params == {"code": ticket.code, "limit": 4}
        assert str(caught.value) == f"Class {ticket.code} is full: it already has 4 students."
    assert store.snapshot(ticket.code).student_count == 4
    store.leave(ticket.code, students[0])
    late = store.join(ticket.code)
    with pytest.raises(RoomFull):  # the one who left cannot come back while the room is full again
        store.student_heartbeat(ticket.code, students[0])
    clock.advance(TEST_LIMITS["student_window"] + 1)  # all lapse except the one who keeps calling
    store.student_heartbeat(ticket.code, late)
    assert store.snapshot(ticket.code).student_count == 1
    assert len({store.join(ticket.code) for _ in range(3)}) == 3


def test_presence_counts_students_who_call_within_the_window(store, clock):
    ticket = store.create_room()
    ann, bob = store.join(ticket.code), store.join(ticket.code)
    assert store.snapshot(ticket.code).student_count == 2
    clock.advance(TEST_LIMITS["student_window"] * 0.6)
    store.student_heartbeat(ticket.code, ann)
    clock.advance(TEST_LIMITS["student_window"] * 0.6)  # bob silent for 1.2 windows, ann for 0.6
    store.teacher_heartbeat(ticket.code, ticket.key)
    assert store.snapshot(ticket.code).student_count == 1
    store.student_heartbeat(ticket.code, bob)  # bob's tab wakes up: counted again
    assert store.snapshot(ticket.code).student_count == 2
    store.leave(ticket.code, ann)
    store.leave(ticket.code, ann)
    assert store.snapshot(ticket.code).student_count == 1


@pytest.mark.parametrize("student", ["", "short", "x" * 65, "bad id with spaces!!", None, 7])
def test_a_malformed_student_id_is_refused(store, student):
    ticket = store.create_room()
    with pytest.raises(NotJoined) as caught:
        store.student_heartbeat(ticket.code, student)
    assert caught.value.params == {"code": ticket.code}
    assert store.snapshot(ticket.code).student_count == 0


def test_teacher_connected_follows_teacher_calls(store, clock):
    ticket = store.create_room()
    clock.advance(TEST_LIMITS["student_window"] + 1)
    assert store.snapshot(ticket.code).teacher_connected is False
    store.teacher_heartbeat(ticket.code, ticket.key)
    assert store.snapshot(ticket.code).teacher_connected is True


def test_the_room_ends_after_its_teacher_is_gone(store, clock):
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, STATE)
    student = store.join(ticket.code)
    for _ in range(4):  # a teacher who keeps calling keeps the room, students or not
        clock.advance(TEST_LIMITS["teacher_timeout"] * 0.75)
        store.teacher_heartbeat(ticket.code, ticket.key)
    assert store.snapshot(ticket.code).state == STATE
    clock.advance(TEST_LIMITS["teacher_timeout"] + 1)
    with pytest.raises(RoomClosed):
        store.snapshot(ticket.code)
    with pytest.raises(RoomClosed):
        store.student_heartbeat(ticket.code, student)
    with pytest.raises(RoomClosed):  # the teacher coming back too late starts a new class
        store.teacher_heartbeat(ticket.code, ticket.key)
    clock.advance(TEST_LIMITS["ended_memory"])
    with pytest.raises(RoomNotFound):
        store.snapshot(ticket.code)


def test_the_key_is_in_no_student_visible_value(store):
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, STATE)
    store.ask(ticket.code, ticket.key, {"id": "q", "kind": "argmax", "options": ["a", "b"]})
    student = store.join(ticket.code)
    store.answer(ticket.code, student, "q", 1)
    store.reveal(ticket.code, ticket.key, 1)
    seen = [store.snapshot(ticket.code), store.wait_for_change(ticket.code, 0, 0), store.room_models(ticket.code)]
    seen += [store.teacher_heartbeat(ticket.code, ticket.key), store.answer_counts(ticket.code, ticket.key), student]
    for value in seen:
        fields = dataclasses.asdict(value) if dataclasses.is_dataclass(value) and not isinstance(value, type) else value
        text = repr(value) + repr(fields)
        assert ticket.key not in text and hash_key(ticket.key) not in text
    with pytest.raises(WrongKey) as caught:
        store.publish(ticket.code, ticket.key[:-1], STATE)
    assert ticket.key[:-1] not in str(caught.value) + repr(caught.value.params)


def test_wait_for_change_wakes_a_follower_with_the_new_state(store):
    ticket = store.create_room()
    version = store.version(ticket.code)
    woke: list = []
    follower = threading.Thread(target=lambda: woke.append(store.wait_for_change(ticket.code, version, 30)))
    follower.start()
    store.publish(ticket.code, ticket.key, STATE)
    follower.join(30)
    assert not follower.is_alive()
    assert woke[0].version == version + 1 and woke[0].state == STATE


def test_wait_for_change_returns_none_without_a_change_and_at_once_when_behind(store):
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, STATE)
    assert store.wait_for_change(ticket.code, 2, timeout=0.05) is None
    store.teacher_heartbeat(ticket.code, ticket.key)  # a heartbeat is not a change to follow
    assert store.wait_for_change(ticket.code, 2, timeout=0.05) is None
    behind = store.wait_for_change(ticket.code, 1, timeout=0)
    assert (behind.version, behind.state) == (2, STATE)


def test_a_follower_waiting_when_the_class_ends_is_told(store):
    ticket = store.create_room()
    outcome: list = []

    def follow() -> None:
        try:
            outcome.append(store.wait_for_change(ticket.code, 1, 30))
        except RoomClosed as error:
            outcome.append(error)

    follower = threading.Thread(target=follow)
    follower.start()
    store.close(ticket.code, ticket.key)
    follower.join(30)
    assert isinstance(outcome[0], RoomClosed)


def test_many_threads_join_and_answer_at_once(make_store):
    store = make_store(max_students=40)
    ticket = store.create_room()
    store.ask(ticket.code, ticket.key, {"id": "q", "kind": "k", "options": ["a", "b", "c"]})
    start = threading.Barrier(30)
    errors: list = []

    def student(i: int) -> None:
        try:
            start.wait(30)
            me = store.join(ticket.code)
            store.answer(ticket.code, me, "q", i % 3)
            store.student_heartbeat(ticket.code, me)
        except Exception as error:  # surfaced by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=student, args=(i,)) for i in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert store.answer_counts(ticket.code, ticket.key).counts == (10, 10, 10)
    assert store.snapshot(ticket.code).student_count == 30


def test_a_state_or_question_holding_the_key_is_never_sent(store):
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, STATE)
    leaks = [
        lambda: store.publish(ticket.code, ticket.key, {**STATE, "input": f"?room={ticket.code}&key={ticket.key}"}),
        lambda: store.publish(ticket.code, ticket.key, {**STATE, "input": ticket.key}),
        lambda: store.ask(ticket.code, ticket.key, {"id": "q", "kind": "k", "options": ["a", ticket.key]}),
    ]
    for leak in leaks:
        with pytest.raises(InvalidState) as caught:
            leak()
        assert caught.value.template == InvalidState.KEY_INSIDE and ticket.key not in str(caught.value)
    snap = store.snapshot(ticket.code)
    assert (snap.version, snap.state, snap.question) == (2, STATE, None)


@pytest.mark.parametrize("timeout", [float("nan"), -5, 0])
def test_wait_for_change_takes_any_timeout_without_hanging(store, timeout):
    ticket = store.create_room()
    assert store.wait_for_change(ticket.code, 1, timeout) is None
    assert store.wait_for_change(ticket.code, 0, timeout).version == 1


@pytest.mark.parametrize("after", ["1", None, 1.5, True])
def test_wait_for_change_refuses_a_version_that_is_not_a_whole_number(store, after):
    ticket = store.create_room()
    with pytest.raises(InvalidState) as caught:
        store.wait_for_change(ticket.code, after, 0)
    assert caught.value.params["field"] == "after_version"
