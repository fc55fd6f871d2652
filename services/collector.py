"""Keep Python's full garbage collections short: move what the app server holds after its imports out of their way.

The server process holds ~375 000 objects the collector tracks once torch, plotly, pandas and Streamlit are
imported, nearly all of them alive until it exits (modules, functions, classes). Every full (generation 2)
collection walks them all: 240–310 ms measured here, under the GIL, so whichever edit or follower triggers one
waits that long, and so does every other session (docs/capacity.md, "One person's edit"). gc.freeze() moves
every tracked object into a permanent generation the collector never walks; objects made later are collected as
before, cycles included (tests/services/test_collector.py). What is frozen is never freed, which is what an
imported module's objects are anyway. No gc.collect() first: that would cost one full walk on a cold start.
"""

from __future__ import annotations

import functools
import gc


@functools.cache
def freeze_imports_once() -> int:
    """gc.freeze() the first time this process asks (app.py runs on every rerun, after its imports); the number of
    objects frozen then."""
    gc.freeze()
    return gc.get_freeze_count()
