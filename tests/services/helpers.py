"""Test helpers for the room stores: a clock tests move, and waiting for what pub/sub brings."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class FakeClock:
    """Wall-clock seconds that move only when a test says so (presence and expiry are judged by it)."""

    def __init__(self) -> None:
        self._now = time.time()
        self._lock = threading.Lock()

    def __call__(self) -> float:
        with self._lock:
            return self._now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds


def eventually(check: Callable[[], T], timeout: float = 10.0) -> T:
    """check()'s first truthy result, retried until `timeout` s (for what arrives by pub/sub, not a version)."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result or time.monotonic() > deadline:
            return result
        time.sleep(0.01)
