"""Room-store fixtures: every contract test runs on both backends, Redis against a real redis-server."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import TypedDict

import pytest

from devtools.redis_server import RedisServer, redis_server
from services.rooms import MemoryRoomStore, RoomLimits, RoomStore
from services.rooms.redis_store import RedisRoomStore

from .helpers import FakeClock


class Limits(TypedDict):  # the RoomLimits fields the tests set
    max_rooms: int
    max_students: int
    teacher_timeout: float
    student_window: float
    ended_memory: float
    max_models: int
    max_model_bytes: int


# Small bounds so floods reach them fast; timings in seconds of the fake clock below.
TEST_LIMITS = Limits(
    max_rooms=5,
    max_students=4,
    teacher_timeout=60.0,
    student_window=10.0,
    ended_memory=120.0,
    max_models=2,
    max_model_bytes=2 * 2**20,
)


@pytest.fixture(scope="session")
def redis_srv(tmp_path_factory) -> Iterator[RedisServer]:
    with redis_server(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["memory", "redis"])
def backend(request) -> str:
    return request.param


@pytest.fixture
def make_store(request, backend, clock) -> Iterator[Callable[..., RoomStore]]:
    """make_store(**limit_overrides) → a fresh store of this test's backend (Redis: its own key prefix)."""
    stores: list[RoomStore] = []
    prefix = f"test-{uuid.uuid4().hex[:12]}:"

    def make(**overrides) -> RoomStore:
        limits = RoomLimits(**{**TEST_LIMITS, **overrides})
        store: RoomStore
        if backend == "memory":
            store = MemoryRoomStore(limits=limits, clock=clock)
        else:
            url = request.getfixturevalue("redis_srv").url
            store = RedisRoomStore(url, limits=limits, clock=clock, prefix=prefix)
        stores.append(store)
        return store

    yield make
    for store in stores:
        store.shutdown()


@pytest.fixture
def store(make_store) -> RoomStore:
    return make_store()
