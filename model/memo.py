"""Results kept per process for equal arguments: a key made of values (arrays and tensors by their bytes) and a
bounded least-recently-used map that script threads share.

A class following a teacher asks for the same walk and the same figures once per student; what they compute depends
only on the arguments' values, so the first student's result serves the others (viz.memo, model.teach.walkthrough).
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import numpy as np
import torch

MISSING = object()  # BoundedCache.get's answer for a key it does not hold
C = TypeVar("C", bound=Callable[..., Any])


class Unkeyable(Exception):
    """An argument with no value-based key: compute without the cache."""


def value_key(value: Any) -> Hashable:
    """A hashable key equal for equal values: arrays and tensors by dtype, shape and bytes; Unkeyable for anything
    else than those, numbers, strings, None and (nested) lists, tuples and dicts of them."""
    if isinstance(value, np.generic):  # before float: NumPy's float64 is one
        return ("np", value.dtype.str, value.item())
    if value is None or isinstance(value, (str, int, float, bool)):
        return (type(value).__name__, value)  # 1, 1.0 and True are equal, but may not draw the same
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, *map(value_key, value))
    if isinstance(value, dict):
        return ("dict", *sorted((str(k), value_key(v)) for k, v in value.items()))
    if isinstance(value, torch.Tensor):
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray):
        array = np.ascontiguousarray(value)
        return ("nd", array.dtype.str, array.shape, array.tobytes())
    raise Unkeyable(type(value).__name__)


class BoundedCache:
    """At most `size` results and, when `size_of` is given, at most `max_bytes` of them as it measures them (a result
    larger than that alone is not kept); the least recently used dropped first; safe across threads."""

    def __init__(self, size: int, max_bytes: int | None = None, size_of: Callable[[Any], int] | None = None) -> None:
        if (max_bytes is None) != (size_of is None):
            raise ValueError("max_bytes and size_of go together")
        self._size, self._max_bytes, self._size_of = size, max_bytes, size_of
        self._lock, self._items = threading.Lock(), OrderedDict[Hashable, tuple[Any, int]]()
        self._bytes = 0

    def get(self, key: Hashable) -> Any:
        """The result kept under `key`, or MISSING."""
        with self._lock:
            found = self._items.get(key)
            if found is None:
                return MISSING
            self._items.move_to_end(key)
            return found[0]

    def put(self, key: Hashable, result: Any) -> int:
        """Keep `result` under `key`; how many results were dropped to make room."""
        size = 0 if self._size_of is None else max(0, int(self._size_of(result)))
        if self._max_bytes is not None and size > self._max_bytes:
            return 0
        dropped = 0
        with self._lock:
            if key in self._items:
                self._bytes -= self._items.pop(key)[1]
            self._items[key] = (result, size)
            self._bytes += size
            while len(self._items) > self._size or (self._max_bytes is not None and self._bytes > self._max_bytes):
                self._bytes -= self._items.popitem(last=False)[1][1]
                dropped += 1
        return dropped

    def kept_keys(self) -> list[Hashable]:
        """The keys kept, the least recently used first."""
        with self._lock:
            return list(self._items)

    def __len__(self) -> int:
        return len(self._items)

    @property
    def nbytes(self) -> int:
        """The kept results' size as `size_of` measured them (0 without it)."""
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0


def kept(cache: BoundedCache, keep: Callable[[Any], Any] | None = None, give: Callable[[Any], Any] | None = None):
    """Decorator: the function's result kept in `cache` for arguments of equal values (computed anew for arguments
    without a value key); `keep` prepares a new result to be shared (makes it read-only, say), `give` what each call
    returns of it (a copy of its outer container, say)."""

    def wrap(compute: C) -> C:
        @functools.wraps(compute)
        def cached(*args: Any, **kwargs: Any) -> Any:
            try:
                key = (compute.__module__, compute.__qualname__, value_key(args), value_key(kwargs))
            except Unkeyable:
                return compute(*args, **kwargs)
            found = cache.get(key)
            if found is MISSING:
                found = compute(*args, **kwargs)
                found = keep(found) if keep is not None else found
                cache.put(key, found)
            return give(found) if give is not None else found

        return cached  # type: ignore[return-value]

    return wrap
