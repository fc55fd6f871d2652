"""model/sampling.py on hand-made distributions and closed forms: temperature is softmax(l / T), T → 0 is greedy,
top-k keeps the k largest, top-p the smallest set reaching p, both renormalise; seeds reproduce; bad input says why."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from model import InputError
from model.sampling import (
    GREEDY,
    SamplingSettings,
    chain,
    draw,
    greedy,
    sample,
    top_k_mask,
    top_p_mask,
)


def _logits_of(probs: list[float]) -> torch.Tensor:
    return torch.log(torch.tensor(probs, dtype=torch.float64))


P = [0.1, 0.4, 0.05, 0.25, 0.2]  # hand-made: sorted 0.4 (id 1), 0.25 (3), 0.2 (4), 0.1 (0), 0.05 (2)


def test_temperature_is_softmax_of_logits_over_t():
    logits = torch.tensor([2.0, -1.0, 0.5, 0.0])
    for t in (0.3, 1.0, 2.5):
        c = chain(logits, SamplingSettings(temperature=t))
        e = np.exp(np.array([2.0, -1.0, 0.5, 0.0]) / t)
        np.testing.assert_allclose(c.probs.numpy(), e / e.sum(), atol=1e-15)
        np.testing.assert_allclose(c.scaled.numpy(), np.array([2.0, -1.0, 0.5, 0.0]) / t)
        assert bool(c.kept.all())
        torch.testing.assert_close(c.renormalised, c.probs, atol=1e-15, rtol=0)
    # p_i ∝ p_i^(1/T) for logits log p: T = 0.5 squares and renormalises
    c = chain(_logits_of(P), SamplingSettings(temperature=0.5))
    squared = np.array(P) ** 2
    np.testing.assert_allclose(c.probs.numpy(), squared / squared.sum(), atol=1e-15)


def test_temperature_zero_is_greedy_the_limit_of_small_temperatures():
    logits = torch.tensor([0.3, 1.7, -2.0, 1.2])
    c = chain(logits, GREEDY)
    assert c.probs.tolist() == [0.0, 1.0, 0.0, 0.0]
    torch.testing.assert_close(c.probs, chain(logits, SamplingSettings(temperature=1e-3)).probs, atol=1e-12, rtol=0)
    assert greedy(c) == 1 and all(sample(c, seed) == 1 for seed in range(20))
    tied = chain(torch.tensor([1.0, 3.0, 3.0]), GREEDY)  # the limit shares a tie; greedy takes the smaller id
    assert tied.probs.tolist() == [0.0, 0.5, 0.5] and greedy(tied) == 1


def test_top_k_keeps_the_k_most_likely_and_renormalises():
    c = chain(_logits_of(P), SamplingSettings(top_k=2))
    assert c.kept.tolist() == [False, True, False, True, False]
    np.testing.assert_allclose(c.renormalised.numpy(), [0, 0.4 / 0.65, 0, 0.25 / 0.65, 0], atol=1e-15)
    assert top_k_mask(torch.tensor([1.0, 2.0, 2.0, 0.0]), 2).tolist() == [False, True, True, False]
    assert top_k_mask(torch.tensor([2.0, 2.0, 2.0]), 2).tolist() == [True, True, False]  # ties: smaller ids
    assert bool(top_k_mask(torch.tensor(P), None).all()) and bool(top_k_mask(torch.tensor(P), 5).all())


def test_top_k_with_many_ties_keeps_the_smaller_ids_as_a_stable_sort_does():
    generator = torch.Generator().manual_seed(0)
    for _ in range(200):
        scores = torch.randint(0, 6, (40,), generator=generator).double()  # 6 values over 40 ids: ties everywhere
        for k in (1, 3, 7, 20, 39):
            want = torch.zeros(40, dtype=torch.bool)
            want[torch.sort(scores, descending=True, stable=True).indices[:k]] = True
            assert torch.equal(top_k_mask(scores, k), want)


@pytest.mark.parametrize(
    ("p", "kept"),
    [
        (0.4, [1]),  # the first token alone reaches 0.4
        (0.41, [1, 3]),
        (0.65, [1, 3]),  # 0.4 + 0.25 reaches 0.65 exactly
        (0.66, [1, 3, 4]),
        (0.85, [1, 3, 4]),
        (0.9, [1, 3, 4, 0]),
        (0.96, [1, 3, 4, 0, 2]),
        (1.0, [0, 1, 2, 3, 4]),
        (0.01, [1]),  # always at least one
    ],
)
def test_top_p_keeps_the_smallest_set_reaching_p(p, kept):
    probs = torch.tensor(P, dtype=torch.float64)
    mask = top_p_mask(probs, p)
    assert sorted(torch.nonzero(mask)[:, 0].tolist()) == sorted(kept)
    assert float(probs[mask].sum()) >= p - 1e-12
    smaller = sorted(kept, key=lambda i: -P[i])[:-1]  # one token fewer falls short of p
    assert sum(P[i] for i in smaller) < p - 1e-12
    c = chain(_logits_of(P), SamplingSettings(top_p=p))
    np.testing.assert_allclose(c.renormalised.numpy(), np.where(mask.numpy(), P, 0) / probs[mask].sum().item())
    assert abs(float(c.renormalised.sum()) - 1) < 1e-12


def test_top_k_then_top_p_on_the_renormalised_top_k():
    # top-k 3 leaves 0.4, 0.25, 0.2 (sum 0.85) → renormalised 0.47, 0.29, 0.24; top-p 0.7 then keeps two, as
    # 0.47 + 0.29 = 0.76 ≥ 0.7
    c = chain(_logits_of(P), SamplingSettings(top_k=3, top_p=0.7))
    assert torch.nonzero(c.kept)[:, 0].tolist() == [1, 3]
    np.testing.assert_allclose(c.renormalised.numpy(), [0, 0.4 / 0.65, 0, 0.25 / 0.65, 0], atol=1e-15)
    # on the unrenormalised probabilities 0.4 + 0.25 = 0.65 < 0.7 would have kept a third: it must not
    assert not bool(c.kept[4])


def test_draw_is_the_inverse_of_the_cumulative_distribution():
    probs = torch.tensor([0.1, 0.0, 0.4, 0.5], dtype=torch.float64)  # cumulative 0.1, 0.1, 0.5, 1.0
    assert [draw(probs, u) for u in (0.0, 0.0999, 0.1, 0.3, 0.4999, 0.5, 0.99, 0.999999999)] == [0, 0, 2, 2, 2, 3, 3, 3]
    assert draw(torch.tensor([0.3, 0.7 - 1e-12, 0.0], dtype=torch.float64), 1 - 1e-13) == 1  # never the 0 token


def test_sampling_follows_the_distribution_and_a_seed_reproduces_it():
    c = chain(_logits_of(P), SamplingSettings(top_k=3))
    generator = torch.Generator().manual_seed(0)
    counts = np.bincount([sample(c, generator) for _ in range(20_000)], minlength=5) / 20_000
    expected = c.renormalised.numpy()
    assert np.all(np.abs(counts - expected) < 4 * np.sqrt(expected * (1 - expected) / 20_000) + 1e-12)
    assert counts[0] == counts[2] == 0  # cut tokens never come out
    assert [sample(c, 42) for _ in range(5)] == [sample(c, 42)] * 5
    u = float(torch.rand((), generator=torch.Generator().manual_seed(42), dtype=torch.float64))
    assert sample(c, 42) == draw(c.renormalised, u)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (dict(temperature=-0.5), "at least 0"), (dict(temperature=math.nan), "at least 0"),
        (dict(temperature=math.inf), "at least 0"), (dict(temperature=1e6), "too large"),
        (dict(temperature="hot"), "at least 0"), (dict(top_k=0), "top-k"), (dict(top_k=2.5), "top-k"),
        (dict(top_k=True), "top-k"), (dict(top_p=0.0), "top-p"), (dict(top_p=-0.1), "top-p"),
        (dict(top_p=1.01), "top-p"), (dict(top_p=math.nan), "top-p"), (dict(seed=-1), "seed"),
        (dict(seed=2**64), "seed"), (dict(seed="abc"), "seed"),
    ],
)  # fmt: skip
def test_bad_settings_are_input_errors_that_say_why(settings, message):
    with pytest.raises(InputError, match=message) as info:
        SamplingSettings(**settings)
    assert info.value.template and "{" in info.value.template  # a translatable template with its values


def test_top_k_larger_than_the_vocabulary_is_refused():
    with pytest.raises(InputError, match="only 5 tokens"):
        chain(_logits_of(P), SamplingSettings(top_k=6))
    assert bool(chain(_logits_of(P), SamplingSettings(top_k=5)).kept.all())
    assert SamplingSettings(top_p=1).top_p == 1
