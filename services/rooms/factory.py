"""Choosing the backend: Redis when ATTENTION_LAB_REDIS_URL is set, else this process's memory."""

import os
import threading
import time
from collections.abc import Callable, Mapping

from attention_lab.command import REDIS_URL_ENV
from services.rooms.limits import RoomLimits
from services.rooms.memory import MemoryRoomStore
from services.rooms.store import RoomStore

_shared: RoomStore | None = None
_shared_lock = threading.Lock()


def open_room_store(
    env: Mapping[str, str] = os.environ, *, limits: RoomLimits | None = None, clock: Callable[[], float] = time.time
) -> RoomStore:
    """A new store: RedisRoomStore on env's ATTENTION_LAB_REDIS_URL if set, else MemoryRoomStore.
    Limits default to RoomLimits.from_env(env). RoomUnavailable if Redis cannot be reached."""
    limits = limits or RoomLimits.from_env(env)
    url = env.get(REDIS_URL_ENV, "").strip()
    if url:
        from services.rooms.redis_store import RedisRoomStore  # only deployments with Redis import redis-py

        return RedisRoomStore(url, limits=limits, clock=clock)
    return MemoryRoomStore(limits=limits, clock=clock)


def shared_room_store() -> RoomStore:
    """The process-wide store every session of this server shares, opened from os.environ on first use."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = open_room_store()
        return _shared
