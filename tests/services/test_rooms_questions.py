"""Predict, then reveal, on both backends: asking, answering, changing an answer, revealing, stale questions."""

from __future__ import annotations

import pytest

from services.rooms import AnswersClosed, InvalidState, MemoryRoomStore, NotJoined, RoomFull, StaleQuestion

from .conftest import TEST_LIMITS

TOKENS = ["the", "cat", "sat", "the"]  # a token per option; the same word twice is two options
QUESTION = {"id": "q1", "kind": "argmax-key", "options": TOKENS, "context": {"layer": 0, "head": 1, "query": 2}}


@pytest.fixture
def room(store):
    """A room with an open question and two joined students: (store, ticket, ann, bob)."""
    ticket = store.create_room()
    store.publish(ticket.code, ticket.key, {"page": "attention"})
    assert store.ask(ticket.code, ticket.key, QUESTION) == 3
    return store, ticket, store.join(ticket.code), store.join(ticket.code)


def test_the_open_question_is_in_every_snapshot(room):
    store, ticket, _, _ = room
    question = store.snapshot(ticket.code).question
    assert (question.id, question.kind, question.options) == ("q1", "argmax-key", tuple(TOKENS))
    assert question.context == {"layer": 0, "head": 1, "query": 2}
    assert store.snapshot(ticket.code).revealed is None


def test_two_students_answers_are_counted(room):
    store, ticket, ann, bob = room
    assert store.answer_counts(ticket.code, ticket.key).counts == (0, 0, 0, 0)
    store.answer(ticket.code, ann, "q1", 1)
    store.answer(ticket.code, bob, "q1", 3)
    counts = store.answer_counts(ticket.code, ticket.key)
    assert (counts.question_id, counts.counts, counts.total) == ("q1", (0, 1, 0, 1), 2)
    assert store.snapshot(ticket.code).version == 3  # answers are not a change followers redraw for


def test_a_student_may_change_their_answer_until_the_reveal(room):
    store, ticket, ann, bob = room
    store.answer(ticket.code, ann, "q1", 1)
    store.answer(ticket.code, bob, "q1", 1)
    store.answer(ticket.code, ann, "q1", 2)
    assert store.answer_counts(ticket.code, ticket.key).counts == (0, 1, 1, 0)


def test_reveal_freezes_the_counts_and_refuses_later_answers(room):
    store, ticket, ann, bob = room
    store.answer(ticket.code, ann, "q1", 1)
    store.answer(ticket.code, bob, "q1", 2)
    assert store.reveal(ticket.code, ticket.key, 2, question_id="q1") == 4
    revealed = store.snapshot(ticket.code).revealed
    assert (revealed.answer, revealed.counts.question_id, revealed.counts.counts) == (2, "q1", (0, 1, 1, 0))
    for student, choice in ((ann, 2), (bob, 2)):
        with pytest.raises(AnswersClosed) as caught:
            store.answer(ticket.code, student, "q1", choice)
        assert str(caught.value) == "The answer has been revealed, so answers are closed."
    late = store.join(ticket.code)
    with pytest.raises(AnswersClosed):
        store.answer(ticket.code, late, "q1", 0)
    assert store.answer_counts(ticket.code, ticket.key).counts == (0, 1, 1, 0)


def test_an_answer_to_a_stale_question_is_refused(room):
    store, ticket, ann, bob = room
    store.answer(ticket.code, ann, "q1", 1)
    store.ask(ticket.code, ticket.key, {"id": "q2", "kind": "next-token", "options": ["a", "b"]})
    with pytest.raises(StaleQuestion) as caught:
        store.answer(ticket.code, bob, "q1", 0)
    assert str(caught.value) == "That question is no longer open: the teacher has moved on."
    counts = store.answer_counts(ticket.code, ticket.key)
    assert (counts.question_id, counts.counts) == ("q2", (0, 0))  # a new question starts from no answers
    for stale in ("", "Q1", None, 1):
        with pytest.raises(StaleQuestion):
            store.answer(ticket.code, bob, stale, 0)


def test_asking_the_open_question_again_keeps_its_answers(room):
    store, ticket, ann, _ = room
    store.answer(ticket.code, ann, "q1", 0)
    assert store.ask(ticket.code, ticket.key, QUESTION) == 3
    assert store.answer_counts(ticket.code, ticket.key).counts == (1, 0, 0, 0)


