"""Watching a room, on both backends: a server's followers are called back when the room moves (how the app wakes
each student's session), and only then; a watcher that says its session has gone, or fails, is forgotten."""

from __future__ import annotations

import threading

import pytest

from services.rooms import RoomChange, RoomClosed

STATE = {"page": "step-by-step", "step": 2}
NEXT = {"page": "step-by-step", "step": 3}
QUESTION = {"id": "q1", "kind": "token", "options": ["a", "b"]}


class Seen:
    """A watcher that records every change it is told of, and can be told to stop (its session gone)."""

    def __init__(self, keep: bool = True) -> None:
        self.changes: list[RoomChange] = []
        self.keep = keep
        self.told = threading.Event()

    def __call__(self, change: RoomChange) -> bool:
        self.changes.append(change)
        self.told.set()
        return self.keep

    def wait(self, count: int) -> list[RoomChange]:
        """The changes once `count` have come (Redis tells them from its listener thread)."""
        for _ in range(200):
            if len(self.changes) >= count:
                return self.changes
            self.told.wait(0.05)
            self.told.clear()
        return self.changes


def test_a_watcher_is_told_each_new_version_and_not_of_heartbeats(store):
    ticket = store.create_room()
    seen = Seen()
    store.watch(ticket.code, "session-1", seen)
    store.publish(ticket.code, ticket.key, STATE)
    store.publish(ticket.code, ticket.key, STATE)  # the same view again: no change to follow
    store.teacher_heartbeat(ticket.code, ticket.key)
    student = store.join(ticket.code)
    store.student_heartbeat(ticket.code, student)  # presence moves the rev, not the version
    store.publish(ticket.code, ticket.key, NEXT)
    changes = seen.wait(2)
    assert [c.version for c in changes] == [2, 3]
    assert all(c.code == ticket.code and not c.ended and c.question == () for c in changes)


def test_a_watcher_hears_the_question_and_its_reveal(store):
    ticket = store.create_room()
    seen = Seen()
    store.watch(ticket.code.lower(), "s", seen)  # a typed code is forgiven here too
    store.ask(ticket.code, ticket.key, QUESTION)
    store.reveal(ticket.code, ticket.key, 1)
    assert [c.question for c in seen.wait(2)] == [("q1", False), ("q1", True)]


def test_every_watcher_of_the_room_is_told_and_no_other_rooms(store):
    first, second = store.create_room(), store.create_room()
    watchers = [Seen() for _ in range(3)]
    for i, seen in enumerate(watchers):
        store.watch(first.code, f"session-{i}", seen)
    other = Seen()
    store.watch(second.code, "session-x", other)
    store.publish(first.code, first.key, STATE)
    assert all([c.version for c in seen.wait(1)] == [2] for seen in watchers)
    assert other.changes == []


def test_watching_again_replaces_and_unwatch_stops(store):
    ticket = store.create_room()
    old, new = Seen(), Seen()
    store.watch(ticket.code, "s", old)
    store.watch(ticket.code, "s", new)  # the session's next full run watches again
    store.publish(ticket.code, ticket.key, STATE)
    assert [c.version for c in new.wait(1)] == [2] and old.changes == []
    store.unwatch(ticket.code, "s")  # the student left
    later = Seen()  # watching after "s" was: told of a change after "s" would have been (watchers in their order)
    store.watch(ticket.code, "later", later)
    store.publish(ticket.code, ticket.key, NEXT)
    assert [c.version for c in later.wait(1)] == [3]
    assert [c.version for c in new.changes] == [2]


def test_a_watcher_whose_session_has_gone_or_fails_is_forgotten_and_the_rest_still_hear(store):
    ticket = store.create_room()
    gone, kept = Seen(keep=False), Seen()

    def broken(change: RoomChange) -> bool:
        raise RuntimeError("a bug in one session's watcher")

    store.watch(ticket.code, "gone", gone)
    store.watch(ticket.code, "broken", broken)
    store.watch(ticket.code, "kept", kept)
    store.publish(ticket.code, ticket.key, STATE)
    assert [c.version for c in kept.wait(1)] == [2] and len(gone.wait(1)) == 1
    assert store._docs.watching(ticket.code) == 1  # only "kept" is still watched
    store.publish(ticket.code, ticket.key, NEXT)
    assert [c.version for c in kept.wait(2)] == [2, 3] and len(gone.changes) == 1


def test_the_end_of_the_class_is_told_and_an_ended_room_cannot_be_watched(store):
    ticket = store.create_room()
    seen = Seen()
    store.watch(ticket.code, "s", seen)
    store.close(ticket.code, ticket.key)
    assert seen.wait(1)[-1].ended
    with pytest.raises(RoomClosed):
        store.watch(ticket.code, "late", Seen())
