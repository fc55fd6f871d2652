"""model.memo's value keys and bounded cache, and the worked example kept per process: equal values share a result,
anything else does not, and what is shared cannot be changed by one caller for the others."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from model.memo import MISSING, BoundedCache, Unkeyable, value_key
from model.teach.walkthrough import worked_example

RNG = np.random.default_rng(7)


def test_equal_values_make_equal_keys_and_different_ones_differ():
    a = RNG.standard_normal((3, 4))
    assert value_key(a) == value_key(a.copy()) == value_key(torch.tensor(a))
    assert value_key(a) != value_key(a.astype(np.float32))  # another dtype
    assert value_key(a) != value_key(a.reshape(4, 3))  # another shape, the same bytes
    b = a.copy()
    b[1, 2] += 1e-12
    assert value_key(a) != value_key(b)
    assert value_key({"x": 1, "y": [a, "t"]}) == value_key({"y": [a.copy(), "t"], "x": 1})
    assert value_key(("a", 1)) != value_key(["a", 1])
    assert value_key(np.float32(0.5)) != value_key(np.float64(0.5)) != value_key(0.5)
    assert value_key(1) != value_key(True) and value_key(1) != value_key(1.0)
    with pytest.raises(Unkeyable):
        value_key([1, object()])


def test_the_cache_keeps_the_most_recently_used():
    cache = BoundedCache(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "a" is now the most recent
    cache.put("c", 3)
    assert cache.get("b") is MISSING and cache.get("a") == 1 and cache.get("c") == 3
    assert len(cache) == 2


def test_a_cache_with_a_byte_bound_drops_the_least_recent_until_it_fits():
    cache = BoundedCache(10, max_bytes=100, size_of=len)
    cache.put("a", "x" * 40)
    cache.put("b", "y" * 40)
    assert cache.nbytes == 80
    assert cache.get("a") == "x" * 40  # "a" is now the most recent
    cache.put("c", "z" * 30)  # 110 bytes: "b" goes
    assert cache.get("b") is MISSING and cache.nbytes == 70 and len(cache) == 2
    cache.put("a", "w" * 10)  # a key put again counts its new size only
    assert cache.nbytes == 40 and cache.get("a") == "w" * 10
    cache.put("huge", "h" * 101)  # larger than the bound alone: not kept, nothing else dropped
    assert cache.get("huge") is MISSING and len(cache) == 2 and cache.nbytes == 40
    cache.clear()
    assert len(cache) == 0 and cache.nbytes == 0
    with pytest.raises(ValueError):
        BoundedCache(2, max_bytes=10)


def _example(temperature: float = 1.0):
    x, wq, wk, wv, wo = (RNG.standard_normal((4, 4)) for _ in range(5))
    return (x, wq, wk, wv, wo, 2), {"mask": np.tril(np.ones((4, 4), dtype=bool)), "temperature": temperature}


def test_a_worked_example_is_computed_once_for_equal_values_and_equals_a_fresh_one():
    args, kwargs = _example()
    first = worked_example(*args, **kwargs)
    again = worked_example(*(a.copy() if isinstance(a, np.ndarray) else a for a in args), **kwargs)
    assert again is not first and all(again[name] is first[name] for name in first)  # the same arrays, shared
    fresh = worked_example.__wrapped__(*args, **kwargs)  # computed anew
    assert first.keys() == fresh.keys()
    for name, array in fresh.items():
        np.testing.assert_array_equal(again[name], array)
    hotter = worked_example(*args, mask=kwargs["mask"], temperature=2.0)  # another temperature: computed anew
    assert hotter["weights"] is not first["weights"]
    assert not np.allclose(hotter["weights"], first["weights"])


def test_what_one_caller_changes_does_not_reach_the_next():
    args, kwargs = _example()
    first = worked_example(*args, **kwargs)
    first["mask"] = "mine"  # a caller's own key, in its own dict
    with pytest.raises(ValueError):
        first["weights"][0, 0, 0] = 9.0  # the shared arrays are read-only
    again = worked_example(*args, **kwargs)
    assert "mask" not in again and again["weights"][0, 0, 0] != 9.0