def test_asking_the_same_question_after_its_reveal_asks_it_afresh(room):
    store, ticket, ann, _ = room
    store.answer(ticket.code, ann, "q1", 0)
    store.reveal(ticket.code, ticket.key, 0)
    assert store.ask(ticket.code, ticket.key, QUESTION) == 5
    assert store.snapshot(ticket.code).revealed is None
    store.answer(ticket.code, ann, "q1", 3)
    assert store.answer_counts(ticket.code, ticket.key).counts == (0, 0, 0, 1)


def test_clearing_the_question_closes_it(room):
    store, ticket, ann, _ = room
    assert store.clear_question(ticket.code, ticket.key) == 4
    assert store.snapshot(ticket.code).question is None
    assert store.answer_counts(ticket.code, ticket.key) is None
    with pytest.raises(StaleQuestion):
        store.answer(ticket.code, ann, "q1", 0)
    assert store.clear_question(ticket.code, ticket.key) == 4
    with pytest.raises(InvalidState) as caught:
        store.reveal(ticket.code, ticket.key, 0)
    assert caught.value.template == InvalidState.NO_QUESTION


def test_reveal_with_a_stale_question_id_is_refused(room):
    store, ticket, _, _ = room
    with pytest.raises(StaleQuestion):
        store.reveal(ticket.code, ticket.key, 0, question_id="q0")
    assert store.snapshot(ticket.code).revealed is None


@pytest.mark.parametrize("choice", [4, -1, True, "1", 1.0, None])
def test_a_choice_outside_the_options_is_refused(room, choice):
    store, ticket, ann, _ = room
    with pytest.raises(InvalidState) as caught:
        store.answer(ticket.code, ann, "q1", choice)
    assert caught.value.template == InvalidState.CHOICE and caught.value.params["count"] == 4
    with pytest.raises(InvalidState):
        store.reveal(ticket.code, ticket.key, choice)
    assert store.answer_counts(ticket.code, ticket.key).counts == (0, 0, 0, 0)
    assert store.snapshot(ticket.code).revealed is None


@pytest.mark.parametrize(
    ("question", "template", "params"),
    [
        ({"id": "q", "kind": "k", "options": ["only"]}, InvalidState.OPTIONS, {"low": 2, "high": 256, "count": 1}),
        ({"id": "q", "kind": "k", "options": []}, InvalidState.OPTIONS, {"low": 2, "high": 256, "count": 0}),
        ({"id": "q", "kind": "k", "options": "ab"}, InvalidState.OPTIONS, {"low": 2, "high": 256, "count": 0}),
        (
            {"id": "q", "kind": "k", "options": list("x" * 257)},
            InvalidState.OPTIONS,
            {"low": 2, "high": 256, "count": 257},
        ),
        ({"kind": "k", "options": ["a", "b"]}, InvalidState.MISSING_FIELD, {"field": "id"}),
        ({"id": "q", "kind": "k", "options": ["a", "b"], "answer": 0}, InvalidState.UNKNOWN_FIELD, {"field": "answer"}),
        ({"id": "", "kind": "k", "options": ["a", "b"]}, InvalidState.EMPTY, {"field": "id"}),
        ({"id": "q 1", "kind": "k", "options": ["a", "b"]}, InvalidState.BAD_NAME, {"field": "id"}),
        ({"id": "q", "kind": "k", "options": ["a", 2]}, InvalidState.NOT_TEXT, {"field": "options[1]"}),
        (
            {"id": "q", "kind": "k", "options": ["a", "b" * 65]},
            InvalidState.TOO_LONG,
            {"field": "options[1]", "length": 65, "limit": 64},
        ),
        (["q", "k"], InvalidState.NOT_A_MAPPING, {}),
    ],
)
def test_a_malformed_question_is_refused_and_the_open_one_stays(room, question, template, params):
    store, ticket, ann, _ = room
    store.answer(ticket.code, ann, "q1", 2)
    with pytest.raises(InvalidState) as caught:
        store.ask(ticket.code, ticket.key, question)
    assert (caught.value.template, caught.value.params) == (template, params)
    assert store.snapshot(ticket.code).question.id == "q1"
    assert store.answer_counts(ticket.code, ticket.key).counts == (0, 0, 1, 0)


