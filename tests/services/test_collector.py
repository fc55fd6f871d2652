"""services.collector: what exists at the freeze leaves the collector's walk; what is made later is still collected."""

from __future__ import annotations

import gc
import weakref

from services.collector import freeze_imports_once


class Node:
    """An object that can sit in a reference cycle and be watched through a weak reference."""

    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref:
    """Two nodes that refer to each other and to nothing else: only the cyclic collector can free them."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_freezing_moves_live_objects_out_of_the_walk_once_and_later_cycles_are_still_collected():
    gc.unfreeze()  # as a fresh process: nothing frozen yet (an app test in this session may have frozen)
    freeze_imports_once.cache_clear()
    try:
        frozen = freeze_imports_once()
        assert frozen >= gc.get_freeze_count() > 1000  # pytest, numpy, … imported; frozen objects freed since leave it
        assert freeze_imports_once() == frozen  # the second call does nothing
        watched = cycle()
        assert watched() is not None  # a cycle is not freed by reference counting
        gc.collect()
        assert watched() is None  # made after the freeze: the collector still frees it
        assert gc.get_freeze_count() <= frozen  # nothing new frozen (frozen objects freed by refcount leave it)
    finally:
        gc.unfreeze()  # the rest of the test session walks as before
        freeze_imports_once.cache_clear()
