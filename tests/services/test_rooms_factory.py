"""Choosing the backend and the limits from the environment, as a deployment sets them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from services.rooms import MemoryRoomStore, RoomLimits, RoomUnavailable, open_room_store, shared_room_store
from services.rooms.redis_store import RedisRoomStore

ROOT = Path(__file__).resolve().parents[2]


def test_no_redis_url_means_rooms_in_this_process():
    store = open_room_store({})
    assert type(store) is MemoryRoomStore and store.limits == RoomLimits()
    assert open_room_store({"ATTENTION_LAB_REDIS_URL": "  "}).limits.max_rooms == 200


def test_a_redis_url_means_the_redis_backend_with_limits_from_the_environment(redis_srv):
    env = {"ATTENTION_LAB_REDIS_URL": redis_srv.url, "ATTENTION_LAB_ROOM_MAX_STUDENTS": "300"}
    env["ATTENTION_LAB_ROOM_TEACHER_TIMEOUT"] = "90.5"
    store = open_room_store(env)
    try:
        assert type(store) is RedisRoomStore
        assert (store.limits.max_students, store.limits.teacher_timeout, store.limits.max_rooms) == (300, 90.5, 200)
        ticket = store.create_room()
        assert store.snapshot(ticket.code).version == 1
    finally:
        store.shutdown()


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"ATTENTION_LAB_ROOM_MAX_ROOMS": "many"}, "ATTENTION_LAB_ROOM_MAX_ROOMS='many': expected a whole number"),
        ({"ATTENTION_LAB_ROOM_MAX_STUDENTS": "0"}, "RoomLimits.max_students must be positive and finite, got 0"),
        ({"ATTENTION_LAB_ROOM_TEACHER_TIMEOUT": "soon"}, "expected a number of seconds"),
        ({"ATTENTION_LAB_ROOM_TEACHER_TIMEOUT": "nan"}, "teacher_timeout must be positive and finite, got nan"),
    ],
)
def test_a_bad_limit_setting_stops_the_deployment_with_its_name(env, message):
    with pytest.raises(ValueError, match=message):
        open_room_store(env)


def test_an_unreachable_redis_is_a_clear_room_error():
    with pytest.raises(RoomUnavailable):
        open_room_store({"ATTENTION_LAB_REDIS_URL": "redis://127.0.0.1:1/0"})


def test_the_shared_store_is_one_per_process(monkeypatch):
    monkeypatch.delenv("ATTENTION_LAB_REDIS_URL", raising=False)
    assert shared_room_store() is shared_room_store()


def test_the_room_service_never_imports_streamlit():
    probe = "import sys, services.rooms.redis_store, services.rooms; print('streamlit' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60, cwd=ROOT
    )
    assert result.stdout.strip() == "False"
