"""A GPT's traced run computes the head at the last position only; the trace's logits (B, T, V) are computed when
first read and equal the head applied to every position (model.trace.Deferred)."""

from __future__ import annotations

import torch
import torch.nn.functional as F

from model.naming import LOGITS, Stack, final_norm_name
from model.trace import Deferred, Trace
from tests.toys import tiny_gpt


def test_a_deferred_entry_is_computed_once_on_first_read_and_counted_before():
    calls: list[int] = []
    value = torch.arange(6.0).reshape(2, 3)

    def compute() -> torch.Tensor:
        calls.append(1)
        return value

    entries: dict[str, torch.Tensor | Deferred] = {"a": torch.zeros(4), "b": Deferred(compute, nbytes=24)}
    trace = Trace(entries)
    assert "b" in trace and "c" not in trace and trace.names() == ["a", "b"] and len(trace) == 2
    assert trace.nbytes() == 4 * 4 + 24 and calls == []  # asking what it holds computes nothing
    labelled = trace.with_tokens(None, ["x"])  # shares the tensors: computing in one is computing in both
    assert torch.equal(labelled["b"], value) and torch.equal(trace["b"], value) and calls == [1]
    assert trace.nbytes() == 4 * 4 + 6 * 4 and sorted(trace) == ["a", "b"]


def test_the_trace_logits_equal_the_full_forward_and_the_prediction_its_argmax():
    lm = tiny_gpt()
    text = lm.task.example
    trace = lm.trace(text)
    ids = torch.tensor([lm.tokenize(text).ids])
    with torch.no_grad():
        full = lm.model(ids)  # (1, T, V): the untraced forward, every position
        last = lm.model(ids, last_only=True)  # (1, 1, V)
    final = trace[final_norm_name(Stack.DECODER)]
    logits = trace[LOGITS]
    assert logits.shape == full.shape
    torch.testing.assert_close(logits, full, rtol=0, atol=1e-5)
    with torch.no_grad():  # the trace's tensors are inference tensors
        torch.testing.assert_close(logits, F.linear(final, lm.model.wte.weight), rtol=0, atol=1e-6)  # tied head
    torch.testing.assert_close(last[0, 0], full[0, -1], rtol=0, atol=1e-5)
    assert trace.prediction == lm.vocabulary[int(full[0, -1].argmax())]


def test_next_logits_are_the_full_forwards_last_row():
    lm = tiny_gpt()
    text = lm.task.example
    ids = torch.tensor([lm.tokenize(text).ids])
    with torch.no_grad():
        full = lm.model(ids)  # (1, T, V): the untraced forward, every position
    torch.testing.assert_close(lm.next_logits(lm.trace(text)), full[0, -1], rtol=0, atol=1e-5)
