"""SharedCache: bounded by entries and bytes, least recently used out first, and one computation per key for
every thread that asks at once."""

from __future__ import annotations

import functools
import operator
import threading
import time

import pytest

from services.shared_cache import SharedCache


def test_many_threads_asking_for_one_key_compute_it_once():
    cache: SharedCache[object] = SharedCache(max_entries=4, max_bytes=1000, size_of=lambda v: 1)
    calls, started = [], threading.Event()

    def compute():
        calls.append(threading.get_ident())
        started.set()
        time.sleep(0.2)  # long enough for every other thread to arrive while it runs
        return object()

    results: list[object] = [None] * 10

    def ask(i):
        results[i] = cache.get("trace", compute)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(10)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert len(calls) == 1
    assert all(r is results[0] for r in results) and results[0] is not None
    assert cache.stats.computed == 1 and cache.stats.waited + cache.stats.hits == 9


def test_least_recently_used_goes_first_by_entries_and_by_bytes():
    cache: SharedCache[str] = SharedCache(max_entries=3, max_bytes=10, size_of=len)
    for key in "abc":
        cache.get(key, functools.partial(operator.mul, key, 2))  # key * 2: 2 bytes each
    cache.get("a", lambda: pytest.fail("a is cached"))  # a is now the most recent
    cache.get("d", lambda: "dd")
    assert len(cache) == 3 and cache.stats.evicted == 1
    assert cache.get("b", lambda: "new b") == "new b"  # b was the least recent: it went
    cache.get("big", lambda: "x" * 9)  # 9 bytes: everything else goes to fit under 10
    assert cache.nbytes == 9 and len(cache) == 1


def test_a_value_larger_than_the_cache_is_returned_but_not_kept():
    cache = SharedCache(max_entries=3, max_bytes=4, size_of=len)
    assert cache.get("k", lambda: "too long") == "too long"
    assert len(cache) == 0 and cache.nbytes == 0


def test_an_error_reaches_every_waiting_thread_and_nothing_is_cached():
    cache: SharedCache[object] = SharedCache(max_entries=3, max_bytes=100, size_of=lambda v: 1)
    gate = threading.Event()

    def fail():
        gate.wait(5)
        raise ValueError("bad input")

    errors = []

    def ask():
        try:
            cache.get("k", fail)
        except ValueError as exc:
            errors.append(str(exc))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    time.sleep(0.1)
    gate.set()
    for t in threads:
        t.join(10)
    assert errors == ["bad input"] * 4 and cache.stats.computed == 1
    assert cache.get("k", lambda: "fine") == "fine"  # not cached: the next ask computes again


def test_bounds_must_be_positive():
    with pytest.raises(ValueError):
        SharedCache(max_entries=0, max_bytes=10, size_of=len)