def test_a_lapsed_student_who_answers_is_counted_again(room, clock):
    store, ticket, ann, _ = room
    clock.advance(TEST_LIMITS["student_window"] + 1)
    store.teacher_heartbeat(ticket.code, ticket.key)
    assert store.snapshot(ticket.code).student_count == 0
    store.answer(ticket.code, ann, "q1", 0)
    assert store.snapshot(ticket.code).student_count == 1
    assert store.answer_counts(ticket.code, ticket.key).counts == (1, 0, 0, 0)


def test_answers_of_a_full_room_come_only_from_its_students(make_store):
    store = make_store(max_students=2)
    ticket = store.create_room()
    store.ask(ticket.code, ticket.key, QUESTION)
    ann, bob = store.join(ticket.code), store.join(ticket.code)
    store.leave(ticket.code, bob)
    store.join(ticket.code)
    with pytest.raises(RoomFull):  # bob left and the room filled up: his answer is not taken
        store.answer(ticket.code, bob, "q1", 0)
    store.answer(ticket.code, ann, "q1", 1)
    assert store.answer_counts(ticket.code, ticket.key).counts == (0, 1, 0, 0)


def test_a_students_answer_stays_theirs_until_the_question_closes(room):
    """Each student reads back their own answer, before and after the reveal, on every server of the class."""
    store, ticket, ann, bob = room
    assert store.my_answer(ticket.code, ann, "q1") is None  # not answered yet
    store.answer(ticket.code, ann, "q1", 1)
    store.answer(ticket.code, ann, "q1", 2)  # changed: the last answer counts
    store.answer(ticket.code, bob, "q1", 3)
    assert (store.my_answer(ticket.code, ann, "q1"), store.my_answer(ticket.code, bob, "q1")) == (2, 3)
    store.publish(ticket.code, ticket.key, {"page": "step-by-step"})  # the teacher moves on before the reveal
    assert store.my_answer(ticket.code, ann, "q1") == 2
    store.reveal(ticket.code, ticket.key, 2, question_id="q1")
    assert (store.my_answer(ticket.code, ann, "q1"), store.my_answer(ticket.code, bob, "q1")) == (2, 3)
    assert store.my_answer(ticket.code, ann, "q0") is None  # another question's id
    store.clear_question(ticket.code, ticket.key)
    assert store.my_answer(ticket.code, ann, "q1") is None


def test_a_students_answer_is_read_on_another_server(make_store):
    """Two stores on one backend (with Redis: two servers) see the same answer; in memory, two stores are two
    separate classes, so only Redis has a second server to ask."""
    store = make_store()
    ticket = store.create_room()
    store.ask(ticket.code, ticket.key, QUESTION)
    ann = store.join(ticket.code)
    store.answer(ticket.code, ann, "q1", 1)
    assert store.my_answer(ticket.code, ann, "q1") == 1
    if isinstance(store, MemoryRoomStore):
        return
    other = make_store()
    assert other.my_answer(ticket.code, ann, "q1") == 1


def test_a_new_view_closes_a_revealed_question_for_everyone(room):
    store, ticket, ann, _ = room
    store.answer(ticket.code, ann, "q1", 1)
    store.publish(ticket.code, ticket.key, {"page": "attention"})  # the same view: nothing closes
    store.reveal(ticket.code, ticket.key, 1, question_id="q1")
    assert store.publish(ticket.code, ticket.key, {"page": "attention"}) == 4  # still the same view
    assert store.snapshot(ticket.code).question.id == "q1"
    version = store.publish(ticket.code, ticket.key, {"page": "step-by-step"})
    snap = store.snapshot(ticket.code)
    assert (snap.version, snap.question, snap.revealed) == (version, None, None) and version == 5
    assert store.answer_counts(ticket.code, ticket.key) is None


def test_a_new_view_keeps_an_open_question_that_is_not_revealed(room):
    store, ticket, ann, _ = room
    store.answer(ticket.code, ann, "q1", 1)
    store.publish(ticket.code, ticket.key, {"page": "step-by-step"})
    assert store.snapshot(ticket.code).question.id == "q1"
    assert store.answer_counts(ticket.code, ticket.key).counts == (0, 1, 0, 0)


@pytest.mark.parametrize("student", ["", "nobody", None, 7])
def test_reading_back_an_answer_with_a_malformed_student_id_is_refused(room, student):
    store, ticket, _, _ = room
    with pytest.raises(NotJoined):
        store.my_answer(ticket.code, student, "q1")
