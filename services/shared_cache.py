"""SharedCache: a thread-safe LRU, bounded by entries and bytes, that computes each missing key once.

Every browser session of a server runs in its own thread. When a class of N follows one teacher, N
sessions ask for the same value (the trace of the teacher's input) at the same moment; the first
computes it while the others wait for that result instead of computing it again ("single flight").
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Generic, TypeVar

from model.memo import MISSING, BoundedCache

V = TypeVar("V")


@dataclass
class CacheStats:
    """What the cache did: hits, values computed, waits on another thread's computation, evictions."""

    hits: int = 0
    computed: int = 0
    waited: int = 0
    evicted: int = 0


class SharedCache(Generic[V]):
    """get(key, compute) → the cached value, or compute() once for all threads asking for the same key.

    The values are kept in a model.memo.BoundedCache: bounded by max_entries and by max_bytes as measured by size_of
    (the least recently used go first); a value larger than max_bytes alone is returned but not kept. An exception
    from compute() reaches every thread that waited for it and nothing is cached.
    """

    def __init__(self, max_entries: int, max_bytes: int, size_of: Callable[[V], int]) -> None:
        if max_entries < 1 or max_bytes < 1:
            raise ValueError("max_entries and max_bytes must be positive")
        self._lock = threading.Lock()  # taken before the kept values' own lock, never after it
        self._kept = BoundedCache(max_entries, max_bytes, size_of)
        self._pending: dict[Hashable, Future[V]] = {}
        self.stats = CacheStats()

    def get(self, key: Hashable, compute: Callable[[], V]) -> V:
        with self._lock:
            found = self._kept.get(key)
            if found is not MISSING:
                self.stats.hits += 1
                return found
            pending = self._pending.get(key)
            owner = pending is None
            if pending is None:
                pending = self._pending[key] = Future()
                self.stats.computed += 1
            else:
                self.stats.waited += 1
        if not owner:
            return pending.result()
        try:
            value = compute()
        except BaseException as exc:
            with self._lock:
                del self._pending[key]
            pending.set_exception(exc)
            raise
        with self._lock:
            del self._pending[key]
            self.stats.evicted += self._kept.put(key, value)
        pending.set_result(value)
        return value

    def __len__(self) -> int:
        return len(self._kept)

    def kept_keys(self) -> list[Hashable]:
        """The keys kept, the least recently used first."""
        return self._kept.kept_keys()

    @property
    def nbytes(self) -> int:
        return self._kept.nbytes

    def clear(self) -> None:
        self._kept.clear()
