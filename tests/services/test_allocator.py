"""services.allocator: glibc takes the thresholds; other C libraries are left alone; release_freed_memory() frees
garbage cycles and gives the heap glibc kept back to the OS."""

from __future__ import annotations

import gc
import platform
import threading
import time
import weakref
from pathlib import Path

import psutil
import pytest

from services import allocator


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="mallopt thresholds exist only in glibc")
def test_glibc_accepts_the_thresholds():
    assert allocator.keep_freed_memory() is True


def test_other_c_libraries_are_left_alone(monkeypatch):
    monkeypatch.setattr(platform, "libc_ver", lambda: ("musl", "1.2"))
    assert allocator.keep_freed_memory() is False


def test_once_asks_the_c_library_only_the_first_time(monkeypatch):
    calls = []

    def asked() -> bool:
        calls.append(1)
        return True

    monkeypatch.setattr(allocator, "keep_freed_memory", asked)
    allocator.keep_freed_memory_once.cache_clear()
    try:
        assert allocator.keep_freed_memory_once() is True and allocator.keep_freed_memory_once() is True
        assert calls == [1]
    finally:
        allocator.keep_freed_memory_once.cache_clear()


def test_importing_the_model_package_leaves_the_allocator_alone():
    """The thresholds are the app server's and the worker's choice, made explicitly: `import model` sets nothing."""
    source = (Path(__file__).resolve().parents[2] / "model" / "__init__.py").read_text()
    assert "allocator" not in source and "keep_freed_memory" not in source


class DroppedSession:
    """Stands for a browser session Streamlit dropped: its state refers back to it, so only the cycle collector
    frees it."""

    def __init__(self, blocks: int) -> None:
        self.me = self
        self.blocks = [b"\x01" * 2**20 for _ in range(blocks)]  # 1 MB each, written: glibc heap, not mmap


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="malloc_trim exists only in glibc")
def test_release_frees_a_dropped_cycle_and_gives_the_kept_heap_back():
    assert allocator.keep_freed_memory() is True  # as in the app server: glibc keeps up to 256 MB of freed heap
    gc.disable()  # no automatic collection in between: the cycle stays until it is collected
    try:
        gc.collect()
        allocator.release_freed_memory()
        start = rss_mb()
        session = DroppedSession(blocks=64)
        alive = weakref.ref(session)
        del session
        held = rss_mb()
        assert held - start > 60 and alive() is not None  # garbage, still held: nothing collected it
        gc.collect()
        assert alive() is None and rss_mb() - start > 60  # freed, but glibc kept the heap (the thresholds)
        assert allocator.release_freed_memory() == 0  # nothing left to collect ...
        assert rss_mb() - start < 10  # ... and the 64 MB went back to the OS

        session = DroppedSession(blocks=64)
        alive = weakref.ref(session)
        del session
        assert allocator.release_freed_memory() >= 1  # collected and given back in one call
        assert alive() is None and rss_mb() - start < 10
    finally:
        gc.enable()


def work(seconds: float) -> None:
    """Use the CPU (as a page run does) for about `seconds`."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_release_when_quiet_releases_after_work_and_not_while_idle():
    releases: list[float] = []
    stop = threading.Event()
    allocator.release_when_quiet(check_seconds=0.1, quiet_share=0.1, every=0.0, release=lambda: releases.append(1),
                                 stop=stop)  # fmt: skip
    try:
        time.sleep(1.0)
        assert releases == []  # idle from the start: nothing to give back, nothing done
        work(0.4)
        deadline = time.monotonic() + 30
        while not releases and time.monotonic() < deadline:
            time.sleep(0.05)
        assert releases  # released once the work was over
        time.sleep(0.5)
        after_work = len(releases)
        time.sleep(1.0)
        assert len(releases) == after_work  # idle again: no more
    finally:
        stop.set()
