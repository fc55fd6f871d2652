"""The training run a class watches, on both backends: the teacher's record comes back to every follower as sent,
wakes them once per new record (not for the same one again), is refused with a clear message when malformed or too
large, ends with the class; with Redis, a record published on one server wakes a follower on another."""

from __future__ import annotations

import threading
import uuid

import pytest

from services.rooms import InvalidState, RoomClosed, RoomLimits, WrongKey
from services.rooms.redis_store import RedisRoomStore

from .conftest import TEST_LIMITS

RUN = {  # the shape of a class run's record: ids, counts and curves (lists of numbers, nested per layer and head)
    "id": "run-7",
    "status": "running",
    "step": 300,
    "losses": [[1, 3.47], [100, 3.4], [300, 2.9]],
    "induction": [[[0.06, 0.05], [0.04, 0.07]], [[0.06, 0.05], [0.3, 0.08]]],
    "formed": None,
}


def test_a_run_comes_back_to_every_follower_as_the_teacher_sent_it(store):
    ticket = store.create_room()
    assert store.snapshot(ticket.code).run is None
    version = store.publish_run(ticket.code, ticket.key, RUN)
    assert version == 2  # followers redraw the curves
    snapshot = store.snapshot(ticket.code)
    assert snapshot.run == RUN and snapshot.version == 2
    snapshot.run["step"] = 0  # a fresh dict: the caller's to keep
    assert store.snapshot(ticket.code).run == RUN
    assert store.publish_run(ticket.code, ticket.key, dict(RUN)) == 2  # the same record again wakes nobody
    assert store.publish_run(ticket.code, ticket.key, {**RUN, "step": 400}) == 3
    assert store.snapshot(ticket.code).run["step"] == 400
    assert store.publish_run(ticket.code, ticket.key, None) == 4  # taken down
    assert store.snapshot(ticket.code).run is None


def test_a_new_view_leaves_the_run_in_place(store):
    ticket = store.create_room()
    store.publish_run(ticket.code, ticket.key, RUN)
    store.publish(ticket.code, ticket.key, {"page": "train", "model": "reverse"})
    assert store.snapshot(ticket.code).run == RUN


def test_only_the_teacher_publishes_a_run(store):
    mine, other = store.create_room(), store.create_room()
    with pytest.raises(WrongKey):
        store.publish_run(mine.code, other.key, RUN)
    with pytest.raises(WrongKey):
        store.publish_run(mine.code, "", RUN)
    assert store.snapshot(mine.code).run is None


@pytest.mark.parametrize(
    ("run", "template", "params"),
    [
        ("losses", InvalidState.NOT_A_MAPPING, {}),
        ({"Bad Name": 1}, InvalidState.BAD_NAME, {"field": "run.Bad Name"}),
        ({"loss": float("nan")}, InvalidState.NOT_NUMBER, {"field": "run.loss.v"}),
        ({"loss": [1.0, float("inf")]}, InvalidState.NOT_NUMBER, {"field": "run.loss[1].v"}),
        ({"deep": [[[[1]]]]}, InvalidState.NOT_SCALAR, {"field": "run.deep[0][0][0]"}),
        ({"blob": b"\x00"}, InvalidState.NOT_SCALAR, {"field": "run.blob.v"}),
        ({f"k{i}": i for i in range(33)}, InvalidState.TOO_MANY, {"field": "run", "count": 33, "limit": 32}),
    ],
)
def test_a_malformed_run_is_refused_and_changes_nothing(store, run, template, params):
    ticket = store.create_room()
    store.publish_run(ticket.code, ticket.key, RUN)
    with pytest.raises(InvalidState) as caught:
        store.publish_run(ticket.code, ticket.key, run)
    assert caught.value.template == template and caught.value.params == params
    assert store.snapshot(ticket.code).run == RUN and store.version(ticket.code) == 2


def test_a_run_over_the_size_bound_is_refused_with_its_size(make_store):
    store = make_store(max_run_bytes=1000)
    ticket = store.create_room()
    run = {"losses": [[step, 1.25] for step in range(200)]}  # "[0,1.25]," is 9+ characters a step
    with pytest.raises(InvalidState) as caught:
        store.publish_run(ticket.code, ticket.key, run)
    size = int(str(caught.value.params["size"]))
    assert caught.value.template == InvalidState.TOO_LARGE and size > 1000 and caught.value.params["limit"] == 1000
    assert str(caught.value) == f"What was sent to the class is too large: {size} bytes, at most 1000."


def test_a_run_holding_the_teachers_key_is_not_sent(store):
    ticket = store.create_room()
    with pytest.raises(InvalidState) as caught:
        store.publish_run(ticket.code, ticket.key, {"id": ticket.key[:64]})
    assert caught.value.template == InvalidState.KEY_INSIDE


def test_the_run_ends_with_the_class(store):
    ticket = store.create_room()
    store.publish_run(ticket.code, ticket.key, RUN)
    store.close(ticket.code, ticket.key)
    with pytest.raises(RoomClosed):
        store.snapshot(ticket.code)
    assert store._docs.get(ticket.code).run == ""  # nothing of the run is kept with an ended room


def test_a_run_published_on_one_server_wakes_a_follower_on_another(redis_srv, clock):
    prefix = f"run-{uuid.uuid4().hex[:12]}:"
    a, b = (RedisRoomStore(redis_srv.url, limits=RoomLimits(**TEST_LIMITS), clock=clock, prefix=prefix) for _ in "ab")
    try:
        ticket = a.create_room()
        b.join(ticket.code)
        for step in (100, 200, 300):
            version = b.version(ticket.code)
            woke: list = []
            wait = lambda v=version, w=woke: w.append(b.wait_for_change(ticket.code, v, 30))
            follower = threading.Thread(target=wait)
            follower.start()
            a.publish_run(ticket.code, ticket.key, {**RUN, "step": step})
            follower.join(30)
            assert woke[0] is not None, "the follower on B timed out instead of being told"
            assert woke[0].run == {**RUN, "step": step} and woke[0].version == version + 1
    finally:
        a.shutdown()
        b.shutdown()
