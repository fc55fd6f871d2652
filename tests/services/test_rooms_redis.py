"""Rooms across servers: two RedisRoomStore instances (two server processes' stores) on one real redis-server."""

from __future__ import annotations

import threading
import uuid

import numpy as np
import pytest
import redis
from safetensors.numpy import save

from devtools.redis_server import redis_server, require_redis_server, start_redis_server
from services.rooms import RoomLimits, RoomNotFound, RoomUnavailable, StaleQuestion, WrongKey
from services.rooms.codes import hash_key
from services.rooms.redis_store import RedisRoomStore

from .conftest import TEST_LIMITS
from .helpers import eventually

STATE = {"page": "step-by-step", "model": "reverse", "input": "a b c", "step": 5}


@pytest.fixture
def servers(redis_srv, clock):
    """Two stores sharing one Redis and one key prefix, as two app servers behind a load balancer."""
    prefix = f"pair-{uuid.uuid4().hex[:12]}:"
    limits = RoomLimits(**TEST_LIMITS)
    a = RedisRoomStore(redis_srv.url, limits=limits, clock=clock, prefix=prefix)
    b = RedisRoomStore(redis_srv.url, limits=limits, clock=clock, prefix=prefix)
    yield a, b
    a.shutdown()
    b.shutdown()


def follow_once(store, code: str, after: int) -> tuple[threading.Thread, list]:
    """A follower thread blocked in wait_for_change on `store`; its result lands in the list."""
    woke: list = []
    thread = threading.Thread(target=lambda: woke.append(store.wait_for_change(code, after, 30)))
    thread.start()
    return thread, woke


def test_a_follower_on_another_server_wakes_with_the_teachers_state(servers):
    a, b = servers
    ticket = a.create_room()
    b.join(ticket.code)
    for step in range(5):
        version = b.version(ticket.code)
        thread, woke = follow_once(b, ticket.code, version)
        assert a.publish(ticket.code, ticket.key, {**STATE, "step": step + 1}) == version + 1
        thread.join(30)
        assert woke[0] is not None, "the follower on B timed out instead of being told"
        assert (woke[0].version, woke[0].state["step"]) == (version + 1, step + 1)
        assert b.snapshot(ticket.code).state == {**STATE, "step": step + 1}


def test_students_on_one_server_answer_and_the_teacher_on_the_other_counts(servers):
    a, b = servers
    ticket = a.create_room()
    students = [b.join(ticket.code) for _ in range(3)]
    thread, woke = follow_once(b, ticket.code, b.version(ticket.code))
    a.ask(ticket.code, ticket.key, {"id": "q1", "kind": "next-token", "options": ["x", "y", "z"]})
    thread.join(30)
    assert woke[0].question.id == "q1"
    for student, choice in zip(students, (2, 0, 2), strict=True):
        b.answer(ticket.code, student, "q1", choice)
    assert a.answer_counts(ticket.code, ticket.key).counts == (1, 0, 2)
    assert eventually(lambda: a.snapshot(ticket.code).student_count == 3)
    thread, woke = follow_once(b, ticket.code, b.version(ticket.code))
    a.reveal(ticket.code, ticket.key, 2)
    thread.join(30)
    assert (woke[0].revealed.answer, woke[0].revealed.counts.counts) == (2, (1, 0, 2))


def test_a_model_shared_on_one_server_is_read_on_the_other_with_that_rooms_code_only(servers):
    a, b = servers
    mine, other = a.create_room(), b.create_room()
    weights = save({"w": np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4)})
    thread, woke = follow_once(b, mine.code, b.version(mine.code))
    a.share_model(mine.code, mine.key, "trained", b'{"d_model": 4}', weights)
    thread.join(30)
    assert [m.name for m in woke[0].models] == ["trained"]
    model = b.get_room_model(mine.code, "trained")
    assert (model.config_json, model.weights) == (b'{"d_model": 4}', weights)
    with pytest.raises(Exception, match="has no model named"):
        b.get_room_model(other.code, "trained")


def test_a_teacher_moving_to_another_server_continues_the_room(servers):
    a, b = servers
    ticket = a.create_room()
    a.publish(ticket.code, ticket.key, STATE)
    resumed = b.teacher_heartbeat(ticket.code, ticket.key)
    assert (resumed.version, resumed.state) == (2, STATE)
    assert b.publish(ticket.code, ticket.key, {**STATE, "step": 6}) == 3
    with pytest.raises(WrongKey):
        b.publish(ticket.code, "guessed", STATE)
    assert eventually(lambda: a.version(ticket.code) == 3)


def test_a_room_flood_across_servers_meets_one_limit(servers):
    a, b = servers
    for i in range(TEST_LIMITS["max_rooms"]):
        (a if i % 2 else b).create_room()
    for store in (a, b):
        with pytest.raises(Exception, match="already runs 5 classes"):
            store.create_room()


def test_a_close_on_one_server_ends_the_class_on_the_other(servers):
    a, b = servers
    ticket = a.create_room()
    b.join(ticket.code)
    outcome: list = []

    def follow() -> None:
        try:
            b.wait_for_change(ticket.code, b.version(ticket.code), 30)
        except Exception as error:  # the one expected is RoomClosed
            outcome.append(error)

    thread = threading.Thread(target=follow)
    thread.start()
    a.close(ticket.code, ticket.key)
    thread.join(30)
    assert [type(e).__name__ for e in outcome] == ["RoomClosed"]


