"""Keep freed memory in the process (glibc), so each traced forward does not page-fault its intermediates in again.

A trace keeps every intermediate alive until it is dropped (~2 MB at 64 tokens, ~25 MB at 256). With glibc's
dynamic mmap threshold such blocks are often mmapped, handed back to the OS when freed, and faulted in page by
page on the next forward: bench/forward.py measured the traced forward at 1.1× or 2.1× nn.Transformer at 64
tokens from one run to the next, and 2–4.4× at 256. Fixed thresholds (blocks up to 32 MB come from the heap;
up to 256 MB of freed heap is kept for reuse) made it a steady 1.1× and ~1.45×.

Nothing applies it on import: the processes that run traced forwards call it once at start (app.py for the app
server, services/training/worker.py for a training worker, bench/forward.py for its measurement).
"""

from __future__ import annotations

import ctypes
import functools
import platform

M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's mallopt parameters (malloc.h)
MMAP_THRESHOLD = 32 * 1024 * 1024  # far above any single block our traces hold (~1 MB of scores at 256 tokens)
TRIM_THRESHOLD = 256 * 1024 * 1024


def keep_freed_memory() -> bool:
    """Set the two thresholds; True when glibc took them, False on other C libraries (left as they are)."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return False
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))


@functools.cache
def keep_freed_memory_once() -> bool:
    """keep_freed_memory() the first time this process asks, its answer after that (app.py runs on every rerun)."""
    return keep_freed_memory()
