"""Lessons kept with a room, on both backends: a real lesson file comes back byte for byte to that room's code only,
the room keeps its latest few, a lesson over the size bound is refused with its sizes, and a closed room's are gone;
with Redis, a lesson kept through one server is read through another."""

from __future__ import annotations

import uuid

import pytest

from services.lessons import LIBRARY, parse_lesson, shipped_file
from services.rooms import (
    InvalidState,
    LessonNotFound,
    LessonTooLarge,
    RoomClosed,
    RoomLimits,
    WrongKey,
)
from services.rooms.redis_store import RedisRoomStore

from .conftest import TEST_LIMITS

LESSON_BYTES = shipped_file("attention-basics")  # a real lesson file of the app


def test_a_kept_lesson_comes_back_byte_for_byte_to_its_room_only(store):
    mine, other = store.create_room(), store.create_room()
    lesson_id = LIBRARY.keep(parse_lesson(LESSON_BYTES))
    store.share_lesson(mine.code, mine.key, lesson_id, LESSON_BYTES)
    assert store.get_room_lesson(mine.code.lower(), lesson_id) == LESSON_BYTES
    assert parse_lesson(store.get_room_lesson(mine.code, lesson_id)).digest == lesson_id.removeprefix("lesson-")
    assert store.version(mine.code) == 1  # keeping a lesson wakes no follower: the view that names it does
    with pytest.raises(LessonNotFound) as caught:
        store.get_room_lesson(other.code, lesson_id)
    assert str(caught.value) == f"Class {other.code} has no lesson “{lesson_id}”."
    with pytest.raises(WrongKey):
        store.share_lesson(other.code, mine.key, lesson_id, LESSON_BYTES)


def test_a_room_keeps_its_latest_lessons_and_drops_the_oldest(make_store):
    store = make_store(max_lessons=2)
    ticket = store.create_room()
    for n in range(3):
        store.share_lesson(ticket.code, ticket.key, f"lesson-{n}", b'{"n": %d}' % n)
    store.share_lesson(ticket.code, ticket.key, "lesson-1", b'{"n": 1}')  # shown again: the latest now
    store.share_lesson(ticket.code, ticket.key, "lesson-3", b'{"n": 3}')
    with pytest.raises(LessonNotFound):
        store.get_room_lesson(ticket.code, "lesson-0")
    with pytest.raises(LessonNotFound):
        store.get_room_lesson(ticket.code, "lesson-2")
    assert [store.get_room_lesson(ticket.code, f"lesson-{n}") for n in (1, 3)] == [b'{"n": 1}', b'{"n": 3}']


def test_a_lesson_over_the_size_bound_is_refused_with_a_clear_message(make_store):
    store = make_store(max_lesson_bytes=4096)
    ticket = store.create_room()
    assert len(LESSON_BYTES) > 4096
    with pytest.raises(LessonTooLarge) as caught:
        store.share_lesson(ticket.code, ticket.key, "lesson-big", LESSON_BYTES)
    assert caught.value.params == {"size_kb": len(LESSON_BYTES) / 1024, "limit_kb": 4.0}
    assert str(caught.value) == (
        f"The lesson is {len(LESSON_BYTES) / 1024:.0f} KB; a class can be shown lessons of up to 4 KB. "
        "Your students see the shipped lesson instead."
    )
    with pytest.raises(LessonNotFound):
        store.get_room_lesson(ticket.code, "lesson-big")
    store.share_lesson(ticket.code, ticket.key, "lesson-small", b"x" * 4096)  # at the bound: kept
    assert store.get_room_lesson(ticket.code, "lesson-small") == b"x" * 4096


@pytest.mark.parametrize(
    ("lesson_id", "data", "template"),
    [
        ("lesson-1", b"", InvalidState.LESSON),
        ("lesson-1", "text, not bytes", InvalidState.LESSON),
        ("", b"{}", InvalidState.EMPTY),
        ("two words", b"{}", InvalidState.BAD_NAME),
        ("x" * 129, b"{}", InvalidState.TOO_LONG),
        (None, b"{}", InvalidState.NOT_TEXT),
    ],
)
def test_a_malformed_lesson_is_refused(store, lesson_id, data, template):
    ticket = store.create_room()
    with pytest.raises(InvalidState) as caught:
        store.share_lesson(ticket.code, ticket.key, lesson_id, data)
    assert caught.value.template == template


def test_the_lessons_of_a_closed_room_are_gone(store):
    ticket = store.create_room()
    store.share_lesson(ticket.code, ticket.key, "lesson-1", LESSON_BYTES)
    store.close(ticket.code, ticket.key)
    with pytest.raises(RoomClosed):
        store.get_room_lesson(ticket.code, "lesson-1")
    with pytest.raises(RoomClosed):
        store.share_lesson(ticket.code, ticket.key, "lesson-2", LESSON_BYTES)


def test_a_lesson_kept_through_one_server_is_read_through_another(redis_srv, clock):
    prefix = f"pair-{uuid.uuid4().hex[:12]}:"
    a, b = (RedisRoomStore(redis_srv.url, limits=RoomLimits(**TEST_LIMITS), clock=clock, prefix=prefix) for _ in "ab")
    try:
        ticket = a.create_room()
        a.share_lesson(ticket.code, ticket.key, "lesson-1", LESSON_BYTES)
        assert b.get_room_lesson(ticket.code, "lesson-1") == LESSON_BYTES
        a.close(ticket.code, ticket.key)
        with pytest.raises((RoomClosed, LessonNotFound)):  # gone at once, whether or not b has heard of the close
            b.get_room_lesson(ticket.code, "lesson-1")
    finally:
        a.shutdown()
        b.shutdown()
