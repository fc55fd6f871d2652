"""Keep freed memory in the process (glibc), so each traced forward does not page-fault its intermediates in again.

A trace keeps every intermediate alive until it is dropped (~2 MB at 64 tokens, ~25 MB at 256). With glibc's
dynamic mmap threshold such blocks are often mmapped, handed back to the OS when freed, and faulted in page by
page on the next forward: bench/forward.py measured the traced forward at 1.1× or 2.1× nn.Transformer at 64
tokens from one run to the next, and 2–4.4× at 256. Fixed thresholds (blocks up to 32 MB come from the heap;
up to 256 MB of freed heap is kept for reuse) made it a steady 1.1× and ~1.45×.

Nothing applies it on import: the processes that run traced forwards call it once at start (app.py for the app
server, services/training/worker.py for a training worker, bench/forward.py for its measurement).

What the server frees in bulk is another matter: a browser session Streamlit drops after its disconnectedSessionTTL
is a web of reference cycles (its state, its trained models and their download archive, its figures), freed only by
a full garbage collection, which Streamlit's post-script GC being off (.streamlit/config.toml) and gc.freeze()
(services/collector.py) make rare; and once freed, glibc keeps that heap. release_freed_memory() collects and hands
the free heap back (malloc_trim(0)) at moments nobody waits for: after a training job has finished (the pool's
thread) and when the server has gone quiet after work (release_when_quiet, started by app.py); so the edits' working
set is faulted in again at most once after each (docs/capacity.md, "Memory: release when quiet").
"""

from __future__ import annotations

import ctypes
import functools
import gc
import platform
import threading
import time
from collections.abc import Callable

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
MMAP_THRESHOLD = 32 * 1024 * 1024  # far above any single block our traces hold (~1 MB of scores at 256 tokens)
TRIM_THRESHOLD = 256 * 1024 * 1024
QUIET_CHECK_SECONDS = 5.0  # release_when_quiet: how often it looks at the process's CPU time
QUIET_CPU_SHARE = 0.02  # a check with less CPU than this share of one core: nobody is being served
QUIET_RELEASE_EVERY = 60.0  # seconds between two releases when quiet, at least


def _glibc() -> ctypes.CDLL | None:
    """The C library when it is glibc, else None."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        return ctypes.CDLL("libc.so.6")
    except OSError:
        return None


def keep_freed_memory() -> bool:
    """Set the two thresholds; True when glibc took them, False on other C libraries (left as they are)."""
    libc = _glibc()
    if libc is None:
        return False
    try:
        mallopt = libc.mallopt
    except AttributeError:
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))


@functools.cache
def keep_freed_memory_once() -> bool:
    """keep_freed_memory() the first time this process asks, its answer after that (app.py runs on every rerun)."""
    return keep_freed_memory()


def release_freed_memory() -> int:
    """Collect garbage cycles (gc.collect()), then have glibc give its free heap back to the OS (malloc_trim(0),
    every arena; the thresholds above stay as they are). The number of objects collected.

    The collection holds the GIL: ~85 ms in a server after a soak (~126 000 objects tracked besides the frozen
    imports; the trim itself < 1 ms). Call it where no page run waits for it, and seldom."""
    collected = gc.collect()
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim.argtypes, libc.malloc_trim.restype = (ctypes.c_size_t,), ctypes.c_int
        libc.malloc_trim(0)
    return collected


def release_when_quiet(
    check_seconds: float = QUIET_CHECK_SECONDS,
    quiet_share: float = QUIET_CPU_SHARE,
    every: float = QUIET_RELEASE_EVERY,
    release: Callable[[], object] = release_freed_memory,
    stop: threading.Event | None = None,
) -> threading.Thread:
    """A daemon thread that calls `release` once the process, after some work, spent a whole check using less
    than `quiet_share` of a core (no edit, no page run: sessions dropped since are garbage now), at most once in
    `every` seconds. Its own release does not count as work. It runs until `stop` is set (tests) or the process ends."""
    stopped = stop or threading.Event()

    def watch() -> None:
        worked, last_release = False, float("-inf")
        cpu, now = time.process_time(), time.monotonic()
        while not stopped.wait(check_seconds):
            cpu_then, then = cpu, now
            cpu, now = time.process_time(), time.monotonic()
            if cpu - cpu_then > quiet_share * (now - then):
                worked = True
            elif worked and now - last_release >= every:
                release()
                worked, last_release = False, now
                cpu = time.process_time()  # the release's own CPU is not work

    thread = threading.Thread(target=watch, name="release-when-quiet", daemon=True)
    thread.start()
    return thread


@functools.cache
def release_when_quiet_once() -> threading.Thread:
    """release_when_quiet() the first time this process asks (app.py runs on every rerun)."""
    return release_when_quiet()