def test_room_data_expires_with_the_room(servers, redis_srv):
    a, b = servers
    ticket = a.create_room()
    student = b.join(ticket.code)
    a.ask(ticket.code, ticket.key, {"id": "q", "kind": "k", "options": ["x", "y"]})
    b.answer(ticket.code, student, "q", 1)
    a.share_model(ticket.code, ticket.key, "m", b"{}", save({"w": np.zeros(2, dtype=np.float32)}))
    client = redis.Redis.from_url(redis_srv.url)
    keys = a._keys(ticket.code)[:4]
    ttl = TEST_LIMITS["teacher_timeout"] + TEST_LIMITS["ended_memory"]
    assert [0 < client.ttl(key) <= ttl for key in keys] == [True] * 4  # every key of the room will expire
    a.close(ticket.code, ticket.key)
    assert [client.exists(key) for key in keys] == [1, 0, 0, 0]  # students, answers, models dropped at once
    assert 0 < client.ttl(keys[0]) <= TEST_LIMITS["ended_memory"]
    client.close()


def test_redis_holds_no_teacher_key(servers, redis_srv):
    a, _ = servers
    ticket = a.create_room()
    a.publish(ticket.code, ticket.key, STATE)
    client = redis.Redis.from_url(redis_srv.url)
    room = client.hgetall(a._keys(ticket.code)[0])
    assert room[b"key_hash"] == hash_key(ticket.key).encode()
    assert not any(ticket.key.encode() in value for value in room.values())
    client.close()


def test_a_hostile_message_on_a_room_channel_does_not_stop_following(servers, redis_srv):
    a, b = servers
    ticket = a.create_room()
    client = redis.Redis.from_url(redis_srv.url)
    channel = a._channel_prefix + ticket.code
    for junk in (b"not json", b"[]", b'{"version": "x"}', b"\xff" * 100):
        client.publish(channel, junk)
    client.publish(a._channel_prefix + "../../etc", b"{}")
    client.close()
    thread, woke = follow_once(b, ticket.code, b.version(ticket.code))
    a.publish(ticket.code, ticket.key, STATE)
    thread.join(30)
    assert woke[0].state == STATE


def test_a_room_deleted_behind_the_stores_back_is_not_found(servers, redis_srv):
    a, b = servers
    ticket = a.create_room()
    b.join(ticket.code)
    client = redis.Redis.from_url(redis_srv.url)
    client.delete(*a._keys(ticket.code)[:4])
    client.close()
    with pytest.raises(RoomNotFound):
        a.publish(ticket.code, ticket.key, STATE)
    with pytest.raises(RoomNotFound):
        a.snapshot(ticket.code)


def test_redis_going_away_gives_a_clear_error_and_following_resumes_when_it_returns(tmp_path, clock):
    limits = RoomLimits(**TEST_LIMITS)
    with redis_server(tmp_path) as server:
        a = RedisRoomStore(server.url, limits=limits, clock=clock)
        b = RedisRoomStore(server.url, limits=limits, clock=clock)
        try:
            ticket = a.create_room()
            server.stop()
            with pytest.raises(RoomUnavailable) as caught:
                a.publish(ticket.code, ticket.key, STATE)
            assert str(caught.value) == "The class service cannot be reached right now; try again in a moment."
            with pytest.raises(RoomUnavailable):
                b.create_room()
            restarted = start_redis_server(require_redis_server(), tmp_path, port=server.port)
            try:  # an empty Redis (no persistence): the old room is gone, a new one works across both stores
                assert eventually(lambda: _creates(a)) is not None
                fresh = a.create_room()
                thread, woke = follow_once(b, fresh.code, eventually(lambda: _version(b, fresh.code)))
                a.publish(fresh.code, fresh.key, STATE)
                thread.join(30)
                assert woke[0] is not None and woke[0].state == STATE
                assert eventually(lambda: _forgotten(a, ticket.code))  # once a's listener has re-subscribed
            finally:
                restarted.stop()
        finally:
            a.shutdown()
            b.shutdown()


def _creates(store):
    try:
        return store.create_room()
    except RoomUnavailable:
        return None


def _forgotten(store, code) -> bool:
    try:
        store.snapshot(code)
    except RoomNotFound:
        return True
    return False


def _version(store, code):
    try:
        return store.version(code)
    except RoomUnavailable:
        return None


def test_a_server_whose_copy_lags_still_takes_answers_and_teacher_calls(servers):
    a, b = servers
    b._stopping.set()  # B's listener stops: its copy of the room only moves when B asks Redis itself
    b._listener.join(30)
    ticket = a.create_room()
    student = b.join(ticket.code)
    a.ask(ticket.code, ticket.key, {"id": "q1", "kind": "k", "options": ["x", "y"]})
    b.answer(ticket.code, student, "q1", 1)  # B's copy has no question yet: B checks with Redis
    assert b.reveal(ticket.code, ticket.key, 1) == 3  # the teacher, moved to B, reveals what A asked
    a.ask(ticket.code, ticket.key, {"id": "q2", "kind": "k", "options": ["x", "y"]})
    b.answer(ticket.code, student, "q2", 0)  # B's copy says q1 is revealed: B checks with Redis
    assert a.answer_counts(ticket.code, ticket.key).counts == (1, 0)
    with pytest.raises(StaleQuestion):
        b.answer(ticket.code, student, "q1", 0)
