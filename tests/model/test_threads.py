"""One shared model, many threads: concurrent .run() calls get the traces of sequential runs (no state leaks between
calls: a leak would differ by far more than float32's rounding)."""

from __future__ import annotations

import threading

import torch

from model import load_pretrained

INPUTS = ["the big red dog sees a small cat", "a young king likes the old green horse", "the cat finds a wolf"]


def test_concurrent_runs_match_sequential_runs():
    loaded = load_pretrained("translate")
    attributes_before = {name: set(vars(m)) for name, m in loaded.model.named_modules()}
    sequential = [loaded.run(text) for text in INPUTS]
    rounds, results, errors = 5, {}, []
    barrier = threading.Barrier(len(INPUTS))

    def worker(i: int) -> None:
        try:
            for r in range(rounds):
                barrier.wait(timeout=30)
                results[(i, r)] = loaded.run(INPUTS[i])
        except Exception as exc:  # surfaced by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(len(INPUTS))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors
    assert len(results) == len(INPUTS) * rounds
    for (i, _), trace in results.items():
        expected = sequential[i]
        assert trace.tokens("src") == expected.tokens("src") and trace.tokens("tgt") == expected.tokens("tgt")
        assert set(trace) == set(expected)
        for name in expected:  # float32's rounding at most: CI's CPU split a matmul differently in a second thread
            torch.testing.assert_close(trace[name], expected[name], rtol=1e-5, atol=1e-6, msg=name)
    # nothing was stored on the shared modules by any call
    assert {name: set(vars(m)) for name, m in loaded.model.named_modules()} == attributes_before
